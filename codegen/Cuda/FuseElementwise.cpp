//===- FuseElementwise.cpp - the mlxc-fuse-elementwise pass ---------------===//
//
// linalg-fuse-elementwise-ops also folds the batch reshapes of a
// linalg.batch_matmul into it (it becomes a linalg.generic with several
// batch loops) and then fuses elementwise producers (a scale, a
// normalization, a broadcast) into that contraction: fine for loops, but
// cuBLASLt can no longer run it. On CUDA, products stay named ops, and a
// cheap map (a cast) with several consumers is fused into each of them, as
// is a small table (a decode step's RoPE cosines and sines) into the small
// maps that read it. A map that reads a value broadcast along a reduction's
// rows (argmax's extreme) stays out of that reduction: kernel formation
// then puts the map and the reduction into the row kernel that makes the
// value, where a reduction with such an operand would run on its own,
// unsplit. A transpose that keeps the innermost axis and that only
// elementwise maps read, directly or through slices (a prefill's q and k,
// transposed to [heads, tokens, dim] and split in two halves for RoPE),
// becomes a map that those fuse: they read the untransposed tensor, rows of
// the innermost axis still contiguous, and no transpose kernel is left.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/IRMapping.h"
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

/// Points of a table that its consumers recompute (a decode step's RoPE
/// cosines and sines: one per frequency), and points of a consumer that
/// recomputes one (a decode step's q or k, not a prefill's activations).
constexpr int64_t kMaxTablePoints = 4096;
constexpr int64_t kMaxRecomputingPoints = 1 << 16;

int64_t countPoints(linalg::GenericOp op) {
  return computeProduct(op.getStaticLoopRanges());
}

/// A small elementwise table (a decode step's RoPE cosines and sines, [1,
/// 64]) read by elementwise maps of few points (the rotations of q and of
/// k) is recomputed in each of them, so that it is no kernel of its own:
/// the fusion control above never duplicates a map that is not cheap, and
/// upstream fusion, which keeps the table's results that other maps read,
/// would write them from each consumer's larger loop space. Here the
/// consumer reads the table's inputs itself; the table's loops are read
/// off the consumer's indexing of it (each result a loop of the consumer or
/// a unit dimension's 0).
struct RecomputeSmallTable final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    if (consumer.getNumReductionLoops() != 0 || consumer.hasDynamicShape() ||
        !consumer.hasPureTensorSemantics() ||
        countPoints(consumer) > kMaxRecomputingPoints)
      return failure();
    for (OpOperand *operand : consumer.getDpsInputOperands()) {
      // A table is broadcast: the consumer has more points than it. A map
      // of a decode step's row read element by element (a residual add
      // before a norm) is no table: recomputed in each consumer, a model's
      // residual stream would be re-added from its first layer in every
      // norm.
      auto table = operand->get().getDefiningOp<linalg::GenericOp>();
      if (!table || table.getNumReductionLoops() != 0 ||
          table.hasDynamicShape() || !table.hasPureTensorSemantics() ||
          countPoints(table) > kMaxTablePoints ||
          countPoints(table) >= countPoints(consumer))
        continue;
      auto result = cast<OpResult>(operand->get());
      AffineMap resultMap = table.getIndexingMapMatchingResult(result);
      AffineMap read = consumer.getMatchingIndexingMap(operand);
      // Tables of identity results whose initial values they never read.
      if (!resultMap.isIdentity() ||
          llvm::any_of(table.getDpsInitsMutable(), [&](OpOperand &init) {
            return !table.getMatchingBlockArgument(&init).use_empty();
          }))
        continue;
      bool readsLoopsOrZero = llvm::all_of(read.getResults(), [](AffineExpr e) {
        auto constant = dyn_cast<AffineConstantExpr>(e);
        return isa<AffineDimExpr>(e) || (constant && constant.getValue() == 0);
      });
      if (!readsLoopsOrZero)
        continue;
      rewriter.replaceOp(consumer,
                         recompute(rewriter, consumer, operand, table, read));
      return success();
    }
    return failure();
  }

  /// `consumer` with `operand` (a result of `table`) replaced by the
  /// table's inputs and its body computed in place.
  static ValueRange recompute(PatternRewriter &rewriter,
                              linalg::GenericOp consumer, OpOperand *operand,
                              linalg::GenericOp table, AffineMap read) {
    unsigned position = operand->getOperandNumber();
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *input : consumer.getDpsInputOperands()) {
      if (input != operand) {
        inputs.push_back(input->get());
        maps.push_back(consumer.getMatchingIndexingMap(input));
        continue;
      }
      // The table's loop i is the consumer's read expression i.
      for (OpOperand *tableInput : table.getDpsInputOperands()) {
        inputs.push_back(tableInput->get());
        maps.push_back(table.getMatchingIndexingMap(tableInput).compose(read));
      }
    }
    SmallVector<Value> outputs = consumer.getDpsInits();
    for (OpOperand &init : consumer.getDpsInitsMutable())
      maps.push_back(consumer.getMatchingIndexingMap(&init));
    auto fused = linalg::GenericOp::create(
        rewriter, consumer.getLoc(), consumer.getResultTypes(), inputs, outputs,
        maps, consumer.getIteratorTypesArray(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          IRMapping mapping;
          Block *tableBody = table.getBody();
          Block *body = consumer.getBody();
          unsigned tableInputs = table.getNumDpsInputs();
          // The new block arguments: the consumer's inputs before the
          // operand, the table's inputs, the rest.
          for (unsigned i = 0; i < tableInputs; ++i)
            mapping.map(tableBody->getArgument(i), args[position + i]);
          for (Operation &op : tableBody->without_terminator()) {
            if (auto index = dyn_cast<linalg::IndexOp>(op)) {
              AffineExpr expr = read.getResult(index.getDim());
              Value value =
                  isa<AffineDimExpr>(expr)
                      ? linalg::IndexOp::create(
                            b, loc, cast<AffineDimExpr>(expr).getPosition())
                            .getResult()
                      : arith::ConstantIndexOp::create(b, loc, 0).getResult();
              mapping.map(index.getResult(), value);
              continue;
            }
            b.clone(op, mapping);
          }
          Value tableValue =
              mapping.lookupOrDefault(tableBody->getTerminator()->getOperand(
                  cast<OpResult>(operand->get()).getResultNumber()));
          for (unsigned i = 0; i < body->getNumArguments(); ++i) {
            if (i < position)
              mapping.map(body->getArgument(i), args[i]);
            else if (i == position)
              mapping.map(body->getArgument(i), tableValue);
            else
              mapping.map(body->getArgument(i), args[i - 1 + tableInputs]);
          }
          for (Operation &op : body->without_terminator())
            b.clone(op, mapping);
          SmallVector<Value> yielded;
          for (Value value : body->getTerminator()->getOperands())
            yielded.push_back(mapping.lookupOrDefault(value));
          linalg::YieldOp::create(b, loc, yielded);
        });
    return fused.getResults();
  }
};

static bool isMap(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  return generic && generic.getNumReductionLoops() == 0;
}

/// A transpose whose every user is an elementwise map or a full-rank slice
/// that only such maps read, and that keeps the innermost axis in place.
static bool isReadByMapsOnly(linalg::TransposeOp transpose) {
  ArrayRef<int64_t> perm = transpose.getPermutation();
  if (transpose->getNumResults() != 1 || perm.empty() ||
      perm.back() != static_cast<int64_t>(perm.size()) - 1)
    return false;
  for (Operation *user : transpose->getResult(0).getUsers()) {
    if (isMap(user))
      continue;
    auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
    if (!slice ||
        slice.getSourceType().getRank() != slice.getType().getRank() ||
        !slice.hasUnitStride() || !llvm::all_of(slice->getUsers(), isMap))
      return false;
  }
  return true;
}

/// The map that transposes `source` by `perm` into a new tensor of `type`.
static Value createTransposeMap(PatternRewriter &rewriter, Location loc,
                                Value source, ArrayRef<int64_t> perm,
                                RankedTensorType type) {
  int64_t rank = static_cast<int64_t>(perm.size());
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                       type.getElementType());
  // Result dim j is input dim perm[j].
  SmallVector<AffineExpr> reads(rank);
  for (int64_t j = 0; j < rank; ++j)
    reads[perm[j]] = rewriter.getAffineDimExpr(j);
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, reads, ctx),
                                 AffineMap::getMultiDimIdentityMap(rank, ctx)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             rewriter, loc, type, source, init, maps, iterators,
             [](OpBuilder &b, Location loc, ValueRange args) {
               linalg::YieldOp::create(b, loc, args[0]);
             })
      .getResult(0);
}

/// A transpose that maps only read (isReadByMapsOnly) and that some map
/// reads directly becomes a map, which they fuse.
struct TransposeIntoMaps final : public OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    if (!isReadByMapsOnly(transpose) ||
        llvm::none_of(transpose->getResult(0).getUsers(), isMap))
      return failure();
    rewriter.replaceOp(
        transpose,
        createTransposeMap(
            rewriter, transpose.getLoc(), transpose.getInput(),
            transpose.getPermutation(),
            cast<RankedTensorType>(transpose->getResult(0).getType())));
    return success();
  }
};

/// extract_slice(transpose(x)) -> the map that transposes the slice of x
/// holding the same elements, when maps only read the transpose
/// (isReadByMapsOnly): the maps then fuse it and read x itself.
struct SliceThroughTranspose final
    : public OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice,
                                PatternRewriter &rewriter) const override {
    auto transpose = slice.getSource().getDefiningOp<linalg::TransposeOp>();
    if (!transpose || !isReadByMapsOnly(transpose))
      return failure();
    // Result dim j is input dim perm[j]: the slice of x has offset and size
    // j at input dim perm[j].
    ArrayRef<int64_t> perm = transpose.getPermutation();
    int64_t rank = static_cast<int64_t>(perm.size());
    SmallVector<OpFoldResult> offsets(rank), sizes(rank),
        strides(rank, rewriter.getIndexAttr(1));
    SmallVector<OpFoldResult> sliceOffsets = slice.getMixedOffsets(),
                              sliceSizes = slice.getMixedSizes();
    for (int64_t j = 0; j < rank; ++j) {
      offsets[perm[j]] = sliceOffsets[j];
      sizes[perm[j]] = sliceSizes[j];
    }
    Location loc = slice.getLoc();
    Value source = tensor::ExtractSliceOp::create(
        rewriter, loc, transpose.getInput(), offsets, sizes, strides);
    rewriter.replaceOp(slice, createTransposeMap(rewriter, loc, source, perm,
                                                 slice.getType()));
    return success();
  }
};

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
    patterns.add<RecomputeSmallTable, SliceThroughTranspose, TransposeIntoMaps>(
        ctx);
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
