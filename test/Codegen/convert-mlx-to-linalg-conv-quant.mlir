// RUN: mlx-opt %s --convert-mlx-to-linalg --split-input-file | FileCheck %s

// Input dilation and padding: a strided insert into a zero tensor. Groups
// split the channels so that every map is division-free; flip reverses the
// kernel in the input's map; float16 accumulates in float32.
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1 * 2 + -d5 + 2, d2 + (-d6 + 1) * 2, d3, d7)>
// CHECK-DAG: #[[W:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d3, d4, d5, d6, d7)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @conv_general
// CHECK-SAME:    (%[[X:.+]]: tensor<1x5x6x4xf16>, %[[WT:.+]]: tensor<6x3x2x2xf16>)
// CHECK:         %[[Z:.+]] = linalg.fill ins(%{{.+}} : f16) outs(%{{.+}} : tensor<1x12x9x4xf16>)
// CHECK:         %[[P:.+]] = tensor.insert_slice %[[X]] into %[[Z]][0, 2, 0, 0] [1, 5, 6, 4] [1, 2, 1, 1]
// CHECK:         %[[PG:.+]] = tensor.expand_shape %{{.+}} output_shape [1, 12, 9, 2, 2]
// CHECK:         %[[WG:.+]] = tensor.expand_shape %{{.+}} output_shape [2, 3, 3, 2, 2]
// CHECK:         %[[ACC:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x5x7x2x3xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[IN]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME:      ins(%[[PG]], %[[WG]] : tensor<1x12x9x2x2xf16>, tensor<2x3x3x2x2xf16>) outs(%[[ACC]] : tensor<1x5x7x2x3xf32>)
// CHECK:           arith.extf
// CHECK:           arith.extf
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         tensor.expand_shape {{.+}} output_shape [1, 5, 7, 6] : tensor<210xf32> into tensor<1x5x7x6xf32>
// CHECK:         arith.truncf %{{.+}} : f32 to f16
func.func @conv_general(%x: tensor<1x5x6x4xf16>, %w: tensor<6x3x2x2xf16>) -> tensor<1x5x7x6xf16> {
  %y = mlx.conv_general %x, %w {strides = array<i64: 2, 1>, padding_lo = array<i64: 2, 0>, padding_hi = array<i64: 1, 3>, kernel_dilation = array<i64: 1, 2>, input_dilation = array<i64: 2, 1>, groups = 2 : i64, flip = true} : tensor<1x5x6x4xf16>, tensor<6x3x2x2xf16>
  return %y : tensor<1x5x7x6xf16>
}

// -----

// Without padding or dilation the input is read as it is.
// CHECK-LABEL: func.func @conv1d_plain
// CHECK-NOT:     tensor.insert_slice
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME:      outs(%{{.+}} : tensor<2x6x1x4xf32>)
func.func @conv1d_plain(%x: tensor<2x8x3xf32>, %w: tensor<4x3x3xf32>) -> tensor<2x6x4xf32> {
  %y = mlx.conv_general %x, %w {strides = array<i64: 1>, padding_lo = array<i64: 0>, padding_hi = array<i64: 0>, kernel_dilation = array<i64: 1>, input_dilation = array<i64: 1>} : tensor<2x8x3xf32>, tensor<4x3x3xf32>
  return %y : tensor<2x6x4xf32>
}

// -----

// 6-bit values straddle words: two words joined in 64 bits, shifted and
// masked. scale * q rounds to bfloat16 before the bias is added, as in MLX.
// CHECK-DAG: #[[GROUP:.+]] = affine_map<(d0, d1) -> (d0, d1 floordiv 32)>
// CHECK-LABEL: func.func @dequantize_6bit
// CHECK-SAME:    (%[[WQ:.+]]: tensor<4x12xi32>, %[[S:.+]]: tensor<4x2xbf16>, %[[B:.+]]: tensor<4x2xbf16>) -> tensor<4x64xbf16>
// CHECK:         linalg.generic {indexing_maps = [#[[GROUP]], #[[GROUP]], #{{.+}}]
// CHECK-SAME:      ins(%[[S]], %[[B]] : tensor<4x2xbf16>, tensor<4x2xbf16>) outs(%{{.+}} : tensor<4x64xbf16>)
// CHECK:           %[[LO:.+]] = tensor.extract %[[WQ]]
// CHECK:           %[[HI:.+]] = tensor.extract %[[WQ]]
// CHECK:           arith.shli %{{.+}}, %{{.+}} : i64
// CHECK:           arith.shrui %{{.+}}, %{{.+}} : i64
// CHECK:           arith.andi %{{.+}}, %c63_i64 : i64
// CHECK:           %[[Q:.+]] = arith.uitofp %{{.+}} : i32 to f32
// CHECK:           %[[M:.+]] = arith.mulf %[[Q]], %{{.+}} : f32
// CHECK:           %[[MR:.+]] = arith.truncf %[[M]] : f32 to bf16
// CHECK:           %[[ME:.+]] = arith.extf %[[MR]] : bf16 to f32
// CHECK:           %[[R:.+]] = arith.addf %[[ME]], %{{.+}} : f32
// CHECK:           arith.truncf %[[R]] : f32 to bf16
func.func @dequantize_6bit(%w: tensor<4x12xui32>, %s: tensor<4x2xbf16>, %b: tensor<4x2xbf16>) -> tensor<4x64xbf16> {
  %y = mlx.dequantize %w, %s, %b {group_size = 32 : i64, bits = 6 : i64} : tensor<4x12xui32>, tensor<4x2xbf16>, tensor<4x2xbf16>
  return %y : tensor<4x64xbf16>
}

// -----

// quantize: per-group min/max (one reduction), scale and bias in float32
// (plus their float16 copies), then one generic over the packed words;
// 4-bit values fill each word at shifts 0, 4, ..., 28.
// CHECK-LABEL: func.func @quantize_4bit
// CHECK-SAME:    -> (tensor<2x8xi32>, tensor<2x2xf16>, tensor<2x2xf16>)
// CHECK:         %[[MM:.+]]:2 = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%{{.+}} : tensor<2x2x32xf16>)
// CHECK:         %[[SB:.+]]:4 = linalg.generic
// CHECK-SAME:      ins(%[[MM]]#0, %[[MM]]#1 : tensor<2x2xf32>, tensor<2x2xf32>)
// CHECK:           math.roundeven
// CHECK:           arith.truncf %{{.+}} : f32 to f16
// CHECK:           arith.truncf %{{.+}} : f32 to f16
// CHECK:         %[[P:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<2x8xi32>)
// CHECK:           tensor.extract %[[SB]]#0
// CHECK:           tensor.extract %[[SB]]#1
// CHECK:           math.roundeven
// CHECK:           arith.fptoui %{{.+}} : f32 to i32
// CHECK-COUNT-7:   arith.shli %{{.+}}, %c{{[0-9]+}}_i32 : i32
// CHECK:         return %[[P]], %[[SB]]#2, %[[SB]]#3
func.func @quantize_4bit(%w: tensor<2x64xf16>) -> (tensor<2x8xui32>, tensor<2x2xf16>, tensor<2x2xf16>) {
  %q:3 = mlx.quantize %w {group_size = 32 : i64, bits = 4 : i64} : tensor<2x64xf16>
  return %q#0, %q#1, %q#2 : tensor<2x8xui32>, tensor<2x2xf16>, tensor<2x2xf16>
}

// -----

// 3-bit values straddle words: each word ORs the values that overlap it into
// a 64-bit accumulator and keeps its upper half.
// CHECK-LABEL: func.func @quantize_3bit
// CHECK:         linalg.generic {{.+}} outs(%{{.+}} : tensor<2x3xi32>)
// CHECK:           arith.fptoui %{{.+}} : f32 to i64
// CHECK:           arith.shli %{{.+}}, %{{.+}} : i64
// CHECK:           %[[HI:.+]] = arith.shrui %{{.+}}, %c32_i64 : i64
// CHECK:           %[[WORD:.+]] = arith.trunci %[[HI]] : i64 to i32
// CHECK:           linalg.yield %[[WORD]] : i32
func.func @quantize_3bit(%w: tensor<2x32xf32>) -> (tensor<2x3xui32>, tensor<2x1xf32>, tensor<2x1xf32>) {
  %q:3 = mlx.quantize %w {group_size = 32 : i64, bits = 3 : i64} : tensor<2x32xf32>
  return %q#0, %q#1, %q#2 : tensor<2x3xui32>, tensor<2x1xf32>, tensor<2x1xf32>
}

// -----

// An affine product with the [N, K] matrix of MLX's default layout is one
// kernel.quantized_matmul: kernel formation decides how it is computed
// (mlxc-quantized-products.mlir).
// CHECK-LABEL: func.func @quantized_matmul
// CHECK-SAME:    (%[[X:.+]]: tensor<3x64xf32>, %[[W:.+]]: tensor<8x8xi32>, %[[S:.+]]: tensor<8x2xf32>, %[[B:.+]]: tensor<8x2xf32>)
// CHECK:         %[[INIT:.+]] = tensor.empty() : tensor<3x8xf32>
// CHECK:         kernel.quantized_matmul %[[X]], %[[W]], %[[S]], %[[B]] into %[[INIT]] {bits = 4 : i64, group_size = 32 : i64}
// CHECK-NOT:     linalg.batch_matmul
func.func @quantized_matmul(%x: tensor<3x64xf32>, %w: tensor<8x8xui32>, %s: tensor<8x2xf32>, %b: tensor<8x2xf32>) -> tensor<3x8xf32> {
  %y = mlx.quantized_matmul %x, %w, %s, %b {group_size = 32 : i64, bits = 4 : i64} : tensor<3x64xf32>, tensor<8x8xui32>, tensor<8x2xf32>, tensor<8x2xf32>
  return %y : tensor<3x8xf32>
}

// -----

// A vector x is a one-row matrix; float16 x with float32 scales computes in
// float32; without transpose the matrix is [K, N] as it is packed.
// CHECK-DAG: #[[G:.+]] = affine_map<(d0, d1) -> (d0, d1 floordiv 32)>
// CHECK-LABEL: func.func @quantized_matmul_vector
// CHECK:         linalg.generic {indexing_maps = [#[[G]], #[[G]], #{{.+}}]
// CHECK-SAME:      outs(%{{.+}} : tensor<64x32xf32>)
// CHECK:           arith.andi %{{.+}}, %c255_i32 : i32
// CHECK:         arith.extf %{{.+}} : f16 to f32
// CHECK:         linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<1x1x64xf32>, tensor<1x64x32xf32>) outs(%{{.+}} : tensor<1x1x32xf32>)
// CHECK:         return %{{.+}} : tensor<32xf32>
func.func @quantized_matmul_vector(%x: tensor<64xf16>, %w: tensor<64x8xui32>, %s: tensor<64x1xf32>, %b: tensor<64x1xf32>) -> tensor<32xf32> {
  %y = mlx.quantized_matmul %x, %w, %s, %b {transpose = false, group_size = 32 : i64, bits = 8 : i64} : tensor<64xf16>, tensor<64x8xui32>, tensor<64x1xf32>, tensor<64x1xf32>
  return %y : tensor<32xf32>
}

// -----

// gather_mm gathers both operands' matrices for the result's batch (the
// absent left index broadcasts a's single matrix), then one batch_matmul.
// CHECK-LABEL: func.func @gather_mm
// CHECK-SAME:    (%[[A:.+]]: tensor<6x4xf32>, %[[B:.+]]: tensor<3x4x5xf32>, %[[I:.+]]: tensor<4xi32>)
// CHECK:         %[[GA:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<4x6x4xf32>)
// CHECK:         %[[GB:.+]] = linalg.generic {{.+}} ins(%[[I]] : tensor<4xi32>) outs(%{{.+}} : tensor<4x4x5xf32>)
// CHECK:           arith.index_castui
// CHECK:           %[[M:.+]] = arith.minsi %{{.+}}, %c2 : index
// CHECK:           tensor.extract %[[B]][%[[M]], %{{.+}}, %{{.+}}] : tensor<3x4x5xf32>
// CHECK:         linalg.batch_matmul ins(%[[GA]], %[[GB]] : tensor<4x6x4xf32>, tensor<4x4x5xf32>)
func.func @gather_mm(%a: tensor<6x4xf32>, %b: tensor<3x4x5xf32>, %ri: tensor<4xui32>) -> tensor<4x6x5xf32> {
  %y = mlx.gather_mm %a, %b rhs_indices(%ri : tensor<4xui32>) : tensor<6x4xf32>, tensor<3x4x5xf32>
  return %y : tensor<4x6x5xf32>
}

// -----

// gather_qmm gathers x, the words, scales and biases, then dequantizes.
// CHECK-LABEL: func.func @gather_qmm
// CHECK:         linalg.generic {{.+}} outs(%{{.+}} : tensor<2x2x3x64xf32>)
// CHECK:         linalg.generic {{.+}} outs(%{{.+}} : tensor<2x2x8x8xi32>)
// CHECK:         linalg.generic {{.+}} outs(%{{.+}} : tensor<2x2x8x2xf32>)
// CHECK:         linalg.generic {{.+}} outs(%{{.+}} : tensor<2x2x8x2xf32>)
// CHECK:         %[[D:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<2x2x64x8xf32>)
// CHECK:         linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<4x3x64xf32>, tensor<4x64x8xf32>)
func.func @gather_qmm(%x: tensor<2x1x3x64xf32>, %w: tensor<4x8x8xui32>, %s: tensor<4x8x2xf32>, %b: tensor<4x8x2xf32>, %ri: tensor<2xui32>) -> tensor<2x2x3x8xf32> {
  %y = mlx.gather_qmm %x, %w, %s biases(%b : tensor<4x8x2xf32>) rhs_indices(%ri : tensor<2xui32>) {group_size = 32 : i64, bits = 4 : i64} : tensor<2x1x3x64xf32>, tensor<4x8x8xui32>, tensor<4x8x2xf32>
  return %y : tensor<2x2x3x8xf32>
}

// -----

// mxfp4: each 4-bit e2m1 code (3 exponent-and-mantissa bits, bit 3 the
// sign) times its group's e8m0 scale, 2^(s - 127) built as float32 bits
// (s << 23; s = 0 is 2^-127); no biases. The weights come out in x's dtype.
// CHECK-LABEL: func.func @quantized_matmul_mxfp4
// CHECK-SAME:    (%[[X:.+]]: tensor<2x64xbf16>, %[[WQ:.+]]: tensor<8x8xi32>, %[[S:.+]]: tensor<8x2xi8>)
// CHECK:         %[[D:.+]] = linalg.generic {{.+}} ins(%[[S]] : tensor<8x2xi8>) outs(%{{.+}} : tensor<64x8xbf16>)
// CHECK:           tensor.extract %[[WQ]]
// CHECK:           %[[CODE:.+]] = arith.extui %{{.+}} : i8 to i32
// CHECK:           arith.uitofp %{{.+}} : i32 to f32
// CHECK:           arith.negf
// CHECK:           %[[SHIFTED:.+]] = arith.shli %[[CODE]], %c23_i32 : i32
// CHECK:           %[[BITS:.+]] = arith.select %{{.+}}, %c4194304_i32, %[[SHIFTED]] : i32
// CHECK:           %[[SCALE:.+]] = arith.bitcast %[[BITS]] : i32 to f32
// CHECK:           %[[V:.+]] = arith.mulf %{{.+}}, %[[SCALE]] : f32
// CHECK:           arith.truncf %[[V]] : f32 to bf16
// CHECK:         %[[DC:.+]] = tensor.collapse_shape %[[D]]
// CHECK:         %[[DE:.+]] = tensor.expand_shape %[[DC]]
// CHECK:         linalg.batch_matmul ins(%{{.+}}, %[[DE]] : tensor<1x2x64xbf16>, tensor<1x64x8xbf16>)
func.func @quantized_matmul_mxfp4(%x: tensor<2x64xbf16>, %w: tensor<8x8xui32>, %s: tensor<8x2xui8>) -> tensor<2x8xbf16> {
  %y = mlx.quantized_matmul %x, %w, %s {group_size = 32 : i64, bits = 4 : i64, mode = #mlx<quantization_mode mxfp4>} : tensor<2x64xbf16>, tensor<8x8xui32>, tensor<8x2xui8>
  return %y : tensor<2x8xbf16>
}

// -----

// mxfp8 and nvfp4 decode e4m3 (the value, or nvfp4's scale): (8 + m) *
// 2^(e - 10) with the power built as float32 bits ((e + 117) << 23), NaN at
// 0x7f.
// CHECK-LABEL: func.func @dequantize_nvfp4
// CHECK:         linalg.generic {{.+}} ins(%{{.+}} : tensor<4x4xi8>) outs(%{{.+}} : tensor<4x64xbf16>)
// CHECK:           arith.addi %{{.+}}, %c117_i32 : i32
// CHECK:           arith.bitcast %{{.+}} : i32 to f32
// CHECK:           arith.constant 0x7FC00000 : f32
// CHECK:           arith.truncf %{{.+}} : f32 to bf16
// CHECK-LABEL: func.func @gather_qmm_mxfp8
// CHECK:         linalg.generic {{.+}} outs(%{{.+}} : tensor<2x2x8x2xi8>)
// CHECK-NOT:     tensor<2x2x8x2xf32>
// CHECK:         %[[D:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<2x2x64x8xf32>)
// CHECK:           arith.addi %{{.+}}, %c117_i32 : i32
// CHECK:         linalg.batch_matmul
func.func @dequantize_nvfp4(%w: tensor<4x8xui32>, %s: tensor<4x4xui8>) -> tensor<4x64xbf16> {
  %y = mlx.dequantize %w, %s {group_size = 16 : i64, bits = 4 : i64, mode = #mlx<quantization_mode nvfp4>} : tensor<4x8xui32>, tensor<4x4xui8>
  return %y : tensor<4x64xbf16>
}
func.func @gather_qmm_mxfp8(%x: tensor<2x1x3x64xf32>, %w: tensor<4x8x16xui32>, %s: tensor<4x8x2xui8>, %ri: tensor<2xui32>) -> tensor<2x2x3x8xf32> {
  %y = mlx.gather_qmm %x, %w, %s rhs_indices(%ri : tensor<2xui32>) {group_size = 32 : i64, bits = 8 : i64, mode = #mlx<quantization_mode mxfp8>} : tensor<2x1x3x64xf32>, tensor<4x8x16xui32>, tensor<4x8x2xui8>
  return %y : tensor<2x2x3x8xf32>
}
