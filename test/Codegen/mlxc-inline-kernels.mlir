// RUN: mlx-opt %s --mlxc-pipeline="target=cpu to=kernels" | FileCheck %s --check-prefix=REGIONS
// RUN: mlx-opt %s --mlxc-pipeline="target=cpu to=kernels" --mlxc-inline-kernels | FileCheck %s

// Three kernels: a row reduction, a product, an elementwise map.
// REGIONS-COUNT-3: kernel.region
// REGIONS-NOT: kernel.region

// Inlined, every op of a region but its constants carries the region's
// number in the function and its strategy; no region is left.
// CHECK-LABEL: func.func @f
// CHECK-NOT: kernel.region
// CHECK: arith.constant 0.000000e+00 : f32{{$}}
// CHECK: linalg.fill {kernel.id = 0 : i64, kernel.strategy = "row_reduction"}
// CHECK: linalg.generic {{.*}}["parallel", "parallel", "reduction"]{{.*}}attrs = {kernel.id = 0 : i64, kernel.strategy = "row_reduction"}
// CHECK: arith.constant 0.000000e+00 : f32{{$}}
// CHECK: linalg.fill {kernel.id = 1 : i64, kernel.strategy = "product"}
// CHECK: linalg.batch_matmul {kernel.id = 1 : i64, kernel.strategy = "product"}
// CHECK: linalg.generic {{.*}}attrs = {kernel.id = 2 : i64, kernel.strategy = "elementwise"}
// CHECK-NOT: kernel.region
// CHECK: return
func.func @f(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x1xf32>, tensor<4x8xf32>) {
  %e = mlx.exp %x : tensor<4x8xf32>
  %s = mlx.sum %e {axes = array<i64: -1>, keepdims = true} : tensor<4x8xf32>
  %c = mlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x8xf32>
  %t = mlx.tanh %c : tensor<4x8xf32>
  return %s, %t : tensor<4x1xf32>, tensor<4x8xf32>
}
