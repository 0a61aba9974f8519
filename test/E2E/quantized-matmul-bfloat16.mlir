// RUN: %check %s
// mlx.quantized_matmul on bfloat16: weights quantized in the graph
// (mlx.quantize, bits 2 to 8, group sizes 32 to 128, transpose true and
// false) and packed words given as inputs (random bit patterns), with
// batch broadcasting, a vector x and transpose = false.
// MLX's bfloat16 quantized_matmul accumulates in bfloat16 (with
// bfloat16 and K = 256 it is off by 3 at magnitude 46, where float32
// accumulation stays within 0.13 of the exact product), so the
// reference is mx.dequantize (bit-exact, see dequantize-*.mlir) and a
// float32 matmul rounded once, which is what mlxc computes.
// INPUT: qb = randint(0, 2**32)
// INPUT: sb = uniform(-0.05, 0.05)
// INPUT: bb = uniform(-0.5, 0.5)
// INPUT: q6 = randint(0, 2**32)
// INPUT: s6 = uniform(-0.05, 0.05)
// INPUT: b6 = uniform(-0.5, 0.5)
// INPUT: q2 = randint(0, 2**32)
// INPUT: s2 = uniform(-0.05, 0.05)
// INPUT: b2 = uniform(-0.5, 0.5)
// REF: qmm = lambda x, q, s, b, transpose=True, **k: (lambda wd: (x.astype(mx.float32) @ (wd.swapaxes(-1, -2) if transpose else wd)).astype(x.dtype))(mx.dequantize(q, s, b, **k).astype(mx.float32))
// REF: y2_32 = qmm(x, *mx.quantize(w, group_size=32, bits=2), group_size=32, bits=2)
// REF: y3_64 = qmm(x, *mx.quantize(w, group_size=64, bits=3), group_size=64, bits=3)
// REF: y4_64 = qmm(x, *mx.quantize(w, group_size=64, bits=4), group_size=64, bits=4)
// REF: y5_128 = qmm(x, *mx.quantize(w, group_size=128, bits=5), group_size=128, bits=5)
// REF: y6_32 = qmm(x, *mx.quantize(w, group_size=32, bits=6), group_size=32, bits=6)
// REF: y8_128 = qmm(x, *mx.quantize(w, group_size=128, bits=8), group_size=128, bits=8)
// REF: y4_128 = qmm(x, *mx.quantize(w, group_size=128, bits=4), group_size=128, bits=4)
// REF: y8_32 = qmm(x, *mx.quantize(w, group_size=32, bits=8), group_size=32, bits=8)
// REF: nt4_64 = qmm(x, *mx.quantize(wt, group_size=64, bits=4), transpose=False, group_size=64, bits=4)
// REF: nt3_32 = qmm(x, *mx.quantize(wt, group_size=32, bits=3), transpose=False, group_size=32, bits=3)
// REF: nt8_128 = qmm(x, *mx.quantize(wt, group_size=128, bits=8), transpose=False, group_size=128, bits=8)
// REF: batched = qmm(xb, qb, sb, bb, group_size=64, bits=4)
// REF: vector = qmm(xv, q6, s6, b6, group_size=32, bits=6)
// REF: packed_nt = qmm(xb, q2, s2, b2, transpose=False, group_size=32, bits=2)
func.func @quantized_matmul_bfloat16(
    %x: tensor<5x256xbf16> {mlx.name = "x"},
    %w: tensor<24x256xbf16> {mlx.name = "w"},
    %wt: tensor<256x256xbf16> {mlx.name = "wt"},
    %xb: tensor<2x1x5x128xbf16> {mlx.name = "xb"},
    %qb: tensor<3x16x16xui32> {mlx.name = "qb"},
    %sb: tensor<3x16x2xbf16> {mlx.name = "sb"},
    %bb: tensor<3x16x2xbf16> {mlx.name = "bb"},
    %xv: tensor<128xbf16> {mlx.name = "xv"},
    %q6: tensor<16x24xui32> {mlx.name = "q6"},
    %s6: tensor<16x4xbf16> {mlx.name = "s6"},
    %b6: tensor<16x4xbf16> {mlx.name = "b6"},
    %q2: tensor<128x8xui32> {mlx.name = "q2"},
    %s2: tensor<128x4xbf16> {mlx.name = "s2"},
    %b2: tensor<128x4xbf16> {mlx.name = "b2"})
    -> (tensor<5x24xbf16> {mlx.name = "y2_32"},
    tensor<5x24xbf16> {mlx.name = "y3_64"},
    tensor<5x24xbf16> {mlx.name = "y4_64"},
    tensor<5x24xbf16> {mlx.name = "y5_128"},
    tensor<5x24xbf16> {mlx.name = "y6_32"},
    tensor<5x24xbf16> {mlx.name = "y8_128"},
    tensor<5x24xbf16> {mlx.name = "y4_128"},
    tensor<5x24xbf16> {mlx.name = "y8_32"},
    tensor<5x256xbf16> {mlx.name = "nt4_64"},
    tensor<5x256xbf16> {mlx.name = "nt3_32"},
    tensor<5x256xbf16> {mlx.name = "nt8_128"},
    tensor<2x3x5x16xbf16> {mlx.name = "batched"},
    tensor<16xbf16> {mlx.name = "vector"},
    tensor<2x1x5x128xbf16> {mlx.name = "packed_nt"}) {
  %y2_32_w:3 = mlx.quantize %w {group_size = 32 : i64, bits = 2 : i64} : tensor<24x256xbf16>
  %y2_32 = mlx.quantized_matmul %x, %y2_32_w#0, %y2_32_w#1, %y2_32_w#2 {group_size = 32 : i64, bits = 2 : i64} : tensor<5x256xbf16>, tensor<24x16xui32>, tensor<24x8xbf16>, tensor<24x8xbf16>
  %y3_64_w:3 = mlx.quantize %w {group_size = 64 : i64, bits = 3 : i64} : tensor<24x256xbf16>
  %y3_64 = mlx.quantized_matmul %x, %y3_64_w#0, %y3_64_w#1, %y3_64_w#2 {group_size = 64 : i64, bits = 3 : i64} : tensor<5x256xbf16>, tensor<24x24xui32>, tensor<24x4xbf16>, tensor<24x4xbf16>
  %y4_64_w:3 = mlx.quantize %w {group_size = 64 : i64, bits = 4 : i64} : tensor<24x256xbf16>
  %y4_64 = mlx.quantized_matmul %x, %y4_64_w#0, %y4_64_w#1, %y4_64_w#2 {group_size = 64 : i64, bits = 4 : i64} : tensor<5x256xbf16>, tensor<24x32xui32>, tensor<24x4xbf16>, tensor<24x4xbf16>
  %y5_128_w:3 = mlx.quantize %w {group_size = 128 : i64, bits = 5 : i64} : tensor<24x256xbf16>
  %y5_128 = mlx.quantized_matmul %x, %y5_128_w#0, %y5_128_w#1, %y5_128_w#2 {group_size = 128 : i64, bits = 5 : i64} : tensor<5x256xbf16>, tensor<24x40xui32>, tensor<24x2xbf16>, tensor<24x2xbf16>
  %y6_32_w:3 = mlx.quantize %w {group_size = 32 : i64, bits = 6 : i64} : tensor<24x256xbf16>
  %y6_32 = mlx.quantized_matmul %x, %y6_32_w#0, %y6_32_w#1, %y6_32_w#2 {group_size = 32 : i64, bits = 6 : i64} : tensor<5x256xbf16>, tensor<24x48xui32>, tensor<24x8xbf16>, tensor<24x8xbf16>
  %y8_128_w:3 = mlx.quantize %w {group_size = 128 : i64, bits = 8 : i64} : tensor<24x256xbf16>
  %y8_128 = mlx.quantized_matmul %x, %y8_128_w#0, %y8_128_w#1, %y8_128_w#2 {group_size = 128 : i64, bits = 8 : i64} : tensor<5x256xbf16>, tensor<24x64xui32>, tensor<24x2xbf16>, tensor<24x2xbf16>
  %y4_128_w:3 = mlx.quantize %w {group_size = 128 : i64, bits = 4 : i64} : tensor<24x256xbf16>
  %y4_128 = mlx.quantized_matmul %x, %y4_128_w#0, %y4_128_w#1, %y4_128_w#2 {group_size = 128 : i64, bits = 4 : i64} : tensor<5x256xbf16>, tensor<24x32xui32>, tensor<24x2xbf16>, tensor<24x2xbf16>
  %y8_32_w:3 = mlx.quantize %w {group_size = 32 : i64, bits = 8 : i64} : tensor<24x256xbf16>
  %y8_32 = mlx.quantized_matmul %x, %y8_32_w#0, %y8_32_w#1, %y8_32_w#2 {group_size = 32 : i64, bits = 8 : i64} : tensor<5x256xbf16>, tensor<24x64xui32>, tensor<24x8xbf16>, tensor<24x8xbf16>
  %nt4_64_w:3 = mlx.quantize %wt {group_size = 64 : i64, bits = 4 : i64} : tensor<256x256xbf16>
  %nt4_64 = mlx.quantized_matmul %x, %nt4_64_w#0, %nt4_64_w#1, %nt4_64_w#2 {transpose = false, group_size = 64 : i64, bits = 4 : i64} : tensor<5x256xbf16>, tensor<256x32xui32>, tensor<256x4xbf16>, tensor<256x4xbf16>
  %nt3_32_w:3 = mlx.quantize %wt {group_size = 32 : i64, bits = 3 : i64} : tensor<256x256xbf16>
  %nt3_32 = mlx.quantized_matmul %x, %nt3_32_w#0, %nt3_32_w#1, %nt3_32_w#2 {transpose = false, group_size = 32 : i64, bits = 3 : i64} : tensor<5x256xbf16>, tensor<256x24xui32>, tensor<256x8xbf16>, tensor<256x8xbf16>
  %nt8_128_w:3 = mlx.quantize %wt {group_size = 128 : i64, bits = 8 : i64} : tensor<256x256xbf16>
  %nt8_128 = mlx.quantized_matmul %x, %nt8_128_w#0, %nt8_128_w#1, %nt8_128_w#2 {transpose = false, group_size = 128 : i64, bits = 8 : i64} : tensor<5x256xbf16>, tensor<256x64xui32>, tensor<256x2xbf16>, tensor<256x2xbf16>
  %batched = mlx.quantized_matmul %xb, %qb, %sb, %bb {group_size = 64 : i64, bits = 4 : i64} : tensor<2x1x5x128xbf16>, tensor<3x16x16xui32>, tensor<3x16x2xbf16>, tensor<3x16x2xbf16>
  %vector = mlx.quantized_matmul %xv, %q6, %s6, %b6 {group_size = 32 : i64, bits = 6 : i64} : tensor<128xbf16>, tensor<16x24xui32>, tensor<16x4xbf16>, tensor<16x4xbf16>
  %packed_nt = mlx.quantized_matmul %xb, %q2, %s2, %b2 {transpose = false, group_size = 32 : i64, bits = 2 : i64} : tensor<2x1x5x128xbf16>, tensor<128x8xui32>, tensor<128x4xbf16>, tensor<128x4xbf16>
  return %y2_32, %y3_64, %y4_64, %y5_128, %y6_32, %y8_128, %y4_128, %y8_32, %nt4_64, %nt3_32, %nt8_128, %batched, %vector, %packed_nt
      : tensor<5x24xbf16>, tensor<5x24xbf16>, tensor<5x24xbf16>, tensor<5x24xbf16>, tensor<5x24xbf16>, tensor<5x24xbf16>, tensor<5x24xbf16>, tensor<5x24xbf16>, tensor<5x256xbf16>, tensor<5x256xbf16>, tensor<5x256xbf16>, tensor<2x3x5x16xbf16>, tensor<16xbf16>, tensor<2x1x5x128xbf16>
}
