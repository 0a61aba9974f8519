//===- Scatter.cpp - scatter ops to loops on tensors ----------------------===//
//
// scatter, scatter_add/prod/max/min, put_along_axis and scatter_add_axis.
// Updates may hit the same element several times, and MLX applies them in
// order (the last write wins for scatter), so the lowering is one scf.for
// over the updates in order, carrying the result tensor: each step extracts
// the target element, combines and inserts it. One-shot bufferization makes
// the carried tensor one buffer updated in place; on the GPU the loop runs
// as a one-thread kernel (mlxc-offload-host-loops).
//
//===----------------------------------------------------------------------===//

#include "codegen/MlxToLinalg/MlxToLinalg.h"
#include "codegen/MlxToLinalg/ScalarOps.h"

#include "Mlx/MlxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mlx;

namespace {
/// How an update meets the element it lands on: replaces it (no combine), or
/// combines with it.
using Update = std::optional<CombineKind>;

Value applyUpdate(OpBuilder &b, Location loc, Update kind, Value old,
                  Value update, Type dtype) {
  return kind ? combineScalars(b, loc, *kind, old, update, dtype) : update;
}

/// Row-major multi-index of linear position `t` in `shape`.
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value t,
                               ArrayRef<int64_t> shape) {
  SmallVector<Value> index(shape.size());
  Value rest = t;
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    Value size = arith::ConstantIndexOp::create(b, loc, shape[i]);
    index[i] = arith::RemUIOp::create(b, loc, rest, size);
    rest = arith::DivUIOp::create(b, loc, rest, size);
  }
  return index;
}

/// The coordinates in an operand of shape `shape`, right-aligned and
/// broadcast (size-1 dims read 0), of position `index` of a larger shape.
SmallVector<Value> broadcastCoords(OpBuilder &b, Location loc,
                                   ArrayRef<Value> index,
                                   ArrayRef<int64_t> shape) {
  SmallVector<Value> coords;
  size_t offset = index.size() - shape.size();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  for (size_t d = 0; d < shape.size(); ++d)
    coords.push_back(shape[d] == 1 ? zero : index[offset + d]);
  return coords;
}

/// Emits `for t in [0, count): result = step(t, result)` over `init`.
Value emitUpdateLoop(
    OpBuilder &b, Location loc, Value init, int64_t count,
    function_ref<Value(OpBuilder &, Location, Value, Value)> step) {
  Value lb = arith::ConstantIndexOp::create(b, loc, 0);
  Value ub = arith::ConstantIndexOp::create(b, loc, count);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lb, ub, one, ValueRange{init},
      [&](OpBuilder &body, Location l, Value t, ValueRange iter) {
        scf::YieldOp::create(body, l, step(body, l, t, iter[0]));
      });
  return loop.getResult(0);
}

/// scatter*: updates[b..., s...] goes to src at s + (idx_k[b...] on axis
/// axes[k]).
template <typename OpTy>
struct ScatterOpLowering final : OpConversionPattern<OpTy> {
  ScatterOpLowering(const TypeConverter &converter, MLIRContext *ctx,
                    Update kind)
      : OpConversionPattern<OpTy>(converter, ctx), kind(kind) {}
  Update kind;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto updType = cast<RankedTensorType>(op.getUpdates().getType());
    if (!srcType.hasStaticShape() || !updType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    int64_t rank = srcType.getRank();
    int64_t batchRank = updType.getRank() - rank;
    ArrayRef<int64_t> sliceShape = updType.getShape().drop_front(batchRank);
    SmallVector<int64_t> axes;
    for (int64_t a : op.getAxes())
      axes.push_back(a < 0 ? a + rank : a);
    Type dtype = srcType.getElementType();
    Type updDtype = updType.getElementType();
    ValueRange indices = adaptor.getIndices();
    SmallVector<RankedTensorType> indexTypes;
    for (Value index : op.getIndices())
      indexTypes.push_back(cast<RankedTensorType>(index.getType()));
    Value updates = adaptor.getUpdates();
    Value result = emitUpdateLoop(
        rewriter, loc, adaptor.getSrc(), updType.getNumElements(),
        [&](OpBuilder &b, Location l, Value t, Value out) {
          SmallVector<Value> at = delinearize(b, l, t, updType.getShape());
          ArrayRef<Value> batch = ArrayRef<Value>(at).take_front(batchRank);
          SmallVector<Value> pos(at.begin() + batchRank, at.end());
          for (auto [k, index] : llvm::enumerate(indices)) {
            Value raw = tensor::ExtractOp::create(
                b, l, index,
                broadcastCoords(b, l, batch, indexTypes[k].getShape()));
            int64_t axis = axes[k];
            Value base = lowering::normalizeIndex(
                b, l, raw, indexTypes[k].getElementType(),
                srcType.getDimSize(axis), sliceShape[axis]);
            pos[axis] = arith::AddIOp::create(b, l, pos[axis], base);
          }
          Value update =
              castScalar(b, l, tensor::ExtractOp::create(b, l, updates, at),
                         updDtype, dtype);
          Value old = tensor::ExtractOp::create(b, l, out, pos);
          Value next = applyUpdate(b, l, kind, old, update, dtype);
          return tensor::InsertOp::create(b, l, next, out, pos).getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// put_along_axis / scatter_add_axis: for each position p of the indices
/// (broadcast to the result on the other axes), values[p] goes to
/// x[p with axis = indices[p]].
template <typename OpTy>
struct ScatterAxisOpLowering final : OpConversionPattern<OpTy> {
  ScatterAxisOpLowering(const TypeConverter &converter, MLIRContext *ctx,
                        Update kind)
      : OpConversionPattern<OpTy>(converter, ctx), kind(kind) {}
  Update kind;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto xType = cast<RankedTensorType>(op.getX().getType());
    auto idxType = cast<RankedTensorType>(op.getIndices().getType());
    auto valType = cast<RankedTensorType>(op.getValues().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    if (!resultType.hasStaticShape() || !idxType.hasStaticShape() ||
        !valType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    if (xType.getShape() != resultType.getShape())
      return rewriter.notifyMatchFailure(op, "x is broadcast by the indices");
    int64_t rank = resultType.getRank();
    int64_t axis = static_cast<int64_t>(op.getAxis());
    axis = axis < 0 ? axis + rank : axis;
    // The positions: the result's shape with the indices' extent on `axis`.
    SmallVector<int64_t> positions(resultType.getShape());
    positions[axis] = idxType.getDimSize(axis);
    int64_t count = 1;
    for (int64_t size : positions)
      count *= size;
    Type dtype = resultType.getElementType();
    Value indices = adaptor.getIndices(), values = adaptor.getValues();
    Value result = emitUpdateLoop(
        rewriter, loc, adaptor.getX(), count,
        [&](OpBuilder &b, Location l, Value t, Value out) {
          SmallVector<Value> p = delinearize(b, l, t, positions);
          Value raw = tensor::ExtractOp::create(
              b, l, indices, broadcastCoords(b, l, p, idxType.getShape()));
          Value value = castScalar(
              b, l,
              tensor::ExtractOp::create(
                  b, l, values, broadcastCoords(b, l, p, valType.getShape())),
              valType.getElementType(), dtype);
          SmallVector<Value> pos(p);
          pos[axis] =
              lowering::normalizeIndex(b, l, raw, idxType.getElementType(),
                                       resultType.getDimSize(axis), 1);
          Value old = tensor::ExtractOp::create(b, l, out, pos);
          Value next = applyUpdate(b, l, kind, old, value, dtype);
          return tensor::InsertOp::create(b, l, next, out, pos).getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void mlx::populateMlxScatterToLinalgPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ScatterOpLowering<ScatterOp>>(converter, ctx, std::nullopt);
  patterns.add<ScatterOpLowering<ScatterAddOp>>(converter, ctx,
                                                CombineKind::Sum);
  patterns.add<ScatterOpLowering<ScatterProdOp>>(converter, ctx,
                                                 CombineKind::Prod);
  patterns.add<ScatterOpLowering<ScatterMaxOp>>(converter, ctx,
                                                CombineKind::Max);
  patterns.add<ScatterOpLowering<ScatterMinOp>>(converter, ctx,
                                                CombineKind::Min);
  patterns.add<ScatterAxisOpLowering<PutAlongAxisOp>>(converter, ctx,
                                                      std::nullopt);
  patterns.add<ScatterAxisOpLowering<ScatterAddAxisOp>>(converter, ctx,
                                                        CombineKind::Sum);
}
