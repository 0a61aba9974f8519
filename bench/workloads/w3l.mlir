// W3L: softmax over long rows (an LLM's vocabulary), float32.
func.func @w3l(%x: tensor<256x131072xf32> {mlx.name = "x"}) -> tensor<256x131072xf32> {
  %y = mlx.softmax %x {axes = array<i64: -1>, precise = true} : tensor<256x131072xf32>
  return %y : tensor<256x131072xf32>
}
