// RUN: %check %s
// Rank-0 inputs and outputs: a scalar input broadcast in binary ops and a
// select, all-axes reductions returned as rank-0 results, vector dot product.
// INPUT: s = np.array(-1.25)
// INPUT: n = np.array(-7)
// REF: mul_s = x * s
// REF: sub_s = s - x
// REF: pow_s = mx.power(s, s)
// REF: floordiv_n = i // n
// REF: rem_n = n % i
// REF: add_mixed = n + s
// REF: sel_s = mx.where(x < s, s, x)
// REF: sum_all = mx.sum(x)
// REF: max_all = mx.max(i)
// REF: any_all = mx.any(x < s)
// REF: argmin_flat = mx.argmin(v, axis=0)
// REF: lse_all = mx.logsumexp(x)
// REF: dot = v @ w
func.func @scalars(
    %x: tensor<2x3xf32> {mlx.name = "x"},
    %s: tensor<f32> {mlx.name = "s"},
    %n: tensor<i32> {mlx.name = "n"},
    %i: tensor<2x3xi32> {mlx.name = "i"},
    %v: tensor<5xf32> {mlx.name = "v"},
    %w: tensor<5xf32> {mlx.name = "w"})
    -> (tensor<2x3xf32> {mlx.name = "mul_s"},
    tensor<2x3xf32> {mlx.name = "sub_s"},
    tensor<f32> {mlx.name = "pow_s"},
    tensor<2x3xi32> {mlx.name = "floordiv_n"},
    tensor<2x3xi32> {mlx.name = "rem_n"},
    tensor<f32> {mlx.name = "add_mixed"},
    tensor<2x3xf32> {mlx.name = "sel_s"},
    tensor<f32> {mlx.name = "sum_all"},
    tensor<i32> {mlx.name = "max_all"},
    tensor<i1> {mlx.name = "any_all"},
    tensor<ui32> {mlx.name = "argmin_flat"},
    tensor<f32> {mlx.name = "lse_all"},
    tensor<f32> {mlx.name = "dot"}) {
  %mul_s = mlx.multiply %x, %s : tensor<2x3xf32>, tensor<f32>
  %sub_s = mlx.subtract %s, %x : tensor<f32>, tensor<2x3xf32>
  %pow_s = mlx.power %s, %s : tensor<f32>, tensor<f32>
  %floordiv_n = mlx.floor_divide %i, %n : tensor<2x3xi32>, tensor<i32>
  %rem_n = mlx.remainder %n, %i : tensor<i32>, tensor<2x3xi32>
  %add_mixed = mlx.add %n, %s : tensor<i32>, tensor<f32>
  %c = mlx.less %x, %s : tensor<2x3xf32>, tensor<f32>
  %sel_s = mlx.select %c, %s, %x : tensor<2x3xi1>, tensor<f32>, tensor<2x3xf32>
  %sum_all = mlx.sum %x : tensor<2x3xf32>
  %max_all = mlx.max %i : tensor<2x3xi32>
  %any_all = mlx.any %c : tensor<2x3xi1>
  %argmin_flat = mlx.argmin %v {axis = 0 : i64} : tensor<5xf32>
  %lse_all = mlx.logsumexp %x : tensor<2x3xf32>
  %dot = mlx.matmul %v, %w : tensor<5xf32>, tensor<5xf32>
  return %mul_s, %sub_s, %pow_s, %floordiv_n, %rem_n, %add_mixed, %sel_s, %sum_all, %max_all, %any_all, %argmin_flat, %lse_all, %dot
      : tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<f32>, tensor<2x3xf32>, tensor<f32>, tensor<i32>, tensor<i1>, tensor<ui32>, tensor<f32>, tensor<f32>
}
