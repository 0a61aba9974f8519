// One kernel: y = 2 * x.
func.func @double(%x: tensor<4xf32> {mlx.name = "x"}) -> (tensor<4xf32> {mlx.name = "y"}) {
  %two = mlx.constant dense<2.0> : tensor<f32>
  %y = mlx.multiply %x, %two : tensor<4xf32>, tensor<f32>
  return %y : tensor<4xf32>
}
