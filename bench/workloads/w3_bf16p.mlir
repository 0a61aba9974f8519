// W3 bf16 precise: softmax over the last axis of a bfloat16 matrix,
// computed in float32 (mlx-lm's attention setting).
func.func @w3_bf16p(%x: tensor<16384x4096xbf16> {mlx.name = "x"}) -> tensor<16384x4096xbf16> {
  %y = mlx.softmax %x {axes = array<i64: -1>, precise = true} : tensor<16384x4096xbf16>
  return %y : tensor<16384x4096xbf16>
}
