// RUN: %check %s
// astype from int32, uint8, bool and float64 to bfloat16.
// INPUT: i = randint(-1000, 1000)
// INPUT: u8 = randint(0, 256)
// REF: i_to_bf16 = i.astype(mx.bfloat16)
// REF: u8_to_bf16 = u8.astype(mx.bfloat16)
// REF: b_to_bf16 = b.astype(mx.bfloat16)
// REF: d_to_bf16 = d.astype(mx.bfloat16)
func.func @astype_to_bfloat16(
    %i: tensor<2x5xi32> {mlx.name = "i"},
    %u8: tensor<2x5xui8> {mlx.name = "u8"},
    %b: tensor<2x5xi1> {mlx.name = "b"},
    %d: tensor<2x5xf64> {mlx.name = "d"})
    -> (tensor<2x5xbf16> {mlx.name = "i_to_bf16"},
    tensor<2x5xbf16> {mlx.name = "u8_to_bf16"},
    tensor<2x5xbf16> {mlx.name = "b_to_bf16"},
    tensor<2x5xbf16> {mlx.name = "d_to_bf16"}) {
  %i_to_bf16 = mlx.astype %i : tensor<2x5xi32> to bf16
  %u8_to_bf16 = mlx.astype %u8 : tensor<2x5xui8> to bf16
  %b_to_bf16 = mlx.astype %b : tensor<2x5xi1> to bf16
  %d_to_bf16 = mlx.astype %d : tensor<2x5xf64> to bf16
  return %i_to_bf16, %u8_to_bf16, %b_to_bf16, %d_to_bf16
      : tensor<2x5xbf16>, tensor<2x5xbf16>, tensor<2x5xbf16>, tensor<2x5xbf16>
}
