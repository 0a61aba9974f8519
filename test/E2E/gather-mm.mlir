// RUN: %check %s
// gather_mm: right indices only (a 2-D left operand, and a left operand
// whose own batch broadcasts against the indices), left indices only (into
// the flattened batch of a 4-D operand), both index arrays broadcasting
// together, and float16 / bfloat16 operands (accumulated in float32; MLX's
// CPU gather_mm takes float32 only, so their reference converts).
// INPUT: ri = randint(0, 3)
// INPUT: ri5 = randint(0, 5)
// INPUT: li = randint(0, 6)
// INPUT: bli = randint(0, 2)
// INPUT: bri = randint(0, 4)
// REF: rhs_only = mx.gather_mm(a2, b3, rhs_indices=ri)
// REF: rhs_bcast = mx.gather_mm(a4, b5, rhs_indices=ri5)
// REF: lhs_only = mx.gather_mm(a6, b2, lhs_indices=li)
// REF: f32 = lambda v: v.astype(mx.float32)
// REF: both = mx.gather_mm(f32(ha), f32(hb), lhs_indices=bli, rhs_indices=bri).astype(mx.float16)
// REF: both_bf16 = mx.gather_mm(f32(ba), f32(bb), lhs_indices=bli, rhs_indices=bri).astype(mx.bfloat16)
func.func @gather_mm(
    %a2: tensor<6x4xf32> {mlx.name = "a2"},
    %b3: tensor<3x4x5xf32> {mlx.name = "b3"},
    %ri: tensor<4xui32> {mlx.name = "ri"},
    %a4: tensor<2x1x3x4xf32> {mlx.name = "a4"},
    %b5: tensor<5x4x6xf32> {mlx.name = "b5"},
    %ri5: tensor<3xui32> {mlx.name = "ri5"},
    %a6: tensor<3x2x6x4xf32> {mlx.name = "a6"},
    %b2: tensor<4x5xf32> {mlx.name = "b2"},
    %li: tensor<2x1xi32> {mlx.name = "li"},
    %ha: tensor<2x3x16xf16> {mlx.name = "ha"},
    %hb: tensor<4x16x5xf16> {mlx.name = "hb"},
    %ba: tensor<2x3x16xbf16> {mlx.name = "ba"},
    %bb: tensor<4x16x5xbf16> {mlx.name = "bb"},
    %bli: tensor<2x1xui32> {mlx.name = "bli"},
    %bri: tensor<3xui32> {mlx.name = "bri"})
    -> (tensor<4x6x5xf32> {mlx.name = "rhs_only"},
    tensor<2x3x3x6xf32> {mlx.name = "rhs_bcast"},
    tensor<2x1x6x5xf32> {mlx.name = "lhs_only"},
    tensor<2x3x3x5xf16> {mlx.name = "both"},
    tensor<2x3x3x5xbf16> {mlx.name = "both_bf16"}) {
  %rhs_only = mlx.gather_mm %a2, %b3 rhs_indices(%ri : tensor<4xui32>) : tensor<6x4xf32>, tensor<3x4x5xf32>
  %rhs_bcast = mlx.gather_mm %a4, %b5 rhs_indices(%ri5 : tensor<3xui32>) : tensor<2x1x3x4xf32>, tensor<5x4x6xf32>
  %lhs_only = mlx.gather_mm %a6, %b2 lhs_indices(%li : tensor<2x1xi32>) : tensor<3x2x6x4xf32>, tensor<4x5xf32>
  %both = mlx.gather_mm %ha, %hb lhs_indices(%bli : tensor<2x1xui32>) rhs_indices(%bri : tensor<3xui32>) : tensor<2x3x16xf16>, tensor<4x16x5xf16>
  %both_bf16 = mlx.gather_mm %ba, %bb lhs_indices(%bli : tensor<2x1xui32>) rhs_indices(%bri : tensor<3xui32>) : tensor<2x3x16xbf16>, tensor<4x16x5xbf16>
  return %rhs_only, %rhs_bcast, %lhs_only, %both, %both_bf16
      : tensor<4x6x5xf32>, tensor<2x3x3x6xf32>, tensor<2x1x6x5xf32>, tensor<2x3x3x5xf16>, tensor<2x3x3x5xbf16>
}
