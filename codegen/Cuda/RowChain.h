//===- RowChain.h - chains of row ops on the CUDA path ----------*- C++ -*-===//
//
// A chain is a run of bufferized linalg ops over the same rows and columns
// that holds row reductions: softmax, rms_norm, layer_norm, logsumexp as
// kernel formation leaves them. mlxc-fuse-row-kernels makes a chain one
// kernel; mlxc-split-vector-products computes one inside a product's blocks
// (its prologue). Both share the matching here.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_CODEGEN_CUDA_ROWCHAIN_H
#define MLXC_CODEGEN_CUDA_ROWCHAIN_H

#include "codegen/Cuda/RowReduction.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>
#include <vector>

namespace mlir::mlx {

/// One op of a chain.
struct ChainOp {
  enum Kind { Fill, Copy, Elementwise, RowScalar, Reduce } kind;
  Operation *op;
  std::optional<RowReduction> reduction;
  Value root;                     ///< The buffer it writes.
  SmallVector<int64_t> loopSizes; ///< linalg.generic only.
  /// Per operand (inputs, then the init): the chain op whose version it
  /// reads (-1: memory as it was before the chain).
  SmallVector<int> producers;
  bool isFinal = false, escapes = false;
};

struct Chain {
  SmallVector<int64_t> rows; ///< Row dims, unit dims dropped.
  int64_t columns = 0;
  std::vector<ChainOp> ops;
};

/// The buffer under expand/collapse views (both keep row-major order), or
/// null for anything the chain cannot reason about.
Value getChainRoot(Value value);

/// Classifies a linalg op as a chain op over rows x columns, or fails.
std::optional<ChainOp> classifyChainOp(Operation *op, Chain &chain);

/// Checks that `op` (loops `loopSizes`) accesses its operand of type `type`
/// through `map` at row-major offset row * columns + column (`full`) or row
/// (a per-row scalar), with row the linear index of the non-unit row loops.
bool accessesRow(AffineMap map, MemRefType type, ArrayRef<int64_t> loopSizes,
                 bool hasColumnLoop, bool full, int64_t columns);

/// Whether `map` reads element `column` of a buffer, whatever the row (a
/// weight vector broadcast over the rows).
bool accessesColumn(AffineMap map, MemRefType type,
                    ArrayRef<int64_t> loopSizes);

/// Resolves versions and checks the chain; false leaves it to the per-op
/// lowering.
bool analyzeChain(Chain &chain);

/// The loop indices of `c` at the row `rowIvs` (one per non-unit row dim)
/// and column `column` (ignored by a per-row op).
SmallVector<Value> getChainLoopIndices(OpBuilder &b, Location loc,
                                       const ChainOp &c, ArrayRef<Value> rowIvs,
                                       Value column);

/// The indices of `operand` of `c` at loop indices `ivs`.
SmallVector<Value> getChainIndicesAt(OpBuilder &b, Location loc,
                                     const ChainOp &c, OpOperand &operand,
                                     ValueRange ivs);

/// Emits the value chain op `index` computes (its yield, or a reduction's
/// v) at the row `rowIvs` and `column`: per-row values from `scalars`,
/// fills as their value, elementwise producers recomputed (once per
/// `cache`), memory through `load`.
Value emitChainValue(
    OpBuilder &b, Location loc, const Chain &chain, int index,
    ArrayRef<Value> rowIvs, Value column, const DenseMap<int, Value> &scalars,
    DenseMap<int, Value> &cache,
    function_ref<Value(const ChainOp &, OpOperand &, ValueRange)> load);

/// Merges the warp totals of a block whose first `warps` warps hold one
/// (every lane of thread `tid` has its warp's total, as emitWarpButterfly
/// leaves it): lane 0 of each warp stores it in `workgroup` (a 1-D shared
/// buffer) at `firstSlot` + warp, and after a barrier every thread adds
/// them in warp order. Warps past `warps` (of `blockWarps`) store nothing.
Value emitWarpsTotal(OpBuilder &b, Location loc, const RowReduction &r,
                     Value warpTotal, Value tid, int64_t warps, Value workgroup,
                     int64_t firstSlot = 0, int64_t blockWarps = 0);

/// The candidate chains of `func`'s body in order, one per row_reduction
/// kernel of kernel formation, not yet analyzed.
std::vector<Chain> collectRowChains(func::FuncOp func);

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_CUDA_ROWCHAIN_H
