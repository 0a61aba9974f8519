// One step of a recurrent state, as a decode step updates its KV cache:
// state' = 0.5 * state + x (x broadcast over the rows), y = sum of state'
// per row. The state goes in and comes back (donated by the caller).
func.func @step(%x: tensor<4xf32> {mlx.name = "x"},
                %state: tensor<3x4xf32> {mlx.name = "state"})
    -> (tensor<3xf32> {mlx.name = "y"},
        tensor<3x4xf32> {mlx.name = "state_out"}) {
  %half = mlx.constant dense<0.5> : tensor<f32>
  %decayed = mlx.multiply %state, %half : tensor<3x4xf32>, tensor<f32>
  %next = mlx.add %decayed, %x : tensor<3x4xf32>, tensor<4xf32>
  %y = mlx.sum %next {axes = array<i64: 1>} : tensor<3x4xf32>
  return %y, %next : tensor<3xf32>, tensor<3x4xf32>
}
