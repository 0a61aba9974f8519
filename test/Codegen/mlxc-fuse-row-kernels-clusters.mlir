// RUN: mlx-opt %s --mlxc-attach-target="target=cuda gpu-arch=sm_90" --mlxc-fuse-row-kernels | FileCheck %s
// RUN: mlx-opt %s --mlxc-attach-target="target=cuda gpu-arch=sm_90 max-cluster=4" --mlxc-fuse-row-kernels | FileCheck %s --check-prefix=FOUR
// RUN: mlx-opt %s --mlxc-fuse-row-kernels | FileCheck %s --check-prefix=NONE

// A softmax over rows of 131072 f32 (512 KB: no block's registers hold
// one) spreads each row over a cluster of 8 blocks of 256 threads: the grid
// has 2 x 8 blocks, block x % 8 is the rank and x / 8 the row. Where the
// module's chip runs clusters (mlxc_cluster_rows), each thread keeps 64
// elements of its block's slice (columns rank * 16384 + ...) in registers,
// read once as 16 16-byte vectors; each reduction's block total goes to a
// one-element shared slot, the cluster synchronizes, and every thread merges
// the 8 blocks' slots (mlxc_cluster_load_f32, rank 0 to 7); the quotients
// are stored from registers and the cluster synchronizes once more before
// the blocks leave. Elsewhere the cluster's first block runs the row alone
// with strided loops (the online max and sum, then the quotient).
// CHECK-LABEL: func.func @cluster_softmax
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c16, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c256, {{.*}}) workgroup(%[[MAX:.*]] : memref<8xf32, #gpu.address_space<workgroup>>, %[[SUM:.*]] : memref<8xf32, #gpu.address_space<workgroup>>, %[[MAXSLOT:.*]] : memref<1xf32, #gpu.address_space<workgroup>>, %[[SUMSLOT:.*]] : memref<1xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[RANK:.*]] = arith.remui %[[BX]], %c8
// CHECK: %[[ASKED:.*]] = llvm.call @mlxc_cluster_rows(%{{.*}}) : (i32) -> i1
// CHECK: scf.if %[[ASKED]] {
// CHECK: %[[SLICE:.*]] = arith.muli %[[RANK]], %c16384
// CHECK-COUNT-16: vector.load %{{.*}} {alignment = 16 : i64} : memref<2x1x131072xf32>, vector<4xf32>
// CHECK-NOT: vector.load
// CHECK: memref.store %{{.*}}, %[[MAX]]
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %[[MAXSLOT]]
// CHECK: llvm.call @mlxc_cluster_sync() : () -> ()
// CHECK: memref.extract_aligned_pointer_as_index %[[MAXSLOT]]
// CHECK-COUNT-8: llvm.call @mlxc_cluster_load_f32
// CHECK: math.exp
// CHECK: memref.store %{{.*}}, %[[SUMSLOT]]
// CHECK: llvm.call @mlxc_cluster_sync() : () -> ()
// CHECK-COUNT-8: llvm.call @mlxc_cluster_load_f32
// CHECK: arith.divf
// CHECK-COUNT-16: vector.store %{{.*}} {alignment = 16 : i64} : memref<2x131072xf32>, vector<4xf32>
// CHECK: llvm.call @mlxc_cluster_sync() : () -> ()
// CHECK-NEXT: } else {
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[RANK]], %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK: scf.for {{.*}} -> (f32, f32)
// CHECK: scf.for
// CHECK: arith.divf
// CHECK-NOT: mlxc_cluster
// CHECK: gpu.terminator
// CHECK: } {mlx.row_kernel}
// With at most 4 blocks a cluster the row does not fit (128 elements a
// thread): strided passes in one block per row, as without clusters.
// FOUR-LABEL: func.func @cluster_softmax
// FOUR: gpu.launch blocks({{.*}}) in (%{{.*}} = %c2,
// FOUR-NOT: mlxc_cluster
// NONE-LABEL: func.func @cluster_softmax
// NONE: gpu.launch blocks({{.*}}) in (%{{.*}} = %c2,
// NONE-NOT: mlxc_cluster
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, 0)>
  func.func @cluster_softmax(%arg0: memref<2x131072xf32> {mlx.name = "x"}, %arg1: memref<2x131072xf32> {bufferize.result}) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
    %expand_shape = memref.expand_shape %alloc [[0, 1]] output_shape [2, 1] : memref<2xf32> into memref<2x1xf32>
    linalg.fill ins(%cst_0 : f32) outs(%expand_shape : memref<2x1xf32>)
    %expand_shape_1 = memref.expand_shape %arg0 [[0, 1], [2]] output_shape [2, 1, 131072] : memref<2x131072xf32> into memref<2x1x131072xf32>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%expand_shape_1 : memref<2x1x131072xf32>) outs(%expand_shape : memref<2x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.cmpf uno, %in, %in : f32
      %1 = arith.cmpf ogt, %in, %out : f32
      %2 = arith.ori %0, %1 : i1
      %3 = arith.select %2, %in, %out : f32
      linalg.yield %3 : f32
    }
    linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel"]} ins(%arg0, %expand_shape : memref<2x131072xf32>, memref<2x1xf32>) outs(%arg1 : memref<2x131072xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %0 = arith.subf %in, %in_3 : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
    }
    linalg.fill ins(%cst : f32) outs(%expand_shape : memref<2x1xf32>)
    %expand_shape_2 = memref.expand_shape %arg1 [[0, 1], [2]] output_shape [2, 1, 131072] : memref<2x131072xf32> into memref<2x1x131072xf32>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%expand_shape_2 : memref<2x1x131072xf32>) outs(%expand_shape : memref<2x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %out, %in : f32
      linalg.yield %0 : f32
    }
    linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel"]} ins(%arg1, %expand_shape : memref<2x131072xf32>, memref<2x1xf32>) outs(%arg1 : memref<2x131072xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %0 = arith.divf %in, %in_3 : f32
      linalg.yield %0 : f32
    }
    memref.dealloc %alloc : memref<2xf32>
    return
  }
