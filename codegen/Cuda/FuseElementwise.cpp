//===- FuseElementwise.cpp - the mlxc-fuse-elementwise pass ---------------===//
//
// linalg-fuse-elementwise-ops also folds the batch reshapes of a
// linalg.batch_matmul into it (it becomes a linalg.generic with several
// batch loops) and then fuses elementwise producers (a scale, a
// normalization, a broadcast) into that contraction: fine for loops, but
// cuBLASLt can no longer run it. On CUDA, products stay named ops, and a
// cheap map (a cast) with several consumers is fused into each of them. A
// map that reads a value broadcast along a reduction's rows (argmax's
// extreme) stays out of that reduction: kernel formation then puts the map
// and the reduction into the row kernel that makes the value, where a
// reduction with such an operand would run on its own, unsplit.
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

/// Whether fusing the producer of `fused` into its consumer, a reduction,
/// would give the reduction an operand that does not vary along its
/// innermost reduced loop (one value per row; rank-0 scalars aside).
static bool addsRowInvariantOperand(OpOperand *fused) {
  auto consumer = dyn_cast<linalg::GenericOp>(fused->getOwner());
  auto producer = fused->get().getDefiningOp<linalg::GenericOp>();
  if (!consumer || !producer || consumer.getNumReductionLoops() == 0 ||
      consumer.getIteratorTypesArray().back() != utils::IteratorType::reduction)
    return false;
  AffineMap resultMap =
      producer.getIndexingMapMatchingResult(cast<OpResult>(fused->get()));
  if (!resultMap.isPermutation())
    return false;
  AffineMap toProducer = inversePermutation(resultMap).compose(
      consumer.getMatchingIndexingMap(fused));
  unsigned reduced = consumer.getNumLoops() - 1;
  return llvm::any_of(producer.getDpsInputOperands(), [&](OpOperand *input) {
    AffineMap map = producer.getMatchingIndexingMap(input);
    return map.getNumResults() > 0 &&
           !map.compose(toProducer).isFunctionOfDim(reduced);
  });
}

namespace {
struct MlxcFuseElementwisePass final
    : mlx::impl::MlxcFuseElementwiseBase<MlxcFuseElementwisePass> {
  using Base::Base;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    linalg::ControlFusionFn control = [](OpOperand *fused) {
      Operation *producer = fused->get().getDefiningOp();
      if (isProduct(producer) || isProduct(fused->getOwner()) ||
          addsRowInvariantOperand(fused))
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
