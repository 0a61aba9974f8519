//===- Reductions.cpp - reductions to linalg.reduce / linalg.generic ------===//
//
// sum/prod/max/min/all/any become linalg.reduce into an accumulator of the
// result dtype (float32 for half-precision results, rounded once at the end),
// argmax/argmin two reductions (the extreme, then the least index that holds
// it). logsumexp and softmax arrive decomposed (mlx-decompose).
//
//===----------------------------------------------------------------------===//

#include "codegen/MlxToLinalg/MlxToLinalg.h"
#include "codegen/MlxToLinalg/ScalarOps.h"

#include "Mlx/MlxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mlx;

using Combine = CombineKind;

/// The value that leaves any element unchanged under `kind` in `dtype`.
static Value identityValue(OpBuilder &b, Location loc, Combine kind,
                           Type dtype) {
  if (auto floatType = dyn_cast<FloatType>(dtype)) {
    double v = kind == Combine::Max    ? -INFINITY
               : kind == Combine::Min  ? INFINITY
               : kind == Combine::Prod ? 1.0
                                       : 0.0;
    return scalarConstant(b, loc, dtype, v);
  }
  unsigned bits = dtype.getIntOrFloatBitWidth();
  bool isSignedInt = getDtypeCategory(dtype) == DtypeCategory::Signed;
  APInt value(bits, 0);
  switch (kind) {
  case Combine::Sum:
  case Combine::Any:
    break;
  case Combine::Prod:
  case Combine::All:
    value = APInt(bits, 1);
    break;
  case Combine::Max:
    value = isSignedInt ? APInt::getSignedMinValue(bits) : APInt(bits, 0);
    break;
  case Combine::Min:
    value =
        isSignedInt ? APInt::getSignedMaxValue(bits) : APInt::getMaxValue(bits);
    break;
  }
  Type storage = toStorageType(dtype);
  return arith::ConstantOp::create(b, loc, storage,
                                   b.getIntegerAttr(storage, value));
}

/// The accumulator dtype of a reduction producing `dtype`.
static Type accumulatorDtype(Type dtype) {
  if (dtype.isF16() || dtype.isBF16())
    return Float32Type::get(dtype.getContext());
  return dtype;
}

namespace {
template <typename OpTy, Combine kind>
struct ReduceOpLowering final : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(op.getX().getType());
    auto outType = cast<RankedTensorType>(op.getType());
    if (!inType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    SmallVector<int64_t> axes;
    if (std::optional<ArrayRef<int64_t>> attr = op.getAxes())
      for (int64_t a : *attr)
        axes.push_back(a < 0 ? a + inType.getRank() : a);
    else
      axes = llvm::to_vector(llvm::seq<int64_t>(0, inType.getRank()));
    llvm::sort(axes);
    SmallVector<int64_t> reducedShape;
    for (int64_t i = 0; i < inType.getRank(); ++i)
      if (!llvm::is_contained(axes, i))
        reducedShape.push_back(inType.getDimSize(i));

    Type inDtype = inType.getElementType();
    Type outDtype = outType.getElementType();
    Type accDtype = accumulatorDtype(outDtype);
    Type accStorage = toStorageType(accDtype);
    Value init =
        tensor::EmptyOp::create(rewriter, loc, reducedShape, accStorage);
    Value identity = identityValue(rewriter, loc, kind, accDtype);
    Value filled =
        linalg::FillOp::create(rewriter, loc, identity, init).getResult(0);
    auto reduce = linalg::ReduceOp::create(
        rewriter, loc, adaptor.getX(), filled, axes,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = castScalar(b, l, args[0], inDtype, accDtype);
          linalg::YieldOp::create(
              b, l, combineScalars(b, l, kind, args[1], x, accDtype));
        });
    Value result = reduce.getResult(0);
    auto reducedType = RankedTensorType::get(reducedShape, accDtype);
    if (accDtype != outDtype)
      result = lowering::buildElementwiseGeneric(
          rewriter, loc, reducedType.clone(outDtype), result, {reducedType},
          [&](OpBuilder &b, Location l, ValueRange args) {
            return castScalar(b, l, args[0], accDtype, outDtype);
          });
    if (op.getKeepdims())
      result =
          lowering::reshapeTensor(rewriter, loc, result, outType.getShape());
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// argmax/argmin: the first index of the extreme; NaN counts as the extreme.
template <typename OpTy, bool isMax>
struct ArgReduceOpLowering final : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto inType = cast<RankedTensorType>(op.getX().getType());
    if (!inType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    int64_t rank = inType.getRank();
    int64_t axis = static_cast<int64_t>(op.getAxis());
    axis = axis < 0 ? axis + rank : axis;
    SmallVector<int64_t> reducedShape;
    SmallVector<AffineExpr> outExprs;
    SmallVector<utils::IteratorType> iterators;
    for (int64_t i = 0; i < rank; ++i) {
      iterators.push_back(i == axis ? utils::IteratorType::reduction
                                    : utils::IteratorType::parallel);
      if (i != axis) {
        reducedShape.push_back(inType.getDimSize(i));
        outExprs.push_back(getAffineDimExpr(i, ctx));
      }
    }
    Type dtype = inType.getElementType();
    Type storage = toStorageType(dtype);
    Type i32 = rewriter.getI32Type();
    Combine kind = isMax ? Combine::Max : Combine::Min;
    AffineMap inMap = AffineMap::getMultiDimIdentityMap(rank, ctx);
    AffineMap outMap = AffineMap::get(rank, 0, outExprs, ctx);
    bool isFloat = isa<FloatType>(dtype);
    // Two reductions, each an associative merge that kernels split across
    // threads (a scan that carries the index along is sequential): the
    // extreme e, NaN winning as in MLX's max/min, then the least index whose
    // element equals e (or is NaN when e is).
    Value extreme =
        linalg::FillOp::create(
            rewriter, loc, identityValue(rewriter, loc, kind, dtype),
            tensor::EmptyOp::create(rewriter, loc, reducedShape, storage)
                .getResult())
            .getResult(0);
    extreme =
        linalg::GenericOp::create(
            rewriter, loc, extreme.getType(), adaptor.getX(), extreme,
            ArrayRef<AffineMap>{inMap, outMap}, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              linalg::YieldOp::create(
                  b, l, combineScalars(b, l, kind, args[1], args[0], dtype));
            })
            .getResult(0);
    // Each element's candidate index (its own where it holds the extreme,
    // else `size`), then their minimum: an elementwise map and a plain min,
    // the shape of softmax's exp(x - max) and sum, which row kernels take
    // together with the extreme.
    int64_t size = inType.getDimSize(axis);
    Value candidates =
        linalg::GenericOp::create(
            rewriter, loc,
            TypeRange{RankedTensorType::get(inType.getShape(), i32)},
            ValueRange{adaptor.getX(), extreme},
            ValueRange{
                tensor::EmptyOp::create(rewriter, loc, inType.getShape(), i32)
                    .getResult()},
            ArrayRef<AffineMap>{inMap, outMap, inMap},
            SmallVector<utils::IteratorType>(rank,
                                             utils::IteratorType::parallel),
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value x = args[0], e = args[1];
              Value hit;
              if (isFloat) {
                hit = arith::OrIOp::create(
                    b, l,
                    arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, x,
                                          e),
                    arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, x,
                                          x));
              } else {
                hit =
                    arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, x, e);
              }
              Value pos = arith::IndexCastOp::create(
                  b, l, i32, linalg::IndexOp::create(b, l, axis));
              linalg::YieldOp::create(
                  b, l,
                  ValueRange{arith::SelectOp::create(
                      b, l, hit, pos, scalarConstant(b, l, i32, size))});
            })
            .getResult(0);
    Value index = linalg::FillOp::create(
                      rewriter, loc, scalarConstant(rewriter, loc, i32, size),
                      tensor::EmptyOp::create(rewriter, loc, reducedShape, i32)
                          .getResult())
                      .getResult(0);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{index.getType()}, ValueRange{candidates},
        ValueRange{index}, ArrayRef<AffineMap>{inMap, outMap}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(
              b, l, ValueRange{arith::MinSIOp::create(b, l, args[1], args[0])});
        });
    Value result = generic.getResult(0);
    if (op.getKeepdims())
      result = lowering::reshapeTensor(
          rewriter, loc, result,
          cast<RankedTensorType>(op.getType()).getShape());
    rewriter.replaceOp(op, result);
    return success();
  }
};
/// cumsum/cumprod/cummax/cummin: an scf.for along the axis carries the
/// running value (one slice) and the result; each step combines one slice.
template <typename OpTy, Combine kind>
struct ScanOpLowering final : OpConversionPattern<OpTy> {
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
    int64_t axis = static_cast<int64_t>(op.getAxis());
    axis = axis < 0 ? axis + rank : axis;
    int64_t n = inType.getDimSize(axis);
    Type inDtype = inType.getElementType(), outDtype = outType.getElementType();
    Type accDtype = accumulatorDtype(outDtype);
    // Slices keep the scanned axis (size 1): a rank-reducing slice of a
    // shape with other unit axes is ambiguous, and the canonicalizer then
    // dropped the wrong one ([1, 5, 1] along axis 2 became [1, 1, 5]).
    SmallVector<int64_t> sliceShape(inType.getShape());
    sliceShape[axis] = 1;
    auto accType = RankedTensorType::get(sliceShape, accDtype);
    auto accStorage =
        RankedTensorType::get(sliceShape, toStorageType(accDtype));
    auto inSlice = RankedTensorType::get(sliceShape, toStorageType(inDtype));
    auto outSlice = RankedTensorType::get(sliceShape, toStorageType(outDtype));

    Value acc0 =
        linalg::FillOp::create(
            rewriter, loc, identityValue(rewriter, loc, kind, accDtype),
            tensor::EmptyOp::create(rewriter, loc, sliceShape,
                                    accStorage.getElementType())
                .getResult())
            .getResult(0);
    Value result0 = tensor::EmptyOp::create(rewriter, loc, outType.getShape(),
                                            toStorageType(outDtype));
    Value lb = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value ub = arith::ConstantIndexOp::create(rewriter, loc, n);
    Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
    bool reverse = op.getReverse(), inclusive = op.getInclusive();
    Value x = adaptor.getX();
    auto loop = scf::ForOp::create(
        rewriter, loc, lb, ub, step, ValueRange{acc0, result0},
        [&](OpBuilder &b, Location l, Value i, ValueRange iter) {
          Value pos = i;
          if (reverse)
            pos = arith::SubIOp::create(
                b, l, arith::ConstantIndexOp::create(b, l, n - 1), i);
          SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
          offsets[axis] = pos;
          SmallVector<OpFoldResult> sizes =
              getAsIndexOpFoldResult(b.getContext(), inType.getShape());
          sizes[axis] = b.getIndexAttr(1);
          SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
          Value xi = tensor::ExtractSliceOp::create(b, l, inSlice, x, offsets,
                                                    sizes, strides);
          // The running value updates in place (outs = the carried slice),
          // so that the loop bufferizes without a copy per step.
          auto castOut = [&](Value v) {
            if (accDtype == outDtype)
              return v;
            return lowering::buildElementwiseGeneric(
                b, l, outSlice.clone(outDtype), v, {accType},
                [&](OpBuilder &bb, Location ll, ValueRange args) {
                  return castScalar(bb, ll, args[0], accDtype, outDtype);
                });
          };
          Value result = iter[1];
          if (!inclusive)
            result = tensor::InsertSliceOp::create(
                b, l, castOut(iter[0]), result, offsets, sizes, strides);
          AffineMap id = AffineMap::getMultiDimIdentityMap(sliceShape.size(),
                                                           b.getContext());
          SmallVector<utils::IteratorType> iterators(
              sliceShape.size(), utils::IteratorType::parallel);
          Value next =
              linalg::GenericOp::create(
                  b, l, TypeRange{accStorage}, ValueRange{xi},
                  ValueRange{iter[0]}, ArrayRef<AffineMap>{id, id}, iterators,
                  [&](OpBuilder &bb, Location ll, ValueRange args) {
                    Value v = castScalar(bb, ll, args[0], inDtype, accDtype);
                    linalg::YieldOp::create(
                        bb, ll,
                        combineScalars(bb, ll, kind, args[1], v, accDtype));
                  })
                  .getResult(0);
          if (inclusive)
            result = tensor::InsertSliceOp::create(b, l, castOut(next), result,
                                                   offsets, sizes, strides);
          Value updated = result;
          scf::YieldOp::create(b, l, ValueRange{next, updated});
        });
    rewriter.replaceOp(op, loop.getResult(1));
    return success();
  }
};
} // namespace

void mlx::populateMlxReductionToLinalgPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<ReduceOpLowering<SumOp, Combine::Sum>,
               ReduceOpLowering<ProdOp, Combine::Prod>,
               ReduceOpLowering<MaxOp, Combine::Max>,
               ReduceOpLowering<MinOp, Combine::Min>,
               ReduceOpLowering<AllOp, Combine::All>,
               ReduceOpLowering<AnyOp, Combine::Any>,
               ArgReduceOpLowering<ArgmaxOp, true>,
               ArgReduceOpLowering<ArgminOp, false>,
               ScanOpLowering<CumsumOp, Combine::Sum>,
               ScanOpLowering<CumprodOp, Combine::Prod>,
               ScanOpLowering<CummaxOp, Combine::Max>,
               ScanOpLowering<CumminOp, Combine::Min>>(converter,
                                                       patterns.getContext());
}
