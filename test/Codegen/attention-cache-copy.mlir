// RUN: mlx-opt %s --mlxc-lower-attention --split-input-file | FileCheck %s

// A decode step's caches, not donated: each is copied whole into its
// output, the new row written (the keys in two halves, as RoPE writes
// them), then attended; 8192 keys of 16 heads make chunks of two steps.
// The split-key kernel makes both copies: when the caller gave two buffers
// (the addresses differ), it loads the rows from the inputs (the window's
// from the outputs) and the blocks of the key head's first query rows
// store them into the outputs as they arrive; else (donated) it loads the
// outputs' rows as a kernel without a copy does. The guarded copy kernel
// goes.
// CHECK-LABEL: func.func @copied_caches
// CHECK-NOT: linalg.generic {{.*}} ins(%arg1, %arg2
// CHECK: %[[KIN:.*]] = memref.extract_aligned_pointer_as_index %arg1 {{.*}} {mlx.address_only}
// CHECK: %[[KOUT:.*]] = memref.extract_aligned_pointer_as_index %arg6 {{.*}} {mlx.address_only}
// CHECK: arith.cmpi ne, %[[KIN]], %[[KOUT]]
// CHECK: gpu.launch
// CHECK: %[[RUNSK:.*]] = arith.cmpi ne, %{{.*}}, %c0
// CHECK: %[[RUNSV:.*]] = arith.cmpi ne, %{{.*}}, %c0
// CHECK: %[[FIRST:.*]] = arith.cmpi eq
// CHECK: scf.for
// CHECK: %[[KEYS:.*]]:8 = scf.if %[[RUNSK]] -> (vector<8xbf16>, {{.*}}) {
// CHECK: %[[ROW:.*]] = vector.load %arg1
// CHECK: scf.if %{{.*}} -> (vector<8xbf16>) {
// CHECK-NEXT: vector.load %arg6
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[ROW]]
// CHECK: } else {
// CHECK-COUNT-8: vector.load %arg6
// CHECK: %[[KSTORES:.*]] = arith.andi %[[RUNSK]], %[[FIRST]]
// CHECK: scf.if %[[KSTORES]] {
// CHECK: vector.store %[[KEYS]]#0, %arg6
// CHECK: gpu.shuffle xor
// CHECK: scf.for
// CHECK: %[[VALUES:.*]]:8 = scf.if %[[RUNSV]] -> (vector<8xbf16>, {{.*}}) {
// CHECK: vector.load %arg2
// CHECK: } else {
// CHECK: vector.load %arg7
// CHECK: %[[VSTORES:.*]] = arith.andi %[[RUNSV]], %[[FIRST]]
// CHECK: scf.if %[[VSTORES]] {
// CHECK: vector.store %[[VALUES]]#0, %arg7
// CHECK: vector.fma
// CHECK: nvvm.memory.barrier <gpu>
// CHECK: gpu.terminator
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @copied_caches(%q: memref<1x32x1x64xbf16>, %kc: memref<1x16x8192x64xbf16>,
    %vc: memref<1x16x8192x64xbf16>, %kn: memref<1x16x1x64xbf16>,
    %vn: memref<1x16x1x64xbf16>, %out: memref<1x32x1x64xbf16>,
    %ko: memref<1x16x8192x64xbf16>, %vo: memref<1x16x8192x64xbf16>, %pos: index) {
  %a = memref.extract_aligned_pointer_as_index %kc : memref<1x16x8192x64xbf16> -> index
  %b = memref.extract_aligned_pointer_as_index %ko : memref<1x16x8192x64xbf16> -> index
  %differ = arith.cmpi ne, %a, %b : index
  scf.if %differ {
    linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%kc, %vc : memref<1x16x8192x64xbf16>, memref<1x16x8192x64xbf16>)
        outs(%ko, %vo : memref<1x16x8192x64xbf16>, memref<1x16x8192x64xbf16>) {
    ^bb0(%x: bf16, %y: bf16, %o1: bf16, %o2: bf16):
      linalg.yield %x, %y : bf16, bf16
    }
  }
  %lo = memref.subview %ko[0, 0, %pos, 0] [1, 16, 1, 32] [1, 1, 1, 1] : memref<1x16x8192x64xbf16> to memref<1x16x1x32xbf16, strided<[8388608, 524288, 64, 1], offset: ?>>
  %hi = memref.subview %ko[0, 0, %pos, 32] [1, 16, 1, 32] [1, 1, 1, 1] : memref<1x16x8192x64xbf16> to memref<1x16x1x32xbf16, strided<[8388608, 524288, 64, 1], offset: ?>>
  %kn_lo = memref.subview %kn[0, 0, 0, 0] [1, 16, 1, 32] [1, 1, 1, 1] : memref<1x16x1x64xbf16> to memref<1x16x1x32xbf16, strided<[1024, 64, 64, 1]>>
  %kn_hi = memref.subview %kn[0, 0, 0, 32] [1, 16, 1, 32] [1, 1, 1, 1] : memref<1x16x1x64xbf16> to memref<1x16x1x32xbf16, strided<[1024, 64, 64, 1], offset: 32>>
  linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%kn_hi, %kn_lo : memref<1x16x1x32xbf16, strided<[1024, 64, 64, 1], offset: 32>>, memref<1x16x1x32xbf16, strided<[1024, 64, 64, 1]>>)
      outs(%lo, %hi : memref<1x16x1x32xbf16, strided<[8388608, 524288, 64, 1], offset: ?>>, memref<1x16x1x32xbf16, strided<[8388608, 524288, 64, 1], offset: ?>>) {
  ^bb0(%x: bf16, %y: bf16, %o1: bf16, %o2: bf16):
    %n = arith.negf %x : bf16
    linalg.yield %n, %y : bf16, bf16
  }
  %vrow = memref.subview %vo[0, 0, %pos, 0] [1, 16, 1, 64] [1, 1, 1, 1] : memref<1x16x8192x64xbf16> to memref<1x16x1x64xbf16, strided<[8388608, 524288, 64, 1], offset: ?>>
  memref.copy %vn, %vrow : memref<1x16x1x64xbf16> to memref<1x16x1x64xbf16, strided<[8388608, 524288, 64, 1], offset: ?>>
  kernel.attention %q, %ko, %vo into %out {scale = 0.125 : f64} : memref<1x32x1x64xbf16>, memref<1x16x8192x64xbf16>, memref<1x16x8192x64xbf16>, memref<1x32x1x64xbf16>
  return
}

// -----

// Chunks of one step (300 keys of 4 heads: one step of keys and of values a
// block): the block waits on its loads once, and the copy stays a kernel of
// its own.
// CHECK-LABEL: func.func @one_step_chunks
// CHECK: memref.copy %arg1, %arg4
// CHECK: gpu.launch
// CHECK-NOT: vector.store {{.*}}, %arg4
// CHECK: gpu.terminator
func.func @one_step_chunks(%q: memref<1x8x1x64xbf16>, %kc: memref<1x4x300x64xbf16>,
    %v: memref<1x4x300x64xbf16>, %out: memref<1x8x1x64xbf16>,
    %ko: memref<1x4x300x64xbf16>, %kn: memref<1x4x1x64xbf16>, %pos: index) {
  memref.copy %kc, %ko : memref<1x4x300x64xbf16> to memref<1x4x300x64xbf16>
  %row = memref.subview %ko[0, 0, %pos, 0] [1, 4, 1, 64] [1, 1, 1, 1] : memref<1x4x300x64xbf16> to memref<1x4x1x64xbf16, strided<[76800, 19200, 64, 1], offset: ?>>
  memref.copy %kn, %row : memref<1x4x1x64xbf16> to memref<1x4x1x64xbf16, strided<[76800, 19200, 64, 1], offset: ?>>
  kernel.attention %q, %ko, %v into %out {scale = 0.125 : f64} : memref<1x8x1x64xbf16>, memref<1x4x300x64xbf16>, memref<1x4x300x64xbf16>, memref<1x8x1x64xbf16>
  return
}

// -----

// The copy stays where the kernel cannot make it: the keys' window covers
// half of each new row (the other half would be the input's); the values'
// output is read between the copy and attention. A copy of several caches
// loses only the pairs that attention takes (none here).
// CHECK-LABEL: func.func @kept_copies
// CHECK: linalg.generic {{.*}} ins(%arg1, %arg2 : {{.*}}) outs(%arg6, %arg7 :
// CHECK: gpu.launch
// CHECK-NOT: vector.store {{.*}}, %arg6
// CHECK-NOT: vector.store {{.*}}, %arg7
// CHECK: gpu.terminator
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @kept_copies(%q: memref<1x32x1x64xbf16>, %kc: memref<1x16x8192x64xbf16>,
    %vc: memref<1x16x8192x64xbf16>, %kn: memref<1x16x1x32xbf16>,
    %sum: memref<1x16x8192x64xf32>, %out: memref<1x32x1x64xbf16>,
    %ko: memref<1x16x8192x64xbf16>, %vo: memref<1x16x8192x64xbf16>, %pos: index) {
  linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%kc, %vc : memref<1x16x8192x64xbf16>, memref<1x16x8192x64xbf16>)
      outs(%ko, %vo : memref<1x16x8192x64xbf16>, memref<1x16x8192x64xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %o1: bf16, %o2: bf16):
    linalg.yield %x, %y : bf16, bf16
  }
  %lo = memref.subview %ko[0, 0, %pos, 0] [1, 16, 1, 32] [1, 1, 1, 1] : memref<1x16x8192x64xbf16> to memref<1x16x1x32xbf16, strided<[8388608, 524288, 64, 1], offset: ?>>
  memref.copy %kn, %lo : memref<1x16x1x32xbf16> to memref<1x16x1x32xbf16, strided<[8388608, 524288, 64, 1], offset: ?>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%vo : memref<1x16x8192x64xbf16>) outs(%sum : memref<1x16x8192x64xf32>) {
  ^bb0(%x: bf16, %o: f32):
    %e = arith.extf %x : bf16 to f32
    linalg.yield %e : f32
  }
  kernel.attention %q, %ko, %vo into %out {scale = 0.125 : f64} : memref<1x32x1x64xbf16>, memref<1x16x8192x64xbf16>, memref<1x16x8192x64xbf16>, memref<1x32x1x64xbf16>
  return
}

// -----

// The input is written between the copy and attention (its rows would no
// longer be the copy's): the keys' copy stays, the values' goes, and the
// copy kernel keeps the keys' pair alone.
// CHECK-LABEL: func.func @source_written
// CHECK: linalg.generic {{.*}} ins(%arg1 : memref<1x16x8192x64xbf16>) outs(%arg6 : memref<1x16x8192x64xbf16>)
// CHECK: gpu.launch
// CHECK-NOT: vector.store {{.*}}, %arg6
// CHECK: vector.store {{.*}}, %arg7
// CHECK: gpu.terminator
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @source_written(%q: memref<1x32x1x64xbf16>, %kc: memref<1x16x8192x64xbf16>,
    %vc: memref<1x16x8192x64xbf16>, %kn: memref<1x16x1x64xbf16>,
    %vn: memref<1x16x1x64xbf16>, %out: memref<1x32x1x64xbf16>,
    %ko: memref<1x16x8192x64xbf16>, %vo: memref<1x16x8192x64xbf16>, %pos: index) {
  linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%kc, %vc : memref<1x16x8192x64xbf16>, memref<1x16x8192x64xbf16>)
      outs(%ko, %vo : memref<1x16x8192x64xbf16>, memref<1x16x8192x64xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %o1: bf16, %o2: bf16):
    linalg.yield %x, %y : bf16, bf16
  }
  %krow = memref.subview %kc[0, 0, 0, 0] [1, 16, 1, 64] [1, 1, 1, 1] : memref<1x16x8192x64xbf16> to memref<1x16x1x64xbf16, strided<[8388608, 524288, 64, 1]>>
  memref.copy %kn, %krow : memref<1x16x1x64xbf16> to memref<1x16x1x64xbf16, strided<[8388608, 524288, 64, 1]>>
  %vrow = memref.subview %vo[0, 0, %pos, 0] [1, 16, 1, 64] [1, 1, 1, 1] : memref<1x16x8192x64xbf16> to memref<1x16x1x64xbf16, strided<[8388608, 524288, 64, 1], offset: ?>>
  memref.copy %vn, %vrow : memref<1x16x1x64xbf16> to memref<1x16x1x64xbf16, strided<[8388608, 524288, 64, 1], offset: ?>>
  kernel.attention %q, %ko, %vo into %out {scale = 0.125 : f64} : memref<1x32x1x64xbf16>, memref<1x16x8192x64xbf16>, memref<1x16x8192x64xbf16>, memref<1x32x1x64xbf16>
  return
}
