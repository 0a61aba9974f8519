// RUN: %check %s
// reshape (with -1), broadcast_to, transpose, expand_dims, squeeze,
// flatten and unflatten, on float32, int32 and float16; each result also goes
// through an elementwise op or is returned directly.
// REF: reshape = x.reshape(6, -1)
// REF: reshape_neg = -x.reshape(-1, 3, 2)
// REF: reshape_i = s.reshape(3)
// REF: bcast = mx.broadcast_to(row, (2, 4, 3))
// REF: bcast_s = mx.broadcast_to(s, (2, 3, 5))
// REF: transpose = x.transpose(2, 0, 1)
// REF: transpose_exp = mx.exp(x.transpose(1, 2, 0))
// REF: transpose_h = h.T
// REF: expand = mx.expand_dims(row, (0, -1))
// REF: expand_mid = mx.expand_dims(x, (1, 3))
// REF: squeeze_ax = mx.squeeze(s, 0)
// REF: squeeze_all = mx.squeeze(s) * mx.squeeze(s)
// REF: flatten_all = mx.flatten(x)
// REF: flatten_tail = mx.flatten(x, 1, 2)
// REF: flatten_head = mx.flatten(x, 0, -2)
// REF: unflatten = mx.unflatten(h, 1, (3, -1))
// REF: unflatten0 = mx.unflatten(h, -1, (2, 3, 2))
// REF: transpose_reshape = x.transpose(0, 2, 1).reshape(8, 3)
func.func @layout_reshape(
    %x: tensor<2x3x4xf32> {mlx.name = "x"},
    %row: tensor<3xf32> {mlx.name = "row"},
    %s: tensor<1x3x1xi32> {mlx.name = "s"},
    %h: tensor<2x12xf16> {mlx.name = "h"})
    -> (tensor<6x4xf32> {mlx.name = "reshape"},
    tensor<4x3x2xf32> {mlx.name = "reshape_neg"},
    tensor<3xi32> {mlx.name = "reshape_i"},
    tensor<2x4x3xf32> {mlx.name = "bcast"},
    tensor<2x3x5xi32> {mlx.name = "bcast_s"},
    tensor<4x2x3xf32> {mlx.name = "transpose"},
    tensor<3x4x2xf32> {mlx.name = "transpose_exp"},
    tensor<12x2xf16> {mlx.name = "transpose_h"},
    tensor<1x3x1xf32> {mlx.name = "expand"},
    tensor<2x1x3x1x4xf32> {mlx.name = "expand_mid"},
    tensor<3x1xi32> {mlx.name = "squeeze_ax"},
    tensor<3xi32> {mlx.name = "squeeze_all"},
    tensor<24xf32> {mlx.name = "flatten_all"},
    tensor<2x12xf32> {mlx.name = "flatten_tail"},
    tensor<6x4xf32> {mlx.name = "flatten_head"},
    tensor<2x3x4xf16> {mlx.name = "unflatten"},
    tensor<2x2x3x2xf16> {mlx.name = "unflatten0"},
    tensor<8x3xf32> {mlx.name = "transpose_reshape"}) {
  %reshape = mlx.reshape %x {shape = array<i64: 6, -1>} : tensor<2x3x4xf32>
  %r2 = mlx.reshape %x {shape = array<i64: -1, 3, 2>} : tensor<2x3x4xf32>
  %reshape_neg = mlx.negative %r2 : tensor<4x3x2xf32>
  %reshape_i = mlx.reshape %s {shape = array<i64: 3>} : tensor<1x3x1xi32>
  %bcast = mlx.broadcast_to %row {shape = array<i64: 2, 4, 3>} : tensor<3xf32>
  %bcast_s = mlx.broadcast_to %s {shape = array<i64: 2, 3, 5>} : tensor<1x3x1xi32>
  %transpose = mlx.transpose %x {axes = array<i64: 2, 0, 1>} : tensor<2x3x4xf32>
  %t2 = mlx.transpose %x {axes = array<i64: 1, -1, 0>} : tensor<2x3x4xf32>
  %transpose_exp = mlx.exp %t2 : tensor<3x4x2xf32>
  %transpose_h = mlx.transpose %h {axes = array<i64: 1, 0>} : tensor<2x12xf16>
  %expand = mlx.expand_dims %row {axes = array<i64: 0, -1>} : tensor<3xf32>
  %expand_mid = mlx.expand_dims %x {axes = array<i64: 1, 3>} : tensor<2x3x4xf32>
  %squeeze_ax = mlx.squeeze %s {axes = array<i64: 0>} : tensor<1x3x1xi32>
  %sq = mlx.squeeze %s : tensor<1x3x1xi32>
  %squeeze_all = mlx.multiply %sq, %sq : tensor<3xi32>, tensor<3xi32>
  %flatten_all = mlx.flatten %x : tensor<2x3x4xf32>
  %flatten_tail = mlx.flatten %x {start_axis = 1 : i64, end_axis = 2 : i64} : tensor<2x3x4xf32>
  %flatten_head = mlx.flatten %x {start_axis = 0 : i64, end_axis = -2 : i64} : tensor<2x3x4xf32>
  %unflatten = mlx.unflatten %h {axis = 1 : i64, shape = array<i64: 3, -1>} : tensor<2x12xf16>
  %unflatten0 = mlx.unflatten %h {axis = -1 : i64, shape = array<i64: 2, 3, 2>} : tensor<2x12xf16>
  %tt = mlx.transpose %x {axes = array<i64: 0, 2, 1>} : tensor<2x3x4xf32>
  %transpose_reshape = mlx.reshape %tt {shape = array<i64: 8, 3>} : tensor<2x4x3xf32>
  return %reshape, %reshape_neg, %reshape_i, %bcast, %bcast_s, %transpose, %transpose_exp, %transpose_h, %expand, %expand_mid, %squeeze_ax, %squeeze_all, %flatten_all, %flatten_tail, %flatten_head, %unflatten, %unflatten0, %transpose_reshape
      : tensor<6x4xf32>, tensor<4x3x2xf32>, tensor<3xi32>, tensor<2x4x3xf32>, tensor<2x3x5xi32>, tensor<4x2x3xf32>, tensor<3x4x2xf32>, tensor<12x2xf16>, tensor<1x3x1xf32>, tensor<2x1x3x1x4xf32>, tensor<3x1xi32>, tensor<3xi32>, tensor<24xf32>, tensor<2x12xf32>, tensor<6x4xf32>, tensor<2x3x4xf16>, tensor<2x2x3x2xf16>, tensor<8x3xf32>
}
