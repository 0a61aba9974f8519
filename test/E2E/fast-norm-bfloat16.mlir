// RUN: %check %s
// rms_norm and layer_norm on bfloat16 (also a float32 weight, promoting).
// INPUT: y = uniform(-4.0, 4.0) + 3.0
// REF: rms = mx.fast.rms_norm(x, w, 1e-5)
// REF: rms_now = mx.fast.rms_norm(y, None, 1e-3)
// REF: rms_promote = mx.fast.rms_norm(x, wf, 1e-5)
// REF: ln = mx.fast.layer_norm(x, w, bias, 1e-5)
// REF: ln_w = mx.fast.layer_norm(x, w, None, 1e-5)
// REF: ln_b = mx.fast.layer_norm(x, None, bias, 1e-5)
// REF: ln_none = mx.fast.layer_norm(y, None, None, 1e-2)
func.func @fast_norm_bfloat16(
    %x: tensor<3x4x16xbf16> {mlx.name = "x"},
    %w: tensor<16xbf16> {mlx.name = "w"},
    %bias: tensor<16xbf16> {mlx.name = "bias"},
    %y: tensor<5x8xbf16> {mlx.name = "y"},
    %wf: tensor<16xf32> {mlx.name = "wf"})
    -> (tensor<3x4x16xbf16> {mlx.name = "rms"},
    tensor<5x8xbf16> {mlx.name = "rms_now"},
    tensor<3x4x16xf32> {mlx.name = "rms_promote"},
    tensor<3x4x16xbf16> {mlx.name = "ln"},
    tensor<3x4x16xbf16> {mlx.name = "ln_w"},
    tensor<3x4x16xbf16> {mlx.name = "ln_b"},
    tensor<5x8xbf16> {mlx.name = "ln_none"}) {
  %rms = mlx.rms_norm %x, %w {eps = 1.0e-05 : f32} : tensor<3x4x16xbf16>, tensor<16xbf16>
  %rms_now = mlx.rms_norm %y {eps = 1.0e-03 : f32} : tensor<5x8xbf16>
  %rms_promote = mlx.rms_norm %x, %wf {eps = 1.0e-05 : f32} : tensor<3x4x16xbf16>, tensor<16xf32>
  %ln = mlx.layer_norm %x weight(%w : tensor<16xbf16>) bias(%bias : tensor<16xbf16>) {eps = 1.0e-05 : f32} : tensor<3x4x16xbf16>
  %ln_w = mlx.layer_norm %x weight(%w : tensor<16xbf16>) {eps = 1.0e-05 : f32} : tensor<3x4x16xbf16>
  %ln_b = mlx.layer_norm %x bias(%bias : tensor<16xbf16>) {eps = 1.0e-05 : f32} : tensor<3x4x16xbf16>
  %ln_none = mlx.layer_norm %y {eps = 1.0e-02 : f32} : tensor<5x8xbf16>
  return %rms, %rms_now, %rms_promote, %ln, %ln_w, %ln_b, %ln_none
      : tensor<3x4x16xbf16>, tensor<5x8xbf16>, tensor<3x4x16xf32>, tensor<3x4x16xbf16>, tensor<3x4x16xbf16>, tensor<3x4x16xbf16>, tensor<5x8xbf16>
}
