// RUN: %check %s
// conv_general on bfloat16 (accumulated in float32 as MLX does): 1-D,
// 2-D with stride and padding, 3-D with asymmetric padding, the general
// case (input and kernel dilation, groups, flip) and depthwise.
// REF: c1d = mx.conv1d(c1d_x, c1d_w, padding=1)
// REF: c2d = mx.conv2d(c2d_x, c2d_w, stride=2, padding=1)
// REF: c3d = mx.conv_general(c3d_x, c3d_w, stride=(1, 2, 1), padding=([1, 0, 0], [0, 1, 0]))
// REF: general = mx.conv_general(general_x, general_w, stride=(2, 1), padding=([2, 0], [1, 3]), kernel_dilation=(1, 2), input_dilation=(2, 1), groups=2, flip=True)
// REF: depthwise = mx.conv2d(depthwise_x, depthwise_w, padding=1, groups=6)
func.func @conv_bfloat16(
    %c1d_x: tensor<2x16x3xbf16> {mlx.name = "c1d_x"},
    %c1d_w: tensor<4x3x3xbf16> {mlx.name = "c1d_w"},
    %c2d_x: tensor<2x9x9x8xbf16> {mlx.name = "c2d_x"},
    %c2d_w: tensor<8x3x3x8xbf16> {mlx.name = "c2d_w"},
    %c3d_x: tensor<1x5x6x7x2xbf16> {mlx.name = "c3d_x"},
    %c3d_w: tensor<3x2x3x2x2xbf16> {mlx.name = "c3d_w"},
    %general_x: tensor<1x7x6x4xbf16> {mlx.name = "general_x"},
    %general_w: tensor<6x3x2x2xbf16> {mlx.name = "general_w"},
    %depthwise_x: tensor<2x8x8x6xbf16> {mlx.name = "depthwise_x"},
    %depthwise_w: tensor<6x3x3x1xbf16> {mlx.name = "depthwise_w"})
    -> (tensor<2x16x4xbf16> {mlx.name = "c1d"},
    tensor<2x5x5x8xbf16> {mlx.name = "c2d"},
    tensor<1x5x3x6x3xbf16> {mlx.name = "c3d"},
    tensor<1x7x7x6xbf16> {mlx.name = "general"},
    tensor<2x8x8x6xbf16> {mlx.name = "depthwise"}) {
  %c1d = mlx.conv_general %c1d_x, %c1d_w {strides = array<i64: 1>, padding_lo = array<i64: 1>, padding_hi = array<i64: 1>, kernel_dilation = array<i64: 1>, input_dilation = array<i64: 1>} : tensor<2x16x3xbf16>, tensor<4x3x3xbf16>
  %c2d = mlx.conv_general %c2d_x, %c2d_w {strides = array<i64: 2, 2>, padding_lo = array<i64: 1, 1>, padding_hi = array<i64: 1, 1>, kernel_dilation = array<i64: 1, 1>, input_dilation = array<i64: 1, 1>} : tensor<2x9x9x8xbf16>, tensor<8x3x3x8xbf16>
  %c3d = mlx.conv_general %c3d_x, %c3d_w {strides = array<i64: 1, 2, 1>, padding_lo = array<i64: 1, 0, 0>, padding_hi = array<i64: 0, 1, 0>, kernel_dilation = array<i64: 1, 1, 1>, input_dilation = array<i64: 1, 1, 1>} : tensor<1x5x6x7x2xbf16>, tensor<3x2x3x2x2xbf16>
  %general = mlx.conv_general %general_x, %general_w {strides = array<i64: 2, 1>, padding_lo = array<i64: 2, 0>, padding_hi = array<i64: 1, 3>, kernel_dilation = array<i64: 1, 2>, input_dilation = array<i64: 2, 1>, groups = 2 : i64, flip = true} : tensor<1x7x6x4xbf16>, tensor<6x3x2x2xbf16>
  %depthwise = mlx.conv_general %depthwise_x, %depthwise_w {strides = array<i64: 1, 1>, padding_lo = array<i64: 1, 1>, padding_hi = array<i64: 1, 1>, kernel_dilation = array<i64: 1, 1>, input_dilation = array<i64: 1, 1>, groups = 6 : i64} : tensor<2x8x8x6xbf16>, tensor<6x3x3x1xbf16>
  return %c1d, %c2d, %c3d, %general, %depthwise
      : tensor<2x16x4xbf16>, tensor<2x5x5x8xbf16>, tensor<1x5x3x6x3xbf16>, tensor<1x7x7x6xbf16>, tensor<2x8x8x6xbf16>
}
