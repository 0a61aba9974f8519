// RUN: %check %s
// float16 with bfloat16 promotes to float32.
// REF: add_h_g = h + g
// REF: mul_h_g = h * g
// REF: max_g_h = mx.maximum(g, h)
// REF: less_h_g = h < g
func.func @binary_f16_bf16(
    %h: tensor<2x3xf16> {mlx.name = "h"},
    %g: tensor<3xbf16> {mlx.name = "g"})
    -> (tensor<2x3xf32> {mlx.name = "add_h_g"},
    tensor<2x3xf32> {mlx.name = "mul_h_g"},
    tensor<2x3xf32> {mlx.name = "max_g_h"},
    tensor<2x3xi1> {mlx.name = "less_h_g"}) {
  %add_h_g = mlx.add %h, %g : tensor<2x3xf16>, tensor<3xbf16>
  %mul_h_g = mlx.multiply %h, %g : tensor<2x3xf16>, tensor<3xbf16>
  %max_g_h = mlx.maximum %g, %h : tensor<3xbf16>, tensor<2x3xf16>
  %less_h_g = mlx.less %h, %g : tensor<2x3xf16>, tensor<3xbf16>
  return %add_h_g, %mul_h_g, %max_g_h, %less_h_g
      : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi1>
}
