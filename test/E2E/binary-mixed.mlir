// RUN: %check %s
// Binary ops across dtypes, with MLX's promotion: int32+float32 -> float32,
// uint8+int8 -> int16, float16+int32 -> float16, bool+int32 -> int32,
// uint32+int32 -> int64, int16+uint16 -> int32, float16+float32 -> float32.
// INPUT: u8 = randint(0, 256)
// INPUT: i8 = randint(-128, 128)
// INPUT: u32 = randint(0, 100000)
// INPUT: i16 = randint(-3000, 3000)
// INPUT: u16 = randint(1, 60000)
// REF: add_i32_f32 = i + f
// REF: mul_f32_i32 = f * i
// REF: div_i32_f32 = i / f
// REF: less_i32_f32 = i < f
// REF: add_u8_i8 = u8 + i8
// REF: sub_u8_i8 = u8 - i8
// REF: max_u8_i8 = mx.maximum(u8, i8)
// REF: eq_u8_i8 = u8 == i8
// REF: bor_u8_i8 = u8 | i8
// REF: add_f16_i32 = h + i
// REF: mul_f16_f32 = h * f
// REF: add_b_i32 = b + i
// REF: mul_b_f32 = b * f
// REF: and_b_i32 = mx.logical_and(b, i)
// REF: add_u32_i32 = u32 + i
// REF: sub_i16_u16 = i16 - u16
// REF: floordiv_i16_u16 = i16 // u16
// REF: rem_i8_i32 = i8 % i
func.func @binary_mixed(
    %i: tensor<2x3xi32> {mlx.name = "i"},
    %f: tensor<3xf32> {mlx.name = "f"},
    %u8: tensor<2x3xui8> {mlx.name = "u8"},
    %i8: tensor<3xi8> {mlx.name = "i8"},
    %h: tensor<2x3xf16> {mlx.name = "h"},
    %b: tensor<2x1xi1> {mlx.name = "b"},
    %u32: tensor<3xui32> {mlx.name = "u32"},
    %i16: tensor<2x3xi16> {mlx.name = "i16"},
    %u16: tensor<3xui16> {mlx.name = "u16"})
    -> (tensor<2x3xf32> {mlx.name = "add_i32_f32"},
    tensor<2x3xf32> {mlx.name = "mul_f32_i32"},
    tensor<2x3xf32> {mlx.name = "div_i32_f32"},
    tensor<2x3xi1> {mlx.name = "less_i32_f32"},
    tensor<2x3xi16> {mlx.name = "add_u8_i8"},
    tensor<2x3xi16> {mlx.name = "sub_u8_i8"},
    tensor<2x3xi16> {mlx.name = "max_u8_i8"},
    tensor<2x3xi1> {mlx.name = "eq_u8_i8"},
    tensor<2x3xi16> {mlx.name = "bor_u8_i8"},
    tensor<2x3xf16> {mlx.name = "add_f16_i32"},
    tensor<2x3xf32> {mlx.name = "mul_f16_f32"},
    tensor<2x3xi32> {mlx.name = "add_b_i32"},
    tensor<2x3xf32> {mlx.name = "mul_b_f32"},
    tensor<2x3xi1> {mlx.name = "and_b_i32"},
    tensor<2x3xi64> {mlx.name = "add_u32_i32"},
    tensor<2x3xi32> {mlx.name = "sub_i16_u16"},
    tensor<2x3xi32> {mlx.name = "floordiv_i16_u16"},
    tensor<2x3xi32> {mlx.name = "rem_i8_i32"}) {
  %add_i32_f32 = mlx.add %i, %f : tensor<2x3xi32>, tensor<3xf32>
  %mul_f32_i32 = mlx.multiply %f, %i : tensor<3xf32>, tensor<2x3xi32>
  %div_i32_f32 = mlx.divide %i, %f : tensor<2x3xi32>, tensor<3xf32>
  %less_i32_f32 = mlx.less %i, %f : tensor<2x3xi32>, tensor<3xf32>
  %add_u8_i8 = mlx.add %u8, %i8 : tensor<2x3xui8>, tensor<3xi8>
  %sub_u8_i8 = mlx.subtract %u8, %i8 : tensor<2x3xui8>, tensor<3xi8>
  %max_u8_i8 = mlx.maximum %u8, %i8 : tensor<2x3xui8>, tensor<3xi8>
  %eq_u8_i8 = mlx.equal %u8, %i8 : tensor<2x3xui8>, tensor<3xi8>
  %bor_u8_i8 = mlx.bitwise_or %u8, %i8 : tensor<2x3xui8>, tensor<3xi8>
  %add_f16_i32 = mlx.add %h, %i : tensor<2x3xf16>, tensor<2x3xi32>
  %mul_f16_f32 = mlx.multiply %h, %f : tensor<2x3xf16>, tensor<3xf32>
  %add_b_i32 = mlx.add %b, %i : tensor<2x1xi1>, tensor<2x3xi32>
  %mul_b_f32 = mlx.multiply %b, %f : tensor<2x1xi1>, tensor<3xf32>
  %and_b_i32 = mlx.logical_and %b, %i : tensor<2x1xi1>, tensor<2x3xi32>
  %add_u32_i32 = mlx.add %u32, %i : tensor<3xui32>, tensor<2x3xi32>
  %sub_i16_u16 = mlx.subtract %i16, %u16 : tensor<2x3xi16>, tensor<3xui16>
  %floordiv_i16_u16 = mlx.floor_divide %i16, %u16 : tensor<2x3xi16>, tensor<3xui16>
  %rem_i8_i32 = mlx.remainder %i8, %i : tensor<3xi8>, tensor<2x3xi32>
  return %add_i32_f32, %mul_f32_i32, %div_i32_f32, %less_i32_f32, %add_u8_i8, %sub_u8_i8, %max_u8_i8, %eq_u8_i8, %bor_u8_i8, %add_f16_i32, %mul_f16_f32, %add_b_i32, %mul_b_f32, %and_b_i32, %add_u32_i32, %sub_i16_u16, %floordiv_i16_u16, %rem_i8_i32
      : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xi16>, tensor<2x3xi16>, tensor<2x3xi16>, tensor<2x3xi1>, tensor<2x3xi16>, tensor<2x3xf16>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xi64>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>
}
