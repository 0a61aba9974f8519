// RUN: mlx-opt %s --mlx-decompose --split-input-file | FileCheck %s

// softmax: max-subtracted exp over the axes, scaled by the reciprocal of
// the sum (as MLX does: one division a row).
// CHECK-LABEL: func.func @softmax
// CHECK-SAME:    (%[[X:.+]]: tensor<2x8xf32>)
// CHECK:         %[[ONE:.+]] = mlx.constant dense<1.000000e+00> : tensor<f32>
// CHECK:         %[[M:.+]] = mlx.max %[[X]] {axes = array<i64: -1>, keepdims = true}
// CHECK:         %[[D:.+]] = mlx.subtract %[[X]], %[[M]]
// CHECK:         %[[E:.+]] = mlx.exp %[[D]]
// CHECK:         %[[S:.+]] = mlx.sum %[[E]] {axes = array<i64: -1>, keepdims = true}
// CHECK:         %[[R:.+]] = mlx.divide %[[ONE]], %[[S]] : tensor<f32>, tensor<2x1xf32>
// CHECK:         %[[Y:.+]] = mlx.multiply %[[E]], %[[R]]
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

// Grouped-query causal attention: each key head's 2 query heads are rows of
// one product (no broadcast key copies), a causal select with the lowest
// float, then the (also decomposed) softmax.
// CHECK-LABEL: func.func @attention
// CHECK:         mlx.reshape %{{.+}} {shape = array<i64: 1, 2, 8, 16>}
// CHECK:         mlx.matmul %{{.+}}, %{{.+}} : tensor<1x2x8x16xf32>, tensor<1x2x16x4xf32>
// CHECK:         mlx.reshape %{{.+}} {shape = array<i64: 1, 2, 2, 4, 4>}
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

// RoPE stays: convert-mlx-to-linalg lowers it as one elementwise op.
// CHECK-LABEL: func.func @rope
// CHECK:         mlx.rope
// CHECK-NOT:     mlx.concatenate
func.func @rope(%x: tensor<1x2x4x8xbf16>, %off: tensor<i32>) -> tensor<1x2x4x8xbf16> {
  %y = mlx.rope %x, %off {dims = 8 : i64, base = 1.0e+04 : f32} : tensor<1x2x4x8xbf16>, tensor<i32>
  return %y : tensor<1x2x4x8xbf16>
}

// -----

// A transpose that only moves unit axes (a decode step's [B, 1, H, D] ->
// [B, H, 1, D]) is a reshape; one that reorders two longer axes is not.
// CHECK-LABEL: func.func @unit_axes_transpose
// CHECK:         mlx.reshape %arg0 {shape = array<i64: 2, 16, 1, 8>}
// CHECK:         mlx.transpose %arg0 {axes = array<i64: 0, 1, 3, 2>}
func.func @unit_axes_transpose(%x: tensor<2x1x16x8xf32>) -> (tensor<2x16x1x8xf32>, tensor<2x1x8x16xf32>) {
  %a = mlx.transpose %x {axes = array<i64: 0, -2, 1, 3>} : tensor<2x1x16x8xf32>
  %b = mlx.transpose %x {axes = array<i64: 0, 1, 3, 2>} : tensor<2x1x16x8xf32>
  %c = mlx.transpose %a {axes = array<i64: 0, 1, 2, 3>} : tensor<2x16x1x8xf32>
  %d = mlx.exp %b : tensor<2x1x8x16xf32>
  return %c, %d : tensor<2x16x1x8xf32>, tensor<2x1x8x16xf32>
}

// -----

// A product over a right operand broadcast along its last batch axes
// (grouped-query attention: 4 query heads per key head) takes those axes
// into its rows: [2, 4, 3, 8] x [2, 1, 8, 5] is [2, 12, 8] x [2, 8, 5],
// and the broadcast_to that MLX's export holds is read through.
// CHECK-LABEL: func.func @grouped_product
// CHECK:         %[[A:.+]] = mlx.reshape %arg0 {shape = array<i64: 2, 12, 8>}
// CHECK:         %[[B:.+]] = mlx.reshape %arg1 {shape = array<i64: 2, 8, 5>}
// CHECK:         %[[P:.+]] = mlx.matmul %[[A]], %[[B]]
// CHECK:         mlx.reshape %[[P]] {shape = array<i64: 2, 4, 3, 5>}
// CHECK-NOT:     mlx.broadcast_to
func.func @grouped_product(%q: tensor<2x4x3x8xf32>, %k: tensor<2x1x8x5xf32>) -> tensor<2x4x3x5xf32> {
  %kb = mlx.broadcast_to %k {shape = array<i64: 2, 4, 8, 5>} : tensor<2x1x8x5xf32>
  %p = mlx.matmul %q, %kb : tensor<2x4x3x8xf32>, tensor<2x4x8x5xf32>
  return %p : tensor<2x4x3x5xf32>
}

// -----

// masked_scatter: per batch, an exclusive running count of the mask picks
// the value (at most the last one) where the mask is true.
// CHECK-LABEL: func.func @masked_scatter
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<2x3x4xf32>, %[[M:[^:]+]]: tensor<2x3x4xi1>, %[[V:[^:]+]]: tensor<2x5xf32>)
// CHECK:         %[[LAST:.+]] = mlx.constant dense<4> : tensor<i32>
// CHECK:         %[[M2:.+]] = mlx.reshape %[[M]] {shape = array<i64: 2, 12>}
// CHECK:         %[[MI:.+]] = mlx.astype %[[M2]] : tensor<2x12xi1> to i32
// CHECK:         %[[C:.+]] = mlx.cumsum %[[MI]] {axis = 1 : i64, inclusive = false}
// CHECK:         %[[I:.+]] = mlx.minimum %[[C]], %[[LAST]]
// CHECK:         %[[T:.+]] = mlx.take_along_axis %[[V]], %[[I]] {axis = 1 : i64} : tensor<2x5xf32>, tensor<2x12xi32>
// CHECK:         %[[X2:.+]] = mlx.reshape %[[X]] {shape = array<i64: 2, 12>}
// CHECK:         %[[S:.+]] = mlx.select %[[M2]], %[[T]], %[[X2]]
// CHECK:         %[[Y:.+]] = mlx.reshape %[[S]] {shape = array<i64: 2, 3, 4>}
// CHECK:         return %[[Y]]
func.func @masked_scatter(%x: tensor<2x3x4xf32>, %m: tensor<2x3x4xi1>, %v: tensor<2x5xf32>) -> tensor<2x3x4xf32> {
  %y = mlx.masked_scatter %x, %m, %v : tensor<2x3x4xf32>, tensor<2x3x4xi1>, tensor<2x5xf32>
  return %y : tensor<2x3x4xf32>
}

// -----

// No values, or an empty input: the input unchanged.
// CHECK-LABEL: func.func @masked_scatter_nothing
// CHECK-NOT:     mlx.
// CHECK:         return %arg0, %arg3
func.func @masked_scatter_nothing(%x: tensor<1x4xf32>, %m: tensor<1x4xi1>, %v: tensor<1x0xf32>, %e: tensor<1x0xf32>, %em: tensor<1x0xi1>) -> (tensor<1x4xf32>, tensor<1x0xf32>) {
  %y = mlx.masked_scatter %x, %m, %v : tensor<1x4xf32>, tensor<1x4xi1>, tensor<1x0xf32>
  %z = mlx.masked_scatter %e, %em, %v : tensor<1x0xf32>, tensor<1x0xi1>, tensor<1x0xf32>
  return %y, %z : tensor<1x4xf32>, tensor<1x0xf32>
}

// -----

// block_masked_mm: each mask spread over its blocks (the last ones partial:
// sliced), a float mask scaling the operand and a boolean one zeroing the
// product.
// CHECK-LABEL: func.func @block_masked_mm
// CHECK-SAME:    (%[[A:.+]]: tensor<50x40xf32>, %[[B:.+]]: tensor<40x70xf32>, %[[MO:.+]]: tensor<2x3xi1>, %[[ML:.+]]: tensor<2x2xf32>, %[[MR:.+]]: tensor<2x3xf32>)
// CHECK:         %[[ZERO:.+]] = mlx.constant dense<0.000000e+00> : tensor<f32>
// CHECK:         %[[L1:.+]] = mlx.reshape %[[ML]] {shape = array<i64: 2, 1, 2, 1>}
// CHECK:         %[[L2:.+]] = mlx.broadcast_to %[[L1]] {shape = array<i64: 2, 32, 2, 32>}
// CHECK:         %[[L3:.+]] = mlx.reshape %[[L2]] {shape = array<i64: 64, 64>}
// CHECK:         %[[L4:.+]] = mlx.slice %[[L3]] {start = array<i64: 0, 0>, stop = array<i64: 50, 40>, strides = array<i64: 1, 1>}
// CHECK:         %[[AM:.+]] = mlx.multiply %[[A]], %[[L4]]
// CHECK:         %[[BM:.+]] = mlx.multiply %[[B]], %{{.+}} : tensor<40x70xf32>, tensor<40x70xf32>
// CHECK:         %[[P:.+]] = mlx.matmul %[[AM]], %[[BM]]
// CHECK:         %[[O1:.+]] = mlx.reshape %[[MO]] {shape = array<i64: 2, 1, 3, 1>}
// CHECK:         %[[O4:.+]] = mlx.slice %{{.+}} {start = array<i64: 0, 0>, stop = array<i64: 50, 70>
// CHECK:         %[[Y:.+]] = mlx.select %[[O4]], %[[P]], %[[ZERO]]
// CHECK:         return %[[Y]]
func.func @block_masked_mm(%a: tensor<50x40xf32>, %b: tensor<40x70xf32>, %mo: tensor<2x3xi1>, %ml: tensor<2x2xf32>, %mr: tensor<2x3xf32>) -> tensor<50x70xf32> {
  %y = mlx.block_masked_mm %a, %b mask_out(%mo : tensor<2x3xi1>) mask_lhs(%ml : tensor<2x2xf32>) mask_rhs(%mr : tensor<2x3xf32>) {block_size = 32 : i64} : tensor<50x40xf32>, tensor<40x70xf32>
  return %y : tensor<50x70xf32>
}

// -----

// Whole blocks need no slice; a mask with a broadcast batch.
// CHECK-LABEL: func.func @block_masked_mm_whole_blocks
// CHECK-NOT:     mlx.slice
// CHECK:         mlx.matmul
// CHECK:         mlx.broadcast_to %{{.+}} {shape = array<i64: 1, 2, 64, 1, 64>}
// CHECK-NOT:     mlx.slice
// CHECK:         mlx.select %{{.+}} : tensor<1x128x64xi1>, tensor<3x128x64xf32>, tensor<f32>
func.func @block_masked_mm_whole_blocks(%a: tensor<3x128x64xf32>, %b: tensor<3x64x64xf32>, %mo: tensor<1x2x1xi1>) -> tensor<3x128x64xf32> {
  %y = mlx.block_masked_mm %a, %b mask_out(%mo : tensor<1x2x1xi1>) {block_size = 64 : i64} : tensor<3x128x64xf32>, tensor<3x64x64xf32>
  return %y : tensor<3x128x64xf32>
}
