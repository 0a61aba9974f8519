// RUN: %check %s
// Rows that fit no block's registers but fit a cluster's (a vocabulary's
// 131072 logits): for sm_90 each row is spread over 2 to 8 blocks of a
// thread-block cluster that exchange their totals through distributed
// shared memory; the sm_70 PTX runs the strided form in each cluster's
// first block. softmax (f32 with special rows: all -inf, +inf, NaN, a
// first block whose whole slice is -inf; bf16, precise: a bf16 sum of
// 131072 terms is not), logsumexp, rms_norm, layer_norm, argmax (an index
// exchanged between blocks; ties across blocks take the first) and a lone
// sum, against MLX. The softmaxes are scaled by the row length (the mean
// becomes 1), so that the check's tolerance, relative to the largest
// value, is not looser than the values themselves.
// INPUT: special = np.where(np.arange(shape[0])[:, None] == 0, -np.inf, np.where((np.arange(shape[0])[:, None] == 1) & (np.arange(shape[1])[None, :] == 70000), np.inf, np.where((np.arange(shape[0])[:, None] == 2) & (np.arange(shape[1])[None, :] == 100000), np.nan, np.where((np.arange(shape[0])[:, None] == 3) & (np.arange(shape[1])[None, :] < 20000), -np.inf, rng.standard_normal(shape)))))
// INPUT: ties = np.where((np.arange(shape[1])[None, :] % 40000) == 39000 + np.arange(shape[0])[:, None], 5.0, rng.uniform(-1.0, 1.0, shape))
// INPUT: y = uniform(-4.0, 4.0) + 1.0
// INPUT: n = np.full(shape, 131072.0)
// REF: sm = mx.softmax(x, axis=-1) * n
// REF: sm_special = mx.softmax(special, axis=-1) * n
// REF: sm_b = mx.softmax(b, axis=-1, precise=True) * n.astype(mx.bfloat16)
// REF: lse = mx.logsumexp(m, axis=-1)
// REF: rms = mx.fast.rms_norm(y, w, 1e-5)
// REF: ln = mx.fast.layer_norm(z, wz, bz, 1e-5)
// REF: amax = mx.argmax(ties, axis=-1)
// REF: total = mx.sum(x, axis=-1)
func.func @softmax_cluster_rows(
    %x: tensor<2x131072xf32> {mlx.name = "x"},
    %special: tensor<4x131072xf32> {mlx.name = "special"},
    %b: tensor<2x131072xbf16> {mlx.name = "b"},
    %m: tensor<3x65536xf32> {mlx.name = "m"},
    %y: tensor<2x32768xf32> {mlx.name = "y"},
    %w: tensor<32768xf32> {mlx.name = "w"},
    %z: tensor<3x16384xf32> {mlx.name = "z"},
    %wz: tensor<16384xf32> {mlx.name = "wz"},
    %bz: tensor<16384xf32> {mlx.name = "bz"},
    %ties: tensor<2x131072xf32> {mlx.name = "ties"},
    %n: tensor<f32> {mlx.name = "n"})
    -> (tensor<2x131072xf32> {mlx.name = "sm"},
    tensor<4x131072xf32> {mlx.name = "sm_special"},
    tensor<2x131072xbf16> {mlx.name = "sm_b"},
    tensor<3xf32> {mlx.name = "lse"},
    tensor<2x32768xf32> {mlx.name = "rms"},
    tensor<3x16384xf32> {mlx.name = "ln"},
    tensor<2xui32> {mlx.name = "amax"},
    tensor<2xf32> {mlx.name = "total"}) {
  %p = mlx.softmax %x {axes = array<i64: -1>} : tensor<2x131072xf32>
  %sm = mlx.multiply %p, %n : tensor<2x131072xf32>, tensor<f32>
  %p_special = mlx.softmax %special {axes = array<i64: -1>} : tensor<4x131072xf32>
  %sm_special = mlx.multiply %p_special, %n : tensor<4x131072xf32>, tensor<f32>
  %nb = mlx.astype %n : tensor<f32> to bf16
  %p_b = mlx.softmax %b {axes = array<i64: -1>, precise = true} : tensor<2x131072xbf16>
  %sm_b = mlx.multiply %p_b, %nb : tensor<2x131072xbf16>, tensor<bf16>
  %lse = mlx.logsumexp %m {axes = array<i64: -1>} : tensor<3x65536xf32>
  %rms = mlx.rms_norm %y, %w {eps = 1.0e-05 : f32} : tensor<2x32768xf32>, tensor<32768xf32>
  %ln = mlx.layer_norm %z weight(%wz : tensor<16384xf32>) bias(%bz : tensor<16384xf32>) {eps = 1.0e-05 : f32} : tensor<3x16384xf32>
  %amax = mlx.argmax %ties {axis = -1 : i64} : tensor<2x131072xf32>
  %total = mlx.sum %x {axes = array<i64: -1>} : tensor<2x131072xf32>
  return %sm, %sm_special, %sm_b, %lse, %rms, %ln, %amax, %total : tensor<2x131072xf32>, tensor<4x131072xf32>, tensor<2x131072xbf16>, tensor<3xf32>, tensor<2x32768xf32>, tensor<3x16384xf32>, tensor<2xui32>, tensor<2xf32>
}
