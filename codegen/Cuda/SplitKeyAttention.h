//===- SplitKeyAttention.h - the decode-step attention kernel ---*- C++ -*-===//
//
// kernel.attention with few query rows per key head (a decode step: one
// query against thousands of cached keys) as one kernel whose blocks split
// the keys (FlashDecoding): mlxc-lower-attention builds it for the shapes
// of Kernel/AttentionShapes.h's isSplitKeyAttentionShape.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_CODEGEN_CUDA_SPLITKEYATTENTION_H
#define MLXC_CODEGEN_CUDA_SPLITKEYATTENTION_H

#include "Kernel/KernelOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::mlx {

/// The score of a key a boolean mask hides in both attention kernels (and
/// the causal mask in the split-key one): below any kept one by far, yet
/// finite, so that a row with every key masked averages them, as MLX's
/// fallback (a select of the lowest finite value) does. A power of two: its
/// product with log2 e is exact, so that such a row's exponentials are
/// exactly 1.
constexpr float kMaskedAttentionScore = -0x1p100f;

/// Whether `type` can be read `width` elements at a time along its rows:
/// unit innermost stride, the other strides and the offset whole groups.
/// Both attention kernels read their rows 16 bytes at a time.
bool isVectorAligned(MemRefType type, int64_t width);

/// `buffer`, or a copy of it into a fresh contiguous buffer (made before
/// `b`'s insertion point) when it is not vector-aligned for `width`.
Value alignedForVectors(OpBuilder &b, Location loc, Value buffer,
                        int64_t width);

/// Blocks that `op` (on buffers) takes along one row group, one per key
/// chunk; and the row groups, each with one count in the arrival counters.
struct SplitKeyGrid {
  int64_t splits, rowGroups;
};
SplitKeyGrid getSplitKeyGrid(kernel::AttentionOp op);

/// Replaces `op` with the split-key kernel. `counters` is a zero-initialized
/// i32 global with at least getSplitKeyGrid(op).rowGroups elements, which
/// the kernel leaves at zero.
LogicalResult lowerSplitKeyAttention(kernel::AttentionOp op,
                                     memref::GlobalOp counters);

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_CUDA_SPLITKEYATTENTION_H
