// RUN: %check %s
// The flash-attention kernel (kernel.attention, --gpu-arch sm_80 and newer)
// over lengths that are no multiple of its 64-row tiles, as a prompt has
// them: causal 100 x 100 with grouped-query heads; 33 queries over 65 keys
// (causal, aligned to the end) with sinks; a boolean mask over 70 x 90 with
// a row of all keys masked (MLX then averages them, over the 90 keys only);
// an additive mask with 17 queries (one more than a decode step's kernel
// takes) over 200 keys; 64 queries over 50 keys (one partial key tile, f16).
// RUN: mlxc %s --target=cuda --gpu-arch=sm_90 --emit=kernels -o - --quiet | FileCheck %s
// CHECK-COUNT-5: kernel.region attention
// CHECK-NOT: kernel.region attention
// INPUT: mb = (rng.standard_normal(shape) > -0.5) & (np.arange(70)[:, None] != 3)
// REF: causal = mx.fast.scaled_dot_product_attention(q, k, v, scale=0.125, mask='causal')
// REF: causal_sinks = mx.fast.scaled_dot_product_attention(qs, ks, vs, scale=0.0884, mask='causal', sinks=s)
// REF: boolean = mx.fast.scaled_dot_product_attention(qb, kb, vb, scale=0.0884, mask=mb)
// REF: additive = mx.fast.scaled_dot_product_attention(qa, ka, va, scale=0.125, mask=ma)
// REF: short_keys = mx.fast.scaled_dot_product_attention(qh, kh, vh, scale=0.125)
func.func @flash_attention_ragged(
    %q: tensor<1x4x100x64xbf16> {mlx.name = "q"},
    %k: tensor<1x2x100x64xbf16> {mlx.name = "k"},
    %v: tensor<1x2x100x64xbf16> {mlx.name = "v"},
    %qs: tensor<2x2x33x128xbf16> {mlx.name = "qs"},
    %ks: tensor<2x2x65x128xbf16> {mlx.name = "ks"},
    %vs: tensor<2x2x65x128xbf16> {mlx.name = "vs"},
    %s: tensor<2xbf16> {mlx.name = "s"},
    %qb: tensor<1x2x70x128xbf16> {mlx.name = "qb"},
    %kb: tensor<1x2x90x128xbf16> {mlx.name = "kb"},
    %vb: tensor<1x2x90x64xbf16> {mlx.name = "vb"},
    %mb: tensor<70x90xi1> {mlx.name = "mb"},
    %qa: tensor<1x2x17x64xbf16> {mlx.name = "qa"},
    %ka: tensor<1x1x200x64xbf16> {mlx.name = "ka"},
    %va: tensor<1x1x200x64xbf16> {mlx.name = "va"},
    %ma: tensor<1x1x17x200xbf16> {mlx.name = "ma"},
    %qh: tensor<1x2x64x64xf16> {mlx.name = "qh"},
    %kh: tensor<1x2x50x64xf16> {mlx.name = "kh"},
    %vh: tensor<1x2x50x64xf16> {mlx.name = "vh"})
    -> (tensor<1x4x100x64xbf16> {mlx.name = "causal"},
        tensor<2x2x33x128xbf16> {mlx.name = "causal_sinks"},
        tensor<1x2x70x64xbf16> {mlx.name = "boolean"},
        tensor<1x2x17x64xbf16> {mlx.name = "additive"},
        tensor<1x2x64x64xf16> {mlx.name = "short_keys"}) {
  %causal = mlx.scaled_dot_product_attention %q, %k, %v {scale = 0.125 : f32, causal = true} : tensor<1x4x100x64xbf16>, tensor<1x2x100x64xbf16>, tensor<1x2x100x64xbf16>
  %causal_sinks = mlx.scaled_dot_product_attention %qs, %ks, %vs sinks(%s : tensor<2xbf16>) {scale = 0.0884 : f32, causal = true} : tensor<2x2x33x128xbf16>, tensor<2x2x65x128xbf16>, tensor<2x2x65x128xbf16>
  %boolean = mlx.scaled_dot_product_attention %qb, %kb, %vb mask(%mb : tensor<70x90xi1>) {scale = 0.0884 : f32} : tensor<1x2x70x128xbf16>, tensor<1x2x90x128xbf16>, tensor<1x2x90x64xbf16>
  %additive = mlx.scaled_dot_product_attention %qa, %ka, %va mask(%ma : tensor<1x1x17x200xbf16>) {scale = 0.125 : f32} : tensor<1x2x17x64xbf16>, tensor<1x1x200x64xbf16>, tensor<1x1x200x64xbf16>
  %short_keys = mlx.scaled_dot_product_attention %qh, %kh, %vh {scale = 0.125 : f32} : tensor<1x2x64x64xf16>, tensor<1x2x50x64xf16>, tensor<1x2x50x64xf16>
  return %causal, %causal_sinks, %boolean, %additive, %short_keys : tensor<1x4x100x64xbf16>, tensor<2x2x33x128xbf16>, tensor<1x2x70x64xbf16>, tensor<1x2x17x64xbf16>, tensor<1x2x64x64xf16>
}
