// RUN: %check %s
// Reductions on bfloat16.
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
// REF: prod_a0 = mx.prod(x, axis=(0,), keepdims=False)
// REF: prod_am1 = mx.prod(x, axis=(-1,), keepdims=False)
// REF: prod_a02 = mx.prod(x, axis=(0, 2), keepdims=False)
// REF: prod_a1k = mx.prod(x, axis=(1,), keepdims=True)
// REF: prod_am3m2k = mx.prod(x, axis=(-3, -2), keepdims=True)
// REF: prod_allk = mx.prod(x, axis=None, keepdims=True)
// REF: prod_all = mx.prod(x).reshape(1)
// REF: logsumexp_am1 = mx.logsumexp(x, axis=(-1,), keepdims=False)
func.func @reduce_bfloat16(
    %x: tensor<3x4x5xbf16> {mlx.name = "x"})
    -> (tensor<4x5xbf16> {mlx.name = "sum_a0"},
    tensor<3x4xbf16> {mlx.name = "sum_am1"},
    tensor<4xbf16> {mlx.name = "sum_a02"},
    tensor<3x1x5xbf16> {mlx.name = "sum_a1k"},
    tensor<1x1x5xbf16> {mlx.name = "sum_am3m2k"},
    tensor<1x1x1xbf16> {mlx.name = "sum_allk"},
    tensor<1xbf16> {mlx.name = "sum_all"},
    tensor<4x5xbf16> {mlx.name = "max_a0"},
    tensor<3x4xbf16> {mlx.name = "max_am1"},
    tensor<4xbf16> {mlx.name = "max_a02"},
    tensor<3x1x5xbf16> {mlx.name = "max_a1k"},
    tensor<1x1x5xbf16> {mlx.name = "max_am3m2k"},
    tensor<1x1x1xbf16> {mlx.name = "max_allk"},
    tensor<1xbf16> {mlx.name = "max_all"},
    tensor<4x5xbf16> {mlx.name = "prod_a0"},
    tensor<3x4xbf16> {mlx.name = "prod_am1"},
    tensor<4xbf16> {mlx.name = "prod_a02"},
    tensor<3x1x5xbf16> {mlx.name = "prod_a1k"},
    tensor<1x1x5xbf16> {mlx.name = "prod_am3m2k"},
    tensor<1x1x1xbf16> {mlx.name = "prod_allk"},
    tensor<1xbf16> {mlx.name = "prod_all"},
    tensor<3x4xbf16> {mlx.name = "logsumexp_am1"}) {
  %sum_a0 = mlx.sum %x {axes = array<i64: 0>} : tensor<3x4x5xbf16>
  %sum_am1 = mlx.sum %x {axes = array<i64: -1>} : tensor<3x4x5xbf16>
  %sum_a02 = mlx.sum %x {axes = array<i64: 0, 2>} : tensor<3x4x5xbf16>
  %sum_a1k = mlx.sum %x {axes = array<i64: 1>, keepdims = true} : tensor<3x4x5xbf16>
  %sum_am3m2k = mlx.sum %x {axes = array<i64: -3, -2>, keepdims = true} : tensor<3x4x5xbf16>
  %sum_allk = mlx.sum %x {keepdims = true} : tensor<3x4x5xbf16>
  %sum_all_s = mlx.sum %x : tensor<3x4x5xbf16>
  %sum_all = mlx.reshape %sum_all_s {shape = array<i64: 1>} : tensor<bf16>
  %max_a0 = mlx.max %x {axes = array<i64: 0>} : tensor<3x4x5xbf16>
  %max_am1 = mlx.max %x {axes = array<i64: -1>} : tensor<3x4x5xbf16>
  %max_a02 = mlx.max %x {axes = array<i64: 0, 2>} : tensor<3x4x5xbf16>
  %max_a1k = mlx.max %x {axes = array<i64: 1>, keepdims = true} : tensor<3x4x5xbf16>
  %max_am3m2k = mlx.max %x {axes = array<i64: -3, -2>, keepdims = true} : tensor<3x4x5xbf16>
  %max_allk = mlx.max %x {keepdims = true} : tensor<3x4x5xbf16>
  %max_all_s = mlx.max %x : tensor<3x4x5xbf16>
  %max_all = mlx.reshape %max_all_s {shape = array<i64: 1>} : tensor<bf16>
  %prod_a0 = mlx.prod %x {axes = array<i64: 0>} : tensor<3x4x5xbf16>
  %prod_am1 = mlx.prod %x {axes = array<i64: -1>} : tensor<3x4x5xbf16>
  %prod_a02 = mlx.prod %x {axes = array<i64: 0, 2>} : tensor<3x4x5xbf16>
  %prod_a1k = mlx.prod %x {axes = array<i64: 1>, keepdims = true} : tensor<3x4x5xbf16>
  %prod_am3m2k = mlx.prod %x {axes = array<i64: -3, -2>, keepdims = true} : tensor<3x4x5xbf16>
  %prod_allk = mlx.prod %x {keepdims = true} : tensor<3x4x5xbf16>
  %prod_all_s = mlx.prod %x : tensor<3x4x5xbf16>
  %prod_all = mlx.reshape %prod_all_s {shape = array<i64: 1>} : tensor<bf16>
  %logsumexp_am1 = mlx.logsumexp %x {axes = array<i64: -1>} : tensor<3x4x5xbf16>
  return %sum_a0, %sum_am1, %sum_a02, %sum_a1k, %sum_am3m2k, %sum_allk, %sum_all, %max_a0, %max_am1, %max_a02, %max_a1k, %max_am3m2k, %max_allk, %max_all, %prod_a0, %prod_am1, %prod_a02, %prod_a1k, %prod_am3m2k, %prod_allk, %prod_all, %logsumexp_am1
      : tensor<4x5xbf16>, tensor<3x4xbf16>, tensor<4xbf16>, tensor<3x1x5xbf16>, tensor<1x1x5xbf16>, tensor<1x1x1xbf16>, tensor<1xbf16>, tensor<4x5xbf16>, tensor<3x4xbf16>, tensor<4xbf16>, tensor<3x1x5xbf16>, tensor<1x1x5xbf16>, tensor<1x1x1xbf16>, tensor<1xbf16>, tensor<4x5xbf16>, tensor<3x4xbf16>, tensor<4xbf16>, tensor<3x1x5xbf16>, tensor<1x1x5xbf16>, tensor<1x1x1xbf16>, tensor<1xbf16>, tensor<3x4xbf16>
}
