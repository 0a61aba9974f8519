//===- HalfExp.cpp - the mlxc-half-exp pass -------------------------------===//
//
// An f16 or bf16 exp is computed in f32 and rounded to 16 bits. libdevice's
// __nv_expf spends nine instructions on an f32 result within 2 ulp, where
// 2^(x * log2 e) through ex2.approx (two instructions) is within
// |x| * 2^-24 relative of exp(x): about 2^-17 for the largest finite
// argument, far below a 16-bit ulp (2^-8 for bf16, 2^-11 for f16). The
// rounded result is the same but for arguments that land within that
// distance of a rounding boundary, one ulp off there. A softmax in bf16
// spends a third of its instructions in exp. Only exps whose every use
// rounds to 16 bits change; an f32 result (a precise softmax's) keeps
// libdevice's.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/MathExtras.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCHALFEXP
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

namespace {

bool roundsTo16Bits(Operation *user) {
  auto trunc = dyn_cast<arith::TruncFOp>(user);
  return trunc &&
         getElementTypeOrSelf(trunc.getType()).getIntOrFloatBitWidth() == 16;
}

struct ExpOfHalfResult final : OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32() || op->use_empty() ||
        !llvm::all_of(op->getUsers(), roundsTo16Bits))
      return failure();
    Location loc = op.getLoc();
    TypedAttr log2e =
        rewriter.getF32FloatAttr(static_cast<float>(llvm::numbers::log2e));
    if (auto shaped = dyn_cast<ShapedType>(type))
      log2e = SplatElementsAttr::get(shaped, log2e);
    Value scale = arith::ConstantOp::create(rewriter, loc, log2e);
    Value scaled = arith::MulFOp::create(rewriter, loc, op.getOperand(), scale);
    rewriter.replaceOpWithNewOp<math::Exp2Op>(op, scaled);
    return success();
  }
};

struct MlxcHalfExpPass final : mlx::impl::MlxcHalfExpBase<MlxcHalfExpPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpOfHalfResult>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
