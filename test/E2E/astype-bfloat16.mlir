// RUN: %check %s
// astype float32, float16 -> bfloat16 and bfloat16 -> float32, int32, float16,
// bool.
// INPUT: f = uniform(-100.0, 100.0)
// INPUT: g = uniform(-100.0, 100.0)
// REF: f_to_bf16 = f.astype(mx.bfloat16)
// REF: h_to_bf16 = h.astype(mx.bfloat16)
// REF: g_to_f32 = g.astype(mx.float32)
// REF: g_to_i32 = g.astype(mx.int32)
// REF: g_to_f16 = g.astype(mx.float16)
// REF: g_to_b = g.astype(mx.bool_)
func.func @astype_bfloat16(
    %f: tensor<2x5xf32> {mlx.name = "f"},
    %g: tensor<2x5xbf16> {mlx.name = "g"},
    %h: tensor<2x5xf16> {mlx.name = "h"})
    -> (tensor<2x5xbf16> {mlx.name = "f_to_bf16"},
    tensor<2x5xbf16> {mlx.name = "h_to_bf16"},
    tensor<2x5xf32> {mlx.name = "g_to_f32"},
    tensor<2x5xi32> {mlx.name = "g_to_i32"},
    tensor<2x5xf16> {mlx.name = "g_to_f16"},
    tensor<2x5xi1> {mlx.name = "g_to_b"}) {
  %f_to_bf16 = mlx.astype %f : tensor<2x5xf32> to bf16
  %h_to_bf16 = mlx.astype %h : tensor<2x5xf16> to bf16
  %g_to_f32 = mlx.astype %g : tensor<2x5xbf16> to f32
  %g_to_i32 = mlx.astype %g : tensor<2x5xbf16> to i32
  %g_to_f16 = mlx.astype %g : tensor<2x5xbf16> to f16
  %g_to_b = mlx.astype %g : tensor<2x5xbf16> to i1
  return %f_to_bf16, %h_to_bf16, %g_to_f32, %g_to_i32, %g_to_f16, %g_to_b
      : tensor<2x5xbf16>, tensor<2x5xbf16>, tensor<2x5xf32>, tensor<2x5xi32>, tensor<2x5xf16>, tensor<2x5xi1>
}
