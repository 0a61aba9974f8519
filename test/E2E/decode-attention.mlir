// RUN: %check %s
// Attention of a decode step (a few query rows per key head against many
// keys), which the CUDA target (--gpu-arch sm_80 and newer) runs as the
// split-key kernel of kernel.attention: boolean masks (a random one, and
// MLX's fallback with the keys up to an offset, grouped-query, as an MLX
// export on the CPU holds it), an additive f16 mask, a causal f32 case with
// three queries, grouped-query heads, Dv != D, thousands of keys split over
// many blocks, and a row with every key masked (MLX then averages them all).
// RUN: mlxc %s --target=cuda --gpu-arch=sm_90 --emit=kernels -o - --quiet | FileCheck %s
// CHECK-COUNT-8: kernel.attention
// CHECK-NOT: kernel.attention
// INPUT: none = np.zeros(shape, bool)
// INPUT: offset = np.array(150, np.int32)
// REF: masked = mx.fast.scaled_dot_product_attention(q, k, v, scale=0.088, mask=m)
// REF: grouped = mx.fast.scaled_dot_product_attention(qg, kg, vg, scale=0.125)
// REF: causal_f32 = mx.fast.scaled_dot_product_attention(qf, kf, vf, scale=0.2, mask='causal')
// REF: additive_f16 = mx.fast.scaled_dot_product_attention(qh, kh, vh, scale=0.088, mask=mh)
// REF: narrow_v = mx.fast.scaled_dot_product_attention(q2, k2, v2, scale=0.088, mask=m2)
// REF: long = mx.fast.scaled_dot_product_attention(ql, kl, vl, scale=0.125)
// REF: all_masked = mx.fast.scaled_dot_product_attention(q, k, v, scale=0.088, mask=none)
// REF: exported = mx.fast.scaled_dot_product_attention(qe, ke, ve, scale=0.125, mask=mx.arange(200) <= offset)
func.func @decode_attention(
    %q: tensor<1x4x1x128xbf16> {mlx.name = "q"},
    %k: tensor<1x4x300x128xbf16> {mlx.name = "k"},
    %v: tensor<1x4x300x128xbf16> {mlx.name = "v"},
    %m: tensor<1x1x1x300xi1> {mlx.name = "m"},
    %none: tensor<1x1x1x300xi1> {mlx.name = "none"},
    %qg: tensor<1x8x1x64xbf16> {mlx.name = "qg"},
    %kg: tensor<1x2x1000x64xbf16> {mlx.name = "kg"},
    %vg: tensor<1x2x1000x64xbf16> {mlx.name = "vg"},
    %qf: tensor<1x2x3x32xf32> {mlx.name = "qf"},
    %kf: tensor<1x2x77x32xf32> {mlx.name = "kf"},
    %vf: tensor<1x2x77x32xf32> {mlx.name = "vf"},
    %qh: tensor<1x2x2x128xf16> {mlx.name = "qh"},
    %kh: tensor<1x2x513x128xf16> {mlx.name = "kh"},
    %vh: tensor<1x2x513x128xf16> {mlx.name = "vh"},
    %mh: tensor<1x1x2x513xf16> {mlx.name = "mh"},
    %q2: tensor<1x2x1x128xbf16> {mlx.name = "q2"},
    %k2: tensor<1x2x1025x128xbf16> {mlx.name = "k2"},
    %v2: tensor<1x2x1025x64xbf16> {mlx.name = "v2"},
    %m2: tensor<1x2x1x1025xi1> {mlx.name = "m2"},
    %ql: tensor<1x1x1x64xbf16> {mlx.name = "ql"},
    %kl: tensor<1x1x5000x64xbf16> {mlx.name = "kl"},
    %vl: tensor<1x1x5000x64xbf16> {mlx.name = "vl"},
    %qe: tensor<1x4x1x64xbf16> {mlx.name = "qe"},
    %ke: tensor<1x2x200x64xbf16> {mlx.name = "ke"},
    %ve: tensor<1x2x200x64xbf16> {mlx.name = "ve"},
    %offset: tensor<i32> {mlx.name = "offset"})
    -> (tensor<1x4x1x128xbf16> {mlx.name = "masked"},
        tensor<1x8x1x64xbf16> {mlx.name = "grouped"},
        tensor<1x2x3x32xf32> {mlx.name = "causal_f32"},
        tensor<1x2x2x128xf16> {mlx.name = "additive_f16"},
        tensor<1x2x1x64xbf16> {mlx.name = "narrow_v"},
        tensor<1x1x1x64xbf16> {mlx.name = "long"},
        tensor<1x4x1x128xbf16> {mlx.name = "all_masked"},
        tensor<1x4x1x64xbf16> {mlx.name = "exported"}) {
  %masked = mlx.scaled_dot_product_attention %q, %k, %v mask(%m : tensor<1x1x1x300xi1>) {scale = 0.088 : f32} : tensor<1x4x1x128xbf16>, tensor<1x4x300x128xbf16>, tensor<1x4x300x128xbf16>
  %grouped = mlx.scaled_dot_product_attention %qg, %kg, %vg {scale = 0.125 : f32} : tensor<1x8x1x64xbf16>, tensor<1x2x1000x64xbf16>, tensor<1x2x1000x64xbf16>
  %causal_f32 = mlx.scaled_dot_product_attention %qf, %kf, %vf {scale = 0.2 : f32, causal = true} : tensor<1x2x3x32xf32>, tensor<1x2x77x32xf32>, tensor<1x2x77x32xf32>
  %additive_f16 = mlx.scaled_dot_product_attention %qh, %kh, %vh mask(%mh : tensor<1x1x2x513xf16>) {scale = 0.088 : f32} : tensor<1x2x2x128xf16>, tensor<1x2x513x128xf16>, tensor<1x2x513x128xf16>
  %narrow_v = mlx.scaled_dot_product_attention %q2, %k2, %v2 mask(%m2 : tensor<1x2x1x1025xi1>) {scale = 0.088 : f32} : tensor<1x2x1x128xbf16>, tensor<1x2x1025x128xbf16>, tensor<1x2x1025x64xbf16>
  %long = mlx.scaled_dot_product_attention %ql, %kl, %vl {scale = 0.125 : f32} : tensor<1x1x1x64xbf16>, tensor<1x1x5000x64xbf16>, tensor<1x1x5000x64xbf16>
  %all_masked = mlx.scaled_dot_product_attention %q, %k, %v mask(%none : tensor<1x1x1x300xi1>) {scale = 0.088 : f32} : tensor<1x4x1x128xbf16>, tensor<1x4x300x128xbf16>, tensor<1x4x300x128xbf16>
  // MLX's grouped-query fallback with the keys up to `offset`, as
  // mx.export_function writes it on the CPU.
  %0 = mlx.arange {start = 0.000000e+00 : f64, stop = 2.000000e+02 : f64} : tensor<200xi32>
  %1 = mlx.broadcast_to %offset {shape = array<i64: 200>} : tensor<i32>
  %2 = mlx.less_equal %0, %1 : tensor<200xi32>, tensor<200xi32>
  %3 = mlx.broadcast_to %2 {shape = array<i64: 1, 4, 1, 200>} : tensor<200xi1>
  %4 = mlx.unflatten %3 {axis = 1 : i64, shape = array<i64: 2, 2>} : tensor<1x4x1x200xi1>
  %5 = mlx.constant dense<1.250000e-01> : tensor<bf16>
  %6 = mlx.broadcast_to %5 {shape = array<i64: 1, 4, 1, 64>} : tensor<bf16>
  %7 = mlx.multiply %6, %qe : tensor<1x4x1x64xbf16>, tensor<1x4x1x64xbf16>
  %8 = mlx.unflatten %7 {axis = 1 : i64, shape = array<i64: 2, 2>} : tensor<1x4x1x64xbf16>
  %9 = mlx.expand_dims %ke {axes = array<i64: 2>} : tensor<1x2x200x64xbf16>
  %10 = mlx.transpose %9 {axes = array<i64: 0, 1, 2, 4, 3>} : tensor<1x2x1x200x64xbf16>
  %11 = mlx.broadcast_to %10 {shape = array<i64: 1, 2, 2, 64, 200>} : tensor<1x2x1x64x200xbf16>
  %12 = mlx.matmul %8, %11 : tensor<1x2x2x1x64xbf16>, tensor<1x2x2x64x200xbf16>
  %13 = mlx.constant dense<-3.389530e+38> : tensor<bf16>
  %14 = mlx.broadcast_to %13 {shape = array<i64: 1, 2, 2, 1, 200>} : tensor<bf16>
  %15 = mlx.select %4, %12, %14 : tensor<1x2x2x1x200xi1>, tensor<1x2x2x1x200xbf16>, tensor<1x2x2x1x200xbf16>
  %16 = mlx.softmax %15 {axes = array<i64: 4>, precise = true} : tensor<1x2x2x1x200xbf16>
  %17 = mlx.expand_dims %ve {axes = array<i64: 2>} : tensor<1x2x200x64xbf16>
  %18 = mlx.broadcast_to %17 {shape = array<i64: 1, 2, 2, 200, 64>} : tensor<1x2x1x200x64xbf16>
  %19 = mlx.matmul %16, %18 : tensor<1x2x2x1x200xbf16>, tensor<1x2x2x200x64xbf16>
  %exported = mlx.flatten %19 {end_axis = 2 : i64, start_axis = 1 : i64} : tensor<1x2x2x1x64xbf16>
  return %masked, %grouped, %causal_f32, %additive_f16, %narrow_v, %long, %all_masked, %exported : tensor<1x4x1x128xbf16>, tensor<1x8x1x64xbf16>, tensor<1x2x3x32xf32>, tensor<1x2x2x128xf16>, tensor<1x2x1x64xbf16>, tensor<1x1x1x64xbf16>, tensor<1x4x1x128xbf16>, tensor<1x4x1x64xbf16>
}
