// RUN: mlxc %s --target=cuda --emit=kernels -o - | FileCheck %s

// One decode step of grouped-query attention (8 query heads over 2 key and
// value heads) with MLX's fused RoPE: RoPE is one elementwise kernel per
// rotated tensor; the key and value caches are read by the two products as
// they are (the 4 query heads of a key head are rows of one product), with
// no broadcast or transpose copy: the scores are a row kernel over the
// cached keys (mlxc-vector-products); the softmax is one row kernel.
// CHECK-LABEL: func.func @mlxc_graph_cuda_decode_attention
// CHECK-NOT: kernel.region copy
// CHECK: kernel.region elementwise
// CHECK-NOT: kernel.region copy
// CHECK: kernel.region elementwise
// CHECK-NOT: kernel.region copy
// CHECK: kernel.region row_reduction({{.*}}%arg2) : ({{.*}}tensor<1x2x128x64xf32>) -> tensor<2x4x128xf32>
// CHECK-NOT: kernel.region copy
// CHECK: kernel.region row_reduction
// CHECK-NOT: kernel.region copy
// CHECK: kernel.region product(%{{.*}}, %arg3, {{.*}}) -> tensor<2x4x64xf32>
// CHECK-NOT: kernel.region
func.func @decode_attention(%q: tensor<1x8x1x64xf32> {mlx.name = "q"},
                            %k: tensor<1x2x1x64xf32> {mlx.name = "k"},
                            %kc: tensor<1x2x128x64xf32> {mlx.name = "k_cache"},
                            %vc: tensor<1x2x128x64xf32> {mlx.name = "v_cache"},
                            %off: tensor<i32> {mlx.name = "offset"})
    -> (tensor<1x8x1x64xf32>, tensor<1x2x1x64xf32>) {
  %qr = mlx.rope %q, %off {dims = 64 : i64, traditional = false, base = 1.0e+04 : f32, scale = 1.0 : f32} : tensor<1x8x1x64xf32>, tensor<i32>
  %kr = mlx.rope %k, %off {dims = 64 : i64, traditional = false, base = 1.0e+04 : f32, scale = 1.0 : f32} : tensor<1x2x1x64xf32>, tensor<i32>
  %o = mlx.scaled_dot_product_attention %qr, %kc, %vc {scale = 0.125 : f32} : tensor<1x8x1x64xf32>, tensor<1x2x128x64xf32>, tensor<1x2x128x64xf32>
  return %o, %kr : tensor<1x8x1x64xf32>, tensor<1x2x1x64xf32>
}
