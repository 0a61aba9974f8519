// RUN: %check %s
// slice (strides > 1, negative strides), slice_update (strided, negative
// stride), dynamic_slice and dynamic_slice_update with start offsets from an
// int32 or uint32 input (MLX's mx.slice / mx.slice_update with array starts),
// all returned directly as graph outputs.
// INPUT: off = np.array([1, 2])
// INPUT: off1 = np.array([3])
// INPUT: pos = np.array([5])
// INPUT: offu = np.array([2])
// REF: su = mx.array(x); su[1:3, 2:4, 0:5:2] = u
// REF: su2 = mx.array(x); su2[:, 4:5, :] = u1
// REF: su3 = mx.array(v); su3[8:1:-3] = vi
// REF: slice = x[1:4, 0:6:2, 1:5:2]
// REF: slice3 = x[0:4:3, 1:6:3, :]
// REF: slice_rev = v[::-2]
// REF: slice_rev2 = v[7:1:-3]
// REF: slice_exp = mx.exp(x[0:2, 2:4, :])
// REF: slice_update = su
// REF: slice_update_row = su2
// REF: slice_update_rev = su3
// REF: dslice = mx.slice(x, off, (0, 1), (2, 3, 5))
// REF: dslice_last = mx.slice(x, off1, (-2,), (4, 2, 5))
// REF: dslice_u = mx.slice(x, offu, (2,), (4, 6, 3))
// REF: dslice_update = mx.slice_update(cache, kv, pos, (1,))
// REF: dslice_update2 = mx.slice_update(x, u, off, (0, 1))
func.func @layout_slice(
    %x: tensor<4x6x5xf32> {mlx.name = "x"},
    %v: tensor<10xi32> {mlx.name = "v"},
    %u: tensor<2x2x3xf32> {mlx.name = "u"},
    %u1: tensor<4x1x5xf32> {mlx.name = "u1"},
    %off: tensor<2xi32> {mlx.name = "off"},
    %off1: tensor<1xi32> {mlx.name = "off1"},
    %cache: tensor<2x16x4xf32> {mlx.name = "cache"},
    %kv: tensor<2x1x4xf32> {mlx.name = "kv"},
    %pos: tensor<1xi32> {mlx.name = "pos"},
    %offu: tensor<1xui32> {mlx.name = "offu"},
    %vi: tensor<3xi32> {mlx.name = "vi"})
    -> (tensor<3x3x2xf32> {mlx.name = "slice"},
    tensor<2x2x5xf32> {mlx.name = "slice3"},
    tensor<5xi32> {mlx.name = "slice_rev"},
    tensor<2xi32> {mlx.name = "slice_rev2"},
    tensor<2x2x5xf32> {mlx.name = "slice_exp"},
    tensor<4x6x5xf32> {mlx.name = "slice_update"},
    tensor<4x6x5xf32> {mlx.name = "slice_update_row"},
    tensor<10xi32> {mlx.name = "slice_update_rev"},
    tensor<2x3x5xf32> {mlx.name = "dslice"},
    tensor<4x2x5xf32> {mlx.name = "dslice_last"},
    tensor<4x6x3xf32> {mlx.name = "dslice_u"},
    tensor<2x16x4xf32> {mlx.name = "dslice_update"},
    tensor<4x6x5xf32> {mlx.name = "dslice_update2"}) {
  %slice = mlx.slice %x {start = array<i64: 1, 0, 1>, stop = array<i64: 4, 6, 5>, strides = array<i64: 1, 2, 2>} : tensor<4x6x5xf32>
  %slice3 = mlx.slice %x {start = array<i64: 0, 1, 0>, stop = array<i64: 4, 6, 5>, strides = array<i64: 3, 3, 1>} : tensor<4x6x5xf32>
  %slice_rev = mlx.slice %v {start = array<i64: 9>, stop = array<i64: -1>, strides = array<i64: -2>} : tensor<10xi32>
  %slice_rev2 = mlx.slice %v {start = array<i64: 7>, stop = array<i64: 1>, strides = array<i64: -3>} : tensor<10xi32>
  %sl = mlx.slice %x {start = array<i64: 0, 2, 0>, stop = array<i64: 2, 4, 5>, strides = array<i64: 1, 1, 1>} : tensor<4x6x5xf32>
  %slice_exp = mlx.exp %sl : tensor<2x2x5xf32>
  %slice_update = mlx.slice_update %x, %u {start = array<i64: 1, 2, 0>, stop = array<i64: 3, 4, 5>, strides = array<i64: 1, 1, 2>} : tensor<4x6x5xf32>, tensor<2x2x3xf32>
  %slice_update_row = mlx.slice_update %x, %u1 {start = array<i64: 0, 4, 0>, stop = array<i64: 4, 5, 5>, strides = array<i64: 1, 1, 1>} : tensor<4x6x5xf32>, tensor<4x1x5xf32>
  %slice_update_rev = mlx.slice_update %v, %vi {start = array<i64: 8>, stop = array<i64: 1>, strides = array<i64: -3>} : tensor<10xi32>, tensor<3xi32>
  %dslice = mlx.dynamic_slice %x, %off {axes = array<i64: 0, 1>, slice_size = array<i64: 2, 3, 5>} : tensor<4x6x5xf32>, tensor<2xi32>
  %dslice_last = mlx.dynamic_slice %x, %off1 {axes = array<i64: -2>, slice_size = array<i64: 4, 2, 5>} : tensor<4x6x5xf32>, tensor<1xi32>
  %dslice_u = mlx.dynamic_slice %x, %offu {axes = array<i64: 2>, slice_size = array<i64: 4, 6, 3>} : tensor<4x6x5xf32>, tensor<1xui32>
  %dslice_update = mlx.dynamic_slice_update %cache, %kv, %pos {axes = array<i64: 1>} : tensor<2x16x4xf32>, tensor<2x1x4xf32>, tensor<1xi32>
  %dslice_update2 = mlx.dynamic_slice_update %x, %u, %off {axes = array<i64: 0, 1>} : tensor<4x6x5xf32>, tensor<2x2x3xf32>, tensor<2xi32>
  return %slice, %slice3, %slice_rev, %slice_rev2, %slice_exp, %slice_update, %slice_update_row, %slice_update_rev, %dslice, %dslice_last, %dslice_u, %dslice_update, %dslice_update2
      : tensor<3x3x2xf32>, tensor<2x2x5xf32>, tensor<5xi32>, tensor<2xi32>, tensor<2x2x5xf32>, tensor<4x6x5xf32>, tensor<4x6x5xf32>, tensor<10xi32>, tensor<2x3x5xf32>, tensor<4x2x5xf32>, tensor<4x6x3xf32>, tensor<2x16x4xf32>, tensor<4x6x5xf32>
}
