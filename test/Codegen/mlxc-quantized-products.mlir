// RUN: mlx-opt %s --split-input-file --convert-mlx-to-linalg --mlxc-attach-target=target=cuda --mlxc-quantized-products | FileCheck %s --check-prefix=CUDA
// RUN: mlx-opt %s --split-input-file --convert-mlx-to-linalg --mlxc-quantized-products | FileCheck %s --check-prefix=CPU
// RUN: mlx-opt %s --split-input-file --convert-mlx-to-linalg --mlxc-attach-target=target=cuda --mlxc-quantized-products --mlxc-form-kernels | FileCheck %s --check-prefix=FORM

// One row (a decode step): the CUDA target keeps the product on the packed
// words; the CPU target dequantizes the matrix and multiplies.
// CUDA-LABEL: func.func @decode
// CUDA:         kernel.quantized_matmul %arg0, %arg1, %arg2, %arg3 into %{{.+}} {bits = 4 : i64, group_size = 64 : i64}
// CUDA-NOT:     linalg.batch_matmul
// CPU-LABEL:  func.func @decode
// CPU-NOT:      kernel.quantized_matmul
// CPU:          linalg.generic {{.+}} ins(%arg2, %arg3 : tensor<96x2xbf16>, tensor<96x2xbf16>) outs(%{{.+}} : tensor<128x96xbf16>)
// CPU:          tensor.extract %arg1
// CPU:          linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<1x1x128xbf16>, tensor<1x128x96xbf16>)
// FORM-LABEL: func.func @decode
// FORM:         kernel.region quantized_product(%arg0, %arg1, %arg2, %arg3, %{{.+}}) : (tensor<1x128xbf16>, tensor<96x16xi32>, tensor<96x2xbf16>, tensor<96x2xbf16>, tensor<1x96xbf16>) -> tensor<1x96xbf16>
// FORM:           kernel.quantized_matmul
// FORM-NEXT:      kernel.yield
func.func @decode(%x: tensor<1x128xbf16>, %w: tensor<96x16xui32>, %s: tensor<96x2xbf16>, %b: tensor<96x2xbf16>) -> tensor<1x96xbf16> {
  %y = mlx.quantized_matmul %x, %w, %s, %b {group_size = 64 : i64, bits = 4 : i64} : tensor<1x128xbf16>, tensor<96x16xui32>, tensor<96x2xbf16>, tensor<96x2xbf16>
  return %y : tensor<1x96xbf16>
}

// -----

// Sixteen rows over leading axes (2x8) are the most the kernel takes; 17
// rows are a prefill's product, dequantized on every target.
// CUDA-LABEL: func.func @rows
// CUDA:         kernel.quantized_matmul %arg0, {{.+}} : tensor<2x8x64xf16>, tensor<8x6xi32>, tensor<8x2xf32>, tensor<8x2xf32>, tensor<2x8x8xf32>
// CUDA-NOT:     kernel.quantized_matmul
// CUDA:         linalg.batch_matmul {{.+}} tensor<1x17x64xf32>
// FORM-LABEL: func.func @rows
// FORM-COUNT-1: kernel.region quantized_product
// FORM:         kernel.region product
func.func @rows(%x16: tensor<2x8x64xf16>, %x17: tensor<17x64xf16>, %w: tensor<8x6xui32>, %s: tensor<8x2xf32>, %b: tensor<8x2xf32>) -> (tensor<2x8x8xf32>, tensor<17x8xf32>) {
  %y16 = mlx.quantized_matmul %x16, %w, %s, %b {group_size = 32 : i64, bits = 3 : i64} : tensor<2x8x64xf16>, tensor<8x6xui32>, tensor<8x2xf32>, tensor<8x2xf32>
  %y17 = mlx.quantized_matmul %x17, %w, %s, %b {group_size = 32 : i64, bits = 3 : i64} : tensor<17x64xf16>, tensor<8x6xui32>, tensor<8x2xf32>, tensor<8x2xf32>
  return %y16, %y17 : tensor<2x8x8xf32>, tensor<17x8xf32>
}

// -----

// Not in the op's reach, dequantized as before: the matrix as packed
// ([K, N], transpose = false), a batch of matrices, and microscaled modes.
// CUDA-LABEL: func.func @not_affine_transposed
// CUDA-NOT:     kernel.quantized_matmul
// CUDA:         linalg.batch_matmul
// CUDA:         linalg.batch_matmul
// CUDA:         linalg.batch_matmul
func.func @not_affine_transposed(%x: tensor<1x64xbf16>, %w: tensor<64x4xui32>, %s: tensor<64x1xbf16>, %b: tensor<64x1xbf16>,
                                 %wb: tensor<2x8x8xui32>, %sb: tensor<2x8x1xbf16>, %bb: tensor<2x8x1xbf16>,
                                 %wm: tensor<8x8xui32>, %sm: tensor<8x2xui8>) -> (tensor<1x64xbf16>, tensor<2x1x8xbf16>, tensor<1x8xbf16>) {
  %y = mlx.quantized_matmul %x, %w, %s, %b {transpose = false, group_size = 64 : i64, bits = 2 : i64} : tensor<1x64xbf16>, tensor<64x4xui32>, tensor<64x1xbf16>, tensor<64x1xbf16>
  %yb = mlx.quantized_matmul %x, %wb, %sb, %bb {group_size = 64 : i64, bits = 4 : i64} : tensor<1x64xbf16>, tensor<2x8x8xui32>, tensor<2x8x1xbf16>, tensor<2x8x1xbf16>
  %ym = mlx.quantized_matmul %x, %wm, %sm {group_size = 32 : i64, bits = 4 : i64, mode = #mlx<quantization_mode mxfp4>} : tensor<1x64xbf16>, tensor<8x8xui32>, tensor<8x2xui8>
  return %y, %yb, %ym : tensor<1x64xbf16>, tensor<2x1x8xbf16>, tensor<1x8xbf16>
}
