func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = mlx.exp %x : tensor<8xf32>
  %y = mlx.sort %e : tensor<8xf32>
  return %y : tensor<8xf32>
}
