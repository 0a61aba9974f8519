func.func @first(%x: tensor<4xf32> {mlx.name = "x"}) -> tensor<4xf32> {
  %y = mlx.exp %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @second(%x: tensor<4xf32> {mlx.name = "x"}) -> tensor<4xf32> {
  %y = mlx.tanh %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
