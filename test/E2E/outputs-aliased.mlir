// RUN: %check %s
// A graph may return an input, or one value twice (also after CSE).
// REF: out0 = mx.exp(arg0)
// REF: out1 = mx.exp(arg0)
// REF: out2 = arg1
// REF: out3 = mx.exp(arg0)
func.func @f(%x: tensor<3xf32>, %y: tensor<2xi32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<2xi32>, tensor<3xf32>) {
  %0 = mlx.exp %x : tensor<3xf32>
  %1 = mlx.exp %x : tensor<3xf32>
  return %0, %0, %y, %1 : tensor<3xf32>, tensor<3xf32>, tensor<2xi32>, tensor<3xf32>
}
