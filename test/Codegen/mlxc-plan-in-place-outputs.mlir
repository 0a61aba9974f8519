// RUN: mlx-opt %s --split-input-file --mlxc-plan-in-place-outputs | FileCheck %s

// A cache updated at one row: the output is a whole copy of the input, then
// the row is written. The copy runs only when the caller passes two buffers;
// the plan pairs out-parameter 1 with input 0.
// CHECK-LABEL: func.func @cache_update(
// CHECK-SAME:    mlx.in_place = array<i64: -1, 0>
// CHECK:         %[[FROM:.+]] = memref.extract_aligned_pointer_as_index %arg0 : {{.*}} {mlx.address_only}
// CHECK:         %[[TO:.+]] = memref.extract_aligned_pointer_as_index %arg4 : {{.*}} {mlx.address_only}
// CHECK:         %[[DIFFER:.+]] = arith.cmpi ne, %[[FROM]], %[[TO]] : index
// CHECK:         scf.if %[[DIFFER]] {
// CHECK-NEXT:      memref.copy %arg0, %arg4
// CHECK-NEXT:    }
// CHECK:         memref.subview %arg4
func.func @cache_update(%cache: memref<2x16x8xf32>, %row: memref<2x1x8xf32>,
                        %offset: index, %out0: memref<2x1x8xf32> {bufferize.result},
                        %new_cache: memref<2x16x8xf32> {bufferize.result}) {
  memref.copy %row, %out0 : memref<2x1x8xf32> to memref<2x1x8xf32>
  memref.copy %cache, %new_cache : memref<2x16x8xf32> to memref<2x16x8xf32>
  %window = memref.subview %new_cache[0, %offset, 0] [2, 1, 8] [1, 1, 1] : memref<2x16x8xf32> to memref<2x1x8xf32, strided<[128, 8, 1], offset: ?>>
  memref.copy %row, %window : memref<2x1x8xf32> to memref<2x1x8xf32, strided<[128, 8, 1], offset: ?>>
  return
}

// -----

// The input is read after the copy (through a view): sharing the buffer
// would read the new row. Nothing changes.
// CHECK-LABEL: func.func @read_after_copy(
// CHECK-NOT:     mlx.in_place
// CHECK-NOT:     scf.if
func.func @read_after_copy(%cache: memref<16x8xf32>, %row: memref<1x8xf32>,
                           %new_cache: memref<16x8xf32> {bufferize.result},
                           %old: memref<1x8xf32> {bufferize.result}) {
  memref.copy %cache, %new_cache : memref<16x8xf32> to memref<16x8xf32>
  %window = memref.subview %new_cache[3, 0] [1, 8] [1, 1] : memref<16x8xf32> to memref<1x8xf32, strided<[8, 1], offset: 24>>
  memref.copy %row, %window : memref<1x8xf32> to memref<1x8xf32, strided<[8, 1], offset: 24>>
  %before = memref.subview %cache[3, 0] [1, 8] [1, 1] : memref<16x8xf32> to memref<1x8xf32, strided<[8, 1], offset: 24>>
  memref.copy %before, %old : memref<1x8xf32, strided<[8, 1], offset: 24>> to memref<1x8xf32>
  return
}

// -----

// The output is written before the copy: not shared.
// CHECK-LABEL: func.func @written_before_copy(
// CHECK-NOT:     scf.if
func.func @written_before_copy(%cache: memref<16x8xf32>, %row: memref<1x8xf32>,
                               %new_cache: memref<16x8xf32> {bufferize.result}) {
  %window = memref.subview %new_cache[3, 0] [1, 8] [1, 1] : memref<16x8xf32> to memref<1x8xf32, strided<[8, 1], offset: 24>>
  memref.copy %row, %window : memref<1x8xf32> to memref<1x8xf32, strided<[8, 1], offset: 24>>
  memref.copy %cache, %new_cache : memref<16x8xf32> to memref<16x8xf32>
  return
}

// -----

// One input copied into two outputs: only the last copy may share it (the
// first is followed by a read of the input).
// CHECK-LABEL: func.func @two_copies(
// CHECK-SAME:    mlx.in_place = array<i64: -1, 0>
// CHECK-COUNT-1: scf.if
func.func @two_copies(%cache: memref<16x8xf32>,
                      %a: memref<16x8xf32> {bufferize.result},
                      %b: memref<16x8xf32> {bufferize.result}) {
  memref.copy %cache, %a : memref<16x8xf32> to memref<16x8xf32>
  memref.copy %cache, %b : memref<16x8xf32> to memref<16x8xf32>
  return
}

// -----

// The copy as the lowering of mx.slice_update makes it (linalg.copy of a
// graph input), the row's producer writing straight into the window.
// CHECK-LABEL: func.func @linalg_copy(
// CHECK-SAME:    mlx.in_place = array<i64: 0>
// CHECK:         scf.if
// CHECK-NEXT:      linalg.copy ins(%arg0 : memref<16x8xf32>) outs(%arg2 : memref<16x8xf32>)
// CHECK-NEXT:    }
// CHECK:         linalg.generic
func.func @linalg_copy(%cache: memref<16x8xf32>, %row: memref<1x8xf32>,
                       %new_cache: memref<16x8xf32> {bufferize.result}) {
  linalg.copy ins(%cache : memref<16x8xf32>) outs(%new_cache : memref<16x8xf32>)
  %window = memref.subview %new_cache[3, 0] [1, 8] [1, 1] : memref<16x8xf32> to memref<1x8xf32, strided<[8, 1], offset: 24>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%row : memref<1x8xf32>) outs(%window : memref<1x8xf32, strided<[8, 1], offset: 24>>) {
  ^bb0(%in: f32, %out: f32):
    %twice = arith.addf %in, %in : f32
    linalg.yield %twice : f32
  }
  return
}

// -----

// Two caches updated in one step (a layer's keys and values): their guarded
// copies run as one kernel under one guard, when either pair of buffers
// differs (a donated pair then copies its buffer onto itself). The second
// copy moves up past the first row's write, which touches neither of its
// buffers; a copy of another type stays on its own.
// CHECK-LABEL: func.func @merged_copies(
// CHECK-SAME:    mlx.in_place = array<i64: 0, 1, 4>
// CHECK:         %[[K:.+]] = arith.cmpi ne
// CHECK:         %[[V:.+]] = arith.cmpi ne
// CHECK:         %[[ANY:.+]] = arith.ori %[[K]], %[[V]] : i1
// CHECK:         scf.if %[[ANY]] {
// CHECK-NEXT:      linalg.generic {{.*}} ins(%arg0, %arg1 : memref<16x8xf32>, memref<16x8xf32>) outs(%arg5, %arg6 : memref<16x8xf32>, memref<16x8xf32>)
// CHECK:         }
// CHECK:         memref.subview %arg5
// CHECK:         scf.if
// CHECK-NEXT:      linalg.copy ins(%arg4 : memref<4x8xf32>) outs(%arg7 : memref<4x8xf32>)
// CHECK-NOT:     linalg.copy ins(%arg1
// CHECK:         memref.subview %arg6
func.func @merged_copies(%kc: memref<16x8xf32>, %vc: memref<16x8xf32>,
                         %k: memref<1x8xf32>, %v: memref<1x8xf32>, %small: memref<4x8xf32>,
                         %new_kc: memref<16x8xf32> {bufferize.result},
                         %new_vc: memref<16x8xf32> {bufferize.result},
                         %new_small: memref<4x8xf32> {bufferize.result}) {
  linalg.copy ins(%kc : memref<16x8xf32>) outs(%new_kc : memref<16x8xf32>)
  %kw = memref.subview %new_kc[3, 0] [1, 8] [1, 1] : memref<16x8xf32> to memref<1x8xf32, strided<[8, 1], offset: 24>>
  memref.copy %k, %kw : memref<1x8xf32> to memref<1x8xf32, strided<[8, 1], offset: 24>>
  linalg.copy ins(%small : memref<4x8xf32>) outs(%new_small : memref<4x8xf32>)
  linalg.copy ins(%vc : memref<16x8xf32>) outs(%new_vc : memref<16x8xf32>)
  %vw = memref.subview %new_vc[3, 0] [1, 8] [1, 1] : memref<16x8xf32> to memref<1x8xf32, strided<[8, 1], offset: 24>>
  memref.copy %v, %vw : memref<1x8xf32> to memref<1x8xf32, strided<[8, 1], offset: 24>>
  return
}

// -----

// The second cache is read between the two copies (its row, into the first
// cache): a copy never moves past an access to its buffers, so the copies
// stay apart.
// CHECK-LABEL: func.func @copies_kept_apart(
// CHECK:         scf.if
// CHECK-NEXT:      linalg.copy ins(%arg0
// CHECK:         scf.if
// CHECK-NEXT:      linalg.copy ins(%arg1
func.func @copies_kept_apart(%kc: memref<16x8xf32>, %vc: memref<16x8xf32>,
                             %new_kc: memref<16x8xf32> {bufferize.result},
                             %new_vc: memref<16x8xf32> {bufferize.result}) {
  linalg.copy ins(%kc : memref<16x8xf32>) outs(%new_kc : memref<16x8xf32>)
  %kw = memref.subview %new_kc[3, 0] [1, 8] [1, 1] : memref<16x8xf32> to memref<1x8xf32, strided<[8, 1], offset: 24>>
  %vr = memref.subview %vc[3, 0] [1, 8] [1, 1] : memref<16x8xf32> to memref<1x8xf32, strided<[8, 1], offset: 24>>
  memref.copy %vr, %kw : memref<1x8xf32, strided<[8, 1], offset: 24>> to memref<1x8xf32, strided<[8, 1], offset: 24>>
  linalg.copy ins(%vc : memref<16x8xf32>) outs(%new_vc : memref<16x8xf32>)
  return
}
