// RUN: mlx-opt %s --split-input-file --mlxc-map-row-reductions | FileCheck %s

// A row sum: blocks of 8 warps (grid of ceil(10 / 8) = 2), lane l reads
// elements l, l + 32, ... of its row; five xor shuffles merge the warp's
// partials, and lane 0 adds the total to the output element.
// CHECK-LABEL: func.func @row_sum(
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK:         scf.parallel (%[[B:.+]]) = (%{{.+}}) to (%[[C2]]) {{.+}} {
// CHECK:           scf.parallel (%[[LANE:.+]], %[[WARP:.+]]) = {{.+}} to (%c32, %c8)
// CHECK:             scf.if
// CHECK:               memref.load %arg0
// CHECK:             scf.for {{.+}} = {{.+}} to {{.+}} step %c32{{.*}} iter_args
// CHECK:               memref.load %arg0
// CHECK:               arith.addf
// CHECK-COUNT-10:    gpu.shuffle  xor
// CHECK:             scf.if
// CHECK:               %[[OLD:.+]] = memref.load %arg1
// CHECK:               %[[NEW:.+]] = arith.addf %[[OLD]],
// CHECK:               memref.store %[[NEW]], %arg1
// CHECK:         } {mlx.row_reduction}
// CHECK-NOT:     linalg.generic
func.func @row_sum(%x: memref<10x100xf32>, %y: memref<10xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<10x100xf32>) outs(%y : memref<10xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// MLX's max (NaN wins) is a compare-and-select combiner; the element value
// (exp of the input) is computed per element before it.
// CHECK-LABEL: func.func @row_max_of_exp(
// CHECK:         scf.for
// CHECK:           math.exp
// CHECK:           arith.cmpf uno
// CHECK:           arith.select
// CHECK:         gpu.shuffle  xor
// CHECK:       } {mlx.row_reduction}
func.func @row_max_of_exp(%x: memref<4x3x64xf32>, %y: memref<4x3x1xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<4x3x64xf32>) outs(%y : memref<4x3x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    %nan = arith.cmpf uno, %e, %e : f32
    %gt = arith.cmpf ogt, %e, %out : f32
    %take = arith.ori %nan, %gt : i1
    %m = arith.select %take, %e, %out : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Left alone: a column reduction (one thread per column is coalesced), an
// i16 accumulator (the warp shuffle moves 32 bits; only f16/bf16 are
// widened), and a combiner that is not an associative merge.
// CHECK-LABEL: func.func @not_rows(
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT:     gpu.shuffle
func.func @not_rows(%x: memref<10x100xf32>, %c: memref<100xf32>,
                    %h: memref<10x100xi16>, %hy: memref<10xi16>,
                    %y: memref<10xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<10x100xf32>) outs(%c : memref<100xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%h : memref<10x100xi16>) outs(%hy : memref<10xi16>) {
  ^bb0(%in: i16, %out: i16):
    %s = arith.addi %out, %in : i16
    linalg.yield %s : i16
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<10x100xf32>) outs(%y : memref<10xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.subf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A bf16 sum: the partials are added in bf16 as the graph says, and cross
// lanes as f32 (exact both ways).
// CHECK-LABEL: func.func @bf16_sum(
// CHECK: arith.addf {{.*}} : bf16
// CHECK: %[[WIDE:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK: %[[OTHER:.*]], %{{.*}} = gpu.shuffle xor %[[WIDE]]
// CHECK: arith.truncf %[[OTHER]] : f32 to bf16
// CHECK: } {mlx.row_reduction}
// CHECK-NOT: linalg.generic
func.func @bf16_sum(%x: memref<10x100xbf16>, %y: memref<10xbf16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<10x100xbf16>) outs(%y : memref<10xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %s = arith.addf %out, %in : bf16
    linalg.yield %s : bf16
  }
  return
}

// -----

// The output's constant fill right before the reduction folds into the
// stores: every output element (keepdims: a unit axis) is one row's, so lane
// 0 combines its total with the constant and no fill kernel remains.
// CHECK-LABEL: func.func @row_sum_filled(
// CHECK-NOT:     linalg.fill
// CHECK:         scf.parallel
// CHECK:             scf.if
// CHECK-NOT:           memref.load %arg1
// CHECK:               %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:               %[[NEW:.+]] = arith.addf %[[ZERO]],
// CHECK:               memref.store %[[NEW]], %arg1
// CHECK:         } {mlx.row_reduction}
func.func @row_sum_filled(%x: memref<10x100xf32>, %y: memref<10x1xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<10x1xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<10x100xf32>) outs(%y : memref<10x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A fill of a wider output than the rows write stays.
// CHECK-LABEL: func.func @row_sum_partly_filled(
// CHECK:         linalg.fill
// CHECK:         memref.load %arg1
func.func @row_sum_partly_filled(%x: memref<10x100xf32>, %y: memref<10x2xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<10x2xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<10x100xf32>) outs(%y : memref<10x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}
