// RUN: %check %s
// A decode step's norm before its products: on CUDA the norm becomes the
// prologue of mlxc-split-vector-products' launch (every block reduces the
// row and computes the normed elements as it reads them). rms_norm in bf16
// before a q/k pair (one launch, a residual epilogue on k); layer_norm in
// f32 with 2 rows and a ragged k (1000, not a whole number of the block's
// 256 threads); an rms_norm of 96 columns (fewer than the threads); a norm
// whose row is also an output (it stays a kernel of its own); a SwiGLU
// MLP whose silu(gate) * up becomes the down product's prologue; a final
// norm of a residual add that is the product before's epilogue (the norm
// stays a kernel of its own: the epilogue's op is not computed twice).
// REF: h = mx.fast.rms_norm(x, g, 1e-5)
// REF: q = h @ wq
// REF: k = h @ wk + r
// REF: ln = mx.fast.layer_norm(x2, g2, b2, 1e-5) @ a2
// REF: short = mx.fast.rms_norm(x3, g3, 1e-6) @ a3
// REF: kept = mx.fast.rms_norm(x4, g4, 1e-5)
// REF: kept_product = kept @ a4
// REF: hg = x5 @ wg
// REF: mlp = ((hg * mx.sigmoid(hg)) * (x5 @ wu)) @ wd
// REF: last = mx.fast.rms_norm(x6 + h6 @ wa6, g6, 1e-5) @ wb6
func.func @norm_prologue(
    %x: tensor<1x2048xbf16> {mlx.name = "x"},
    %g: tensor<2048xbf16> {mlx.name = "g"},
    %wq: tensor<2048x512xbf16> {mlx.name = "wq"},
    %wk: tensor<2048x256xbf16> {mlx.name = "wk"},
    %r: tensor<1x256xbf16> {mlx.name = "r"},
    %x2: tensor<2x1000xf32> {mlx.name = "x2"},
    %g2: tensor<1000xf32> {mlx.name = "g2"},
    %b2: tensor<1000xf32> {mlx.name = "b2"},
    %a2: tensor<1000x128xf32> {mlx.name = "a2"},
    %x3: tensor<1x96xf32> {mlx.name = "x3"},
    %g3: tensor<96xf32> {mlx.name = "g3"},
    %a3: tensor<96x64xf32> {mlx.name = "a3"},
    %x4: tensor<1x512xf32> {mlx.name = "x4"},
    %g4: tensor<512xf32> {mlx.name = "g4"},
    %a4: tensor<512x256xf32> {mlx.name = "a4"},
    %x5: tensor<1x256xbf16> {mlx.name = "x5"},
    %wg: tensor<256x768xbf16> {mlx.name = "wg"},
    %wu: tensor<256x768xbf16> {mlx.name = "wu"},
    %wd: tensor<768x256xbf16> {mlx.name = "wd"},
    %x6: tensor<1x256xbf16> {mlx.name = "x6"},
    %h6: tensor<1x256xbf16> {mlx.name = "h6"},
    %wa6: tensor<256x256xbf16> {mlx.name = "wa6"},
    %g6: tensor<256xbf16> {mlx.name = "g6"},
    %wb6: tensor<256x512xbf16> {mlx.name = "wb6"})
    -> (tensor<1x512xbf16> {mlx.name = "q"},
        tensor<1x256xbf16> {mlx.name = "k"},
        tensor<2x128xf32> {mlx.name = "ln"},
        tensor<1x64xf32> {mlx.name = "short"},
        tensor<1x512xf32> {mlx.name = "kept"},
        tensor<1x256xf32> {mlx.name = "kept_product"},
        tensor<1x256xbf16> {mlx.name = "mlp"},
        tensor<1x512xbf16> {mlx.name = "last"}) {
  %h = mlx.rms_norm %x, %g {eps = 1.0e-05 : f32} : tensor<1x2048xbf16>, tensor<2048xbf16>
  %q = mlx.matmul %h, %wq : tensor<1x2048xbf16>, tensor<2048x512xbf16>
  %k0 = mlx.matmul %h, %wk : tensor<1x2048xbf16>, tensor<2048x256xbf16>
  %k = mlx.add %k0, %r : tensor<1x256xbf16>, tensor<1x256xbf16>
  %n2 = mlx.layer_norm %x2 weight(%g2 : tensor<1000xf32>) bias(%b2 : tensor<1000xf32>) {eps = 1.0e-05 : f32} : tensor<2x1000xf32>
  %ln = mlx.matmul %n2, %a2 : tensor<2x1000xf32>, tensor<1000x128xf32>
  %n3 = mlx.rms_norm %x3, %g3 {eps = 1.0e-06 : f32} : tensor<1x96xf32>, tensor<96xf32>
  %short = mlx.matmul %n3, %a3 : tensor<1x96xf32>, tensor<96x64xf32>
  %kept = mlx.rms_norm %x4, %g4 {eps = 1.0e-05 : f32} : tensor<1x512xf32>, tensor<512xf32>
  %kp = mlx.matmul %kept, %a4 : tensor<1x512xf32>, tensor<512x256xf32>
  %hg = mlx.matmul %x5, %wg : tensor<1x256xbf16>, tensor<256x768xbf16>
  %sg = mlx.sigmoid %hg : tensor<1x768xbf16>
  %silu = mlx.multiply %hg, %sg : tensor<1x768xbf16>, tensor<1x768xbf16>
  %hu = mlx.matmul %x5, %wu : tensor<1x256xbf16>, tensor<256x768xbf16>
  %p = mlx.multiply %silu, %hu : tensor<1x768xbf16>, tensor<1x768xbf16>
  %mlp = mlx.matmul %p, %wd : tensor<1x768xbf16>, tensor<768x256xbf16>
  %a6 = mlx.matmul %h6, %wa6 : tensor<1x256xbf16>, tensor<256x256xbf16>
  %r6 = mlx.add %x6, %a6 : tensor<1x256xbf16>, tensor<1x256xbf16>
  %n6 = mlx.rms_norm %r6, %g6 {eps = 1.0e-05 : f32} : tensor<1x256xbf16>, tensor<256xbf16>
  %last = mlx.matmul %n6, %wb6 : tensor<1x256xbf16>, tensor<256x512xbf16>
  return %q, %k, %ln, %short, %kept, %kp, %mlp, %last : tensor<1x512xbf16>, tensor<1x256xbf16>, tensor<2x128xf32>, tensor<1x64xf32>, tensor<1x512xf32>, tensor<1x256xf32>, tensor<1x256xbf16>, tensor<1x512xbf16>
}
