func.func @f(%x: tensor<4xf32> {mlx.name = "a\0Ab"}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
