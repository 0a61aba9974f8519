//===- RowReduction.h - row reductions of the CUDA path ---------*- C++ -*-===//
//
// The matcher shared by mlxc-map-row-reductions (a reduction alone, one warp
// per row), mlxc-fuse-row-kernels (a chain of reductions and elementwise
// ops, one block per row) and mlxc-split-reductions.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_CODEGEN_CUDA_ROWREDUCTION_H
#define MLXC_CODEGEN_CUDA_ROWREDUCTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir::mlx {

/// A linalg.generic on buffers reducing its innermost loop, the innermost
/// axis of every input, into an f32, i32, f16 or bf16 accumulator, with its
/// payload split into the element's value v and the combiner C(out, v).
struct RowReduction {
  linalg::GenericOp op;
  SmallVector<int64_t> parallelSizes; ///< Loop sizes of the kept dims.
  int64_t reducedSize;
  /// Payload ops computing v (no dependence on `out`), in order.
  SmallVector<Operation *> valueOps;
  /// Payload ops of the combiner, in order.
  SmallVector<Operation *> combineOps;
  Value value;    ///< v, in the payload.
  Value combined; ///< The yielded value, in the payload.
};

/// The split of `op`, or nullopt when it is not such a reduction (or its
/// combiner is not an associative merge of MLX's reductions).
std::optional<RowReduction> matchRowReduction(linalg::GenericOp op);

/// The payload split alone, for a reduction of any loop structure with one
/// init (parallelSizes and reducedSize left empty), or nullopt when its
/// combiner is not such a merge.
std::optional<RowReduction> splitReductionPayload(linalg::GenericOp op);

/// Emits C(a, b): the combiner cloned with out -> a and v -> b.
Value emitCombine(OpBuilder &b, const RowReduction &r, Value a, Value bValue);

/// The value of the lane `offset` away (xor) in the warp; f16 and bf16
/// travel as f32 (the shuffle moves 32 bits; the round trip is exact).
Value emitShuffleXor(OpBuilder &b, Location loc, Value value, int64_t offset);

/// Merges the partials of a warp's 32 lanes with xor shuffles: every lane
/// ends with the warp's total. `hasBits` (i32, 0 or 1) marks the lanes
/// holding a partial; on return it marks whether the warp held any. A
/// constant 1 (every lane holds one) shuffles the partials alone.
Value emitWarpButterfly(OpBuilder &b, Location loc, const RowReduction &r,
                        Value partial, Value &hasBits);

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_CUDA_ROWREDUCTION_H
