// RUN: %check %s
// random_bits against MLX's Threefry: mx.random.split(key, n) is
// RandomBits(shape = [n, 2], width = 4). Odd word counts and 1- and 2-byte
// widths are checked against MLX's own RandomBits in test/Mlxfn
// (random_bits.test).
// INPUT: key = np.array([7, 123456789], np.uint32)
// REF: split5 = mx.random.split(key, num=5)
// REF: split2 = mx.random.split(mx.random.split(key, num=2)[1], num=2)
func.func @random_bits(%key: tensor<2xui32> {mlx.name = "key"})
    -> (tensor<5x2xui32> {mlx.name = "split5"}, tensor<2x2xui32> {mlx.name = "split2"}) {
  %0 = mlx.random_bits %key {shape = array<i64: 5, 2>, width = 4 : i64} : tensor<2xui32>
  %1 = mlx.random_bits %key {shape = array<i64: 2, 2>, width = 4 : i64} : tensor<2xui32>
  %2 = mlx.slice %1 {start = array<i64: 1, 0>, stop = array<i64: 2, 2>, strides = array<i64: 1, 1>} : tensor<2x2xui32>
  %3 = mlx.reshape %2 {shape = array<i64: 2>} : tensor<1x2xui32>
  %4 = mlx.random_bits %3 {shape = array<i64: 2, 2>, width = 4 : i64} : tensor<2xui32>
  return %0, %4 : tensor<5x2xui32>, tensor<2x2xui32>
}
