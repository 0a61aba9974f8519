// RUN: %check %s
// matmul with mixed operand dtypes: float16 @ bfloat16 -> float32,
// float32 @ float16 -> float32; addmm with a float16 bias and float32 operands.
// REF: h_g = h @ g
// REF: h_f = h @ f
// REF: addmm_mixed = mx.addmm(c, a, f)
func.func @matmul_mixed(
    %h: tensor<3x8xf16> {mlx.name = "h"},
    %g: tensor<8x4xbf16> {mlx.name = "g"},
    %f: tensor<8x4xf32> {mlx.name = "f"},
    %c: tensor<4xf16> {mlx.name = "c"},
    %a: tensor<3x8xf32> {mlx.name = "a"})
    -> (tensor<3x4xf32> {mlx.name = "h_g"},
    tensor<3x4xf32> {mlx.name = "h_f"},
    tensor<3x4xf32> {mlx.name = "addmm_mixed"}) {
  %h_g = mlx.matmul %h, %g : tensor<3x8xf16>, tensor<8x4xbf16>
  %h_f = mlx.matmul %h, %f : tensor<3x8xf16>, tensor<8x4xf32>
  %addmm_mixed = mlx.addmm %c, %a, %f : tensor<4xf16>, tensor<3x8xf32>, tensor<8x4xf32>
  return %h_g, %h_f, %addmm_mixed
      : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
}
