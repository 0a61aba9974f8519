// Bad input gives a located diagnostic and a non-zero exit, never a crash
// (`not` without --crash fails on a signal).
// RUN: not mlx-opt %s --split-input-file 2>&1 | FileCheck %s

// CHECK: mlx-opt-bad-input.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: custom op 'mlx.no_such_op' is unknown
func.func @unknown_op(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = mlx.no_such_op %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK: mlx-opt-bad-input.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: expected ':'
func.func @malformed(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = mlx.abs %a tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK: mlx-opt-bad-input.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: 'mlx.add' op operand shapes [2] [3] do not broadcast
func.func @bad_shapes(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  %0 = mlx.add %a, %b : tensor<2xf32>, tensor<3xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK: mlx-opt-bad-input.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: 'mlx.reshape' op requires attribute 'shape'
func.func @missing_attribute(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = mlx.reshape %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK: mlx-opt-bad-input.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: {{.*}}'mlx.reshape' op attribute 'shape' failed to satisfy constraint: i64 dense array attribute
func.func @wrong_attribute_type(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = mlx.reshape %a {shape = 3 : i64} : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK: mlx-opt-bad-input.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: 'mlx.add' op operand #0 must be ranked tensor of MLX dtype values
func.func @non_mlx_dtype(%a: tensor<2xsi32>) {
  %0 = "mlx.add"(%a, %a) : (tensor<2xsi32>, tensor<2xsi32>) -> tensor<2xsi32>
  return
}

// -----

// CHECK: mlx-opt-bad-input.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: expected non-function type
func.func @truncated(%a: tensor<2xf32>) -> tensor<2x
