// RUN: %check %s
// softmax over the last axis, another axis, two axes and all axes; precise
// (float32 accumulation) for float16; int input gives float32; large inputs.
// INPUT: h = uniform(-8.0, 8.0)
// INPUT: big = uniform(80.0, 100.0)
// REF: sm_last = mx.softmax(x, axis=-1)
// REF: sm_ax1 = mx.softmax(x, axis=1)
// REF: sm_ax0 = mx.softmax(x, axis=0)
// REF: sm_two = mx.softmax(x, axis=(0, 2))
// REF: sm_all = mx.softmax(x)
// REF: sm_h = mx.softmax(h, axis=-1)
// REF: sm_h_precise = mx.softmax(h, axis=0, precise=True)
// REF: sm_i = mx.softmax(i, axis=1)
// REF: sm_big = mx.softmax(big, axis=1)
func.func @softmax(
    %x: tensor<2x3x8xf32> {mlx.name = "x"},
    %h: tensor<4x16xf16> {mlx.name = "h"},
    %i: tensor<3x4xi32> {mlx.name = "i"},
    %big: tensor<2x5xf32> {mlx.name = "big"})
    -> (tensor<2x3x8xf32> {mlx.name = "sm_last"},
    tensor<2x3x8xf32> {mlx.name = "sm_ax1"},
    tensor<2x3x8xf32> {mlx.name = "sm_ax0"},
    tensor<2x3x8xf32> {mlx.name = "sm_two"},
    tensor<2x3x8xf32> {mlx.name = "sm_all"},
    tensor<4x16xf16> {mlx.name = "sm_h"},
    tensor<4x16xf16> {mlx.name = "sm_h_precise"},
    tensor<3x4xf32> {mlx.name = "sm_i"},
    tensor<2x5xf32> {mlx.name = "sm_big"}) {
  %sm_last = mlx.softmax %x {axes = array<i64: -1>} : tensor<2x3x8xf32>
  %sm_ax1 = mlx.softmax %x {axes = array<i64: 1>} : tensor<2x3x8xf32>
  %sm_ax0 = mlx.softmax %x {axes = array<i64: 0>} : tensor<2x3x8xf32>
  %sm_two = mlx.softmax %x {axes = array<i64: 0, 2>} : tensor<2x3x8xf32>
  %sm_all = mlx.softmax %x : tensor<2x3x8xf32>
  %sm_h = mlx.softmax %h {axes = array<i64: -1>} : tensor<4x16xf16>
  %sm_h_precise = mlx.softmax %h {axes = array<i64: 0>, precise = true} : tensor<4x16xf16>
  %sm_i = mlx.softmax %i {axes = array<i64: 1>} : tensor<3x4xi32>
  %sm_big = mlx.softmax %big {axes = array<i64: 1>} : tensor<2x5xf32>
  return %sm_last, %sm_ax1, %sm_ax0, %sm_two, %sm_all, %sm_h, %sm_h_precise, %sm_i, %sm_big
      : tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<4x16xf16>, tensor<4x16xf16>, tensor<3x4xf32>, tensor<2x5xf32>
}
