//===- Sort.cpp - sort, argsort, partition, argpartition to linalg --------===//
//
// A stable sort by rank, in two data-parallel linalg.generic ops:
//   rank[i] = #{j : x[j] < x[i]  or  (x[j] ~ x[i] and j < i)}
//   out[k]  = the x[i] (or i, for argsort) whose rank is k
// where `<` is MLX's order (NaN after every number, NaNs in input order) and
// `~` means neither is less. Each row costs n^2 comparisons, but every
// element is independent work (one GPU thread each), with no data-dependent
// control flow. partition and argpartition return the full sort, which is
// one of the orders MLX's contract allows (element kth in its sorted place,
// none greater before it, none less after).
//
// searchsorted counts, in one reduction, the sequence's elements before each
// value in that order (left), or those the value is not before (right): in
// a sorted sequence that is the index MLX's binary search finds.
//
//===----------------------------------------------------------------------===//

#include "codegen/MlxToLinalg/MlxToLinalg.h"
#include "codegen/MlxToLinalg/ScalarOps.h"

#include "Mlx/MlxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mlx;

/// MLX's sort order: a before b.
static Value emitSortLess(OpBuilder &b, Location loc, Value x, Value y,
                          Type dtype) {
  if (isa<FloatType>(dtype)) {
    Value lt = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, y);
    Value xNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    Value yNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, y, y);
    Value numberBeforeNan = arith::AndIOp::create(
        b, loc, yNan,
        arith::XOrIOp::create(b, loc, xNan,
                              arith::ConstantIntOp::create(b, loc, 1, 1)));
    return arith::OrIOp::create(b, loc, lt, numberBeforeNan);
  }
  bool isSigned = getDtypeCategory(dtype) == DtypeCategory::Signed;
  return arith::CmpIOp::create(
      b, loc, isSigned ? arith::CmpIPredicate::slt : arith::CmpIPredicate::ult,
      x, y);
}

/// The loops of a count: the result's dims, then one reduction dim.
static SmallVector<utils::IteratorType> countIterators(int64_t rank) {
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  return iterators;
}

/// Zero counts of `bits`-bit integers, of `shape`.
static Value zeroCounts(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                        unsigned bits) {
  Value empty = tensor::EmptyOp::create(b, loc, shape, b.getIntegerType(bits));
  return linalg::FillOp::create(
             b, loc, ValueRange{arith::ConstantIntOp::create(b, loc, 0, bits)},
             ValueRange{empty})
      .getResult(0);
}

namespace {
template <typename OpTy, bool isArg>
struct SortOpLowering final : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(op.getX().getType());
    auto outType = cast<RankedTensorType>(op.getType());
    if (!inType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    int64_t rank = inType.getRank();
    if (rank == 0) { // A scalar is sorted; its index is 0.
      if (!isArg) {
        rewriter.replaceOp(op, adaptor.getX());
        return success();
      }
      Type storage = toStorageType(outType.getElementType());
      Value zero = arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(outType.clone(storage),
                                 rewriter.getZeroAttr(storage)));
      rewriter.replaceOp(op, zero);
      return success();
    }
    int64_t axis = static_cast<int64_t>(op.getAxis());
    axis = axis < 0 ? axis + rank : axis;
    Type dtype = inType.getElementType();
    MLIRContext *ctx = rewriter.getContext();
    Value x = adaptor.getX();

    // Loop dims: the input's dims, then one more (the compared element j or
    // the candidate i) standing in for `axis`.
    unsigned numDims = rank + 1;
    auto dim = [&](unsigned d) { return getAffineDimExpr(d, ctx); };
    SmallVector<AffineExpr> own, other;
    for (int64_t d = 0; d < rank; ++d) {
      own.push_back(dim(d));
      other.push_back(d == axis ? dim(rank) : dim(d));
    }
    AffineMap ownMap = AffineMap::get(numDims, 0, own, ctx);
    AffineMap otherMap = AffineMap::get(numDims, 0, other, ctx);
    SmallVector<utils::IteratorType> iterators = countIterators(rank);

    // rank[..., i, ...] over j.
    Value rankInit = zeroCounts(rewriter, loc, inType.getShape(), 64);
    Value ranks =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{rankInit.getType()}, ValueRange{x, x},
            ValueRange{rankInit}, ArrayRef<AffineMap>{ownMap, otherMap, ownMap},
            iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value xi = args[0], xj = args[1];
              Value i = linalg::IndexOp::create(b, l, axis);
              Value j = linalg::IndexOp::create(b, l, rank);
              Value jLess = emitSortLess(b, l, xj, xi, dtype);
              Value iLess = emitSortLess(b, l, xi, xj, dtype);
              Value tie = arith::XOrIOp::create(
                  b, l, arith::OrIOp::create(b, l, jLess, iLess),
                  arith::ConstantIntOp::create(b, l, 1, 1));
              Value earlier =
                  arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, j, i);
              Value before = arith::OrIOp::create(
                  b, l, jLess, arith::AndIOp::create(b, l, tie, earlier));
              Value one = arith::ExtUIOp::create(b, l, b.getI64Type(), before);
              linalg::YieldOp::create(
                  b, l, arith::AddIOp::create(b, l, args[2], one).getResult());
            })
            .getResult(0);

    // out[..., k, ...] = the element (or index) i whose rank is k.
    Type outStorage = toStorageType(outType.getElementType());
    Value outInit = linalg::FillOp::create(
                        rewriter, loc,
                        ValueRange{arith::ConstantOp::create(
                            rewriter, loc, rewriter.getZeroAttr(outStorage))},
                        ValueRange{tensor::EmptyOp::create(
                            rewriter, loc, outType.getShape(), outStorage)})
                        .getResult(0);
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{outInit.getType()}, ValueRange{x, ranks},
            ValueRange{outInit},
            ArrayRef<AffineMap>{otherMap, otherMap, ownMap}, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value k = arith::IndexCastOp::create(
                  b, l, b.getI64Type(), linalg::IndexOp::create(b, l, axis));
              Value hit = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                                args[1], k);
              Value candidate = args[0];
              if (isArg)
                candidate = arith::IndexCastOp::create(
                    b, l, outStorage, linalg::IndexOp::create(b, l, rank));
              linalg::YieldOp::create(
                  b, l,
                  arith::SelectOp::create(b, l, hit, candidate, args[2])
                      .getResult());
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SearchSortedOpLowering final : OpConversionPattern<SearchSortedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SearchSortedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto valuesType = cast<RankedTensorType>(op.getValues().getType());
    auto sortedType = cast<RankedTensorType>(op.getSorted().getType());
    if (!valuesType.hasStaticShape() || !sortedType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    MLIRContext *ctx = rewriter.getContext();
    Type dtype = valuesType.getElementType();
    bool right = op.getRight();
    // Loop dims: the values' dims, then the sequence's (a reduction).
    int64_t rank = valuesType.getRank();
    SmallVector<AffineExpr> valueDims;
    for (int64_t d = 0; d < rank; ++d)
      valueDims.push_back(getAffineDimExpr(d, ctx));
    AffineMap valuesMap = AffineMap::get(rank + 1, 0, valueDims, ctx);
    AffineMap sortedMap =
        AffineMap::get(rank + 1, 0, getAffineDimExpr(rank, ctx));
    SmallVector<utils::IteratorType> iterators = countIterators(rank);
    Value init = zeroCounts(rewriter, loc, valuesType.getShape(), 32);
    Value counts =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{init.getType()},
            ValueRange{adaptor.getSorted(), adaptor.getValues()},
            ValueRange{init},
            ArrayRef<AffineMap>{sortedMap, valuesMap, valuesMap}, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value element = args[0], value = args[1];
              Value before =
                  right ? arith::XOrIOp::create(
                              b, l, emitSortLess(b, l, value, element, dtype),
                              arith::ConstantIntOp::create(b, l, 1, 1))
                              .getResult()
                        : emitSortLess(b, l, element, value, dtype);
              Value one = arith::ExtUIOp::create(b, l, b.getI32Type(), before);
              linalg::YieldOp::create(
                  b, l, arith::AddIOp::create(b, l, args[2], one).getResult());
            })
            .getResult(0);
    rewriter.replaceOp(op, counts);
    return success();
  }
};
} // namespace

void mlx::populateMlxSortToLinalgPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<SortOpLowering<SortOp, false>, SortOpLowering<ArgsortOp, true>,
               SortOpLowering<PartitionOp, false>,
               SortOpLowering<ArgpartitionOp, true>, SearchSortedOpLowering>(
      converter, patterns.getContext());
}
