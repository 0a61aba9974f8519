func.func @rowsum(%x: tensor<4096x4096xf32> {mlx.name = "x"}) -> tensor<4096xf32> {
  %c = mlx.sum %x {axes = array<i64: 1>, keepdims = false} : tensor<4096x4096xf32>
  return %c : tensor<4096xf32>
}
