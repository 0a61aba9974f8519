// W1: y = gelu_tanh(x * a + b), 64M float32 elements each.
func.func @w1(%x: tensor<67108864xf32> {mlx.name = "x"}, %a: tensor<67108864xf32> {mlx.name = "a"}, %b: tensor<67108864xf32> {mlx.name = "b"}) -> tensor<67108864xf32> {
  %h0 = mlx.multiply %x, %a : tensor<67108864xf32>, tensor<67108864xf32>
  %h = mlx.add %h0, %b : tensor<67108864xf32>, tensor<67108864xf32>
  %c_half = mlx.constant dense<0.5> : tensor<f32>
  %c_one = mlx.constant dense<1.0> : tensor<f32>
  %c_k = mlx.constant dense<0.7978845608> : tensor<f32>
  %c_a = mlx.constant dense<0.044715> : tensor<f32>
  %h2 = mlx.multiply %h, %h : tensor<67108864xf32>, tensor<67108864xf32>
  %h3 = mlx.multiply %h2, %h : tensor<67108864xf32>, tensor<67108864xf32>
  %t0 = mlx.multiply %h3, %c_a : tensor<67108864xf32>, tensor<f32>
  %t1 = mlx.add %h, %t0 : tensor<67108864xf32>, tensor<67108864xf32>
  %t2 = mlx.multiply %t1, %c_k : tensor<67108864xf32>, tensor<f32>
  %t3 = mlx.tanh %t2 : tensor<67108864xf32>
  %t4 = mlx.add %t3, %c_one : tensor<67108864xf32>, tensor<f32>
  %t5 = mlx.multiply %h, %c_half : tensor<67108864xf32>, tensor<f32>
  %y = mlx.multiply %t5, %t4 : tensor<67108864xf32>, tensor<67108864xf32>
  return %y : tensor<67108864xf32>
}
