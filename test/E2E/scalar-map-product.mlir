// RUN: %check %s
// A vector product whose left-hand side is a scalar map reshaped to one
// element (silu(x) of a 0-d x, then [1] @ [1, 17]): on CUDA the map has no
// row for mlxc-split-vector-products to take as its prologue (it crashed
// there), so the product runs on its own.
// REF: out0 = (x * mx.sigmoid(x)).reshape(1) @ w
func.func @scalar_map_product(%x: tensor<f32> {mlx.name = "x"},
                              %w: tensor<1x17xf32> {mlx.name = "w"})
    -> (tensor<17xf32> {mlx.name = "out0"}) {
  %s = mlx.sigmoid %x : tensor<f32>
  %m = mlx.multiply %x, %s : tensor<f32>, tensor<f32>
  %r = mlx.reshape %m {shape = array<i64: 1>} : tensor<f32>
  %y = mlx.matmul %r, %w : tensor<1xf32>, tensor<1x17xf32>
  return %y : tensor<17xf32>
}
