// RUN: %check %s
// conv_general on float32 against mx.conv1d/2d/3d, mx.conv_general and
// mx.conv_transpose1d/2d (conv_general with input dilation and flip):
// strides, symmetric and asymmetric padding, kernel and input dilation,
// groups (also depthwise), flip.
// REF: c1d = mx.conv1d(c1d_x, c1d_w, padding=1)
// REF: c1d_s = mx.conv1d(c1d_s_x, c1d_s_w, stride=3)
// REF: c2d = mx.conv2d(c2d_x, c2d_w, stride=2, padding=1)
// REF: c2d_dil = mx.conv2d(c2d_dil_x, c2d_dil_w, dilation=(2, 3))
// REF: c3d = mx.conv3d(c3d_x, c3d_w, stride=(1, 2, 1))
// REF: c3d_pad = mx.conv3d(c3d_pad_x, c3d_pad_w, stride=(2, 1, 1), padding=(1, 1, 0))
// REF: general = mx.conv_general(general_x, general_w, stride=(2, 1), padding=([2, 0], [1, 3]), kernel_dilation=(1, 2), input_dilation=(2, 1), groups=2, flip=True)
// REF: grouped = mx.conv2d(grouped_x, grouped_w, padding=1, groups=3)
// REF: depthwise = mx.conv2d(depthwise_x, depthwise_w, padding=1, groups=6)
// REF: flipped = mx.conv_general(flipped_x, flipped_w, flip=True)
// REF: c3d_general = mx.conv_general(c3d_general_x, c3d_general_w, stride=(1, 2, 1), padding=([1, 0, 2], [0, 1, 1]), kernel_dilation=(2, 1, 1), input_dilation=(1, 2, 1), flip=True)
// REF: transposed = mx.conv_transpose1d(transposed_x, transposed_w, stride=2)
// REF: transposed2d = mx.conv_transpose2d(transposed2d_x, transposed2d_w, stride=2, padding=1, output_padding=1)
func.func @conv_float32(
    %c1d_x: tensor<2x16x3xf32> {mlx.name = "c1d_x"},
    %c1d_w: tensor<4x3x3xf32> {mlx.name = "c1d_w"},
    %c1d_s_x: tensor<2x17x4xf32> {mlx.name = "c1d_s_x"},
    %c1d_s_w: tensor<5x4x4xf32> {mlx.name = "c1d_s_w"},
    %c2d_x: tensor<2x9x9x4xf32> {mlx.name = "c2d_x"},
    %c2d_w: tensor<8x3x3x4xf32> {mlx.name = "c2d_w"},
    %c2d_dil_x: tensor<1x10x11x3xf32> {mlx.name = "c2d_dil_x"},
    %c2d_dil_w: tensor<4x3x2x3xf32> {mlx.name = "c2d_dil_w"},
    %c3d_x: tensor<1x5x6x7x2xf32> {mlx.name = "c3d_x"},
    %c3d_w: tensor<3x2x3x2x2xf32> {mlx.name = "c3d_w"},
    %c3d_pad_x: tensor<2x4x5x4x3xf32> {mlx.name = "c3d_pad_x"},
    %c3d_pad_w: tensor<2x3x3x3x3xf32> {mlx.name = "c3d_pad_w"},
    %general_x: tensor<1x7x6x4xf32> {mlx.name = "general_x"},
    %general_w: tensor<6x3x2x2xf32> {mlx.name = "general_w"},
    %grouped_x: tensor<2x8x8x6xf32> {mlx.name = "grouped_x"},
    %grouped_w: tensor<9x3x3x2xf32> {mlx.name = "grouped_w"},
    %depthwise_x: tensor<2x8x8x6xf32> {mlx.name = "depthwise_x"},
    %depthwise_w: tensor<6x3x3x1xf32> {mlx.name = "depthwise_w"},
    %flipped_x: tensor<1x6x5x2xf32> {mlx.name = "flipped_x"},
    %flipped_w: tensor<3x3x2x2xf32> {mlx.name = "flipped_w"},
    %c3d_general_x: tensor<1x4x3x5x4xf32> {mlx.name = "c3d_general_x"},
    %c3d_general_w: tensor<4x2x2x3x4xf32> {mlx.name = "c3d_general_w"},
    %transposed_x: tensor<2x7x3xf32> {mlx.name = "transposed_x"},
    %transposed_w: tensor<4x3x3xf32> {mlx.name = "transposed_w"},
    %transposed2d_x: tensor<1x5x4x2xf32> {mlx.name = "transposed2d_x"},
    %transposed2d_w: tensor<3x3x3x2xf32> {mlx.name = "transposed2d_w"})
    -> (tensor<2x16x4xf32> {mlx.name = "c1d"},
    tensor<2x5x5xf32> {mlx.name = "c1d_s"},
    tensor<2x5x5x8xf32> {mlx.name = "c2d"},
    tensor<1x6x8x4xf32> {mlx.name = "c2d_dil"},
    tensor<1x4x2x6x3xf32> {mlx.name = "c3d"},
    tensor<2x2x5x2x2xf32> {mlx.name = "c3d_pad"},
    tensor<1x7x7x6xf32> {mlx.name = "general"},
    tensor<2x8x8x9xf32> {mlx.name = "grouped"},
    tensor<2x8x8x6xf32> {mlx.name = "depthwise"},
    tensor<1x4x4x3xf32> {mlx.name = "flipped"},
    tensor<1x3x3x6x4xf32> {mlx.name = "c3d_general"},
    tensor<2x15x4xf32> {mlx.name = "transposed"},
    tensor<1x10x8x3xf32> {mlx.name = "transposed2d"}) {
  %c1d = mlx.conv_general %c1d_x, %c1d_w {strides = array<i64: 1>, padding_lo = array<i64: 1>, padding_hi = array<i64: 1>, kernel_dilation = array<i64: 1>, input_dilation = array<i64: 1>} : tensor<2x16x3xf32>, tensor<4x3x3xf32>
  %c1d_s = mlx.conv_general %c1d_s_x, %c1d_s_w {strides = array<i64: 3>, padding_lo = array<i64: 0>, padding_hi = array<i64: 0>, kernel_dilation = array<i64: 1>, input_dilation = array<i64: 1>} : tensor<2x17x4xf32>, tensor<5x4x4xf32>
  %c2d = mlx.conv_general %c2d_x, %c2d_w {strides = array<i64: 2, 2>, padding_lo = array<i64: 1, 1>, padding_hi = array<i64: 1, 1>, kernel_dilation = array<i64: 1, 1>, input_dilation = array<i64: 1, 1>} : tensor<2x9x9x4xf32>, tensor<8x3x3x4xf32>
  %c2d_dil = mlx.conv_general %c2d_dil_x, %c2d_dil_w {strides = array<i64: 1, 1>, padding_lo = array<i64: 0, 0>, padding_hi = array<i64: 0, 0>, kernel_dilation = array<i64: 2, 3>, input_dilation = array<i64: 1, 1>} : tensor<1x10x11x3xf32>, tensor<4x3x2x3xf32>
  %c3d = mlx.conv_general %c3d_x, %c3d_w {strides = array<i64: 1, 2, 1>, padding_lo = array<i64: 0, 0, 0>, padding_hi = array<i64: 0, 0, 0>, kernel_dilation = array<i64: 1, 1, 1>, input_dilation = array<i64: 1, 1, 1>} : tensor<1x5x6x7x2xf32>, tensor<3x2x3x2x2xf32>
  %c3d_pad = mlx.conv_general %c3d_pad_x, %c3d_pad_w {strides = array<i64: 2, 1, 1>, padding_lo = array<i64: 1, 1, 0>, padding_hi = array<i64: 1, 1, 0>, kernel_dilation = array<i64: 1, 1, 1>, input_dilation = array<i64: 1, 1, 1>} : tensor<2x4x5x4x3xf32>, tensor<2x3x3x3x3xf32>
  %general = mlx.conv_general %general_x, %general_w {strides = array<i64: 2, 1>, padding_lo = array<i64: 2, 0>, padding_hi = array<i64: 1, 3>, kernel_dilation = array<i64: 1, 2>, input_dilation = array<i64: 2, 1>, groups = 2 : i64, flip = true} : tensor<1x7x6x4xf32>, tensor<6x3x2x2xf32>
  %grouped = mlx.conv_general %grouped_x, %grouped_w {strides = array<i64: 1, 1>, padding_lo = array<i64: 1, 1>, padding_hi = array<i64: 1, 1>, kernel_dilation = array<i64: 1, 1>, input_dilation = array<i64: 1, 1>, groups = 3 : i64} : tensor<2x8x8x6xf32>, tensor<9x3x3x2xf32>
  %depthwise = mlx.conv_general %depthwise_x, %depthwise_w {strides = array<i64: 1, 1>, padding_lo = array<i64: 1, 1>, padding_hi = array<i64: 1, 1>, kernel_dilation = array<i64: 1, 1>, input_dilation = array<i64: 1, 1>, groups = 6 : i64} : tensor<2x8x8x6xf32>, tensor<6x3x3x1xf32>
  %flipped = mlx.conv_general %flipped_x, %flipped_w {strides = array<i64: 1, 1>, padding_lo = array<i64: 0, 0>, padding_hi = array<i64: 0, 0>, kernel_dilation = array<i64: 1, 1>, input_dilation = array<i64: 1, 1>, flip = true} : tensor<1x6x5x2xf32>, tensor<3x3x2x2xf32>
  %c3d_general = mlx.conv_general %c3d_general_x, %c3d_general_w {strides = array<i64: 1, 2, 1>, padding_lo = array<i64: 1, 0, 2>, padding_hi = array<i64: 0, 1, 1>, kernel_dilation = array<i64: 2, 1, 1>, input_dilation = array<i64: 1, 2, 1>, flip = true} : tensor<1x4x3x5x4xf32>, tensor<4x2x2x3x4xf32>
  %transposed = mlx.conv_general %transposed_x, %transposed_w {strides = array<i64: 1>, padding_lo = array<i64: 2>, padding_hi = array<i64: 2>, kernel_dilation = array<i64: 1>, input_dilation = array<i64: 2>, flip = true} : tensor<2x7x3xf32>, tensor<4x3x3xf32>
  %transposed2d = mlx.conv_general %transposed2d_x, %transposed2d_w {strides = array<i64: 1, 1>, padding_lo = array<i64: 1, 1>, padding_hi = array<i64: 2, 2>, kernel_dilation = array<i64: 1, 1>, input_dilation = array<i64: 2, 2>, flip = true} : tensor<1x5x4x2xf32>, tensor<3x3x3x2xf32>
  return %c1d, %c1d_s, %c2d, %c2d_dil, %c3d, %c3d_pad, %general, %grouped, %depthwise, %flipped, %c3d_general, %transposed, %transposed2d
      : tensor<2x16x4xf32>, tensor<2x5x5xf32>, tensor<2x5x5x8xf32>, tensor<1x6x8x4xf32>, tensor<1x4x2x6x3xf32>, tensor<2x2x5x2x2xf32>, tensor<1x7x7x6xf32>, tensor<2x8x8x9xf32>, tensor<2x8x8x6xf32>, tensor<1x4x4x3xf32>, tensor<1x3x3x6x4xf32>, tensor<2x15x4xf32>, tensor<1x10x8x3xf32>
}
