// A bfloat16 model for the Python package: y = 2 * x + b.
func.func @scale_bf16(%x: tensor<4x8xbf16> {mlx.name = "x"},
                      %b: tensor<8xbf16> {mlx.name = "b"})
    -> (tensor<4x8xbf16> {mlx.name = "y"}) {
  %two = mlx.constant dense<2.0> : tensor<bf16>
  %scaled = mlx.multiply %x, %two : tensor<4x8xbf16>, tensor<bf16>
  %y = mlx.add %scaled, %b : tensor<4x8xbf16>, tensor<8xbf16>
  return %y : tensor<4x8xbf16>
}
