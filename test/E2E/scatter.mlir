// RUN: %check %s
// Inputs stay unmodified: later runs of the same buffers give the same result.
// RUN: env MLXC_RUN_ARGS="--repeat 3" %check %s
// The scatter family in order of the updates (repeated indices: the last
// write wins for scatter, sums for scatter_add), negative indices, a 2-D
// index pair, int32 data, and put_along_axis / scatter_add_axis.
// INPUT: idx = np.array([1, 3, 1, -2, 0], np.int32)
// INPUT: r = np.array([0, 2, 2], np.int32)
// INPUT: c = np.array([1, 1, 0], np.int32)
// INPUT: ia = np.array([[2, 0, 2, 1], [1, 1, 0, 2]], np.int32)
// REF: sc = mx.array(src); sc[idx] = upd.reshape(5, 4)
// REF: sadd = src.at[idx].add(upd.reshape(5, 4))
// REF: sprod = src.at[idx].multiply(upd.reshape(5, 4))
// REF: smax = src.at[idx].maximum(upd.reshape(5, 4))
// REF: smin = isrc.at[idx].minimum(iupd.reshape(5, 4))
// REF: s2 = src.at[r, c].add(pu.reshape(3))
// REF: put = mx.put_along_axis(a, ia, va, axis=0)
// REF: sax = np.array(a); np.add.at(sax, (np.array(ia), np.arange(4)[None, :]), np.array(va))
func.func @scatter(
    %src: tensor<8x4xf32> {mlx.name = "src"},
    %isrc: tensor<8x4xi32> {mlx.name = "isrc"},
    %idx: tensor<5xi32> {mlx.name = "idx"},
    %upd: tensor<5x1x4xf32> {mlx.name = "upd"},
    %iupd: tensor<5x1x4xi32> {mlx.name = "iupd"},
    %r: tensor<3xi32> {mlx.name = "r"},
    %c: tensor<3xi32> {mlx.name = "c"},
    %pu: tensor<3x1x1xf32> {mlx.name = "pu"},
    %a: tensor<3x4xf32> {mlx.name = "a"},
    %ia: tensor<2x4xi32> {mlx.name = "ia"},
    %va: tensor<2x4xf32> {mlx.name = "va"})
    -> (tensor<8x4xf32> {mlx.name = "sc"}, tensor<8x4xf32> {mlx.name = "sadd"},
        tensor<8x4xf32> {mlx.name = "sprod"}, tensor<8x4xf32> {mlx.name = "smax"},
        tensor<8x4xi32> {mlx.name = "smin"}, tensor<8x4xf32> {mlx.name = "s2"},
        tensor<3x4xf32> {mlx.name = "put"}, tensor<3x4xf32> {mlx.name = "sax"}) {
  %0 = mlx.scatter %src[%idx], %upd {axes = array<i64: 0>} : tensor<8x4xf32>[tensor<5xi32>], tensor<5x1x4xf32>
  %1 = mlx.scatter_add %src[%idx], %upd {axes = array<i64: 0>} : tensor<8x4xf32>[tensor<5xi32>], tensor<5x1x4xf32>
  %2 = mlx.scatter_prod %src[%idx], %upd {axes = array<i64: 0>} : tensor<8x4xf32>[tensor<5xi32>], tensor<5x1x4xf32>
  %3 = mlx.scatter_max %src[%idx], %upd {axes = array<i64: 0>} : tensor<8x4xf32>[tensor<5xi32>], tensor<5x1x4xf32>
  %4 = mlx.scatter_min %isrc[%idx], %iupd {axes = array<i64: 0>} : tensor<8x4xi32>[tensor<5xi32>], tensor<5x1x4xi32>
  %5 = mlx.scatter_add %src[%r, %c], %pu {axes = array<i64: 0, 1>} : tensor<8x4xf32>[tensor<3xi32>, tensor<3xi32>], tensor<3x1x1xf32>
  %6 = mlx.put_along_axis %a, %ia, %va {axis = 0 : i64} : tensor<3x4xf32>, tensor<2x4xi32>, tensor<2x4xf32>
  %7 = mlx.scatter_add_axis %a, %ia, %va {axis = 0 : i64} : tensor<3x4xf32>, tensor<2x4xi32>, tensor<2x4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xi32>, tensor<8x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
}
