//===- Linear.cpp - matmul to linalg.batch_matmul -------------------------===//
//
// Batch axes broadcast, then collapse into one so that every product is a
// linalg.batch_matmul accumulating in float32 for half inputs. 1-D operands
// and addmm arrive rewritten by mlx-decompose. On CUDA the product goes to
// cuBLASLt instead (codegen/Cuda).
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

  // Each operand: cast to the result dtype, broadcast over the batch,
  // collapse the batch.
  auto prepare = [&](Value value, RankedTensorType t, int64_t rows,
                     int64_t cols) {
    SmallVector<int64_t> full(batch);
    full.append({rows, cols});
    if (t.getShape() != ArrayRef<int64_t>(full) || t.getElementType() != dtype)
      value = lowering::buildElementwiseGeneric(
          rewriter, loc, RankedTensorType::get(full, dtype), value, {t},
          [&](OpBuilder &b, Location l, ValueRange args) {
            return castScalar(b, l, args[0], t.getElementType(), dtype);
          });
    return lowering::reshapeTensor(rewriter, loc, value, {nb, rows, cols});
  };
  Value a = prepare(lhs, aType, m, k);
  Value b = prepare(rhs, bType, k, n);

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
} // namespace

void mlx::populateMlxLinearToLinalgPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<MatmulOpLowering>(converter, patterns.getContext());
}
