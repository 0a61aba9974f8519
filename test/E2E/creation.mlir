// RUN: %check %s
// constant (dense and splat, several dtypes), full (broadcast and cast of
// its value) and arange (int, float, negative and fractional steps).
// INPUT: v = np.array([2.7])
// REF: const_add = x + mx.array([[1.5, -2.0], [0.25, 3.0]])
// REF: const_i8 = mx.array([[1, -2], [3, 127]], dtype=mx.int8)
// REF: const_u8 = mx.full((3,), 255, dtype=mx.uint8)
// REF: const_b = mx.array([True, False, True])
// REF: const_f16 = mx.array([0.1, -65504.0], dtype=mx.float16)
// REF: const_i64 = mx.array([-9223372036854775808, 5], dtype=mx.int64)
// REF: const_u32 = mx.array([4294967295, 0], dtype=mx.uint32)
// REF: full_row = mx.full((4, 3), row)
// REF: full_cast = mx.broadcast_to(v, (2, 3)).astype(mx.int32)
// REF: full_f16 = mx.broadcast_to(v, (3, 1)).astype(mx.float16)
// REF: full_const = mx.full((2, 2), -1.5)
// REF: arange_i32 = mx.arange(0, 10, 3, dtype=mx.int32)
// REF: arange_f32 = mx.arange(0.0, 5.0)
// REF: arange_down = mx.arange(5, 0, -2, dtype=mx.int64)
// REF: arange_frac = mx.arange(0.0, 1.0, 0.125, dtype=mx.float16)
// REF: arange_neg = mx.arange(-3.0, 2.0, 0.5)
// REF: arange_use = row * mx.arange(1, 4)
func.func @creation(
    %x: tensor<2x2xf32> {mlx.name = "x"},
    %row: tensor<3xi32> {mlx.name = "row"},
    %v: tensor<1xf32> {mlx.name = "v"})
    -> (tensor<2x2xf32> {mlx.name = "const_add"},
    tensor<2x2xi8> {mlx.name = "const_i8"},
    tensor<3xui8> {mlx.name = "const_u8"},
    tensor<3xi1> {mlx.name = "const_b"},
    tensor<2xf16> {mlx.name = "const_f16"},
    tensor<2xi64> {mlx.name = "const_i64"},
    tensor<2xui32> {mlx.name = "const_u32"},
    tensor<4x3xi32> {mlx.name = "full_row"},
    tensor<2x3xi32> {mlx.name = "full_cast"},
    tensor<3x1xf16> {mlx.name = "full_f16"},
    tensor<2x2xf32> {mlx.name = "full_const"},
    tensor<4xi32> {mlx.name = "arange_i32"},
    tensor<5xf32> {mlx.name = "arange_f32"},
    tensor<3xi64> {mlx.name = "arange_down"},
    tensor<8xf16> {mlx.name = "arange_frac"},
    tensor<10xf32> {mlx.name = "arange_neg"},
    tensor<3xi32> {mlx.name = "arange_use"}) {
  %cf = mlx.constant dense<[[1.5, -2.0], [0.25, 3.0]]> : tensor<2x2xf32>
  %const_add = mlx.add %x, %cf : tensor<2x2xf32>, tensor<2x2xf32>
  %const_i8 = mlx.constant dense<[[1, -2], [3, 127]]> : tensor<2x2xi8>
  %const_u8 = mlx.constant dense<255> : tensor<3xui8>
  %const_b = mlx.constant dense<[true, false, true]> : tensor<3xi1>
  %const_f16 = mlx.constant dense<[0.1, -65504.0]> : tensor<2xf16>
  %const_i64 = mlx.constant dense<[-9223372036854775808, 5]> : tensor<2xi64>
  %const_u32 = mlx.constant dense<[4294967295, 0]> : tensor<2xui32>
  %full_row = mlx.full %row : tensor<3xi32> -> tensor<4x3xi32>
  %full_cast = mlx.full %v : tensor<1xf32> -> tensor<2x3xi32>
  %full_f16 = mlx.full %v : tensor<1xf32> -> tensor<3x1xf16>
  %k = mlx.constant dense<-1.5> : tensor<f32>
  %full_const = mlx.full %k : tensor<f32> -> tensor<2x2xf32>
  %arange_i32 = mlx.arange {start = 0.0 : f64, stop = 10.0 : f64, step = 3.0 : f64} : tensor<4xi32>
  %arange_f32 = mlx.arange {start = 0.0 : f64, stop = 5.0 : f64} : tensor<5xf32>
  %arange_down = mlx.arange {start = 5.0 : f64, stop = 0.0 : f64, step = -2.0 : f64} : tensor<3xi64>
  %arange_frac = mlx.arange {start = 0.0 : f64, stop = 1.0 : f64, step = 0.125 : f64} : tensor<8xf16>
  %arange_neg = mlx.arange {start = -3.0 : f64, stop = 2.0 : f64, step = 0.5 : f64} : tensor<10xf32>
  %ar = mlx.arange {start = 1.0 : f64, stop = 4.0 : f64} : tensor<3xi32>
  %arange_use = mlx.multiply %row, %ar : tensor<3xi32>, tensor<3xi32>
  return %const_add, %const_i8, %const_u8, %const_b, %const_f16, %const_i64, %const_u32, %full_row, %full_cast, %full_f16, %full_const, %arange_i32, %arange_f32, %arange_down, %arange_frac, %arange_neg, %arange_use
      : tensor<2x2xf32>, tensor<2x2xi8>, tensor<3xui8>, tensor<3xi1>, tensor<2xf16>, tensor<2xi64>, tensor<2xui32>, tensor<4x3xi32>, tensor<2x3xi32>, tensor<3x1xf16>, tensor<2x2xf32>, tensor<4xi32>, tensor<5xf32>, tensor<3xi64>, tensor<8xf16>, tensor<10xf32>, tensor<3xi32>
}
