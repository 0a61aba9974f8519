// RUN: %check %s
// RoPE after a transpose of [tokens, heads, dim] to [heads, tokens, dim], as
// a prefill's q and k: the CUDA variant's RoPE reads the halves of the
// untransposed tensor (no transpose kernel). Also with the transposed
// tensor returned, and with a partial rotation (whose unrotated half is a
// copy): their transposes stay.
// INPUT: off = np.array(5)
// REF: full = mx.fast.rope(x.transpose(0, 2, 1, 3), 32, traditional=False, base=10000.0, scale=1.0, offset=off)
// REF: half = mx.fast.rope(z.transpose(0, 2, 1, 3), 16, traditional=False, base=10000.0, scale=1.0, offset=off)
// REF: t = y.transpose(0, 2, 1, 3)
// REF: kept = mx.fast.rope(t, 32, traditional=False, base=500.0, scale=1.0, offset=off)
func.func @rope_transposed(
    %x: tensor<1x8x4x32xbf16> {mlx.name = "x"},
    %y: tensor<1x8x4x32xbf16> {mlx.name = "y"},
    %z: tensor<1x8x4x32xbf16> {mlx.name = "z"},
    %off: tensor<i32> {mlx.name = "off"})
    -> (tensor<1x4x8x32xbf16> {mlx.name = "full"},
    tensor<1x4x8x32xbf16> {mlx.name = "half"},
    tensor<1x4x8x32xbf16> {mlx.name = "t"},
    tensor<1x4x8x32xbf16> {mlx.name = "kept"}) {
  %xt = mlx.transpose %x {axes = array<i64: 0, 2, 1, 3>} : tensor<1x8x4x32xbf16>
  %full = mlx.rope %xt, %off {dims = 32 : i64, traditional = false, base = 1.0e+04 : f32, scale = 1.0 : f32} : tensor<1x4x8x32xbf16>, tensor<i32>
  %zt = mlx.transpose %z {axes = array<i64: 0, 2, 1, 3>} : tensor<1x8x4x32xbf16>
  %half = mlx.rope %zt, %off {dims = 16 : i64, traditional = false, base = 1.0e+04 : f32, scale = 1.0 : f32} : tensor<1x4x8x32xbf16>, tensor<i32>
  %t = mlx.transpose %y {axes = array<i64: 0, 2, 1, 3>} : tensor<1x8x4x32xbf16>
  %kept = mlx.rope %t, %off {dims = 32 : i64, traditional = false, base = 5.0e+02 : f32, scale = 1.0 : f32} : tensor<1x4x8x32xbf16>, tensor<i32>
  return %full, %half, %t, %kept : tensor<1x4x8x32xbf16>, tensor<1x4x8x32xbf16>, tensor<1x4x8x32xbf16>, tensor<1x4x8x32xbf16>
}
