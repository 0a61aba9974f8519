//===- Linear.cpp - matmul to linalg.batch_matmul -------------------------===//
//
// Batch axes broadcast, then collapse into one so that every product is a
// linalg.batch_matmul accumulating in float32 for half inputs; a right-hand
// side without batch axes folds the batch into the rows instead. 1-D operands
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

namespace {
struct MatmulOpLowering final : OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(op.getLhs().getType());
    auto bType = cast<RankedTensorType>(op.getRhs().getType());
    auto type = cast<RankedTensorType>(op.getType());
    if (aType.getRank() < 2 || bType.getRank() < 2)
      return rewriter.notifyMatchFailure(op, "1-D operands must be decomposed");
    if (!type.hasStaticShape() || !aType.hasStaticShape() ||
        !bType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
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
      if (t.getShape() != ArrayRef<int64_t>(full) ||
          t.getElementType() != dtype)
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
    Value a = prepare(adaptor.getLhs(), aType, m, k, /*isRhs=*/false);
    Value b = prepare(adaptor.getRhs(), bType, k, n, /*isRhs=*/true);
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
    rewriter.replaceOp(
        op, lowering::reshapeTensor(rewriter, loc, product, type.getShape()));
    return success();
  }
};
} // namespace

void mlx::populateMlxLinearToLinalgPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<MatmulOpLowering>(converter, patterns.getContext());
}
