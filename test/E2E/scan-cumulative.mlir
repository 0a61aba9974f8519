// RUN: %check %s
// Scans: cumsum inclusive/exclusive/reverse, cumprod, cummax, cummin; bool
// cumsum gives int32.
// INPUT: i = randint(-3, 4)
// REF: cumsum = mx.cumsum(x, axis=1)
// REF: cumsum_excl_rev = mx.cumsum(x, axis=-1, reverse=True, inclusive=False)
// REF: cumsum0 = mx.cumsum(i, axis=0)
// REF: cumprod = mx.cumprod(i, axis=0, inclusive=False)
// REF: cummax = mx.cummax(x, axis=0, reverse=True)
// REF: cummin = mx.cummin(i, axis=1)
// REF: cumsum_b = mx.cumsum(b, axis=0)
func.func @scan_cumulative(
    %x: tensor<3x5xf32> {mlx.name = "x"},
    %i: tensor<4x3xi32> {mlx.name = "i"},
    %b: tensor<6xi1> {mlx.name = "b"})
    -> (tensor<3x5xf32> {mlx.name = "cumsum"},
    tensor<3x5xf32> {mlx.name = "cumsum_excl_rev"},
    tensor<4x3xi32> {mlx.name = "cumsum0"},
    tensor<4x3xi32> {mlx.name = "cumprod"},
    tensor<3x5xf32> {mlx.name = "cummax"},
    tensor<4x3xi32> {mlx.name = "cummin"},
    tensor<6xi32> {mlx.name = "cumsum_b"}) {
  %cumsum = mlx.cumsum %x {axis = 1 : i64} : tensor<3x5xf32>
  %cumsum_excl_rev = mlx.cumsum %x {axis = -1 : i64, inclusive = false, reverse = true} : tensor<3x5xf32>
  %cumsum0 = mlx.cumsum %i {axis = 0 : i64} : tensor<4x3xi32>
  %cumprod = mlx.cumprod %i {axis = 0 : i64, inclusive = false} : tensor<4x3xi32>
  %cummax = mlx.cummax %x {axis = 0 : i64, reverse = true} : tensor<3x5xf32>
  %cummin = mlx.cummin %i {axis = 1 : i64} : tensor<4x3xi32>
  %cumsum_b = mlx.cumsum %b {axis = 0 : i64} : tensor<6xi1>
  return %cumsum, %cumsum_excl_rev, %cumsum0, %cumprod, %cummax, %cummin, %cumsum_b
      : tensor<3x5xf32>, tensor<3x5xf32>, tensor<4x3xi32>, tensor<4x3xi32>, tensor<3x5xf32>, tensor<4x3xi32>, tensor<6xi32>
}
