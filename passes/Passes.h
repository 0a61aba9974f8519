//===- Passes.h - transformations of the mlx dialect ------------*- C++ -*-===//

#ifndef MLXC_PASSES_PASSES_H
#define MLXC_PASSES_PASSES_H

#include "Mlx/MlxDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::mlx {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

/// The rewrites of mlx-decompose, for use in other pattern sets; with
/// `keepAttention`, the attention ops that kernel.attention's kernels take
/// (canFormAttentionKernel) stay.
void populateMlxDecomposePatterns(RewritePatternSet &patterns,
                                  bool keepAttention = false);

class ScaledDotProductAttentionOp;
/// Whether kernel.attention can compute this attention on CUDA: as a
/// flash-attention kernel (bf16 or f16, head dims 64 or 128, query and key
/// counts multiples of 64) or as a split-key kernel (few query rows per key
/// head: Kernel/AttentionShapes.h), with a mask (null: none) of rank 4 at
/// most that broadcasts to [B, Hq, L, S] (its leading axes 1 when fewer),
/// boolean or of the element type, and sinks (null: none) of one float per
/// query head.
bool canFormAttentionKernel(Type query, Type key, Type value, bool causal,
                            Type mask, Type sinks);
bool canFormAttentionKernel(ScaledDotProductAttentionOp op);

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace mlir::mlx

#endif // MLXC_PASSES_PASSES_H
