// RUN: mlx-opt %s --mlxc-read-only-inputs | FileCheck %s
// RUN: mlx-opt %s --mlxc-read-only-inputs --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s --check-prefix=BUF

// Every tensor argument of a function with a body is the caller's: not
// writable. Other arguments and declarations are left alone.
// CHECK-LABEL: func.func @update
// CHECK-SAME: %{{.*}}: tensor<8xf32> {bufferization.writable = false}
// CHECK-SAME: %{{.*}}: index)
// CHECK: func.func private @external(tensor<8xf32>)
func.func @update(%t: tensor<8xf32>, %i: index) -> tensor<8xf32> {
  %v = arith.constant 1.0 : f32
  %r = tensor.insert %v into %t[%i] : tensor<8xf32>
  return %r : tensor<8xf32>
}
func.func private @external(tensor<8xf32>)

// The update in place then works on a copy of the input.
// BUF-LABEL: func.func @update
// BUF: memref.alloc
// BUF: memref.copy
// BUF: memref.store
