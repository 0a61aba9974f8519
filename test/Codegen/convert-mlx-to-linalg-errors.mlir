// RUN: mlx-opt %s --convert-mlx-to-linalg --split-input-file --verify-diagnostics

func.func @composite(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'mlx.softmax' op is a composite op; run mlx-decompose before convert-mlx-to-linalg}}
  %y = mlx.softmax %x {axes = array<i64: -1>} : tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

func.func @no_lowering(%x: tensor<8xui8>) -> tensor<8xi1> {
  // expected-error @+1 {{'mlx.view' op has no lowering in mlxc's code generator}}
  %y = mlx.view %x : tensor<8xui8> to i1
  return %y : tensor<8xi1>
}

// -----

func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{dynamic shapes are not supported by the code generator yet (result type 'tensor<?xf32>')}}
  %y = mlx.exp %x : tensor<?xf32>
  return %y : tensor<?xf32>
}

// -----

// Only affine quantization lowers; the fp modes name their mode.
func.func @quantize_mxfp4(%w: tensor<4x64xf32>) -> tensor<4x8xui32> {
  // expected-error @+1 {{'mlx.quantize' op has no lowering in mlxc's code generator for quantization mode 'mxfp4' (only affine mode lowers)}}
  %q:2 = mlx.quantize %w {group_size = 32 : i64, bits = 4 : i64, mode = #mlx<quantization_mode mxfp4>} : tensor<4x64xf32>
  return %q#0 : tensor<4x8xui32>
}

// -----

func.func @dequantize_nvfp4(%w: tensor<4x8xui32>, %s: tensor<4x4xui8>) -> tensor<4x64xbf16> {
  // expected-error @+1 {{'mlx.dequantize' op has no lowering in mlxc's code generator for quantization mode 'nvfp4' (only affine mode lowers)}}
  %y = mlx.dequantize %w, %s {group_size = 16 : i64, bits = 4 : i64, mode = #mlx<quantization_mode nvfp4>} : tensor<4x8xui32>, tensor<4x4xui8>
  return %y : tensor<4x64xbf16>
}

// -----

func.func @quantized_matmul_mxfp8(%x: tensor<2x64xf32>, %w: tensor<8x16xui32>, %s: tensor<8x2xui8>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'mlx.quantized_matmul' op has no lowering in mlxc's code generator for quantization mode 'mxfp8' (only affine mode lowers)}}
  %y = mlx.quantized_matmul %x, %w, %s {group_size = 32 : i64, bits = 8 : i64, mode = #mlx<quantization_mode mxfp8>} : tensor<2x64xf32>, tensor<8x16xui32>, tensor<8x2xui8>
  return %y : tensor<2x8xf32>
}

// -----

func.func @gather_qmm_mxfp4(%x: tensor<2x1x3x64xf32>, %w: tensor<4x8x8xui32>, %s: tensor<4x8x2xui8>, %ri: tensor<2xui32>) -> tensor<2x2x3x8xf32> {
  // expected-error @+1 {{'mlx.gather_qmm' op has no lowering in mlxc's code generator for quantization mode 'mxfp4' (only affine mode lowers)}}
  %y = mlx.gather_qmm %x, %w, %s rhs_indices(%ri : tensor<2xui32>) {group_size = 32 : i64, bits = 4 : i64, mode = #mlx<quantization_mode mxfp4>} : tensor<2x1x3x64xf32>, tensor<4x8x8xui32>, tensor<4x8x2xui8>
  return %y : tensor<2x2x3x8xf32>
}
