// RUN: %check %s
// Zero-size arrays compile and run as in MLX: elementwise ops on them, an
// empty operand of a concatenation, sums, products and means over an empty
// axis (their identities), a max over a full axis of an empty array, and
// an empty output beside a full one.
// REF: e = mx.exp(z)
// REF: cat = mx.concatenate([z, a], axis=1)
// MLX 0.32.4's CPU sum and prod over an empty axis give 0 and 1, but now and
// then spin forever computing them, so the reference states those values.
// REF: s = mx.zeros((4,), mx.float32)
// REF: p = mx.ones((4,), mx.float32)
// REF: m = mx.max(z, axis=0)
// REF: t = a * 2
func.func @zero_size(
    %z: tensor<4x0xf32> {mlx.name = "z"},
    %a: tensor<4x3xf32> {mlx.name = "a"})
    -> (tensor<4x0xf32> {mlx.name = "e"},
    tensor<4x3xf32> {mlx.name = "cat"},
    tensor<4xf32> {mlx.name = "s"},
    tensor<4xf32> {mlx.name = "p"},
    tensor<0xf32> {mlx.name = "m"},
    tensor<4x3xf32> {mlx.name = "t"}) {
  %e = mlx.exp %z : tensor<4x0xf32>
  %cat = mlx.concatenate %z, %a {axis = 1 : i64} : tensor<4x0xf32>, tensor<4x3xf32>
  %s = mlx.sum %z {axes = array<i64: 1>, keepdims = false} : tensor<4x0xf32>
  %p = mlx.prod %z {axes = array<i64: 1>, keepdims = false} : tensor<4x0xf32>
  %m = mlx.max %z {axes = array<i64: 0>, keepdims = false} : tensor<4x0xf32>
  %two = mlx.constant dense<2.0> : tensor<f32>
  %t = mlx.multiply %a, %two : tensor<4x3xf32>, tensor<f32>
  return %e, %cat, %s, %p, %m, %t : tensor<4x0xf32>, tensor<4x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<0xf32>, tensor<4x3xf32>
}
