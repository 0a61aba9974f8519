//===- Quantized.cpp - affine quantize/dequantize/quantized_matmul --------===//
//
// MLX packs the `bits`-bit values of each row as one little-endian bit
// stream: value e occupies bits [e * bits, (e + 1) * bits) of the row's
// uint32 words, so with 3, 5 or 6 bits a value can straddle two words.
// quantize follows MLX's CPU kernel step by step in float32 (per-group
// min/max, scale and bias from the edge farther from zero, round half to
// even, clamp), which makes its words, scales and biases bit-identical.
// dequantize rounds `scale * q` and then `+ bias` to the scales' dtype, as
// MLX does. quantized_matmul and gather_qmm dequantize (transposed as
// needed) and reuse the matmul lowering, accumulating half types in f32.
// The microscaling modes (mxfp4, mxfp8, nvfp4) have no biases: a value is
// an fp4 (e2m1) or fp8 (e4m3) code times its group's uint8 scale, a power
// of two 2^(s - 127) (e8m0) or an e4m3 number (nvfp4); the product is exact
// in every float dtype, so it is dequantized in the result's dtype.
//
//===----------------------------------------------------------------------===//

#include "codegen/MlxToLinalg/MlxToLinalg.h"
#include "codegen/MlxToLinalg/ScalarOps.h"

#include "Kernel/KernelOps.h"
#include "Mlx/MlxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mlx;

static Value indexConst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Reads value `col` (an index) of the packed row at `rowCoords` of `packed`
/// (i32 words, `wordsPerRow` per row) as an i32 in [0, 2^bits).
static Value readPacked(OpBuilder &b, Location loc, Value packed,
                        ArrayRef<Value> rowCoords, Value col, int64_t bits,
                        int64_t wordsPerRow) {
  Value pos = arith::MulIOp::create(b, loc, col, indexConst(b, loc, bits));
  Value word = arith::DivUIOp::create(b, loc, pos, indexConst(b, loc, 32));
  Value shift = arith::RemUIOp::create(b, loc, pos, indexConst(b, loc, 32));
  SmallVector<Value> coords(rowCoords);
  coords.push_back(word);
  Value lo = tensor::ExtractOp::create(b, loc, packed, coords);
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  if (32 % bits == 0) {
    // Values never straddle words.
    Value amount = arith::IndexCastUIOp::create(b, loc, i32, shift);
    Value v = arith::ShRUIOp::create(b, loc, lo, amount);
    return arith::AndIOp::create(
        b, loc, v, arith::ConstantIntOp::create(b, loc, i32, (1 << bits) - 1));
  }
  // Join this word and the next (clamped: the last value of a row ends in
  // its last word, so the clamped read is masked away).
  Value next = arith::MinUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, word, indexConst(b, loc, 1)),
      indexConst(b, loc, wordsPerRow - 1));
  coords.back() = next;
  Value hi = tensor::ExtractOp::create(b, loc, packed, coords);
  Value joined = arith::OrIOp::create(
      b, loc, arith::ExtUIOp::create(b, loc, i64, lo),
      arith::ShLIOp::create(b, loc, arith::ExtUIOp::create(b, loc, i64, hi),
                            arith::ConstantIntOp::create(b, loc, i64, 32)));
  Value amount = arith::IndexCastUIOp::create(b, loc, i64, shift);
  Value v = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, joined, amount),
      arith::ConstantIntOp::create(b, loc, i64, (1 << bits) - 1));
  return arith::TruncIOp::create(b, loc, i32, v);
}

/// The float32 value of an fp4 (e2m1) code in an i32: magnitudes 0, 0.5, 1,
/// 1.5, 2, 3, 4, 6, bit 3 the sign.
static Value decodeFp4(OpBuilder &b, Location l, Value q) {
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  auto c = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, l, i32, v);
  };
  auto f = [&](double v) { return scalarConstant(b, l, f32, v); };
  auto eq = [&](Value x, int64_t v) {
    return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, x, c(v));
  };
  Value e =
      arith::AndIOp::create(b, l, arith::ShRUIOp::create(b, l, q, c(1)), c(3));
  Value m = arith::AndIOp::create(b, l, q, c(1));
  // e == 0: m / 2; else (2 + m) * 2^(e - 2).
  Value digits = arith::SelectOp::create(b, l, eq(e, 0), m,
                                         arith::AddIOp::create(b, l, m, c(2)));
  Value step = arith::SelectOp::create(
      b, l, arith::CmpIOp::create(b, l, arith::CmpIPredicate::ule, e, c(1)),
      f(0.5), arith::SelectOp::create(b, l, eq(e, 2), f(1.0), f(2.0)));
  Value v = arith::MulFOp::create(
      b, l, arith::UIToFPOp::create(b, l, f32, digits), step);
  Value negative = eq(arith::AndIOp::create(b, l, q, c(8)), 8);
  return arith::SelectOp::create(b, l, negative, arith::NegFOp::create(b, l, v),
                                 v);
}

/// The float32 value of an fp8 (e4m3, no infinities) code in an i32:
/// (8 + m) * 2^(e - 10), subnormals m * 2^-9, 0x7f/0xff NaN.
static Value decodeFp8E4M3(OpBuilder &b, Location l, Value q) {
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  auto c = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, l, i32, v);
  };
  auto eq = [&](Value x, int64_t v) {
    return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, x, c(v));
  };
  Value e =
      arith::AndIOp::create(b, l, arith::ShRUIOp::create(b, l, q, c(3)), c(15));
  Value m = arith::AndIOp::create(b, l, q, c(7));
  Value subnormal = eq(e, 0);
  Value digits = arith::SelectOp::create(b, l, subnormal, m,
                                         arith::AddIOp::create(b, l, m, c(8)));
  // 2^(e - 10) has the float32 exponent field e + 117.
  Value power = arith::BitcastOp::create(
      b, l, f32,
      arith::ShLIOp::create(b, l, arith::AddIOp::create(b, l, e, c(117)),
                            c(23)));
  Value step = arith::SelectOp::create(
      b, l, subnormal, scalarConstant(b, l, f32, 0x1p-9), power);
  Value v = arith::MulFOp::create(
      b, l, arith::UIToFPOp::create(b, l, f32, digits), step);
  Value nan = arith::AndIOp::create(b, l, eq(e, 15), eq(m, 7));
  v = arith::SelectOp::create(b, l, nan,
                              scalarConstant(b, l, f32, std::nan("")), v);
  Value negative = eq(arith::AndIOp::create(b, l, q, c(0x80)), 0x80);
  return arith::SelectOp::create(b, l, negative, arith::NegFOp::create(b, l, v),
                                 v);
}

/// A microscaling group scale (a uint8 code in an i32) as float32: e8m0's
/// 2^(s - 127) (s = 0 is 2^-127, as MLX's bfloat16 0x0040), or e4m3.
static Value decodeScale(OpBuilder &b, Location l, Value s,
                         QuantizationMode mode) {
  if (mode == QuantizationMode::nvfp4)
    return decodeFp8E4M3(b, l, s);
  Type i32 = b.getI32Type();
  Value zero =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, s,
                            arith::ConstantIntOp::create(b, l, i32, 0));
  Value bits = arith::SelectOp::create(
      b, l, zero, arith::ConstantIntOp::create(b, l, i32, 0x00400000),
      arith::ShLIOp::create(b, l, s,
                            arith::ConstantIntOp::create(b, l, i32, 23)));
  return arith::BitcastOp::create(b, l, b.getF32Type(), bits);
}

/// Dequantizes `packed` (storage of an mlx tensor of `packedType`, [...,
/// rows, words]) with `scales`/`biases` of `scalesType` into a tensor of
/// `dtype` (affine: the scales' dtype), [..., rows, cols], or [..., cols,
/// rows] when `transposed`. The microscaling modes have no biases.
static Value buildDequantize(OpBuilder &b, Location loc, Value packed,
                             RankedTensorType packedType, Value scales,
                             Value biases, RankedTensorType scalesType,
                             Type biasDtype, int64_t groupSize, int64_t bits,
                             bool transposed,
                             QuantizationMode mode = QuantizationMode::affine,
                             Type dtype = {}) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = packedType.getRank();
  int64_t rows = packedType.getDimSize(rank - 2);
  int64_t words = packedType.getDimSize(rank - 1);
  int64_t cols = words * 32 / bits;
  bool affine = mode == QuantizationMode::affine;
  if (affine || !dtype)
    dtype = scalesType.getElementType();
  SmallVector<int64_t> shape(packedType.getShape().drop_back(2));
  if (transposed)
    shape.append({cols, rows});
  else
    shape.append({rows, cols});
  auto storage = RankedTensorType::get(shape, toStorageType(dtype));
  // Loop dims: batch..., then (row, col) or (col, row).
  int64_t rowDim = transposed ? rank - 1 : rank - 2;
  int64_t colDim = transposed ? rank - 2 : rank - 1;
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank - 2; ++d)
    exprs.push_back(getAffineDimExpr(d, ctx));
  exprs.push_back(getAffineDimExpr(rowDim, ctx));
  exprs.push_back(getAffineDimExpr(colDim, ctx).floorDiv(groupSize));
  AffineMap groupMap = AffineMap::get(rank, 0, exprs, ctx);
  SmallVector<Value> inputs = {scales};
  if (affine)
    inputs.push_back(biases);
  SmallVector<AffineMap> maps(inputs.size(), groupMap);
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  Value init = tensor::EmptyOp::create(b, loc, shape, storage.getElementType());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  // MLX dequantizes float64 in float32 too.
  Type ct = b.getF32Type();
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{storage}, inputs, init, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        SmallVector<Value> rowCoords;
        for (int64_t d = 0; d < rank - 2; ++d)
          rowCoords.push_back(linalg::IndexOp::create(nb, l, d));
        rowCoords.push_back(linalg::IndexOp::create(nb, l, rowDim));
        Value col = linalg::IndexOp::create(nb, l, colDim);
        Value q = readPacked(nb, l, packed, rowCoords, col, bits, words);
        if (!affine) {
          Value code = arith::ExtUIOp::create(nb, l, nb.getI32Type(), args[0]);
          Value w = bits == 4 ? decodeFp4(nb, l, q) : decodeFp8E4M3(nb, l, q);
          Value v =
              arith::MulFOp::create(nb, l, w, decodeScale(nb, l, code, mode));
          linalg::YieldOp::create(nb, l, castScalar(nb, l, v, ct, dtype));
          return;
        }
        Value qf = arith::UIToFPOp::create(nb, l, ct, q);
        Value scale = castScalar(nb, l, args[0], dtype, ct);
        Value bias = castScalar(nb, l, args[1], biasDtype, ct);
        // MLX computes in the scales' dtype: for half scales q * scale is
        // exact in f32, so rounding it and then the sum gives MLX's bits.
        Value m = arith::MulFOp::create(nb, l, qf, scale);
        if (dtype.isF16() || dtype.isBF16())
          m = castScalar(nb, l, castScalar(nb, l, m, ct, dtype), dtype, ct);
        Value r = arith::AddFOp::create(nb, l, m, bias);
        linalg::YieldOp::create(nb, l, castScalar(nb, l, r, ct, dtype));
      });
  return generic.getResult(0);
}

/// Dequantization lowers every mode; quantization the affine one only
/// (the others are rejected by convert-mlx-to-linalg before the patterns
/// run).
template <typename OpTy> static bool isAffine(OpTy op) {
  return op.getMode() == QuantizationMode::affine;
}

/// Whether `op` has what its mode needs: biases exactly in affine mode, the
/// microscaling modes' bits and group sizes.
template <typename OpTy> static bool hasModeOperands(OpTy op) {
  switch (op.getMode()) {
  case QuantizationMode::affine:
    return static_cast<bool>(op.getBiases());
  case QuantizationMode::mxfp4:
    return !op.getBiases() && op.getBits() == 4 && op.getGroupSize() == 32;
  case QuantizationMode::mxfp8:
    return !op.getBiases() && op.getBits() == 8 && op.getGroupSize() == 32;
  case QuantizationMode::nvfp4:
    return !op.getBiases() && op.getBits() == 4 && op.getGroupSize() == 16;
  }
  return false;
}

/// The biases' dtype, or none (microscaling modes).
template <typename OpTy> static Type getBiasDtype(OpTy op) {
  return op.getBiases()
             ? cast<RankedTensorType>(op.getBiases().getType()).getElementType()
             : Type();
}

/// x @ dequantize(w) (w.T with `transposed`) for static operands of (mlx)
/// types `xType` [..., M, K] (or [K]) and `wType`, with the result of
/// `type`: the dequantized matrix, then the matmul lowering.
static Value buildQuantizedProduct(OpBuilder &b, Location loc, Value x,
                                   RankedTensorType xType, Value w,
                                   RankedTensorType wType, Value scales,
                                   RankedTensorType sType, Value biases,
                                   Type biasDtype, int64_t groupSize,
                                   int64_t bits, bool transposed,
                                   QuantizationMode mode,
                                   RankedTensorType type) {
  // With transpose, w is [N, K] and x @ w.T reads it as [K, N]: dequantize
  // straight into that layout (microscaled weights in x's dtype, exactly).
  bool affine = mode == QuantizationMode::affine;
  Type wDtype = affine ? sType.getElementType() : xType.getElementType();
  Value wd = buildDequantize(b, loc, w, wType, scales, biases, sType,
                             biasDtype, groupSize, bits, transposed, mode,
                             wDtype);
  auto wdType = cast<RankedTensorType>(wd.getType()).clone(wDtype);
  // A vector x is a one-row matrix whose row axis the result drops.
  RankedTensorType mmType = type;
  if (xType.getRank() == 1) {
    int64_t k = xType.getDimSize(0);
    x = lowering::reshapeTensor(b, loc, x, {1, k});
    xType = xType.clone({1, k});
    SmallVector<int64_t> shape(type.getShape());
    shape.insert(shape.end() - 1, 1);
    mmType = type.clone(shape);
  }
  Value result = lowering::buildMatmul(b, loc, x, xType, wd, wdType, mmType);
  return lowering::reshapeTensor(b, loc, result, type.getShape());
}

Value lowering::buildQuantizedMatmul(OpBuilder &b,
                                     kernel::QuantizedMatmulOp op) {
  auto tensorType = [](Value v) { return cast<RankedTensorType>(v.getType()); };
  RankedTensorType sType = tensorType(op.getScales());
  return buildQuantizedProduct(
      b, op.getLoc(), op.getX(), tensorType(op.getX()), op.getPacked(),
      tensorType(op.getPacked()), op.getScales(), sType, op.getBiases(),
      sType.getElementType(), op.getGroupSize(), op.getBits(),
      /*transposed=*/true, QuantizationMode::affine, tensorType(op.getInit()));
}

namespace {
struct DequantizeOpLowering final : OpConversionPattern<DequantizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto wType = cast<RankedTensorType>(op.getW().getType());
    auto sType = cast<RankedTensorType>(op.getScales().getType());
    auto type = cast<RankedTensorType>(op.getType());
    if (!hasModeOperands(op))
      return rewriter.notifyMatchFailure(op, "operands do not fit the mode");
    if (!wType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    Value result = buildDequantize(rewriter, op.getLoc(), adaptor.getW(), wType,
                                   adaptor.getScales(), adaptor.getBiases(),
                                   sType, getBiasDtype(op), op.getGroupSize(),
                                   op.getBits(), /*transposed=*/false,
                                   op.getMode(), type.getElementType());
    // An explicit dtype converts the result computed in the scales' dtype.
    Type sDtype = sType.getElementType();
    if (isAffine(op) && type.getElementType() != sDtype)
      result = lowering::buildElementwiseGeneric(
          rewriter, op.getLoc(), type, result, {type.clone(sDtype)},
          [&](OpBuilder &b, Location l, ValueRange args) {
            return castScalar(b, l, args[0], sDtype, type.getElementType());
          });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct QuantizedMatmulOpLowering final
    : OpConversionPattern<QuantizedMatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QuantizedMatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto xType = cast<RankedTensorType>(op.getX().getType());
    auto wType = cast<RankedTensorType>(op.getW().getType());
    auto sType = cast<RankedTensorType>(op.getScales().getType());
    auto type = cast<RankedTensorType>(op.getType());
    if (!hasModeOperands(op))
      return rewriter.notifyMatchFailure(op, "operands do not fit the mode");
    if (!xType.hasStaticShape() || !wType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    // An affine x @ w.T (every nn.QuantizedLinear) is one op that kernel
    // formation lowers as the target can (a kernel that reads the packed
    // words, or the dequantized matrix and a product).
    if (isAffine(op) && op.getTranspose() && wType.getRank() == 2 &&
        llvm::is_contained({2, 3, 4, 5, 6, 8}, op.getBits()) &&
        llvm::is_contained({32, 64, 128}, op.getGroupSize())) {
      RankedTensorType storage = lowering::getStorageType(type);
      Value init = tensor::EmptyOp::create(rewriter, loc, storage.getShape(),
                                           storage.getElementType());
      rewriter.replaceOpWithNewOp<kernel::QuantizedMatmulOp>(
          op, TypeRange{storage}, adaptor.getX(), adaptor.getW(),
          adaptor.getScales(), adaptor.getBiases(), init,
          op.getGroupSizeAttr(), op.getBitsAttr());
      return success();
    }
    rewriter.replaceOp(
        op, buildQuantizedProduct(rewriter, loc, adaptor.getX(), xType,
                                  adaptor.getW(), wType, adaptor.getScales(),
                                  sType, adaptor.getBiases(), getBiasDtype(op),
                                  op.getGroupSize(), op.getBits(),
                                  op.getTranspose(), op.getMode(), type));
    return success();
  }
};

/// gather_qmm: x, the packed words, scales and biases gathered for the
/// result's batch, then as quantized_matmul.
struct GatherQmmOpLowering final : OpConversionPattern<GatherQmmOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherQmmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    if (!hasModeOperands(op))
      return rewriter.notifyMatchFailure(op, "operands do not fit the mode");
    if (!type.hasStaticShape() ||
        !cast<RankedTensorType>(op.getX().getType()).hasStaticShape() ||
        !cast<RankedTensorType>(op.getW().getType()).hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    ArrayRef<int64_t> outBatch = type.getShape().drop_back(2);
    auto indexType = [](Value v) {
      return v ? cast<RankedTensorType>(v.getType()) : RankedTensorType();
    };
    // Returns the gathered storage and its mlx type.
    auto gathered = [&](Value original, Value converted, Value idx,
                        Value idxOriginal) {
      auto t = cast<RankedTensorType>(original.getType());
      Value g = lowering::gatherMatrices(rewriter, loc, converted, t, idx,
                                         indexType(idxOriginal), outBatch);
      return std::make_pair(
          g, cast<RankedTensorType>(g.getType()).clone(t.getElementType()));
    };
    Value lhsIdx = adaptor.getLhsIndices(), rhsIdx = adaptor.getRhsIndices();
    auto [x, xType] =
        gathered(op.getX(), adaptor.getX(), lhsIdx, op.getLhsIndices());
    auto [w, wType] =
        gathered(op.getW(), adaptor.getW(), rhsIdx, op.getRhsIndices());
    auto [scales, sType] = gathered(op.getScales(), adaptor.getScales(), rhsIdx,
                                    op.getRhsIndices());
    Value biases;
    if (op.getBiases())
      biases = gathered(op.getBiases(), adaptor.getBiases(), rhsIdx,
                        op.getRhsIndices())
                   .first;
    Type wDtype =
        isAffine(op) ? sType.getElementType() : xType.getElementType();
    Value wd =
        buildDequantize(rewriter, loc, w, wType, scales, biases, sType,
                        getBiasDtype(op), op.getGroupSize(), op.getBits(),
                        op.getTranspose(), op.getMode(), wDtype);
    auto wdType = cast<RankedTensorType>(wd.getType()).clone(wDtype);
    rewriter.replaceOp(
        op, lowering::buildMatmul(rewriter, loc, x, xType, wd, wdType, type));
    return success();
  }
};

/// quantize: per-group min/max (a reduction), then scale and bias per
/// group, then one generic over the packed words that quantizes the values
/// each word holds.
struct QuantizeOpLowering final : OpConversionPattern<QuantizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QuantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto wType = cast<RankedTensorType>(op.getW().getType());
    if (!isAffine(op))
      return rewriter.notifyMatchFailure(op, "only affine mode is lowered");
    if (!wType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes are not lowered");
    int64_t rank = wType.getRank();
    int64_t groupSize = op.getGroupSize(), bits = op.getBits();
    int64_t cols = wType.getDimSize(rank - 1);
    int64_t groups = cols / groupSize;
    int64_t words = cols * bits / 32;
    Type dtype = wType.getElementType();
    // MLX's kernel computes in float32 for every input dtype, float64 too.
    Type ct = rewriter.getF32Type();
    Value w = adaptor.getW();

    // Per-group minimum and maximum, as std::min/std::max fold them.
    SmallVector<int64_t> groupShape(wType.getShape().drop_back());
    groupShape.push_back(groups);
    SmallVector<int64_t> splitShape(groupShape);
    splitShape.push_back(groupSize);
    Value split = lowering::reshapeTensor(rewriter, loc, w, splitShape);
    auto groupType = RankedTensorType::get(groupShape, ct);
    auto filled = [&](double v) {
      Value empty = tensor::EmptyOp::create(rewriter, loc, groupShape, ct);
      return linalg::FillOp::create(rewriter, loc,
                                    scalarConstant(rewriter, loc, ct, v), empty)
          .getResult(0);
    };
    AffineMap splitMap = AffineMap::getMultiDimIdentityMap(rank + 1, ctx);
    AffineMap groupMap = splitMap.dropResult(rank);
    SmallVector<utils::IteratorType> reduceIters(rank + 1,
                                                 utils::IteratorType::parallel);
    reduceIters.back() = utils::IteratorType::reduction;
    auto extremes = linalg::GenericOp::create(
        rewriter, loc, TypeRange{groupType, groupType}, ValueRange{split},
        ValueRange{filled(INFINITY), filled(-INFINITY)},
        ArrayRef<AffineMap>{splitMap, groupMap, groupMap}, reduceIters,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = castScalar(b, l, args[0], dtype, ct);
          Value less = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, x,
                                             args[1]);
          Value more = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT,
                                             args[2], x);
          linalg::YieldOp::create(
              b, l,
              ValueRange{arith::SelectOp::create(b, l, less, x, args[1]),
                         arith::SelectOp::create(b, l, more, x, args[2])});
        });

    // Scale and bias: the edge farther from zero maps exactly onto a
    // quantization level. The float32 values quantize; the stored ones are
    // rounded to the dtype of w.
    Type storage = toStorageType(dtype);
    auto emptyOf = [&](Type t) {
      return tensor::EmptyOp::create(rewriter, loc, groupShape, t).getResult();
    };
    AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    double levels = static_cast<double>((1 << bits) - 1);
    // The rounded copies are extra results only when the dtype differs.
    bool rounded = storage != ct;
    SmallVector<Value> paramInits = {emptyOf(ct), emptyOf(ct)};
    if (rounded)
      paramInits.append({emptyOf(storage), emptyOf(storage)});
    auto params = linalg::GenericOp::create(
        rewriter, loc, ValueRange(paramInits).getTypes(), extremes.getResults(),
        paramInits, SmallVector<AffineMap>(paramInits.size() + 2, id), parallel,
        [&](OpBuilder &b, Location l, ValueRange args) {
          auto c = [&](double v) { return scalarConstant(b, l, ct, v); };
          auto lt = [&](Value x, Value y) {
            return arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, x, y);
          };
          Value lo = args[0], hi = args[1];
          Value scale = arith::DivFOp::create(
              b, l, arith::SubFOp::create(b, l, hi, lo), c(levels));
          Value eps = c(1e-7);
          scale = arith::SelectOp::create(b, l, lt(scale, eps), eps, scale);
          Value loFarther = arith::CmpFOp::create(
              b, l, arith::CmpFPredicate::OGT, math::AbsFOp::create(b, l, lo),
              math::AbsFOp::create(b, l, hi));
          scale = arith::SelectOp::create(b, l, loFarther, scale,
                                          arith::NegFOp::create(b, l, scale));
          Value edge = arith::SelectOp::create(b, l, loFarther, lo, hi);
          Value q0 = math::RoundEvenOp::create(
              b, l, arith::DivFOp::create(b, l, edge, scale));
          Value nonZero =
              arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, q0, c(0));
          scale = arith::SelectOp::create(
              b, l, nonZero, arith::DivFOp::create(b, l, edge, q0), scale);
          Value bias = arith::SelectOp::create(b, l, nonZero, edge, c(0));
          SmallVector<Value> results = {scale, bias};
          if (rounded)
            results.append({castScalar(b, l, scale, ct, dtype),
                            castScalar(b, l, bias, ct, dtype)});
          linalg::YieldOp::create(b, l, results);
        });
    Value scaleF = params.getResult(0), biasF = params.getResult(1);

    // Each word gathers the values whose bits it holds (see the file
    // comment); for widths that divide 32 those are 32 / bits whole values.
    SmallVector<int64_t> packedShape(groupShape);
    packedShape.back() = words;
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    Value packedInit = tensor::EmptyOp::create(rewriter, loc, packedShape, i32);
    auto packed = linalg::GenericOp::create(
        rewriter, loc, TypeRange{packedInit.getType()}, ValueRange{},
        packedInit, ArrayRef<AffineMap>{id}, parallel,
        [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> row;
          for (int64_t d = 0; d < rank - 1; ++d)
            row.push_back(linalg::IndexOp::create(b, l, d));
          Value p = linalg::IndexOp::create(b, l, rank - 1);
          // The quantized value of element `e` (an index) of the row.
          auto quantized = [&](Value e, Type intType) {
            SmallVector<Value> at(row), groupAt(row);
            at.push_back(e);
            groupAt.push_back(
                arith::DivUIOp::create(b, l, e, indexConst(b, l, groupSize)));
            Value x = castScalar(b, l, tensor::ExtractOp::create(b, l, w, at),
                                 dtype, ct);
            Value scale = tensor::ExtractOp::create(b, l, scaleF, groupAt);
            Value bias = tensor::ExtractOp::create(b, l, biasF, groupAt);
            Value v = math::RoundEvenOp::create(
                b, l,
                arith::DivFOp::create(
                    b, l, arith::SubFOp::create(b, l, x, bias), scale));
            Value zero = scalarConstant(b, l, ct, 0);
            Value top = scalarConstant(b, l, ct, levels);
            v = arith::SelectOp::create(
                b, l,
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, v, zero),
                zero, v);
            v = arith::SelectOp::create(
                b, l,
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, top, v),
                top, v);
            return arith::FPToUIOp::create(b, l, intType, v).getResult();
          };
          if (32 % bits == 0) {
            int64_t perWord = 32 / bits;
            Value first =
                arith::MulIOp::create(b, l, p, indexConst(b, l, perWord));
            Value word = arith::ConstantIntOp::create(b, l, i32, 0);
            for (int64_t k = 0; k < perWord; ++k) {
              Value e = arith::AddIOp::create(b, l, first, indexConst(b, l, k));
              Value q = arith::ShLIOp::create(
                  b, l, quantized(e, i32),
                  arith::ConstantIntOp::create(b, l, i32, k * bits));
              word = arith::OrIOp::create(b, l, word, q);
            }
            linalg::YieldOp::create(b, l, word);
            return;
          }
          // Values first..first+n-1 overlap bits [32p, 32p + 32). Each one is
          // placed at (offset + 32) in a 64-bit accumulator, offset > -bits
          // its first bit relative to the word; the word is bits 32..63.
          Value bitPos = arith::MulIOp::create(b, l, p, indexConst(b, l, 32));
          Value first =
              arith::DivUIOp::create(b, l, bitPos, indexConst(b, l, bits));
          int64_t count = 32 / bits + 2;
          Value acc = arith::ConstantIntOp::create(b, l, i64, 0);
          for (int64_t k = 0; k < count; ++k) {
            Value e = arith::AddIOp::create(b, l, first, indexConst(b, l, k));
            Value at = arith::AddIOp::create(
                b, l,
                arith::SubIOp::create(
                    b, l,
                    arith::MulIOp::create(b, l, e, indexConst(b, l, bits)),
                    bitPos),
                indexConst(b, l, 32));
            Value valid = arith::AndIOp::create(
                b, l,
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, e,
                                      indexConst(b, l, cols)),
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, at,
                                      indexConst(b, l, 64)));
            Value safeE =
                arith::MinUIOp::create(b, l, e, indexConst(b, l, cols - 1));
            Value q = arith::SelectOp::create(
                b, l, valid, quantized(safeE, i64),
                arith::ConstantIntOp::create(b, l, i64, 0));
            Value amount = arith::SelectOp::create(
                b, l, valid, arith::IndexCastOp::create(b, l, i64, at),
                arith::ConstantIntOp::create(b, l, i64, 0));
            acc = arith::OrIOp::create(b, l, acc,
                                       arith::ShLIOp::create(b, l, q, amount));
          }
          Value word = arith::ShRUIOp::create(
              b, l, acc, arith::ConstantIntOp::create(b, l, i64, 32));
          linalg::YieldOp::create(
              b, l, Value(arith::TruncIOp::create(b, l, i32, word)));
        });
    unsigned stored = rounded ? 2 : 0;
    rewriter.replaceOp(op, {packed.getResult(0), params.getResult(stored),
                            params.getResult(stored + 1)});
    return success();
  }
};
} // namespace

void mlx::populateMlxQuantizedToLinalgPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<QuantizeOpLowering, DequantizeOpLowering,
               QuantizedMatmulOpLowering, GatherQmmOpLowering>(
      converter, patterns.getContext());
}
