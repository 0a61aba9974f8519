//===- InterchangeReductions.cpp - the mlxc-interchange-reductions pass ---===//
//
// convert-linalg-to-parallel-loops makes only the *leading* parallel loops
// of a linalg op parallel. A reduction over a leading axis (a column sum,
// sum over axis 0) then has no parallel loop before its reduction loop and
// ran as a one-thread kernel. Moving the parallel dimensions first gives
// one thread per output element, each walking its reduction in the original
// order (deterministic, the order the CPU variant uses); neighbouring
// threads read neighbouring columns, so the reads are coalesced.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCINTERCHANGEREDUCTIONS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

/// The loop order with every parallel dimension first, each group in its
/// original order; empty when the parallel dimensions already lead or
/// there is no parallel dimension to lead.
static SmallVector<unsigned> parallelFirst(linalg::LinalgOp op) {
  SmallVector<unsigned> parallel, reduction;
  for (auto [i, type] : llvm::enumerate(op.getIteratorTypesArray()))
    (linalg::isParallelIterator(type) ? parallel : reduction).push_back(i);
  if (parallel.empty() || reduction.empty() ||
      reduction.front() > parallel.back())
    return {};
  SmallVector<unsigned> order = parallel;
  order.append(reduction);
  return order;
}

namespace {
struct MlxcInterchangeReductionsPass final
    : mlx::impl::MlxcInterchangeReductionsBase<MlxcInterchangeReductionsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics() && !parallelFirst(op).empty())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      SmallVector<unsigned> order = parallelFirst(op);
      rewriter.setInsertionPoint(op);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> generalized =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(generalized))
          continue;
        generic = *generalized;
      }
      if (failed(linalg::interchangeGenericOp(rewriter, generic, order))) {
        generic.emitError("cannot put the parallel loops first");
        return signalPassFailure();
      }
    }
  }
};
} // namespace
