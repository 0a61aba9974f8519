// RUN: %check %s
// Attention that the CUDA target (--gpu-arch sm_80 and newer) runs as one
// flash-attention kernel (kernel.attention): causal and not, keys beyond
// the queries (causal, aligned to the end), grouped-query heads, Dv != D,
// bf16 and f16, the fused op and MLX's fallback graphs (one head per key
// head, and grouped-query) as an MLX export on the CPU holds them (raised
// back by mlx-raise-attention). No two outputs compute the same: the CUDA
// form would then return one result twice and compile from the CPU's
// (decomposed) graph.
// RUN: mlxc %s --target=cuda --gpu-arch=sm_90 --emit=kernels -o - --quiet | FileCheck %s
// CHECK-COUNT-7: kernel.region attention
// CHECK-NOT: kernel.region attention On the CPU the
// same graph is decomposed.
// REF: causal = mx.fast.scaled_dot_product_attention(q, k, v, scale=0.125, mask='causal')
// REF: full = mx.fast.scaled_dot_product_attention(q, kl, vl, scale=0.125)
// REF: causal_long = mx.fast.scaled_dot_product_attention(q, kl, vl, scale=0.125, mask='causal')
// REF: gqa = mx.fast.scaled_dot_product_attention(qg, kg, vg, scale=0.08838835, mask='causal')
// REF: half = mx.fast.scaled_dot_product_attention(qh, kh, vh, scale=0.125, mask='causal')
// REF: exported = mx.fast.scaled_dot_product_attention(q, k, v, scale=0.25, mask='causal')
// REF: exported_gqa = mx.fast.scaled_dot_product_attention(qg, kg, vg, scale=0.25, mask='causal')
func.func @flash_attention(
    %q: tensor<1x2x128x64xbf16> {mlx.name = "q"},
    %k: tensor<1x2x128x64xbf16> {mlx.name = "k"},
    %v: tensor<1x2x128x64xbf16> {mlx.name = "v"},
    %kl: tensor<1x2x192x64xbf16> {mlx.name = "kl"},
    %vl: tensor<1x2x192x64xbf16> {mlx.name = "vl"},
    %qg: tensor<1x4x64x128xbf16> {mlx.name = "qg"},
    %kg: tensor<1x2x128x128xbf16> {mlx.name = "kg"},
    %vg: tensor<1x2x128x64xbf16> {mlx.name = "vg"},
    %qh: tensor<1x2x128x64xf16> {mlx.name = "qh"},
    %kh: tensor<1x2x128x64xf16> {mlx.name = "kh"},
    %vh: tensor<1x2x128x64xf16> {mlx.name = "vh"})
    -> (tensor<1x2x128x64xbf16> {mlx.name = "causal"},
        tensor<1x2x128x64xbf16> {mlx.name = "full"},
        tensor<1x2x128x64xbf16> {mlx.name = "causal_long"},
        tensor<1x4x64x64xbf16> {mlx.name = "gqa"},
        tensor<1x2x128x64xf16> {mlx.name = "half"},
        tensor<1x2x128x64xbf16> {mlx.name = "exported"},
        tensor<1x4x64x64xbf16> {mlx.name = "exported_gqa"}) {
  %causal = mlx.scaled_dot_product_attention %q, %k, %v {scale = 0.125 : f32, causal = true} : tensor<1x2x128x64xbf16>, tensor<1x2x128x64xbf16>, tensor<1x2x128x64xbf16>
  %full = mlx.scaled_dot_product_attention %q, %kl, %vl {scale = 0.125 : f32} : tensor<1x2x128x64xbf16>, tensor<1x2x192x64xbf16>, tensor<1x2x192x64xbf16>
  %causal_long = mlx.scaled_dot_product_attention %q, %kl, %vl {scale = 0.125 : f32, causal = true} : tensor<1x2x128x64xbf16>, tensor<1x2x192x64xbf16>, tensor<1x2x192x64xbf16>
  %gqa = mlx.scaled_dot_product_attention %qg, %kg, %vg {scale = 0.08838835 : f32, causal = true} : tensor<1x4x64x128xbf16>, tensor<1x2x128x128xbf16>, tensor<1x2x128x64xbf16>
  %half = mlx.scaled_dot_product_attention %qh, %kh, %vh {scale = 0.125 : f32, causal = true} : tensor<1x2x128x64xf16>, tensor<1x2x128x64xf16>, tensor<1x2x128x64xf16>
  // MLX's fallback, as mx.export_function writes it on the CPU.
  %0 = mlx.arange {start = 0.000000e+00 : f64, stop = 1.280000e+02 : f64} : tensor<128xi32>
  %1 = mlx.expand_dims %0 {axes = array<i64: 1>} : tensor<128xi32>
  %2 = mlx.broadcast_to %1 {shape = array<i64: 128, 128>} : tensor<128x1xi32>
  %3 = mlx.arange {start = 0.000000e+00 : f64, stop = 1.280000e+02 : f64} : tensor<128xi32>
  %4 = mlx.expand_dims %3 {axes = array<i64: 0>} : tensor<128xi32>
  %5 = mlx.broadcast_to %4 {shape = array<i64: 128, 128>} : tensor<1x128xi32>
  %6 = mlx.greater_equal %2, %5 : tensor<128x128xi32>, tensor<128x128xi32>
  %7 = mlx.broadcast_to %6 {shape = array<i64: 1, 2, 128, 128>} : tensor<128x128xi1>
  %8 = mlx.constant dense<2.500000e-01> : tensor<bf16>
  %9 = mlx.broadcast_to %8 {shape = array<i64: 1, 2, 128, 64>} : tensor<bf16>
  %10 = mlx.multiply %9, %q : tensor<1x2x128x64xbf16>, tensor<1x2x128x64xbf16>
  %11 = mlx.transpose %k {axes = array<i64: 0, 1, 3, 2>} : tensor<1x2x128x64xbf16>
  %12 = mlx.matmul %10, %11 : tensor<1x2x128x64xbf16>, tensor<1x2x64x128xbf16>
  %13 = mlx.constant dense<-3.389530e+38> : tensor<bf16>
  %14 = mlx.broadcast_to %13 {shape = array<i64: 1, 2, 128, 128>} : tensor<bf16>
  %15 = mlx.select %7, %12, %14 : tensor<1x2x128x128xi1>, tensor<1x2x128x128xbf16>, tensor<1x2x128x128xbf16>
  %16 = mlx.softmax %15 {axes = array<i64: 3>, precise = true} : tensor<1x2x128x128xbf16>
  %exported = mlx.matmul %16, %v : tensor<1x2x128x128xbf16>, tensor<1x2x128x64xbf16>
  // The grouped-query fallback (2 query heads per key head), as exported.
  %g0 = mlx.arange {start = 6.400000e+01 : f64, stop = 1.280000e+02 : f64} : tensor<64xi32>
  %g1 = mlx.expand_dims %g0 {axes = array<i64: 1>} : tensor<64xi32>
  %g2 = mlx.broadcast_to %g1 {shape = array<i64: 64, 128>} : tensor<64x1xi32>
  %g3 = mlx.arange {start = 0.000000e+00 : f64, stop = 1.280000e+02 : f64} : tensor<128xi32>
  %g4 = mlx.expand_dims %g3 {axes = array<i64: 0>} : tensor<128xi32>
  %g5 = mlx.broadcast_to %g4 {shape = array<i64: 64, 128>} : tensor<1x128xi32>
  %g6 = mlx.greater_equal %g2, %g5 : tensor<64x128xi32>, tensor<64x128xi32>
  %g7 = mlx.broadcast_to %g6 {shape = array<i64: 1, 2, 2, 64, 128>} : tensor<64x128xi1>
  %g8 = mlx.constant dense<2.500000e-01> : tensor<bf16>
  %g9 = mlx.broadcast_to %g8 {shape = array<i64: 1, 4, 64, 128>} : tensor<bf16>
  %g10 = mlx.multiply %g9, %qg : tensor<1x4x64x128xbf16>, tensor<1x4x64x128xbf16>
  %g11 = mlx.unflatten %g10 {axis = 1 : i64, shape = array<i64: 2, 2>} : tensor<1x4x64x128xbf16>
  %g12 = mlx.expand_dims %kg {axes = array<i64: 2>} : tensor<1x2x128x128xbf16>
  %g13 = mlx.transpose %g12 {axes = array<i64: 0, 1, 2, 4, 3>} : tensor<1x2x1x128x128xbf16>
  %g14 = mlx.broadcast_to %g13 {shape = array<i64: 1, 2, 2, 128, 128>} : tensor<1x2x1x128x128xbf16>
  %g15 = mlx.matmul %g11, %g14 : tensor<1x2x2x64x128xbf16>, tensor<1x2x2x128x128xbf16>
  %g16 = mlx.constant dense<-3.389530e+38> : tensor<bf16>
  %g17 = mlx.broadcast_to %g16 {shape = array<i64: 1, 2, 2, 64, 128>} : tensor<bf16>
  %g18 = mlx.select %g7, %g15, %g17 : tensor<1x2x2x64x128xi1>, tensor<1x2x2x64x128xbf16>, tensor<1x2x2x64x128xbf16>
  %g19 = mlx.softmax %g18 {axes = array<i64: 4>, precise = true} : tensor<1x2x2x64x128xbf16>
  %g20 = mlx.expand_dims %vg {axes = array<i64: 2>} : tensor<1x2x128x64xbf16>
  %g21 = mlx.broadcast_to %g20 {shape = array<i64: 1, 2, 2, 128, 64>} : tensor<1x2x1x128x64xbf16>
  %g22 = mlx.matmul %g19, %g21 : tensor<1x2x2x64x128xbf16>, tensor<1x2x2x128x64xbf16>
  %exported_gqa = mlx.flatten %g22 {end_axis = 2 : i64, start_axis = 1 : i64} : tensor<1x2x2x64x64xbf16>
  return %causal, %full, %causal_long, %gqa, %half, %exported, %exported_gqa
      : tensor<1x2x128x64xbf16>, tensor<1x2x128x64xbf16>, tensor<1x2x128x64xbf16>, tensor<1x4x64x64xbf16>, tensor<1x2x128x64xf16>, tensor<1x2x128x64xbf16>, tensor<1x4x64x64xbf16>
}
