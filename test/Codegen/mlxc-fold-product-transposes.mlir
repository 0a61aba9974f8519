// RUN: mlx-opt %s --mlxc-fold-product-transposes | FileCheck %s

// x @ w.T on the CPU: the product reads w through a transposed view; the
// copy of the whole weight goes.
// CHECK-LABEL: func.func @linear
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[T:.+]] = memref.transpose %arg1 (d0, d1) -> (d1, d0)
// CHECK:         linalg.matmul ins(%arg0, %[[T]] : memref<2x8xf32>, memref<8x16xf32, strided<[1, 8]>>)
// CHECK-NOT:     memref.dealloc
// CHECK:         return
func.func @linear(%x: memref<2x8xf32>, %w: memref<16x8xf32>, %y: memref<2x16xf32>) {
  %wt = memref.alloc() : memref<8x16xf32>
  linalg.transpose ins(%w : memref<16x8xf32>) outs(%wt : memref<8x16xf32>) permutation = [1, 0]
  linalg.matmul ins(%x, %wt : memref<2x8xf32>, memref<8x16xf32>) outs(%y : memref<2x16xf32>)
  memref.dealloc %wt : memref<8x16xf32>
  return
}

// The source is written between the copy and the product: the copy stays.
// CHECK-LABEL: func.func @source_written
// CHECK:         linalg.transpose
// CHECK:         linalg.fill
// CHECK:         linalg.matmul ins(%arg0, %{{.+}} : memref<2x8xf32>, memref<8x16xf32>)
func.func @source_written(%x: memref<2x8xf32>, %w: memref<16x8xf32>, %y: memref<2x16xf32>) {
  %c = arith.constant 0.0 : f32
  %wt = memref.alloc() : memref<8x16xf32>
  linalg.transpose ins(%w : memref<16x8xf32>) outs(%wt : memref<8x16xf32>) permutation = [1, 0]
  linalg.fill ins(%c : f32) outs(%w : memref<16x8xf32>)
  linalg.matmul ins(%x, %wt : memref<2x8xf32>, memref<8x16xf32>) outs(%y : memref<2x16xf32>)
  memref.dealloc %wt : memref<8x16xf32>
  return
}
