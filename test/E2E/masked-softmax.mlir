// RUN: %check %s
// Attention's scores as a softmax prologue: scale, a boolean mask and an
// additive one before a softmax over the rows (one row kernel on CUDA),
// and a sum reduced to a scalar and over few columns (split reductions).
// INPUT: m = np.arange(128) < 77
// REF: masked = mx.softmax(mx.where(m, s * 0.125, -3.0e38), axis=-1, precise=True)
// REF: biased = mx.softmax(s + b, axis=-1)
// REF: total = mx.sum(big)
// REF: columns = mx.max(big, axis=0)
func.func @masked_softmax(
    %s: tensor<4x128xf32> {mlx.name = "s"},
    %m: tensor<128xi1> {mlx.name = "m"},
    %b: tensor<4x128xf32> {mlx.name = "b"},
    %big: tensor<8192x16xf32> {mlx.name = "big"})
    -> (tensor<4x128xf32> {mlx.name = "masked"},
        tensor<4x128xf32> {mlx.name = "biased"},
        tensor<f32> {mlx.name = "total"},
        tensor<16xf32> {mlx.name = "columns"}) {
  %c = mlx.constant dense<0.125> : tensor<f32>
  %lo = mlx.constant dense<-3.0e+38> : tensor<f32>
  %scaled = mlx.multiply %s, %c : tensor<4x128xf32>, tensor<f32>
  %sel = mlx.select %m, %scaled, %lo : tensor<128xi1>, tensor<4x128xf32>, tensor<f32>
  %masked = mlx.softmax %sel {axes = array<i64: -1>, precise = true} : tensor<4x128xf32>
  %sb = mlx.add %s, %b : tensor<4x128xf32>, tensor<4x128xf32>
  %biased = mlx.softmax %sb {axes = array<i64: -1>} : tensor<4x128xf32>
  %total = mlx.sum %big {axes = array<i64: 0, 1>, keepdims = false} : tensor<8192x16xf32>
  %columns = mlx.max %big {axes = array<i64: 0>, keepdims = false} : tensor<8192x16xf32>
  return %masked, %biased, %total, %columns : tensor<4x128xf32>, tensor<4x128xf32>, tensor<f32>, tensor<16xf32>
}
