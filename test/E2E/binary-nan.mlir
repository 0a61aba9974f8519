// RUN: %check %s
// NaN handling: maximum/minimum propagate NaN, comparisons with NaN are
// false (not_equal true), equal with equal_nan, logaddexp with -inf.
// INPUT: x = np.array([np.nan, 1.0, np.nan, -2.0, 3.0, -np.inf])
// INPUT: y = np.array([1.0, np.nan, np.nan, 5.0, -1.0, -np.inf])
// INPUT: hx = np.array([np.nan, 1.0, np.nan, -2.0, 3.0, 0.5])
// INPUT: hy = np.array([1.0, np.nan, np.nan, 5.0, -1.0, 0.25])
// INPUT: m = np.array([-np.inf, -np.inf, 0.0, 2.0, -np.inf])
// INPUT: n = np.array([3.0, -np.inf, -np.inf, 2.0, -np.inf])
// REF: maximum = mx.maximum(x, y)
// REF: minimum = mx.minimum(x, y)
// REF: equal = mx.equal(x, y)
// REF: not_equal = mx.not_equal(x, y)
// REF: less = mx.less(x, y)
// REF: greater_equal = mx.greater_equal(x, y)
// REF: add = mx.add(x, y)
// REF: equal_nan = (x == y) | (mx.isnan(x) & mx.isnan(y))
// REF: maximum_h = mx.maximum(hx, hy)
// REF: minimum_h = mx.minimum(hx, hy)
// REF: logaddexp_inf = mx.logaddexp(m, n)
func.func @binary_nan(
    %x: tensor<6xf32> {mlx.name = "x"},
    %y: tensor<6xf32> {mlx.name = "y"},
    %hx: tensor<6xf16> {mlx.name = "hx"},
    %hy: tensor<6xf16> {mlx.name = "hy"},
    %m: tensor<5xf32> {mlx.name = "m"},
    %n: tensor<5xf32> {mlx.name = "n"})
    -> (tensor<6xf32> {mlx.name = "maximum"},
    tensor<6xf32> {mlx.name = "minimum"},
    tensor<6xi1> {mlx.name = "equal"},
    tensor<6xi1> {mlx.name = "not_equal"},
    tensor<6xi1> {mlx.name = "less"},
    tensor<6xi1> {mlx.name = "greater_equal"},
    tensor<6xf32> {mlx.name = "add"},
    tensor<6xi1> {mlx.name = "equal_nan"},
    tensor<6xf16> {mlx.name = "maximum_h"},
    tensor<6xf16> {mlx.name = "minimum_h"},
    tensor<5xf32> {mlx.name = "logaddexp_inf"}) {
  %maximum = mlx.maximum %x, %y : tensor<6xf32>, tensor<6xf32>
  %minimum = mlx.minimum %x, %y : tensor<6xf32>, tensor<6xf32>
  %equal = mlx.equal %x, %y : tensor<6xf32>, tensor<6xf32>
  %not_equal = mlx.not_equal %x, %y : tensor<6xf32>, tensor<6xf32>
  %less = mlx.less %x, %y : tensor<6xf32>, tensor<6xf32>
  %greater_equal = mlx.greater_equal %x, %y : tensor<6xf32>, tensor<6xf32>
  %add = mlx.add %x, %y : tensor<6xf32>, tensor<6xf32>
  %equal_nan = mlx.equal %x, %y {equal_nan = true} : tensor<6xf32>, tensor<6xf32>
  %maximum_h = mlx.maximum %hx, %hy : tensor<6xf16>, tensor<6xf16>
  %minimum_h = mlx.minimum %hx, %hy : tensor<6xf16>, tensor<6xf16>
  %logaddexp_inf = mlx.logaddexp %m, %n : tensor<5xf32>, tensor<5xf32>
  return %maximum, %minimum, %equal, %not_equal, %less, %greater_equal, %add, %equal_nan, %maximum_h, %minimum_h, %logaddexp_inf
      : tensor<6xf32>, tensor<6xf32>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xf32>, tensor<6xi1>, tensor<6xf16>, tensor<6xf16>, tensor<5xf32>
}
