// W4: rms_norm, eps 1e-5.
func.func @w4(%x: tensor<16384x4096xf32> {mlx.name = "x"}, %w: tensor<4096xf32> {mlx.name = "w"}) -> tensor<16384x4096xf32> {
  %y = mlx.rms_norm %x, %w {eps = 1.0e-05 : f32} : tensor<16384x4096xf32>, tensor<4096xf32>
  return %y : tensor<16384x4096xf32>
}
