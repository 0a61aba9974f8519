// RUN: mlx-opt %s --split-input-file --verify-diagnostics

// The attributes of dialects/Mlx/MlxAttributes.h are checked where they
// appear and for what they hold.

// expected-error @+1 {{unknown mlx dialect attribute 'mlx.capturible'}}
func.func @misspelt() attributes {mlx.capturible} {
  return
}

// -----

// expected-error @+1 {{'mlx.device_arena_bytes' must be an integer}}
func.func @mistyped() attributes {mlx.device_arena_bytes = "12"} {
  return
}

// -----

// expected-error @+1 {{'mlx.in_place' must be an array<i64>}}
func.func @plan() attributes {mlx.in_place = [0, -1]} {
  return
}

// -----

// expected-error @+1 {{'mlx.name' belongs on a function's arguments and results}}
func.func @name() attributes {mlx.name = "x"} {
  return
}

// -----

// expected-error @+1 {{'mlx.name' must be a string}}
func.func @arg(%x: tensor<2xf32> {mlx.name = 3 : i64}) {
  return
}

// -----

// expected-error @+1 {{'mlx.dtype' must be "complex64"}}
func.func @res() -> (tensor<2xf32> {mlx.dtype = "complex128"}) {
  %c = arith.constant dense<0.0> : tensor<2xf32>
  return %c : tensor<2xf32>
}

// -----

// expected-error @+1 {{'mlx.capturable' is not an argument attribute}}
func.func @argunit(%x: tensor<2xf32> {mlx.capturable}) {
  return
}

// -----

// expected-error @+1 {{'mlx.mlxfn_version' belongs on a module}}
func.func @version() attributes {mlx.mlxfn_version = "0.29"} {
  return
}

// -----

// Well-formed ones pass.
module attributes {mlx.mlxfn_version = "0.29.1"} {
  func.func @ok(%x: tensor<2xf32> {mlx.name = "x"}) -> (tensor<2xf32> {mlx.name = "y"})
      attributes {mlx.capturable, mlx.device_arena_bytes = 256 : i64, mlx.in_place = array<i64: -1>} {
    return %x : tensor<2xf32>
  }
}
