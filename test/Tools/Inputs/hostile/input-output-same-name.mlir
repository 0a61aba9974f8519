func.func @f(%x: tensor<4xf32> {mlx.name = "y"}) -> (tensor<4xf32> {mlx.name = "y"}) {
  %y = mlx.exp %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
