// RUN: %check %s
// scaled_dot_product_attention on float16 (as fast-sdpa-float32).
// INPUT: bmask = np.concatenate([np.ones((3, 1)), rng.integers(0, 2, (3, 4))], 1)
// INPUT: amask = uniform(-2.0, 0.0)
// REF: attn = mx.fast.scaled_dot_product_attention(q, k, v, scale=0.35355339)
// REF: attn_causal = mx.fast.scaled_dot_product_attention(q, k, v, scale=0.35355339, mask='causal')
// REF: attn_causal_sq = mx.fast.scaled_dot_product_attention(q, ks, vs, scale=0.5, mask='causal')
// REF: attn_bool = mx.fast.scaled_dot_product_attention(q, k, v, scale=0.35355339, mask=bmask)
// REF: attn_add = mx.fast.scaled_dot_product_attention(q, k, v, scale=0.35355339, mask=amask)
// REF: attn_mha_causal = mx.fast.scaled_dot_product_attention(q1, k1, v1, scale=1.0, mask='causal')
func.func @fast_sdpa_float16(
    %q: tensor<2x4x3x8xf16> {mlx.name = "q"},
    %k: tensor<2x2x5x8xf16> {mlx.name = "k"},
    %v: tensor<2x2x5x6xf16> {mlx.name = "v"},
    %ks: tensor<2x2x3x8xf16> {mlx.name = "ks"},
    %vs: tensor<2x2x3x6xf16> {mlx.name = "vs"},
    %bmask: tensor<3x5xi1> {mlx.name = "bmask"},
    %amask: tensor<1x4x3x5xf16> {mlx.name = "amask"},
    %q1: tensor<1x4x4x8xf16> {mlx.name = "q1"},
    %k1: tensor<1x4x4x8xf16> {mlx.name = "k1"},
    %v1: tensor<1x4x4x8xf16> {mlx.name = "v1"})
    -> (tensor<2x4x3x6xf16> {mlx.name = "attn"},
    tensor<2x4x3x6xf16> {mlx.name = "attn_causal"},
    tensor<2x4x3x6xf16> {mlx.name = "attn_causal_sq"},
    tensor<2x4x3x6xf16> {mlx.name = "attn_bool"},
    tensor<2x4x3x6xf16> {mlx.name = "attn_add"},
    tensor<1x4x4x8xf16> {mlx.name = "attn_mha_causal"}) {
  %attn = mlx.scaled_dot_product_attention %q, %k, %v {scale = 0.35355339 : f32} : tensor<2x4x3x8xf16>, tensor<2x2x5x8xf16>, tensor<2x2x5x6xf16>
  %attn_causal = mlx.scaled_dot_product_attention %q, %k, %v {scale = 0.35355339 : f32, causal = true} : tensor<2x4x3x8xf16>, tensor<2x2x5x8xf16>, tensor<2x2x5x6xf16>
  %attn_causal_sq = mlx.scaled_dot_product_attention %q, %ks, %vs {scale = 0.5 : f32, causal = true} : tensor<2x4x3x8xf16>, tensor<2x2x3x8xf16>, tensor<2x2x3x6xf16>
  %attn_bool = mlx.scaled_dot_product_attention %q, %k, %v mask(%bmask : tensor<3x5xi1>) {scale = 0.35355339 : f32} : tensor<2x4x3x8xf16>, tensor<2x2x5x8xf16>, tensor<2x2x5x6xf16>
  %attn_add = mlx.scaled_dot_product_attention %q, %k, %v mask(%amask : tensor<1x4x3x5xf16>) {scale = 0.35355339 : f32} : tensor<2x4x3x8xf16>, tensor<2x2x5x8xf16>, tensor<2x2x5x6xf16>
  %attn_mha_causal = mlx.scaled_dot_product_attention %q1, %k1, %v1 {scale = 1.0 : f32, causal = true} : tensor<1x4x4x8xf16>, tensor<1x4x4x8xf16>, tensor<1x4x4x8xf16>
  return %attn, %attn_causal, %attn_causal_sq, %attn_bool, %attn_add, %attn_mha_causal
      : tensor<2x4x3x6xf16>, tensor<2x4x3x6xf16>, tensor<2x4x3x6xf16>, tensor<2x4x3x6xf16>, tensor<2x4x3x6xf16>, tensor<1x4x4x8xf16>
}
