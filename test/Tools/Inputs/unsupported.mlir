func.func @f(%k: tensor<2xui32>) -> tensor<8xui32> {
  %e = mlx.add %k, %k : tensor<2xui32>, tensor<2xui32>
  %y = mlx.random_bits %e {shape = array<i64: 8>, width = 4 : i64} : tensor<2xui32>
  return %y : tensor<8xui32>
}
