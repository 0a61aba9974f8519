// RUN: mlx-opt %s --split-input-file --mlxc-forward-output-copies | FileCheck %s

// A result seen through a reshape of an allocation is computed in the
// out-parameter itself: the allocation becomes a view of it, the copy goes.
// CHECK-LABEL: func.func @reshaped
// CHECK-NOT: memref.alloc
// CHECK: %[[V:.*]] = memref.expand_shape %arg1 {{\[\[}}0, 1]] output_shape [8, 1] : memref<8xf32> into memref<8x1xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[V]] : memref<8x1xf32>)
// CHECK-NOT: memref.copy
func.func @reshaped(%x: memref<8x64xf32>, %out: memref<8xf32> {bufferize.result}) {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<8x1xf32>
  linalg.fill ins(%zero : f32) outs(%a : memref<8x1xf32>)
  %c = memref.collapse_shape %a [[0, 1]] : memref<8x1xf32> into memref<8xf32>
  memref.copy %c, %out : memref<8xf32> to memref<8xf32>
  return
}

// -----

// Kept: the allocation is written through a view after the copy, and an
// out-parameter that something else touches.
// CHECK-LABEL: func.func @kept
// CHECK: memref.alloc
// CHECK: memref.copy %{{.*}}, %arg0
// CHECK: memref.alloc
// CHECK: memref.copy %{{.*}}, %arg1
func.func @kept(%out: memref<8xf32> {bufferize.result}, %out2: memref<8xf32> {bufferize.result}) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%a : memref<8xf32>)
  %s = memref.subview %a[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  memref.copy %a, %out : memref<8xf32> to memref<8xf32>
  memref.store %one, %s[%c0] : memref<4xf32, strided<[1]>>
  %b = memref.alloc() : memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%b : memref<8xf32>)
  memref.store %one, %out2[%c0] : memref<8xf32>
  memref.copy %b, %out2 : memref<8xf32> to memref<8xf32>
  return
}
