func.func @main(%x: tensor<2x64xf32>, %w: tensor<8x8xui32>, %s: tensor<8x2xui8>) -> tensor<2x8xf32> {
  %y = mlx.quantized_matmul %x, %w, %s {group_size = 32 : i64, bits = 4 : i64, mode = #mlx<quantization_mode mxfp4>} : tensor<2x64xf32>, tensor<8x8xui32>, tensor<8x2xui8>
  return %y : tensor<2x8xf32>
}
