//===- FuseElementwise.cpp - the mlxc-fuse-elementwise pass ---------------===//
//
// linalg-fuse-elementwise-ops also folds the batch reshapes of a
// linalg.batch_matmul into it (it becomes a linalg.generic with several
// batch loops) and then fuses elementwise producers (a scale, a
// normalization, a broadcast) into that contraction: fine for loops, but
// cuBLASLt can no longer run it. On CUDA, products stay named ops.
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
      // As linalg-fuse-elementwise-ops: never duplicate a producer.
      return producer && producer->hasOneUse();
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
