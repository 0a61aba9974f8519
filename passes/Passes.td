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
    logsumexp, rms_norm and layer_norm (accumulated in float32),
    scaled_dot_product_attention (grouped-query heads, causal or array mask,
    attention sinks),
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
  let options = [
    Option<"keepAttention", "keep-attention", "bool", "false",
           "Keep the scaled_dot_product_attention ops that kernel.attention's "
           "kernels take (see mlx-raise-attention)">
  ];
  let dependentDialects = ["::mlir::mlx::MlxDialect"];
}

def MlxRaiseAttention : Pass<"mlx-raise-attention"> {
  let summary = "Raise MLX's attention fallback graph back to "
                "scaled_dot_product_attention";
  let description = [{
    An MLX export made on the CPU holds `mx.fast.scaled_dot_product_attention`
    as MLX's fallback: `matmul(scale * q, transpose(k))`, an optional mask
    (a causal or boolean `select` of the lowest value, or an added mask), a
    `softmax` over the keys and a `matmul` with v; with grouped-query heads,
    q's heads and the mask unflattened into [Hkv, G]; with sinks, the
    softmax over a `concatenate` of the sinks' column (one logit per query
    head, broadcast) and the scores, its column 0 sliced off. Where one of
    kernel.attention's kernels can take the op (`canFormAttentionKernel`:
    the flash-attention kernel of a prefill, or the split-key kernel of a
    decode step), the graph becomes one `mlx.scaled_dot_product_attention`
    again, its mask taken before its broadcasts and reshaped to rank 4, which
    `mlx-decompose{keep-attention}` keeps and `convert-mlx-to-linalg` lowers
    to `kernel.attention`. Intermediates with other uses stop the raise.

    Before:
    ```mlir
    %s = mlx.multiply %scale, %q : tensor<bf16>, tensor<1x2x64x64xbf16>
    %kt = mlx.transpose %k {axes = array<i64: 0, 1, 3, 2>} : tensor<1x2x64x64xbf16>
    %qk = mlx.matmul %s, %kt : tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>
    %p = mlx.softmax %qk {axes = array<i64: 3>, precise = true} : tensor<1x2x64x64xbf16>
    %o = mlx.matmul %p, %v : tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>
    ```
    After:
    ```mlir
    %o = mlx.scaled_dot_product_attention %q, %k, %v {scale = 1.250000e-01 : f32}
    ```
  }];
  let dependentDialects = ["::mlir::mlx::MlxDialect"];
}

#endif // MLXC_PASSES_TD
