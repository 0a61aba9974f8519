// RUN: mlxc %s --target=cuda --gpu-arch=sm_90 --emit=kernels -o - | FileCheck %s --check-prefix=SM90
// RUN: mlxc %s --target=cuda --emit=kernels -o - | FileCheck %s --check-prefix=SM70

// A decode step's attention (one query per head, a boolean mask of the keys
// up to an offset) is one attention region from sm_80 on: the mask is
// computed by an elementwise region of its own ([1, 1, 1, S], not
// broadcast over the heads) that the attention reads. For sm_70 it stays
// MLX's fallback.
// SM90-LABEL: func.func @mlxc_graph_cuda_decode
// SM90: kernel.region elementwise
// SM90: tensor<1x1x1x2049xi1>
// SM90: kernel.region attention
// SM90-NEXT: ^bb0
// SM90-NEXT: kernel.attention %{{.*}}, %{{.*}}, %{{.*}} mask(%{{.*}} : tensor<1x1x1x2049xi1>) into %{{.*}} {scale = 0.087999{{[0-9]*}} : f64} : tensor<1x32x1x128xbf16>, tensor<1x32x2049x128xbf16>, tensor<1x32x2049x128xbf16>, tensor<1x32x1x128xbf16> -> tensor<1x32x1x128xbf16>
// SM90-NOT: kernel.region
// SM90: return
// SM70-LABEL: func.func @mlxc_graph_cuda_decode
// SM70-NOT: kernel.attention
// SM70: kernel.region row_reduction
func.func @decode(%q: tensor<1x32x1x128xbf16>, %k: tensor<1x32x2049x128xbf16>, %v: tensor<1x32x2049x128xbf16>, %offset: tensor<i32>) -> tensor<1x32x1x128xbf16> {
  %0 = mlx.arange {start = 0.000000e+00 : f64, stop = 2.049000e+03 : f64} : tensor<2049xi32>
  %1 = mlx.broadcast_to %offset {shape = array<i64: 2049>} : tensor<i32>
  %2 = mlx.less_equal %0, %1 : tensor<2049xi32>, tensor<2049xi32>
  %3 = mlx.reshape %2 {shape = array<i64: 1, 1, 1, 2049>} : tensor<2049xi1>
  %o = mlx.scaled_dot_product_attention %q, %k, %v mask(%3 : tensor<1x1x1x2049xi1>) {scale = 0.088 : f32} : tensor<1x32x1x128xbf16>, tensor<1x32x2049x128xbf16>, tensor<1x32x2049x128xbf16>
  return %o : tensor<1x32x1x128xbf16>
}
