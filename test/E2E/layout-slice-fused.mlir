// RUN: %check %s
// slice with strides > 1 and dynamic_slice with start offsets from an int32 or
// uint32 input, each result consumed by an elementwise op.
// INPUT: off = np.array([1, 2])
// INPUT: off1 = np.array([3])
// INPUT: offu = np.array([2])
// REF: su = mx.array(x); su[1:3, 2:4, 0:5:2] = u
// REF: su2 = mx.array(x); su2[:, 4:5, :] = u1
// REF: su3 = mx.array(v); su3[8:1:-3] = vi
// REF: slice_neg = -(x[1:4, 0:6:2, 1:5:2])
// REF: slice3_neg = -(x[0:4:3, 1:6:3, :])
// REF: slice_exp_neg = -(mx.exp(x[0:2, 2:4, :]))
// REF: dslice_neg = -(mx.slice(x, off, (0, 1), (2, 3, 5)))
// REF: dslice_last_neg = -(mx.slice(x, off1, (-2,), (4, 2, 5)))
// REF: dslice_u_neg = -(mx.slice(x, offu, (2,), (4, 6, 3)))
func.func @layout_slice_fused(
    %x: tensor<4x6x5xf32> {mlx.name = "x"},
    %v: tensor<10xi32> {mlx.name = "v"},
    %u: tensor<2x2x3xf32> {mlx.name = "u"},
    %u1: tensor<4x1x5xf32> {mlx.name = "u1"},
    %off: tensor<2xi32> {mlx.name = "off"},
    %off1: tensor<1xi32> {mlx.name = "off1"},
    %offu: tensor<1xui32> {mlx.name = "offu"},
    %vi: tensor<3xi32> {mlx.name = "vi"})
    -> (tensor<3x3x2xf32> {mlx.name = "slice_neg"},
    tensor<2x2x5xf32> {mlx.name = "slice3_neg"},
    tensor<2x2x5xf32> {mlx.name = "slice_exp_neg"},
    tensor<2x3x5xf32> {mlx.name = "dslice_neg"},
    tensor<4x2x5xf32> {mlx.name = "dslice_last_neg"},
    tensor<4x6x3xf32> {mlx.name = "dslice_u_neg"}) {
  %slice = mlx.slice %x {start = array<i64: 1, 0, 1>, stop = array<i64: 4, 6, 5>, strides = array<i64: 1, 2, 2>} : tensor<4x6x5xf32>
  %slice3 = mlx.slice %x {start = array<i64: 0, 1, 0>, stop = array<i64: 4, 6, 5>, strides = array<i64: 3, 3, 1>} : tensor<4x6x5xf32>
  %sl = mlx.slice %x {start = array<i64: 0, 2, 0>, stop = array<i64: 2, 4, 5>, strides = array<i64: 1, 1, 1>} : tensor<4x6x5xf32>
  %slice_exp = mlx.exp %sl : tensor<2x2x5xf32>
  %dslice = mlx.dynamic_slice %x, %off {axes = array<i64: 0, 1>, slice_size = array<i64: 2, 3, 5>} : tensor<4x6x5xf32>, tensor<2xi32>
  %dslice_last = mlx.dynamic_slice %x, %off1 {axes = array<i64: -2>, slice_size = array<i64: 4, 2, 5>} : tensor<4x6x5xf32>, tensor<1xi32>
  %dslice_u = mlx.dynamic_slice %x, %offu {axes = array<i64: 2>, slice_size = array<i64: 4, 6, 3>} : tensor<4x6x5xf32>, tensor<1xui32>
  %slice_neg = mlx.negative %slice : tensor<3x3x2xf32>
  %slice3_neg = mlx.negative %slice3 : tensor<2x2x5xf32>
  %slice_exp_neg = mlx.negative %slice_exp : tensor<2x2x5xf32>
  %dslice_neg = mlx.negative %dslice : tensor<2x3x5xf32>
  %dslice_last_neg = mlx.negative %dslice_last : tensor<4x2x5xf32>
  %dslice_u_neg = mlx.negative %dslice_u : tensor<4x6x3xf32>
  return %slice_neg, %slice3_neg, %slice_exp_neg, %dslice_neg, %dslice_last_neg, %dslice_u_neg
      : tensor<3x3x2xf32>, tensor<2x2x5xf32>, tensor<2x2x5xf32>, tensor<2x3x5xf32>, tensor<4x2x5xf32>, tensor<4x6x3xf32>
}
