// W3: softmax over the last axis, float32.
func.func @w3(%x: tensor<16384x4096xf32> {mlx.name = "x"}) -> tensor<16384x4096xf32> {
  %y = mlx.softmax %x {axes = array<i64: -1>, precise = true} : tensor<16384x4096xf32>
  return %y : tensor<16384x4096xf32>
}
