func.func @f(%x: tensor<4xf32> {mlx.name = "a=b"}, %y: tensor<4xf32> {mlx.name = "x\0Ay"}) -> tensor<4xf32> {
  %z = mlx.add %x, %y : tensor<4xf32>, tensor<4xf32>
  return %z : tensor<4xf32>
}
