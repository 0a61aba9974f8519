// W5: layer_norm, eps 1e-5.
func.func @w5(%x: tensor<16384x4096xf32> {mlx.name = "x"}, %w: tensor<4096xf32> {mlx.name = "w"}, %b: tensor<4096xf32> {mlx.name = "b"}) -> tensor<16384x4096xf32> {
  %y = mlx.layer_norm %x weight(%w : tensor<4096xf32>) bias(%b : tensor<4096xf32>) {eps = 1.0e-05 : f32} : tensor<16384x4096xf32>
  return %y : tensor<16384x4096xf32>
}
