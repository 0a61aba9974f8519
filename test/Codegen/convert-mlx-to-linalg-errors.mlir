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

// Only affine quantization lowers (dequantizing lowers in every mode); the
// fp modes name their mode.
func.func @quantize_mxfp4(%w: tensor<4x64xf32>) -> tensor<4x8xui32> {
  // expected-error @+1 {{'mlx.quantize' op has no lowering in mlxc's code generator for quantization mode 'mxfp4' (only affine mode quantizes)}}
  %q:2 = mlx.quantize %w {group_size = 32 : i64, bits = 4 : i64, mode = #mlx<quantization_mode mxfp4>} : tensor<4x64xf32>
  return %q#0 : tensor<4x8xui32>
}
