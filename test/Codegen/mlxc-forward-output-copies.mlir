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

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// The second half of a row, computed into an allocation and copied into its
// window of a cache (what one-shot bufferization leaves for the second
// insertion of a chain), is computed in the window: the window's view moves
// above the op, the copy and the allocation go. The copy of the first
// window onto itself goes too.
// CHECK-LABEL: func.func @into_window
// CHECK: %[[ROW:.*]] = arith.index_cast
// CHECK: %[[W0:.*]] = memref.subview %arg1[%[[ROW]], 0] [1, 4]
// CHECK: %[[W1:.*]] = memref.subview %arg1[%[[ROW]], 4] [1, 4]
// CHECK: linalg.generic {{.*}} outs(%[[W0]], %[[W1]] :
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.alloc
// CHECK: return
func.func @into_window(%x: memref<1x4xf32>, %cache: memref<16x8xf32>, %offset: memref<i32>) {
  %o = memref.load %offset[] : memref<i32>
  %row = arith.index_cast %o : i32 to index
  %w0 = memref.subview %cache[%row, 0] [1, 4] [1, 1] : memref<16x8xf32> to memref<1x4xf32, strided<[8, 1], offset: ?>>
  %tmp = memref.alloc() : memref<1x4xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<1x4xf32>) outs(%w0, %tmp : memref<1x4xf32, strided<[8, 1], offset: ?>>, memref<1x4xf32>) {
  ^bb0(%a: f32, %o0: f32, %o1: f32):
    %n = arith.negf %a : f32
    linalg.yield %a, %n : f32, f32
  }
  %again = memref.subview %cache[%row, 0] [1, 4] [1, 1] : memref<16x8xf32> to memref<1x4xf32, strided<[8, 1], offset: ?>>
  memref.copy %w0, %again : memref<1x4xf32, strided<[8, 1], offset: ?>> to memref<1x4xf32, strided<[8, 1], offset: ?>>
  %w1 = memref.subview %cache[%row, 4] [1, 4] [1, 1] : memref<16x8xf32> to memref<1x4xf32, strided<[8, 1], offset: ?>>
  memref.copy %tmp, %w1 : memref<1x4xf32> to memref<1x4xf32, strided<[8, 1], offset: ?>>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// The copy stays when something between the op and the copy reads the
// window's buffer (it would see the new row early), or when the op reads
// that buffer.
// CHECK-LABEL: func.func @window_kept
// CHECK: memref.alloc
// CHECK: memref.copy
// CHECK: memref.alloc
// CHECK: memref.copy
func.func @window_kept(%x: memref<1x4xf32>, %cache: memref<16x8xf32>, %seen: memref<16x8xf32>) {
  %tmp = memref.alloc() : memref<1x4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<1x4xf32>) outs(%tmp : memref<1x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  }
  memref.copy %cache, %seen : memref<16x8xf32> to memref<16x8xf32>
  %w = memref.subview %cache[3, 4] [1, 4] [1, 1] : memref<16x8xf32> to memref<1x4xf32, strided<[8, 1], offset: 28>>
  memref.copy %tmp, %w : memref<1x4xf32> to memref<1x4xf32, strided<[8, 1], offset: 28>>
  %old = memref.subview %cache[2, 0] [1, 4] [1, 1] : memref<16x8xf32> to memref<1x4xf32, strided<[8, 1], offset: 16>>
  %tmp2 = memref.alloc() : memref<1x4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%old : memref<1x4xf32, strided<[8, 1], offset: 16>>) outs(%tmp2 : memref<1x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  }
  %w2 = memref.subview %cache[2, 4] [1, 4] [1, 1] : memref<16x8xf32> to memref<1x4xf32, strided<[8, 1], offset: 20>>
  memref.copy %tmp2, %w2 : memref<1x4xf32> to memref<1x4xf32, strided<[8, 1], offset: 20>>
  return
}
