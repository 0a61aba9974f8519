// RUN: mlx-opt %s --mlx-raise-attention --split-input-file | FileCheck %s

// MLX's causal fallback, as mx.export_function writes it on the CPU, is one
// attention again: the scale comes from the multiply, the mask is causal.
// CHECK-LABEL: func.func @causal
// CHECK-NEXT: %[[O:.*]] = mlx.scaled_dot_product_attention %arg0, %arg1, %arg2 {causal = true, scale = 1.250000e-01 : f32}
// CHECK-NEXT: return %[[O]]
func.func @causal(%q: tensor<1x2x64x64xbf16>, %k: tensor<1x2x64x64xbf16>, %v: tensor<1x2x64x64xbf16>) -> tensor<1x2x64x64xbf16> {
  %0 = mlx.arange {start = 0.000000e+00 : f64, stop = 6.400000e+01 : f64} : tensor<64xi32>
  %1 = mlx.expand_dims %0 {axes = array<i64: 1>} : tensor<64xi32>
  %2 = mlx.broadcast_to %1 {shape = array<i64: 64, 64>} : tensor<64x1xi32>
  %3 = mlx.arange {start = 0.000000e+00 : f64, stop = 6.400000e+01 : f64} : tensor<64xi32>
  %4 = mlx.expand_dims %3 {axes = array<i64: 0>} : tensor<64xi32>
  %5 = mlx.broadcast_to %4 {shape = array<i64: 64, 64>} : tensor<1x64xi32>
  %6 = mlx.greater_equal %2, %5 : tensor<64x64xi32>, tensor<64x64xi32>
  %7 = mlx.broadcast_to %6 {shape = array<i64: 1, 2, 64, 64>} : tensor<64x64xi1>
  %8 = mlx.constant dense<1.250000e-01> : tensor<bf16>
  %9 = mlx.broadcast_to %8 {shape = array<i64: 1, 2, 64, 64>} : tensor<bf16>
  %10 = mlx.multiply %9, %q : tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>
  %11 = mlx.transpose %k {axes = array<i64: 0, 1, 3, 2>} : tensor<1x2x64x64xbf16>
  %12 = mlx.matmul %10, %11 : tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>
  %13 = mlx.constant dense<-3.389530e+38> : tensor<bf16>
  %14 = mlx.broadcast_to %13 {shape = array<i64: 1, 2, 64, 64>} : tensor<bf16>
  %15 = mlx.select %7, %12, %14 : tensor<1x2x64x64xi1>, tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>
  %16 = mlx.softmax %15 {axes = array<i64: 3>, precise = true} : tensor<1x2x64x64xbf16>
  %17 = mlx.matmul %16, %v : tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>
  return %17 : tensor<1x2x64x64xbf16>
}

// -----

// Without a mask, with the scale on the right, over more keys than queries.
// CHECK-LABEL: func.func @unmasked
// CHECK-NEXT: mlx.scaled_dot_product_attention %arg0, %arg1, %arg2 {scale = 5.000000e-01 : f32}
func.func @unmasked(%q: tensor<2x4x64x128xf16>, %k: tensor<2x4x128x128xf16>, %v: tensor<2x4x128x64xf16>) -> tensor<2x4x64x64xf16> {
  %c = mlx.constant dense<5.000000e-01> : tensor<f16>
  %s = mlx.multiply %q, %c : tensor<2x4x64x128xf16>, tensor<f16>
  %kt = mlx.transpose %k {axes = array<i64: 0, 1, 3, 2>} : tensor<2x4x128x128xf16>
  %qk = mlx.matmul %s, %kt : tensor<2x4x64x128xf16>, tensor<2x4x128x128xf16>
  %p = mlx.softmax %qk {axes = array<i64: -1>, precise = true} : tensor<2x4x64x128xf16>
  %o = mlx.matmul %p, %v : tensor<2x4x64x128xf16>, tensor<2x4x128x64xf16>
  return %o : tensor<2x4x64x64xf16>
}

// -----

// The probabilities are also an output: nothing is raised.
// CHECK-LABEL: func.func @probabilities_used
// CHECK-NOT: scaled_dot_product_attention
// CHECK: mlx.softmax
func.func @probabilities_used(%q: tensor<1x2x64x64xbf16>, %k: tensor<1x2x64x64xbf16>, %v: tensor<1x2x64x64xbf16>) -> (tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>) {
  %kt = mlx.transpose %k {axes = array<i64: 0, 1, 3, 2>} : tensor<1x2x64x64xbf16>
  %qk = mlx.matmul %q, %kt : tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>
  %p = mlx.softmax %qk {axes = array<i64: -1>, precise = true} : tensor<1x2x64x64xbf16>
  %o = mlx.matmul %p, %v : tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>
  return %o, %p : tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>
}

// -----

// Shapes no flash-attention kernel takes stay as they are: f32, 3 queries
// (not a whole 64-row tile), and a mask that is not causal (the rows'
// range starts at 1).
// CHECK-LABEL: func.func @not_raised
// CHECK-NOT: scaled_dot_product_attention
// CHECK: return
func.func @not_raised(%q: tensor<1x2x64x64xf32>, %k: tensor<1x2x64x64xf32>, %v: tensor<1x2x64x64xf32>,
                      %q3: tensor<1x2x3x64xbf16>, %k3: tensor<1x2x64x64xbf16>, %v3: tensor<1x2x64x64xbf16>,
                      %qb: tensor<1x2x64x64xbf16>) -> (tensor<1x2x64x64xf32>, tensor<1x2x3x64xbf16>, tensor<1x2x64x64xbf16>) {
  %kt = mlx.transpose %k {axes = array<i64: 0, 1, 3, 2>} : tensor<1x2x64x64xf32>
  %qk = mlx.matmul %q, %kt : tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>
  %p = mlx.softmax %qk {axes = array<i64: -1>, precise = true} : tensor<1x2x64x64xf32>
  %o = mlx.matmul %p, %v : tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>
  %kt3 = mlx.transpose %k3 {axes = array<i64: 0, 1, 3, 2>} : tensor<1x2x64x64xbf16>
  %qk3 = mlx.matmul %q3, %kt3 : tensor<1x2x3x64xbf16>, tensor<1x2x64x64xbf16>
  %p3 = mlx.softmax %qk3 {axes = array<i64: -1>, precise = true} : tensor<1x2x3x64xbf16>
  %o3 = mlx.matmul %p3, %v3 : tensor<1x2x3x64xbf16>, tensor<1x2x64x64xbf16>
  %r = mlx.arange {start = 1.000000e+00 : f64, stop = 6.500000e+01 : f64} : tensor<64xi32>
  %r1 = mlx.expand_dims %r {axes = array<i64: 1>} : tensor<64xi32>
  %c = mlx.arange {start = 0.000000e+00 : f64, stop = 6.400000e+01 : f64} : tensor<64xi32>
  %c1 = mlx.expand_dims %c {axes = array<i64: 0>} : tensor<64xi32>
  %m = mlx.greater_equal %r1, %c1 : tensor<64x1xi32>, tensor<1x64xi32>
  %lo = mlx.constant dense<-3.389530e+38> : tensor<bf16>
  %ktb = mlx.transpose %k3 {axes = array<i64: 0, 1, 3, 2>} : tensor<1x2x64x64xbf16>
  %qkb = mlx.matmul %qb, %ktb : tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>
  %sel = mlx.select %m, %qkb, %lo : tensor<64x64xi1>, tensor<1x2x64x64xbf16>, tensor<bf16>
  %pb = mlx.softmax %sel {axes = array<i64: -1>, precise = true} : tensor<1x2x64x64xbf16>
  %ob = mlx.matmul %pb, %v3 : tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>
  return %o, %o3, %ob : tensor<1x2x64x64xf32>, tensor<1x2x3x64xbf16>, tensor<1x2x64x64xbf16>
}

// -----

// The grouped-query fallback: q's heads split into [Hkv, G], k and v seen
// with a group axis, the result's heads flattened back.
// CHECK-LABEL: func.func @grouped
// CHECK: %[[O:.*]] = mlx.scaled_dot_product_attention %arg0, %arg1, %arg2 {causal = true, scale = 1.250000e-01 : f32} : tensor<1x4x64x64xbf16>, tensor<1x2x128x64xbf16>, tensor<1x2x128x64xbf16>
// CHECK-NEXT: return %[[O]]
func.func @grouped(%q: tensor<1x4x64x64xbf16>, %k: tensor<1x2x128x64xbf16>, %v: tensor<1x2x128x64xbf16>) -> tensor<1x4x64x64xbf16> {
  %0 = mlx.arange {start = 6.400000e+01 : f64, stop = 1.280000e+02 : f64} : tensor<64xi32>
  %1 = mlx.expand_dims %0 {axes = array<i64: 1>} : tensor<64xi32>
  %2 = mlx.broadcast_to %1 {shape = array<i64: 64, 128>} : tensor<64x1xi32>
  %3 = mlx.arange {start = 0.000000e+00 : f64, stop = 1.280000e+02 : f64} : tensor<128xi32>
  %4 = mlx.expand_dims %3 {axes = array<i64: 0>} : tensor<128xi32>
  %5 = mlx.broadcast_to %4 {shape = array<i64: 64, 128>} : tensor<1x128xi32>
  %6 = mlx.greater_equal %2, %5 : tensor<64x128xi32>, tensor<64x128xi32>
  %7 = mlx.broadcast_to %6 {shape = array<i64: 1, 2, 2, 64, 128>} : tensor<64x128xi1>
  %8 = mlx.constant dense<1.250000e-01> : tensor<bf16>
  %9 = mlx.broadcast_to %8 {shape = array<i64: 1, 4, 64, 64>} : tensor<bf16>
  %10 = mlx.multiply %9, %q : tensor<1x4x64x64xbf16>, tensor<1x4x64x64xbf16>
  %11 = mlx.unflatten %10 {axis = 1 : i64, shape = array<i64: 2, 2>} : tensor<1x4x64x64xbf16>
  %12 = mlx.expand_dims %k {axes = array<i64: 2>} : tensor<1x2x128x64xbf16>
  %13 = mlx.transpose %12 {axes = array<i64: 0, 1, 2, 4, 3>} : tensor<1x2x1x128x64xbf16>
  %14 = mlx.broadcast_to %13 {shape = array<i64: 1, 2, 2, 64, 128>} : tensor<1x2x1x64x128xbf16>
  %15 = mlx.matmul %11, %14 : tensor<1x2x2x64x64xbf16>, tensor<1x2x2x64x128xbf16>
  %16 = mlx.constant dense<-3.389530e+38> : tensor<bf16>
  %17 = mlx.broadcast_to %16 {shape = array<i64: 1, 2, 2, 64, 128>} : tensor<bf16>
  %18 = mlx.select %7, %15, %17 : tensor<1x2x2x64x128xi1>, tensor<1x2x2x64x128xbf16>, tensor<1x2x2x64x128xbf16>
  %19 = mlx.softmax %18 {axes = array<i64: 4>, precise = true} : tensor<1x2x2x64x128xbf16>
  %20 = mlx.expand_dims %v {axes = array<i64: 2>} : tensor<1x2x128x64xbf16>
  %21 = mlx.broadcast_to %20 {shape = array<i64: 1, 2, 2, 128, 64>} : tensor<1x2x1x128x64xbf16>
  %22 = mlx.matmul %19, %21 : tensor<1x2x2x64x128xbf16>, tensor<1x2x2x128x64xbf16>
  %23 = mlx.flatten %22 {end_axis = 2 : i64, start_axis = 1 : i64} : tensor<1x2x2x64x64xbf16>
  return %23 : tensor<1x4x64x64xbf16>
}
