// RUN: %check %s
// mlx.quantize and mlx.dequantize of float64 (full-precision inputs): MLX
// computes both in float32 and stores float64, which mlxc matches bit for
// bit.
// TOL: 0
// INPUT: w = rng.standard_normal(shape) * 3.0
// REF: q, s, b = mx.quantize(w, group_size=32, bits=3)
// REF: d = mx.dequantize(q, s, b, group_size=32, bits=3)
// REF: q8, s8, b8 = mx.quantize(w, group_size=128, bits=8)
// REF: d8 = mx.dequantize(q8, s8, b8, group_size=128, bits=8)
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
