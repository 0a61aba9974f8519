// C = A @ B, 4096 x 4096 x 4096 in f32: one cuBLASLt product on CUDA.
func.func @gemm_f32(%a: tensor<4096x4096xf32> {mlx.name = "a"},
                  %b: tensor<4096x4096xf32> {mlx.name = "b"})
    -> (tensor<4096x4096xf32> {mlx.name = "c"}) {
  %c = mlx.matmul %a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32>
  return %c : tensor<4096x4096xf32>
}
