// RUN: %check %s
// Binary arithmetic on float16 with broadcasting; the dtype is kept.
// INPUT: r = uniform(0.5, 3.0) * np.where(rng.integers(0, 2, shape) == 1, 1, -1)
// INPUT: p = uniform(0.2, 2.0)
// REF: add = mx.add(a, r)
// REF: subtract = mx.subtract(a, r)
// REF: multiply = mx.multiply(a, r)
// REF: divide = mx.divide(a, r)
// REF: floor_divide = mx.floor_divide(a, r)
// REF: remainder = mx.remainder(a, r)
// REF: maximum = mx.maximum(a, r)
// REF: minimum = mx.minimum(a, r)
// REF: logaddexp = mx.logaddexp(a, r)
// REF: arctan2 = mx.arctan2(a, r)
// REF: less = mx.less(a, r)
// REF: equal = mx.equal(a, r)
// REF: power = mx.power(p, r)
// REF: add_const = a + mx.array(0.3, dtype=a.dtype)
// REF: mul_int = a * i
func.func @binary_float16(
    %a: tensor<3x4xf16> {mlx.name = "a"},
    %r: tensor<4xf16> {mlx.name = "r"},
    %p: tensor<3x4xf16> {mlx.name = "p"},
    %i: tensor<4xi32> {mlx.name = "i"})
    -> (tensor<3x4xf16> {mlx.name = "add"},
    tensor<3x4xf16> {mlx.name = "subtract"},
    tensor<3x4xf16> {mlx.name = "multiply"},
    tensor<3x4xf16> {mlx.name = "divide"},
    tensor<3x4xf16> {mlx.name = "floor_divide"},
    tensor<3x4xf16> {mlx.name = "remainder"},
    tensor<3x4xf16> {mlx.name = "maximum"},
    tensor<3x4xf16> {mlx.name = "minimum"},
    tensor<3x4xf16> {mlx.name = "logaddexp"},
    tensor<3x4xf16> {mlx.name = "arctan2"},
    tensor<3x4xi1> {mlx.name = "less"},
    tensor<3x4xi1> {mlx.name = "equal"},
    tensor<3x4xf16> {mlx.name = "power"},
    tensor<3x4xf16> {mlx.name = "add_const"},
    tensor<3x4xf16> {mlx.name = "mul_int"}) {
  %add = mlx.add %a, %r : tensor<3x4xf16>, tensor<4xf16>
  %subtract = mlx.subtract %a, %r : tensor<3x4xf16>, tensor<4xf16>
  %multiply = mlx.multiply %a, %r : tensor<3x4xf16>, tensor<4xf16>
  %divide = mlx.divide %a, %r : tensor<3x4xf16>, tensor<4xf16>
  %floor_divide = mlx.floor_divide %a, %r : tensor<3x4xf16>, tensor<4xf16>
  %remainder = mlx.remainder %a, %r : tensor<3x4xf16>, tensor<4xf16>
  %maximum = mlx.maximum %a, %r : tensor<3x4xf16>, tensor<4xf16>
  %minimum = mlx.minimum %a, %r : tensor<3x4xf16>, tensor<4xf16>
  %logaddexp = mlx.logaddexp %a, %r : tensor<3x4xf16>, tensor<4xf16>
  %arctan2 = mlx.arctan2 %a, %r : tensor<3x4xf16>, tensor<4xf16>
  %less = mlx.less %a, %r : tensor<3x4xf16>, tensor<4xf16>
  %equal = mlx.equal %a, %r : tensor<3x4xf16>, tensor<4xf16>
  %power = mlx.power %p, %r : tensor<3x4xf16>, tensor<4xf16>
  %k = mlx.constant dense<0.3> : tensor<f16>
  %add_const = mlx.add %a, %k : tensor<3x4xf16>, tensor<f16>
  %mul_int = mlx.multiply %a, %i : tensor<3x4xf16>, tensor<4xi32>
  return %add, %subtract, %multiply, %divide, %floor_divide, %remainder, %maximum, %minimum, %logaddexp, %arctan2, %less, %equal, %power, %add_const, %mul_int
      : tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xi1>, tensor<3x4xi1>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>
}
