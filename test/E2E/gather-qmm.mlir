// RUN: %check %s
// gather_qmm (affine): right indices into a stack of matrices quantized in
// the graph, both index arrays broadcasting together, transpose = false,
// 3-bit packed words given as inputs, and float16 (whose reference is the
// bit-exact mx.dequantize with a float32 matmul, as mlxc computes: MLX
// accumulates half products in the half type).
// INPUT: ri = randint(0, 4)
// INPUT: li = randint(0, 3)
// INPUT: ri3 = randint(0, 4)
// INPUT: q3 = randint(0, 2**32)
// INPUT: s3 = uniform(-0.05, 0.05)
// INPUT: b3 = uniform(-0.5, 0.5)
// REF: rhs = mx.gather_qmm(x, *mx.quantize(w, group_size=32, bits=4), rhs_indices=ri, group_size=32, bits=4)
// REF: both = mx.gather_qmm(xl, *mx.quantize(w, group_size=64, bits=8), lhs_indices=li, rhs_indices=ri3, group_size=64, bits=8)
// REF: no_transpose = mx.gather_qmm(x, *mx.quantize(wt, group_size=32, bits=2), rhs_indices=ri, transpose=False, group_size=32, bits=2)
// REF: packed3 = mx.gather_qmm(x, q3, s3, b3, rhs_indices=ri, group_size=64, bits=3)
// REF: hq, hs, hb = mx.quantize(hw, group_size=64, bits=6)
// REF: hd = mx.dequantize(hq, hs, hb, group_size=64, bits=6).astype(mx.float32)
// REF: half = (hx.astype(mx.float32) @ hd[ri].swapaxes(-1, -2)).astype(mx.float16)
func.func @gather_qmm(
    %x: tensor<2x1x3x64xf32> {mlx.name = "x"},
    %w: tensor<4x8x64xf32> {mlx.name = "w"},
    %ri: tensor<2xui32> {mlx.name = "ri"},
    %xl: tensor<3x2x64xf32> {mlx.name = "xl"},
    %li: tensor<2x1xi32> {mlx.name = "li"},
    %ri3: tensor<3xui32> {mlx.name = "ri3"},
    %wt: tensor<4x64x32xf32> {mlx.name = "wt"},
    %q3: tensor<4x8x6xui32> {mlx.name = "q3"},
    %s3: tensor<4x8x1xf32> {mlx.name = "s3"},
    %b3: tensor<4x8x1xf32> {mlx.name = "b3"},
    %hx: tensor<2x1x3x64xf16> {mlx.name = "hx"},
    %hw: tensor<4x8x64xf16> {mlx.name = "hw"})
    -> (tensor<2x2x3x8xf32> {mlx.name = "rhs"},
    tensor<2x3x2x8xf32> {mlx.name = "both"},
    tensor<2x2x3x32xf32> {mlx.name = "no_transpose"},
    tensor<2x2x3x8xf32> {mlx.name = "packed3"},
    tensor<2x2x3x8xf16> {mlx.name = "half"}) {
  %q:3 = mlx.quantize %w {group_size = 32 : i64, bits = 4 : i64} : tensor<4x8x64xf32>
  %rhs = mlx.gather_qmm %x, %q#0, %q#1 biases(%q#2 : tensor<4x8x2xf32>) rhs_indices(%ri : tensor<2xui32>) {group_size = 32 : i64, bits = 4 : i64} : tensor<2x1x3x64xf32>, tensor<4x8x8xui32>, tensor<4x8x2xf32>
  %q8:3 = mlx.quantize %w {group_size = 64 : i64, bits = 8 : i64} : tensor<4x8x64xf32>
  %both = mlx.gather_qmm %xl, %q8#0, %q8#1 biases(%q8#2 : tensor<4x8x1xf32>) lhs_indices(%li : tensor<2x1xi32>) rhs_indices(%ri3 : tensor<3xui32>) {group_size = 64 : i64, bits = 8 : i64} : tensor<3x2x64xf32>, tensor<4x8x16xui32>, tensor<4x8x1xf32>
  %qt:3 = mlx.quantize %wt {group_size = 32 : i64, bits = 2 : i64} : tensor<4x64x32xf32>
  %no_transpose = mlx.gather_qmm %x, %qt#0, %qt#1 biases(%qt#2 : tensor<4x64x1xf32>) rhs_indices(%ri : tensor<2xui32>) {transpose = false, group_size = 32 : i64, bits = 2 : i64} : tensor<2x1x3x64xf32>, tensor<4x64x2xui32>, tensor<4x64x1xf32>
  %packed3 = mlx.gather_qmm %x, %q3, %s3 biases(%b3 : tensor<4x8x1xf32>) rhs_indices(%ri : tensor<2xui32>) {group_size = 64 : i64, bits = 3 : i64} : tensor<2x1x3x64xf32>, tensor<4x8x6xui32>, tensor<4x8x1xf32>
  %hq:3 = mlx.quantize %hw {group_size = 64 : i64, bits = 6 : i64} : tensor<4x8x64xf16>
  %half = mlx.gather_qmm %hx, %hq#0, %hq#1 biases(%hq#2 : tensor<4x8x1xf16>) rhs_indices(%ri : tensor<2xui32>) {group_size = 64 : i64, bits = 6 : i64} : tensor<2x1x3x64xf16>, tensor<4x8x12xui32>, tensor<4x8x1xf16>
  return %rhs, %both, %no_transpose, %packed3, %half
      : tensor<2x2x3x8xf32>, tensor<2x3x2x8xf32>, tensor<2x2x3x32xf32>, tensor<2x2x3x8xf32>, tensor<2x2x3x8xf16>
}
