//===- Passes.td - transformations of the mlx dialect -------*- tablegen -*-===//

#ifndef MLXC_PASSES_TD
#define MLXC_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Decomposition
//===----------------------------------------------------------------------===//

def MlxDecompose : Pass<"mlx-decompose"> {
  let summary = "Rewrite composite mlx ops into simpler mlx ops";
  let description = [{
    Ops that have no kernel of their own become the graphs MLX itself falls
    back to (mlx/fast.cpp, mlx/ops.cpp), with the same intermediate dtypes:
    softmax (max-subtracted, float32 for half inputs when `precise`),
    logsumexp, rms_norm and layer_norm (accumulated in float32), rope,
    scaled_dot_product_attention (grouped-query heads, causal or array mask),
    addmm, divmod, and matmul with 1-D operands.

    Before:
    ```mlir
    %y = mlx.softmax %x {axes = array<i64: -1>} : tensor<2x8xf32>
    ```
    After:
    ```mlir
    %m = mlx.max %x {axes = array<i64: -1>, keepdims = true} : tensor<2x8xf32>
    %d = mlx.subtract %x, %m : tensor<2x8xf32>, tensor<2x1xf32>
    %e = mlx.exp %d : tensor<2x8xf32>
    %s = mlx.sum %e {axes = array<i64: -1>, keepdims = true} : tensor<2x8xf32>
    %y = mlx.divide %e, %s : tensor<2x8xf32>, tensor<2x1xf32>
    ```
  }];
  let dependentDialects = ["::mlir::mlx::MlxDialect"];
}

#endif // MLXC_PASSES_TD
