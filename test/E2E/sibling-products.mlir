// RUN: %check %s
// A decode layer's q, k and v products read one normed row; on CUDA
// mlxc-split-vector-products moves k and v up past q's elementwise tail
// (RoPE's place) and runs the three as one launch. Here in bf16 with a
// residual epilogue on v, and in f32 with 2 rows and a ragged k. A product
// whose weight is computed from q (a reduction after it) must stay behind
// q's tail and runs alone. (No exp of an f32 product: it turns the
// summation order's last-bit differences into errors above 2e-5.)
// REF: h = x * g
// REF: qr = mx.exp(h @ wq) * 0.5
// REF: k = h @ wk
// REF: v = h @ wv + r
// REF: h2 = x2 * 2.0
// REF: q2 = (h2 @ a2) * 0.5
// REF: k2 = h2 @ b2
// REF: late = h2 @ (b2 * mx.sum(h2 @ a2))
func.func @sibling_products(
    %x: tensor<1x256xbf16> {mlx.name = "x"},
    %g: tensor<256xbf16> {mlx.name = "g"},
    %wq: tensor<256x384xbf16> {mlx.name = "wq"},
    %wk: tensor<256x256xbf16> {mlx.name = "wk"},
    %wv: tensor<256x256xbf16> {mlx.name = "wv"},
    %r: tensor<1x256xbf16> {mlx.name = "r"},
    %x2: tensor<2x300xf32> {mlx.name = "x2"},
    %a2: tensor<300x100xf32> {mlx.name = "a2"},
    %b2: tensor<300x100xf32> {mlx.name = "b2"})
    -> (tensor<1x384xbf16> {mlx.name = "qr"},
        tensor<1x256xbf16> {mlx.name = "k"},
        tensor<1x256xbf16> {mlx.name = "v"},
        tensor<2x100xf32> {mlx.name = "q2"},
        tensor<2x100xf32> {mlx.name = "k2"},
        tensor<2x100xf32> {mlx.name = "late"}) {
  %h = mlx.multiply %x, %g : tensor<1x256xbf16>, tensor<256xbf16>
  %q = mlx.matmul %h, %wq : tensor<1x256xbf16>, tensor<256x384xbf16>
  %qe = mlx.exp %q : tensor<1x384xbf16>
  %half = mlx.constant dense<0.5> : tensor<bf16>
  %qr = mlx.multiply %qe, %half : tensor<1x384xbf16>, tensor<bf16>
  %k = mlx.matmul %h, %wk : tensor<1x256xbf16>, tensor<256x256xbf16>
  %v0 = mlx.matmul %h, %wv : tensor<1x256xbf16>, tensor<256x256xbf16>
  %v = mlx.add %v0, %r : tensor<1x256xbf16>, tensor<1x256xbf16>
  %two = mlx.constant dense<2.0> : tensor<f32>
  %h2 = mlx.multiply %x2, %two : tensor<2x300xf32>, tensor<f32>
  %p2 = mlx.matmul %h2, %a2 : tensor<2x300xf32>, tensor<300x100xf32>
  %halff = mlx.constant dense<0.5> : tensor<f32>
  %q2 = mlx.multiply %p2, %halff : tensor<2x100xf32>, tensor<f32>
  %k2 = mlx.matmul %h2, %b2 : tensor<2x300xf32>, tensor<300x100xf32>
  %s = mlx.sum %p2 {axes = array<i64: 0, 1>, keepdims = false} : tensor<2x100xf32>
  %bs = mlx.multiply %b2, %s : tensor<300x100xf32>, tensor<f32>
  %late = mlx.matmul %h2, %bs : tensor<2x300xf32>, tensor<300x100xf32>
  return %qr, %k, %v, %q2, %k2, %late
      : tensor<1x384xbf16>, tensor<1x256xbf16>, tensor<1x256xbf16>, tensor<2x100xf32>, tensor<2x100xf32>, tensor<2x100xf32>
}
