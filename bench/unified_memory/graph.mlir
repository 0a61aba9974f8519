// W0 (unified memory): a 2 GiB float32 input written by the host, read by
// one kernel, and a 2 GiB output the host reads afterwards.
func.func @scale(%x: tensor<536870912xf32> {mlx.name = "x"}) -> (tensor<536870912xf32> {mlx.name = "y"}) {
  %c = mlx.constant dense<2.0> : tensor<f32>
  %y = mlx.multiply %x, %c : tensor<536870912xf32>, tensor<f32>
  return %y : tensor<536870912xf32>
}
