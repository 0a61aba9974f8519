// A graph with a dynamic input dimension.
func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> {
  %e = mlx.exp %x : tensor<?xf32>
  return %e : tensor<?xf32>
}
