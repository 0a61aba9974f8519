// RUN: %check %s
// mlx.quantize and mlx.dequantize of float64 (full-precision inputs): MLX
// computes both in float32 and stores float64, which mlxc matches bit for
// bit. (MLX 0.32's CPU Quantize refuses float64 input, so the reference
// runs in float32 and casts, as MLX's float64 results are defined.)
// TOL: 0
// INPUT: w = rng.standard_normal(shape) * 3.0
// REF: w32 = w.astype(mx.float32)
// REF: q, s32, b32 = mx.quantize(w32, group_size=32, bits=3)
// REF: d = mx.dequantize(q, s32, b32, group_size=32, bits=3).astype(mx.float64)
// REF: s, b = s32.astype(mx.float64), b32.astype(mx.float64)
// REF: q8, s8_32, b8_32 = mx.quantize(w32, group_size=128, bits=8)
// REF: d8 = mx.dequantize(q8, s8_32, b8_32, group_size=128, bits=8).astype(mx.float64)
// REF: s8, b8 = s8_32.astype(mx.float64), b8_32.astype(mx.float64)
func.func @quantize_float64(%w: tensor<4x128xf64> {mlx.name = "w"})
    -> (tensor<4x12xui32> {mlx.name = "q"}, tensor<4x4xf64> {mlx.name = "s"},
        tensor<4x4xf64> {mlx.name = "b"}, tensor<4x128xf64> {mlx.name = "d"},
        tensor<4x32xui32> {mlx.name = "q8"}, tensor<4x1xf64> {mlx.name = "s8"},
        tensor<4x1xf64> {mlx.name = "b8"}, tensor<4x128xf64> {mlx.name = "d8"}) {
  %q:3 = mlx.quantize %w {group_size = 32 : i64, bits = 3 : i64} : tensor<4x128xf64>
  %d = mlx.dequantize %q#0, %q#1, %q#2 {group_size = 32 : i64, bits = 3 : i64} : tensor<4x12xui32>, tensor<4x4xf64>, tensor<4x4xf64>
  %q8:3 = mlx.quantize %w {group_size = 128 : i64, bits = 8 : i64} : tensor<4x128xf64>
  %d8 = mlx.dequantize %q8#0, %q8#1, %q8#2 {group_size = 128 : i64, bits = 8 : i64} : tensor<4x32xui32>, tensor<4x1xf64>, tensor<4x1xf64>
  return %q#0, %q#1, %q#2, %d, %q8#0, %q8#1, %q8#2, %d8
      : tensor<4x12xui32>, tensor<4x4xf64>, tensor<4x4xf64>, tensor<4x128xf64>, tensor<4x32xui32>, tensor<4x1xf64>, tensor<4x1xf64>, tensor<4x128xf64>
}
