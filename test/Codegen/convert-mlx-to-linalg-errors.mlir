// RUN: mlx-opt %s --convert-mlx-to-linalg --split-input-file --verify-diagnostics

func.func @composite(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'mlx.softmax' op is a composite op; run mlx-decompose before convert-mlx-to-linalg}}
  %y = mlx.softmax %x {axes = array<i64: -1>} : tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

func.func @no_lowering(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mlx.sort' op has no lowering in mlxc's code generator}}
  %y = mlx.sort %x : tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{dynamic shapes are not supported by the code generator yet (result type 'tensor<?xf32>')}}
  %y = mlx.exp %x : tensor<?xf32>
  return %y : tensor<?xf32>
}
