// RUN: %check %s
// view: the same bytes as another dtype (little-endian): same width, split
// into narrower elements along the last axis, joined into wider ones.
// INPUT: b = randint(0, 256)
// REF: same = x.view(mx.int32)
// REF: bytes = x.view(mx.uint8)
// REF: halves = x.view(mx.bfloat16)
// REF: joined = b.view(mx.float16)
// REF: wide = b.view(mx.int64)
// REF: back = x.view(mx.uint8).view(mx.float32)
func.func @view(%x: tensor<3x4xf32> {mlx.name = "x"},
                %b: tensor<2x8xui8> {mlx.name = "b"})
    -> (tensor<3x4xi32> {mlx.name = "same"}, tensor<3x16xui8> {mlx.name = "bytes"},
        tensor<3x8xbf16> {mlx.name = "halves"}, tensor<2x4xf16> {mlx.name = "joined"},
        tensor<2x1xi64> {mlx.name = "wide"}, tensor<3x4xf32> {mlx.name = "back"}) {
  %0 = mlx.view %x : tensor<3x4xf32> to i32
  %1 = mlx.view %x : tensor<3x4xf32> to ui8
  %2 = mlx.view %x : tensor<3x4xf32> to bf16
  %3 = mlx.view %b : tensor<2x8xui8> to f16
  %4 = mlx.view %b : tensor<2x8xui8> to i64
  %5 = mlx.view %1 : tensor<3x16xui8> to f32
  return %0, %1, %2, %3, %4, %5 : tensor<3x4xi32>, tensor<3x16xui8>, tensor<3x8xbf16>, tensor<2x4xf16>, tensor<2x1xi64>, tensor<3x4xf32>
}
