//===- Rope.cpp - mlx.rope to one linalg.generic --------------------------===//
//
// MLX's RoPE as a single elementwise op: each output element reads its own
// feature and its rotation partner (the other half, or the other of its
// pair when `traditional`) through an affine map, and computes its angle in
// place from the position and the feature index. Decomposed into slices, a
// cos/sin table and a concatenation, it was seven kernels per rotated
// tensor; here it fuses with its neighbours like any elementwise op.
//
// The arithmetic is MLX's CPU fallback step for step, in float32: position
// (offset + l) * scale, inverse frequency base^(-2k/dims) as
// exp(k * (-2 ln(base) / dims)) (or 1 / freqs[k]), theta = position * inv,
// then x1 cos - x2 sin and x1 sin + x2 cos, rounded to the input's dtype.
// Features past `dims` pass through unchanged.
//
//===----------------------------------------------------------------------===//

#include "codegen/MlxToLinalg/MlxToLinalg.h"
#include "codegen/MlxToLinalg/ScalarOps.h"

#include "Mlx/MlxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mlx;

namespace {

struct RopeOpLowering final : OpConversionPattern<RopeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RopeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto xType = cast<RankedTensorType>(op.getX().getType());
    auto offsetType = cast<RankedTensorType>(op.getOffset().getType());
    if (!xType.hasStaticShape() || xType.getRank() < 2)
      return rewriter.notifyMatchFailure(op, "needs a static shape, rank >= 2");
    ArrayRef<int64_t> shape = xType.getShape();
    int64_t rank = shape.size();
    int64_t dims = op.getDims(), half = dims / 2;
    if (dims < 2 || dims % 2 || dims > shape.back())
      return rewriter.notifyMatchFailure(op, "dims must be even, <= features");
    // A scalar offset, or one per batch entry (the first axis).
    bool perBatch = offsetType.getRank() != 0;
    if (perBatch && (offsetType.getRank() != 1 || rank < 3 ||
                     offsetType.getDimSize(0) != shape[0]))
      return rewriter.notifyMatchFailure(op, "offsets of an unsupported shape");
    if (!op.getFreqs() && !op.getBase())
      return rewriter.notifyMatchFailure(op, "needs a base or freqs");

    // Loop dims: (..., l, i); i is the feature.
    AffineExpr i = getAffineDimExpr(rank - 1, ctx);
    bool traditional = op.getTraditional();
    // The partner feature and the frequency index, kept in bounds for the
    // features past `dims` too (their values are not used).
    AffineExpr partner = traditional ? (i + 1 - 2 * (i % 2)) % dims
                                     : (i + half) % dims;
    AffineExpr freqIndex = traditional ? i.floorDiv(2) % half : i % half;
    auto identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
    SmallVector<AffineExpr> partnerExprs(identity.getResults());
    partnerExprs.back() = partner;
    SmallVector<Value> inputs = {adaptor.getX(), adaptor.getX(),
                                 adaptor.getOffset()};
    SmallVector<AffineMap> maps = {
        identity, AffineMap::get(rank, 0, partnerExprs, ctx),
        perBatch ? AffineMap::get(rank, 0, getAffineDimExpr(0, ctx))
                 : AffineMap::get(rank, 0, {}, ctx)};
    if (op.getFreqs()) {
      inputs.push_back(adaptor.getFreqs());
      maps.push_back(AffineMap::get(rank, 0, freqIndex));
    }
    maps.push_back(identity);

    Type dtype = xType.getElementType();
    Type freqType = op.getFreqs()
                        ? cast<RankedTensorType>(op.getFreqs().getType())
                              .getElementType()
                        : Type();
    RankedTensorType storage = lowering::getStorageType(xType);
    Value init = tensor::EmptyOp::create(rewriter, loc, storage.getShape(),
                                         storage.getElementType());
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    double scale = op.getScale().convertToDouble();
    double exponent = op.getBase() ? -2.0 * std::log(op.getBase()->convertToDouble()) / dims
                                   : 0.0;
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{storage}, inputs, ValueRange{init}, maps,
        iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Type f32 = b.getF32Type();
          auto indexToF32 = [&](Value index) {
            return arith::SIToFPOp::create(
                b, l, f32,
                arith::IndexCastOp::create(b, l, b.getI64Type(), index));
          };
          Value feature = linalg::IndexOp::create(b, l, rank - 1);
          Value pos = linalg::IndexOp::create(b, l, rank - 2);
          // position = (l + offset) * scale
          Value offset =
              castScalar(b, l, args[2], offsetType.getElementType(), f32);
          Value position = arith::MulFOp::create(
              b, l, arith::AddFOp::create(b, l, indexToF32(pos), offset),
              scalarConstant(b, l, f32, scale));
          // The frequency index k of this feature.
          Value k = traditional
                        ? arith::DivUIOp::create(
                              b, l, feature,
                              arith::ConstantIndexOp::create(b, l, 2))
                              .getResult()
                        : arith::RemUIOp::create(
                              b, l, feature,
                              arith::ConstantIndexOp::create(b, l, half))
                              .getResult();
          Value inverse =
              op.getFreqs()
                  ? arith::DivFOp::create(
                        b, l, scalarConstant(b, l, f32, 1.0),
                        castScalar(b, l, args[3], freqType, f32))
                        .getResult()
                  : math::ExpOp::create(
                        b, l,
                        arith::MulFOp::create(
                            b, l, indexToF32(k),
                            scalarConstant(b, l, f32, exponent)))
                        .getResult();
          Value theta = arith::MulFOp::create(b, l, position, inverse);
          Value cos = math::CosOp::create(b, l, theta);
          Value sin = math::SinOp::create(b, l, theta);
          Value self = castScalar(b, l, args[0], dtype, f32);
          Value other = castScalar(b, l, args[1], dtype, f32);
          // The first of a pair (or the first half) is x1: x1 cos - x2 sin;
          // the second is x2: x1 sin + x2 cos, with x1 its partner.
          Value first =
              traditional
                  ? arith::CmpIOp::create(
                        b, l, arith::CmpIPredicate::eq,
                        arith::RemUIOp::create(
                            b, l, feature,
                            arith::ConstantIndexOp::create(b, l, 2)),
                        arith::ConstantIndexOp::create(b, l, 0))
                        .getResult()
                  : arith::CmpIOp::create(
                        b, l, arith::CmpIPredicate::ult, feature,
                        arith::ConstantIndexOp::create(b, l, half))
                        .getResult();
          Value r1 = arith::SubFOp::create(
              b, l, arith::MulFOp::create(b, l, self, cos),
              arith::MulFOp::create(b, l, other, sin));
          Value r2 = arith::AddFOp::create(
              b, l, arith::MulFOp::create(b, l, other, sin),
              arith::MulFOp::create(b, l, self, cos));
          Value rotated = castScalar(
              b, l, arith::SelectOp::create(b, l, first, r1, r2), f32, dtype);
          if (dims == shape.back()) {
            linalg::YieldOp::create(b, l, rotated);
            return;
          }
          Value inRotary = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::ult, feature,
              arith::ConstantIndexOp::create(b, l, dims));
          linalg::YieldOp::create(
              b, l,
              arith::SelectOp::create(b, l, inRotary, rotated, args[0])
                  .getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void mlx::populateMlxRopeToLinalgPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<RopeOpLowering>(converter, patterns.getContext());
}
