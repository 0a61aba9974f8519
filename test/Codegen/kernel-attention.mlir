// RUN: mlxc %s --target=cuda --gpu-arch=sm_90 --emit=kernels -o - | FileCheck %s --check-prefix=SM90
// RUN: mlxc %s --target=cuda --emit=kernels -o - | FileCheck %s --check-prefix=SM70

// From sm_80 on, an attention that a flash-attention kernel takes is one
// kernel: its region holds kernel.attention alone (the scale is applied in
// the kernel). For sm_70 (no bf16 tensor cores) it stays MLX's fallback:
// products and a row-reduction softmax.
// SM90-LABEL: func.func @mlxc_graph_cuda_attention
// SM90: kernel.region attention
// SM90-NEXT: ^bb0
// SM90-NEXT: kernel.attention %{{.*}}, %{{.*}}, %{{.*}} into %{{.*}} {causal, scale = 1.250000e-01 : f64} : tensor<1x4x128x64xbf16>, tensor<1x2x256x64xbf16>, tensor<1x2x256x64xbf16>, tensor<1x4x128x64xbf16> -> tensor<1x4x128x64xbf16>
// SM90-NOT: kernel.region
// SM90: return
// SM70-LABEL: func.func @mlxc_graph_cuda_attention
// SM70-NOT: kernel.attention
// SM70: kernel.region product
// SM70: kernel.region row_reduction
// SM70: kernel.region product
func.func @attention(%q: tensor<1x4x128x64xbf16>, %k: tensor<1x2x256x64xbf16>, %v: tensor<1x2x256x64xbf16>) -> tensor<1x4x128x64xbf16> {
  %o = mlx.scaled_dot_product_attention %q, %k, %v {scale = 0.125 : f32, causal = true} : tensor<1x4x128x64xbf16>, tensor<1x2x256x64xbf16>, tensor<1x2x256x64xbf16>
  return %o : tensor<1x4x128x64xbf16>
}
