// RUN: %check %s
// argmax/argmin over long rows, as a language model's greedy step takes
// them (the log-probabilities of a 32000-entry vocabulary, bf16: many ties,
// the first index wins), and rows of special values: all -inf; +inf twice
// (the first); NaN twice (the first NaN, as MLX's max); all zeros with a
// -0.0 first (the first); small integers with ties.
// INPUT: special = np.where(np.arange(shape[0])[:, None] == 0, -np.inf, np.where((np.arange(shape[0])[:, None] == 1) & ((np.arange(shape[1])[None, :] == 7) | (np.arange(shape[1])[None, :] == 3000)), np.inf, np.where((np.arange(shape[0])[:, None] == 2) & ((np.arange(shape[1])[None, :] == 500) | (np.arange(shape[1])[None, :] == 100)), np.nan, np.where(np.arange(shape[0])[:, None] == 3, np.where(np.arange(shape[1])[None, :] == 0, -0.0, 0.0), rng.standard_normal(shape)))))
// INPUT: ints = randint(-20, 20)
// REF: token = mx.argmax(logits - mx.logsumexp(logits, axis=-1, keepdims=True), axis=-1)
// REF: amax = mx.argmax(special, axis=-1)
// REF: amin = mx.argmin(special, axis=1, keepdims=True)
// REF: imax = mx.argmax(ints, axis=-1)
// REF: cmax = mx.argmax(special, axis=0)
func.func @argmax_rows(
    %logits: tensor<2x32000xbf16> {mlx.name = "logits"},
    %special: tensor<5x4099xf32> {mlx.name = "special"},
    %ints: tensor<3x1000xi32> {mlx.name = "ints"})
    -> (tensor<2xui32> {mlx.name = "token"},
        tensor<5xui32> {mlx.name = "amax"},
        tensor<5x1xui32> {mlx.name = "amin"},
        tensor<3xui32> {mlx.name = "imax"},
        tensor<4099xui32> {mlx.name = "cmax"}) {
  %lse = mlx.logsumexp %logits {axes = array<i64: -1>, keepdims = true} : tensor<2x32000xbf16>
  %lp = mlx.subtract %logits, %lse : tensor<2x32000xbf16>, tensor<2x1xbf16>
  %token = mlx.argmax %lp {axis = -1 : i64} : tensor<2x32000xbf16>
  %amax = mlx.argmax %special {axis = -1 : i64} : tensor<5x4099xf32>
  %amin = mlx.argmin %special {axis = 1 : i64, keepdims = true} : tensor<5x4099xf32>
  %imax = mlx.argmax %ints {axis = -1 : i64} : tensor<3x1000xi32>
  %cmax = mlx.argmax %special {axis = 0 : i64} : tensor<5x4099xf32>
  return %token, %amax, %amin, %imax, %cmax : tensor<2xui32>, tensor<5xui32>, tensor<5x1xui32>, tensor<3xui32>, tensor<4099xui32>
}
