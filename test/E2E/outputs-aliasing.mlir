// RUN: %check %s
// Graph results that alias each other or the inputs: one computed value
// returned twice, values made equal by CSE (exp twice; logical_not and
// bitwise_invert of a bool), an input returned as is and twice, a reshape and
// an expand_dims of an input (views), a constant.
// REF: e1 = mx.exp(x)
// REF: e1_again = mx.exp(x)
// REF: e2 = mx.exp(x)
// REF: not_b = mx.logical_not(b)
// REF: inv_b = mx.bitwise_invert(b)
// REF: x_same = x
// REF: x_again = x
// REF: x_flat = x.reshape(6)
// REF: x_exp = mx.expand_dims(x, 0)
// REF: k = mx.array([1, 2, 3])
func.func @outputs_aliasing(
    %x: tensor<2x3xf32> {mlx.name = "x"},
    %b: tensor<6xi1> {mlx.name = "b"})
    -> (tensor<2x3xf32> {mlx.name = "e1"},
    tensor<2x3xf32> {mlx.name = "e1_again"},
    tensor<2x3xf32> {mlx.name = "e2"},
    tensor<6xi1> {mlx.name = "not_b"},
    tensor<6xi1> {mlx.name = "inv_b"},
    tensor<2x3xf32> {mlx.name = "x_same"},
    tensor<2x3xf32> {mlx.name = "x_again"},
    tensor<6xf32> {mlx.name = "x_flat"},
    tensor<1x2x3xf32> {mlx.name = "x_exp"},
    tensor<3xi32> {mlx.name = "k"}) {
  %e1 = mlx.exp %x : tensor<2x3xf32>
  %e2 = mlx.exp %x : tensor<2x3xf32>
  %not_b = mlx.logical_not %b : tensor<6xi1>
  %inv_b = mlx.bitwise_invert %b : tensor<6xi1>
  %x_flat = mlx.reshape %x {shape = array<i64: 6>} : tensor<2x3xf32>
  %x_exp = mlx.expand_dims %x {axes = array<i64: 0>} : tensor<2x3xf32>
  %k = mlx.constant dense<[1, 2, 3]> : tensor<3xi32>
  return %e1, %e1, %e2, %not_b, %inv_b, %x, %x, %x_flat, %x_exp, %k
      : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<6xi1>, tensor<6xi1>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<6xf32>, tensor<1x2x3xf32>, tensor<3xi32>
}
