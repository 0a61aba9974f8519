//===- FuseElementwise.cpp - the mlxc-fuse-elementwise pass ---------------===//
//
// linalg-fuse-elementwise-ops also folds the batch reshapes of a
// linalg.batch_matmul into it (it becomes a linalg.generic with several
// batch loops) and then fuses elementwise producers (a scale, a
// normalization, a broadcast) into that contraction: fine for loops, but
// cuBLASLt can no longer run it. On CUDA, products stay named ops, and a
// cheap map (a cast) with several consumers is fused into each of them.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCFUSEELEMENTWISE
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

static bool isProduct(Operation *op) {
  return op && isa<linalg::BatchMatmulOp, linalg::MatmulOp>(op);
}

/// A map whose every element is one or two arith ops (a cast, a scale):
/// cheaper to recompute in each consumer than to write to memory and read
/// back (a bf16 row cast to f32 for a softmax, read by the max and the exp).
static bool isCheapToRecompute(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumReductionLoops() != 0 ||
      generic.getNumDpsInits() != 1 ||
      !llvm::all_of(op->getUsers(),
                    llvm::IsaPred<linalg::GenericOp, tensor::ExpandShapeOp,
                                  tensor::CollapseShapeOp>))
    return false;
  int64_t count = 0;
  for (Operation &inner : generic.getBody()->without_terminator()) {
    if (!isa<arith::ArithDialect>(inner.getDialect()) ||
        isa<arith::DivFOp, arith::RemFOp, arith::DivSIOp, arith::DivUIOp,
            arith::RemSIOp, arith::RemUIOp>(inner))
      return false;
    ++count;
  }
  return count <= 2;
}

namespace {
struct MlxcFuseElementwisePass final
    : mlx::impl::MlxcFuseElementwiseBase<MlxcFuseElementwisePass> {
  using Base::Base;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    linalg::ControlFusionFn control = [](OpOperand *fused) {
      Operation *producer = fused->get().getDefiningOp();
      if (isProduct(producer) || isProduct(fused->getOwner()))
        return false;
      // As linalg-fuse-elementwise-ops, never duplicate a producer, except
      // a cheap map that every consumer recomputes.
      return producer &&
             (producer->hasOneUse() || isCheapToRecompute(producer));
    };
    RewritePatternSet patterns(ctx);
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, control);
    linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
