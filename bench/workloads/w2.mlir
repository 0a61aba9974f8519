// W2: silu(x + bias), bias broadcast over rows.
func.func @w2(%x: tensor<16384x4096xf32> {mlx.name = "x"}, %bias: tensor<4096xf32> {mlx.name = "bias"}) -> tensor<16384x4096xf32> {
  %h = mlx.add %x, %bias : tensor<16384x4096xf32>, tensor<4096xf32>
  %s = mlx.sigmoid %h : tensor<16384x4096xf32>
  %y = mlx.multiply %h, %s : tensor<16384x4096xf32>, tensor<16384x4096xf32>
  return %y : tensor<16384x4096xf32>
}
