// RUN: %check %s
// take_along_axis on several axes, with broadcasting indices, negative
// indices and several dtypes; argsort-free top-1 via argmax.
// INPUT: ix = randint(-5, 5)
// INPUT: ib = randint(0, 5)
// INPUT: iy = randint(0, 3)
// INPUT: ih = randint(0, 4)
// REF: tal_last = mx.take_along_axis(x, ix, axis=-1)
// REF: tal_bcast = mx.take_along_axis(x, ib, axis=1)
// REF: tal_mid = mx.take_along_axis(y, iy, axis=1)
// REF: tal_first = mx.take_along_axis(h, ih, axis=0)
// REF: tal_argmax = mx.max(x, axis=1, keepdims=True)
func.func @take_along_axis(
    %x: tensor<3x5xf32> {mlx.name = "x"},
    %ix: tensor<3x2xi32> {mlx.name = "ix"},
    %ib: tensor<1x4xui32> {mlx.name = "ib"},
    %y: tensor<2x3x4xi32> {mlx.name = "y"},
    %iy: tensor<2x1x4xi32> {mlx.name = "iy"},
    %h: tensor<4x6xf16> {mlx.name = "h"},
    %ih: tensor<2x6xi64> {mlx.name = "ih"})
    -> (tensor<3x2xf32> {mlx.name = "tal_last"},
    tensor<3x4xf32> {mlx.name = "tal_bcast"},
    tensor<2x1x4xi32> {mlx.name = "tal_mid"},
    tensor<2x6xf16> {mlx.name = "tal_first"},
    tensor<3x1xf32> {mlx.name = "tal_argmax"}) {
  %tal_last = mlx.take_along_axis %x, %ix {axis = -1 : i64} : tensor<3x5xf32>, tensor<3x2xi32>
  %tal_bcast = mlx.take_along_axis %x, %ib {axis = 1 : i64} : tensor<3x5xf32>, tensor<1x4xui32>
  %tal_mid = mlx.take_along_axis %y, %iy {axis = 1 : i64} : tensor<2x3x4xi32>, tensor<2x1x4xi32>
  %tal_first = mlx.take_along_axis %h, %ih {axis = 0 : i64} : tensor<4x6xf16>, tensor<2x6xi64>
  %am = mlx.argmax %x {axis = 1 : i64, keepdims = true} : tensor<3x5xf32>
  %tal_argmax = mlx.take_along_axis %x, %am {axis = 1 : i64} : tensor<3x5xf32>, tensor<3x1xui32>
  return %tal_last, %tal_bcast, %tal_mid, %tal_first, %tal_argmax
      : tensor<3x2xf32>, tensor<3x4xf32>, tensor<2x1x4xi32>, tensor<2x6xf16>, tensor<3x1xf32>
}
