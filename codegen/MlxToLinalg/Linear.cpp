//===- Linear.cpp - matmul to linalg.batch_matmul -------------------------===//
//
// Batch axes broadcast, then collapse into one so that every product is a
// linalg.batch_matmul accumulating in float32 for half inputs; a right-hand
// side without batch axes folds the batch into the rows instead. 1-D operands
// and addmm arrive rewritten by mlx-decompose. On CUDA the product goes to
// cuBLASLt instead (codegen/Cuda). gather_mm first gathers each operand's
// matrices for the result's batch, so that it becomes the same product
// (quantized_matmul and gather_qmm reuse buildMatmul too).
//
//===----------------------------------------------------------------------===//

#include "codegen/MlxToLinalg/MlxToLinalg.h"
#include "codegen/MlxToLinalg/ScalarOps.h"

#include "Kernel/KernelOps.h"
#include "Mlx/MlxOps.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mlx;

Value lowering::buildMatmul(OpBuilder &rewriter, Location loc, Value lhs,
                            RankedTensorType aType, Value rhs,
                            RankedTensorType bType, RankedTensorType type) {
  int64_t batchRank = type.getRank() - 2;
  ArrayRef<int64_t> batch = type.getShape().take_front(batchRank);
  int64_t m = type.getDimSize(batchRank), n = type.getDimSize(batchRank + 1);
  int64_t k = aType.getShape().back();
  int64_t nb = 1;
  for (int64_t d : batch)
    nb *= d;
  Type dtype = type.getElementType();

  // x[b, m, k] @ w[k, n] (w the same for every b) is one product of
  // b * m rows: no copy of w per batch, one larger GEMM.
  bool foldBatch = nb > 1 && aType.getShape().drop_back(2) == batch &&
                   llvm::all_of(bType.getShape().drop_back(2),
                                [](int64_t d) { return d == 1; });
  // Each operand: cast to the result dtype, broadcast over the batch,
  // collapse the batch.
  auto prepare = [&](Value value, RankedTensorType t, int64_t rows,
                     int64_t cols, bool isRhs) {
    SmallVector<int64_t> full(batch);
    if (foldBatch && isRhs)
      full.assign(t.getRank() - 2, 1);
    full.append({rows, cols});
    if (t.getShape() != ArrayRef<int64_t>(full) || t.getElementType() != dtype)
      value = lowering::buildElementwiseGeneric(
          rewriter, loc, RankedTensorType::get(full, dtype), value, {t},
          [&](OpBuilder &b, Location l, ValueRange args) {
            return castScalar(b, l, args[0], t.getElementType(), dtype);
          });
    if (foldBatch)
      return isRhs ? lowering::reshapeTensor(rewriter, loc, value,
                                             {1, rows, cols})
                   : lowering::reshapeTensor(rewriter, loc, value,
                                             {1, nb * rows, cols});
    return lowering::reshapeTensor(rewriter, loc, value, {nb, rows, cols});
  };
  Value a = prepare(lhs, aType, m, k, /*isRhs=*/false);
  Value b = prepare(rhs, bType, k, n, /*isRhs=*/true);
  if (foldBatch) {
    m *= nb;
    nb = 1;
  }

  Type accDtype =
      (dtype.isF16() || dtype.isBF16()) ? rewriter.getF32Type() : dtype;
  Value init = tensor::EmptyOp::create(rewriter, loc,
                                       ArrayRef<int64_t>{nb, m, n}, accDtype);
  Value zero = scalarConstant(rewriter, loc, accDtype, 0);
  Value acc = linalg::FillOp::create(rewriter, loc, zero, init).getResult(0);
  Value product =
      linalg::BatchMatmulOp::create(rewriter, loc, TypeRange{acc.getType()},
                                    ValueRange{a, b}, acc)
          .getResult(0);
  if (accDtype != dtype) {
    auto accType = RankedTensorType::get({nb, m, n}, accDtype);
    product = lowering::buildElementwiseGeneric(
        rewriter, loc, accType.clone(dtype), product, {accType},
        [&](OpBuilder &bb, Location l, ValueRange args) {
          return castScalar(bb, l, args[0], accDtype, dtype);
        });
  }
  return lowering::reshapeTensor(rewriter, loc, product, type.getShape());
}

Value lowering::gatherMatrices(OpBuilder &b, Location loc, Value value,
                               RankedTensorType type, Value indices,
                               RankedTensorType indicesType,
                               ArrayRef<int64_t> outBatch) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank();
  ArrayRef<int64_t> batch = type.getShape().drop_back(2);
  int64_t rows = type.getDimSize(rank - 2), cols = type.getDimSize(rank - 1);
  int64_t count = 1;
  for (int64_t d : batch)
    count *= d;
  Value flat = reshapeTensor(b, loc, value, {count, rows, cols});
  int64_t outRank = outBatch.size() + 2;
  SmallVector<int64_t> shape(outBatch);
  shape.append({rows, cols});
  auto storage =
      RankedTensorType::get(shape, toStorageType(type.getElementType()));
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  if (indices) {
    AffineMap m = getBroadcastMap(ctx, indicesType.getShape(), outBatch);
    inputs.push_back(indices);
    maps.push_back(AffineMap::get(outRank, 0, m.getResults(), ctx));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(outRank, ctx));
  Value init = tensor::EmptyOp::create(b, loc, shape, storage.getElementType());
  SmallVector<utils::IteratorType> iterators(outRank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{storage}, inputs, init, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value matrix;
        if (indices) {
          matrix = normalizeIndex(nb, l, args[0], indicesType.getElementType(),
                                  count, 1);
        } else {
          // Row-major position in the operand's own batch, which broadcasts
          // against the trailing axes of outBatch.
          matrix = arith::ConstantIndexOp::create(nb, l, 0);
          int64_t offset = outBatch.size() - batch.size();
          for (auto [i, size] : llvm::enumerate(batch)) {
            Value coord =
                size == 1 ? Value(arith::ConstantIndexOp::create(nb, l, 0))
                          : Value(linalg::IndexOp::create(nb, l, offset + i));
            matrix = arith::AddIOp::create(
                nb, l,
                arith::MulIOp::create(
                    nb, l, matrix, arith::ConstantIndexOp::create(nb, l, size)),
                coord);
          }
        }
        Value r = linalg::IndexOp::create(nb, l, outRank - 2);
        Value c = linalg::IndexOp::create(nb, l, outRank - 1);
        linalg::YieldOp::create(
            nb, l,
            tensor::ExtractOp::create(nb, l, flat, ValueRange{matrix, r, c})
                .getResult());
      });
  return generic.getResult(0);
}

namespace {
struct MatmulOpLowering final : OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto aType = cast<RankedTensorType>(op.getLhs().getType());
    auto bType = cast<RankedTensorType>(op.getRhs().getType());
    auto type = cast<RankedTensorType>(op.getType());
    if (aType.getRank() < 2 || bType.getRank() < 2)
      return rewriter.notifyMatchFailure(op, "1-D operands must be decomposed");
    if (!type.hasStaticShape() || !aType.hasStaticShape() ||
        !bType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    rewriter.replaceOp(
        op, lowering::buildMatmul(rewriter, op.getLoc(), adaptor.getLhs(),
                                  aType, adaptor.getRhs(), bType, type));
    return success();
  }
};
/// An attention that kernel.attention's kernels take (mlx-decompose kept
/// it): kernel.attention, with its mask and sinks, into a fresh tensor.
struct AttentionOpLowering final
    : OpConversionPattern<ScaledDotProductAttentionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScaledDotProductAttentionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!canFormAttentionKernel(op))
      return rewriter.notifyMatchFailure(op, "must be decomposed");
    auto type = cast<RankedTensorType>(op.getType());
    Location loc = op.getLoc();
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         type.getElementType());
    // The sinks in the element type, as MLX's fallback casts them.
    Value sinks = adaptor.getSinks();
    if (sinks) {
      auto sinksType = cast<RankedTensorType>(op.getSinks().getType());
      Type from = sinksType.getElementType(), to = type.getElementType();
      if (from != to)
        sinks = lowering::buildElementwiseGeneric(
            rewriter, loc, sinksType.clone(to), sinks, {sinksType},
            [&](OpBuilder &b, Location l, ValueRange x) {
              return castScalar(b, l, x[0], from, to);
            });
    }
    // A mask of lower rank gains leading axes of 1: the op's is rank 4.
    Value mask = adaptor.getMask();
    if (mask) {
      auto maskType = cast<RankedTensorType>(mask.getType());
      SmallVector<int64_t> shape(4 - maskType.getRank(), 1);
      llvm::append_range(shape, maskType.getShape());
      if (maskType.getRank() < 4)
        mask = lowering::reshapeTensor(rewriter, loc, mask, shape);
    }
    rewriter.replaceOpWithNewOp<kernel::AttentionOp>(
        op, TypeRange{type}, adaptor.getQueries(), adaptor.getKeys(),
        adaptor.getValues(), mask, sinks, init,
        rewriter.getF64FloatAttr(op.getScale().convertToDouble()),
        op.getCausal() ? rewriter.getUnitAttr() : UnitAttr());
    return success();
  }
};

/// gather_mm: both operands' matrices gathered for the result's batch, then
/// one batched matmul.
struct GatherMmOpLowering final : OpConversionPattern<GatherMmOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherMmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    auto type = cast<RankedTensorType>(op.getType());
    if (!type.hasStaticShape() || !aType.hasStaticShape() ||
        !bType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    ArrayRef<int64_t> outBatch = type.getShape().drop_back(2);
    auto indexType = [](Value v) {
      return v ? cast<RankedTensorType>(v.getType()) : RankedTensorType();
    };
    auto gathered = [&](Value v, RankedTensorType t, Value idx,
                        RankedTensorType idxType) {
      Value g =
          lowering::gatherMatrices(rewriter, loc, v, t, idx, idxType, outBatch);
      return std::make_pair(
          g, cast<RankedTensorType>(g.getType()).clone(t.getElementType()));
    };
    auto [a, aGType] = gathered(adaptor.getA(), aType, adaptor.getLhsIndices(),
                                indexType(op.getLhsIndices()));
    auto [b, bGType] = gathered(adaptor.getB(), bType, adaptor.getRhsIndices(),
                                indexType(op.getRhsIndices()));
    rewriter.replaceOp(
        op, lowering::buildMatmul(rewriter, loc, a, aGType, b, bGType, type));
    return success();
  }
};
} // namespace

void mlx::populateMlxLinearToLinalgPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<MatmulOpLowering, GatherMmOpLowering, AttentionOpLowering>(
      converter, patterns.getContext());
}
