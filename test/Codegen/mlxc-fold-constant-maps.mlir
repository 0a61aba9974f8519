// RUN: mlx-opt %s --split-input-file --mlxc-fold-constant-maps | FileCheck %s

// An arange scaled and shifted: computed at compile time.
// CHECK-LABEL: func.func @arange
// CHECK-NOT: linalg.generic
// CHECK: %[[C:.*]] = arith.constant dense<[1.000000e+00, 3.000000e+00, 5.000000e+00, 7.000000e+00]> : tensor<4xf32>
// CHECK: return %[[C]]
func.func @arange() -> tensor<4xf32> {
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]} outs(%e : tensor<4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %f = arith.sitofp %i64 : i64 to f32
    %s = arith.mulf %f, %two : f32
    %t = arith.addf %s, %one : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// RoPE's inverse frequencies (math.exp folds), and a causal mask of 2 x 3
// (a second result, written transposed).
// CHECK-LABEL: func.func @frequencies_and_mask
// CHECK-NOT: linalg.generic
// CHECK-DAG: arith.constant dense<[1.000000e+00, 0.36787945{{[0-9]*}}]> : tensor<2xf32>
// CHECK-DAG: arith.constant dense<{{\[}}[true, false], [true, true], [true, true]]> : tensor<3x2xi1>
func.func @frequencies_and_mask() -> (tensor<2xf32>, tensor<3x2xi1>) {
  %e = tensor.empty() : tensor<2xf32>
  %f = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]} outs(%e : tensor<2xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %i32 = arith.index_cast %i : index to i32
    %x = arith.sitofp %i32 : i32 to f32
    %n = arith.negf %x : f32
    %y = math.exp %n : f32
    linalg.yield %y : f32
  } -> tensor<2xf32>
  %m = tensor.empty() : tensor<3x2xi1>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>],
                          iterator_types = ["parallel", "parallel"]}
      outs(%m : tensor<3x2xi1>) {
  ^bb0(%out: i1):
    %q = linalg.index 0 : index
    %k = linalg.index 1 : index
    %keep = arith.cmpi ule, %q, %k : index
    linalg.yield %keep : i1
  } -> tensor<3x2xi1>
  return %f, %mask : tensor<2xf32>, tensor<3x2xi1>
}

// -----

// A constant input read through a broadcast.
// CHECK-LABEL: func.func @constant_input
// CHECK-NOT: linalg.generic
// CHECK: arith.constant dense<{{\[}}[2.000000e+00, 3.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
func.func @constant_input() -> tensor<2x2xf32> {
  %c = arith.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<2xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %f = arith.sitofp %i64 : i64 to f32
    %s = arith.addf %in, %f : f32
    linalg.yield %s : f32
  } -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// -----

// Not folded: a map that reads an argument, one that reads its output's
// initial value, and one of more than 4096 points.
// CHECK-LABEL: func.func @kept
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK-NOT: arith.constant dense
func.func @kept(%x: tensor<4xf32>, %init: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4097xf32>) {
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                        affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]} outs(%init : tensor<4xf32>) {
  ^bb0(%out: f32):
    %n = arith.negf %out : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4097xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]} outs(%e : tensor<4097xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %f = arith.sitofp %i64 : i64 to f32
    linalg.yield %f : f32
  } -> tensor<4097xf32>
  return %a, %b, %c : tensor<4xf32>, tensor<4xf32>, tensor<4097xf32>
}
