// RUN: %check %s
// Residual connections after library products (8 rows: cuBLASLt on CUDA),
// as decoder layers have them: h1 = x + f(x) @ w1, out = h1 + g(h1) @ w2.
// On CUDA mlxc-matmul-to-runtime lets cuBLASLt add the second product to
// h1 in the output buffer (beta = 1): h1's buffer becomes out's and the sum
// is no kernel of its own (the same in f16). Where h1 is returned too
// (`kept`), its buffer stays its own and the sum keeps its kernel; so does
// the f32 sum, and the first sum, whose residual is an input.
// REF: h1 = x + mx.maximum(x, 0) @ w1
// REF: out = h1 + (h1 * 0.5) @ w2
// REF: h1b = xb + (xb * 2.0) @ w1b
// REF: outb = h1b + mx.tanh(h1b) @ w2b
// REF: h1k = x + (x * 0.25) @ w1
// REF: kept = h1k + h1k @ w2
// REF: y32 = x32 + (x32 * 0.5) @ w32
func.func @product_residual(
    %x: tensor<8x256xbf16> {mlx.name = "x"},
    %w1: tensor<256x256xbf16> {mlx.name = "w1"},
    %w2: tensor<256x256xbf16> {mlx.name = "w2"},
    %xb: tensor<8x128xf16> {mlx.name = "xb"},
    %w1b: tensor<128x128xf16> {mlx.name = "w1b"},
    %w2b: tensor<128x128xf16> {mlx.name = "w2b"},
    %x32: tensor<8x64xf32> {mlx.name = "x32"},
    %w32: tensor<64x64xf32> {mlx.name = "w32"})
    -> (tensor<8x256xbf16> {mlx.name = "out"},
        tensor<8x128xf16> {mlx.name = "outb"},
        tensor<8x256xbf16> {mlx.name = "h1k"},
        tensor<8x256xbf16> {mlx.name = "kept"},
        tensor<8x64xf32> {mlx.name = "y32"}) {
  %zero = mlx.constant dense<0.0> : tensor<bf16>
  %r = mlx.maximum %x, %zero : tensor<8x256xbf16>, tensor<bf16>
  %p1 = mlx.matmul %r, %w1 : tensor<8x256xbf16>, tensor<256x256xbf16>
  %h1 = mlx.add %x, %p1 : tensor<8x256xbf16>, tensor<8x256xbf16>
  %half = mlx.constant dense<0.5> : tensor<bf16>
  %s = mlx.multiply %h1, %half : tensor<8x256xbf16>, tensor<bf16>
  %p2 = mlx.matmul %s, %w2 : tensor<8x256xbf16>, tensor<256x256xbf16>
  %out = mlx.add %h1, %p2 : tensor<8x256xbf16>, tensor<8x256xbf16>
  %two = mlx.constant dense<2.0> : tensor<f16>
  %sb = mlx.multiply %xb, %two : tensor<8x128xf16>, tensor<f16>
  %p1b = mlx.matmul %sb, %w1b : tensor<8x128xf16>, tensor<128x128xf16>
  %h1b = mlx.add %xb, %p1b : tensor<8x128xf16>, tensor<8x128xf16>
  %t = mlx.tanh %h1b : tensor<8x128xf16>
  %p2b = mlx.matmul %t, %w2b : tensor<8x128xf16>, tensor<128x128xf16>
  %outb = mlx.add %p2b, %h1b : tensor<8x128xf16>, tensor<8x128xf16>
  %quarter = mlx.constant dense<0.25> : tensor<bf16>
  %sk = mlx.multiply %x, %quarter : tensor<8x256xbf16>, tensor<bf16>
  %pk = mlx.matmul %sk, %w1 : tensor<8x256xbf16>, tensor<256x256xbf16>
  %h1k = mlx.add %x, %pk : tensor<8x256xbf16>, tensor<8x256xbf16>
  %pk2 = mlx.matmul %h1k, %w2 : tensor<8x256xbf16>, tensor<256x256xbf16>
  %kept = mlx.add %h1k, %pk2 : tensor<8x256xbf16>, tensor<8x256xbf16>
  %halff = mlx.constant dense<0.5> : tensor<f32>
  %s32 = mlx.multiply %x32, %halff : tensor<8x64xf32>, tensor<f32>
  %p32 = mlx.matmul %s32, %w32 : tensor<8x64xf32>, tensor<64x64xf32>
  %y32 = mlx.add %x32, %p32 : tensor<8x64xf32>, tensor<8x64xf32>
  return %out, %outb, %h1k, %kept, %y32 : tensor<8x256xbf16>, tensor<8x128xf16>, tensor<8x256xbf16>, tensor<8x256xbf16>, tensor<8x64xf32>
}
