// RUN: mlx-opt %s --convert-mlx-to-linalg --split-input-file | FileCheck %s

// Broadcasting operands are read through indexing maps; mixed dtypes are
// converted inside the body.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @add_broadcast
// CHECK-SAME:    (%[[X:.+]]: tensor<2x3xf32>, %[[B:.+]]: tensor<3xi32>)
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<2x3xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:      ins(%[[X]], %[[B]] : tensor<2x3xf32>, tensor<3xi32>) outs(%[[E]] : tensor<2x3xf32>)
// CHECK:           %[[C:.+]] = arith.sitofp %{{.+}} : i32 to f32
// CHECK:           arith.addf %{{.+}}, %[[C]] : f32
func.func @add_broadcast(%x: tensor<2x3xf32>, %b: tensor<3xi32>) -> tensor<2x3xf32> {
  %y = mlx.add %x, %b : tensor<2x3xf32>, tensor<3xi32>
  return %y : tensor<2x3xf32>
}

// -----

// Unsigned dtypes become signless storage; the comparison stays unsigned.
// CHECK-LABEL: func.func @less_unsigned
// CHECK-SAME:    (%{{.+}}: tensor<4xi8>, %{{.+}}: tensor<4xi8>) -> tensor<4xi1>
// CHECK:         arith.cmpi ult
func.func @less_unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xi1> {
  %y = mlx.less %a, %b : tensor<4xui8>, tensor<4xui8>
  return %y : tensor<4xi1>
}

// -----

// Python-style integer remainder: the sign follows the divisor, and a zero
// divisor cannot trap.
// CHECK-LABEL: func.func @remainder_int
// CHECK:         arith.select
// CHECK:         arith.remsi
// CHECK:         arith.addi
func.func @remainder_int(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %y = mlx.remainder %a, %b : tensor<4xi32>, tensor<4xi32>
  return %y : tensor<4xi32>
}

// -----

// sum of int8 accumulates in int32 (MLX's rule), from a filled zero.
// CHECK-LABEL: func.func @sum_int8
// CHECK:         %[[Z:.+]] = arith.constant 0 : i32
// CHECK:         %[[F:.+]] = linalg.fill ins(%[[Z]] : i32)
// CHECK:         linalg.reduce ins(%{{.+}} : tensor<2x3xi8>) outs(%[[F]] : tensor<2xi32>) dimensions = [1]
// CHECK:           arith.extsi
// CHECK:           arith.addi
// CHECK:         tensor.expand_shape {{.+}} into tensor<2x1xi32>
func.func @sum_int8(%x: tensor<2x3xi8>) -> tensor<2x1xi32> {
  %y = mlx.sum %x {axes = array<i64: 1>, keepdims = true} : tensor<2x3xi8>
  return %y : tensor<2x1xi32>
}

// -----

// bfloat16 max accumulates in float32 and rounds once.
// CHECK-LABEL: func.func @max_bf16
// CHECK:         linalg.reduce ins(%{{.+}} : tensor<8xbf16>) outs(%{{.+}} : tensor<f32>)
// CHECK:         arith.truncf %{{.+}} : f32 to bf16
func.func @max_bf16(%x: tensor<8xbf16>) -> tensor<bf16> {
  %y = mlx.max %x : tensor<8xbf16>
  return %y : tensor<bf16>
}

// -----

// argmax is two reductions that threads can split: the maximum, then the
// least index holding it (or holding a NaN; 5 where an element does not),
// through a map of candidate indices.
// CHECK-LABEL: func.func @argmax
// CHECK:         %[[MAX:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%{{.+}} : tensor<2x5xf32>) outs(%{{.+}} : tensor<2xf32>)
// CHECK:         %[[CANDIDATES:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%{{.+}}, %[[MAX]] : tensor<2x5xf32>, tensor<2xf32>)
// CHECK-DAG:       arith.cmpf oeq
// CHECK-DAG:       arith.cmpf uno
// CHECK-DAG:       linalg.index 1
// CHECK-DAG:       arith.constant 5 : i32
// CHECK:           arith.select
// CHECK:         linalg.fill ins(%{{.+}} : i32)
// CHECK:         linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[CANDIDATES]] : tensor<2x5xi32>)
// CHECK:           arith.minsi
// CHECK:         -> tensor<2xi32>
func.func @argmax(%x: tensor<2x5xf32>) -> tensor<2xui32> {
  %y = mlx.argmax %x {axis = 1 : i64} : tensor<2x5xf32>
  return %y : tensor<2xui32>
}

// -----

// CHECK-LABEL: func.func @cumsum_reverse
// CHECK:         scf.for
// CHECK:           tensor.extract_slice
// CHECK:           arith.addf
// CHECK:           tensor.insert_slice
func.func @cumsum_reverse(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %y = mlx.cumsum %x {axis = 0 : i64, reverse = true} : tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @layout
// CHECK:         linalg.transpose ins(%{{.+}} : tensor<2x3x4xf32>) outs(%{{.+}} : tensor<4x2x3xf32>) permutation = [2, 0, 1]
// CHECK:         tensor.collapse_shape
// CHECK:         tensor.expand_shape {{.+}} into tensor<4x6xf32>
// CHECK:         tensor.extract_slice %{{.+}}[0, 1] [4, 2] [1, 2]
func.func @layout(%x: tensor<2x3x4xf32>) -> tensor<4x2xf32> {
  %t = mlx.transpose %x {axes = array<i64: 2, 0, 1>} : tensor<2x3x4xf32>
  %r = mlx.reshape %t {shape = array<i64: 4, -1>} : tensor<4x2x3xf32>
  %s = mlx.slice %r {start = array<i64: 0, 1>, stop = array<i64: 4, 5>, strides = array<i64: 1, 2>} : tensor<4x6xf32>
  return %s : tensor<4x2xf32>
}

// -----

// A gather reads the source with tensor.extract at wrapped, clamped indices.
// CHECK-LABEL: func.func @embedding
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}} : tensor<3xi32>)
// CHECK:           arith.index_cast
// CHECK:           arith.minsi
// CHECK:           tensor.extract
func.func @embedding(%table: tensor<10x4xf32>, %ids: tensor<3xi32>) -> tensor<3x1x4xf32> {
  %e = mlx.gather %table[%ids] {axes = array<i64: 0>, slice_sizes = array<i64: 1, 4>} : tensor<10x4xf32>[tensor<3xi32>]
  return %e : tensor<3x1x4xf32>
}

// -----

// bf16 products accumulate in float32.
// CHECK-LABEL: func.func @matmul_bf16
// CHECK:         linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<1x4x8xbf16>, tensor<1x8x16xbf16>) outs(%{{.+}} : tensor<1x4x16xf32>)
// CHECK:         arith.truncf
func.func @matmul_bf16(%a: tensor<4x8xbf16>, %b: tensor<8x16xbf16>) -> tensor<4x16xbf16> {
  %y = mlx.matmul %a, %b : tensor<4x8xbf16>, tensor<8x16xbf16>
  return %y : tensor<4x16xbf16>
}

// -----

// A right-hand side without batch axes (or only axes of 1): the batch folds
// into the rows (one
// 6 x 16 product, no copy of %b per batch). With batch axes on both sides
// the product stays batched.
// CHECK-LABEL: func.func @matmul_fold_batch
// CHECK:         linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<1x6x8xf32>, tensor<1x8x16xf32>) outs(%{{.+}} : tensor<1x6x16xf32>)
// CHECK:         tensor.expand_shape {{.+}} into tensor<2x3x16xf32>
// CHECK:         linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<2x3x8xf32>, tensor<2x8x16xf32>) outs(%{{.+}} : tensor<2x3x16xf32>)
func.func @matmul_fold_batch(%a: tensor<2x3x8xf32>, %b: tensor<1x8x16xf32>, %c: tensor<2x8x16xf32>) -> (tensor<2x3x16xf32>, tensor<2x3x16xf32>) {
  %y = mlx.matmul %a, %b : tensor<2x3x8xf32>, tensor<1x8x16xf32>
  %z = mlx.matmul %a, %c : tensor<2x3x8xf32>, tensor<2x8x16xf32>
  return %y, %z : tensor<2x3x16xf32>, tensor<2x3x16xf32>
}

// -----

// searchsorted: one reduction over the sequence, counting in MLX's sort
// order (NaN last); right counts the elements the value is not before.
// CHECK-LABEL: func.func @searchsorted(
// CHECK:       linalg.fill {{.*}} -> tensor<2x3xi32>
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%arg0, %arg1 : tensor<8xf32>, tensor<2x3xf32>)
// CHECK:         arith.cmpf olt, %[[V:.+]], %[[S:[^ ]+]] : f32
// CHECK:         arith.cmpf uno
// CHECK:         arith.extui {{.*}} : i1 to i32
// CHECK:         arith.addi
// CHECK-NOT:   linalg.generic
// CHECK:       return
func.func @searchsorted(%s: tensor<8xf32>, %v: tensor<2x3xf32>) -> tensor<2x3xui32> {
  %0 = mlx.searchsorted %s, %v {right = true} : tensor<8xf32>, tensor<2x3xf32>
  return %0 : tensor<2x3xui32>
}

// -----

// hadamard_transform of 48 = 12 * 4: two butterfly stages (partners 1 and
// 2 apart, each rounded to bf16), then the order-12 part over a sign table,
// scaled and rounded once.
// CHECK-LABEL: func.func @hadamard(
// CHECK:       %[[S1:.+]] = linalg.generic
// CHECK:         arith.constant 1 : index
// CHECK:         tensor.extract %arg0
// CHECK:         arith.truncf {{.*}} : f32 to bf16
// CHECK:       %[[S2:.+]] = linalg.generic
// CHECK:         arith.constant 2 : index
// CHECK:         tensor.extract %[[S1]]
// CHECK:         arith.truncf {{.*}} : f32 to bf16
// CHECK:       %[[SIGNS:.+]] = arith.constant dense<{{.*}}> : tensor<12x12xf32>
// CHECK:       linalg.generic
// CHECK-COUNT-12: tensor.extract %[[S2]]
// CHECK:         arith.constant 2.500000e-01 : f32
// CHECK:         arith.truncf {{.*}} : f32 to bf16
func.func @hadamard(%x: tensor<2x48xbf16>) -> tensor<2x48xbf16> {
  %0 = mlx.hadamard_transform %x {scale = 0.25 : f32} : tensor<2x48xbf16>
  return %0 : tensor<2x48xbf16>
}

// -----

// A 0-d array is a last axis of 1: no butterfly stage, only the scale.
// CHECK-LABEL: func.func @hadamard_scalar(
// CHECK:       linalg.generic
// CHECK-NOT:     tensor.extract
// CHECK:         arith.constant 5.000000e-01 : f32
// CHECK:         arith.mulf
// CHECK-NOT:   linalg.generic
// CHECK:       return
func.func @hadamard_scalar(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlx.hadamard_transform %x {scale = 0.5 : f32} : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// The inverse of an upper triangular matrix: scalar loops over the
// matrices, columns and rows (the transpose's lower inverse: reads swap the
// indices) on a zero-filled result whose lower triangle stays zero.
// CHECK-LABEL: func.func @inverse_upper(
// CHECK-SAME:    %[[A:.+]]: tensor<3x3xf32>)
// CHECK:         %[[M:.+]] = tensor.expand_shape %{{.+}} output_shape [1, 3, 3]
// CHECK:         %[[Z:.+]] = linalg.fill
// CHECK:         scf.for %[[B:.+]] = %{{.+}} iter_args(%{{.+}} = %[[Z]])
// CHECK:           scf.for %[[C:.+]] = %{{.+}} to %{{.+}} step
// CHECK:             %[[D:.+]] = tensor.extract %[[M]][%[[B]], %[[C]], %[[C]]]
// CHECK:             arith.divf %{{.+}}, %[[D]] : f32
// CHECK:             scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step
// CHECK:               scf.for %[[K:.+]] = %[[C]] to %[[I]] step %{{.+}} iter_args(%{{.+}} = %{{.+}}) -> (f32)
// CHECK-DAG:             tensor.extract %[[M]][%[[B]], %[[K]], %[[I]]]
// CHECK-DAG:             tensor.extract %{{.+}}[%[[B]], %[[C]], %[[K]]]
// CHECK:               tensor.insert %{{.+}} into %{{.+}}[%[[B]], %[[C]], %[[I]]]
// CHECK:         tensor.expand_shape %{{.+}} output_shape [3, 3]
func.func @inverse_upper(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0 = mlx.inverse %a {tri = true, upper = true} : tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// The general inverse carries the LU factors, the row order and the result
// through the loop over matrices; cholesky one zero-filled result.
// CHECK-LABEL: func.func @inverse_and_cholesky(
// CHECK:         scf.for %{{.+}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (tensor<2x4x4xf64>, tensor<4xindex>, tensor<2x4x4xf64>)
// CHECK:           arith.cmpf ogt
// CHECK:         linalg.fill
// CHECK:         scf.for
// CHECK:           math.sqrt %{{.+}} : f64
func.func @inverse_and_cholesky(%a: tensor<2x4x4xf64>) -> (tensor<2x4x4xf64>, tensor<2x4x4xf64>) {
  %0 = mlx.inverse %a : tensor<2x4x4xf64>
  %1 = mlx.cholesky %a : tensor<2x4x4xf64>
  return %0, %1 : tensor<2x4x4xf64>, tensor<2x4x4xf64>
}

// -----

// eigvalsh: the symmetric matrix from the chosen triangle, a fixed number of
// cyclic Jacobi sweeps (8 + ceil(log2 3) for float32), then the diagonal
// sorted ascending by adjacent exchanges.
// CHECK-LABEL: func.func @eigvalsh(
// CHECK:         arith.cmpi uge
// CHECK:         %[[SWEEPS:.+]] = arith.constant 10 : index
// CHECK:         scf.for %{{.+}} = %{{.+}} to %[[SWEEPS]] step
// CHECK:           math.copysign
// CHECK:         arith.cmpf ogt
// CHECK:         tensor.collapse_shape %{{.+}} {{\[\[}}0, 1]] : tensor<1x3xf32> into tensor<3xf32>
func.func @eigvalsh(%a: tensor<3x3xf32>) -> tensor<3xf32> {
  %0 = mlx.eigvalsh %a {upper = true} : tensor<3x3xf32>
  return %0 : tensor<3xf32>
}
