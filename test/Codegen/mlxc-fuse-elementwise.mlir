// RUN: mlx-opt %s --convert-mlx-to-linalg --mlxc-fuse-elementwise --canonicalize | FileCheck %s
// RUN: mlx-opt %s --convert-mlx-to-linalg --linalg-fuse-elementwise-ops --canonicalize | FileCheck %s --check-prefix=UPSTREAM

// Attention-like: (q * scale) @ k^T over two batch axes, then exp. The
// product stays a linalg.batch_matmul (batch axes collapsed) with the scale
// and the exp as kernels of their own; upstream fusion makes one generic
// contraction with the scale inside.
// CHECK-LABEL: func.func @scores(
// CHECK:         %[[SCALED:.+]] = linalg.generic
// CHECK:           arith.mulf
// CHECK:         linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<8x3x4xf32>, tensor<8x4x5xf32>)
// CHECK:         linalg.generic
// CHECK:           math.exp
// UPSTREAM-LABEL: func.func @scores(
// UPSTREAM-NOT:   linalg.batch_matmul
// UPSTREAM:       linalg.generic {{.*}}"reduction"
// UPSTREAM:         arith.mulf
// UPSTREAM:         arith.mulf
// UPSTREAM:         arith.addf
func.func @scores(%q: tensor<2x4x3x4xf32>, %k: tensor<2x4x5x4xf32>) -> tensor<2x4x3x5xf32> {
  %s = mlx.constant dense<0.5> : tensor<f32>
  %qs = mlx.multiply %q, %s : tensor<2x4x3x4xf32>, tensor<f32>
  %kt = mlx.transpose %k {axes = array<i64: 0, 1, 3, 2>} : tensor<2x4x5x4xf32>
  %p = mlx.matmul %qs, %kt : tensor<2x4x3x4xf32>, tensor<2x4x4x5xf32>
  %e = mlx.exp %p : tensor<2x4x3x5xf32>
  return %e : tensor<2x4x3x5xf32>
}
