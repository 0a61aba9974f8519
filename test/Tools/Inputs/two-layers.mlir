// Two equal layers: a product, then a softmax over its rows (8 rows: the
// products are cuBLASLt calls, not split kernels of a decode step's shape).
func.func @layers(%x: tensor<8x16xf32> {mlx.name = "x"}, %w1: tensor<16x16xf32> {mlx.name = "w1"}, %w2: tensor<16x16xf32> {mlx.name = "w2"}) -> tensor<8x16xf32> {
  %p1 = mlx.matmul %x, %w1 : tensor<8x16xf32>, tensor<16x16xf32>
  %h1 = mlx.softmax %p1 {axes = array<i64: -1>, precise = true} : tensor<8x16xf32>
  %p2 = mlx.matmul %h1, %w2 : tensor<8x16xf32>, tensor<16x16xf32>
  %h2 = mlx.softmax %p2 {axes = array<i64: -1>, precise = true} : tensor<8x16xf32>
  return %h2 : tensor<8x16xf32>
}
