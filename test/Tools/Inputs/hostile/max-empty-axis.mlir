func.func @f(%x: tensor<4x0xf32>) -> tensor<4xf32> {
  %y = mlx.max %x {axes = array<i64: 1>, keepdims = false} : tensor<4x0xf32>
  return %y : tensor<4xf32>
}
