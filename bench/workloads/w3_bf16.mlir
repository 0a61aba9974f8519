// W3 bf16: softmax over the last axis of a bfloat16 matrix (MLX's default,
// not precise: the row's max and sum are bfloat16, as on MLX's CPU).
func.func @w3_bf16(%x: tensor<16384x4096xbf16> {mlx.name = "x"}) -> tensor<16384x4096xbf16> {
  %y = mlx.softmax %x {axes = array<i64: -1>} : tensor<16384x4096xbf16>
  return %y : tensor<16384x4096xbf16>
}
