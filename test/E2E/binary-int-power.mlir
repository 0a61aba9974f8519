// RUN: %check %s
// Integer power: negative exponents give 0 (MLX), wrap-around in uint8.
// INPUT: arg0 = randint(-4, 5)
// INPUT: arg1 = randint(-3, 9)
// INPUT: arg2 = randint(0, 6)
// REF: out0 = mx.power(arg0, arg1)
// REF: out1 = mx.power(arg2, arg2)
func.func @f(%b: tensor<64xi32>, %e: tensor<64xi32>, %u: tensor<64xui8>) -> (tensor<64xi32>, tensor<64xui8>) {
  %0 = mlx.power %b, %e : tensor<64xi32>, tensor<64xi32>
  %1 = mlx.power %u, %u : tensor<64xui8>, tensor<64xui8>
  return %0, %1 : tensor<64xi32>, tensor<64xui8>
}
