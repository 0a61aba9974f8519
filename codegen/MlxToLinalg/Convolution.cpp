//===- Convolution.cpp - conv_general to linalg.generic -------------------===//
//
// The input is dilated and padded into a zero tensor first, so that the
// convolution itself is one linalg.generic with plain affine indexing:
// loops [N, out..., G, O/G, kernel..., C/G], the last ones reductions.
// Splitting the output channels into (group, channel in group) keeps every
// map free of divisions; `flip` reverses the kernel in the input's map.
// Half types accumulate in float32 and round once, as matmul does.
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

namespace {
struct ConvGeneralOpLowering final : OpConversionPattern<ConvGeneralOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConvGeneralOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    auto wType = cast<RankedTensorType>(op.getWeight().getType());
    auto type = cast<RankedTensorType>(op.getType());
    if (!inType.hasStaticShape() || !wType.hasStaticShape() ||
        !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    int64_t spatial = inType.getRank() - 2;
    int64_t groups = op.getGroups();
    int64_t batch = inType.getDimSize(0);
    int64_t cPerGroup = wType.getDimSize(spatial + 1);
    int64_t oPerGroup = wType.getDimSize(0) / groups;
    ArrayRef<int64_t> strides = op.getStrides(), lo = op.getPaddingLo(),
                      hi = op.getPaddingHi(), kdil = op.getKernelDilation(),
                      idil = op.getInputDilation();
    Type inDtype = inType.getElementType(), wDtype = wType.getElementType();
    Type dtype = type.getElementType();
    Type accDtype =
        (dtype.isF16() || dtype.isBF16()) ? rewriter.getF32Type() : dtype;

    // Input dilation puts (d - 1) zeros between elements; padding adds zeros
    // at both ends. Both become a strided insert into a zero tensor.
    Value input = adaptor.getInput();
    bool dilated = llvm::any_of(idil, [](int64_t d) { return d != 1; });
    bool padded = llvm::any_of(lo, [](int64_t p) { return p != 0; }) ||
                  llvm::any_of(hi, [](int64_t p) { return p != 0; });
    SmallVector<int64_t> paddedShape = {batch};
    for (int64_t i = 0; i < spatial; ++i)
      paddedShape.push_back((inType.getDimSize(i + 1) - 1) * idil[i] + 1 +
                            lo[i] + hi[i]);
    paddedShape.push_back(inType.getDimSize(spatial + 1));
    if (dilated || padded) {
      Type storage = toStorageType(inDtype);
      Value zero = scalarConstant(rewriter, loc, inDtype, 0);
      Value empty =
          tensor::EmptyOp::create(rewriter, loc, paddedShape, storage);
      Value zeros =
          linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
      SmallVector<int64_t> offsets(inType.getRank(), 0),
          steps(inType.getRank(), 1);
      for (int64_t i = 0; i < spatial; ++i) {
        offsets[i + 1] = lo[i];
        steps[i + 1] = idil[i];
      }
      input = tensor::InsertSliceOp::create(
          rewriter, loc, input, zeros, ValueRange{}, ValueRange{}, ValueRange{},
          offsets, inType.getShape(), steps);
    }

    // [N, P..., C] -> [N, P..., G, C/G]; [O, K..., C/G] -> [G, O/G, K...,
    // C/G]; the result [N, out..., G, O/G] collapses back to [N, out..., O].
    SmallVector<int64_t> inShape(paddedShape.begin(), paddedShape.end() - 1);
    inShape.append({groups, cPerGroup});
    input = lowering::reshapeTensor(rewriter, loc, input, inShape);
    SmallVector<int64_t> wShape = {groups, oPerGroup};
    for (int64_t i = 0; i < spatial; ++i)
      wShape.push_back(wType.getDimSize(i + 1));
    wShape.push_back(cPerGroup);
    Value weight =
        lowering::reshapeTensor(rewriter, loc, adaptor.getWeight(), wShape);
    SmallVector<int64_t> outShape(type.getShape().drop_back());
    outShape.append({groups, oPerGroup});

    // Loop dims: n, o_0.., g, oo, k_0.., c.
    int64_t numLoops = 2 * spatial + 4;
    int64_t gDim = spatial + 1, ooDim = spatial + 2, kDim = spatial + 3,
            cDim = 2 * spatial + 3;
    auto dim = [&](int64_t d) { return getAffineDimExpr(d, ctx); };
    SmallVector<AffineExpr> inExprs = {dim(0)},
                            wExprs = {dim(gDim), dim(ooDim)},
                            outExprs = {dim(0)};
    for (int64_t i = 0; i < spatial; ++i) {
      int64_t kernel = wType.getDimSize(i + 1);
      AffineExpr k = dim(kDim + i);
      // Convolution proper (flip) walks the kernel backwards.
      if (op.getFlip())
        k = getAffineConstantExpr(kernel - 1, ctx) - k;
      inExprs.push_back(dim(1 + i) * strides[i] + k * kdil[i]);
      wExprs.push_back(dim(kDim + i));
      outExprs.push_back(dim(1 + i));
    }
    inExprs.append({dim(gDim), dim(cDim)});
    wExprs.push_back(dim(cDim));
    outExprs.append({dim(gDim), dim(ooDim)});
    SmallVector<AffineMap> maps = {AffineMap::get(numLoops, 0, inExprs, ctx),
                                   AffineMap::get(numLoops, 0, wExprs, ctx),
                                   AffineMap::get(numLoops, 0, outExprs, ctx)};
    SmallVector<utils::IteratorType> iterators(numLoops,
                                               utils::IteratorType::reduction);
    for (int64_t d = 0; d < kDim; ++d)
      iterators[d] = utils::IteratorType::parallel;

    Type accStorage = toStorageType(accDtype);
    Value init = tensor::EmptyOp::create(rewriter, loc, outShape, accStorage);
    Value acc =
        linalg::FillOp::create(rewriter, loc,
                               scalarConstant(rewriter, loc, accDtype, 0), init)
            .getResult(0);
    auto conv = linalg::GenericOp::create(
        rewriter, loc, TypeRange{acc.getType()}, ValueRange{input, weight}, acc,
        maps, iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = castScalar(b, l, args[0], inDtype, accDtype);
          Value w = castScalar(b, l, args[1], wDtype, accDtype);
          Value sum =
              isa<FloatType>(accDtype)
                  ? Value(arith::AddFOp::create(
                        b, l, args[2], arith::MulFOp::create(b, l, x, w)))
                  : Value(arith::AddIOp::create(
                        b, l, args[2], arith::MulIOp::create(b, l, x, w)));
          linalg::YieldOp::create(b, l, sum);
        });
    Value result = lowering::reshapeTensor(rewriter, loc, conv.getResult(0),
                                           type.getShape());
    if (accDtype != dtype) {
      auto accType = type.clone(accDtype);
      result = lowering::buildElementwiseGeneric(
          rewriter, loc, type, result, {accType},
          [&](OpBuilder &b, Location l, ValueRange args) {
            return castScalar(b, l, args[0], accDtype, dtype);
          });
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void mlx::populateMlxConvolutionToLinalgPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<ConvGeneralOpLowering>(converter, patterns.getContext());
}
