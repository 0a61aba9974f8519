// Products as models write them: a batched activation times a weight
// (the batch folds into the rows), a weight used transposed, batched
// attention-like products, and float16 operands. Nine query rows: up to
// four (a decode step's) would make the transposed products row kernels
// (mlxc-vector-products).
func.func @matmuls(%x: tensor<2x3x8xf16>, %w: tensor<8x4xf16>,
                   %q: tensor<2x9x8xf32>, %k: tensor<2x5x8xf32>,
                   %v: tensor<4x8xf32>)
    -> (tensor<2x3x4xf16>, tensor<2x9x5xf32>, tensor<2x9x4xf32>) {
  %y = mlx.matmul %x, %w : tensor<2x3x8xf16>, tensor<8x4xf16>
  %kt = mlx.transpose %k {axes = array<i64: 0, 2, 1>} : tensor<2x5x8xf32>
  %s = mlx.matmul %q, %kt : tensor<2x9x8xf32>, tensor<2x8x5xf32>
  %vt = mlx.transpose %v {axes = array<i64: 1, 0>} : tensor<4x8xf32>
  %p = mlx.matmul %q, %vt : tensor<2x9x8xf32>, tensor<8x4xf32>
  return %y, %s, %p : tensor<2x3x4xf16>, tensor<2x9x5xf32>, tensor<2x9x4xf32>
}
