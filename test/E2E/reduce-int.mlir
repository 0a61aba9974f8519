// RUN: %check %s
// Reductions on int32 (values in [-4, 4]: ties for argmax/argmin pick the
// first, zeros for all/any), int8/uint8 sums widen to int32/uint32, bool
// sum/prod give int32, bool max/all/any, argmin of uint8.
// INPUT: x = randint(-4, 5)
// INPUT: i8 = randint(-128, 128)
// INPUT: u8 = randint(0, 256)
// REF: sum_a0 = mx.sum(x, axis=(0,), keepdims=False)
// REF: sum_am1 = mx.sum(x, axis=(-1,), keepdims=False)
// REF: sum_a02 = mx.sum(x, axis=(0, 2), keepdims=False)
// REF: sum_a1k = mx.sum(x, axis=(1,), keepdims=True)
// REF: sum_am3m2k = mx.sum(x, axis=(-3, -2), keepdims=True)
// REF: sum_allk = mx.sum(x, axis=None, keepdims=True)
// REF: sum_all = mx.sum(x).reshape(1)
// REF: prod_a0 = mx.prod(x, axis=(0,), keepdims=False)
// REF: prod_am1 = mx.prod(x, axis=(-1,), keepdims=False)
// REF: prod_a02 = mx.prod(x, axis=(0, 2), keepdims=False)
// REF: prod_a1k = mx.prod(x, axis=(1,), keepdims=True)
// REF: prod_am3m2k = mx.prod(x, axis=(-3, -2), keepdims=True)
// REF: prod_allk = mx.prod(x, axis=None, keepdims=True)
// REF: prod_all = mx.prod(x).reshape(1)
// REF: max_a0 = mx.max(x, axis=(0,), keepdims=False)
// REF: max_am1 = mx.max(x, axis=(-1,), keepdims=False)
// REF: max_a02 = mx.max(x, axis=(0, 2), keepdims=False)
// REF: max_a1k = mx.max(x, axis=(1,), keepdims=True)
// REF: max_am3m2k = mx.max(x, axis=(-3, -2), keepdims=True)
// REF: max_allk = mx.max(x, axis=None, keepdims=True)
// REF: max_all = mx.max(x).reshape(1)
// REF: min_a0 = mx.min(x, axis=(0,), keepdims=False)
// REF: min_am1 = mx.min(x, axis=(-1,), keepdims=False)
// REF: min_a02 = mx.min(x, axis=(0, 2), keepdims=False)
// REF: min_a1k = mx.min(x, axis=(1,), keepdims=True)
// REF: min_am3m2k = mx.min(x, axis=(-3, -2), keepdims=True)
// REF: min_allk = mx.min(x, axis=None, keepdims=True)
// REF: min_all = mx.min(x).reshape(1)
// REF: all_a0 = mx.all(x, axis=(0,), keepdims=False)
// REF: all_am1 = mx.all(x, axis=(-1,), keepdims=False)
// REF: all_a02 = mx.all(x, axis=(0, 2), keepdims=False)
// REF: all_a1k = mx.all(x, axis=(1,), keepdims=True)
// REF: all_am3m2k = mx.all(x, axis=(-3, -2), keepdims=True)
// REF: all_allk = mx.all(x, axis=None, keepdims=True)
// REF: all_all = mx.all(x).reshape(1)
// REF: any_a0 = mx.any(x, axis=(0,), keepdims=False)
// REF: any_am1 = mx.any(x, axis=(-1,), keepdims=False)
// REF: any_a02 = mx.any(x, axis=(0, 2), keepdims=False)
// REF: any_a1k = mx.any(x, axis=(1,), keepdims=True)
// REF: any_am3m2k = mx.any(x, axis=(-3, -2), keepdims=True)
// REF: any_allk = mx.any(x, axis=None, keepdims=True)
// REF: any_all = mx.any(x).reshape(1)
// REF: argmax_0_0 = mx.argmax(x, axis=0, keepdims=False)
// REF: argmax_m1_0 = mx.argmax(x, axis=-1, keepdims=False)
// REF: argmax_1_1 = mx.argmax(x, axis=1, keepdims=True)
// REF: argmax_m2_1 = mx.argmax(x, axis=-2, keepdims=True)
// REF: argmin_0_0 = mx.argmin(x, axis=0, keepdims=False)
// REF: argmin_m1_0 = mx.argmin(x, axis=-1, keepdims=False)
// REF: argmin_1_1 = mx.argmin(x, axis=1, keepdims=True)
// REF: argmin_m2_1 = mx.argmin(x, axis=-2, keepdims=True)
// REF: sum_i8 = mx.sum(i8, axis=1)
// REF: sum_u8 = mx.sum(u8, axis=0)
// REF: prod_u8 = mx.prod(u8, axis=1)
// REF: max_i8 = mx.max(i8, axis=1)
// REF: min_u8 = mx.min(u8, axis=0)
// REF: sum_b = mx.sum(b, axis=1)
// REF: prod_b = mx.prod(b, axis=0)
// REF: all_b = mx.all(b, axis=1)
// REF: any_b = mx.any(b, axis=0, keepdims=True)
// REF: max_b = mx.max(b, axis=1)
// REF: argmax_b = mx.argmax(b, axis=1)
// REF: argmin_u8 = mx.argmin(u8, axis=0)
// REF: logsumexp_i = mx.logsumexp(i8, axis=1)
func.func @reduce_int(
    %x: tensor<3x4x5xi32> {mlx.name = "x"},
    %i8: tensor<4x5xi8> {mlx.name = "i8"},
    %u8: tensor<4x5xui8> {mlx.name = "u8"},
    %b: tensor<4x5xi1> {mlx.name = "b"})
    -> (tensor<4x5xi32> {mlx.name = "sum_a0"},
    tensor<3x4xi32> {mlx.name = "sum_am1"},
    tensor<4xi32> {mlx.name = "sum_a02"},
    tensor<3x1x5xi32> {mlx.name = "sum_a1k"},
    tensor<1x1x5xi32> {mlx.name = "sum_am3m2k"},
    tensor<1x1x1xi32> {mlx.name = "sum_allk"},
    tensor<1xi32> {mlx.name = "sum_all"},
    tensor<4x5xi32> {mlx.name = "prod_a0"},
    tensor<3x4xi32> {mlx.name = "prod_am1"},
    tensor<4xi32> {mlx.name = "prod_a02"},
    tensor<3x1x5xi32> {mlx.name = "prod_a1k"},
    tensor<1x1x5xi32> {mlx.name = "prod_am3m2k"},
    tensor<1x1x1xi32> {mlx.name = "prod_allk"},
    tensor<1xi32> {mlx.name = "prod_all"},
    tensor<4x5xi32> {mlx.name = "max_a0"},
    tensor<3x4xi32> {mlx.name = "max_am1"},
    tensor<4xi32> {mlx.name = "max_a02"},
    tensor<3x1x5xi32> {mlx.name = "max_a1k"},
    tensor<1x1x5xi32> {mlx.name = "max_am3m2k"},
    tensor<1x1x1xi32> {mlx.name = "max_allk"},
    tensor<1xi32> {mlx.name = "max_all"},
    tensor<4x5xi32> {mlx.name = "min_a0"},
    tensor<3x4xi32> {mlx.name = "min_am1"},
    tensor<4xi32> {mlx.name = "min_a02"},
    tensor<3x1x5xi32> {mlx.name = "min_a1k"},
    tensor<1x1x5xi32> {mlx.name = "min_am3m2k"},
    tensor<1x1x1xi32> {mlx.name = "min_allk"},
    tensor<1xi32> {mlx.name = "min_all"},
    tensor<4x5xi1> {mlx.name = "all_a0"},
    tensor<3x4xi1> {mlx.name = "all_am1"},
    tensor<4xi1> {mlx.name = "all_a02"},
    tensor<3x1x5xi1> {mlx.name = "all_a1k"},
    tensor<1x1x5xi1> {mlx.name = "all_am3m2k"},
    tensor<1x1x1xi1> {mlx.name = "all_allk"},
    tensor<1xi1> {mlx.name = "all_all"},
    tensor<4x5xi1> {mlx.name = "any_a0"},
    tensor<3x4xi1> {mlx.name = "any_am1"},
    tensor<4xi1> {mlx.name = "any_a02"},
    tensor<3x1x5xi1> {mlx.name = "any_a1k"},
    tensor<1x1x5xi1> {mlx.name = "any_am3m2k"},
    tensor<1x1x1xi1> {mlx.name = "any_allk"},
    tensor<1xi1> {mlx.name = "any_all"},
    tensor<4x5xui32> {mlx.name = "argmax_0_0"},
    tensor<3x4xui32> {mlx.name = "argmax_m1_0"},
    tensor<3x1x5xui32> {mlx.name = "argmax_1_1"},
    tensor<3x1x5xui32> {mlx.name = "argmax_m2_1"},
    tensor<4x5xui32> {mlx.name = "argmin_0_0"},
    tensor<3x4xui32> {mlx.name = "argmin_m1_0"},
    tensor<3x1x5xui32> {mlx.name = "argmin_1_1"},
    tensor<3x1x5xui32> {mlx.name = "argmin_m2_1"},
    tensor<4xi32> {mlx.name = "sum_i8"},
    tensor<5xui32> {mlx.name = "sum_u8"},
    tensor<4xui32> {mlx.name = "prod_u8"},
    tensor<4xi8> {mlx.name = "max_i8"},
    tensor<5xui8> {mlx.name = "min_u8"},
    tensor<4xi32> {mlx.name = "sum_b"},
    tensor<5xi32> {mlx.name = "prod_b"},
    tensor<4xi1> {mlx.name = "all_b"},
    tensor<1x5xi1> {mlx.name = "any_b"},
    tensor<4xi1> {mlx.name = "max_b"},
    tensor<4xui32> {mlx.name = "argmax_b"},
    tensor<5xui32> {mlx.name = "argmin_u8"},
    tensor<4xf32> {mlx.name = "logsumexp_i"}) {
  %sum_a0 = mlx.sum %x {axes = array<i64: 0>} : tensor<3x4x5xi32>
  %sum_am1 = mlx.sum %x {axes = array<i64: -1>} : tensor<3x4x5xi32>
  %sum_a02 = mlx.sum %x {axes = array<i64: 0, 2>} : tensor<3x4x5xi32>
  %sum_a1k = mlx.sum %x {axes = array<i64: 1>, keepdims = true} : tensor<3x4x5xi32>
  %sum_am3m2k = mlx.sum %x {axes = array<i64: -3, -2>, keepdims = true} : tensor<3x4x5xi32>
  %sum_allk = mlx.sum %x {keepdims = true} : tensor<3x4x5xi32>
  %sum_all_s = mlx.sum %x : tensor<3x4x5xi32>
  %sum_all = mlx.reshape %sum_all_s {shape = array<i64: 1>} : tensor<i32>
  %prod_a0 = mlx.prod %x {axes = array<i64: 0>} : tensor<3x4x5xi32>
  %prod_am1 = mlx.prod %x {axes = array<i64: -1>} : tensor<3x4x5xi32>
  %prod_a02 = mlx.prod %x {axes = array<i64: 0, 2>} : tensor<3x4x5xi32>
  %prod_a1k = mlx.prod %x {axes = array<i64: 1>, keepdims = true} : tensor<3x4x5xi32>
  %prod_am3m2k = mlx.prod %x {axes = array<i64: -3, -2>, keepdims = true} : tensor<3x4x5xi32>
  %prod_allk = mlx.prod %x {keepdims = true} : tensor<3x4x5xi32>
  %prod_all_s = mlx.prod %x : tensor<3x4x5xi32>
  %prod_all = mlx.reshape %prod_all_s {shape = array<i64: 1>} : tensor<i32>
  %max_a0 = mlx.max %x {axes = array<i64: 0>} : tensor<3x4x5xi32>
  %max_am1 = mlx.max %x {axes = array<i64: -1>} : tensor<3x4x5xi32>
  %max_a02 = mlx.max %x {axes = array<i64: 0, 2>} : tensor<3x4x5xi32>
  %max_a1k = mlx.max %x {axes = array<i64: 1>, keepdims = true} : tensor<3x4x5xi32>
  %max_am3m2k = mlx.max %x {axes = array<i64: -3, -2>, keepdims = true} : tensor<3x4x5xi32>
  %max_allk = mlx.max %x {keepdims = true} : tensor<3x4x5xi32>
  %max_all_s = mlx.max %x : tensor<3x4x5xi32>
  %max_all = mlx.reshape %max_all_s {shape = array<i64: 1>} : tensor<i32>
  %min_a0 = mlx.min %x {axes = array<i64: 0>} : tensor<3x4x5xi32>
  %min_am1 = mlx.min %x {axes = array<i64: -1>} : tensor<3x4x5xi32>
  %min_a02 = mlx.min %x {axes = array<i64: 0, 2>} : tensor<3x4x5xi32>
  %min_a1k = mlx.min %x {axes = array<i64: 1>, keepdims = true} : tensor<3x4x5xi32>
  %min_am3m2k = mlx.min %x {axes = array<i64: -3, -2>, keepdims = true} : tensor<3x4x5xi32>
  %min_allk = mlx.min %x {keepdims = true} : tensor<3x4x5xi32>
  %min_all_s = mlx.min %x : tensor<3x4x5xi32>
  %min_all = mlx.reshape %min_all_s {shape = array<i64: 1>} : tensor<i32>
  %all_a0 = mlx.all %x {axes = array<i64: 0>} : tensor<3x4x5xi32>
  %all_am1 = mlx.all %x {axes = array<i64: -1>} : tensor<3x4x5xi32>
  %all_a02 = mlx.all %x {axes = array<i64: 0, 2>} : tensor<3x4x5xi32>
  %all_a1k = mlx.all %x {axes = array<i64: 1>, keepdims = true} : tensor<3x4x5xi32>
  %all_am3m2k = mlx.all %x {axes = array<i64: -3, -2>, keepdims = true} : tensor<3x4x5xi32>
  %all_allk = mlx.all %x {keepdims = true} : tensor<3x4x5xi32>
  %all_all_s = mlx.all %x : tensor<3x4x5xi32>
  %all_all = mlx.reshape %all_all_s {shape = array<i64: 1>} : tensor<i1>
  %any_a0 = mlx.any %x {axes = array<i64: 0>} : tensor<3x4x5xi32>
  %any_am1 = mlx.any %x {axes = array<i64: -1>} : tensor<3x4x5xi32>
  %any_a02 = mlx.any %x {axes = array<i64: 0, 2>} : tensor<3x4x5xi32>
  %any_a1k = mlx.any %x {axes = array<i64: 1>, keepdims = true} : tensor<3x4x5xi32>
  %any_am3m2k = mlx.any %x {axes = array<i64: -3, -2>, keepdims = true} : tensor<3x4x5xi32>
  %any_allk = mlx.any %x {keepdims = true} : tensor<3x4x5xi32>
  %any_all_s = mlx.any %x : tensor<3x4x5xi32>
  %any_all = mlx.reshape %any_all_s {shape = array<i64: 1>} : tensor<i1>
  %argmax_0_0 = mlx.argmax %x {axis = 0 : i64} : tensor<3x4x5xi32>
  %argmax_m1_0 = mlx.argmax %x {axis = -1 : i64} : tensor<3x4x5xi32>
  %argmax_1_1 = mlx.argmax %x {axis = 1 : i64, keepdims = true} : tensor<3x4x5xi32>
  %argmax_m2_1 = mlx.argmax %x {axis = -2 : i64, keepdims = true} : tensor<3x4x5xi32>
  %argmin_0_0 = mlx.argmin %x {axis = 0 : i64} : tensor<3x4x5xi32>
  %argmin_m1_0 = mlx.argmin %x {axis = -1 : i64} : tensor<3x4x5xi32>
  %argmin_1_1 = mlx.argmin %x {axis = 1 : i64, keepdims = true} : tensor<3x4x5xi32>
  %argmin_m2_1 = mlx.argmin %x {axis = -2 : i64, keepdims = true} : tensor<3x4x5xi32>
  %sum_i8 = mlx.sum %i8 {axes = array<i64: 1>} : tensor<4x5xi8>
  %sum_u8 = mlx.sum %u8 {axes = array<i64: 0>} : tensor<4x5xui8>
  %prod_u8 = mlx.prod %u8 {axes = array<i64: 1>} : tensor<4x5xui8>
  %max_i8 = mlx.max %i8 {axes = array<i64: 1>} : tensor<4x5xi8>
  %min_u8 = mlx.min %u8 {axes = array<i64: 0>} : tensor<4x5xui8>
  %sum_b = mlx.sum %b {axes = array<i64: 1>} : tensor<4x5xi1>
  %prod_b = mlx.prod %b {axes = array<i64: 0>} : tensor<4x5xi1>
  %all_b = mlx.all %b {axes = array<i64: 1>} : tensor<4x5xi1>
  %any_b = mlx.any %b {axes = array<i64: 0>, keepdims = true} : tensor<4x5xi1>
  %max_b = mlx.max %b {axes = array<i64: 1>} : tensor<4x5xi1>
  %argmax_b = mlx.argmax %b {axis = 1 : i64} : tensor<4x5xi1>
  %argmin_u8 = mlx.argmin %u8 {axis = 0 : i64} : tensor<4x5xui8>
  %logsumexp_i = mlx.logsumexp %i8 {axes = array<i64: 1>} : tensor<4x5xi8>
  return %sum_a0, %sum_am1, %sum_a02, %sum_a1k, %sum_am3m2k, %sum_allk, %sum_all, %prod_a0, %prod_am1, %prod_a02, %prod_a1k, %prod_am3m2k, %prod_allk, %prod_all, %max_a0, %max_am1, %max_a02, %max_a1k, %max_am3m2k, %max_allk, %max_all, %min_a0, %min_am1, %min_a02, %min_a1k, %min_am3m2k, %min_allk, %min_all, %all_a0, %all_am1, %all_a02, %all_a1k, %all_am3m2k, %all_allk, %all_all, %any_a0, %any_am1, %any_a02, %any_a1k, %any_am3m2k, %any_allk, %any_all, %argmax_0_0, %argmax_m1_0, %argmax_1_1, %argmax_m2_1, %argmin_0_0, %argmin_m1_0, %argmin_1_1, %argmin_m2_1, %sum_i8, %sum_u8, %prod_u8, %max_i8, %min_u8, %sum_b, %prod_b, %all_b, %any_b, %max_b, %argmax_b, %argmin_u8, %logsumexp_i
      : tensor<4x5xi32>, tensor<3x4xi32>, tensor<4xi32>, tensor<3x1x5xi32>, tensor<1x1x5xi32>, tensor<1x1x1xi32>, tensor<1xi32>, tensor<4x5xi32>, tensor<3x4xi32>, tensor<4xi32>, tensor<3x1x5xi32>, tensor<1x1x5xi32>, tensor<1x1x1xi32>, tensor<1xi32>, tensor<4x5xi32>, tensor<3x4xi32>, tensor<4xi32>, tensor<3x1x5xi32>, tensor<1x1x5xi32>, tensor<1x1x1xi32>, tensor<1xi32>, tensor<4x5xi32>, tensor<3x4xi32>, tensor<4xi32>, tensor<3x1x5xi32>, tensor<1x1x5xi32>, tensor<1x1x1xi32>, tensor<1xi32>, tensor<4x5xi1>, tensor<3x4xi1>, tensor<4xi1>, tensor<3x1x5xi1>, tensor<1x1x5xi1>, tensor<1x1x1xi1>, tensor<1xi1>, tensor<4x5xi1>, tensor<3x4xi1>, tensor<4xi1>, tensor<3x1x5xi1>, tensor<1x1x5xi1>, tensor<1x1x1xi1>, tensor<1xi1>, tensor<4x5xui32>, tensor<3x4xui32>, tensor<3x1x5xui32>, tensor<3x1x5xui32>, tensor<4x5xui32>, tensor<3x4xui32>, tensor<3x1x5xui32>, tensor<3x1x5xui32>, tensor<4xi32>, tensor<5xui32>, tensor<4xui32>, tensor<4xi8>, tensor<5xui8>, tensor<4xi32>, tensor<5xi32>, tensor<4xi1>, tensor<1x5xi1>, tensor<4xi1>, tensor<4xui32>, tensor<5xui32>, tensor<4xf32>
}
