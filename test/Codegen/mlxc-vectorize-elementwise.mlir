// RUN: mlx-opt %s --split-input-file --mlxc-vectorize-elementwise | FileCheck %s

// silu(x + bias): x and the output are walked along their rows, 4 f32 per
// thread with 16-byte accesses; the bias row too (its only axis is the
// innermost loop); the constant stays scalar and is broadcast once.
// CHECK-LABEL: func.func @silu_bias
// CHECK-NOT: linalg.generic
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) = (%c0, %c0) to (%c8, %c16) step (%c1, %c1)
// CHECK: %[[J4:.*]] = arith.muli %[[J]], %c4
// CHECK: %[[X:.*]] = vector.load %arg0[%[[I]], %[[J4]]] {alignment = 16 : i64} : memref<8x64xf32>, vector<4xf32>
// CHECK: %[[B:.*]] = vector.load %arg1[%[[J4]]] {alignment = 16 : i64} : memref<64xf32>, vector<4xf32>
// CHECK: %[[H:.*]] = arith.addf %[[X]], %[[B]] : vector<4xf32>
// CHECK: arith.negf %[[H]] : vector<4xf32>
// CHECK: math.exp %{{.*}} : vector<4xf32>
// CHECK: vector.broadcast %{{.*}} : f32 to vector<4xf32>
// CHECK: arith.divf
// CHECK: vector.store %{{.*}}, %arg2[%[[I]], %[[J4]]] {alignment = 16 : i64} : memref<8x64xf32>, vector<4xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @silu_bias(%x: memref<8x64xf32>, %bias: memref<64xf32>, %out: memref<8x64xf32>) {
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : memref<8x64xf32>, memref<64xf32>) outs(%out : memref<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %h = arith.addf %a, %b : f32
    %n = arith.negf %h : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %h, %d : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A per-row scale is not walked by the innermost loop: one scalar load per
// group of 8 bf16, broadcast. bf16 gets 8 elements per 16 bytes.
// CHECK-LABEL: func.func @row_scale_bf16
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) = (%c0, %c0) to (%c4, %c4) step
// CHECK: vector.load %arg0[%[[I]], %{{.*}}] {alignment = 16 : i64} : memref<4x32xbf16>, vector<8xbf16>
// CHECK: %[[S:.*]] = memref.load %arg1[%[[I]], %c0] : memref<4x1xbf16>
// CHECK: vector.broadcast %[[S]] : bf16 to vector<8xbf16>
// CHECK: arith.mulf {{.*}} : vector<8xbf16>
// CHECK: vector.store
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d0, 0)>
func.func @row_scale_bf16(%x: memref<4x32xbf16>, %s: memref<4x1xbf16>, %out: memref<4x32xbf16>) {
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<4x32xbf16>, memref<4x1xbf16>) outs(%out : memref<4x32xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %o: bf16):
    %m = arith.mulf %a, %b : bf16
    linalg.yield %m : bf16
  }
  return
}

// -----

// Mixed widths: the widest element (f32) sets 4 per thread; the i8 mask
// moves 4 bytes, aligned to 4. An odd innermost extent halves the width
// until it divides (6 -> 2).
// CHECK-LABEL: func.func @select_mixed
// CHECK: vector.load %arg0[{{.*}}] {alignment = 4 : i64} : memref<6x8xi8>, vector<4xi8>
// CHECK: vector.load %arg1[{{.*}}] {alignment = 16 : i64} : memref<6x8xf32>, vector<4xf32>
// CHECK: arith.trunci {{.*}} : vector<4xi8> to vector<4xi1>
// CHECK: arith.select {{.*}} : vector<4xi1>, vector<4xf32>
// CHECK-LABEL: func.func @odd_extent
// CHECK: to (%c3, %c3) step
// CHECK: vector.load {{.*}} {alignment = 8 : i64} : memref<3x6xf32>, vector<2xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @select_mixed(%m: memref<6x8xi8>, %x: memref<6x8xf32>, %out: memref<6x8xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %x : memref<6x8xi8>, memref<6x8xf32>) outs(%out : memref<6x8xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %c = arith.trunci %a : i8 to i1
    %s = arith.select %c, %b, %zero : f32
    linalg.yield %s : f32
  }
  return
}
func.func @odd_extent(%x: memref<3x6xf32>, %out: memref<3x6xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<3x6xf32>) outs(%out : memref<3x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  }
  return
}

// -----

// Left on the scalar path: a transposed operand, a view at a run-time
// offset, a view at an offset that breaks the alignment, a global, an i1
// buffer, an index in the body, and an innermost extent no width divides.
// CHECK-LABEL: func.func @scalar_paths
// CHECK-NOT: vector.
// CHECK-COUNT-7: linalg.generic
// CHECK-NOT: vector.
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
memref.global "private" constant @table : memref<8x8xf32> = dense<1.0>
func.func @scalar_paths(%x: memref<8x8xf32>, %big: memref<64x8xf32>, %k: index,
                        %b: memref<8x8xi1>, %odd: memref<8x7xf32>,
                        %out: memref<8x8xf32>, %bout: memref<8x8xi1>,
                        %oddout: memref<8x7xf32>) {
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  %dyn = memref.subview %big[%k, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyn : memref<8x8xf32, strided<[8, 1], offset: ?>>) outs(%out : memref<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  %shifted = memref.subview %big[0, 1] [8, 4] [1, 1] : memref<64x8xf32> to memref<8x4xf32, strided<[8, 1], offset: 1>>
  %small = memref.subview %out[0, 0] [8, 4] [1, 1] : memref<8x8xf32> to memref<8x4xf32, strided<[8, 1]>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%shifted : memref<8x4xf32, strided<[8, 1], offset: 1>>) outs(%small : memref<8x4xf32, strided<[8, 1]>>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  %g = memref.get_global @table : memref<8x8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g : memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<8x8xi1>) outs(%bout : memref<8x8xi1>) {
  ^bb0(%a: i1, %o: i1):
    %n = arith.xori %a, %a : i1
    linalg.yield %n : i1
  }
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%out : memref<8x8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%odd : memref<8x7xf32>) outs(%oddout : memref<8x7xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// A copy (a KV cache into the output before its new row is written) is the
// generic it is: 8 bf16 per 16-byte access. One at a run-time offset keeps
// its element copy (no alignment proof).
// CHECK-LABEL: func.func @cache_copy
// CHECK: scf.if
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = (%c0, %c0, %c0) to (%c4, %c9, %c16) step
// CHECK: vector.load %arg0{{.*}} {alignment = 16 : i64} : memref<4x9x128xbf16>, vector<8xbf16>
// CHECK: vector.store {{.*}}, %arg1{{.*}} {alignment = 16 : i64} : memref<4x9x128xbf16>, vector<8xbf16>
// CHECK: linalg.copy ins(%{{.*}} : memref<4x1x128xbf16, strided<[1152, 128, 1], offset: ?>>)
func.func @cache_copy(%in: memref<4x9x128xbf16>, %out: memref<4x9x128xbf16>,
                      %row: memref<4x1x128xbf16>, %pos: index, %fresh: i1) {
  scf.if %fresh {
    linalg.copy ins(%in : memref<4x9x128xbf16>) outs(%out : memref<4x9x128xbf16>)
  }
  %window = memref.subview %out[0, %pos, 0] [4, 1, 128] [1, 1, 1]
      : memref<4x9x128xbf16> to memref<4x1x128xbf16, strided<[1152, 128, 1], offset: ?>>
  %src = memref.subview %in[0, %pos, 0] [4, 1, 128] [1, 1, 1]
      : memref<4x9x128xbf16> to memref<4x1x128xbf16, strided<[1152, 128, 1], offset: ?>>
  linalg.copy ins(%src : memref<4x1x128xbf16, strided<[1152, 128, 1], offset: ?>>)
              outs(%window : memref<4x1x128xbf16, strided<[1152, 128, 1], offset: ?>>)
  return
}
