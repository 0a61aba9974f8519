//===- CopyToLinalg.cpp - the mlxc-copy-to-linalg pass --------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCCOPYTOLINALG
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

namespace {
struct CopyToLinalgPattern final : OpRewritePattern<memref::CopyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::CopyOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<linalg::CopyOp>(op, op.getSource(),
                                                op.getTarget());
    return success();
  }
};

struct MlxcCopyToLinalgPass final
    : mlx::impl::MlxcCopyToLinalgBase<MlxcCopyToLinalgPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<CopyToLinalgPattern>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
