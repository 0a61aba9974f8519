// RUN: mlx-opt %s --split-input-file --mlxc-fuse-row-kernels | FileCheck %s --check-prefixes=CHECK,REGS
// RUN: mlx-opt %s --split-input-file --mlxc-fuse-row-kernels=registers=false | FileCheck %s --check-prefixes=CHECK,STRIDED

// softmax as bufferization leaves it (the sum reuses the max's buffer, exp
// lands in the output and is divided in place): one launch, one block per
// row, one shared buffer per reduction; nothing of the chain is left, exp is
// recomputed where the sum and the quotient read it, and only the quotient
// is stored. By default each of 32 threads owns two neighbouring columns,
// read once as an 8-byte vector and kept in registers, and written as one;
// with registers=false 32 threads run strided loops over groups of 4
// columns: the max and the sum in one online pass (see @online_softmax),
// then the quotient.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: linalg.
// REGS: gpu.launch blocks({{.*}}) in (%{{.*}} = %c4, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c32, {{.*}}) workgroup(%[[MAX:.*]] : memref<1xf32, #gpu.address_space<workgroup>>, %[[SUM:.*]] : memref<1xf32, #gpu.address_space<workgroup>>)
// STRIDED: gpu.launch blocks({{.*}}) in (%{{.*}} = %c4, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c32, {{.*}}) workgroup(%[[MAX:.*]] : memref<1xf32, #gpu.address_space<workgroup>>, %[[SUM:.*]] : memref<1xf32, #gpu.address_space<workgroup>>)
// REGS: %[[X:.*]] = vector.load %{{.*}} {alignment = 8 : i64} : memref<4x1x64xf32>, vector<2xf32>
// REGS-NOT: memref.load %{{.*}} : memref<4x{{.*}}64xf32>
// REGS: %[[X0:.*]] = vector.extract %[[X]][0]
// REGS: %[[X1:.*]] = vector.extract %[[X]][1]
// REGS: gpu.shuffle xor
// REGS: memref.store %{{.*}}, %[[MAX]]
// REGS: gpu.barrier
// REGS: arith.subf %[[X0]]
// REGS: math.exp
// REGS: gpu.shuffle xor
// REGS: memref.store %{{.*}}, %[[SUM]]
// REGS: gpu.barrier
// REGS: arith.subf %[[X0]]
// REGS: math.exp
// REGS: arith.divf
// REGS: arith.subf %[[X1]]
// REGS: vector.from_elements
// REGS: vector.store {{.*}} {alignment = 8 : i64} : memref<4x64xf32>, vector<2xf32>
// STRIDED: scf.if {{.*}} -> (f32, f32)
// STRIDED: scf.for {{.*}} -> (f32, f32)
// STRIDED: gpu.shuffle xor
// STRIDED: memref.store %{{.*}}, %[[MAX]]
// STRIDED: memref.store %{{.*}}, %[[SUM]]
// STRIDED: gpu.barrier
// STRIDED-NOT: gpu.barrier
// STRIDED: scf.for
// STRIDED: math.exp
// STRIDED: arith.divf
// STRIDED: vector.store {{.*}} {alignment = 16 : i64} : memref<4x64xf32>, vector<4xf32>
// CHECK-NOT: memref.store
// CHECK-NOT: vector.store
// CHECK: gpu.terminator
// CHECK: } {mlx.row_kernel}
// CHECK-NOT: linalg.
// CHECK: return
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, 0)>
  func.func @softmax(%arg0: memref<4x64xf32> {mlx.name = "x"}, %arg1: memref<4x64xf32> {bufferize.result}) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
    %expand_shape = memref.expand_shape %alloc [[0, 1]] output_shape [4, 1] : memref<4xf32> into memref<4x1xf32>
    linalg.fill ins(%cst_0 : f32) outs(%expand_shape : memref<4x1xf32>)
    %expand_shape_1 = memref.expand_shape %arg0 [[0, 1], [2]] output_shape [4, 1, 64] : memref<4x64xf32> into memref<4x1x64xf32>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%expand_shape_1 : memref<4x1x64xf32>) outs(%expand_shape : memref<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.cmpf uno, %in, %in : f32
      %1 = arith.cmpf ogt, %in, %out : f32
      %2 = arith.ori %0, %1 : i1
      %3 = arith.select %2, %in, %out : f32
      linalg.yield %3 : f32
    }
    linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel"]} ins(%arg0, %expand_shape : memref<4x64xf32>, memref<4x1xf32>) outs(%arg1 : memref<4x64xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %0 = arith.subf %in, %in_3 : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
    }
    linalg.fill ins(%cst : f32) outs(%expand_shape : memref<4x1xf32>)
    %expand_shape_2 = memref.expand_shape %arg1 [[0, 1], [2]] output_shape [4, 1, 64] : memref<4x64xf32> into memref<4x1x64xf32>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%expand_shape_2 : memref<4x1x64xf32>) outs(%expand_shape : memref<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %out, %in : f32
      linalg.yield %0 : f32
    }
    linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel"]} ins(%arg1, %expand_shape : memref<4x64xf32>, memref<4x1xf32>) outs(%arg1 : memref<4x64xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %0 = arith.divf %in, %in_3 : f32
      linalg.yield %0 : f32
    }
    memref.dealloc %alloc : memref<4xf32>
    return
  }

// -----

// The same softmax over rows of 1000 (not a whole number of groups per
// thread: strided loops over 250 groups of 4 columns, each read as one
// 16-byte vector): the max and the sum of exp(x - max) are one online pass,
// a running max and the sum rescaled by exp(old - new) when the max grows;
// the warps merge (max, sum) pairs. The row is read twice, not three times.
// CHECK-LABEL: func.func @online_softmax
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c256,
// CHECK: scf.if {{.*}} -> (f32, f32)
// CHECK: scf.for {{.*}} iter_args(%[[M:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}}) -> (f32, f32)
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<4x1x1000xf32>, vector<4xf32>
// CHECK: arith.cmpf ogt
// CHECK: math.exp
// CHECK: arith.cmpf oeq, %[[M]]
// CHECK: math.exp
// CHECK: arith.mulf %[[S]]
// CHECK: scf.yield
// CHECK-COUNT-3: gpu.shuffle xor
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: scf.for
// CHECK: arith.divf
// CHECK: vector.store {{.*}} {alignment = 16 : i64} : memref<4x1000xf32>, vector<4xf32>
// CHECK-NOT: scf.for
// CHECK: } {mlx.row_kernel}
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, 0)>
  func.func @online_softmax(%arg0: memref<4x1000xf32> {mlx.name = "x"}, %arg1: memref<4x1000xf32> {bufferize.result}) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
    %expand_shape = memref.expand_shape %alloc [[0, 1]] output_shape [4, 1] : memref<4xf32> into memref<4x1xf32>
    linalg.fill ins(%cst_0 : f32) outs(%expand_shape : memref<4x1xf32>)
    %expand_shape_1 = memref.expand_shape %arg0 [[0, 1], [2]] output_shape [4, 1, 1000] : memref<4x1000xf32> into memref<4x1x1000xf32>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%expand_shape_1 : memref<4x1x1000xf32>) outs(%expand_shape : memref<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.cmpf uno, %in, %in : f32
      %1 = arith.cmpf ogt, %in, %out : f32
      %2 = arith.ori %0, %1 : i1
      %3 = arith.select %2, %in, %out : f32
      linalg.yield %3 : f32
    }
    linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel"]} ins(%arg0, %expand_shape : memref<4x1000xf32>, memref<4x1xf32>) outs(%arg1 : memref<4x1000xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %0 = arith.subf %in, %in_3 : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
    }
    linalg.fill ins(%cst : f32) outs(%expand_shape : memref<4x1xf32>)
    %expand_shape_2 = memref.expand_shape %arg1 [[0, 1], [2]] output_shape [4, 1, 1000] : memref<4x1000xf32> into memref<4x1x1000xf32>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%expand_shape_2 : memref<4x1x1000xf32>) outs(%expand_shape : memref<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %out, %in : f32
      linalg.yield %0 : f32
    }
    linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel"]} ins(%arg1, %expand_shape : memref<4x1000xf32>, memref<4x1xf32>) outs(%arg1 : memref<4x1000xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %0 = arith.divf %in, %in_3 : f32
      linalg.yield %0 : f32
    }
    memref.dealloc %alloc : memref<4xf32>
    return
  }

// -----

// A chain that reads, as it was before the chain, a buffer it also writes
// (the max starts from %init in memory and stores into it; the last op
// overwrites its own input %x): left alone, since a recomputation could
// read such a buffer after the kernel's store.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @reads_what_it_writes
// CHECK-NOT: gpu.launch
// CHECK-COUNT-3: linalg.generic
func.func @reads_what_it_writes(%x: memref<4x64xf32>, %init: memref<4xf32>, %y: memref<4x64xf32>) {
  linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x64xf32>) outs(%init : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %out : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %init : memref<4x64xf32>, memref<4xf32>) outs(%y : memref<4x64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%y, %init : memref<4x64xf32>, memref<4xf32>) outs(%x : memref<4x64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.addf %in, %m : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// An intermediate read at another row than it was written (a shifted
// index): not one row per block, left alone.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#shift = affine_map<(d0, d1) -> ((d0 + 1) mod 4)>
// CHECK-LABEL: func.func @other_row
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
// CHECK: linalg.generic
func.func @other_row(%x: memref<4x64xf32>, %y: memref<4x64xf32>) {
  %cst = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<4xf32>
  linalg.fill ins(%cst : f32) outs(%s : memref<4xf32>)
  linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x64xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %out, %in : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#map, #shift, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<4x64xf32>, memref<4xf32>) outs(%y : memref<4x64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.divf %in, %m : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %s : memref<4xf32>
  return
}

// -----

// Rows of 100: blocks of 128 threads, some without an element, so each pass
// is a strided loop that reads the row again (from L1) and the stores are
// one more loop.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @strided_rows
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c32,
// CHECK: scf.if
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: arith.divf
// CHECK: vector.store {{.*}} : memref<4x100xf32>, vector<4xf32>
// CHECK: } {mlx.row_kernel}
func.func @strided_rows(%x: memref<4x100xf32>, %y: memref<4x100xf32>) {
  %cst = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<4xf32>
  linalg.fill ins(%cst : f32) outs(%s : memref<4xf32>)
  linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x100xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %out, %in : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<4x100xf32>, memref<4xf32>) outs(%y : memref<4x100xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.divf %in, %m : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %s : memref<4xf32>
  return
}
