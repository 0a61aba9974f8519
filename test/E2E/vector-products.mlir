// RUN: %check %s
// Products of a decode step's shape, at most 4 rows, against MLX: on CUDA
// a weight stored [out, in] (x @ w.T, q @ k.T) becomes a row kernel over its
// rows (mlxc-vector-products) and one stored [in, out] (h @ w, p @ v) a
// product split over k (mlxc-split-vector-products); the CPU runs the same
// kernel regions. Shapes cover k not a multiple of the chunks (1000, 1025),
// columns that are no multiple of 16 bytes (100), f32/f16/bf16, a batch,
// the residual epilogue and an addmm that accumulates into its input; a
// batch folded into 3 rows, and keys broadcast over the batch
// (mx.broadcast_to, read in place).
// REF: rowform = x @ wt.T + r
// REF: bx = x3 @ w3.T
// REF: bcol = x3 @ wc
// REF: shared = qs @ mx.broadcast_to(k1, (4, 128, 64)).transpose(0, 2, 1)
// REF: colform = x @ w + r
// REF: colragged = x4 @ wr
// REF: scores = q @ kc.transpose(0, 2, 1)
// REF: pv = p @ vc
// REF: half = xh @ wh
// REF: acc = mx.addmm(c, x4, wr, alpha=1.0, beta=1.0)
func.func @vector_products(
    %x: tensor<1x256xbf16> {mlx.name = "x"},
    %wt: tensor<384x256xbf16> {mlx.name = "wt"},
    %w: tensor<256x384xbf16> {mlx.name = "w"},
    %r: tensor<1x384xbf16> {mlx.name = "r"},
    %x4: tensor<4x1000xf32> {mlx.name = "x4"},
    %wr: tensor<1000x100xf32> {mlx.name = "wr"},
    %q: tensor<2x4x64xbf16> {mlx.name = "q"},
    %kc: tensor<2x1025x64xbf16> {mlx.name = "kc"},
    %p: tensor<2x4x1025xf32> {mlx.name = "p"},
    %vc: tensor<2x1025x64xf32> {mlx.name = "vc"},
    %xh: tensor<2x512xf16> {mlx.name = "xh"},
    %wh: tensor<512x200xf16> {mlx.name = "wh"},
    %c: tensor<4x100xf32> {mlx.name = "c"},
    %x3: tensor<3x1x64xf32> {mlx.name = "x3"},
    %w3: tensor<96x64xf32> {mlx.name = "w3"},
    %wc: tensor<64x96xf32> {mlx.name = "wc"},
    %qs: tensor<4x2x64xbf16> {mlx.name = "qs"},
    %k1: tensor<1x128x64xbf16> {mlx.name = "k1"})
    -> (tensor<1x384xbf16> {mlx.name = "rowform"},
        tensor<1x384xbf16> {mlx.name = "colform"},
        tensor<4x100xf32> {mlx.name = "colragged"},
        tensor<2x4x1025xbf16> {mlx.name = "scores"},
        tensor<2x4x64xf32> {mlx.name = "pv"},
        tensor<2x200xf16> {mlx.name = "half"},
        tensor<4x100xf32> {mlx.name = "acc"},
        tensor<3x1x96xf32> {mlx.name = "bx"},
        tensor<3x1x96xf32> {mlx.name = "bcol"},
        tensor<4x2x128xbf16> {mlx.name = "shared"}) {
  %wtt = mlx.transpose %wt {axes = array<i64: 1, 0>} : tensor<384x256xbf16>
  %y1 = mlx.matmul %x, %wtt : tensor<1x256xbf16>, tensor<256x384xbf16>
  %rowform = mlx.add %y1, %r : tensor<1x384xbf16>, tensor<1x384xbf16>
  %y2 = mlx.matmul %x, %w : tensor<1x256xbf16>, tensor<256x384xbf16>
  %colform = mlx.add %y2, %r : tensor<1x384xbf16>, tensor<1x384xbf16>
  %colragged = mlx.matmul %x4, %wr : tensor<4x1000xf32>, tensor<1000x100xf32>
  %kt = mlx.transpose %kc {axes = array<i64: 0, 2, 1>} : tensor<2x1025x64xbf16>
  %scores = mlx.matmul %q, %kt : tensor<2x4x64xbf16>, tensor<2x64x1025xbf16>
  %pv = mlx.matmul %p, %vc : tensor<2x4x1025xf32>, tensor<2x1025x64xf32>
  %half = mlx.matmul %xh, %wh : tensor<2x512xf16>, tensor<512x200xf16>
  %acc = mlx.addmm %c, %x4, %wr {alpha = 1.0 : f32, beta = 1.0 : f32} : tensor<4x100xf32>, tensor<4x1000xf32>, tensor<1000x100xf32>
  %w3t = mlx.transpose %w3 {axes = array<i64: 1, 0>} : tensor<96x64xf32>
  %bx = mlx.matmul %x3, %w3t : tensor<3x1x64xf32>, tensor<64x96xf32>
  %bcol = mlx.matmul %x3, %wc : tensor<3x1x64xf32>, tensor<64x96xf32>
  %kb = mlx.broadcast_to %k1 {shape = array<i64: 4, 128, 64>} : tensor<1x128x64xbf16>
  %kbt = mlx.transpose %kb {axes = array<i64: 0, 2, 1>} : tensor<4x128x64xbf16>
  %shared = mlx.matmul %qs, %kbt : tensor<4x2x64xbf16>, tensor<4x64x128xbf16>
  return %rowform, %colform, %colragged, %scores, %pv, %half, %acc, %bx, %bcol, %shared
      : tensor<1x384xbf16>, tensor<1x384xbf16>, tensor<4x100xf32>, tensor<2x4x1025xbf16>, tensor<2x4x64xf32>, tensor<2x200xf16>, tensor<4x100xf32>, tensor<3x1x96xf32>, tensor<3x1x96xf32>, tensor<4x2x128xbf16>
}
