// RUN: mlx-opt %s --split-input-file --mlxc-pipeline="target=cpu to=linalg" --mlxc-vector-products --mlxc-form-kernels | FileCheck %s

// One token times a weight stored [out, in] (nn.Linear): a row reduction
// over the weight's rows, read in place (no transpose), with its epilogue
// (the cast to bf16 and the residual add) in the same kernel.
// CHECK-LABEL: func.func @linear_decode
// CHECK-NOT: linalg.transpose
// CHECK: kernel.region row_reduction({{.*}}%arg0, %arg1, %arg2
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]{{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x64xbf16>, tensor<96x64xbf16>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]
// CHECK: kernel.yield
// CHECK-NOT: kernel.region
// CHECK: return
func.func @linear_decode(%x: tensor<1x64xbf16>, %w: tensor<96x64xbf16>,
                         %r: tensor<1x96xbf16>) -> tensor<1x96xbf16> {
  %wt = mlx.transpose %w {axes = array<i64: 1, 0>} : tensor<96x64xbf16>
  %y = mlx.matmul %x, %wt : tensor<1x64xbf16>, tensor<64x96xbf16>
  %z = mlx.add %y, %r : tensor<1x96xbf16>, tensor<1x96xbf16>
  return %z : tensor<1x96xbf16>
}

// -----

// A weight stored [in, out]: its reduced axis is not innermost, so the
// product stays a library product.
// CHECK-LABEL: func.func @weight_not_transposed
// CHECK: kernel.region product
// CHECK: linalg.batch_matmul
// CHECK-NOT: row_reduction
func.func @weight_not_transposed(%x: tensor<1x64xf32>, %w: tensor<64x96xf32>)
    -> tensor<1x96xf32> {
  %y = mlx.matmul %x, %w : tensor<1x64xf32>, tensor<64x96xf32>
  return %y : tensor<1x96xf32>
}

// -----

// More than 4 rows: a product for the library.
// CHECK-LABEL: func.func @many_rows
// CHECK: kernel.region product
// CHECK: linalg.batch_matmul
// CHECK-NOT: row_reduction
func.func @many_rows(%x: tensor<16x64xf32>, %w: tensor<96x64xf32>)
    -> tensor<16x96xf32> {
  %wt = mlx.transpose %w {axes = array<i64: 1, 0>} : tensor<96x64xf32>
  %y = mlx.matmul %x, %wt : tensor<16x64xf32>, tensor<64x96xf32>
  return %y : tensor<16x96xf32>
}

// -----

// Attention scores of a decode step: the 4 query heads of each key head
// times its keys (q @ k.T), batched over the key heads; the keys are read
// once per query row, from L2.
// CHECK-LABEL: func.func @scores
// CHECK-NOT: linalg.transpose
// CHECK: kernel.region row_reduction({{.*}}%arg0, %arg1)
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x4x32xf32>, tensor<2x128x32xf32>)
// CHECK-NOT: kernel.region
// CHECK: return
func.func @scores(%q: tensor<2x4x32xf32>, %k: tensor<2x128x32xf32>)
    -> tensor<2x4x128xf32> {
  %kt = mlx.transpose %k {axes = array<i64: 0, 2, 1>} : tensor<2x128x32xf32>
  %s = mlx.matmul %q, %kt : tensor<2x4x32xf32>, tensor<2x32x128xf32>
  return %s : tensor<2x4x128xf32>
}

// -----

// 4 rows over a weight of more than 4 MiB: each row would read it again,
// so the library keeps it.
// CHECK-LABEL: func.func @rows_over_large_weight
// CHECK: kernel.region product
// CHECK-NOT: row_reduction
func.func @rows_over_large_weight(%x: tensor<4x1024xf32>,
                                  %w: tensor<2048x1024xf32>)
    -> tensor<4x2048xf32> {
  %wt = mlx.transpose %w {axes = array<i64: 1, 0>} : tensor<2048x1024xf32>
  %y = mlx.matmul %x, %wt : tensor<4x1024xf32>, tensor<1024x2048xf32>
  return %y : tensor<4x2048xf32>
}

// -----

// Keys broadcast over the batch by mx.broadcast_to (a copying generic): the
// product reads the one copy of the keys, and the broadcast goes.
// CHECK-LABEL: func.func @broadcast_keys
// CHECK-NOT: kernel.region copy
// CHECK: kernel.region row_reduction
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x2x64xf32>, tensor<1x128x64xf32>)
// CHECK-NOT: kernel.region
// CHECK: return
func.func @broadcast_keys(%q: tensor<4x2x64xf32>, %k: tensor<1x128x64xf32>)
    -> tensor<4x2x128xf32> {
  %kb = mlx.broadcast_to %k {shape = array<i64: 4, 128, 64>} : tensor<1x128x64xf32>
  %kt = mlx.transpose %kb {axes = array<i64: 0, 2, 1>} : tensor<4x128x64xf32>
  %s = mlx.matmul %q, %kt : tensor<4x2x64xf32>, tensor<4x64x128xf32>
  return %s : tensor<4x2x128xf32>
}
