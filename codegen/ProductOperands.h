//===- ProductOperands.h - operands of products, read through copies ------===//
//
// A product's operand is often a copy the graph made only for it: a
// transpose (x @ w.T) or a broadcast over the batch. Both targets read the
// source instead: CUDA through cuBLASLt's transpose flag or a zero batch
// stride (mlxc-matmul-to-runtime), the CPU through a transposed view
// (mlxc-fold-product-transposes).
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_CODEGEN_PRODUCTOPERANDS_H
#define MLXC_CODEGEN_PRODUCTOPERANDS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace mlir::mlx {

/// The allocation or argument a buffer is a view of.
Value getRootBuffer(Value value);

/// Whether `root` is an input of a graph function that no output shares:
/// an entry-block argument that is no `bufferize.result` and not in the
/// function's `mlx.in_place` plan.
bool isGraphInput(Value root);

/// Whether an op in `scope` (or nested in it) may write `root` or a view of
/// it: a write effect on it or on an unnamed buffer, or an op that takes it
/// and declares no effects (a call).
bool mayWrite(Operation *scope, Value root);

/// Whether an op in `scope` (or nested in it) may read or write `root` or a
/// view of it (with `writesOnly`, only write), as mayWrite judges.
bool mayAccess(Operation *scope, Value root, bool writesOnly);

/// The memref.alloc that `value` is, or is a reshape (expand/collapse) of;
/// null for anything else (other views, arguments).
memref::AllocOp getAllocUnderReshapes(Value value);

/// Whether `op` is a linalg.fill of `buffer` with a float zero (a product's
/// accumulator starting at zero: beta = 0 in cuBLASLt's terms).
bool isZeroFillOf(Operation *op, Value buffer);

/// The op that fills `operand` (a linalg.transpose, or a linalg.generic
/// that broadcasts a matrix over the batch) when nothing else touches the
/// buffer and its source is not written before the product: the product
/// can read the source instead, and the copy goes.
linalg::LinalgOp getFoldableCopy(Value operand, Operation *product);

/// A view of `transpose`'s source with the layout of `operand` (the
/// transpose's output, or collapses of it), built before the builder's
/// insertion point; null when a collapse cannot apply to the strided view.
/// `created` receives the new ops (to erase them if unused).
Value buildTransposedView(OpBuilder &b, linalg::TransposeOp transpose,
                          Value operand, SmallVectorImpl<Operation *> &created);

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_PRODUCTOPERANDS_H
