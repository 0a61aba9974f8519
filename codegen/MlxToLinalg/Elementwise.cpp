//===- Elementwise.cpp - elementwise and creation ops to linalg -----------===//
//
// Every elementwise mlx op (and broadcast_to, full, constant, arange) becomes
// one linalg.generic whose inputs are read through broadcasting maps, so that
// linalg's elementwise fusion later merges chains of them into one loop nest.
//
//===----------------------------------------------------------------------===//

#include "codegen/MlxToLinalg/MlxToLinalg.h"
#include "codegen/MlxToLinalg/ScalarOps.h"

#include "Mlx/MlxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlir::mlx;

AffineMap lowering::getBroadcastMap(MLIRContext *ctx,
                                    ArrayRef<int64_t> operandShape,
                                    ArrayRef<int64_t> resultShape) {
  int64_t rank = resultShape.size();
  int64_t offset = rank - operandShape.size();
  SmallVector<AffineExpr> exprs;
  for (auto [i, dim] : llvm::enumerate(operandShape)) {
    if (dim == 1 && resultShape[offset + i] != 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else
      exprs.push_back(getAffineDimExpr(offset + i, ctx));
  }
  return AffineMap::get(rank, 0, exprs, ctx);
}

RankedTensorType lowering::getStorageType(Type tensorType) {
  auto type = cast<RankedTensorType>(tensorType);
  return type.clone(toStorageType(type.getElementType()));
}

Value lowering::buildElementwiseGeneric(
    OpBuilder &b, Location loc, RankedTensorType resultType, ValueRange inputs,
    ArrayRef<RankedTensorType> inputTypes,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  MLIRContext *ctx = b.getContext();
  RankedTensorType storage = getStorageType(resultType);
  Value init = tensor::EmptyOp::create(b, loc, storage.getShape(),
                                       storage.getElementType());
  SmallVector<AffineMap> maps;
  for (RankedTensorType type : inputTypes)
    maps.push_back(
        getBroadcastMap(ctx, type.getShape(), resultType.getShape()));
  maps.push_back(AffineMap::getMultiDimIdentityMap(resultType.getRank(), ctx));
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{storage}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = body(nested, nestedLoc, args.drop_back());
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return generic.getResult(0);
}

static SmallVector<RankedTensorType> tensorTypes(ValueRange values) {
  return llvm::map_to_vector(
      values, [](Value v) { return cast<RankedTensorType>(v.getType()); });
}

namespace {

/// Any elementwise mlx op: the scalar semantics come from ScalarOps.
struct ElementwiseOpLowering final : ConversionPattern {
  ElementwiseOpLowering(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isElementwiseOp(op))
      return failure();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    bool failedScalar = false;
    Value result = lowering::buildElementwiseGeneric(
        rewriter, op->getLoc(), resultType, operands,
        tensorTypes(op->getOperands()),
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          FailureOr<Value> r = emitElementwiseScalar(b, loc, op, args);
          if (succeeded(r))
            return *r;
          failedScalar = true;
          return args.front();
        });
    if (failedScalar)
      return rewriter.notifyMatchFailure(op, "no scalar lowering");
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// broadcast_to and full: a broadcasting copy (with a cast for full).
template <typename OpTy, typename ValueGetter>
struct BroadcastLikeLowering final : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    Value source = ValueGetter()(op);
    auto sourceType = cast<RankedTensorType>(source.getType());
    Value converted = adaptor.getOperands().front();
    Value result = lowering::buildElementwiseGeneric(
        rewriter, op.getLoc(), resultType, converted, {sourceType},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return castScalar(b, loc, args[0], sourceType.getElementType(),
                            resultType.getElementType());
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};
struct GetBroadcastSource {
  Value operator()(BroadcastToOp op) { return op.getX(); }
};
struct GetFullValue {
  Value operator()(FullOp op) { return op.getValue(); }
};

struct ConstantOpLowering final : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    Type storage = toStorageType(type.getElementType());
    // Weights imported from a file stay a blob over the file's bytes; only
    // their type changes to the signless storage type.
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(op.getValue())) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, DenseResourceElementsAttr::get(type.clone(storage),
                                             resource.getRawHandle()));
      return success();
    }
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense)
      return rewriter.notifyMatchFailure(op, "only dense constants lower");
    if (storage != dense.getElementType())
      dense = dense.bitcast(storage);
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, dense);
    return success();
  }
};

struct ArangeOpLowering final : OpConversionPattern<ArangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ArangeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = op.getType();
    if (!resultType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    Location loc = op.getLoc();
    double start = op.getStart().convertToDouble();
    double step = op.getStep().convertToDouble();
    Type f64 = rewriter.getF64Type();
    Value result = lowering::buildElementwiseGeneric(
        rewriter, loc, resultType, {}, {},
        [&](OpBuilder &b, Location l, ValueRange) {
          Value i = linalg::IndexOp::create(b, l, 0);
          Value i64 = arith::IndexCastOp::create(b, l, b.getI64Type(), i);
          Value f = arith::SIToFPOp::create(b, l, f64, i64);
          Value v = arith::AddFOp::create(
              b, l, scalarConstant(b, l, f64, start),
              arith::MulFOp::create(b, l, f, scalarConstant(b, l, f64, step)));
          return castScalar(b, l, v, f64, resultType.getElementType());
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlx::populateMlxElementwiseToLinalgPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ElementwiseOpLowering>(converter, ctx);
  patterns.add<BroadcastLikeLowering<BroadcastToOp, GetBroadcastSource>,
               BroadcastLikeLowering<FullOp, GetFullValue>, ConstantOpLowering,
               ArangeOpLowering>(converter, ctx);
}
