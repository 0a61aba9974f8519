// A graph with a constant of 32 elements (elided in the textual emits unless
// --keep-constants) and a splat one (always printed: it is one value).
func.func @f(%x: tensor<32xf32>) -> tensor<32xf32> {
  %c = mlx.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0,
      10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0,
      22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0]>
      : tensor<32xf32>
  %s = mlx.constant dense<2.5> : tensor<32xf32>
  %y = mlx.add %x, %c : tensor<32xf32>, tensor<32xf32>
  %z = mlx.multiply %y, %s : tensor<32xf32>, tensor<32xf32>
  return %z : tensor<32xf32>
}
