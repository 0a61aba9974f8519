// W6: the llama MLP, (silu(x @ Wg) * (x @ Wu)) @ Wd, bf16 (compile time
// only; the weights are inputs as an MLX export has them).
func.func @w6(%x: tensor<4096x4096xbf16> {mlx.name = "x"}, %wg: tensor<4096x11008xbf16> {mlx.name = "wg"}, %wu: tensor<4096x11008xbf16> {mlx.name = "wu"}, %wd: tensor<11008x4096xbf16> {mlx.name = "wd"}) -> tensor<4096x4096xbf16> {
  %g = mlx.matmul %x, %wg : tensor<4096x4096xbf16>, tensor<4096x11008xbf16>
  %s = mlx.sigmoid %g : tensor<4096x11008xbf16>
  %a = mlx.multiply %g, %s : tensor<4096x11008xbf16>, tensor<4096x11008xbf16>
  %u = mlx.matmul %x, %wu : tensor<4096x4096xbf16>, tensor<4096x11008xbf16>
  %h = mlx.multiply %a, %u : tensor<4096x11008xbf16>, tensor<4096x11008xbf16>
  %y = mlx.matmul %h, %wd : tensor<4096x11008xbf16>, tensor<11008x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}
