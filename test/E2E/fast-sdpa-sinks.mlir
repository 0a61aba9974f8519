// RUN: %check %s
// Attention sinks (one extra logit per query head, as in gpt-oss): causal
// with grouped-query heads, with a boolean mask, in float32 and bfloat16.
// REF: causal = mx.fast.scaled_dot_product_attention(q, k, v, scale=0.35355339, mask='causal', sinks=s)
// REF: masked = mx.fast.scaled_dot_product_attention(q, k, v, scale=0.35355339, mask=bmask, sinks=s)
// REF: half = mx.fast.scaled_dot_product_attention(qb, kb, vb, scale=0.35355339, mask='causal', sinks=sb)
func.func @fast_sdpa_sinks(
    %q: tensor<2x4x3x8xf32> {mlx.name = "q"},
    %k: tensor<2x2x5x8xf32> {mlx.name = "k"},
    %v: tensor<2x2x5x6xf32> {mlx.name = "v"},
    %s: tensor<4xf32> {mlx.name = "s"},
    %bmask: tensor<3x5xi1> {mlx.name = "bmask"},
    %qb: tensor<1x4x3x8xbf16> {mlx.name = "qb"},
    %kb: tensor<1x2x5x8xbf16> {mlx.name = "kb"},
    %vb: tensor<1x2x5x8xbf16> {mlx.name = "vb"},
    %sb: tensor<4xbf16> {mlx.name = "sb"})
    -> (tensor<2x4x3x6xf32> {mlx.name = "causal"},
        tensor<2x4x3x6xf32> {mlx.name = "masked"},
        tensor<1x4x3x8xbf16> {mlx.name = "half"}) {
  %0 = mlx.scaled_dot_product_attention %q, %k, %v sinks(%s : tensor<4xf32>) {scale = 0.35355339 : f32, causal = true} : tensor<2x4x3x8xf32>, tensor<2x2x5x8xf32>, tensor<2x2x5x6xf32>
  %1 = mlx.scaled_dot_product_attention %q, %k, %v mask(%bmask : tensor<3x5xi1>) sinks(%s : tensor<4xf32>) {scale = 0.35355339 : f32} : tensor<2x4x3x8xf32>, tensor<2x2x5x8xf32>, tensor<2x2x5x6xf32>
  %2 = mlx.scaled_dot_product_attention %qb, %kb, %vb sinks(%sb : tensor<4xbf16>) {scale = 0.35355339 : f32, causal = true} : tensor<1x4x3x8xbf16>, tensor<1x2x5x8xbf16>, tensor<1x2x5x8xbf16>
  return %0, %1, %2 : tensor<2x4x3x6xf32>, tensor<2x4x3x6xf32>, tensor<1x4x3x8xbf16>
}
