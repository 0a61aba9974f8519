// RUN: %check %s
// rope with a uint32 scalar offset.
// INPUT: ou = np.array(4)
// REF: rope_u32 = mx.fast.rope(x, 16, traditional=False, base=10000.0, scale=1.0, offset=ou)
func.func @fast_rope_offsets(
    %x: tensor<2x2x5x16xf32> {mlx.name = "x"},
    %ou: tensor<ui32> {mlx.name = "ou"})
    -> (tensor<2x2x5x16xf32> {mlx.name = "rope_u32"}) {
  %rope_u32 = mlx.rope %x, %ou {dims = 16 : i64, traditional = false, base = 1.0e+04 : f32, scale = 1.0 : f32} : tensor<2x2x5x16xf32>, tensor<ui32>
  return %rope_u32
      : tensor<2x2x5x16xf32>
}
