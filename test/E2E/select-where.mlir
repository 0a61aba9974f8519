// RUN: %check %s
// select (mx.where) with broadcasting of all three operands and dtype
// promotion of the two branches (uint8/int8 -> int16, float32/float16, int32/float32).
// INPUT: u = randint(0, 256)
// INPUT: i8 = randint(-128, 128)
// INPUT: cf = rng.integers(0, 2, shape) * rng.standard_normal(shape)
// REF: sel_bcast = mx.where(c, x, y)
// REF: sel_int = mx.where(cb, u, i8)
// REF: sel_half = mx.where(cb, x, h)
// REF: sel_mixed = mx.where(c, i, y)
// REF: relu = mx.where(cb, y, 0.0)
// REF: relu_cmp = mx.maximum(y, 0.0)
func.func @select_where(
    %c: tensor<2x1xi1> {mlx.name = "c"},
    %x: tensor<3xf32> {mlx.name = "x"},
    %y: tensor<2x3xf32> {mlx.name = "y"},
    %cb: tensor<2x3xi1> {mlx.name = "cb"},
    %u: tensor<2x3xui8> {mlx.name = "u"},
    %i8: tensor<3xi8> {mlx.name = "i8"},
    %h: tensor<1x3xf16> {mlx.name = "h"},
    %i: tensor<2x3xi32> {mlx.name = "i"},
    %cf: tensor<2x3xf32> {mlx.name = "cf"})
    -> (tensor<2x3xf32> {mlx.name = "sel_bcast"},
    tensor<2x3xi16> {mlx.name = "sel_int"},
    tensor<2x3xf32> {mlx.name = "sel_half"},
    tensor<2x3xf32> {mlx.name = "sel_mixed"},
    tensor<2x3xf32> {mlx.name = "relu"},
    tensor<2x3xf32> {mlx.name = "relu_cmp"}) {
  %sel_bcast = mlx.select %c, %x, %y : tensor<2x1xi1>, tensor<3xf32>, tensor<2x3xf32>
  %sel_int = mlx.select %cb, %u, %i8 : tensor<2x3xi1>, tensor<2x3xui8>, tensor<3xi8>
  %sel_half = mlx.select %cb, %x, %h : tensor<2x3xi1>, tensor<3xf32>, tensor<1x3xf16>
  %sel_mixed = mlx.select %c, %i, %y : tensor<2x1xi1>, tensor<2x3xi32>, tensor<2x3xf32>
  %zero = mlx.constant dense<0.0> : tensor<f32>
  %relu = mlx.select %cb, %y, %zero : tensor<2x3xi1>, tensor<2x3xf32>, tensor<f32>
  %gt = mlx.greater %y, %zero : tensor<2x3xf32>, tensor<f32>
  %relu_cmp = mlx.select %gt, %y, %zero : tensor<2x3xi1>, tensor<2x3xf32>, tensor<f32>
  return %sel_bcast, %sel_int, %sel_half, %sel_mixed, %relu, %relu_cmp
      : tensor<2x3xf32>, tensor<2x3xi16>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}
