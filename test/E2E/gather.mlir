// RUN: %check %s
// gather as MLX's Gather primitive: embedding lookups (mx.take on axis 0 as
// Gather with slice_sizes [1, D]), 2-D index arrays, partial slices, negative
// indices (wrap around), several index dtypes, two index arrays on two axes
// (broadcast together); the references use mx.take / NumPy-style indexing.
// INPUT: ids = randint(0, 50)
// INPUT: ids2 = randint(0, 50)
// INPUT: neg = np.array([-1, -50, 3, -7])
// INPUT: ids64 = randint(0, 50)
// INPUT: ids8 = randint(0, 50)
// INPUT: i = randint(0, 4)
// INPUT: j = randint(0, 6)
// REF: embed = mx.take(emb, ids, axis=0).reshape(6, 1, 8)
// REF: embed2d = mx.take(emb, ids2, axis=0).reshape(2, 3, 1, 8)
// REF: embed_neg = mx.take(emb, neg, axis=0).reshape(4, 1, 8)
// REF: embed64 = mx.take(emb, ids64, axis=0).reshape(3, 1, 8)
// REF: embed_partial = mx.take(emb, ids8, axis=0)[:, :3].reshape(5, 1, 3)
// REF: embed_h = mx.take(hemb, ids % 10, axis=0).reshape(6, 1, 4)
// REF: embed_i = mx.take(iemb, ids % 10, axis=0).reshape(6, 1, 3)
// REF: embed_scaled = mx.square(mx.take(emb, ids, axis=0))
// REF: two_axes = src[i, :, j].reshape(2, 3, 1, 5, 1)
// REF: col_gather = mx.take(src, j, axis=2)[:, :2, :].transpose(2, 0, 1).reshape(3, 4, 2, 1)
func.func @gather(
    %emb: tensor<50x8xf32> {mlx.name = "emb"},
    %ids: tensor<6xi32> {mlx.name = "ids"},
    %ids2: tensor<2x3xui32> {mlx.name = "ids2"},
    %neg: tensor<4xi32> {mlx.name = "neg"},
    %ids64: tensor<3xi64> {mlx.name = "ids64"},
    %ids8: tensor<5xui8> {mlx.name = "ids8"},
    %hemb: tensor<10x4xf16> {mlx.name = "hemb"},
    %iemb: tensor<10x3xi32> {mlx.name = "iemb"},
    %src: tensor<4x5x6xf32> {mlx.name = "src"},
    %i: tensor<2x1xi32> {mlx.name = "i"},
    %j: tensor<3xi16> {mlx.name = "j"})
    -> (tensor<6x1x8xf32> {mlx.name = "embed"},
    tensor<2x3x1x8xf32> {mlx.name = "embed2d"},
    tensor<4x1x8xf32> {mlx.name = "embed_neg"},
    tensor<3x1x8xf32> {mlx.name = "embed64"},
    tensor<5x1x3xf32> {mlx.name = "embed_partial"},
    tensor<6x1x4xf16> {mlx.name = "embed_h"},
    tensor<6x1x3xi32> {mlx.name = "embed_i"},
    tensor<6x8xf32> {mlx.name = "embed_scaled"},
    tensor<2x3x1x5x1xf32> {mlx.name = "two_axes"},
    tensor<3x4x2x1xf32> {mlx.name = "col_gather"}) {
  %ten = mlx.constant dense<10> : tensor<i32>
  %embed = mlx.gather %emb[%ids] {axes = array<i64: 0>, slice_sizes = array<i64: 1, 8>} : tensor<50x8xf32>[tensor<6xi32>]
  %embed2d = mlx.gather %emb[%ids2] {axes = array<i64: 0>, slice_sizes = array<i64: 1, 8>} : tensor<50x8xf32>[tensor<2x3xui32>]
  %embed_neg = mlx.gather %emb[%neg] {axes = array<i64: 0>, slice_sizes = array<i64: 1, 8>} : tensor<50x8xf32>[tensor<4xi32>]
  %embed64 = mlx.gather %emb[%ids64] {axes = array<i64: 0>, slice_sizes = array<i64: 1, 8>} : tensor<50x8xf32>[tensor<3xi64>]
  %embed_partial = mlx.gather %emb[%ids8] {axes = array<i64: 0>, slice_sizes = array<i64: 1, 3>} : tensor<50x8xf32>[tensor<5xui8>]
  %hids = mlx.remainder %ids, %ten : tensor<6xi32>, tensor<i32>
  %embed_h = mlx.gather %hemb[%hids] {axes = array<i64: 0>, slice_sizes = array<i64: 1, 4>} : tensor<10x4xf16>[tensor<6xi32>]
  %embed_i = mlx.gather %iemb[%hids] {axes = array<i64: 0>, slice_sizes = array<i64: 1, 3>} : tensor<10x3xi32>[tensor<6xi32>]
  %g = mlx.gather %emb[%ids] {axes = array<i64: 0>, slice_sizes = array<i64: 1, 8>} : tensor<50x8xf32>[tensor<6xi32>]
  %gr = mlx.reshape %g {shape = array<i64: 6, 8>} : tensor<6x1x8xf32>
  %embed_scaled = mlx.multiply %gr, %gr : tensor<6x8xf32>, tensor<6x8xf32>
  %two_axes = mlx.gather %src[%i, %j] {axes = array<i64: 0, 2>, slice_sizes = array<i64: 1, 5, 1>} : tensor<4x5x6xf32>[tensor<2x1xi32>, tensor<3xi16>]
  %col_gather = mlx.gather %src[%j] {axes = array<i64: 2>, slice_sizes = array<i64: 4, 2, 1>} : tensor<4x5x6xf32>[tensor<3xi16>]
  return %embed, %embed2d, %embed_neg, %embed64, %embed_partial, %embed_h, %embed_i, %embed_scaled, %two_axes, %col_gather
      : tensor<6x1x8xf32>, tensor<2x3x1x8xf32>, tensor<4x1x8xf32>, tensor<3x1x8xf32>, tensor<5x1x3xf32>, tensor<6x1x4xf16>, tensor<6x1x3xi32>, tensor<6x8xf32>, tensor<2x3x1x5x1xf32>, tensor<3x4x2x1xf32>
}
