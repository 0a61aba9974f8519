func.func @f(%x: tensor<1x1x1x1x1x1x1x1x1xf32>) -> tensor<1x1x1x1x1x1x1x1x1xf32> {
  %y = mlx.exp %x : tensor<1x1x1x1x1x1x1x1x1xf32>
  return %y : tensor<1x1x1x1x1x1x1x1x1xf32>
}
