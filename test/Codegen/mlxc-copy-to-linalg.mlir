// RUN: mlx-opt %s --mlxc-copy-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @copy
// CHECK-NOT:     memref.copy
// CHECK:         linalg.copy ins(%{{.+}} : memref<4x8xf32>) outs(%{{.+}} : memref<4x8xf32>)
func.func @copy(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
  return
}
