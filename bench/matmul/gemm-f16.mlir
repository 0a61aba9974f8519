// C = A @ B, 4096 x 4096 x 4096 in f16: one cuBLASLt product on CUDA.
func.func @gemm_f16(%a: tensor<4096x4096xf16> {mlx.name = "a"},
                  %b: tensor<4096x4096xf16> {mlx.name = "b"})
    -> (tensor<4096x4096xf16> {mlx.name = "c"}) {
  %c = mlx.matmul %a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>
  return %c : tensor<4096x4096xf16>
}
