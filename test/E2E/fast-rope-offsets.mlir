// RUN: %check %s
// rope with a uint32 scalar offset, and with one offset per batch entry
// (4-D and 3-D inputs, both layouts, a partial rotation).
// INPUT: ou = np.array(4)
// INPUT: ob = np.array([0, 7, 3], np.int32)
// REF: rope_u32 = mx.fast.rope(x, 16, traditional=False, base=10000.0, scale=1.0, offset=ou)
// REF: rope_batch = mx.fast.rope(xb, 16, traditional=False, base=10000.0, scale=1.0, offset=ob)
// REF: rope_batch_trad = mx.fast.rope(xb, 8, traditional=True, base=500.0, scale=0.5, offset=ob)
// REF: rope_batch_3d = mx.fast.rope(x3, 16, traditional=False, base=10000.0, scale=1.0, offset=ob)
func.func @fast_rope_offsets(
    %x: tensor<2x2x5x16xf32> {mlx.name = "x"},
    %ou: tensor<ui32> {mlx.name = "ou"},
    %xb: tensor<3x2x5x16xf32> {mlx.name = "xb"},
    %x3: tensor<3x5x16xf32> {mlx.name = "x3"},
    %ob: tensor<3xi32> {mlx.name = "ob"})
    -> (tensor<2x2x5x16xf32> {mlx.name = "rope_u32"},
        tensor<3x2x5x16xf32> {mlx.name = "rope_batch"},
        tensor<3x2x5x16xf32> {mlx.name = "rope_batch_trad"},
        tensor<3x5x16xf32> {mlx.name = "rope_batch_3d"}) {
  %rope_u32 = mlx.rope %x, %ou {dims = 16 : i64, traditional = false, base = 1.0e+04 : f32, scale = 1.0 : f32} : tensor<2x2x5x16xf32>, tensor<ui32>
  %b = mlx.rope %xb, %ob {dims = 16 : i64, traditional = false, base = 1.0e+04 : f32, scale = 1.0 : f32} : tensor<3x2x5x16xf32>, tensor<3xi32>
  %t = mlx.rope %xb, %ob {dims = 8 : i64, traditional = true, base = 5.0e+02 : f32, scale = 0.5 : f32} : tensor<3x2x5x16xf32>, tensor<3xi32>
  %d = mlx.rope %x3, %ob {dims = 16 : i64, traditional = false, base = 1.0e+04 : f32, scale = 1.0 : f32} : tensor<3x5x16xf32>, tensor<3xi32>
  return %rope_u32, %b, %t, %d
      : tensor<2x2x5x16xf32>, tensor<3x2x5x16xf32>, tensor<3x2x5x16xf32>, tensor<3x5x16xf32>
}
