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

// A prompt's length (100 queries over 130 keys, no multiple of the 64-row
// tiles), masked by a boolean [L, S] array: the flash-attention kernel
// takes it (its last tiles are partial), so it is raised.
// CHECK-LABEL: func.func @ragged
// CHECK-NEXT: %[[M:.*]] = mlx.reshape %arg3 {shape = array<i64: 1, 1, 100, 130>}
// CHECK-NEXT: %[[O:.*]] = mlx.scaled_dot_product_attention %arg0, %arg1, %arg2 mask(%[[M]] : tensor<1x1x100x130xi1>) {scale = 5.000000e-01 : f32}
// CHECK-NEXT: return %[[O]]
func.func @ragged(%q: tensor<1x2x100x64xbf16>, %k: tensor<1x2x130x64xbf16>, %v: tensor<1x2x130x64xbf16>, %m: tensor<100x130xi1>) -> tensor<1x2x100x64xbf16> {
  %c = mlx.constant dense<5.000000e-01> : tensor<bf16>
  %s = mlx.multiply %q, %c : tensor<1x2x100x64xbf16>, tensor<bf16>
  %kt = mlx.transpose %k {axes = array<i64: 0, 1, 3, 2>} : tensor<1x2x130x64xbf16>
  %qk = mlx.matmul %s, %kt : tensor<1x2x100x64xbf16>, tensor<1x2x64x130xbf16>
  %low = mlx.constant dense<-3.389530e+38> : tensor<bf16>
  %lows = mlx.broadcast_to %low {shape = array<i64: 1, 2, 100, 130>} : tensor<bf16>
  %mb = mlx.broadcast_to %m {shape = array<i64: 1, 2, 100, 130>} : tensor<100x130xi1>
  %sel = mlx.select %mb, %qk, %lows : tensor<1x2x100x130xi1>, tensor<1x2x100x130xbf16>, tensor<1x2x100x130xbf16>
  %p = mlx.softmax %sel {axes = array<i64: -1>, precise = true} : tensor<1x2x100x130xbf16>
  %o = mlx.matmul %p, %v : tensor<1x2x100x130xbf16>, tensor<1x2x130x64xbf16>
  return %o : tensor<1x2x100x64xbf16>
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

// Shapes no kernel takes stay as they are: f32 with 64 queries (no
// flash-attention kernel; too many for the split-key one), 3 queries of head
// dim 48 (not a power of two of 16-byte groups), and 64 queries with a mask
// that is not causal (the rows' range starts at 1).
// CHECK-LABEL: func.func @not_raised
// CHECK-NOT: scaled_dot_product_attention
// CHECK: return
func.func @not_raised(%q: tensor<1x2x64x64xf32>, %k: tensor<1x2x64x64xf32>, %v: tensor<1x2x64x64xf32>,
                      %q3: tensor<1x2x3x48xbf16>, %k3: tensor<1x2x64x48xbf16>, %v3: tensor<1x2x64x48xbf16>,
                      %qb: tensor<1x2x64x48xbf16>) -> (tensor<1x2x64x64xf32>, tensor<1x2x3x48xbf16>, tensor<1x2x64x48xbf16>) {
  %kt = mlx.transpose %k {axes = array<i64: 0, 1, 3, 2>} : tensor<1x2x64x64xf32>
  %qk = mlx.matmul %q, %kt : tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>
  %p = mlx.softmax %qk {axes = array<i64: -1>, precise = true} : tensor<1x2x64x64xf32>
  %o = mlx.matmul %p, %v : tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>
  %kt3 = mlx.transpose %k3 {axes = array<i64: 0, 1, 3, 2>} : tensor<1x2x64x48xbf16>
  %qk3 = mlx.matmul %q3, %kt3 : tensor<1x2x3x48xbf16>, tensor<1x2x48x64xbf16>
  %p3 = mlx.softmax %qk3 {axes = array<i64: -1>, precise = true} : tensor<1x2x3x64xbf16>
  %o3 = mlx.matmul %p3, %v3 : tensor<1x2x3x64xbf16>, tensor<1x2x64x48xbf16>
  %r = mlx.arange {start = 1.000000e+00 : f64, stop = 6.500000e+01 : f64} : tensor<64xi32>
  %r1 = mlx.expand_dims %r {axes = array<i64: 1>} : tensor<64xi32>
  %c = mlx.arange {start = 0.000000e+00 : f64, stop = 6.400000e+01 : f64} : tensor<64xi32>
  %c1 = mlx.expand_dims %c {axes = array<i64: 0>} : tensor<64xi32>
  %m = mlx.greater_equal %r1, %c1 : tensor<64x1xi32>, tensor<1x64xi32>
  %lo = mlx.constant dense<-3.389530e+38> : tensor<bf16>
  %ktb = mlx.transpose %k3 {axes = array<i64: 0, 1, 3, 2>} : tensor<1x2x64x48xbf16>
  %qkb = mlx.matmul %qb, %ktb : tensor<1x2x64x48xbf16>, tensor<1x2x48x64xbf16>
  %sel = mlx.select %m, %qkb, %lo : tensor<64x64xi1>, tensor<1x2x64x64xbf16>, tensor<bf16>
  %pb = mlx.softmax %sel {axes = array<i64: -1>, precise = true} : tensor<1x2x64x64xbf16>
  %ob = mlx.matmul %pb, %v3 : tensor<1x2x64x64xbf16>, tensor<1x2x64x48xbf16>
  return %o, %o3, %ob : tensor<1x2x64x64xf32>, tensor<1x2x3x48xbf16>, tensor<1x2x64x48xbf16>
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

// -----

// A decode step as MLX's CPU export writes it: one query against a cache
// whose keys up to `offset` are kept (a boolean mask broadcast over the
// heads). The mask comes in before its broadcast, as [1, 1, 1, S].
// CHECK-LABEL: func.func @decode_masked
// CHECK: %[[KEEP:.*]] = mlx.less_equal
// CHECK: %[[MASK:.*]] = mlx.reshape %[[KEEP]] {shape = array<i64: 1, 1, 1, 300>} : tensor<300xi1>
// CHECK: %[[O:.*]] = mlx.scaled_dot_product_attention %arg0, %arg1, %arg2 mask(%[[MASK]] : tensor<1x1x1x300xi1>) {scale = 0.0883789062 : f32}
// CHECK-NEXT: return %[[O]]
func.func @decode_masked(%q: tensor<1x4x1x128xbf16>, %k: tensor<1x4x300x128xbf16>, %v: tensor<1x4x300x128xbf16>, %offset: tensor<i32>) -> tensor<1x4x1x128xbf16> {
  %0 = mlx.arange {start = 0.000000e+00 : f64, stop = 3.000000e+02 : f64} : tensor<300xi32>
  %1 = mlx.broadcast_to %offset {shape = array<i64: 300>} : tensor<i32>
  %2 = mlx.less_equal %0, %1 : tensor<300xi32>, tensor<300xi32>
  %3 = mlx.broadcast_to %2 {shape = array<i64: 1, 4, 1, 300>} : tensor<300xi1>
  %4 = mlx.constant dense<8.837890e-02> : tensor<bf16>
  %5 = mlx.broadcast_to %4 {shape = array<i64: 1, 4, 1, 128>} : tensor<bf16>
  %6 = mlx.multiply %5, %q : tensor<1x4x1x128xbf16>, tensor<1x4x1x128xbf16>
  %7 = mlx.transpose %k {axes = array<i64: 0, 1, 3, 2>} : tensor<1x4x300x128xbf16>
  %8 = mlx.matmul %6, %7 : tensor<1x4x1x128xbf16>, tensor<1x4x128x300xbf16>
  %9 = mlx.constant dense<-3.389530e+38> : tensor<bf16>
  %10 = mlx.broadcast_to %9 {shape = array<i64: 1, 4, 1, 300>} : tensor<bf16>
  %11 = mlx.select %3, %8, %10 : tensor<1x4x1x300xi1>, tensor<1x4x1x300xbf16>, tensor<1x4x1x300xbf16>
  %12 = mlx.softmax %11 {axes = array<i64: 3>, precise = true} : tensor<1x4x1x300xbf16>
  %13 = mlx.matmul %12, %v : tensor<1x4x1x300xbf16>, tensor<1x4x300x128xbf16>
  return %13 : tensor<1x4x1x128xbf16>
}

// -----

// The grouped-query decode step: the fallback unflattens the [B, Hq, L, S]
// mask's heads into [Hkv, G]; the attention takes the mask before that.
// CHECK-LABEL: func.func @decode_grouped
// CHECK: %[[KEEP:.*]] = mlx.less_equal
// CHECK: %[[MASK:.*]] = mlx.reshape %[[KEEP]] {shape = array<i64: 1, 1, 1, 200>} : tensor<200xi1>
// CHECK: %[[O:.*]] = mlx.scaled_dot_product_attention %arg0, %arg1, %arg2 mask(%[[MASK]] : tensor<1x1x1x200xi1>) {scale = 1.250000e-01 : f32}
// CHECK-NEXT: return %[[O]]
func.func @decode_grouped(%q: tensor<1x4x1x64xbf16>, %k: tensor<1x2x200x64xbf16>, %v: tensor<1x2x200x64xbf16>, %offset: tensor<i32>) -> tensor<1x4x1x64xbf16> {
  %0 = mlx.arange {start = 0.000000e+00 : f64, stop = 2.000000e+02 : f64} : tensor<200xi32>
  %1 = mlx.broadcast_to %offset {shape = array<i64: 200>} : tensor<i32>
  %2 = mlx.less_equal %0, %1 : tensor<200xi32>, tensor<200xi32>
  %3 = mlx.broadcast_to %2 {shape = array<i64: 1, 4, 1, 200>} : tensor<200xi1>
  %4 = mlx.unflatten %3 {axis = 1 : i64, shape = array<i64: 2, 2>} : tensor<1x4x1x200xi1>
  %5 = mlx.constant dense<1.250000e-01> : tensor<bf16>
  %6 = mlx.broadcast_to %5 {shape = array<i64: 1, 4, 1, 64>} : tensor<bf16>
  %7 = mlx.multiply %6, %q : tensor<1x4x1x64xbf16>, tensor<1x4x1x64xbf16>
  %8 = mlx.unflatten %7 {axis = 1 : i64, shape = array<i64: 2, 2>} : tensor<1x4x1x64xbf16>
  %9 = mlx.expand_dims %k {axes = array<i64: 2>} : tensor<1x2x200x64xbf16>
  %10 = mlx.transpose %9 {axes = array<i64: 0, 1, 2, 4, 3>} : tensor<1x2x1x200x64xbf16>
  %11 = mlx.broadcast_to %10 {shape = array<i64: 1, 2, 2, 64, 200>} : tensor<1x2x1x64x200xbf16>
  %12 = mlx.matmul %8, %11 : tensor<1x2x2x1x64xbf16>, tensor<1x2x2x64x200xbf16>
  %13 = mlx.constant dense<-3.389530e+38> : tensor<bf16>
  %14 = mlx.broadcast_to %13 {shape = array<i64: 1, 2, 2, 1, 200>} : tensor<bf16>
  %15 = mlx.select %4, %12, %14 : tensor<1x2x2x1x200xi1>, tensor<1x2x2x1x200xbf16>, tensor<1x2x2x1x200xbf16>
  %16 = mlx.softmax %15 {axes = array<i64: 4>, precise = true} : tensor<1x2x2x1x200xbf16>
  %17 = mlx.expand_dims %v {axes = array<i64: 2>} : tensor<1x2x200x64xbf16>
  %18 = mlx.broadcast_to %17 {shape = array<i64: 1, 2, 2, 200, 64>} : tensor<1x2x1x200x64xbf16>
  %19 = mlx.matmul %16, %18 : tensor<1x2x2x1x200xbf16>, tensor<1x2x2x200x64xbf16>
  %20 = mlx.flatten %19 {end_axis = 2 : i64, start_axis = 1 : i64} : tensor<1x2x2x1x64xbf16>
  return %20 : tensor<1x4x1x64xbf16>
}

// -----

// An additive mask (scores + mask) of three queries; a grouped mask that
// differs per key head but not per group does not merge into [B, Hq, L, S]
// and stays.
// CHECK-LABEL: func.func @additive
// CHECK: %[[O:.*]] = mlx.scaled_dot_product_attention %arg0, %arg1, %arg2 mask(%arg3 : tensor<1x1x3x96xf16>) {scale = 1.000000e+00 : f32}
// CHECK: mlx.softmax
// CHECK: return %[[O]],
func.func @additive(%q: tensor<1x2x3x64xf16>, %k: tensor<1x2x96x64xf16>, %v: tensor<1x2x96x64xf16>, %m: tensor<1x1x3x96xf16>,
                    %qg: tensor<1x4x1x64xbf16>, %kg: tensor<1x2x96x64xbf16>, %vg: tensor<1x2x96x64xbf16>, %mg: tensor<1x2x1x1x96xi1>)
    -> (tensor<1x2x3x64xf16>, tensor<1x4x1x64xbf16>) {
  %kt = mlx.transpose %k {axes = array<i64: 0, 1, 3, 2>} : tensor<1x2x96x64xf16>
  %qk = mlx.matmul %q, %kt : tensor<1x2x3x64xf16>, tensor<1x2x64x96xf16>
  %s = mlx.add %qk, %m : tensor<1x2x3x96xf16>, tensor<1x1x3x96xf16>
  %p = mlx.softmax %s {axes = array<i64: -1>, precise = true} : tensor<1x2x3x96xf16>
  %o = mlx.matmul %p, %v : tensor<1x2x3x96xf16>, tensor<1x2x96x64xf16>
  %qs = mlx.unflatten %qg {axis = 1 : i64, shape = array<i64: 2, 2>} : tensor<1x4x1x64xbf16>
  %ke = mlx.expand_dims %kg {axes = array<i64: 2>} : tensor<1x2x96x64xbf16>
  %kte = mlx.transpose %ke {axes = array<i64: 0, 1, 2, 4, 3>} : tensor<1x2x1x96x64xbf16>
  %ktb = mlx.broadcast_to %kte {shape = array<i64: 1, 2, 2, 64, 96>} : tensor<1x2x1x64x96xbf16>
  %qkg = mlx.matmul %qs, %ktb : tensor<1x2x2x1x64xbf16>, tensor<1x2x2x64x96xbf16>
  %mb = mlx.broadcast_to %mg {shape = array<i64: 1, 2, 2, 1, 96>} : tensor<1x2x1x1x96xi1>
  %lo = mlx.constant dense<-3.389530e+38> : tensor<bf16>
  %sel = mlx.select %mb, %qkg, %lo : tensor<1x2x2x1x96xi1>, tensor<1x2x2x1x96xbf16>, tensor<bf16>
  %pg = mlx.softmax %sel {axes = array<i64: 4>, precise = true} : tensor<1x2x2x1x96xbf16>
  %ve = mlx.expand_dims %vg {axes = array<i64: 2>} : tensor<1x2x96x64xbf16>
  %vb = mlx.broadcast_to %ve {shape = array<i64: 1, 2, 2, 96, 64>} : tensor<1x2x1x96x64xbf16>
  %og = mlx.matmul %pg, %vb : tensor<1x2x2x1x96xbf16>, tensor<1x2x2x96x64xbf16>
  %of = mlx.flatten %og {end_axis = 2 : i64, start_axis = 1 : i64} : tensor<1x2x2x1x64xbf16>
  return %o, %of : tensor<1x2x3x64xf16>, tensor<1x4x1x64xbf16>
}

// -----

// Sinks: MLX's fallback joins one logit per query head to the scores as
// column 0 of the softmax and slices that column's probability off (here
// with an additive mask and one query, as exported on the CPU).
// CHECK-LABEL: func.func @sinks
// CHECK: %[[M:.*]] = mlx.reshape %arg4
// CHECK-NEXT: %[[O:.*]] = mlx.scaled_dot_product_attention %arg0, %arg1, %arg2 mask(%[[M]] : tensor<1x1x1x128xbf16>) sinks(%arg3 : tensor<4xbf16>) {scale = 1.250000e-01 : f32}
// CHECK-NEXT: return %[[O]]
func.func @sinks(%q: tensor<1x4x1x64xbf16>, %k: tensor<1x4x128x64xbf16>, %v: tensor<1x4x128x64xbf16>, %s: tensor<4xbf16>, %m: tensor<1x128xbf16>) -> tensor<1x4x1x64xbf16> {
  %0 = mlx.expand_dims %s {axes = array<i64: 0, 2, 3>} : tensor<4xbf16>
  %1 = mlx.constant dense<1.250000e-01> : tensor<bf16>
  %2 = mlx.broadcast_to %1 {shape = array<i64: 1, 4, 1, 64>} : tensor<bf16>
  %3 = mlx.multiply %2, %q : tensor<1x4x1x64xbf16>, tensor<1x4x1x64xbf16>
  %4 = mlx.transpose %k {axes = array<i64: 0, 1, 3, 2>} : tensor<1x4x128x64xbf16>
  %5 = mlx.matmul %3, %4 : tensor<1x4x1x64xbf16>, tensor<1x4x64x128xbf16>
  %6 = mlx.broadcast_to %m {shape = array<i64: 1, 4, 1, 128>} : tensor<1x128xbf16>
  %7 = mlx.add %5, %6 : tensor<1x4x1x128xbf16>, tensor<1x4x1x128xbf16>
  %8 = mlx.concatenate %0, %7 {axis = 3 : i64} : tensor<1x4x1x1xbf16>, tensor<1x4x1x128xbf16>
  %9 = mlx.softmax %8 {axes = array<i64: 3>, precise = true} : tensor<1x4x1x129xbf16>
  %10 = mlx.slice %9 {start = array<i64: 0, 0, 0, 1>, stop = array<i64: 1, 4, 1, 129>, strides = array<i64: 1, 1, 1, 1>} : tensor<1x4x1x129xbf16>
  %11 = mlx.matmul %10, %v : tensor<1x4x1x128xbf16>, tensor<1x4x128x64xbf16>
  return %11 : tensor<1x4x1x64xbf16>
}

// -----

// A joined column that differs per query is no sink, and a slice that keeps
// the joined column is no attention with sinks: both stay.
// CHECK-LABEL: func.func @not_sinks
// CHECK-NOT: scaled_dot_product_attention
// CHECK: return
func.func @not_sinks(%q: tensor<1x4x2x64xbf16>, %k: tensor<1x4x128x64xbf16>, %v: tensor<1x4x128x64xbf16>, %c: tensor<1x4x2x1xbf16>, %s: tensor<4xbf16>)
    -> (tensor<1x4x2x64xbf16>, tensor<1x4x2x64xbf16>) {
  %kt = mlx.transpose %k {axes = array<i64: 0, 1, 3, 2>} : tensor<1x4x128x64xbf16>
  %qk = mlx.matmul %q, %kt : tensor<1x4x2x64xbf16>, tensor<1x4x64x128xbf16>
  %j = mlx.concatenate %c, %qk {axis = 3 : i64} : tensor<1x4x2x1xbf16>, tensor<1x4x2x128xbf16>
  %p = mlx.softmax %j {axes = array<i64: 3>, precise = true} : tensor<1x4x2x129xbf16>
  %d = mlx.slice %p {start = array<i64: 0, 0, 0, 1>, stop = array<i64: 1, 4, 2, 129>, strides = array<i64: 1, 1, 1, 1>} : tensor<1x4x2x129xbf16>
  %o = mlx.matmul %d, %v : tensor<1x4x2x128xbf16>, tensor<1x4x128x64xbf16>
  %s0 = mlx.expand_dims %s {axes = array<i64: 0, 2, 3>} : tensor<4xbf16>
  %s1 = mlx.broadcast_to %s0 {shape = array<i64: 1, 4, 2, 1>} : tensor<1x4x1x1xbf16>
  %qk2 = mlx.matmul %q, %kt : tensor<1x4x2x64xbf16>, tensor<1x4x64x128xbf16>
  %j2 = mlx.concatenate %s1, %qk2 {axis = 3 : i64} : tensor<1x4x2x1xbf16>, tensor<1x4x2x128xbf16>
  %p2 = mlx.softmax %j2 {axes = array<i64: 3>, precise = true} : tensor<1x4x2x129xbf16>
  %d2 = mlx.slice %p2 {start = array<i64: 0, 0, 0, 0>, stop = array<i64: 1, 4, 2, 128>, strides = array<i64: 1, 1, 1, 1>} : tensor<1x4x2x129xbf16>
  %o2 = mlx.matmul %d2, %v : tensor<1x4x2x128xbf16>, tensor<1x4x128x64xbf16>
  return %o, %o2 : tensor<1x4x2x64xbf16>, tensor<1x4x2x64xbf16>
}
