//===- ConvertMlxToLinalg.cpp - the convert-mlx-to-linalg pass ------------===//

#include "codegen/MlxToLinalg/MlxToLinalg.h"
#include "codegen/MlxToLinalg/ScalarOps.h"
#include "codegen/Passes.h"

#include "Kernel/KernelOps.h"
#include "Mlx/MlxOps.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_CONVERTMLXTOLINALG
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;
using namespace mlir::mlx;

MlxStorageTypeConverter::MlxStorageTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](RankedTensorType type) -> Type {
    return type.clone(toStorageType(type.getElementType()));
  });
  auto cast = [](OpBuilder &b, Type type, ValueRange inputs,
                 Location loc) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(cast);
  addTargetMaterialization(cast);
}

namespace {
/// An mlx op whose results hold no element computes nothing: each result is
/// a tensor.empty. Ahead of the op's own lowering, whose slices of empty
/// operands MLIR's verifiers refuse (offset 0 of an axis of size 0).
struct EmptyResultLowering final : ConversionPattern {
  EmptyResultLowering(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/10, ctx) {
  }
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value>,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<MlxDialect>(op->getDialect()) || op->getNumResults() == 0 ||
        op->getNumRegions() != 0)
      return failure();
    SmallVector<Value> empties;
    for (Value result : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type || !type.hasStaticShape() || type.getNumElements() != 0)
        return failure();
      auto storage = dyn_cast_or_null<RankedTensorType>(
          getTypeConverter()->convertType(type));
      if (!storage)
        return failure();
      empties.push_back(tensor::EmptyOp::create(rewriter, op->getLoc(),
                                                storage.getShape(),
                                                storage.getElementType()));
    }
    rewriter.replaceOp(op, empties);
    return success();
  }
};
} // namespace

void mlx::populateMlxToLinalgConversionPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<EmptyResultLowering>(converter, patterns.getContext());
  populateMlxElementwiseToLinalgPatterns(converter, patterns);
  populateMlxReductionToLinalgPatterns(converter, patterns);
  populateMlxDataMovementToLinalgPatterns(converter, patterns);
  populateMlxLinearToLinalgPatterns(converter, patterns);
  populateMlxConvolutionToLinalgPatterns(converter, patterns);
  populateMlxQuantizedToLinalgPatterns(converter, patterns);
  populateMlxScatterToLinalgPatterns(converter, patterns);
  populateMlxSortToLinalgPatterns(converter, patterns);
  populateMlxHadamardToLinalgPatterns(converter, patterns);
  populateMlxLinearAlgebraToLinalgPatterns(converter, patterns);
  populateMlxRandomToLinalgPatterns(converter, patterns);
  populateMlxRopeToLinalgPatterns(converter, patterns);
}

/// The mode of a quantize op, if `op` is one.
static std::optional<QuantizationMode> getQuantizationMode(Operation *op) {
  if (auto q = dyn_cast<QuantizeOp>(op))
    return q.getMode();
  return std::nullopt;
}

/// The ops some pattern of `patterns` is rooted at.
static llvm::DenseSet<OperationName>
getRootOps(RewritePatternSet &patterns) {
  llvm::DenseSet<OperationName> roots;
  for (const std::unique_ptr<RewritePattern> &pattern :
       patterns.getNativePatterns())
    if (std::optional<OperationName> root = pattern->getRootKind())
      roots.insert(*root);
  return roots;
}

/// Whether a pattern lowers `op`: one rooted at its op (the patterns are the
/// list), or the elementwise one that takes any op ScalarOps knows.
static bool hasLinalgLowering(Operation *op,
                              const llvm::DenseSet<OperationName> &lowered) {
  // Quantizing lowers in affine mode only (fp4/fp8 rounding is not
  // written); dequantizing and the quantized products in every mode.
  if (std::optional<QuantizationMode> mode = getQuantizationMode(op))
    return *mode == QuantizationMode::affine;
  // Bool has no fixed byte pattern to reinterpret.
  if (auto view = dyn_cast<ViewOp>(op))
    return !view.getX().getType().getElementType().isInteger(1) &&
           !view.getType().getElementType().isInteger(1);
  return isElementwiseOp(op) || lowered.contains(op->getName());
}

namespace {
struct ConvertMlxToLinalgPass final
    : mlx::impl::ConvertMlxToLinalgBase<ConvertMlxToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    MlxStorageTypeConverter converter;
    RewritePatternSet patterns(ctx);
    populateMlxToLinalgConversionPatterns(converter, patterns);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    llvm::DenseSet<OperationName> lowered = getRootOps(patterns);
    // The composite ops are those mlx-decompose rewrites.
    RewritePatternSet decompositions(ctx);
    populateMlxDecomposePatterns(decompositions);
    llvm::DenseSet<OperationName> composites = getRootOps(decompositions);

    ConversionTarget target(*ctx);
    target.addLegalDialect<arith::ArithDialect, kernel::KernelDialect,
                           linalg::LinalgDialect, math::MathDialect,
                           scf::SCFDialect, tensor::TensorDialect>();
    target.addIllegalDialect<MlxDialect>();
    target.addLegalOp<ModuleOp, UnrealizedConversionCastOp>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType()) &&
             converter.isLegal(&op.getBody());
    });
    target.addDynamicallyLegalOp<func::ReturnOp, func::CallOp>(
        [&](Operation *op) { return converter.isLegal(op); });

    // Name every op that has no lowering before the generic failure.
    bool unsupported = false;
    getOperation().walk(
        [&](Operation *op) {
          if (!isa<MlxDialect>(op->getDialect()))
            return;
          auto attention = dyn_cast<ScaledDotProductAttentionOp>(op);
          if (attention && canFormAttentionKernel(attention))
            return;
          if (composites.contains(op->getName()) &&
              (attention || !hasLinalgLowering(op, lowered))) {
            op->emitOpError() << "is a composite op; run mlx-decompose before "
                                 "convert-mlx-to-linalg";
            unsupported = true;
            return;
          }
          std::optional<QuantizationMode> mode = getQuantizationMode(op);
          if (mode && *mode != QuantizationMode::affine) {
            op->emitOpError() << "has no lowering in mlxc's code generator for "
                                 "quantization mode '"
                              << stringifyQuantizationMode(*mode)
                              << "' (only affine mode quantizes)";
            unsupported = true;
            return;
          }
          if (!hasLinalgLowering(op, lowered)) {
            op->emitOpError()
                << "has no lowering in mlxc's code generator (it "
                   "lowers elementwise, creation, layout, gather, "
                   "scatter, sort, random, reduction, scan, matmul, "
                   "convolution, inverse, cholesky, qr, eigvalsh, svdvals, "
                   "affine quantization and the decomposed "
                   "composite ops)";
            unsupported = true;
            return;
          }
          for (Type type : op->getResultTypes())
            if (auto tensor = dyn_cast<RankedTensorType>(type);
                tensor && !tensor.hasStaticShape()) {
              op->emitError() << "dynamic shapes are not supported by the code "
                                 "generator yet (result type "
                              << type << ")";
              unsupported = true;
              return;
            }
        });
    if (unsupported)
      return signalPassFailure();
    if (failed(
            applyFullConversion(getOperation(), target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
