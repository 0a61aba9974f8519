// RUN: %check %s
// concatenate (axis 0, last axis, mixed dtypes promoting), pad (low/high,
// several axes, int and float16 pad values) and as_strided (overlapping
// windows, offset, zero strides).
// INPUT: u = randint(0, 256)
// REF: concat0 = mx.concatenate([a, b], 0)
// REF: concat3 = mx.concatenate([a, a, b])
// REF: concat_last = mx.concatenate([a, c], -1)
// REF: concat_int = mx.concatenate([i, u])
// REF: concat_if = mx.concatenate([u, i, a])
// REF: pad = mx.pad(a, [(0, 0), (1, 2)])
// REF: pad2 = mx.pad(p, [(0, 3), (2, 0)], constant_values=-1.5)
// REF: pad3 = mx.pad(q, [(1, 1), (0, 2), (1, 1)], constant_values=7)
// REF: strided = mx.as_strided(v, (6, 3), (1, 1))
// REF: strided_off = mx.as_strided(v, (3,), (2,), 1)
// REF: strided_bcast = mx.as_strided(a, (2, 4, 3), (3, 0, 1))
// REF: strided_t = mx.as_strided(q, (3, 2, 2), (1, 6, 3))
func.func @layout_concat_pad(
    %a: tensor<2x3xf32> {mlx.name = "a"},
    %b: tensor<1x3xf16> {mlx.name = "b"},
    %c: tensor<2x2xf32> {mlx.name = "c"},
    %i: tensor<2x3xi32> {mlx.name = "i"},
    %u: tensor<1x3xui8> {mlx.name = "u"},
    %p: tensor<2x3xf16> {mlx.name = "p"},
    %v: tensor<8xf32> {mlx.name = "v"},
    %q: tensor<2x2x3xi32> {mlx.name = "q"})
    -> (tensor<3x3xf32> {mlx.name = "concat0"},
    tensor<5x3xf32> {mlx.name = "concat3"},
    tensor<2x5xf32> {mlx.name = "concat_last"},
    tensor<3x3xi32> {mlx.name = "concat_int"},
    tensor<5x3xf32> {mlx.name = "concat_if"},
    tensor<2x6xf32> {mlx.name = "pad"},
    tensor<5x5xf16> {mlx.name = "pad2"},
    tensor<4x4x5xi32> {mlx.name = "pad3"},
    tensor<6x3xf32> {mlx.name = "strided"},
    tensor<3xf32> {mlx.name = "strided_off"},
    tensor<2x4x3xf32> {mlx.name = "strided_bcast"},
    tensor<3x2x2xi32> {mlx.name = "strided_t"}) {
  %concat0 = mlx.concatenate %a, %b {axis = 0 : i64} : tensor<2x3xf32>, tensor<1x3xf16>
  %concat3 = mlx.concatenate %a, %a, %b : tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x3xf16>
  %concat_last = mlx.concatenate %a, %c {axis = -1 : i64} : tensor<2x3xf32>, tensor<2x2xf32>
  %concat_int = mlx.concatenate %i, %u : tensor<2x3xi32>, tensor<1x3xui8>
  %concat_if = mlx.concatenate %u, %i, %a : tensor<1x3xui8>, tensor<2x3xi32>, tensor<2x3xf32>
  %zero = mlx.constant dense<0.0> : tensor<f32>
  %pad = mlx.pad %a, %zero {axes = array<i64: 1>, low = array<i64: 1>, high = array<i64: 2>} : tensor<2x3xf32>, tensor<f32>
  %hv = mlx.constant dense<-1.5> : tensor<f16>
  %pad2 = mlx.pad %p, %hv {axes = array<i64: 0, -1>, low = array<i64: 0, 2>, high = array<i64: 3, 0>} : tensor<2x3xf16>, tensor<f16>
  %iv = mlx.constant dense<7> : tensor<i32>
  %pad3 = mlx.pad %q, %iv {axes = array<i64: 0, 1, 2>, low = array<i64: 1, 0, 1>, high = array<i64: 1, 2, 1>} : tensor<2x2x3xi32>, tensor<i32>
  %strided = mlx.as_strided %v {shape = array<i64: 6, 3>, strides = array<i64: 1, 1>} : tensor<8xf32>
  %strided_off = mlx.as_strided %v {shape = array<i64: 3>, strides = array<i64: 2>, offset = 1 : i64} : tensor<8xf32>
  %strided_bcast = mlx.as_strided %a {shape = array<i64: 2, 4, 3>, strides = array<i64: 3, 0, 1>} : tensor<2x3xf32>
  %strided_t = mlx.as_strided %q {shape = array<i64: 3, 2, 2>, strides = array<i64: 1, 6, 3>} : tensor<2x2x3xi32>
  return %concat0, %concat3, %concat_last, %concat_int, %concat_if, %pad, %pad2, %pad3, %strided, %strided_off, %strided_bcast, %strided_t
      : tensor<3x3xf32>, tensor<5x3xf32>, tensor<2x5xf32>, tensor<3x3xi32>, tensor<5x3xf32>, tensor<2x6xf32>, tensor<5x5xf16>, tensor<4x4x5xi32>, tensor<6x3xf32>, tensor<3xf32>, tensor<2x4x3xf32>, tensor<3x2x2xi32>
}
