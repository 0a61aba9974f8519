func.func @main(%w: tensor<4x64xf32>) -> tensor<4x8xui32> {
  %q:2 = mlx.quantize %w {group_size = 32 : i64, bits = 4 : i64, mode = #mlx<quantization_mode mxfp4>} : tensor<4x64xf32>
  return %q#0 : tensor<4x8xui32>
}
