// RUN: mlx-opt %s --mlxc-outline-cpu-kernels | FileCheck %s
// RUN: mlx-opt %s --mlxc-outline-cpu-kernels --mlxc-dedup-kernels | FileCheck %s --check-prefix=DEDUP

// Each kernel (one kernel.id; an untagged linalg op alone) becomes a private
// noinline function called where its last op was; allocations between its
// ops stay in the graph.
// CHECK: func.func private @graph_kernel(%{{.*}}: memref<2x8xf32>, %{{.*}}: memref<2x8xf32>, %{{.*}}: memref<2x8xf32>) attributes {llvm.linkage = #llvm.linkage<internal>, mlx.cpu_kernel, mlx.kernel_name = "exp_add", passthrough = ["noinline"]}
// CHECK-NOT: kernel.id
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: func.func private @graph_kernel_0(
// CHECK: func.func private @graph_kernel_1(%{{.*}}: memref<2x8xf32>) attributes {{{.*}}mlx.kernel_name = "fill"
// CHECK-NEXT: arith.constant 1.0
// CHECK-NEXT: linalg.fill
// CHECK: func.func private @graph_kernel_2(%{{.*}}: memref<2x8xf32>)
// The view at a run-time offset is rebuilt inside; its offset is passed.
// CHECK: func.func private @graph_kernel_3(%[[BUF:.*]]: memref<2x8xf32>, %[[OFF:.*]]: index, %[[OUT:.*]]: memref<4xf32>) attributes {{{.*}}mlx.kernel_name = "copy"
// CHECK-NEXT: %[[V:.*]] = memref.subview %[[BUF]][0, %[[OFF]]] [1, 4] [1, 1]
// CHECK-NEXT: linalg.copy ins(%[[V]] : {{.*}}) outs(%[[OUT]] : memref<4xf32>)
// CHECK-LABEL: func.func @graph(
// CHECK: %[[A:.*]] = memref.alloc()
// CHECK: %[[B:.*]] = memref.alloc()
// CHECK-NEXT: call @graph_kernel(%arg0, %[[A]], %[[B]])
// CHECK: %[[C:.*]] = memref.alloc()
// CHECK-NEXT: call @graph_kernel_0(%arg1, %[[C]], %arg2)
// A store between the ops of kernel 2 splits it: nothing moves past it.
// CHECK: call @graph_kernel_1(%[[A]])
// CHECK: memref.store
// CHECK-NEXT: call @graph_kernel_2(%[[C]])
// CHECK: call @graph_kernel_3(%[[B]], %{{.*}}, %arg3)
// CHECK-NOT: linalg.
// CHECK: return

// The two equal kernels and the two equal fills share one function each.
// DEDUP-COUNT-3: func.func private
// DEDUP-NOT: func.func private
// DEDUP-LABEL: func.func @graph(
// DEDUP: call @graph_kernel(%arg0
// DEDUP: call @graph_kernel(%arg1
// DEDUP: call @graph_kernel_1(
// DEDUP: call @graph_kernel_1(
// DEDUP: call @graph_kernel_3(
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @graph(%x: memref<2x8xf32>, %y: memref<2x8xf32>, %out: memref<2x8xf32>, %out2: memref<4xf32>, %idx: memref<i32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<2x8xf32>
  // kernel 0: two ops, an alloc between them.
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : memref<2x8xf32>) outs(%a : memref<2x8xf32>) attrs = {kernel.id = 0 : i64, kernel.strategy = "elementwise"} {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  %b = memref.alloc() {alignment = 64 : i64} : memref<2x8xf32>
  linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%a, %x : memref<2x8xf32>, memref<2x8xf32>) outs(%b : memref<2x8xf32>) attrs = {kernel.id = 0 : i64, kernel.strategy = "elementwise"} {
  ^bb0(%in: f32, %in2: f32, %o: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  }
  // kernel 1: the same ops on other buffers.
  %c = memref.alloc() {alignment = 64 : i64} : memref<2x8xf32>
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%y : memref<2x8xf32>) outs(%c : memref<2x8xf32>) attrs = {kernel.id = 1 : i64, kernel.strategy = "elementwise"} {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%c, %y : memref<2x8xf32>, memref<2x8xf32>) outs(%out : memref<2x8xf32>) attrs = {kernel.id = 1 : i64, kernel.strategy = "elementwise"} {
  ^bb0(%in: f32, %in2: f32, %o: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  }
  // kernel 2 is split by a store between its ops.
  %cst = arith.constant 1.0 : f32
  linalg.fill {kernel.id = 2 : i64} ins(%cst : f32) outs(%a : memref<2x8xf32>)
  %c0 = arith.constant 0 : index
  memref.store %cst, %b[%c0, %c0] : memref<2x8xf32>
  linalg.fill {kernel.id = 2 : i64} ins(%cst : f32) outs(%c : memref<2x8xf32>)
  // An untagged copy through a view at a run-time offset: the view is
  // rebuilt inside, the offset passed.
  %i = memref.load %idx[] : memref<i32>
  %off = arith.index_cast %i : i32 to index
  %v = memref.subview %b[0, %off] [1, 4] [1, 1] : memref<2x8xf32> to memref<4xf32, strided<[1], offset: ?>>
  linalg.copy ins(%v : memref<4xf32, strided<[1], offset: ?>>) outs(%out2 : memref<4xf32>)
  memref.dealloc %a : memref<2x8xf32>
  memref.dealloc %b : memref<2x8xf32>
  memref.dealloc %c : memref<2x8xf32>
  return
}
