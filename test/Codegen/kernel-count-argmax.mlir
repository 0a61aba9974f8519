// RUN: mlxc %s --target=cuda --emit=kernels -o - | FileCheck %s

// A language model's greedy step: the log-probabilities of the last row and
// their argmax. argmax is the maximum and then the least index holding it,
// so the logsumexp, the log-probabilities and both reductions of argmax are
// one row kernel. (As one reduction that carries its index along, argmax
// was a kernel of its own that one thread walked: 1.8 ms for 32000 logits
// on the H200.)
// CHECK-LABEL: func.func @mlxc_graph_cuda_greedy_token
// CHECK:       kernel.region row_reduction(%arg0, {{.*}}) -> (tensor<1x32000xbf16>, tensor<1xi32>)
// CHECK-NOT:   kernel.region
// CHECK:       return
func.func @greedy_token(%logits: tensor<1x32000xbf16> {mlx.name = "logits"})
    -> (tensor<1xui32>, tensor<1x32000xbf16>) {
  %lse = mlx.logsumexp %logits {axes = array<i64: -1>, keepdims = true} : tensor<1x32000xbf16>
  %lp = mlx.subtract %logits, %lse : tensor<1x32000xbf16>, tensor<1x1xbf16>
  %token = mlx.argmax %lp {axis = -1 : i64} : tensor<1x32000xbf16>
  return %token, %lp : tensor<1xui32>, tensor<1x32000xbf16>
}
