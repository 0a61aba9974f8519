// RUN: %check %s
// matmul and addmm on float16 (as matmul-float32).
// REF: mm = a @ b
// REF: mm_batch = ba @ bb
// REF: mm_bcast = ta @ b
// REF: vm = v @ bb
// REF: mv = ta @ v
// REF: vv = (v @ w).reshape(1)
// REF: mm_t = a @ tb.T
// REF: mm_tt = ta.transpose(0, 2, 1) @ ta
// REF: addmm = mx.addmm(c, a, b)
// REF: addmm_ab = mx.addmm(c2, a, b, alpha=0.5, beta=2.0)
// REF: addmm_neg = mx.addmm(c, a, tb.T, alpha=-1.5, beta=0.0)
// REF: addmm_batch = mx.addmm(bc, ta, bb, alpha=2.0, beta=0.5)
func.func @matmul_float16(
    %a: tensor<4x16xf16> {mlx.name = "a"},
    %b: tensor<16x8xf16> {mlx.name = "b"},
    %ba: tensor<2x1x4x16xf16> {mlx.name = "ba"},
    %bb: tensor<3x16x5xf16> {mlx.name = "bb"},
    %v: tensor<16xf16> {mlx.name = "v"},
    %w: tensor<16xf16> {mlx.name = "w"},
    %ta: tensor<3x4x16xf16> {mlx.name = "ta"},
    %tb: tensor<8x16xf16> {mlx.name = "tb"},
    %c: tensor<8xf16> {mlx.name = "c"},
    %c2: tensor<4x8xf16> {mlx.name = "c2"},
    %bc: tensor<3x1x5xf16> {mlx.name = "bc"})
    -> (tensor<4x8xf16> {mlx.name = "mm"},
    tensor<2x3x4x5xf16> {mlx.name = "mm_batch"},
    tensor<3x4x8xf16> {mlx.name = "mm_bcast"},
    tensor<3x5xf16> {mlx.name = "vm"},
    tensor<3x4xf16> {mlx.name = "mv"},
    tensor<1xf16> {mlx.name = "vv"},
    tensor<4x8xf16> {mlx.name = "mm_t"},
    tensor<3x16x16xf16> {mlx.name = "mm_tt"},
    tensor<4x8xf16> {mlx.name = "addmm"},
    tensor<4x8xf16> {mlx.name = "addmm_ab"},
    tensor<4x8xf16> {mlx.name = "addmm_neg"},
    tensor<3x4x5xf16> {mlx.name = "addmm_batch"}) {
  %mm = mlx.matmul %a, %b : tensor<4x16xf16>, tensor<16x8xf16>
  %mm_batch = mlx.matmul %ba, %bb : tensor<2x1x4x16xf16>, tensor<3x16x5xf16>
  %mm_bcast = mlx.matmul %ta, %b : tensor<3x4x16xf16>, tensor<16x8xf16>
  %vm = mlx.matmul %v, %bb : tensor<16xf16>, tensor<3x16x5xf16>
  %mv = mlx.matmul %ta, %v : tensor<3x4x16xf16>, tensor<16xf16>
  %vv_s = mlx.matmul %v, %w : tensor<16xf16>, tensor<16xf16>
  %vv = mlx.reshape %vv_s {shape = array<i64: 1>} : tensor<f16>
  %tbt = mlx.transpose %tb {axes = array<i64: 1, 0>} : tensor<8x16xf16>
  %mm_t = mlx.matmul %a, %tbt : tensor<4x16xf16>, tensor<16x8xf16>
  %tat = mlx.transpose %ta {axes = array<i64: 0, 2, 1>} : tensor<3x4x16xf16>
  %mm_tt = mlx.matmul %tat, %ta : tensor<3x16x4xf16>, tensor<3x4x16xf16>
  %addmm = mlx.addmm %c, %a, %b : tensor<8xf16>, tensor<4x16xf16>, tensor<16x8xf16>
  %addmm_ab = mlx.addmm %c2, %a, %b {alpha = 0.5 : f32, beta = 2.0 : f32} : tensor<4x8xf16>, tensor<4x16xf16>, tensor<16x8xf16>
  %addmm_neg = mlx.addmm %c, %a, %tbt {alpha = -1.5 : f32, beta = 0.0 : f32} : tensor<8xf16>, tensor<4x16xf16>, tensor<16x8xf16>
  %addmm_batch = mlx.addmm %bc, %ta, %bb {alpha = 2.0 : f32, beta = 0.5 : f32} : tensor<3x1x5xf16>, tensor<3x4x16xf16>, tensor<3x16x5xf16>
  return %mm, %mm_batch, %mm_bcast, %vm, %mv, %vv, %mm_t, %mm_tt, %addmm, %addmm_ab, %addmm_neg, %addmm_batch
      : tensor<4x8xf16>, tensor<2x3x4x5xf16>, tensor<3x4x8xf16>, tensor<3x5xf16>, tensor<3x4xf16>, tensor<1xf16>, tensor<4x8xf16>, tensor<3x16x16xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<3x4x5xf16>
}
