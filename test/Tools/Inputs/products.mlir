// Products only (no kernel once mlxc-matmul-to-runtime is done): x @ w^T
// with the batch folded into the rows and w read transposed (10 rows: not a
// matrix-vector product, which mlxc-vector-products makes a row kernel), and
// v @ b with v broadcast over the batch (5 rows: mlxc-split-vector-products
// takes up to 4).
func.func @products(%x: tensor<2x5x8xf32> {mlx.name = "x"},
                    %w: tensor<5x8xf32> {mlx.name = "w"},
                    %v: tensor<5x8xf32> {mlx.name = "v"},
                    %b: tensor<3x8x6xf32> {mlx.name = "b"})
    -> (tensor<2x5x5xf32> {mlx.name = "y"}, tensor<3x5x6xf32> {mlx.name = "z"}) {
  %wt = mlx.transpose %w {axes = array<i64: 1, 0>} : tensor<5x8xf32>
  %y = mlx.matmul %x, %wt : tensor<2x5x8xf32>, tensor<8x5xf32>
  %z = mlx.matmul %v, %b : tensor<5x8xf32>, tensor<3x8x6xf32>
  return %y, %z : tensor<2x5x5xf32>, tensor<3x5x6xf32>
}
