// Attention scores: p = softmax(q @ k^T / sqrt(8)) over the keys.
func.func @scores(%q: tensor<4x8xf32> {mlx.name = "q"},
                  %k: tensor<6x8xf32> {mlx.name = "k"})
    -> (tensor<4x6xf32> {mlx.name = "p"}) {
  %kt = mlx.transpose %k {axes = array<i64: 1, 0>} : tensor<6x8xf32>
  %s = mlx.matmul %q, %kt : tensor<4x8xf32>, tensor<8x6xf32>
  %c = mlx.constant dense<0.35355339> : tensor<f32>
  %t = mlx.multiply %s, %c : tensor<4x6xf32>, tensor<f32>
  %p = mlx.softmax %t {axes = array<i64: -1>} : tensor<4x6xf32>
  return %p : tensor<4x6xf32>
}
