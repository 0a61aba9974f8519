// RUN: %check %s
// concatenate along a middle axis and along the last axis (positive and
// negative), three operands, mixed dtypes.
// REF: mid = mx.concatenate([a, b, c], axis=1)
// REF: last = mx.concatenate([a, d], axis=2)
// REF: neg = mx.concatenate([d, a, d], axis=-1)
// REF: negm = mx.concatenate([b, a], axis=-2)
func.func @layout_concat_axes(
    %a: tensor<2x3x4xf32> {mlx.name = "a"},
    %b: tensor<2x1x4xf32> {mlx.name = "b"},
    %c: tensor<2x2x4xi32> {mlx.name = "c"},
    %d: tensor<2x3x2xf16> {mlx.name = "d"})
    -> (tensor<2x6x4xf32> {mlx.name = "mid"},
    tensor<2x3x6xf32> {mlx.name = "last"},
    tensor<2x3x8xf32> {mlx.name = "neg"},
    tensor<2x4x4xf32> {mlx.name = "negm"}) {
  %mid = mlx.concatenate %a, %b, %c {axis = 1 : i64} : tensor<2x3x4xf32>, tensor<2x1x4xf32>, tensor<2x2x4xi32>
  %last = mlx.concatenate %a, %d {axis = 2 : i64} : tensor<2x3x4xf32>, tensor<2x3x2xf16>
  %neg = mlx.concatenate %d, %a, %d {axis = -1 : i64} : tensor<2x3x2xf16>, tensor<2x3x4xf32>, tensor<2x3x2xf16>
  %negm = mlx.concatenate %b, %a {axis = -2 : i64} : tensor<2x1x4xf32>, tensor<2x3x4xf32>
  return %mid, %last, %neg, %negm
      : tensor<2x6x4xf32>, tensor<2x3x6xf32>, tensor<2x3x8xf32>, tensor<2x4x4xf32>
}
