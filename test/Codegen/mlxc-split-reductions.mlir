// RUN: mlx-opt %s --mlxc-split-reductions | FileCheck %s

// CHECK-DAG: #[[IN3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[PART3:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[PARTT:.*]] = affine_map<(d0, d1) -> (d1, d0)>

// A sum to a scalar: both axes collapse into one, which splits into 2048
// chunks of 8192 consecutive elements (a row reduction each), then one
// reduction of the 2048 partials into the output, whose fill moves right
// before it (where the row mapping folds it into its stores).
// CHECK-LABEL: func.func @all_sum
// CHECK-NOT: linalg.fill
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1]] : memref<4096x4096xf32> into memref<16777216xf32>
// CHECK: %[[CHUNKS:.*]] = memref.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [2048, 8192]
// CHECK: %[[PARTIALS:.*]] = memref.alloc() : memref<2048xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[PARTIALS]] : memref<2048xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[CHUNKS]] : memref<2048x8192xf32>) outs(%[[PARTIALS]] : memref<2048xf32>)
// CHECK: arith.addf
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg1 : memref<f32>)
// CHECK-NEXT: linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[PARTIALS]] : memref<2048xf32>) outs(%arg1 : memref<f32>)
// CHECK: arith.addf
// CHECK: memref.dealloc %[[PARTIALS]]
func.func @all_sum(%x: memref<4096x4096xf32>, %y: memref<f32>) {
  %c0 = arith.constant 0.0 : f32
  linalg.fill ins(%c0 : f32) outs(%y : memref<f32>)
  linalg.reduce ins(%x : memref<4096x4096xf32>) outs(%y : memref<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// A max over the rows of 64 columns: the rows split into 256 chunks of 32,
// a thread per (chunk, column), neighbouring threads on neighbouring
// partials [256, 64]; then a thread per column folds its 256 partials. The
// partials start at -inf, the max's identity.
// CHECK-LABEL: func.func @column_max
// CHECK: %[[CHUNKS:.*]] = memref.expand_shape %arg0 {{\[\[}}0, 1], [2]] output_shape [256, 32, 64]
// CHECK: %[[PARTIALS:.*]] = memref.alloc() : memref<256x64xf32>
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NEGINF]] : f32) outs(%[[PARTIALS]]
// CHECK: linalg.generic {indexing_maps = [#[[IN3]], #[[PART3]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK: arith.maximumf
// CHECK: linalg.generic {indexing_maps = [#[[PARTT]], {{.*}}], iterator_types = ["parallel", "reduction"]} ins(%[[PARTIALS]] : memref<256x64xf32>) outs(%arg1 : memref<64xf32>)
// CHECK: arith.maximumf
func.func @column_max(%x: memref<8192x64xf32>, %y: memref<64xf32>) {
  %c = arith.constant 0xFF800000 : f32
  linalg.fill ins(%c : f32) outs(%y : memref<64xf32>)
  linalg.reduce ins(%x : memref<8192x64xf32>) outs(%y : memref<64xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.maximumf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// The payload keeps its value ops (a product with a broadcast scalar); the
// total folds the partials with the combiner alone.
// CHECK-LABEL: func.func @int_sum_of_products
// CHECK: memref.expand_shape %arg0 {{\[\[}}0, 1]] output_shape [128, 512]
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %arg1 : memref<128x512xi32>, memref<i32>)
// CHECK: arith.muli
// CHECK: arith.addi
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<128xi32>) outs(%arg2 : memref<i32>)
// CHECK-NOT: arith.muli
// CHECK: arith.addi
func.func @int_sum_of_products(%x: memref<65536xi32>, %b: memref<i32>, %y: memref<i32>) {
  %c0 = arith.constant 0 : i32
  linalg.fill ins(%c0 : i32) outs(%y : memref<i32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x, %b : memref<65536xi32>, memref<i32>) outs(%y : memref<i32>) {
  ^bb0(%in: i32, %bb: i32, %out: i32):
    %m = arith.muli %in, %bb : i32
    %0 = arith.addi %m, %out : i32
    linalg.yield %0 : i32
  }
  return
}

// Axes that cannot collapse (a transposed view): only the outer reduced
// loop splits, the inner one stays in each chunk.
// CHECK-LABEL: func.func @strided_all
// CHECK-NOT: memref.collapse_shape
// CHECK: memref.expand_shape %arg0 {{\[\[}}0, 1], [2]] output_shape [128, 32, 4096]
// CHECK: iterator_types = ["parallel", "reduction", "reduction"]
func.func @strided_all(%x: memref<4096x4096xf32, strided<[1, 4096]>>, %y: memref<f32>) {
  %c0 = arith.constant 0.0 : f32
  linalg.fill ins(%c0 : f32) outs(%y : memref<f32>)
  linalg.reduce ins(%x : memref<4096x4096xf32, strided<[1, 4096]>>) outs(%y : memref<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// Not split: an output filled with a value the sum would count once per
// chunk; a row sum with enough rows (generalized only); a reduction too
// short to be worth a second kernel.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: memref.alloc
// CHECK: iterator_types = ["reduction", "reduction"]} ins(%arg0 : memref<4096x4096xf32>) outs(%arg1 : memref<f32>)
// CHECK: iterator_types = ["parallel", "reduction"]} ins(%arg0 : memref<4096x4096xf32>) outs(%arg2 : memref<4096xf32>)
// CHECK: iterator_types = ["reduction"]} ins(%arg3 : memref<64xf32>) outs(%arg1 : memref<f32>)
// CHECK-NOT: memref.alloc
func.func @unchanged(%x: memref<4096x4096xf32>, %y: memref<f32>, %rows: memref<4096xf32>, %short: memref<64xf32>) {
  %c1 = arith.constant 1.0 : f32
  %c0 = arith.constant 0.0 : f32
  linalg.fill ins(%c1 : f32) outs(%y : memref<f32>)
  linalg.reduce ins(%x : memref<4096x4096xf32>) outs(%y : memref<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.fill ins(%c0 : f32) outs(%rows : memref<4096xf32>)
  linalg.reduce ins(%x : memref<4096x4096xf32>) outs(%rows : memref<4096xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.fill ins(%c0 : f32) outs(%y : memref<f32>)
  linalg.reduce ins(%short : memref<64xf32>) outs(%y : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}
