// RUN: %check %s
// split into several pieces along axis 0, and along axis 1 with one piece
// consumed by an elementwise op.
// REF: split0 = mx.split(y, [1, 4])[0]
// REF: split1 = mx.split(y, [1, 4])[1]
// REF: split2 = mx.split(y, [1, 4])[2]
// REF: splitc0 = mx.split(y, [3], axis=1)[0]
// REF: splitc1 = mx.exp(mx.split(y, [3], axis=1)[1])
func.func @scan_split(
    %y: tensor<6x4xf32> {mlx.name = "y"})
    -> (tensor<1x4xf32> {mlx.name = "split0"},
    tensor<3x4xf32> {mlx.name = "split1"},
    tensor<2x4xf32> {mlx.name = "split2"},
    tensor<6x3xf32> {mlx.name = "splitc0"},
    tensor<6x1xf32> {mlx.name = "splitc1"}) {
  %sp:3 = mlx.split %y {indices = array<i64: 1, 4>} : tensor<6x4xf32>
  %sc:2 = mlx.split %y {indices = array<i64: 3>, axis = 1 : i64} : tensor<6x4xf32>
  %sc1e = mlx.exp %sc#1 : tensor<6x1xf32>
  return %sp#0, %sp#1, %sp#2, %sc#0, %sc1e
      : tensor<1x4xf32>, tensor<3x4xf32>, tensor<2x4xf32>, tensor<6x3xf32>, tensor<6x1xf32>
}
