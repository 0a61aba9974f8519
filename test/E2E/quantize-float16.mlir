// RUN: %check %s
// mlx.quantize on float16 compared with mx.quantize bit for bit
// (uint32 words, scales, biases) and its dequantized round trip: bits
// 2, 3, 5, 6 (values straddle words), 4 and 8, group sizes 32, 64, 128;
// wc has groups of one constant, of zeros and of mixed magnitudes.
// Bit-exact: MLX rounds in the same places.
// TOL: 0
// INPUT: wc = np.where(np.arange(shape[-1]) < 64, 0.5, np.where(np.arange(shape[-1]) < 128, 0.0, rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 3, (shape[0], 1))))
// REF: w2_64_q, w2_64_s, w2_64_b = mx.quantize(w, group_size=64, bits=2)
// REF: w2_64_rt = mx.dequantize(w2_64_q, w2_64_s, w2_64_b, group_size=64, bits=2)
// REF: w3_32_q, w3_32_s, w3_32_b = mx.quantize(w, group_size=32, bits=3)
// REF: w3_32_rt = mx.dequantize(w3_32_q, w3_32_s, w3_32_b, group_size=32, bits=3)
// REF: wc3_32_q, wc3_32_s, wc3_32_b = mx.quantize(wc, group_size=32, bits=3)
// REF: wc3_32_rt = mx.dequantize(wc3_32_q, wc3_32_s, wc3_32_b, group_size=32, bits=3)
// REF: w4_64_q, w4_64_s, w4_64_b = mx.quantize(w, group_size=64, bits=4)
// REF: w4_64_rt = mx.dequantize(w4_64_q, w4_64_s, w4_64_b, group_size=64, bits=4)
// REF: wc4_64_q, wc4_64_s, wc4_64_b = mx.quantize(wc, group_size=64, bits=4)
// REF: wc4_64_rt = mx.dequantize(wc4_64_q, wc4_64_s, wc4_64_b, group_size=64, bits=4)
// REF: w5_128_q, w5_128_s, w5_128_b = mx.quantize(w, group_size=128, bits=5)
// REF: w5_128_rt = mx.dequantize(w5_128_q, w5_128_s, w5_128_b, group_size=128, bits=5)
// REF: w6_64_q, w6_64_s, w6_64_b = mx.quantize(w, group_size=64, bits=6)
// REF: w6_64_rt = mx.dequantize(w6_64_q, w6_64_s, w6_64_b, group_size=64, bits=6)
// REF: wc6_64_q, wc6_64_s, wc6_64_b = mx.quantize(wc, group_size=64, bits=6)
// REF: wc6_64_rt = mx.dequantize(wc6_64_q, wc6_64_s, wc6_64_b, group_size=64, bits=6)
// REF: w8_32_q, w8_32_s, w8_32_b = mx.quantize(w, group_size=32, bits=8)
// REF: w8_32_rt = mx.dequantize(w8_32_q, w8_32_s, w8_32_b, group_size=32, bits=8)
// REF: w4_128_q, w4_128_s, w4_128_b = mx.quantize(w, group_size=128, bits=4)
// REF: w4_128_rt = mx.dequantize(w4_128_q, w4_128_s, w4_128_b, group_size=128, bits=4)
func.func @quantize_float16(
    %w: tensor<6x256xf16> {mlx.name = "w"},
    %wc: tensor<6x256xf16> {mlx.name = "wc"})
    -> (tensor<6x16xui32> {mlx.name = "w2_64_q"},
    tensor<6x4xf16> {mlx.name = "w2_64_s"},
    tensor<6x4xf16> {mlx.name = "w2_64_b"},
    tensor<6x256xf16> {mlx.name = "w2_64_rt"},
    tensor<6x24xui32> {mlx.name = "w3_32_q"},
    tensor<6x8xf16> {mlx.name = "w3_32_s"},
    tensor<6x8xf16> {mlx.name = "w3_32_b"},
    tensor<6x256xf16> {mlx.name = "w3_32_rt"},
    tensor<6x24xui32> {mlx.name = "wc3_32_q"},
    tensor<6x8xf16> {mlx.name = "wc3_32_s"},
    tensor<6x8xf16> {mlx.name = "wc3_32_b"},
    tensor<6x256xf16> {mlx.name = "wc3_32_rt"},
    tensor<6x32xui32> {mlx.name = "w4_64_q"},
    tensor<6x4xf16> {mlx.name = "w4_64_s"},
    tensor<6x4xf16> {mlx.name = "w4_64_b"},
    tensor<6x256xf16> {mlx.name = "w4_64_rt"},
    tensor<6x32xui32> {mlx.name = "wc4_64_q"},
    tensor<6x4xf16> {mlx.name = "wc4_64_s"},
    tensor<6x4xf16> {mlx.name = "wc4_64_b"},
    tensor<6x256xf16> {mlx.name = "wc4_64_rt"},
    tensor<6x40xui32> {mlx.name = "w5_128_q"},
    tensor<6x2xf16> {mlx.name = "w5_128_s"},
    tensor<6x2xf16> {mlx.name = "w5_128_b"},
    tensor<6x256xf16> {mlx.name = "w5_128_rt"},
    tensor<6x48xui32> {mlx.name = "w6_64_q"},
    tensor<6x4xf16> {mlx.name = "w6_64_s"},
    tensor<6x4xf16> {mlx.name = "w6_64_b"},
    tensor<6x256xf16> {mlx.name = "w6_64_rt"},
    tensor<6x48xui32> {mlx.name = "wc6_64_q"},
    tensor<6x4xf16> {mlx.name = "wc6_64_s"},
    tensor<6x4xf16> {mlx.name = "wc6_64_b"},
    tensor<6x256xf16> {mlx.name = "wc6_64_rt"},
    tensor<6x64xui32> {mlx.name = "w8_32_q"},
    tensor<6x8xf16> {mlx.name = "w8_32_s"},
    tensor<6x8xf16> {mlx.name = "w8_32_b"},
    tensor<6x256xf16> {mlx.name = "w8_32_rt"},
    tensor<6x32xui32> {mlx.name = "w4_128_q"},
    tensor<6x2xf16> {mlx.name = "w4_128_s"},
    tensor<6x2xf16> {mlx.name = "w4_128_b"},
    tensor<6x256xf16> {mlx.name = "w4_128_rt"}) {
  %w2_64:3 = mlx.quantize %w {group_size = 64 : i64, bits = 2 : i64} : tensor<6x256xf16>
  %w2_64_rt = mlx.dequantize %w2_64#0, %w2_64#1, %w2_64#2 {group_size = 64 : i64, bits = 2 : i64} : tensor<6x16xui32>, tensor<6x4xf16>, tensor<6x4xf16>
  %w3_32:3 = mlx.quantize %w {group_size = 32 : i64, bits = 3 : i64} : tensor<6x256xf16>
  %w3_32_rt = mlx.dequantize %w3_32#0, %w3_32#1, %w3_32#2 {group_size = 32 : i64, bits = 3 : i64} : tensor<6x24xui32>, tensor<6x8xf16>, tensor<6x8xf16>
  %wc3_32:3 = mlx.quantize %wc {group_size = 32 : i64, bits = 3 : i64} : tensor<6x256xf16>
  %wc3_32_rt = mlx.dequantize %wc3_32#0, %wc3_32#1, %wc3_32#2 {group_size = 32 : i64, bits = 3 : i64} : tensor<6x24xui32>, tensor<6x8xf16>, tensor<6x8xf16>
  %w4_64:3 = mlx.quantize %w {group_size = 64 : i64, bits = 4 : i64} : tensor<6x256xf16>
  %w4_64_rt = mlx.dequantize %w4_64#0, %w4_64#1, %w4_64#2 {group_size = 64 : i64, bits = 4 : i64} : tensor<6x32xui32>, tensor<6x4xf16>, tensor<6x4xf16>
  %wc4_64:3 = mlx.quantize %wc {group_size = 64 : i64, bits = 4 : i64} : tensor<6x256xf16>
  %wc4_64_rt = mlx.dequantize %wc4_64#0, %wc4_64#1, %wc4_64#2 {group_size = 64 : i64, bits = 4 : i64} : tensor<6x32xui32>, tensor<6x4xf16>, tensor<6x4xf16>
  %w5_128:3 = mlx.quantize %w {group_size = 128 : i64, bits = 5 : i64} : tensor<6x256xf16>
  %w5_128_rt = mlx.dequantize %w5_128#0, %w5_128#1, %w5_128#2 {group_size = 128 : i64, bits = 5 : i64} : tensor<6x40xui32>, tensor<6x2xf16>, tensor<6x2xf16>
  %w6_64:3 = mlx.quantize %w {group_size = 64 : i64, bits = 6 : i64} : tensor<6x256xf16>
  %w6_64_rt = mlx.dequantize %w6_64#0, %w6_64#1, %w6_64#2 {group_size = 64 : i64, bits = 6 : i64} : tensor<6x48xui32>, tensor<6x4xf16>, tensor<6x4xf16>
  %wc6_64:3 = mlx.quantize %wc {group_size = 64 : i64, bits = 6 : i64} : tensor<6x256xf16>
  %wc6_64_rt = mlx.dequantize %wc6_64#0, %wc6_64#1, %wc6_64#2 {group_size = 64 : i64, bits = 6 : i64} : tensor<6x48xui32>, tensor<6x4xf16>, tensor<6x4xf16>
  %w8_32:3 = mlx.quantize %w {group_size = 32 : i64, bits = 8 : i64} : tensor<6x256xf16>
  %w8_32_rt = mlx.dequantize %w8_32#0, %w8_32#1, %w8_32#2 {group_size = 32 : i64, bits = 8 : i64} : tensor<6x64xui32>, tensor<6x8xf16>, tensor<6x8xf16>
  %w4_128:3 = mlx.quantize %w {group_size = 128 : i64, bits = 4 : i64} : tensor<6x256xf16>
  %w4_128_rt = mlx.dequantize %w4_128#0, %w4_128#1, %w4_128#2 {group_size = 128 : i64, bits = 4 : i64} : tensor<6x32xui32>, tensor<6x2xf16>, tensor<6x2xf16>
  return %w2_64#0, %w2_64#1, %w2_64#2, %w2_64_rt, %w3_32#0, %w3_32#1, %w3_32#2, %w3_32_rt, %wc3_32#0, %wc3_32#1, %wc3_32#2, %wc3_32_rt, %w4_64#0, %w4_64#1, %w4_64#2, %w4_64_rt, %wc4_64#0, %wc4_64#1, %wc4_64#2, %wc4_64_rt, %w5_128#0, %w5_128#1, %w5_128#2, %w5_128_rt, %w6_64#0, %w6_64#1, %w6_64#2, %w6_64_rt, %wc6_64#0, %wc6_64#1, %wc6_64#2, %wc6_64_rt, %w8_32#0, %w8_32#1, %w8_32#2, %w8_32_rt, %w4_128#0, %w4_128#1, %w4_128#2, %w4_128_rt
      : tensor<6x16xui32>, tensor<6x4xf16>, tensor<6x4xf16>, tensor<6x256xf16>, tensor<6x24xui32>, tensor<6x8xf16>, tensor<6x8xf16>, tensor<6x256xf16>, tensor<6x24xui32>, tensor<6x8xf16>, tensor<6x8xf16>, tensor<6x256xf16>, tensor<6x32xui32>, tensor<6x4xf16>, tensor<6x4xf16>, tensor<6x256xf16>, tensor<6x32xui32>, tensor<6x4xf16>, tensor<6x4xf16>, tensor<6x256xf16>, tensor<6x40xui32>, tensor<6x2xf16>, tensor<6x2xf16>, tensor<6x256xf16>, tensor<6x48xui32>, tensor<6x4xf16>, tensor<6x4xf16>, tensor<6x256xf16>, tensor<6x48xui32>, tensor<6x4xf16>, tensor<6x4xf16>, tensor<6x256xf16>, tensor<6x64xui32>, tensor<6x8xf16>, tensor<6x8xf16>, tensor<6x256xf16>, tensor<6x32xui32>, tensor<6x2xf16>, tensor<6x2xf16>, tensor<6x256xf16>
}
