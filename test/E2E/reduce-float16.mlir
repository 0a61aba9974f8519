// RUN: %check %s
// Reductions on float16 (sums accumulate in float32 as MLX does).
// REF: sum_a0 = mx.sum(x, axis=(0,), keepdims=False)
// REF: sum_am1 = mx.sum(x, axis=(-1,), keepdims=False)
// REF: sum_a02 = mx.sum(x, axis=(0, 2), keepdims=False)
// REF: sum_a1k = mx.sum(x, axis=(1,), keepdims=True)
// REF: sum_am3m2k = mx.sum(x, axis=(-3, -2), keepdims=True)
// REF: sum_allk = mx.sum(x, axis=None, keepdims=True)
// REF: sum_all = mx.sum(x).reshape(1)
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
// REF: logsumexp_am1 = mx.logsumexp(x, axis=(-1,), keepdims=False)
func.func @reduce_float16(
    %x: tensor<3x4x5xf16> {mlx.name = "x"})
    -> (tensor<4x5xf16> {mlx.name = "sum_a0"},
    tensor<3x4xf16> {mlx.name = "sum_am1"},
    tensor<4xf16> {mlx.name = "sum_a02"},
    tensor<3x1x5xf16> {mlx.name = "sum_a1k"},
    tensor<1x1x5xf16> {mlx.name = "sum_am3m2k"},
    tensor<1x1x1xf16> {mlx.name = "sum_allk"},
    tensor<1xf16> {mlx.name = "sum_all"},
    tensor<4x5xf16> {mlx.name = "max_a0"},
    tensor<3x4xf16> {mlx.name = "max_am1"},
    tensor<4xf16> {mlx.name = "max_a02"},
    tensor<3x1x5xf16> {mlx.name = "max_a1k"},
    tensor<1x1x5xf16> {mlx.name = "max_am3m2k"},
    tensor<1x1x1xf16> {mlx.name = "max_allk"},
    tensor<1xf16> {mlx.name = "max_all"},
    tensor<4x5xf16> {mlx.name = "min_a0"},
    tensor<3x4xf16> {mlx.name = "min_am1"},
    tensor<4xf16> {mlx.name = "min_a02"},
    tensor<3x1x5xf16> {mlx.name = "min_a1k"},
    tensor<1x1x5xf16> {mlx.name = "min_am3m2k"},
    tensor<1x1x1xf16> {mlx.name = "min_allk"},
    tensor<1xf16> {mlx.name = "min_all"},
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
    tensor<3x4xf16> {mlx.name = "logsumexp_am1"}) {
  %sum_a0 = mlx.sum %x {axes = array<i64: 0>} : tensor<3x4x5xf16>
  %sum_am1 = mlx.sum %x {axes = array<i64: -1>} : tensor<3x4x5xf16>
  %sum_a02 = mlx.sum %x {axes = array<i64: 0, 2>} : tensor<3x4x5xf16>
  %sum_a1k = mlx.sum %x {axes = array<i64: 1>, keepdims = true} : tensor<3x4x5xf16>
  %sum_am3m2k = mlx.sum %x {axes = array<i64: -3, -2>, keepdims = true} : tensor<3x4x5xf16>
  %sum_allk = mlx.sum %x {keepdims = true} : tensor<3x4x5xf16>
  %sum_all_s = mlx.sum %x : tensor<3x4x5xf16>
  %sum_all = mlx.reshape %sum_all_s {shape = array<i64: 1>} : tensor<f16>
  %max_a0 = mlx.max %x {axes = array<i64: 0>} : tensor<3x4x5xf16>
  %max_am1 = mlx.max %x {axes = array<i64: -1>} : tensor<3x4x5xf16>
  %max_a02 = mlx.max %x {axes = array<i64: 0, 2>} : tensor<3x4x5xf16>
  %max_a1k = mlx.max %x {axes = array<i64: 1>, keepdims = true} : tensor<3x4x5xf16>
  %max_am3m2k = mlx.max %x {axes = array<i64: -3, -2>, keepdims = true} : tensor<3x4x5xf16>
  %max_allk = mlx.max %x {keepdims = true} : tensor<3x4x5xf16>
  %max_all_s = mlx.max %x : tensor<3x4x5xf16>
  %max_all = mlx.reshape %max_all_s {shape = array<i64: 1>} : tensor<f16>
  %min_a0 = mlx.min %x {axes = array<i64: 0>} : tensor<3x4x5xf16>
  %min_am1 = mlx.min %x {axes = array<i64: -1>} : tensor<3x4x5xf16>
  %min_a02 = mlx.min %x {axes = array<i64: 0, 2>} : tensor<3x4x5xf16>
  %min_a1k = mlx.min %x {axes = array<i64: 1>, keepdims = true} : tensor<3x4x5xf16>
  %min_am3m2k = mlx.min %x {axes = array<i64: -3, -2>, keepdims = true} : tensor<3x4x5xf16>
  %min_allk = mlx.min %x {keepdims = true} : tensor<3x4x5xf16>
  %min_all_s = mlx.min %x : tensor<3x4x5xf16>
  %min_all = mlx.reshape %min_all_s {shape = array<i64: 1>} : tensor<f16>
  %any_a0 = mlx.any %x {axes = array<i64: 0>} : tensor<3x4x5xf16>
  %any_am1 = mlx.any %x {axes = array<i64: -1>} : tensor<3x4x5xf16>
  %any_a02 = mlx.any %x {axes = array<i64: 0, 2>} : tensor<3x4x5xf16>
  %any_a1k = mlx.any %x {axes = array<i64: 1>, keepdims = true} : tensor<3x4x5xf16>
  %any_am3m2k = mlx.any %x {axes = array<i64: -3, -2>, keepdims = true} : tensor<3x4x5xf16>
  %any_allk = mlx.any %x {keepdims = true} : tensor<3x4x5xf16>
  %any_all_s = mlx.any %x : tensor<3x4x5xf16>
  %any_all = mlx.reshape %any_all_s {shape = array<i64: 1>} : tensor<i1>
  %argmax_0_0 = mlx.argmax %x {axis = 0 : i64} : tensor<3x4x5xf16>
  %argmax_m1_0 = mlx.argmax %x {axis = -1 : i64} : tensor<3x4x5xf16>
  %argmax_1_1 = mlx.argmax %x {axis = 1 : i64, keepdims = true} : tensor<3x4x5xf16>
  %argmax_m2_1 = mlx.argmax %x {axis = -2 : i64, keepdims = true} : tensor<3x4x5xf16>
  %argmin_0_0 = mlx.argmin %x {axis = 0 : i64} : tensor<3x4x5xf16>
  %argmin_m1_0 = mlx.argmin %x {axis = -1 : i64} : tensor<3x4x5xf16>
  %argmin_1_1 = mlx.argmin %x {axis = 1 : i64, keepdims = true} : tensor<3x4x5xf16>
  %argmin_m2_1 = mlx.argmin %x {axis = -2 : i64, keepdims = true} : tensor<3x4x5xf16>
  %logsumexp_am1 = mlx.logsumexp %x {axes = array<i64: -1>} : tensor<3x4x5xf16>
  return %sum_a0, %sum_am1, %sum_a02, %sum_a1k, %sum_am3m2k, %sum_allk, %sum_all, %max_a0, %max_am1, %max_a02, %max_a1k, %max_am3m2k, %max_allk, %max_all, %min_a0, %min_am1, %min_a02, %min_a1k, %min_am3m2k, %min_allk, %min_all, %any_a0, %any_am1, %any_a02, %any_a1k, %any_am3m2k, %any_allk, %any_all, %argmax_0_0, %argmax_m1_0, %argmax_1_1, %argmax_m2_1, %argmin_0_0, %argmin_m1_0, %argmin_1_1, %argmin_m2_1, %logsumexp_am1
      : tensor<4x5xf16>, tensor<3x4xf16>, tensor<4xf16>, tensor<3x1x5xf16>, tensor<1x1x5xf16>, tensor<1x1x1xf16>, tensor<1xf16>, tensor<4x5xf16>, tensor<3x4xf16>, tensor<4xf16>, tensor<3x1x5xf16>, tensor<1x1x5xf16>, tensor<1x1x1xf16>, tensor<1xf16>, tensor<4x5xf16>, tensor<3x4xf16>, tensor<4xf16>, tensor<3x1x5xf16>, tensor<1x1x5xf16>, tensor<1x1x1xf16>, tensor<1xf16>, tensor<4x5xi1>, tensor<3x4xi1>, tensor<4xi1>, tensor<3x1x5xi1>, tensor<1x1x5xi1>, tensor<1x1x1xi1>, tensor<1xi1>, tensor<4x5xui32>, tensor<3x4xui32>, tensor<3x1x5xui32>, tensor<3x1x5xui32>, tensor<4x5xui32>, tensor<3x4xui32>, tensor<3x1x5xui32>, tensor<3x1x5xui32>, tensor<3x4xf16>
}
