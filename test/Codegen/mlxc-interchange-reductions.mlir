// RUN: mlx-opt %s --mlxc-interchange-reductions | FileCheck %s

// A column sum (reduction over the leading axis): the parallel column loop
// comes first, the rows' reduction after it, in order.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[IN3:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG: #[[OUT3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @column_sum
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME: ins(%arg0 : memref<64x32xf32>) outs(%arg1 : memref<32xf32>)
// CHECK: arith.addf
func.func @column_sum(%x: memref<64x32xf32>, %y: memref<32xf32>) {
  linalg.reduce ins(%x : memref<64x32xf32>) outs(%y : memref<32xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// Row sums lead with their parallel loop already; a sum to a scalar has none
// to lead with: both stay as they are.
// CHECK-LABEL: func.func @unchanged
// CHECK: linalg.reduce
// CHECK: dimensions = [1]
// CHECK: linalg.reduce
// CHECK: dimensions = [0, 1]
func.func @unchanged(%x: memref<64x32xf32>, %rows: memref<64xf32>, %all: memref<f32>) {
  linalg.reduce ins(%x : memref<64x32xf32>) outs(%rows : memref<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%x : memref<64x32xf32>) outs(%all : memref<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// A middle axis of three: [a, r, b] -> loops (a, b, r).
// CHECK-LABEL: func.func @middle_axis
// CHECK: linalg.generic {indexing_maps = [#[[IN3]], #[[OUT3]]], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @middle_axis(%x: memref<4x8x16xf32>, %y: memref<4x16xf32>) {
  linalg.reduce ins(%x : memref<4x8x16xf32>) outs(%y : memref<4x16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.maximumf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}
