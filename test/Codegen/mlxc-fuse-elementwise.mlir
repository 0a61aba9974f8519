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

// RoPE on a transposed tensor ([tokens, heads, dim] to [heads, tokens, dim])
// reads the halves through slices: the maps read the slices of the
// untransposed input through the permutation, and no transpose is left.
// CHECK-LABEL: func.func @rope_transposed(
// CHECK-NOT:     linalg.transpose
// CHECK-DAG:     tensor.extract_slice %{{.+}}[0, 0, 0] [6, 4, 8] [1, 1, 1] : tensor<6x4x16xf32> to tensor<6x4x8xf32>
// CHECK-DAG:     tensor.extract_slice %{{.+}}[0, 0, 8] [6, 4, 8] [1, 1, 1] : tensor<6x4x16xf32> to tensor<6x4x8xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.+}}, %{{.+}}, %{{.+}} : tensor<6x4x8xf32>, tensor<4x6x8xf32>, tensor<6x4x8xf32>) outs(%{{.+}} : tensor<4x6x8xf32>)
// CHECK-NOT:     linalg.transpose
func.func @rope_transposed(%x: tensor<6x4x16xf32>, %c: tensor<4x6x8xf32>) -> tensor<4x6x16xf32> {
  %t = mlx.transpose %x {axes = array<i64: 1, 0, 2>} : tensor<6x4x16xf32>
  %lo = mlx.slice %t {start = array<i64: 0, 0, 0>, stop = array<i64: 4, 6, 8>, strides = array<i64: 1, 1, 1>} : tensor<4x6x16xf32>
  %hi = mlx.slice %t {start = array<i64: 0, 0, 8>, stop = array<i64: 4, 6, 16>, strides = array<i64: 1, 1, 1>} : tensor<4x6x16xf32>
  %a = mlx.multiply %lo, %c : tensor<4x6x8xf32>, tensor<4x6x8xf32>
  %b = mlx.multiply %hi, %c : tensor<4x6x8xf32>, tensor<4x6x8xf32>
  %r1 = mlx.subtract %a, %b : tensor<4x6x8xf32>, tensor<4x6x8xf32>
  %r2 = mlx.add %a, %b : tensor<4x6x8xf32>, tensor<4x6x8xf32>
  %r = mlx.concatenate %r1, %r2 {axis = 2 : i64} : tensor<4x6x8xf32>, tensor<4x6x8xf32>
  return %r : tensor<4x6x16xf32>
}

// The transposed tensor is also returned: it stays.
// CHECK-LABEL: func.func @transpose_also_returned(
// CHECK:         linalg.transpose
func.func @transpose_also_returned(%x: tensor<6x4x16xf32>, %c: tensor<4x6x8xf32>) -> (tensor<4x6x8xf32>, tensor<4x6x16xf32>) {
  %t = mlx.transpose %x {axes = array<i64: 1, 0, 2>} : tensor<6x4x16xf32>
  %lo = mlx.slice %t {start = array<i64: 0, 0, 0>, stop = array<i64: 4, 6, 8>, strides = array<i64: 1, 1, 1>} : tensor<4x6x16xf32>
  %a = mlx.multiply %lo, %c : tensor<4x6x8xf32>, tensor<4x6x8xf32>
  return %a, %t : tensor<4x6x8xf32>, tensor<4x6x16xf32>
}
