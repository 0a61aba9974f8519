// RUN: mlx-opt %s --split-input-file --mlxc-split-vector-products | FileCheck %s

// A decode step's rms_norm (kernel formation's row kernel: the sum of
// squares, then the scaled row) makes the left-hand side of two products
// that share a launch: the norm becomes the launch's prologue. Every block
// reduces the row itself (a strided pass, a warp butterfly, the warps'
// totals through shared memory) after the wait for the kernel before, then
// computes the normed elements of its chunk of k once into shared memory
// (32 here: 8 slices of 4 rows), which its threads read; the sum and the
// normed row no longer reach memory.
// CHECK-LABEL: func.func @rms_norm_prologue
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.alloc() {{.*}} : memref<1x1024xbf16>
// CHECK: gpu.launch
// CHECK-SAME: %[[TOTALS:[a-z0-9]+]] : memref<8xf32, #gpu.address_space<workgroup>>, %[[STAGED:[a-z0-9]+]] : memref<1x32xbf16, #gpu.address_space<workgroup>>) {
// CHECK: nvvm.griddepcontrol wait
// CHECK: memref.load %arg0
// CHECK: gpu.shuffle xor
// CHECK: memref.store {{.*}}, %[[TOTALS]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK-DAG: math.rsqrt
// CHECK-DAG: memref.load %arg0
// CHECK-DAG: memref.load %arg1
// CHECK: memref.store {{.*}}, %[[STAGED]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[STAGED]]
// CHECK-NOT: gpu.launch
// CHECK-NOT: linalg.generic
// CHECK: return
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, 0)>
#map4 = affine_map<(d0, d1) -> (d1)>
func.func @rms_norm_prologue(%arg0: memref<1x1024xbf16>, %arg1: memref<1024xbf16>, %arg2: memref<1024x1024xbf16>, %arg3: memref<1024x256xbf16>, %arg4: memref<1x1024xbf16>, %arg5: memref<1x256xbf16>) {
  %cst = arith.constant 9.99999974E-6 : f32
  %cst_0 = arith.constant 9.765625E-4 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<1xf32>
  %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<1x1024xbf16>
  %expand_shape = memref.expand_shape %arg0 [[0, 1], [2]] output_shape [1, 1, 1024] : memref<1x1024xbf16> into memref<1x1x1024xbf16>
  %expand_shape_3 = memref.expand_shape %alloc [[0, 1]] output_shape [1, 1] : memref<1xf32> into memref<1x1xf32>
  linalg.fill {kernel.id = 0 : i64, kernel.strategy = "row_reduction"} ins(%cst_1 : f32) outs(%expand_shape_3 : memref<1x1xf32>)
  linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%expand_shape : memref<1x1x1024xbf16>) outs(%expand_shape_3 : memref<1x1xf32>) attrs =  {kernel.id = 0 : i64, kernel.strategy = "row_reduction"} {
  ^bb0(%in: bf16, %out: f32):
    %0 = arith.extf %in : bf16 to f32
    %1 = arith.mulf %0, %0 : f32
    %2 = arith.addf %out, %1 : f32
    linalg.yield %2 : f32
  }
  linalg.generic {indexing_maps = [#map2, #map3, #map4, #map2], iterator_types = ["parallel", "parallel"]} ins(%arg0, %expand_shape_3, %arg1 : memref<1x1024xbf16>, memref<1x1xf32>, memref<1024xbf16>) outs(%alloc_2 : memref<1x1024xbf16>) attrs =  {kernel.id = 0 : i64, kernel.strategy = "row_reduction"} {
  ^bb0(%in: bf16, %in_11: f32, %in_12: bf16, %out: bf16):
    %0 = arith.mulf %in_11, %cst_0 : f32
    %1 = arith.addf %0, %cst : f32
    %2 = math.rsqrt %1 : f32
    %3 = arith.extf %in : bf16 to f32
    %4 = arith.mulf %3, %2 : f32
    %5 = arith.truncf %4 : f32 to bf16
    %6 = arith.extf %5 : bf16 to f32
    %7 = arith.extf %in_12 : bf16 to f32
    %8 = arith.mulf %6, %7 : f32
    %9 = arith.truncf %8 : f32 to bf16
    linalg.yield %9 : bf16
  }
  %expand_shape_4 = memref.expand_shape %alloc_2 [[0], [1, 2]] output_shape [1, 1, 1024] : memref<1x1024xbf16> into memref<1x1x1024xbf16>
  %alloc_5 = memref.alloc() {alignment = 64 : i64} : memref<1x1x1024xf32>
  %expand_shape_6 = memref.expand_shape %arg2 [[0, 1], [2]] output_shape [1, 1024, 1024] : memref<1024x1024xbf16> into memref<1x1024x1024xbf16>
  linalg.fill {kernel.id = 1 : i64, kernel.strategy = "product"} ins(%cst_1 : f32) outs(%alloc_5 : memref<1x1x1024xf32>)
  linalg.batch_matmul {kernel.id = 1 : i64, kernel.strategy = "product"} ins(%expand_shape_4, %expand_shape_6 : memref<1x1x1024xbf16>, memref<1x1024x1024xbf16>) outs(%alloc_5 : memref<1x1x1024xf32>)
  %expand_shape_7 = memref.expand_shape %arg4 [[0], [1, 2]] output_shape [1, 1, 1024] : memref<1x1024xbf16> into memref<1x1x1024xbf16>
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_5 : memref<1x1x1024xf32>) outs(%expand_shape_7 : memref<1x1x1024xbf16>) attrs =  {kernel.id = 2 : i64, kernel.strategy = "elementwise"} {
  ^bb0(%in: f32, %out: bf16):
    %0 = arith.truncf %in : f32 to bf16
    linalg.yield %0 : bf16
  }
  %alloc_8 = memref.alloc() {alignment = 64 : i64} : memref<1x1x256xf32>
  %expand_shape_9 = memref.expand_shape %arg3 [[0, 1], [2]] output_shape [1, 1024, 256] : memref<1024x256xbf16> into memref<1x1024x256xbf16>
  linalg.fill {kernel.id = 3 : i64, kernel.strategy = "product"} ins(%cst_1 : f32) outs(%alloc_8 : memref<1x1x256xf32>)
  linalg.batch_matmul {kernel.id = 3 : i64, kernel.strategy = "product"} ins(%expand_shape_4, %expand_shape_9 : memref<1x1x1024xbf16>, memref<1x1024x256xbf16>) outs(%alloc_8 : memref<1x1x256xf32>)
  %expand_shape_10 = memref.expand_shape %arg5 [[0], [1, 2]] output_shape [1, 1, 256] : memref<1x256xbf16> into memref<1x1x256xbf16>
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_8 : memref<1x1x256xf32>) outs(%expand_shape_10 : memref<1x1x256xbf16>) attrs =  {kernel.id = 4 : i64, kernel.strategy = "elementwise"} {
  ^bb0(%in: f32, %out: bf16):
    %0 = arith.truncf %in : f32 to bf16
    linalg.yield %0 : bf16
  }
  memref.dealloc %alloc : memref<1xf32>
  memref.dealloc %alloc_2 : memref<1x1024xbf16>
  memref.dealloc %alloc_5 : memref<1x1x1024xf32>
  memref.dealloc %alloc_8 : memref<1x1x256xf32>
  return
}

// -----

// The normed row is also an output: the norm stays a row kernel of its own
// (its ops stay for mlxc-fuse-row-kernels) and the product reads the row.
// CHECK-LABEL: func.func @normed_row_kept
// CHECK: linalg.fill
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK-SAME: outs(%arg3 : memref<1x512xf32>)
// CHECK: gpu.launch
// CHECK-NOT: gpu.shuffle
// CHECK: memref.load %{{.*}} : memref<1x1x512xf32>
// CHECK: return
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, 0)>
#map4 = affine_map<(d0, d1) -> (d1)>
func.func @normed_row_kept(%arg0: memref<1x512xf32>, %arg1: memref<512xf32>, %arg2: memref<512x256xf32>, %arg3: memref<1x512xf32>, %arg4: memref<1x256xf32>) {
  %cst = arith.constant 9.99999974E-6 : f32
  %cst_0 = arith.constant 0.001953125 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<1xf32>
  %expand_shape = memref.expand_shape %arg0 [[0, 1], [2]] output_shape [1, 1, 512] : memref<1x512xf32> into memref<1x1x512xf32>
  %expand_shape_2 = memref.expand_shape %alloc [[0, 1]] output_shape [1, 1] : memref<1xf32> into memref<1x1xf32>
  linalg.fill {kernel.id = 0 : i64, kernel.strategy = "row_reduction"} ins(%cst_1 : f32) outs(%expand_shape_2 : memref<1x1xf32>)
  linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%expand_shape : memref<1x1x512xf32>) outs(%expand_shape_2 : memref<1x1xf32>) attrs =  {kernel.id = 0 : i64, kernel.strategy = "row_reduction"} {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %in : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#map2, #map3, #map4, #map2], iterator_types = ["parallel", "parallel"]} ins(%arg0, %expand_shape_2, %arg1 : memref<1x512xf32>, memref<1x1xf32>, memref<512xf32>) outs(%arg3 : memref<1x512xf32>) attrs =  {kernel.id = 0 : i64, kernel.strategy = "row_reduction"} {
  ^bb0(%in: f32, %in_6: f32, %in_7: f32, %out: f32):
    %0 = arith.mulf %in_6, %cst_0 : f32
    %1 = arith.addf %0, %cst : f32
    %2 = math.rsqrt %1 : f32
    %3 = arith.mulf %in, %2 : f32
    %4 = arith.mulf %3, %in_7 : f32
    linalg.yield %4 : f32
  }
  %expand_shape_3 = memref.expand_shape %arg4 [[0], [1, 2]] output_shape [1, 1, 256] : memref<1x256xf32> into memref<1x1x256xf32>
  %expand_shape_4 = memref.expand_shape %arg3 [[0], [1, 2]] output_shape [1, 1, 512] : memref<1x512xf32> into memref<1x1x512xf32>
  %expand_shape_5 = memref.expand_shape %arg2 [[0, 1], [2]] output_shape [1, 512, 256] : memref<512x256xf32> into memref<1x512x256xf32>
  linalg.fill {kernel.id = 1 : i64, kernel.strategy = "product"} ins(%cst_1 : f32) outs(%expand_shape_3 : memref<1x1x256xf32>)
  linalg.batch_matmul {kernel.id = 1 : i64, kernel.strategy = "product"} ins(%expand_shape_4, %expand_shape_5 : memref<1x1x512xf32>, memref<1x512x256xf32>) outs(%expand_shape_3 : memref<1x1x256xf32>)
  memref.dealloc %alloc : memref<1xf32>
  return
}

// -----

// SwiGLU: the gate and up products share a launch, and silu(gate) * up (an
// op of its own: it reads both products) makes the down product's
// left-hand side. That map becomes the down launch's prologue: each block
// computes silu(gate) * up of its chunk of k once into shared memory, with
// no reduction; the map and its buffer are gone.
// CHECK-LABEL: func.func @swiglu
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
// CHECK: gpu.launch
// CHECK-SAME: %{{.*}} : memref<1xi32, #gpu.address_space<workgroup>>, %[[STAGED:[a-z0-9]+]] : memref<1x{{[0-9]+}}xf32, #gpu.address_space<workgroup>>) {
// CHECK-NOT: gpu.shuffle
// CHECK: math.exp
// CHECK: memref.store {{.*}}, %[[STAGED]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[STAGED]]
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @swiglu(%a: memref<1x64xf32>, %wg: memref<64x256xf32>,
                  %wu: memref<64x256xf32>, %wd: memref<256x64xf32>,
                  %out: memref<1x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %g = memref.alloc() : memref<1x256xf32>
  linalg.fill ins(%zero : f32) outs(%g : memref<1x256xf32>)
  linalg.matmul ins(%a, %wg : memref<1x64xf32>, memref<64x256xf32>)
                outs(%g : memref<1x256xf32>)
  %u = memref.alloc() : memref<1x256xf32>
  linalg.fill ins(%zero : f32) outs(%u : memref<1x256xf32>)
  linalg.matmul ins(%a, %wu : memref<1x64xf32>, memref<64x256xf32>)
                outs(%u : memref<1x256xf32>)
  %p = memref.alloc() : memref<1x256xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%g, %u : memref<1x256xf32>, memref<1x256xf32>)
      outs(%p : memref<1x256xf32>) {
  ^bb0(%gi: f32, %ui: f32, %o: f32):
    %neg = arith.negf %gi : f32
    %e = math.exp %neg : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %gi, %d : f32
    %r = arith.mulf %s, %ui : f32
    linalg.yield %r : f32
  }
  linalg.fill ins(%zero : f32) outs(%out : memref<1x64xf32>)
  linalg.matmul ins(%p, %wd : memref<1x256xf32>, memref<256x64xf32>)
                outs(%out : memref<1x64xf32>)
  memref.dealloc %g : memref<1x256xf32>
  memref.dealloc %u : memref<1x256xf32>
  memref.dealloc %p : memref<1x256xf32>
  return
}
