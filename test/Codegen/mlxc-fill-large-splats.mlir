// RUN: mlx-opt %s --split-input-file --mlxc-fill-large-splats | FileCheck %s

// A splat of more than 4096 elements becomes a fill of an empty tensor: the
// program stores one value.
// CHECK-LABEL: func.func @large
// CHECK-NOT: arith.constant dense<1.500000e+00> : tensor<64x65xf32>
// CHECK: %[[V:.*]] = arith.constant 1.500000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<64x65xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[V]] : f32) outs(%[[E]] : tensor<64x65xf32>)
// CHECK: return %[[F]]
func.func @large() -> tensor<64x65xf32> {
  %c = arith.constant dense<1.5> : tensor<64x65xf32>
  return %c : tensor<64x65xf32>
}

// -----

// 4096 elements or fewer stay a constant, as do splats that are not
// tensors of numbers the fill can make.
// CHECK-LABEL: func.func @small
// CHECK: arith.constant dense<2.000000e+00> : tensor<64x64xf32>
// CHECK-NOT: linalg.fill
func.func @small() -> tensor<64x64xf32> {
  %c = arith.constant dense<2.0> : tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// -----

// A constant that is not a splat stays whatever its size.
// CHECK-LABEL: func.func @dense
// CHECK: arith.constant dense<{{\[}}
// CHECK-NOT: linalg.fill
func.func @dense() -> tensor<2x4097xi8> {
  %c = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>
  %e = tensor.empty() : tensor<2x4097xi8>
  %r = tensor.insert_slice %c into %e[0, 0] [2, 2] [1, 1] : tensor<2x2xi8> into tensor<2x4097xi8>
  return %r : tensor<2x4097xi8>
}
