// RUN: %check %s
// Masks and sinks in the CUDA target's attention kernels (kernel.attention;
// --gpu-arch sm_80 and newer). The flash-attention kernel of a prefill:
// a boolean [L, S] mask, rows with every key masked (MLX then averages
// them), an additive f16 mask with -inf entries (a row all -inf is NaN in
// MLX; rows whose first key tile is all -inf are not), sinks with a causal
// grouped-query attention and with a mask, and MLX's fallback with sinks as
// an MLX export on the CPU holds it (raised by mlx-raise-attention). The
// split-key kernel of a decode step: sinks over keys split across many
// blocks, f16 sinks of an f32 attention, an additive mask whose first
// chunks of keys are all -inf, and a row whose keys are all -inf beside a
// sink (its output is 0).
// RUN: mlxc %s --target=cuda --gpu-arch=sm_90 --emit=kernels -o - --quiet | FileCheck %s
// CHECK-COUNT-10: kernel.attention
// CHECK-NOT: kernel.attention
// INPUT: mrows = np.arange(192)[None, None, None, :] < np.arange(128)[None, None, :, None] - 40
// INPUT: ma = np.where(np.arange(64)[None, None, :, None] == 0, -np.inf, np.where((np.arange(128) < 64) & (np.arange(64)[None, None, :, None] < 32), -np.inf, rng.standard_normal(shape)))
// INPUT: mf = np.where(np.arange(3000) < 2000, -np.inf, rng.standard_normal(shape))
// INPUT: minf = np.full(shape, -np.inf)
// REF: flash_bool = mx.fast.scaled_dot_product_attention(q, k, v, scale=0.125, mask=mb)
// REF: flash_rows_masked = mx.fast.scaled_dot_product_attention(q, k, v, scale=0.125, mask=mrows)
// REF: flash_additive = mx.fast.scaled_dot_product_attention(qh, kh, vh, scale=0.088, mask=ma)
// REF: flash_sinks = mx.fast.scaled_dot_product_attention(q, k, v, scale=0.125, mask='causal', sinks=s)
// REF: flash_sinks_mask = mx.fast.scaled_dot_product_attention(q, k, v, scale=0.2, mask=mb, sinks=s)
// REF: exported_sinks = mx.fast.scaled_dot_product_attention(qe, ke, ve, scale=0.125, mask=me, sinks=se)
// REF: decode_sinks = mx.fast.scaled_dot_product_attention(qd, kd, vd, scale=0.125, sinks=sd)
// REF: decode_additive_sinks = mx.fast.scaled_dot_product_attention(qf, kf, vf, scale=0.17, mask=mf, sinks=sf)
// REF: decode_additive = mx.fast.scaled_dot_product_attention(qf, kf, vf, scale=0.25, mask=mf)
// REF: decode_inf_sinks = mx.fast.scaled_dot_product_attention(qf, kf, vf, scale=0.17, mask=minf, sinks=sf)
func.func @attention_masks_sinks(
    %q: tensor<1x4x128x64xbf16> {mlx.name = "q"},
    %k: tensor<1x2x192x64xbf16> {mlx.name = "k"},
    %v: tensor<1x2x192x64xbf16> {mlx.name = "v"},
    %mb: tensor<128x192xi1> {mlx.name = "mb"},
    %mrows: tensor<1x1x128x192xi1> {mlx.name = "mrows"},
    %s: tensor<4xbf16> {mlx.name = "s"},
    %qh: tensor<2x2x64x128xf16> {mlx.name = "qh"},
    %kh: tensor<2x2x128x128xf16> {mlx.name = "kh"},
    %vh: tensor<2x2x128x64xf16> {mlx.name = "vh"},
    %ma: tensor<2x1x64x128xf16> {mlx.name = "ma"},
    %qe: tensor<1x4x64x64xbf16> {mlx.name = "qe"},
    %ke: tensor<1x2x128x64xbf16> {mlx.name = "ke"},
    %ve: tensor<1x2x128x64xbf16> {mlx.name = "ve"},
    %se: tensor<4xbf16> {mlx.name = "se"},
    %me: tensor<64x128xi1> {mlx.name = "me"},
    %qd: tensor<1x8x1x64xbf16> {mlx.name = "qd"},
    %kd: tensor<1x2x2048x64xbf16> {mlx.name = "kd"},
    %vd: tensor<1x2x2048x64xbf16> {mlx.name = "vd"},
    %sd: tensor<8xbf16> {mlx.name = "sd"},
    %qf: tensor<1x2x1x32xf32> {mlx.name = "qf"},
    %kf: tensor<1x2x3000x32xf32> {mlx.name = "kf"},
    %vf: tensor<1x2x3000x32xf32> {mlx.name = "vf"},
    %mf: tensor<1x1x1x3000xf32> {mlx.name = "mf"},
    %minf: tensor<1x1x1x3000xf32> {mlx.name = "minf"},
    %sf: tensor<2xf16> {mlx.name = "sf"})
    -> (tensor<1x4x128x64xbf16> {mlx.name = "flash_bool"},
        tensor<1x4x128x64xbf16> {mlx.name = "flash_rows_masked"},
        tensor<2x2x64x64xf16> {mlx.name = "flash_additive"},
        tensor<1x4x128x64xbf16> {mlx.name = "flash_sinks"},
        tensor<1x4x128x64xbf16> {mlx.name = "flash_sinks_mask"},
        tensor<1x4x64x64xbf16> {mlx.name = "exported_sinks"},
        tensor<1x8x1x64xbf16> {mlx.name = "decode_sinks"},
        tensor<1x2x1x32xf32> {mlx.name = "decode_additive_sinks"},
        tensor<1x2x1x32xf32> {mlx.name = "decode_additive"},
        tensor<1x2x1x32xf32> {mlx.name = "decode_inf_sinks"}) {
  %flash_bool = mlx.scaled_dot_product_attention %q, %k, %v mask(%mb : tensor<128x192xi1>) {scale = 0.125 : f32} : tensor<1x4x128x64xbf16>, tensor<1x2x192x64xbf16>, tensor<1x2x192x64xbf16>
  %flash_rows_masked = mlx.scaled_dot_product_attention %q, %k, %v mask(%mrows : tensor<1x1x128x192xi1>) {scale = 0.125 : f32} : tensor<1x4x128x64xbf16>, tensor<1x2x192x64xbf16>, tensor<1x2x192x64xbf16>
  %flash_additive = mlx.scaled_dot_product_attention %qh, %kh, %vh mask(%ma : tensor<2x1x64x128xf16>) {scale = 0.088 : f32} : tensor<2x2x64x128xf16>, tensor<2x2x128x128xf16>, tensor<2x2x128x64xf16>
  %flash_sinks = mlx.scaled_dot_product_attention %q, %k, %v sinks(%s : tensor<4xbf16>) {scale = 0.125 : f32, causal = true} : tensor<1x4x128x64xbf16>, tensor<1x2x192x64xbf16>, tensor<1x2x192x64xbf16>
  %flash_sinks_mask = mlx.scaled_dot_product_attention %q, %k, %v mask(%mb : tensor<128x192xi1>) sinks(%s : tensor<4xbf16>) {scale = 0.2 : f32} : tensor<1x4x128x64xbf16>, tensor<1x2x192x64xbf16>, tensor<1x2x192x64xbf16>
  // MLX's grouped-query fallback with a boolean mask and sinks, as
  // mx.export_function writes it on the CPU.
  %e0 = mlx.expand_dims %se {axes = array<i64: 0, 2, 3>} : tensor<4xbf16>
  %e1 = mlx.unflatten %e0 {axis = 1 : i64, shape = array<i64: 2, 2>} : tensor<1x4x1x1xbf16>
  %e2 = mlx.broadcast_to %e1 {shape = array<i64: 1, 2, 2, 64, 1>} : tensor<1x2x2x1x1xbf16>
  %e3 = mlx.broadcast_to %me {shape = array<i64: 1, 4, 64, 128>} : tensor<64x128xi1>
  %e4 = mlx.unflatten %e3 {axis = 1 : i64, shape = array<i64: 2, 2>} : tensor<1x4x64x128xi1>
  %e5 = mlx.constant dense<1.250000e-01> : tensor<bf16>
  %e6 = mlx.broadcast_to %e5 {shape = array<i64: 1, 4, 64, 64>} : tensor<bf16>
  %e7 = mlx.multiply %e6, %qe : tensor<1x4x64x64xbf16>, tensor<1x4x64x64xbf16>
  %e8 = mlx.unflatten %e7 {axis = 1 : i64, shape = array<i64: 2, 2>} : tensor<1x4x64x64xbf16>
  %e9 = mlx.expand_dims %ke {axes = array<i64: 2>} : tensor<1x2x128x64xbf16>
  %e10 = mlx.transpose %e9 {axes = array<i64: 0, 1, 2, 4, 3>} : tensor<1x2x1x128x64xbf16>
  %e11 = mlx.broadcast_to %e10 {shape = array<i64: 1, 2, 2, 64, 128>} : tensor<1x2x1x64x128xbf16>
  %e12 = mlx.matmul %e8, %e11 : tensor<1x2x2x64x64xbf16>, tensor<1x2x2x64x128xbf16>
  %e13 = mlx.constant dense<-3.389530e+38> : tensor<bf16>
  %e14 = mlx.broadcast_to %e13 {shape = array<i64: 1, 2, 2, 64, 128>} : tensor<bf16>
  %e15 = mlx.select %e4, %e12, %e14 : tensor<1x2x2x64x128xi1>, tensor<1x2x2x64x128xbf16>, tensor<1x2x2x64x128xbf16>
  %e16 = mlx.concatenate %e2, %e15 {axis = 4 : i64} : tensor<1x2x2x64x1xbf16>, tensor<1x2x2x64x128xbf16>
  %e17 = mlx.softmax %e16 {axes = array<i64: 4>, precise = true} : tensor<1x2x2x64x129xbf16>
  %e18 = mlx.slice %e17 {start = array<i64: 0, 0, 0, 0, 1>, stop = array<i64: 1, 2, 2, 64, 129>, strides = array<i64: 1, 1, 1, 1, 1>} : tensor<1x2x2x64x129xbf16>
  %e19 = mlx.expand_dims %ve {axes = array<i64: 2>} : tensor<1x2x128x64xbf16>
  %e20 = mlx.broadcast_to %e19 {shape = array<i64: 1, 2, 2, 128, 64>} : tensor<1x2x1x128x64xbf16>
  %e21 = mlx.matmul %e18, %e20 : tensor<1x2x2x64x128xbf16>, tensor<1x2x2x128x64xbf16>
  %exported_sinks = mlx.flatten %e21 {end_axis = 2 : i64, start_axis = 1 : i64} : tensor<1x2x2x64x64xbf16>
  %decode_sinks = mlx.scaled_dot_product_attention %qd, %kd, %vd sinks(%sd : tensor<8xbf16>) {scale = 0.125 : f32} : tensor<1x8x1x64xbf16>, tensor<1x2x2048x64xbf16>, tensor<1x2x2048x64xbf16>
  %decode_additive_sinks = mlx.scaled_dot_product_attention %qf, %kf, %vf mask(%mf : tensor<1x1x1x3000xf32>) sinks(%sf : tensor<2xf16>) {scale = 0.17 : f32} : tensor<1x2x1x32xf32>, tensor<1x2x3000x32xf32>, tensor<1x2x3000x32xf32>
  %decode_additive = mlx.scaled_dot_product_attention %qf, %kf, %vf mask(%mf : tensor<1x1x1x3000xf32>) {scale = 0.25 : f32} : tensor<1x2x1x32xf32>, tensor<1x2x3000x32xf32>, tensor<1x2x3000x32xf32>
  %decode_inf_sinks = mlx.scaled_dot_product_attention %qf, %kf, %vf mask(%minf : tensor<1x1x1x3000xf32>) sinks(%sf : tensor<2xf16>) {scale = 0.17 : f32} : tensor<1x2x1x32xf32>, tensor<1x2x3000x32xf32>, tensor<1x2x3000x32xf32>
  return %flash_bool, %flash_rows_masked, %flash_additive, %flash_sinks, %flash_sinks_mask, %exported_sinks, %decode_sinks, %decode_additive_sinks, %decode_additive, %decode_inf_sinks
      : tensor<1x4x128x64xbf16>, tensor<1x4x128x64xbf16>, tensor<2x2x64x64xf16>, tensor<1x4x128x64xbf16>, tensor<1x4x128x64xbf16>, tensor<1x4x64x64xbf16>, tensor<1x8x1x64xbf16>, tensor<1x2x1x32xf32>, tensor<1x2x1x32xf32>, tensor<1x2x1x32xf32>
}
