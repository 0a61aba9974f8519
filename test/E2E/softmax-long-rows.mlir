// RUN: %check %s
// softmax over rows too long to keep in registers (the CUDA path's online
// max-and-sum pass): random rows, rows whose leading entries are -inf (a
// causal mask), rows of -inf, +inf and NaN, a bfloat16 row (non-precise:
// bfloat16 max and sum) and a float16 row computed precisely, and a
// logsumexp over the same rows.
// INPUT: masked = np.where(np.arange(shape[1])[None, :] < 333 * np.arange(shape[0])[:, None], -np.inf, rng.standard_normal(shape))
// INPUT: special = np.where(np.arange(shape[0])[:, None] == 0, -np.inf, np.where((np.arange(shape[0])[:, None] == 1) & (np.arange(shape[1])[None, :] == 7), np.inf, np.where((np.arange(shape[0])[:, None] == 2) & (np.arange(shape[1])[None, :] == 500), np.nan, rng.standard_normal(shape))))
// INPUT: big = uniform(80.0, 100.0)
// REF: sm = mx.softmax(x, axis=-1)
// REF: sm_masked = mx.softmax(masked, axis=-1)
// REF: sm_special = mx.softmax(special, axis=-1)
// REF: sm_big = mx.softmax(big, axis=-1)
// REF: sm_b = mx.softmax(b, axis=-1)
// REF: sm_h = mx.softmax(h, axis=-1, precise=True)
// REF: lse = mx.logsumexp(x, axis=-1)
func.func @softmax_long_rows(
    %x: tensor<3x1000xf32> {mlx.name = "x"},
    %masked: tensor<4x1000xf32> {mlx.name = "masked"},
    %special: tensor<4x1000xf32> {mlx.name = "special"},
    %big: tensor<2x20000xf32> {mlx.name = "big"},
    %b: tensor<2x1000xbf16> {mlx.name = "b"},
    %h: tensor<2x1000xf16> {mlx.name = "h"})
    -> (tensor<3x1000xf32> {mlx.name = "sm"},
    tensor<4x1000xf32> {mlx.name = "sm_masked"},
    tensor<4x1000xf32> {mlx.name = "sm_special"},
    tensor<2x20000xf32> {mlx.name = "sm_big"},
    tensor<2x1000xbf16> {mlx.name = "sm_b"},
    tensor<2x1000xf16> {mlx.name = "sm_h"},
    tensor<3xf32> {mlx.name = "lse"}) {
  %sm = mlx.softmax %x {axes = array<i64: -1>} : tensor<3x1000xf32>
  %sm_masked = mlx.softmax %masked {axes = array<i64: -1>} : tensor<4x1000xf32>
  %sm_special = mlx.softmax %special {axes = array<i64: -1>} : tensor<4x1000xf32>
  %sm_big = mlx.softmax %big {axes = array<i64: -1>} : tensor<2x20000xf32>
  %sm_b = mlx.softmax %b {axes = array<i64: -1>} : tensor<2x1000xbf16>
  %sm_h = mlx.softmax %h {axes = array<i64: -1>, precise = true} : tensor<2x1000xf16>
  %lse = mlx.logsumexp %x {axes = array<i64: -1>} : tensor<3x1000xf32>
  return %sm, %sm_masked, %sm_special, %sm_big, %sm_b, %sm_h, %lse : tensor<3x1000xf32>, tensor<4x1000xf32>, tensor<4x1000xf32>, tensor<2x20000xf32>, tensor<2x1000xbf16>, tensor<2x1000xf16>, tensor<3xf32>
}
