// RUN: %check %s
// The bundled example, end to end.
// REF: h = mx.addmm(arg2, arg0, arg1.T)
// REF: g = 0.5 * h * (1 + mx.tanh(0.7978845608 * (h + 0.044715 * h * h * h)))
// REF: out0 = mx.addmm(arg4, g, arg3.T)
// A two-layer MLP with a GELU (tanh approximation) as MLX's nn.Linear and
// nn.gelu_approx write it: y = W2 @ gelu(W1 @ x + b1) + b2, batch of 8.
func.func @mlp(%x: tensor<8x64xf32>, %w1: tensor<256x64xf32>,
               %b1: tensor<256xf32>, %w2: tensor<10x256xf32>,
               %b2: tensor<10xf32>) -> tensor<8x10xf32> {
  %w1t = mlx.transpose %w1 {axes = array<i64: 1, 0>} : tensor<256x64xf32>
  %h = mlx.addmm %b1, %x, %w1t : tensor<256xf32>, tensor<8x64xf32>, tensor<64x256xf32>
  // gelu_approx(h) = 0.5 * h * (1 + tanh(sqrt(2/pi) * (h + 0.044715 * h^3)))
  %c_half = mlx.constant dense<0.5> : tensor<f32>
  %c_one = mlx.constant dense<1.0> : tensor<f32>
  %c_k = mlx.constant dense<0.7978845608> : tensor<f32>
  %c_a = mlx.constant dense<0.044715> : tensor<f32>
  %h3 = mlx.multiply %h, %h : tensor<8x256xf32>, tensor<8x256xf32>
  %h3b = mlx.multiply %h3, %h : tensor<8x256xf32>, tensor<8x256xf32>
  %ah3 = mlx.multiply %h3b, %c_a : tensor<8x256xf32>, tensor<f32>
  %inner = mlx.add %h, %ah3 : tensor<8x256xf32>, tensor<8x256xf32>
  %scaled = mlx.multiply %inner, %c_k : tensor<8x256xf32>, tensor<f32>
  %t = mlx.tanh %scaled : tensor<8x256xf32>
  %onep = mlx.add %t, %c_one : tensor<8x256xf32>, tensor<f32>
  %hh = mlx.multiply %h, %c_half : tensor<8x256xf32>, tensor<f32>
  %g = mlx.multiply %hh, %onep : tensor<8x256xf32>, tensor<8x256xf32>
  // A transpose pair and a no-op reshape that canonicalization removes.
  %w2t = mlx.transpose %w2 {axes = array<i64: 1, 0>} : tensor<10x256xf32>
  %w2tt = mlx.transpose %w2t {axes = array<i64: 1, 0>} : tensor<256x10xf32>
  %w2ttt = mlx.transpose %w2tt {axes = array<i64: 1, 0>} : tensor<10x256xf32>
  %same = mlx.reshape %g {shape = array<i64: 8, -1>} : tensor<8x256xf32>
  %y = mlx.addmm %b2, %same, %w2ttt : tensor<10xf32>, tensor<8x256xf32>, tensor<256x10xf32>
  return %y : tensor<8x10xf32>
}
