// RUN: %check %s
// Quantized ops between elementwise producers and consumers, which
// linalg-fuse-elementwise-ops merges with them (through the group maps of
// dequantize): scaled scales and biases, a dequantized matrix fed to tanh, a
// quantize of a computed matrix whose words and scales feed a
// quantized_matmul, and a conv whose input and output are elementwise.
// INPUT: q = randint(0, 2**32)
// INPUT: s = uniform(-0.05, 0.05)
// REF: dq = mx.tanh(mx.dequantize(q, s * 2.0, b - 1.0, group_size=64, bits=4))
// REF: qq, qs, qb = mx.quantize(w * 3.0 + 1.0, group_size=32, bits=3)
// REF: y = mx.quantized_matmul(mx.exp(x), qq, qs, qb, group_size=32, bits=3) + 1.0
// REF: c = mx.abs(mx.conv1d(mx.sin(cx), cw, padding=2))
func.func @quantized_fusion(
    %q: tensor<4x32xui32> {mlx.name = "q"},
    %s: tensor<4x4xf32> {mlx.name = "s"},
    %b: tensor<4x4xf32> {mlx.name = "b"},
    %w: tensor<16x64xf32> {mlx.name = "w"},
    %x: tensor<3x64xf32> {mlx.name = "x"},
    %cx: tensor<2x10x3xf32> {mlx.name = "cx"},
    %cw: tensor<4x5x3xf32> {mlx.name = "cw"})
    -> (tensor<4x256xf32> {mlx.name = "dq"},
    tensor<3x16xf32> {mlx.name = "y"},
    tensor<2x10x4xf32> {mlx.name = "c"}) {
  %two = mlx.constant dense<2.0> : tensor<f32>
  %one = mlx.constant dense<1.0> : tensor<f32>
  %three = mlx.constant dense<3.0> : tensor<f32>
  %s2 = mlx.multiply %s, %two : tensor<4x4xf32>, tensor<f32>
  %b1 = mlx.subtract %b, %one : tensor<4x4xf32>, tensor<f32>
  %d = mlx.dequantize %q, %s2, %b1 {group_size = 64 : i64, bits = 4 : i64} : tensor<4x32xui32>, tensor<4x4xf32>, tensor<4x4xf32>
  %dq = mlx.tanh %d : tensor<4x256xf32>
  %w3 = mlx.multiply %w, %three : tensor<16x64xf32>, tensor<f32>
  %w31 = mlx.add %w3, %one : tensor<16x64xf32>, tensor<f32>
  %wq:3 = mlx.quantize %w31 {group_size = 32 : i64, bits = 3 : i64} : tensor<16x64xf32>
  %ex = mlx.exp %x : tensor<3x64xf32>
  %mm = mlx.quantized_matmul %ex, %wq#0, %wq#1, %wq#2 {group_size = 32 : i64, bits = 3 : i64} : tensor<3x64xf32>, tensor<16x6xui32>, tensor<16x2xf32>, tensor<16x2xf32>
  %y = mlx.add %mm, %one : tensor<3x16xf32>, tensor<f32>
  %sx = mlx.sin %cx : tensor<2x10x3xf32>
  %conv = mlx.conv_general %sx, %cw {strides = array<i64: 1>, padding_lo = array<i64: 2>, padding_hi = array<i64: 2>, kernel_dilation = array<i64: 1>, input_dilation = array<i64: 1>} : tensor<2x10x3xf32>, tensor<4x5x3xf32>
  %c = mlx.abs %conv : tensor<2x10x4xf32>
  return %dq, %y, %c : tensor<4x256xf32>, tensor<3x16xf32>, tensor<2x10x4xf32>
}
