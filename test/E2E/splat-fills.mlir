// RUN: %check %s
// RUN: mlxc %s --emit=linalg -o - | FileCheck %s
// RUN: mlxc %s --emit=linalg -o - | FileCheck %s --check-prefix=NOSPLAT
// Large splat constants that fusion leaves on their own become fills (the
// program stores one value, not the tensor): one returned as an output, one
// joined to an input by a concatenate, one read by a product. A small one
// stays a constant.
// CHECK-DAG: linalg.fill ins(%{{.*}} : bf16) outs(%{{.*}} : tensor<128x64xbf16>)
// CHECK-DAG: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<64x128xf32>)
// CHECK-DAG: linalg.fill ins(%{{.*}} : f16) outs(%{{.*}} : tensor<1x128x96xf16>)
// CHECK-DAG: arith.constant dense<-3> : tensor<4x8xi32>
// NOSPLAT-NOT: dense<{{[^>]*}}e{{[-+]}}{{[^>]*}}> : tensor<
// REF: ones = mx.full((128, 64), 1.0, dtype=mx.bfloat16)
// REF: joined = mx.concatenate([x, mx.full((64, 128), 2.5)], axis=1)
// REF: summed = (h @ mx.full((128, 96), 0.5, dtype=mx.float16))
// REF: small = mx.full((4, 8), -3, dtype=mx.int32)
func.func @splat_fills(
    %x: tensor<64x128xf32> {mlx.name = "x"},
    %h: tensor<32x128xf16> {mlx.name = "h"})
    -> (tensor<128x64xbf16> {mlx.name = "ones"},
        tensor<64x256xf32> {mlx.name = "joined"},
        tensor<32x96xf16> {mlx.name = "summed"},
        tensor<4x8xi32> {mlx.name = "small"}) {
  %ones = mlx.constant dense<1.0> : tensor<128x64xbf16>
  %z = mlx.constant dense<2.5> : tensor<64x128xf32>
  %joined = mlx.concatenate %x, %z {axis = 1 : i64} : tensor<64x128xf32>, tensor<64x128xf32>
  %w = mlx.constant dense<0.5> : tensor<128x96xf16>
  %summed = mlx.matmul %h, %w : tensor<32x128xf16>, tensor<128x96xf16>
  %small = mlx.constant dense<-3> : tensor<4x8xi32>
  return %ones, %joined, %summed, %small : tensor<128x64xbf16>, tensor<64x256xf32>, tensor<32x96xf16>, tensor<4x8xi32>
}
