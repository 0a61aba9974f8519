// RUN: %check %s
// Row kernels over many rows whose elementwise prologue is also read
// elsewhere (mlxc-form-kernels): the prologue's result is written by the row
// kernel's final pass as well. A prefill layer's residual sum in bf16 that
// the next rms_norm reads and the layer adds to again; an f32 layer_norm of
// a scaled input that is also returned, over rows of 1000 (not a whole
// number of the block's threads); a softmax of scaled scores that are also
// returned. Of one row (a decode step) the sum stays a kernel of its own.
// REF: h = x + a
// REF: n = mx.fast.rms_norm(h, g, 1e-5)
// REF: out = h + n @ w
// REF: h2 = x2 * 0.5
// REF: ln = mx.fast.layer_norm(h2, g2, b2, 1e-5)
// REF: s = sc * 0.125
// REF: p = mx.softmax(s, axis=-1, precise=True)
// REF: h1 = x1 + a1
// REF: n1 = mx.fast.rms_norm(h1, g1, 1e-5)
func.func @residual_norm_prologue(
    %x: tensor<2x64x512xbf16> {mlx.name = "x"},
    %a: tensor<2x64x512xbf16> {mlx.name = "a"},
    %g: tensor<512xbf16> {mlx.name = "g"},
    %w: tensor<512x512xbf16> {mlx.name = "w"},
    %x2: tensor<24x1000xf32> {mlx.name = "x2"},
    %g2: tensor<1000xf32> {mlx.name = "g2"},
    %b2: tensor<1000xf32> {mlx.name = "b2"},
    %sc: tensor<2x4x32x64xf32> {mlx.name = "sc"},
    %x1: tensor<1x1x256xbf16> {mlx.name = "x1"},
    %a1: tensor<1x1x256xbf16> {mlx.name = "a1"},
    %g1: tensor<256xbf16> {mlx.name = "g1"})
    -> (tensor<2x64x512xbf16> {mlx.name = "h"},
        tensor<2x64x512xbf16> {mlx.name = "n"},
        tensor<2x64x512xbf16> {mlx.name = "out"},
        tensor<24x1000xf32> {mlx.name = "h2"},
        tensor<24x1000xf32> {mlx.name = "ln"},
        tensor<2x4x32x64xf32> {mlx.name = "s"},
        tensor<2x4x32x64xf32> {mlx.name = "p"},
        tensor<1x1x256xbf16> {mlx.name = "h1"},
        tensor<1x1x256xbf16> {mlx.name = "n1"}) {
  %h = mlx.add %x, %a : tensor<2x64x512xbf16>, tensor<2x64x512xbf16>
  %n = mlx.rms_norm %h, %g {eps = 1.0e-05 : f32} : tensor<2x64x512xbf16>, tensor<512xbf16>
  %nw = mlx.matmul %n, %w : tensor<2x64x512xbf16>, tensor<512x512xbf16>
  %out = mlx.add %h, %nw : tensor<2x64x512xbf16>, tensor<2x64x512xbf16>
  %half = mlx.constant dense<0.5> : tensor<f32>
  %h2 = mlx.multiply %x2, %half : tensor<24x1000xf32>, tensor<f32>
  %ln = mlx.layer_norm %h2 weight(%g2 : tensor<1000xf32>) bias(%b2 : tensor<1000xf32>) {eps = 1.0e-05 : f32} : tensor<24x1000xf32>
  %eighth = mlx.constant dense<0.125> : tensor<f32>
  %s = mlx.multiply %sc, %eighth : tensor<2x4x32x64xf32>, tensor<f32>
  %p = mlx.softmax %s {axes = array<i64: -1>, precise = true} : tensor<2x4x32x64xf32>
  %h1 = mlx.add %x1, %a1 : tensor<1x1x256xbf16>, tensor<1x1x256xbf16>
  %n1 = mlx.rms_norm %h1, %g1 {eps = 1.0e-05 : f32} : tensor<1x1x256xbf16>, tensor<256xbf16>
  return %h, %n, %out, %h2, %ln, %s, %p, %h1, %n1 : tensor<2x64x512xbf16>, tensor<2x64x512xbf16>, tensor<2x64x512xbf16>, tensor<24x1000xf32>, tensor<24x1000xf32>, tensor<2x4x32x64xf32>, tensor<2x4x32x64xf32>, tensor<1x1x256xbf16>, tensor<1x1x256xbf16>
}
