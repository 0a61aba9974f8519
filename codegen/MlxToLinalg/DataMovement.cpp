//===- DataMovement.cpp - layout and indexing ops to tensor/linalg --------===//

#include "codegen/MlxToLinalg/MlxToLinalg.h"
#include "codegen/MlxToLinalg/ScalarOps.h"

#include "Mlx/MlxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mlx;

Value lowering::reshapeTensor(OpBuilder &b, Location loc, Value input,
                              ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(input.getType());
  if (type.getShape() == shape)
    return input;
  auto target = type.clone(shape);
  if (type.getRank() == 0)
    return tensor::ExpandShapeOp::create(b, loc, target, input,
                                         ArrayRef<ReassociationIndices>{});
  if (shape.empty())
    return tensor::CollapseShapeOp::create(b, loc, input,
                                           ArrayRef<ReassociationIndices>{});
  Value flat = input;
  if (type.getRank() > 1) {
    ReassociationIndices all =
        llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
    flat = tensor::CollapseShapeOp::create(b, loc, input,
                                           ArrayRef<ReassociationIndices>{all});
  }
  if (shape.size() == 1)
    return flat;
  ReassociationIndices all =
      llvm::to_vector(llvm::seq<int64_t>(0, shape.size()));
  return tensor::ExpandShapeOp::create(b, loc, target, flat,
                                       ArrayRef<ReassociationIndices>{all});
}

namespace {

/// reshape, expand_dims, squeeze, flatten, unflatten: row-major reshapes.
template <typename OpTy>
struct ReshapeLikeLowering final : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    if (!type.hasStaticShape() ||
        !cast<RankedTensorType>(op.getX().getType()).hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    rewriter.replaceOp(op, lowering::reshapeTensor(rewriter, op.getLoc(),
                                                   adaptor.getX(),
                                                   type.getShape()));
    return success();
  }
};

struct TransposeOpLowering final : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = lowering::getStorageType(op.getType());
    int64_t rank = type.getRank();
    SmallVector<int64_t> perm = llvm::map_to_vector(
        op.getAxes(), [&](int64_t a) { return a < 0 ? a + rank : a; });
    Value init = tensor::EmptyOp::create(rewriter, op.getLoc(), type.getShape(),
                                         type.getElementType());
    rewriter.replaceOp(op,
                       linalg::TransposeOp::create(rewriter, op.getLoc(),
                                                   adaptor.getX(), init, perm)
                           .getResult());
    return success();
  }
};

/// Static slices with positive strides are tensor.extract_slice; negative
/// strides read through a linalg.generic.
struct SliceOpLowering final : OpConversionPattern<SliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = lowering::getStorageType(op.getType());
    if (llvm::any_of(op.getStrides(), [](int64_t s) { return s < 0; })) {
      // Walk backwards: out[i] = x[start + i * stride] on every axis.
      Value src = adaptor.getX();
      ArrayRef<int64_t> start = op.getStart(), strides = op.getStrides();
      Value init = tensor::EmptyOp::create(
          rewriter, op.getLoc(), type.getShape(), type.getElementType());
      SmallVector<utils::IteratorType> iterators(type.getRank(),
                                                 utils::IteratorType::parallel);
      auto generic = linalg::GenericOp::create(
          rewriter, op.getLoc(), TypeRange{type}, ValueRange{}, init,
          AffineMap::getMultiDimIdentityMap(type.getRank(),
                                            rewriter.getContext()),
          iterators, [&](OpBuilder &b, Location l, ValueRange) {
            SmallVector<Value> coords;
            for (int64_t d = 0; d < type.getRank(); ++d)
              coords.push_back(arith::AddIOp::create(
                  b, l, arith::ConstantIndexOp::create(b, l, start[d]),
                  arith::MulIOp::create(
                      b, l, linalg::IndexOp::create(b, l, d),
                      arith::ConstantIndexOp::create(b, l, strides[d]))));
            linalg::YieldOp::create(
                b, l, tensor::ExtractOp::create(b, l, src, coords).getResult());
          });
      rewriter.replaceOp(op, generic.getResult(0));
      return success();
    }
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, type, adaptor.getX(), ValueRange{}, ValueRange{}, ValueRange{},
        op.getStart(), type.getShape(), op.getStrides());
    return success();
  }
};

/// Broadcasts `update` (of `updateType`) to `shape` when it differs.
static Value broadcastTo(OpBuilder &b, Location loc, Value update,
                         RankedTensorType updateType, ArrayRef<int64_t> shape) {
  if (updateType.getShape() == shape)
    return update;
  return lowering::buildElementwiseGeneric(
      b, loc, updateType.clone(shape), update, {updateType},
      [](OpBuilder &, Location, ValueRange args) { return args[0]; });
}

struct SliceUpdateOpLowering final : OpConversionPattern<SliceUpdateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SliceUpdateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    SmallVector<int64_t> sliceShape;
    for (auto [start, stop, stride] :
         llvm::zip(op.getStart(), op.getStop(), op.getStrides())) {
      int64_t span = stride > 0 ? stop - start : start - stop;
      int64_t step = std::abs(stride);
      sliceShape.push_back(std::max<int64_t>(0, (span + step - 1) / step));
    }
    if (llvm::is_contained(sliceShape, 0)) { // An empty window: the source.
      rewriter.replaceOp(op, adaptor.getSrc());
      return success();
    }
    auto updateType = cast<RankedTensorType>(op.getUpdate().getType());
    Value update = broadcastTo(rewriter, op.getLoc(), adaptor.getUpdate(),
                               updateType, sliceShape);
    if (llvm::any_of(op.getStrides(), [](int64_t s) { return s < 0; })) {
      // Every source element asks whether it lies on the slice, and which
      // update element lands there.
      ArrayRef<int64_t> start = op.getStart(), strides = op.getStrides();
      auto type = lowering::getStorageType(srcType);
      Value init = tensor::EmptyOp::create(
          rewriter, op.getLoc(), type.getShape(), type.getElementType());
      SmallVector<utils::IteratorType> iterators(type.getRank(),
                                                 utils::IteratorType::parallel);
      AffineMap id = AffineMap::getMultiDimIdentityMap(type.getRank(),
                                                       rewriter.getContext());
      auto generic = linalg::GenericOp::create(
          rewriter, op.getLoc(), TypeRange{type}, adaptor.getSrc(), init,
          ArrayRef<AffineMap>{id, id}, iterators,
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value inside = arith::ConstantIntOp::create(b, l, 1, 1);
            SmallVector<Value> coords;
            for (int64_t d = 0; d < type.getRank(); ++d) {
              // k = (p - start) / stride must be a whole number in range.
              Value delta = arith::SubIOp::create(
                  b, l, linalg::IndexOp::create(b, l, d),
                  arith::ConstantIndexOp::create(b, l, start[d]));
              Value stride = arith::ConstantIndexOp::create(b, l, strides[d]);
              Value k = arith::DivSIOp::create(b, l, delta, stride);
              Value exact = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::eq,
                  arith::RemSIOp::create(b, l, delta, stride),
                  arith::ConstantIndexOp::create(b, l, 0));
              Value lo = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::sge, k,
                  arith::ConstantIndexOp::create(b, l, 0));
              Value hi = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::slt, k,
                  arith::ConstantIndexOp::create(b, l, sliceShape[d]));
              inside = arith::AndIOp::create(
                  b, l, inside,
                  arith::AndIOp::create(b, l, exact,
                                        arith::AndIOp::create(b, l, lo, hi)));
              // Clamp so that the read stays in bounds when not inside.
              Value safe = arith::MaxSIOp::create(
                  b, l, arith::ConstantIndexOp::create(b, l, 0),
                  arith::MinSIOp::create(
                      b, l, k,
                      arith::ConstantIndexOp::create(
                          b, l, std::max<int64_t>(0, sliceShape[d] - 1))));
              coords.push_back(safe);
            }
            Value fromUpdate = args[0];
            if (llvm::none_of(sliceShape, [](int64_t s) { return s == 0; }))
              fromUpdate = tensor::ExtractOp::create(b, l, update, coords);
            linalg::YieldOp::create(b, l,
                                    Value(arith::SelectOp::create(
                                        b, l, inside, fromUpdate, args[0])));
          });
      rewriter.replaceOp(op, generic.getResult(0));
      return success();
    }
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        op, update, adaptor.getSrc(), ValueRange{}, ValueRange{}, ValueRange{},
        op.getStart(), sliceShape, op.getStrides());
    return success();
  }
};

/// The clamped run-time offset of each axis of a dynamic slice op, read
/// inside the loop body (so that on a GPU the kernel reads it, not the host):
/// MLX's kernels clamp so that the slice stays inside the source.
static SmallVector<Value> readOffsets(OpBuilder &b, Location loc, Value start,
                                      RankedTensorType startType,
                                      ArrayRef<int64_t> axes,
                                      RankedTensorType srcType,
                                      ArrayRef<int64_t> sliceShape) {
  SmallVector<Value> offsets(srcType.getRank(),
                             arith::ConstantIndexOp::create(b, loc, 0));
  bool isSignedIdx =
      getDtypeCategory(startType.getElementType()) == DtypeCategory::Signed;
  for (auto [i, axis] : llvm::enumerate(axes)) {
    int64_t a = axis < 0 ? axis + srcType.getRank() : axis;
    SmallVector<Value> index;
    if (startType.getRank() == 1)
      index.push_back(arith::ConstantIndexOp::create(b, loc, i));
    Value raw = tensor::ExtractOp::create(b, loc, start, index);
    Value idx =
        isSignedIdx
            ? Value(arith::IndexCastOp::create(b, loc, b.getIndexType(), raw))
            : Value(
                  arith::IndexCastUIOp::create(b, loc, b.getIndexType(), raw));
    idx = arith::MaxSIOp::create(b, loc, idx,
                                 arith::ConstantIndexOp::create(b, loc, 0));
    idx = arith::MinSIOp::create(
        b, loc, idx,
        arith::ConstantIndexOp::create(b, loc,
                                       srcType.getDimSize(a) - sliceShape[a]));
    offsets[a] = idx;
  }
  return offsets;
}

/// out[i] = x[offset + i].
struct DynamicSliceOpLowering final : OpConversionPattern<DynamicSliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynamicSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getX().getType());
    auto startType = cast<RankedTensorType>(op.getStart().getType());
    auto type = lowering::getStorageType(op.getType());
    Value src = adaptor.getX(), start = adaptor.getStart();
    Value init = tensor::EmptyOp::create(rewriter, op.getLoc(), type.getShape(),
                                         type.getElementType());
    int64_t rank = type.getRank();
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, op.getLoc(), TypeRange{type}, ValueRange{}, init,
        AffineMap::getMultiDimIdentityMap(rank, rewriter.getContext()),
        iterators, [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> offsets = readOffsets(
              b, l, start, startType, op.getAxes(), srcType, type.getShape());
          SmallVector<Value> coords;
          for (int64_t d = 0; d < rank; ++d)
            coords.push_back(arith::AddIOp::create(
                b, l, offsets[d], linalg::IndexOp::create(b, l, d)));
          linalg::YieldOp::create(
              b, l, tensor::ExtractOp::create(b, l, src, coords).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// The update is inserted at the clamped run-time offsets: only the window
/// is written, and where the source buffer can be reused (an intermediate,
/// or an input the caller donates) nothing else moves. The offsets are host
/// values; on CUDA the kernel that copies the window reads them itself
/// (mlxc-offload-host-loops).
struct DynamicSliceUpdateOpLowering final
    : OpConversionPattern<DynamicSliceUpdateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynamicSliceUpdateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto updateType = cast<RankedTensorType>(op.getUpdate().getType());
    auto startType = cast<RankedTensorType>(op.getStart().getType());
    if (!srcType.hasStaticShape() || !updateType.hasStaticShape() ||
        updateType.getRank() != srcType.getRank())
      return rewriter.notifyMatchFailure(op, "needs static shapes of one rank");
    if (updateType.getNumElements() == 0) {
      rewriter.replaceOp(op, adaptor.getSrc());
      return success();
    }
    SmallVector<Value> offsets =
        readOffsets(rewriter, op.getLoc(), adaptor.getStart(), startType,
                    op.getAxes(), srcType, updateType.getShape());
    SmallVector<OpFoldResult> offsetValues, sizes, strides;
    for (auto [offset, size] : llvm::zip(offsets, updateType.getShape())) {
      offsetValues.push_back(getAsOpFoldResult(offset));
      sizes.push_back(rewriter.getIndexAttr(size));
      strides.push_back(rewriter.getIndexAttr(1));
    }
    // A graph input is read-only: the result starts as an explicit copy of
    // it, so that the update's producers can write straight into the
    // result's window (eliminate-empty-tensors) rather than into a buffer
    // copied there, and so that the copy can be skipped when the caller
    // donates the input (mlxc-plan-in-place-outputs).
    Value dest = adaptor.getSrc();
    if (isa<BlockArgument>(dest)) {
      auto type = cast<RankedTensorType>(dest.getType());
      Value init = tensor::EmptyOp::create(
          rewriter, op.getLoc(), type.getShape(), type.getElementType());
      dest = linalg::CopyOp::create(rewriter, op.getLoc(), dest, init)
                 .getResult(0);
    }
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        op, adaptor.getUpdate(), dest, offsetValues, sizes, strides);
    return success();
  }
};

/// Each piece of a split is a static slice along the axis.
struct SplitOpLowering final : OpConversionPattern<SplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getX().getType());
    if (!srcType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    int64_t rank = srcType.getRank();
    int64_t axis = static_cast<int64_t>(op.getAxis());
    axis = axis < 0 ? axis + rank : axis;
    SmallVector<Value> pieces;
    int64_t offset = 0;
    for (Value result : op.getResults()) {
      auto type = lowering::getStorageType(result.getType());
      SmallVector<int64_t> offsets(rank, 0), strides(rank, 1);
      offsets[axis] = offset;
      offset += type.getDimSize(axis);
      if (type.getNumElements() == 0) {
        pieces.push_back(tensor::EmptyOp::create(
            rewriter, op.getLoc(), type.getShape(), type.getElementType()));
        continue;
      }
      pieces.push_back(tensor::ExtractSliceOp::create(
          rewriter, op.getLoc(), type, adaptor.getX(), ValueRange{},
          ValueRange{}, ValueRange{}, offsets, type.getShape(), strides));
    }
    rewriter.replaceOp(op, pieces);
    return success();
  }
};

/// Inputs of another dtype are converted first, then inserted side by side.
struct ConcatenateOpLowering final : OpConversionPattern<ConcatenateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConcatenateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    int64_t rank = type.getRank();
    int64_t axis = static_cast<int64_t>(op.getAxis());
    axis = axis < 0 ? axis + rank : axis;
    Value result = tensor::EmptyOp::create(
        rewriter, loc, type.getShape(), toStorageType(type.getElementType()));
    int64_t offset = 0;
    for (auto [original, converted] :
         llvm::zip(op.getInputs(), adaptor.getInputs())) {
      auto inType = cast<RankedTensorType>(original.getType());
      Value input = converted;
      if (inType.getElementType() != type.getElementType())
        input = lowering::buildElementwiseGeneric(
            rewriter, loc, inType.clone(type.getElementType()), input, {inType},
            [&](OpBuilder &b, Location l, ValueRange args) {
              return castScalar(b, l, args[0], inType.getElementType(),
                                type.getElementType());
            });
      SmallVector<int64_t> offsets(rank, 0), strides(rank, 1);
      offsets[axis] = offset;
      offset += inType.getDimSize(axis);
      if (inType.getNumElements() == 0) // Nothing to insert (and MLIR
        continue;                       // refuses its offset at the end).
      result = tensor::InsertSliceOp::create(
          rewriter, loc, input, result, ValueRange{}, ValueRange{},
          ValueRange{}, offsets, inType.getShape(), strides);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct PadOpLowering final : OpConversionPattern<PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getX().getType());
    int64_t rank = srcType.getRank();
    SmallVector<int64_t> low(rank, 0), high(rank, 0);
    for (auto [axis, lo, hi] :
         llvm::zip(op.getAxes(), op.getLow(), op.getHigh())) {
      int64_t a = axis < 0 ? axis + rank : axis;
      low[a] = lo;
      high[a] = hi;
    }
    Value padValue = tensor::ExtractOp::create(
        rewriter, loc, adaptor.getPadValue(), ValueRange{});
    auto outType = lowering::getStorageType(op.getType());
    if (srcType.getNumElements() == 0) { // Only padding.
      Value init = tensor::EmptyOp::create(rewriter, loc, outType.getShape(),
                                           outType.getElementType());
      rewriter.replaceOp(
          op,
          linalg::FillOp::create(rewriter, loc, padValue, init).getResult(0));
      return success();
    }
    auto pad = tensor::PadOp::create(
        rewriter, loc, lowering::getStorageType(op.getType()), adaptor.getX(),
        getAsIndexOpFoldResult(rewriter.getContext(), low),
        getAsIndexOpFoldResult(rewriter.getContext(), high), padValue);
    rewriter.replaceOp(op, pad.getResult());
    return success();
  }
};

} // namespace

/// Converts an index element to `index`, wrapping negative indices once
/// (MLX's gather kernels do) and clamping into [0, size - extent].
Value lowering::normalizeIndex(OpBuilder &b, Location loc, Value raw,
                               Type indexDtype, int64_t size, int64_t extent) {
  bool isSignedIdx = getDtypeCategory(indexDtype) == DtypeCategory::Signed;
  Value idx =
      isSignedIdx
          ? Value(arith::IndexCastOp::create(b, loc, b.getIndexType(), raw))
          : Value(arith::IndexCastUIOp::create(b, loc, b.getIndexType(), raw));
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  if (isSignedIdx) {
    Value neg =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, idx, zero);
    Value wrapped = arith::AddIOp::create(
        b, loc, idx, arith::ConstantIndexOp::create(b, loc, size));
    idx = arith::SelectOp::create(b, loc, neg, wrapped, idx);
  }
  idx = arith::MaxSIOp::create(b, loc, idx, zero);
  return arith::MinSIOp::create(
      b, loc, idx, arith::ConstantIndexOp::create(b, loc, size - extent));
}

namespace {

/// gather: out[b..., j...] = src[idx_k[b...] + j_axes[k] on indexed axes, j
/// elsewhere]. The index arrays are inputs of the generic (broadcast over the
/// batch dims), the source is read with tensor.extract.
struct GatherOpLowering final : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto type = cast<RankedTensorType>(op.getType());
    if (!type.hasStaticShape() || !srcType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    int64_t srcRank = srcType.getRank();
    int64_t batchRank = type.getRank() - srcRank;
    ArrayRef<int64_t> batchShape = type.getShape().take_front(batchRank);
    SmallVector<AffineMap> maps;
    SmallVector<Type> indexDtypes;
    for (Value index : op.getIndices()) {
      auto t = cast<RankedTensorType>(index.getType());
      AffineMap m = lowering::getBroadcastMap(ctx, t.getShape(), batchShape);
      maps.push_back(AffineMap::get(type.getRank(), 0, m.getResults(), ctx));
      indexDtypes.push_back(t.getElementType());
    }
    maps.push_back(AffineMap::getMultiDimIdentityMap(type.getRank(), ctx));
    SmallVector<int64_t> axes = llvm::map_to_vector(
        op.getAxes(), [&](int64_t a) { return a < 0 ? a + srcRank : a; });
    ArrayRef<int64_t> sizes = op.getSliceSizes();
    auto storage = lowering::getStorageType(type);
    Value init = tensor::EmptyOp::create(rewriter, loc, storage.getShape(),
                                         storage.getElementType());
    Value src = adaptor.getSrc();
    SmallVector<utils::IteratorType> iterators(type.getRank(),
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{storage}, adaptor.getIndices(), init, maps,
        iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          SmallVector<Value> coords;
          for (int64_t d = 0; d < srcRank; ++d) {
            Value j = linalg::IndexOp::create(b, l, batchRank + d);
            auto it = llvm::find(axes, d);
            if (it == axes.end()) {
              coords.push_back(j);
              continue;
            }
            int64_t k = it - axes.begin();
            Value base = lowering::normalizeIndex(
                b, l, args[k], indexDtypes[k], srcType.getDimSize(d), sizes[d]);
            coords.push_back(arith::AddIOp::create(b, l, base, j));
          }
          linalg::YieldOp::create(
              b, l, tensor::ExtractOp::create(b, l, src, coords).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct TakeAlongAxisOpLowering final : OpConversionPattern<TakeAlongAxisOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TakeAlongAxisOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto srcType = cast<RankedTensorType>(op.getX().getType());
    auto idxType = cast<RankedTensorType>(op.getIndices().getType());
    auto type = cast<RankedTensorType>(op.getType());
    if (!type.hasStaticShape() || !srcType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    int64_t rank = type.getRank();
    int64_t axis = static_cast<int64_t>(op.getAxis());
    axis = axis < 0 ? axis + rank : axis;
    auto storage = lowering::getStorageType(type);
    Value init = tensor::EmptyOp::create(rewriter, loc, storage.getShape(),
                                         storage.getElementType());
    SmallVector<AffineMap> maps = {
        lowering::getBroadcastMap(ctx, idxType.getShape(), type.getShape()),
        AffineMap::getMultiDimIdentityMap(rank, ctx)};
    Value src = adaptor.getX();
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{storage}, adaptor.getIndices(), init, maps,
        iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          SmallVector<Value> coords;
          for (int64_t d = 0; d < rank; ++d) {
            if (d == axis) {
              coords.push_back(lowering::normalizeIndex(
                  b, l, args[0], idxType.getElementType(),
                  srcType.getDimSize(d), 1));
              continue;
            }
            Value j = linalg::IndexOp::create(b, l, d);
            // The source broadcasts too: size-1 axes read element 0.
            if (srcType.getDimSize(d) == 1 && type.getDimSize(d) != 1)
              j = arith::ConstantIndexOp::create(b, l, 0);
            coords.push_back(j);
          }
          linalg::YieldOp::create(
              b, l, tensor::ExtractOp::create(b, l, src, coords).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// as_strided reads the flattened source at offset + sum(i_k * stride_k).
struct AsStridedOpLowering final : OpConversionPattern<AsStridedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AsStridedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getX().getType());
    auto type = cast<RankedTensorType>(op.getType());
    if (!srcType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    Value flat = lowering::reshapeTensor(rewriter, loc, adaptor.getX(),
                                         {srcType.getNumElements()});
    auto storage = lowering::getStorageType(type);
    Value init = tensor::EmptyOp::create(rewriter, loc, storage.getShape(),
                                         storage.getElementType());
    SmallVector<utils::IteratorType> iterators(type.getRank(),
                                               utils::IteratorType::parallel);
    ArrayRef<int64_t> strides = op.getStrides();
    int64_t offset = op.getOffset();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{storage}, ValueRange{}, init,
        AffineMap::getMultiDimIdentityMap(type.getRank(),
                                          rewriter.getContext()),
        iterators, [&](OpBuilder &b, Location l, ValueRange) {
          Value pos = arith::ConstantIndexOp::create(b, l, offset);
          for (int64_t d = 0; d < type.getRank(); ++d) {
            Value term = arith::MulIOp::create(
                b, l, linalg::IndexOp::create(b, l, d),
                arith::ConstantIndexOp::create(b, l, strides[d]));
            pos = arith::AddIOp::create(b, l, pos, term);
          }
          linalg::YieldOp::create(
              b, l, tensor::ExtractOp::create(b, l, flat, pos).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

namespace {
/// view: the bytes of x read as another dtype (little-endian). Same width: a
/// bitcast. A narrower result splits each element into its bytes along the
/// last axis; a wider one joins consecutive elements.
struct ViewOpLowering final : OpConversionPattern<ViewOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(op.getX().getType());
    auto type = cast<RankedTensorType>(op.getType());
    if (!type.hasStaticShape() || !inType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    Type inDtype = inType.getElementType(), outDtype = type.getElementType();
    if (inDtype.isInteger(1) || outDtype.isInteger(1))
      return rewriter.notifyMatchFailure(op, "bool views are not lowered");
    unsigned inBits = inDtype.getIntOrFloatBitWidth();
    unsigned outBits = outDtype.getIntOrFloatBitWidth();
    int64_t rank = type.getRank();
    auto storage = lowering::getStorageType(type);
    Type outStorage = storage.getElementType();
    Type inInt = rewriter.getIntegerType(inBits);
    Type outInt = rewriter.getIntegerType(outBits);
    Value init =
        tensor::EmptyOp::create(rewriter, loc, storage.getShape(), outStorage);
    Value x = adaptor.getX();
    auto toBits = [&](OpBuilder &b, Location l, Value v) -> Value {
      return v.getType() == inInt ? v
                                  : arith::BitcastOp::create(b, l, inInt, v);
    };
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{storage}, ValueRange{}, init,
        AffineMap::getMultiDimIdentityMap(rank, rewriter.getContext()),
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> at;
          for (int64_t d = 0; d < rank; ++d)
            at.push_back(linalg::IndexOp::create(b, l, d));
          Value bits;
          if (inBits == outBits) {
            bits = toBits(b, l, tensor::ExtractOp::create(b, l, x, at));
          } else if (inBits > outBits) {
            // Piece j % r of element j / r.
            int64_t r = inBits / outBits;
            Value j = at.back();
            Value ratio = arith::ConstantIndexOp::create(b, l, r);
            SmallVector<Value> from(at);
            from.back() = arith::DivUIOp::create(b, l, j, ratio);
            Value word = toBits(b, l, tensor::ExtractOp::create(b, l, x, from));
            Value piece = arith::IndexCastOp::create(
                b, l, inInt, arith::RemUIOp::create(b, l, j, ratio));
            Value shift = arith::MulIOp::create(
                b, l, piece,
                arith::ConstantIntOp::create(b, l, inInt, outBits));
            bits = arith::TruncIOp::create(
                b, l, outInt, arith::ShRUIOp::create(b, l, word, shift));
          } else {
            // Elements j * r ... j * r + r - 1, lowest first.
            int64_t r = outBits / inBits;
            Value base = arith::MulIOp::create(
                b, l, at.back(), arith::ConstantIndexOp::create(b, l, r));
            bits = arith::ConstantIntOp::create(b, l, outInt, 0);
            for (int64_t k = 0; k < r; ++k) {
              SmallVector<Value> from(at);
              from.back() = arith::AddIOp::create(
                  b, l, base, arith::ConstantIndexOp::create(b, l, k));
              Value part = arith::ExtUIOp::create(
                  b, l, outInt,
                  toBits(b, l, tensor::ExtractOp::create(b, l, x, from)));
              part = arith::ShLIOp::create(
                  b, l, part,
                  arith::ConstantIntOp::create(b, l, outInt, k * inBits));
              bits = arith::OrIOp::create(b, l, bits, part);
            }
          }
          Value result = outStorage == outInt
                             ? bits
                             : arith::BitcastOp::create(b, l, outStorage, bits)
                                   .getResult();
          linalg::YieldOp::create(b, l, result);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};
} // namespace

void mlx::populateMlxDataMovementToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns
      .add<ReshapeLikeLowering<ReshapeOp>, ReshapeLikeLowering<ExpandDimsOp>,
           ReshapeLikeLowering<SqueezeOp>, ReshapeLikeLowering<FlattenOp>,
           ReshapeLikeLowering<UnflattenOp>, TransposeOpLowering,
           SliceOpLowering, SliceUpdateOpLowering, DynamicSliceOpLowering,
           DynamicSliceUpdateOpLowering, ConcatenateOpLowering, SplitOpLowering,
           PadOpLowering, GatherOpLowering, TakeAlongAxisOpLowering,
           AsStridedOpLowering, ViewOpLowering>(converter,
                                                patterns.getContext());
}
