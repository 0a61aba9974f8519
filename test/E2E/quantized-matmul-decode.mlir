// RUN: %check %s
// The few-row products that the CUDA target computes from the packed words
// (kernel.quantized_matmul in a quantized_product region): one row (decode),
// 2, 6 (over leading axes 2x3), 8, 9 and 16 rows (half segments of x past 8),
// and 17 rows (past the kernel's limit: dequantized, then a product); 100
// columns (warps of one column,
// the last block partly past the end) and 8450 columns (warps of four
// columns, the last warp's columns clamped); float16 x with float32 scales,
// float32 x, every bit width with the groups MLX allows. The reference
// dequantizes with MLX (bit-exact) and multiplies in float32, rounded once.
// INPUT: q1 = randint(0, 2**32)
// INPUT: s1 = uniform(-0.05, 0.05)
// INPUT: b1 = uniform(-0.5, 0.5)
// INPUT: q3 = randint(0, 2**32)
// INPUT: s3 = uniform(-0.05, 0.05)
// INPUT: b3 = uniform(-0.5, 0.5)
// INPUT: qh = randint(0, 2**32)
// INPUT: sh = uniform(-0.05, 0.05)
// INPUT: bh = uniform(-0.5, 0.5)
// REF: qmm = lambda x, q, s, b, **k: (x.astype(mx.float32) @ mx.dequantize(q, s, b, **k).astype(mx.float32).T).astype(x.dtype)
// REF: one = qmm(x1, q1, s1, b1, group_size=64, bits=4)
// REF: two = qmm(x2, q1, s1, b1, group_size=64, bits=4)
// REF: eight = qmm(x8, q1, s1, b1, group_size=64, bits=4)
// REF: nine = qmm(x9, q1, s1, b1, group_size=64, bits=4)
// REF: sixteen = qmm(x16, q1, s1, b1, group_size=64, bits=4)
// REF: seventeen = qmm(x17, q1, s1, b1, group_size=64, bits=4)
// REF: three = qmm(x23, q3, s3, b3, group_size=32, bits=3)
// REF: wide = qmm(xh.astype(mx.float32), qh, sh, bh, group_size=64, bits=4)
// REF: wide8 = qmm(xh, *mx.quantize(w8, group_size=128, bits=8), group_size=128, bits=8)
// REF: f32_5 = qmm(xf, *mx.quantize(w5, group_size=32, bits=5), group_size=32, bits=5)
// REF: f32_6 = qmm(xf, *mx.quantize(w5, group_size=64, bits=6), group_size=64, bits=6)
// REF: f32_2 = qmm(xf, *mx.quantize(w5, group_size=128, bits=2), group_size=128, bits=2)
func.func @quantized_matmul_decode(
    %x1: tensor<1x512xbf16> {mlx.name = "x1"},
    %x2: tensor<2x512xbf16> {mlx.name = "x2"},
    %x8: tensor<8x512xbf16> {mlx.name = "x8"},
    %x9: tensor<9x512xbf16> {mlx.name = "x9"},
    %x16: tensor<16x512xbf16> {mlx.name = "x16"},
    %x17: tensor<17x512xbf16> {mlx.name = "x17"},
    %q1: tensor<100x64xui32> {mlx.name = "q1"},
    %s1: tensor<100x8xbf16> {mlx.name = "s1"},
    %b1: tensor<100x8xbf16> {mlx.name = "b1"},
    %x23: tensor<2x3x256xbf16> {mlx.name = "x23"},
    %q3: tensor<40x24xui32> {mlx.name = "q3"},
    %s3: tensor<40x8xbf16> {mlx.name = "s3"},
    %b3: tensor<40x8xbf16> {mlx.name = "b3"},
    %xh: tensor<1x1x128xf16> {mlx.name = "xh"},
    %qh: tensor<8450x16xui32> {mlx.name = "qh"},
    %sh: tensor<8450x2xf32> {mlx.name = "sh"},
    %bh: tensor<8450x2xf32> {mlx.name = "bh"},
    %w8: tensor<8450x128xf16> {mlx.name = "w8"},
    %xf: tensor<3x256xf32> {mlx.name = "xf"},
    %w5: tensor<72x256xf32> {mlx.name = "w5"})
    -> (tensor<1x100xbf16> {mlx.name = "one"},
    tensor<2x100xbf16> {mlx.name = "two"},
    tensor<8x100xbf16> {mlx.name = "eight"},
    tensor<9x100xbf16> {mlx.name = "nine"},
    tensor<16x100xbf16> {mlx.name = "sixteen"},
    tensor<17x100xbf16> {mlx.name = "seventeen"},
    tensor<2x3x40xbf16> {mlx.name = "three"},
    tensor<1x1x8450xf32> {mlx.name = "wide"},
    tensor<1x1x8450xf16> {mlx.name = "wide8"},
    tensor<3x72xf32> {mlx.name = "f32_5"},
    tensor<3x72xf32> {mlx.name = "f32_6"},
    tensor<3x72xf32> {mlx.name = "f32_2"}) {
  %one = mlx.quantized_matmul %x1, %q1, %s1, %b1 {group_size = 64 : i64, bits = 4 : i64} : tensor<1x512xbf16>, tensor<100x64xui32>, tensor<100x8xbf16>, tensor<100x8xbf16>
  %two = mlx.quantized_matmul %x2, %q1, %s1, %b1 {group_size = 64 : i64, bits = 4 : i64} : tensor<2x512xbf16>, tensor<100x64xui32>, tensor<100x8xbf16>, tensor<100x8xbf16>
  %eight = mlx.quantized_matmul %x8, %q1, %s1, %b1 {group_size = 64 : i64, bits = 4 : i64} : tensor<8x512xbf16>, tensor<100x64xui32>, tensor<100x8xbf16>, tensor<100x8xbf16>
  %nine = mlx.quantized_matmul %x9, %q1, %s1, %b1 {group_size = 64 : i64, bits = 4 : i64} : tensor<9x512xbf16>, tensor<100x64xui32>, tensor<100x8xbf16>, tensor<100x8xbf16>
  %sixteen = mlx.quantized_matmul %x16, %q1, %s1, %b1 {group_size = 64 : i64, bits = 4 : i64} : tensor<16x512xbf16>, tensor<100x64xui32>, tensor<100x8xbf16>, tensor<100x8xbf16>
  %seventeen = mlx.quantized_matmul %x17, %q1, %s1, %b1 {group_size = 64 : i64, bits = 4 : i64} : tensor<17x512xbf16>, tensor<100x64xui32>, tensor<100x8xbf16>, tensor<100x8xbf16>
  %three = mlx.quantized_matmul %x23, %q3, %s3, %b3 {group_size = 32 : i64, bits = 3 : i64} : tensor<2x3x256xbf16>, tensor<40x24xui32>, tensor<40x8xbf16>, tensor<40x8xbf16>
  %wide = mlx.quantized_matmul %xh, %qh, %sh, %bh {group_size = 64 : i64, bits = 4 : i64} : tensor<1x1x128xf16>, tensor<8450x16xui32>, tensor<8450x2xf32>, tensor<8450x2xf32>
  %w8q:3 = mlx.quantize %w8 {group_size = 128 : i64, bits = 8 : i64} : tensor<8450x128xf16>
  %wide8 = mlx.quantized_matmul %xh, %w8q#0, %w8q#1, %w8q#2 {group_size = 128 : i64, bits = 8 : i64} : tensor<1x1x128xf16>, tensor<8450x32xui32>, tensor<8450x1xf16>, tensor<8450x1xf16>
  %w5q:3 = mlx.quantize %w5 {group_size = 32 : i64, bits = 5 : i64} : tensor<72x256xf32>
  %f32_5 = mlx.quantized_matmul %xf, %w5q#0, %w5q#1, %w5q#2 {group_size = 32 : i64, bits = 5 : i64} : tensor<3x256xf32>, tensor<72x40xui32>, tensor<72x8xf32>, tensor<72x8xf32>
  %w6q:3 = mlx.quantize %w5 {group_size = 64 : i64, bits = 6 : i64} : tensor<72x256xf32>
  %f32_6 = mlx.quantized_matmul %xf, %w6q#0, %w6q#1, %w6q#2 {group_size = 64 : i64, bits = 6 : i64} : tensor<3x256xf32>, tensor<72x48xui32>, tensor<72x4xf32>, tensor<72x4xf32>
  %w2q:3 = mlx.quantize %w5 {group_size = 128 : i64, bits = 2 : i64} : tensor<72x256xf32>
  %f32_2 = mlx.quantized_matmul %xf, %w2q#0, %w2q#1, %w2q#2 {group_size = 128 : i64, bits = 2 : i64} : tensor<3x256xf32>, tensor<72x16xui32>, tensor<72x2xf32>, tensor<72x2xf32>
  return %one, %two, %eight, %nine, %sixteen, %seventeen, %three, %wide, %wide8, %f32_5, %f32_6, %f32_2 : tensor<1x100xbf16>, tensor<2x100xbf16>, tensor<8x100xbf16>, tensor<9x100xbf16>, tensor<16x100xbf16>, tensor<17x100xbf16>, tensor<2x3x40xbf16>, tensor<1x1x8450xf32>, tensor<1x1x8450xf16>, tensor<3x72xf32>, tensor<3x72xf32>, tensor<3x72xf32>
}
