// RUN: mlx-opt %s --mlx-decompose --split-input-file | FileCheck %s

// softmax: max-subtracted exp over the axes, normalized by the sum.
// CHECK-LABEL: func.func @softmax
// CHECK-SAME:    (%[[X:.+]]: tensor<2x8xf32>)
// CHECK:         %[[M:.+]] = mlx.max %[[X]] {axes = array<i64: -1>, keepdims = true}
// CHECK:         %[[D:.+]] = mlx.subtract %[[X]], %[[M]]
// CHECK:         %[[E:.+]] = mlx.exp %[[D]]
// CHECK:         %[[S:.+]] = mlx.sum %[[E]] {axes = array<i64: -1>, keepdims = true}
// CHECK:         %[[Y:.+]] = mlx.divide %[[E]], %[[S]]
// CHECK:         return %[[Y]]
func.func @softmax(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %y = mlx.softmax %x {axes = array<i64: -1>} : tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

// A precise bf16 softmax computes in float32 and rounds once.
// CHECK-LABEL: func.func @softmax_precise_bf16
// CHECK:         mlx.astype %{{.+}} : tensor<2x8xbf16> to f32
// CHECK:         mlx.exp
// CHECK:         mlx.astype %{{.+}} : tensor<2x8xf32> to bf16
func.func @softmax_precise_bf16(%x: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  %y = mlx.softmax %x {axes = array<i64: -1>, precise = true} : tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// logsumexp guards rows whose maximum is infinite.
// CHECK-LABEL: func.func @logsumexp
// CHECK:         %[[M:.+]] = mlx.max
// CHECK:         %[[INF:.+]] = mlx.equal
// CHECK:         %[[SAFE:.+]] = mlx.select %[[INF]], %{{.+}}, %[[M]]
// CHECK:         mlx.log
// CHECK:         mlx.select %[[INF]], %[[M]]
// CHECK:         mlx.reshape {{.+}} {shape = array<i64: 2>}
func.func @logsumexp(%x: tensor<2x8xf32>) -> tensor<2xf32> {
  %y = mlx.logsumexp %x {axes = array<i64: 1>} : tensor<2x8xf32>
  return %y : tensor<2xf32>
}

// -----

// rms_norm accumulates in float32, then multiplies by the weight.
// CHECK-LABEL: func.func @rms_norm
// CHECK:         mlx.astype %{{.+}} : tensor<2x8xbf16> to f32
// CHECK:         mlx.square
// CHECK:         mlx.sum
// CHECK:         mlx.rsqrt
// CHECK:         mlx.astype %{{.+}} : tensor<2x8xf32> to bf16
// CHECK:         mlx.multiply %{{.+}}, %{{.+}} : tensor<2x8xbf16>, tensor<8xbf16>
func.func @rms_norm(%x: tensor<2x8xbf16>, %w: tensor<8xbf16>) -> tensor<2x8xbf16> {
  %y = mlx.rms_norm %x, %w {eps = 1.0e-05 : f32} : tensor<2x8xbf16>, tensor<8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// CHECK-LABEL: func.func @layer_norm
// CHECK:         mlx.subtract
// CHECK:         mlx.rsqrt
// CHECK:         mlx.multiply %{{.+}}, %{{.+}} : tensor<2x8xf32>, tensor<8xf32>
// CHECK:         mlx.add %{{.+}}, %{{.+}} : tensor<2x8xf32>, tensor<8xf32>
func.func @layer_norm(%x: tensor<2x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x8xf32> {
  %y = mlx.layer_norm %x weight(%w : tensor<8xf32>) bias(%b : tensor<8xf32>) {eps = 1.0e-05 : f32} : tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

// addmm scales only when alpha/beta differ from 1.
// CHECK-LABEL: func.func @addmm
// CHECK:         %[[P:.+]] = mlx.matmul
// CHECK:         %[[PS:.+]] = mlx.multiply %[[P]]
// CHECK-NOT:     mlx.multiply
// CHECK:         mlx.add %[[PS]], %{{.+}} : tensor<4x16xf32>, tensor<16xf32>
func.func @addmm(%c: tensor<16xf32>, %a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %y = mlx.addmm %c, %a, %b {alpha = 2.0 : f32} : tensor<16xf32>, tensor<4x8xf32>, tensor<8x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// CHECK-LABEL: func.func @divmod
// CHECK:         %[[Q:.+]] = mlx.floor_divide
// CHECK:         %[[R:.+]] = mlx.remainder
// CHECK:         return %[[Q]], %[[R]]
func.func @divmod(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %q, %r = mlx.divmod %a, %b : tensor<4xi32>, tensor<4xi32>
  return %q, %r : tensor<4xi32>, tensor<4xi32>
}

// -----

// A vector-matrix product goes through a [1, K] matrix.
// CHECK-LABEL: func.func @vecmat
// CHECK:         mlx.reshape %{{.+}} {shape = array<i64: 1, 8>}
// CHECK:         mlx.matmul %{{.+}}, %{{.+}} : tensor<1x8xf32>, tensor<8x16xf32>
// CHECK:         mlx.reshape %{{.+}} {shape = array<i64: 16>}
func.func @vecmat(%a: tensor<8xf32>, %b: tensor<8x16xf32>) -> tensor<16xf32> {
  %y = mlx.matmul %a, %b : tensor<8xf32>, tensor<8x16xf32>
  return %y : tensor<16xf32>
}

// -----

// Grouped-query causal attention: query heads grouped per key head, a
// causal select with the lowest float, then the (also decomposed) softmax.
// CHECK-LABEL: func.func @attention
// CHECK:         mlx.reshape %{{.+}} {shape = array<i64: 1, 2, 2, 4, 16>}
// CHECK:         mlx.matmul %{{.+}}, %{{.+}} : tensor<1x2x2x4x16xf32>, tensor<1x2x1x16x4xf32>
// CHECK:         mlx.greater_equal
// CHECK:         mlx.select
// CHECK:         mlx.exp
// CHECK:         mlx.divide
// CHECK:         mlx.reshape %{{.+}} {shape = array<i64: 1, 4, 4, 16>}
func.func @attention(%q: tensor<1x4x4x16xf32>, %k: tensor<1x2x4x16xf32>, %v: tensor<1x2x4x16xf32>) -> tensor<1x4x4x16xf32> {
  %o = mlx.scaled_dot_product_attention %q, %k, %v {scale = 0.25 : f32, causal = true} : tensor<1x4x4x16xf32>, tensor<1x2x4x16xf32>, tensor<1x2x4x16xf32>
  return %o : tensor<1x4x4x16xf32>
}

// -----

// RoPE rotates the two halves of the first `dims` features in float32.
// CHECK-LABEL: func.func @rope
// CHECK:         mlx.cos
// CHECK:         mlx.sin
// CHECK:         mlx.concatenate
// CHECK:         mlx.astype %{{.+}} : tensor<1x2x4x8xf32> to bf16
func.func @rope(%x: tensor<1x2x4x8xbf16>, %off: tensor<i32>) -> tensor<1x2x4x8xbf16> {
  %y = mlx.rope %x, %off {dims = 8 : i64, base = 1.0e+04 : f32} : tensor<1x2x4x8xbf16>, tensor<i32>
  return %y : tensor<1x2x4x8xbf16>
}
