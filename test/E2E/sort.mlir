// RUN: %check %s
// sort and argsort along the last and the first axis: stable (ties keep
// their order, -0.0 ties with 0.0), NaN after every number; integers;
// partition and argpartition give a full sort, which satisfies MLX's
// contract (checked below against mx.partition's kth element).
// INPUT: x = np.where(rng.uniform(size=shape) < 0.1, np.nan, rng.integers(-3, 4, shape)).astype(np.float32)
// INPUT: i = randint(-5, 6)
// REF: s = mx.sort(x)
// REF: a = mx.argsort(x)
// REF: s0 = mx.sort(x, axis=0)
// REF: a0 = mx.argsort(x, axis=0)
// REF: si = mx.sort(i, axis=1)
// REF: ai = mx.argsort(i, axis=1)
// REF: p = mx.sort(x, axis=-1); assert np.array_equal(np.array(p)[:, 3], np.array(mx.partition(x, 3))[:, 3], equal_nan=True)
// REF: ap = mx.argsort(i, axis=0)
func.func @sort(%x: tensor<6x40xf32> {mlx.name = "x"},
                %i: tensor<5x7xi32> {mlx.name = "i"})
    -> (tensor<6x40xf32> {mlx.name = "s"}, tensor<6x40xui32> {mlx.name = "a"},
        tensor<6x40xf32> {mlx.name = "s0"}, tensor<6x40xui32> {mlx.name = "a0"},
        tensor<5x7xi32> {mlx.name = "si"}, tensor<5x7xui32> {mlx.name = "ai"},
        tensor<6x40xf32> {mlx.name = "p"}, tensor<5x7xui32> {mlx.name = "ap"}) {
  %s = mlx.sort %x : tensor<6x40xf32>
  %a = mlx.argsort %x : tensor<6x40xf32>
  %s0 = mlx.sort %x {axis = 0 : i64} : tensor<6x40xf32>
  %a0 = mlx.argsort %x {axis = 0 : i64} : tensor<6x40xf32>
  %si = mlx.sort %i {axis = 1 : i64} : tensor<5x7xi32>
  %ai = mlx.argsort %i {axis = 1 : i64} : tensor<5x7xi32>
  %p = mlx.partition %x {kth = 3 : i64} : tensor<6x40xf32>
  %ap = mlx.argpartition %i {axis = 0 : i64, kth = 2 : i64} : tensor<5x7xi32>
  return %s, %a, %s0, %a0, %si, %ai, %p, %ap : tensor<6x40xf32>, tensor<6x40xui32>, tensor<6x40xf32>, tensor<6x40xui32>, tensor<5x7xi32>, tensor<5x7xui32>, tensor<6x40xf32>, tensor<5x7xui32>
}
