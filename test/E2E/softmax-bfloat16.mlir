// RUN: %check %s
// softmax on bfloat16, precise and not, last and first axis.
// INPUT: g = uniform(-8.0, 8.0)
// REF: sm_g = mx.softmax(g, axis=-1)
// REF: sm_g_precise = mx.softmax(g, axis=-1, precise=True)
// REF: sm_g0_precise = mx.softmax(g, axis=0, precise=True)
func.func @softmax_bfloat16(
    %g: tensor<4x16xbf16> {mlx.name = "g"})
    -> (tensor<4x16xbf16> {mlx.name = "sm_g"},
    tensor<4x16xbf16> {mlx.name = "sm_g_precise"},
    tensor<4x16xbf16> {mlx.name = "sm_g0_precise"}) {
  %sm_g = mlx.softmax %g {axes = array<i64: -1>} : tensor<4x16xbf16>
  %sm_g_precise = mlx.softmax %g {axes = array<i64: -1>, precise = true} : tensor<4x16xbf16>
  %sm_g0_precise = mlx.softmax %g {axes = array<i64: 0>, precise = true} : tensor<4x16xbf16>
  return %sm_g, %sm_g_precise, %sm_g0_precise
      : tensor<4x16xbf16>, tensor<4x16xbf16>, tensor<4x16xbf16>
}
