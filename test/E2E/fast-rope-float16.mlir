// RUN: %check %s
// rope on float16 (as fast-rope-float32).
// INPUT: off = np.array(3)
// INPUT: freqs = uniform(0.1, 2.0)
// REF: rope_split_full = mx.fast.rope(x, 16, traditional=False, base=10000.0, scale=1.0, offset=off)
// REF: rope_split_half = mx.fast.rope(x, 8, traditional=False, base=10000.0, scale=1.0, offset=off)
// REF: rope_split_scaled = mx.fast.rope(x, 16, traditional=False, base=10000.0, scale=0.5, offset=off)
// REF: rope_trad_full = mx.fast.rope(x, 16, traditional=True, base=10000.0, scale=1.0, offset=off)
// REF: rope_trad_half = mx.fast.rope(x, 8, traditional=True, base=10000.0, scale=1.0, offset=off)
// REF: rope_trad_scaled = mx.fast.rope(x, 16, traditional=True, base=10000.0, scale=0.5, offset=off)
// REF: rope3_base = mx.fast.rope(x3, 6, traditional=False, base=500.0, scale=1.0, offset=off)
// REF: rope_freqs = mx.fast.rope(x, 8, traditional=True, base=None, scale=1.0, offset=off, freqs=freqs)
func.func @fast_rope_float16(
    %x: tensor<1x2x5x16xf16> {mlx.name = "x"},
    %x3: tensor<2x6x8xf16> {mlx.name = "x3"},
    %off: tensor<i32> {mlx.name = "off"},
    %freqs: tensor<4xf32> {mlx.name = "freqs"})
    -> (tensor<1x2x5x16xf16> {mlx.name = "rope_split_full"},
    tensor<1x2x5x16xf16> {mlx.name = "rope_split_half"},
    tensor<1x2x5x16xf16> {mlx.name = "rope_split_scaled"},
    tensor<1x2x5x16xf16> {mlx.name = "rope_trad_full"},
    tensor<1x2x5x16xf16> {mlx.name = "rope_trad_half"},
    tensor<1x2x5x16xf16> {mlx.name = "rope_trad_scaled"},
    tensor<2x6x8xf16> {mlx.name = "rope3_base"},
    tensor<1x2x5x16xf16> {mlx.name = "rope_freqs"}) {
  %rope_split_full = mlx.rope %x, %off {dims = 16 : i64, traditional = false, base = 1.0e+04 : f32, scale = 1.0 : f32} : tensor<1x2x5x16xf16>, tensor<i32>
  %rope_split_half = mlx.rope %x, %off {dims = 8 : i64, traditional = false, base = 1.0e+04 : f32, scale = 1.0 : f32} : tensor<1x2x5x16xf16>, tensor<i32>
  %rope_split_scaled = mlx.rope %x, %off {dims = 16 : i64, traditional = false, base = 1.0e+04 : f32, scale = 0.5 : f32} : tensor<1x2x5x16xf16>, tensor<i32>
  %rope_trad_full = mlx.rope %x, %off {dims = 16 : i64, traditional = true, base = 1.0e+04 : f32, scale = 1.0 : f32} : tensor<1x2x5x16xf16>, tensor<i32>
  %rope_trad_half = mlx.rope %x, %off {dims = 8 : i64, traditional = true, base = 1.0e+04 : f32, scale = 1.0 : f32} : tensor<1x2x5x16xf16>, tensor<i32>
  %rope_trad_scaled = mlx.rope %x, %off {dims = 16 : i64, traditional = true, base = 1.0e+04 : f32, scale = 0.5 : f32} : tensor<1x2x5x16xf16>, tensor<i32>
  %rope3_base = mlx.rope %x3, %off {dims = 6 : i64, traditional = false, base = 500.0 : f32, scale = 1.0 : f32} : tensor<2x6x8xf16>, tensor<i32>
  %rope_freqs = mlx.rope %x, %off freqs(%freqs : tensor<4xf32>) {dims = 8 : i64, traditional = true, scale = 1.0 : f32} : tensor<1x2x5x16xf16>, tensor<i32>
  return %rope_split_full, %rope_split_half, %rope_split_scaled, %rope_trad_full, %rope_trad_half, %rope_trad_scaled, %rope3_base, %rope_freqs
      : tensor<1x2x5x16xf16>, tensor<1x2x5x16xf16>, tensor<1x2x5x16xf16>, tensor<1x2x5x16xf16>, tensor<1x2x5x16xf16>, tensor<1x2x5x16xf16>, tensor<2x6x8xf16>, tensor<1x2x5x16xf16>
}
