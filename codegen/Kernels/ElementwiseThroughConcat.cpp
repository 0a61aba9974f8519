//===- ElementwiseThroughConcat.cpp - mlxc-elementwise-through-concat -----===//
//
// RoPE rotates the two halves of each head in two elementwise ops and
// concatenates them (tensor.insert_slice into an empty tensor); attention
// then scales q, and the KV cache takes k as its new row. Neither fuses into
// the halves: the scale reads the concatenation, so it stays a kernel of its
// own, and the row is copied into the cache by two more. Here an
// elementwise op whose input is such a concatenation becomes one op per
// piece, concatenated in turn (elementwise fusion then merges each with the
// op that made its piece), and a concatenation inserted into a window is
// inserted piece by piece (each piece's op then writes into the window).
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCELEMENTWISETHROUGHCONCAT
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

namespace {

/// One piece of a concatenation: its value and where it goes along `dim`.
struct Piece {
  Value value;
  int64_t offset, size;
};

/// The pieces of `value` when it is a chain of static, unit-stride
/// tensor.insert_slice ops into a tensor.empty that cover it exactly and
/// cut it along one dimension only (`dim`), each link used once.
std::optional<SmallVector<Piece>> getConcatPieces(Value value, int64_t &dim) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<Piece> pieces;
  dim = -1;
  while (auto insert = value.getDefiningOp<tensor::InsertSliceOp>()) {
    if (!insert->hasOneUse() || !insert.hasUnitStride() ||
        insert.getSourceType().getRank() != type.getRank() ||
        ShapedType::isDynamicShape(insert.getStaticOffsets()) ||
        ShapedType::isDynamicShape(insert.getStaticSizes()))
      return std::nullopt;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (insert.getStaticSizes()[d] == type.getDimSize(d) &&
          insert.getStaticOffsets()[d] == 0)
        continue;
      if (dim != -1 && dim != d)
        return std::nullopt;
      dim = d;
    }
    pieces.push_back({insert.getSource(), 0, 0});
    if (dim != -1) {
      pieces.back().offset = insert.getStaticOffsets()[dim];
      pieces.back().size = insert.getStaticSizes()[dim];
    }
    value = insert.getDest();
  }
  if (!value.getDefiningOp<tensor::EmptyOp>() || pieces.size() < 2 || dim == -1)
    return std::nullopt;
  // Disjoint and covering: sorted by offset, each starts where the last
  // ended.
  llvm::sort(pieces, [](const Piece &a, const Piece &b) {
    return a.offset < b.offset;
  });
  int64_t end = 0;
  for (const Piece &piece : pieces) {
    if (piece.offset != end)
      return std::nullopt;
    end += piece.size;
  }
  if (end != type.getDimSize(dim))
    return std::nullopt;
  return pieces;
}

struct ElementwiseThroughConcat final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op.getNumReductionLoops() != 0 ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity() ||
        !op.getMatchingBlockArgument(op.getDpsInitOperand(0)).use_empty() ||
        llvm::any_of(op.getRegion().getOps(), llvm::IsaPred<linalg::IndexOp>))
      return failure();
    // The one input read element by element that is a concatenation; the
    // others must not vary along its cut (a broadcast scale, a constant).
    OpOperand *concat = nullptr;
    SmallVector<Piece> pieces;
    int64_t dim = -1;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (!concat && map.isIdentity()) {
        if (auto found = getConcatPieces(input->get(), dim)) {
          concat = input;
          pieces = std::move(*found);
        }
      }
    }
    if (!concat)
      return failure();
    // Each piece must come from an elementwise op that the piece of this
    // op can fuse into; else the split only adds kernels.
    for (const Piece &piece : pieces) {
      auto producer = piece.value.getDefiningOp<linalg::GenericOp>();
      if (!producer || !piece.value.hasOneUse() ||
          producer.getNumReductionLoops() != 0)
        return failure();
    }
    // Others read element by element are sliced like the concatenation.
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (input != concat && map.isFunctionOfDim(dim) && !map.isIdentity())
        return failure();
    }

    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Value result = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                           resultType.getElementType());
    int64_t rank = resultType.getRank();
    for (const Piece &piece : pieces) {
      SmallVector<int64_t> shape(resultType.getShape());
      shape[dim] = piece.size;
      Value init = tensor::EmptyOp::create(rewriter, loc, shape,
                                           resultType.getElementType());
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
      for (int64_t size : shape)
        sizes.push_back(rewriter.getIndexAttr(size));
      offsets[dim] = rewriter.getIndexAttr(piece.offset);
      SmallVector<Value> inputs;
      for (OpOperand *input : op.getDpsInputOperands()) {
        if (input == concat)
          inputs.push_back(piece.value);
        else if (op.getMatchingIndexingMap(input).isFunctionOfDim(dim))
          inputs.push_back(tensor::ExtractSliceOp::create(
              rewriter, loc, input->get(), offsets, sizes, strides));
        else
          inputs.push_back(input->get());
      }
      auto part = linalg::GenericOp::create(
          rewriter, loc, init.getType(), inputs, init,
          op.getIndexingMapsArray(), op.getIteratorTypesArray());
      IRMapping mapping;
      rewriter.cloneRegionBefore(op.getRegion(), part.getRegion(),
                                 part.getRegion().begin(), mapping);
      result = tensor::InsertSliceOp::create(rewriter, loc, part->getResult(0),
                                             result, offsets, sizes, strides);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// A concatenation inserted into a window of another tensor (a KV cache's
/// new row, made of RoPE's two halves) is inserted piece by piece: each
/// piece's op then writes into the window in place after bufferization,
/// instead of into a temporary that a copy moves.
struct InsertConcatPieces final : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::InsertSliceOp op,
                                PatternRewriter &rewriter) const override {
    int64_t dim = -1;
    std::optional<SmallVector<Piece>> pieces;
    if (!op.hasUnitStride() ||
        op.getSourceType().getRank() != op.getDestType().getRank() ||
        !op.getSource().hasOneUse() ||
        !(pieces = getConcatPieces(op.getSource(), dim)))
      return failure();
    for (const Piece &piece : *pieces)
      if (!piece.value.getDefiningOp<linalg::GenericOp>())
        return failure();
    Location loc = op.getLoc();
    Value result = op.getDest();
    for (const Piece &piece : *pieces) {
      SmallVector<OpFoldResult> offsets = op.getMixedOffsets();
      SmallVector<OpFoldResult> sizes = op.getMixedSizes();
      sizes[dim] = rewriter.getIndexAttr(piece.size);
      if (piece.offset != 0) {
        AffineExpr d0;
        bindDims(rewriter.getContext(), d0);
        offsets[dim] = affine::makeComposedFoldedAffineApply(
            rewriter, loc, d0 + piece.offset, {offsets[dim]});
      }
      result =
          tensor::InsertSliceOp::create(rewriter, loc, piece.value, result,
                                        offsets, sizes, op.getMixedStrides());
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct MlxcElementwiseThroughConcatPass final
    : mlx::impl::MlxcElementwiseThroughConcatBase<
          MlxcElementwiseThroughConcatPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ElementwiseThroughConcat, InsertConcatPieces>(&getContext());
    // Only this rewrite: folding here would change what fusion sees.
    GreedyRewriteConfig config;
    config.enableFolding(false)
        .enableConstantCSE(false)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace
