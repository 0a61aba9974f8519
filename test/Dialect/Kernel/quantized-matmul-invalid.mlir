// RUN: mlx-opt %s --split-input-file --verify-diagnostics

// kernel.quantized_matmul: MLX's bit widths and group sizes, packed words
// that hold K values of each of N rows, scales and biases per group, an
// init of x's leading axes and N columns.
func.func @bits(%x: tensor<1x64xbf16>, %w: tensor<8x7xi32>, %s: tensor<8x2xbf16>, %o: tensor<1x8xbf16>) -> tensor<1x8xbf16> {
  // expected-error@+1 {{takes 2, 3, 4, 5, 6 or 8 bits, got 7}}
  %r = kernel.quantized_matmul %x, %w, %s, %s into %o {group_size = 32 : i64, bits = 7 : i64} : tensor<1x64xbf16>, tensor<8x7xi32>, tensor<8x2xbf16>, tensor<8x2xbf16>, tensor<1x8xbf16> -> tensor<1x8xbf16>
  return %r : tensor<1x8xbf16>
}

// -----

func.func @group(%x: tensor<1x64xbf16>, %w: tensor<8x8xi32>, %s: tensor<8x4xbf16>, %o: tensor<1x8xbf16>) -> tensor<1x8xbf16> {
  // expected-error@+1 {{takes groups of 32, 64 or 128, got 16}}
  %r = kernel.quantized_matmul %x, %w, %s, %s into %o {group_size = 16 : i64, bits = 4 : i64} : tensor<1x64xbf16>, tensor<8x8xi32>, tensor<8x4xbf16>, tensor<8x4xbf16>, tensor<1x8xbf16> -> tensor<1x8xbf16>
  return %r : tensor<1x8xbf16>
}

// -----

func.func @words(%x: tensor<1x64xbf16>, %w: tensor<8x6xi32>, %s: tensor<8x2xbf16>, %o: tensor<1x8xbf16>) -> tensor<1x8xbf16> {
  // expected-error@+1 {{do not fit K = 64 at 4 bits in groups of 32}}
  %r = kernel.quantized_matmul %x, %w, %s, %s into %o {group_size = 32 : i64, bits = 4 : i64} : tensor<1x64xbf16>, tensor<8x6xi32>, tensor<8x2xbf16>, tensor<8x2xbf16>, tensor<1x8xbf16> -> tensor<1x8xbf16>
  return %r : tensor<1x8xbf16>
}

// -----

func.func @init(%x: tensor<2x64xbf16>, %w: tensor<8x8xi32>, %s: tensor<8x2xbf16>, %o: tensor<1x8xbf16>) -> tensor<1x8xbf16> {
  // expected-error@+1 {{must be [..., M, N] with x}}
  %r = kernel.quantized_matmul %x, %w, %s, %s into %o {group_size = 32 : i64, bits = 4 : i64} : tensor<2x64xbf16>, tensor<8x8xi32>, tensor<8x2xbf16>, tensor<8x2xbf16>, tensor<1x8xbf16> -> tensor<1x8xbf16>
  return %r : tensor<1x8xbf16>
}

// -----

func.func @dynamic(%x: tensor<?x64xbf16>, %w: tensor<8x8xi32>, %s: tensor<8x2xbf16>, %o: tensor<?x8xbf16>) -> tensor<?x8xbf16> {
  // expected-error@+1 {{takes operands of static shape}}
  %r = kernel.quantized_matmul %x, %w, %s, %s into %o {group_size = 32 : i64, bits = 4 : i64} : tensor<?x64xbf16>, tensor<8x8xi32>, tensor<8x2xbf16>, tensor<8x2xbf16>, tensor<?x8xbf16> -> tensor<?x8xbf16>
  return %r : tensor<?x8xbf16>
}

// -----

func.func @integer_x(%x: tensor<1x64xi32>, %w: tensor<8x8xi32>, %s: tensor<8x2xbf16>, %o: tensor<1x8xbf16>) -> tensor<1x8xbf16> {
  // expected-error@+1 {{x, scales and init must be floats}}
  %r = kernel.quantized_matmul %x, %w, %s, %s into %o {group_size = 32 : i64, bits = 4 : i64} : tensor<1x64xi32>, tensor<8x8xi32>, tensor<8x2xbf16>, tensor<8x2xbf16>, tensor<1x8xbf16> -> tensor<1x8xbf16>
  return %r : tensor<1x8xbf16>
}
