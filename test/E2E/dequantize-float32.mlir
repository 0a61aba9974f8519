// RUN: %check %s
// mlx.dequantize with float32 scales/biases of random packed words
// (every bit pattern): bits 2, 3, 4, 5, 6, 8, group sizes 32, 64, 128, a
// batched matrix and an explicit result dtype.
// Bit-exact: MLX rounds in the same places.
// TOL: 0
// INPUT: s = uniform(-0.1, 0.1)
// INPUT: q2_32 = randint(0, 2**32)
// INPUT: q3_64 = randint(0, 2**32)
// INPUT: q4_64 = randint(0, 2**32)
// INPUT: q5_32 = randint(0, 2**32)
// INPUT: q6_128 = randint(0, 2**32)
// INPUT: q8_128 = randint(0, 2**32)
// INPUT: q4_32 = randint(0, 2**32)
// INPUT: q8_64 = randint(0, 2**32)
// INPUT: qb = randint(0, 2**32)
// REF: d2_32 = mx.dequantize(q2_32, s[:, :8], b[:, :8], group_size=32, bits=2)
// REF: d3_64 = mx.dequantize(q3_64, s[:, :4], b[:, :4], group_size=64, bits=3)
// REF: d4_64 = mx.dequantize(q4_64, s[:, :4], b[:, :4], group_size=64, bits=4)
// REF: d5_32 = mx.dequantize(q5_32, s[:, :8], b[:, :8], group_size=32, bits=5)
// REF: d6_128 = mx.dequantize(q6_128, s[:, :2], b[:, :2], group_size=128, bits=6)
// REF: d8_128 = mx.dequantize(q8_128, s[:, :2], b[:, :2], group_size=128, bits=8)
// REF: d4_32 = mx.dequantize(q4_32, s[:, :8], b[:, :8], group_size=32, bits=4)
// REF: d8_64 = mx.dequantize(q8_64, s[:, :4], b[:, :4], group_size=64, bits=8)
// REF: batched = mx.dequantize(qb, sb, bb, group_size=64, bits=4)
// REF: as_f16 = mx.dequantize(qb, sb, bb, group_size=64, bits=4, dtype=mx.float16)
func.func @dequantize_float32(
    %s: tensor<5x8xf32> {mlx.name = "s"},
    %b: tensor<5x8xf32> {mlx.name = "b"},
    %q2_32: tensor<5x16xui32> {mlx.name = "q2_32"},
    %q3_64: tensor<5x24xui32> {mlx.name = "q3_64"},
    %q4_64: tensor<5x32xui32> {mlx.name = "q4_64"},
    %q5_32: tensor<5x40xui32> {mlx.name = "q5_32"},
    %q6_128: tensor<5x48xui32> {mlx.name = "q6_128"},
    %q8_128: tensor<5x64xui32> {mlx.name = "q8_128"},
    %q4_32: tensor<5x32xui32> {mlx.name = "q4_32"},
    %q8_64: tensor<5x64xui32> {mlx.name = "q8_64"},
    %qb: tensor<2x3x16xui32> {mlx.name = "qb"},
    %sb: tensor<2x3x2xf32> {mlx.name = "sb"},
    %bb: tensor<2x3x2xf32> {mlx.name = "bb"})
    -> (tensor<5x256xf32> {mlx.name = "d2_32"},
    tensor<5x256xf32> {mlx.name = "d3_64"},
    tensor<5x256xf32> {mlx.name = "d4_64"},
    tensor<5x256xf32> {mlx.name = "d5_32"},
    tensor<5x256xf32> {mlx.name = "d6_128"},
    tensor<5x256xf32> {mlx.name = "d8_128"},
    tensor<5x256xf32> {mlx.name = "d4_32"},
    tensor<5x256xf32> {mlx.name = "d8_64"},
    tensor<2x3x128xf32> {mlx.name = "batched"},
    tensor<2x3x128xf16> {mlx.name = "as_f16"}) {
  %d2_32_s = mlx.slice %s {start = array<i64: 0, 0>, stop = array<i64: 5, 8>, strides = array<i64: 1, 1>} : tensor<5x8xf32>
  %d2_32_b = mlx.slice %b {start = array<i64: 0, 0>, stop = array<i64: 5, 8>, strides = array<i64: 1, 1>} : tensor<5x8xf32>
  %d2_32 = mlx.dequantize %q2_32, %d2_32_s, %d2_32_b {group_size = 32 : i64, bits = 2 : i64} : tensor<5x16xui32>, tensor<5x8xf32>, tensor<5x8xf32>
  %d3_64_s = mlx.slice %s {start = array<i64: 0, 0>, stop = array<i64: 5, 4>, strides = array<i64: 1, 1>} : tensor<5x8xf32>
  %d3_64_b = mlx.slice %b {start = array<i64: 0, 0>, stop = array<i64: 5, 4>, strides = array<i64: 1, 1>} : tensor<5x8xf32>
  %d3_64 = mlx.dequantize %q3_64, %d3_64_s, %d3_64_b {group_size = 64 : i64, bits = 3 : i64} : tensor<5x24xui32>, tensor<5x4xf32>, tensor<5x4xf32>
  %d4_64_s = mlx.slice %s {start = array<i64: 0, 0>, stop = array<i64: 5, 4>, strides = array<i64: 1, 1>} : tensor<5x8xf32>
  %d4_64_b = mlx.slice %b {start = array<i64: 0, 0>, stop = array<i64: 5, 4>, strides = array<i64: 1, 1>} : tensor<5x8xf32>
  %d4_64 = mlx.dequantize %q4_64, %d4_64_s, %d4_64_b {group_size = 64 : i64, bits = 4 : i64} : tensor<5x32xui32>, tensor<5x4xf32>, tensor<5x4xf32>
  %d5_32_s = mlx.slice %s {start = array<i64: 0, 0>, stop = array<i64: 5, 8>, strides = array<i64: 1, 1>} : tensor<5x8xf32>
  %d5_32_b = mlx.slice %b {start = array<i64: 0, 0>, stop = array<i64: 5, 8>, strides = array<i64: 1, 1>} : tensor<5x8xf32>
  %d5_32 = mlx.dequantize %q5_32, %d5_32_s, %d5_32_b {group_size = 32 : i64, bits = 5 : i64} : tensor<5x40xui32>, tensor<5x8xf32>, tensor<5x8xf32>
  %d6_128_s = mlx.slice %s {start = array<i64: 0, 0>, stop = array<i64: 5, 2>, strides = array<i64: 1, 1>} : tensor<5x8xf32>
  %d6_128_b = mlx.slice %b {start = array<i64: 0, 0>, stop = array<i64: 5, 2>, strides = array<i64: 1, 1>} : tensor<5x8xf32>
  %d6_128 = mlx.dequantize %q6_128, %d6_128_s, %d6_128_b {group_size = 128 : i64, bits = 6 : i64} : tensor<5x48xui32>, tensor<5x2xf32>, tensor<5x2xf32>
  %d8_128_s = mlx.slice %s {start = array<i64: 0, 0>, stop = array<i64: 5, 2>, strides = array<i64: 1, 1>} : tensor<5x8xf32>
  %d8_128_b = mlx.slice %b {start = array<i64: 0, 0>, stop = array<i64: 5, 2>, strides = array<i64: 1, 1>} : tensor<5x8xf32>
  %d8_128 = mlx.dequantize %q8_128, %d8_128_s, %d8_128_b {group_size = 128 : i64, bits = 8 : i64} : tensor<5x64xui32>, tensor<5x2xf32>, tensor<5x2xf32>
  %d4_32_s = mlx.slice %s {start = array<i64: 0, 0>, stop = array<i64: 5, 8>, strides = array<i64: 1, 1>} : tensor<5x8xf32>
  %d4_32_b = mlx.slice %b {start = array<i64: 0, 0>, stop = array<i64: 5, 8>, strides = array<i64: 1, 1>} : tensor<5x8xf32>
  %d4_32 = mlx.dequantize %q4_32, %d4_32_s, %d4_32_b {group_size = 32 : i64, bits = 4 : i64} : tensor<5x32xui32>, tensor<5x8xf32>, tensor<5x8xf32>
  %d8_64_s = mlx.slice %s {start = array<i64: 0, 0>, stop = array<i64: 5, 4>, strides = array<i64: 1, 1>} : tensor<5x8xf32>
  %d8_64_b = mlx.slice %b {start = array<i64: 0, 0>, stop = array<i64: 5, 4>, strides = array<i64: 1, 1>} : tensor<5x8xf32>
  %d8_64 = mlx.dequantize %q8_64, %d8_64_s, %d8_64_b {group_size = 64 : i64, bits = 8 : i64} : tensor<5x64xui32>, tensor<5x4xf32>, tensor<5x4xf32>
  %batched = mlx.dequantize %qb, %sb, %bb {group_size = 64 : i64, bits = 4 : i64} : tensor<2x3x16xui32>, tensor<2x3x2xf32>, tensor<2x3x2xf32>
  %as_f16 = mlx.dequantize %qb, %sb, %bb {group_size = 64 : i64, bits = 4 : i64, dtype = f16} : tensor<2x3x16xui32>, tensor<2x3x2xf32>, tensor<2x3x2xf32>
  return %d2_32, %d3_64, %d4_64, %d5_32, %d6_128, %d8_128, %d4_32, %d8_64, %batched, %as_f16
      : tensor<5x256xf32>, tensor<5x256xf32>, tensor<5x256xf32>, tensor<5x256xf32>, tensor<5x256xf32>, tensor<5x256xf32>, tensor<5x256xf32>, tensor<5x256xf32>, tensor<2x3x128xf32>, tensor<2x3x128xf16>
}
