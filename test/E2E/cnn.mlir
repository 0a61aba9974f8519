// RUN: %check %s
// A small 2-D CNN as MLX code writes it: conv (padding 1) + bias -> relu
// (maximum with 0) -> 2x2 max pooling written as reshape + max over the
// window axes -> a second, strided conv -> relu -> flatten -> linear layer.
// REF: h1 = mx.maximum(mx.conv2d(x, w1, padding=1) + b1, 0.0)
// REF: p1 = h1.reshape(2, 6, 2, 6, 2, 8).max(axis=(2, 4))
// REF: h2 = mx.maximum(mx.conv2d(p1, w2, stride=2) + b2, 0.0)
// REF: logits = h2.reshape(2, -1) @ w3 + b3
func.func @cnn(
    %x: tensor<2x12x12x3xf32> {mlx.name = "x"},
    %w1: tensor<8x3x3x3xf32> {mlx.name = "w1"},
    %b1: tensor<8xf32> {mlx.name = "b1"},
    %w2: tensor<16x2x2x8xf32> {mlx.name = "w2"},
    %b2: tensor<16xf32> {mlx.name = "b2"},
    %w3: tensor<144x10xf32> {mlx.name = "w3"},
    %b3: tensor<10xf32> {mlx.name = "b3"})
    -> (tensor<2x10xf32> {mlx.name = "logits"}) {
  %zero = mlx.constant dense<0.0> : tensor<f32>
  %c1 = mlx.conv_general %x, %w1 {strides = array<i64: 1, 1>, padding_lo = array<i64: 1, 1>, padding_hi = array<i64: 1, 1>, kernel_dilation = array<i64: 1, 1>, input_dilation = array<i64: 1, 1>} : tensor<2x12x12x3xf32>, tensor<8x3x3x3xf32>
  %c1b = mlx.add %c1, %b1 : tensor<2x12x12x8xf32>, tensor<8xf32>
  %h1 = mlx.maximum %c1b, %zero : tensor<2x12x12x8xf32>, tensor<f32>
  %win = mlx.reshape %h1 {shape = array<i64: 2, 6, 2, 6, 2, 8>} : tensor<2x12x12x8xf32>
  %p1 = mlx.max %win {axes = array<i64: 2, 4>} : tensor<2x6x2x6x2x8xf32>
  %c2 = mlx.conv_general %p1, %w2 {strides = array<i64: 2, 2>, padding_lo = array<i64: 0, 0>, padding_hi = array<i64: 0, 0>, kernel_dilation = array<i64: 1, 1>, input_dilation = array<i64: 1, 1>} : tensor<2x6x6x8xf32>, tensor<16x2x2x8xf32>
  %c2b = mlx.add %c2, %b2 : tensor<2x3x3x16xf32>, tensor<16xf32>
  %h2 = mlx.maximum %c2b, %zero : tensor<2x3x3x16xf32>, tensor<f32>
  %flat = mlx.reshape %h2 {shape = array<i64: 2, 144>} : tensor<2x3x3x16xf32>
  %mm = mlx.matmul %flat, %w3 : tensor<2x144xf32>, tensor<144x10xf32>
  %logits = mlx.add %mm, %b3 : tensor<2x10xf32>, tensor<10xf32>
  return %logits : tensor<2x10xf32>
}
