//===- LinalgOps.cpp - matmul, quantization, fast ops, conv, random -------===//

#include "Mlx/MlxOps.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mlx;

static bool sizesConflict(int64_t a, int64_t b) {
  return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
}

/// The result type of `[batch..., M, K] @ [batch..., K, N]`, with MLX's 1-D
/// promotion and batch broadcasting.
/// gather_mm/gather_qmm pass `broadcastBatch = false`: their indices pick
/// the batches.
static FailureOr<RankedTensorType> inferMatmulType(std::optional<Location> loc,
                                                   StringRef opName,
                                                   RankedTensorType a,
                                                   RankedTensorType b,
                                                   bool broadcastBatch = true) {
  if (a.getRank() == 0 || b.getRank() == 0)
    return emitInferError(loc, opName, "operands must have at least one axis");
  Type dtype = promoteTypes(a.getElementType(), b.getElementType());
  if (getDtypeCategory(dtype) != DtypeCategory::Float)
    return emitInferError(loc, opName,
                          "supports floating dtypes only, got " +
                              getDtypeName(a.getElementType()) + " and " +
                              getDtypeName(b.getElementType()));
  Shape aShape(a.getShape()), bShape(b.getShape());
  if (a.getRank() == 1)
    aShape.insert(aShape.begin(), 1);
  if (b.getRank() == 1)
    bShape.push_back(1);
  int64_t k1 = aShape.back(), k2 = bShape[bShape.size() - 2];
  if (sizesConflict(k1, k2))
    return emitInferError(
        loc, opName,
        "contraction sizes differ: " + formatShape(a.getShape()) + " @ " +
            formatShape(b.getShape()));
  ArrayRef<int64_t> aBatch = ArrayRef<int64_t>(aShape).drop_back(2);
  ArrayRef<int64_t> bBatch = ArrayRef<int64_t>(bShape).drop_back(2);
  FailureOr<Shape> shape =
      broadcastBatch ? broadcastShapes({aBatch, bBatch}) : Shape();
  if (failed(shape))
    return emitInferError(loc, opName,
                          "batch shapes " + formatShape(aBatch) + " and " +
                              formatShape(bBatch) + " do not broadcast");
  if (a.getRank() > 1)
    shape->push_back(aShape[aShape.size() - 2]);
  if (b.getRank() > 1)
    shape->push_back(bShape.back());
  return RankedTensorType::get(*shape, dtype);
}

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  FailureOr<RankedTensorType> type =
      inferMatmulType(loc, getOperationName(), tensorType(adaptor.getLhs()),
                      tensorType(adaptor.getRhs()));
  if (failed(type))
    return failure();
  types.push_back(*type);
  return success();
}

LogicalResult AddmmOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  FailureOr<RankedTensorType> type =
      inferMatmulType(loc, getOperationName(), tensorType(adaptor.getA()),
                      tensorType(adaptor.getB()));
  if (failed(type))
    return failure();
  RankedTensorType c = tensorType(adaptor.getC());
  FailureOr<Shape> shape = broadcastShapes({c.getShape(), type->getShape()});
  if (failed(shape) || ArrayRef<int64_t>(*shape) != type->getShape())
    return emitInferError(loc, getOperationName(),
                          "c of shape " + formatShape(c.getShape()) +
                              " does not broadcast to the product shape " +
                              formatShape(type->getShape()));
  types.push_back(
      type->clone(promoteTypes(type->getElementType(), c.getElementType())));
  return success();
}

/// Checks that `a` holds float32 or float64 matrices (MLX's CPU kernels of
/// linear algebra take no other dtype), square ones if `square`.
static LogicalResult verifyMatrices(std::optional<Location> loc,
                                    StringRef opName, RankedTensorType a,
                                    bool square) {
  if (a.getRank() < 2 || (square && sizesConflict(a.getDimSize(a.getRank() - 2),
                                                  a.getShape().back())))
    return emitInferError(loc, opName,
                          Twine("needs ") + (square ? "square " : "") +
                              "matrices in the last two axes, got " +
                              formatShape(a.getShape()));
  if (!a.getElementType().isF32() && !a.getElementType().isF64())
    return emitInferError(loc, opName,
                          "supports float32 and float64 only (as MLX), got " +
                              getDtypeName(a.getElementType()));
  return success();
}

/// The type of inverse/cholesky: `a`'s own.
static LogicalResult inferSquareMatrices(std::optional<Location> loc,
                                         StringRef opName, RankedTensorType a,
                                         SmallVectorImpl<Type> &types) {
  if (failed(verifyMatrices(loc, opName, a, /*square=*/true)))
    return failure();
  types.push_back(a);
  return success();
}

LogicalResult QrOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                     Adaptor adaptor,
                                     SmallVectorImpl<Type> &types) {
  RankedTensorType a = tensorType(adaptor.getA());
  if (failed(verifyMatrices(loc, getOperationName(), a, /*square=*/false)))
    return failure();
  int64_t rank = a.getRank(), m = a.getDimSize(rank - 2),
          n = a.getDimSize(rank - 1);
  int64_t k = ShapedType::isDynamic(m) || ShapedType::isDynamic(n)
                  ? ShapedType::kDynamic
                  : std::min(m, n);
  Shape q(a.getShape()), r(a.getShape());
  q[rank - 1] = k;
  r[rank - 2] = k;
  types.push_back(a.clone(q));
  types.push_back(a.clone(r));
  return success();
}

LogicalResult InverseOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  return inferSquareMatrices(loc, getOperationName(),
                             tensorType(adaptor.getA()), types);
}

LogicalResult CholeskyOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  return inferSquareMatrices(loc, getOperationName(),
                             tensorType(adaptor.getA()), types);
}

LogicalResult EigvalshOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  RankedTensorType a = tensorType(adaptor.getA());
  if (failed(verifyMatrices(loc, getOperationName(), a, /*square=*/true)))
    return failure();
  types.push_back(a.clone(a.getShape().drop_back()));
  return success();
}

LogicalResult SvdvalsOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  RankedTensorType a = tensorType(adaptor.getA());
  if (failed(verifyMatrices(loc, getOperationName(), a, /*square=*/false)))
    return failure();
  int64_t rank = a.getRank(), m = a.getDimSize(rank - 2),
          n = a.getDimSize(rank - 1);
  Shape shape(a.getShape().drop_back());
  shape.back() = ShapedType::isDynamic(m) || ShapedType::isDynamic(n)
                     ? ShapedType::kDynamic
                     : std::min(m, n);
  types.push_back(a.clone(shape));
  return success();
}

/// Checks one mask of block_masked_mm: boolean or float, its last two axes
/// `rows` x `cols` blocks, its batch broadcasting to `batch`.
static LogicalResult verifyBlockMask(std::optional<Location> loc,
                                     StringRef opName, StringRef what,
                                     Value mask, ArrayRef<int64_t> batch,
                                     int64_t rows, int64_t cols) {
  RankedTensorType type = tensorType(mask);
  DtypeCategory category = getDtypeCategory(type.getElementType());
  if (category != DtypeCategory::Bool && category != DtypeCategory::Float)
    return emitInferError(loc, opName,
                          what + " must be boolean or float, got " +
                              getDtypeName(type.getElementType()));
  Shape want(batch);
  want.append({rows, cols});
  ArrayRef<int64_t> shape = type.getShape();
  FailureOr<Shape> joint = broadcastShapes({shape, want});
  if (type.getRank() < 2 || failed(joint) ||
      ArrayRef<int64_t>(*joint) != ArrayRef<int64_t>(want) ||
      sizesConflict(shape[shape.size() - 2], rows) ||
      sizesConflict(shape.back(), cols))
    return emitInferError(loc, opName,
                          what + " of shape " + formatShape(shape) +
                              " does not give one value per block of " +
                              formatShape(want));
  return success();
}

LogicalResult BlockMaskedMmOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  RankedTensorType a = tensorType(adaptor.getA()),
                   b = tensorType(adaptor.getB());
  if (a.getRank() < 2 || b.getRank() < 2)
    return emitInferError(loc, name, "operands must be at least 2-D");
  if (a.getElementType() != b.getElementType())
    return emitInferError(loc, name,
                          "operands must have one dtype, got " +
                              getDtypeName(a.getElementType()) + " and " +
                              getDtypeName(b.getElementType()));
  int64_t blockSize = adaptor.getBlockSize();
  if (blockSize != 32 && blockSize != 64)
    return emitInferError(
        loc, name, "block_size must be 32 or 64, got " + Twine(blockSize));
  if (static_cast<bool>(adaptor.getMaskLhs()) !=
      static_cast<bool>(adaptor.getMaskRhs()))
    return emitInferError(loc, name,
                          "mask_lhs and mask_rhs must come together");
  FailureOr<RankedTensorType> product = inferMatmulType(loc, name, a, b);
  if (failed(product))
    return failure();
  ArrayRef<int64_t> shape = product->getShape();
  ArrayRef<int64_t> batch = shape.drop_back(2);
  auto blocks = [&](int64_t size) {
    return ShapedType::isDynamic(size) ? size
                                       : llvm::divideCeil(size, blockSize);
  };
  int64_t m = blocks(shape[shape.size() - 2]), n = blocks(shape.back()),
          k = blocks(a.getShape().back());
  if (Value mask = adaptor.getMaskOut())
    if (failed(verifyBlockMask(loc, name, "mask_out", mask, batch, m, n)))
      return failure();
  if (Value mask = adaptor.getMaskLhs())
    if (failed(verifyBlockMask(loc, name, "mask_lhs", mask, batch, m, k)))
      return failure();
  if (Value mask = adaptor.getMaskRhs())
    if (failed(verifyBlockMask(loc, name, "mask_rhs", mask, batch, k, n)))
      return failure();
  types.push_back(*product);
  return success();
}

/// The batch shape of gather_mm/gather_qmm: the index arrays (or the
/// operand's own batch when an index is absent) broadcast together.
static FailureOr<Shape> inferGatherBatch(std::optional<Location> loc,
                                         StringRef opName,
                                         ArrayRef<int64_t> aBatch,
                                         ArrayRef<int64_t> bBatch,
                                         Value lhsIndices, Value rhsIndices) {
  ArrayRef<int64_t> lhs =
      lhsIndices ? tensorType(lhsIndices).getShape() : aBatch;
  ArrayRef<int64_t> rhs =
      rhsIndices ? tensorType(rhsIndices).getShape() : bBatch;
  FailureOr<Shape> shape = broadcastShapes({lhs, rhs});
  if (failed(shape))
    return emitInferError(loc, opName,
                          "index shapes " + formatShape(lhs) + " and " +
                              formatShape(rhs) + " do not broadcast");
  return shape;
}

LogicalResult GatherMmOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  RankedTensorType a = tensorType(adaptor.getA()),
                   b = tensorType(adaptor.getB());
  if (a.getRank() < 2 || b.getRank() < 2)
    return emitInferError(loc, getOperationName(),
                          "operands must be at least 2-D");
  FailureOr<RankedTensorType> product =
      inferMatmulType(loc, getOperationName(), a, b, /*broadcastBatch=*/false);
  if (failed(product))
    return failure();
  FailureOr<Shape> shape =
      inferGatherBatch(loc, getOperationName(), a.getShape().drop_back(2),
                       b.getShape().drop_back(2), adaptor.getLhsIndices(),
                       adaptor.getRhsIndices());
  if (failed(shape))
    return failure();
  shape->append({a.getDimSize(a.getRank() - 2), b.getDimSize(b.getRank() - 1)});
  types.push_back(RankedTensorType::get(*shape, product->getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Quantization
//===----------------------------------------------------------------------===//

/// Checks group size and bits against what MLX supports for `mode`.
static LogicalResult verifyQuantization(std::optional<Location> loc,
                                        StringRef opName, QuantizationMode mode,
                                        int64_t groupSize, int64_t bits) {
  bool ok = false;
  switch (mode) {
  case QuantizationMode::affine:
    ok = (groupSize == 32 || groupSize == 64 || groupSize == 128) &&
         (bits == 2 || bits == 3 || bits == 4 || bits == 5 || bits == 6 ||
          bits == 8);
    break;
  case QuantizationMode::mxfp4:
    ok = groupSize == 32 && bits == 4;
    break;
  case QuantizationMode::mxfp8:
    ok = groupSize == 32 && bits == 8;
    break;
  case QuantizationMode::nvfp4:
    ok = groupSize == 16 && bits == 4;
    break;
  }
  if (!ok)
    return emitInferError(loc, opName,
                          "group_size " + Twine(groupSize) + " with " +
                              Twine(bits) + " bits is not supported in " +
                              stringifyQuantizationMode(mode) + " mode");
  return success();
}

/// Checks the packed matrix and its scales/biases; returns the unpacked
/// (rows, columns) of the quantized matrix.
static FailureOr<std::pair<int64_t, int64_t>>
verifyPackedMatrix(std::optional<Location> loc, StringRef opName,
                   RankedTensorType w, RankedTensorType scales, Value biases,
                   QuantizationMode mode, int64_t groupSize, int64_t bits) {
  if (failed(verifyQuantization(loc, opName, mode, groupSize, bits)))
    return failure();
  if (!w.getElementType().isUnsignedInteger(32) || w.getRank() < 2)
    return emitInferError(loc, opName,
                          "packed matrix must be uint32 with at least 2 axes");
  bool affine = mode == QuantizationMode::affine;
  if (affine != static_cast<bool>(biases))
    return emitInferError(loc, opName,
                          affine ? "affine mode needs biases"
                                 : "only affine mode takes biases");
  if (!affine && !scales.getElementType().isUnsignedInteger(8))
    return emitInferError(loc, opName,
                          Twine(stringifyQuantizationMode(mode)) +
                              " scales must be uint8, got " +
                              getDtypeName(scales.getElementType()));
  int64_t rows = w.getDimSize(w.getRank() - 2);
  int64_t packed = w.getDimSize(w.getRank() - 1);
  int64_t columns = ShapedType::isDynamic(packed) ? packed : packed * 32 / bits;
  Shape expected(w.getShape());
  expected.back() =
      ShapedType::isDynamic(columns) ? columns : columns / groupSize;
  auto matches = [&](RankedTensorType t) {
    return t.getShape() == ArrayRef<int64_t>(expected);
  };
  if (!matches(scales) || (biases && !matches(tensorType(biases))))
    return emitInferError(loc, opName,
                          "scales (and biases) need shape " +
                              formatShape(expected) + " for a packed matrix " +
                              formatShape(w.getShape()) + ", got " +
                              formatShape(scales.getShape()));
  return std::make_pair(rows, columns);
}

LogicalResult
QuantizedMatmulOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                    Adaptor adaptor,
                                    SmallVectorImpl<Type> &types) {
  RankedTensorType x = tensorType(adaptor.getX());
  RankedTensorType w = tensorType(adaptor.getW());
  auto dims = verifyPackedMatrix(loc, getOperationName(), w,
                                 tensorType(adaptor.getScales()),
                                 adaptor.getBiases(), adaptor.getMode(),
                                 adaptor.getGroupSize(), adaptor.getBits());
  if (failed(dims))
    return failure();
  auto [rows, columns] = *dims;
  // With transpose the matrix is [N, K]; without it [K, N].
  int64_t k = adaptor.getTranspose() ? columns : rows;
  int64_t n = adaptor.getTranspose() ? rows : columns;
  if (x.getRank() < 1 ||
      getDtypeCategory(x.getElementType()) != DtypeCategory::Float)
    return emitInferError(loc, getOperationName(),
                          "x must be a floating tensor with at least one axis");
  if (sizesConflict(x.getDimSize(x.getRank() - 1), k))
    return emitInferError(loc, getOperationName(),
                          "x of shape " + formatShape(x.getShape()) +
                              " does not match the inner size " + Twine(k) +
                              " of the quantized matrix");
  ArrayRef<int64_t> xBatch =
      x.getShape().drop_back(std::min<int64_t>(x.getRank(), 2));
  FailureOr<Shape> shape = broadcastShapes({xBatch, w.getShape().drop_back(2)});
  if (failed(shape))
    return emitInferError(loc, getOperationName(),
                          "batch shapes do not broadcast");
  if (x.getRank() > 1)
    shape->push_back(x.getDimSize(x.getRank() - 2));
  shape->push_back(n);
  // MLX computes in the promoted dtype of x and the scales (f16 x with f32
  // scales gives f32).
  types.push_back(RankedTensorType::get(
      *shape, promoteTypes(x.getElementType(),
                           tensorType(adaptor.getScales()).getElementType())));
  return success();
}

LogicalResult GatherQmmOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  RankedTensorType x = tensorType(adaptor.getX());
  RankedTensorType w = tensorType(adaptor.getW());
  auto dims = verifyPackedMatrix(loc, getOperationName(), w,
                                 tensorType(adaptor.getScales()),
                                 adaptor.getBiases(), adaptor.getMode(),
                                 adaptor.getGroupSize(), adaptor.getBits());
  if (failed(dims))
    return failure();
  auto [rows, columns] = *dims;
  int64_t k = adaptor.getTranspose() ? columns : rows;
  int64_t n = adaptor.getTranspose() ? rows : columns;
  if (x.getRank() < 2 ||
      getDtypeCategory(x.getElementType()) != DtypeCategory::Float ||
      sizesConflict(x.getDimSize(x.getRank() - 1), k))
    return emitInferError(loc, getOperationName(),
                          "x must be a floating [..., M, " + Twine(k) +
                              "] tensor, got " + formatShape(x.getShape()));
  FailureOr<Shape> shape =
      inferGatherBatch(loc, getOperationName(), x.getShape().drop_back(2),
                       w.getShape().drop_back(2), adaptor.getLhsIndices(),
                       adaptor.getRhsIndices());
  if (failed(shape))
    return failure();
  shape->append({x.getDimSize(x.getRank() - 2), n});
  types.push_back(RankedTensorType::get(
      *shape, promoteTypes(x.getElementType(),
                           tensorType(adaptor.getScales()).getElementType())));
  return success();
}

LogicalResult QuantizeOp::inferReturnTypes(MLIRContext *ctx,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  RankedTensorType w = tensorType(adaptor.getW());
  int64_t groupSize = adaptor.getGroupSize(), bits = adaptor.getBits();
  if (failed(verifyQuantization(loc, getOperationName(), adaptor.getMode(),
                                groupSize, bits)))
    return failure();
  if (w.getRank() < 2)
    return emitInferError(loc, getOperationName(),
                          "the matrix to quantize needs at least 2 axes, got " +
                              formatShape(w.getShape()));
  int64_t last = w.getDimSize(w.getRank() - 1);
  if (!ShapedType::isDynamic(last) && last % groupSize != 0)
    return emitInferError(loc, getOperationName(),
                          "last axis " + Twine(last) +
                              " is not a multiple of group_size " +
                              Twine(groupSize));
  auto packedDim = [&](int64_t divisor, int64_t multiplier) {
    return ShapedType::isDynamic(last) ? last : last * multiplier / divisor;
  };
  Shape packed(w.getShape()), scales(w.getShape());
  packed.back() = packedDim(32, bits);
  scales.back() = packedDim(groupSize, 1);
  types.push_back(RankedTensorType::get(
      packed, IntegerType::get(ctx, 32, IntegerType::Unsigned)));
  if (adaptor.getMode() == QuantizationMode::affine) {
    types.push_back(w.clone(scales));
    types.push_back(w.clone(scales));
  } else {
    types.push_back(RankedTensorType::get(
        scales, IntegerType::get(ctx, 8, IntegerType::Unsigned)));
  }
  return success();
}

LogicalResult DequantizeOp::inferReturnTypes(MLIRContext *ctx,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  RankedTensorType w = tensorType(adaptor.getW());
  RankedTensorType scales = tensorType(adaptor.getScales());
  auto dims = verifyPackedMatrix(loc, getOperationName(), w, scales,
                                 adaptor.getBiases(), adaptor.getMode(),
                                 adaptor.getGroupSize(), adaptor.getBits());
  if (failed(dims))
    return failure();
  Type dtype;
  if (adaptor.getDtype())
    dtype = *adaptor.getDtype();
  else if (adaptor.getMode() == QuantizationMode::affine)
    dtype = scales.getElementType();
  else
    dtype = BFloat16Type::get(ctx);
  if (getDtypeCategory(dtype) != DtypeCategory::Float)
    return emitInferError(loc, getOperationName(),
                          "result dtype must be floating, got " +
                              getDtypeName(dtype));
  Shape shape(w.getShape());
  shape.back() = dims->second;
  types.push_back(RankedTensorType::get(shape, dtype));
  return success();
}

std::optional<std::pair<int64_t, int64_t>> HadamardOp::decompose(int64_t size) {
  // MLX takes the first of 12, 20, 28 that divides the size.
  int64_t m = 1;
  if (!llvm::isPowerOf2_64(size))
    for (int64_t factor : {12, 20, 28})
      if (size % factor == 0) {
        m = factor;
        break;
      }
  int64_t n = size / m;
  if (size <= 0 || !llvm::isPowerOf2_64(n) || n > (int64_t(1) << 26))
    return std::nullopt;
  return std::make_pair(m, n);
}

LogicalResult HadamardOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  RankedTensorType x = tensorType(adaptor.getX());
  Type dtype = x.getElementType();
  if (!dtype.isF32() && !dtype.isF16() && !dtype.isBF16())
    return emitInferError(loc, getOperationName(),
                          "takes float16, bfloat16 or float32, got " +
                              getDtypeName(dtype));
  int64_t size = x.getRank() ? x.getDimSize(x.getRank() - 1) : 1;
  if (!ShapedType::isDynamic(size) && !decompose(size))
    return emitInferError(loc, getOperationName(),
                          "the last axis of " + formatShape(x.getShape()) +
                              " is not m * 2^k with m in (1, 12, 20, 28)");
  types.push_back(x);
  return success();
}

//===----------------------------------------------------------------------===//
// Fast ops
//===----------------------------------------------------------------------===//

/// Checks an optional per-feature parameter of the norms (1-D, last axis).
static LogicalResult verifyFeatureVector(std::optional<Location> loc,
                                         StringRef opName, StringRef name,
                                         RankedTensorType x, Value param) {
  if (!param)
    return success();
  RankedTensorType type = tensorType(param);
  if (x.getRank() == 0 || type.getRank() != 1 ||
      sizesConflict(type.getDimSize(0), x.getDimSize(x.getRank() - 1)))
    return emitInferError(
        loc, opName,
        name + " of shape " + formatShape(type.getShape()) +
            " must be 1-D with the size of the last axis of " +
            formatShape(x.getShape()));
  return success();
}

LogicalResult RmsNormOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  RankedTensorType x = tensorType(adaptor.getX());
  if (failed(verifyFeatureVector(loc, getOperationName(), "weight", x,
                                 adaptor.getWeight())))
    return failure();
  Type dtype = x.getElementType();
  if (Value weight = adaptor.getWeight())
    dtype = promoteTypes(dtype, tensorType(weight).getElementType());
  types.push_back(x.clone(dtype));
  return success();
}

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  RankedTensorType x = tensorType(adaptor.getX());
  Type dtype = x.getElementType();
  for (auto [name, param] :
       {std::pair<StringRef, Value>{"weight", adaptor.getWeight()},
        {"bias", adaptor.getBias()}}) {
    if (failed(verifyFeatureVector(loc, getOperationName(), name, x, param)))
      return failure();
    // As MLX: the bias dtype only counts together with a weight.
    if (param && adaptor.getWeight())
      dtype = promoteTypes(dtype, tensorType(param).getElementType());
  }
  types.push_back(x.clone(dtype));
  return success();
}

LogicalResult RopeOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  RankedTensorType x = tensorType(adaptor.getX());
  int64_t dims = adaptor.getDims();
  if (x.getRank() < 3)
    return emitInferError(loc, getOperationName(),
                          "input needs at least 3 axes, got " +
                              formatShape(x.getShape()));
  int64_t features = x.getDimSize(x.getRank() - 1);
  if (dims <= 0 || dims % 2 != 0 ||
      (!ShapedType::isDynamic(features) && dims > features))
    return emitInferError(loc, getOperationName(),
                          "dims " + Twine(dims) +
                              " must be even and at most the feature size " +
                              formatShape(features));
  if (tensorType(adaptor.getOffset()).getRank() > 1)
    return emitInferError(loc, getOperationName(),
                          "offset must be a scalar or one offset per batch");
  if (static_cast<bool>(adaptor.getFreqs()) == adaptor.getBase().has_value())
    return emitInferError(loc, getOperationName(),
                          "needs exactly one of base and freqs");
  if (Value freqs = adaptor.getFreqs()) {
    RankedTensorType type = tensorType(freqs);
    if (type.getRank() != 1 || sizesConflict(type.getDimSize(0), dims / 2))
      return emitInferError(loc, getOperationName(),
                            "freqs must be 1-D of size dims / 2 = " +
                                Twine(dims / 2));
  }
  types.push_back(x);
  return success();
}

LogicalResult ScaledDotProductAttentionOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  RankedTensorType q = tensorType(adaptor.getQueries());
  RankedTensorType k = tensorType(adaptor.getKeys());
  RankedTensorType v = tensorType(adaptor.getValues());
  if (q.getRank() != 4 || k.getRank() != 4 || v.getRank() != 4)
    return emitInferError(
        loc, name,
        "queries, keys and values must be [B, H, L, D], got " +
            formatShape(q.getShape()) + ", " + formatShape(k.getShape()) +
            ", " + formatShape(v.getShape()));
  int64_t hq = q.getDimSize(1), hkv = k.getDimSize(1);
  if (sizesConflict(q.getDimSize(3), k.getDimSize(3)) ||
      sizesConflict(k.getDimSize(2), v.getDimSize(2)) ||
      sizesConflict(hkv, v.getDimSize(1)) ||
      sizesConflict(q.getDimSize(0), k.getDimSize(0)) ||
      sizesConflict(k.getDimSize(0), v.getDimSize(0)) ||
      (!ShapedType::isDynamic(hq) && !ShapedType::isDynamic(hkv) &&
       (hkv == 0 || hq % hkv != 0)))
    return emitInferError(loc, name,
                          "shapes do not form attention (q " +
                              formatShape(q.getShape()) + ", k " +
                              formatShape(k.getShape()) + ", v " +
                              formatShape(v.getShape()) +
                              "): batch, key length and head size must match "
                              "and query heads be a multiple of key heads");
  if (adaptor.getCausal() && adaptor.getMask())
    return emitInferError(loc, name, "takes either causal or a mask, not both");
  Shape scores = {q.getDimSize(0), hq, q.getDimSize(2), k.getDimSize(2)};
  if (Value mask = adaptor.getMask()) {
    RankedTensorType type = tensorType(mask);
    FailureOr<Shape> merged = broadcastShapes({type.getShape(), scores});
    if (failed(merged) || *merged != scores)
      return emitInferError(loc, name,
                            "mask of shape " + formatShape(type.getShape()) +
                                " does not broadcast to the scores " +
                                formatShape(scores));
  }
  if (Value sinks = adaptor.getSinks()) {
    RankedTensorType type = tensorType(sinks);
    if (type.getRank() != 1 || sizesConflict(type.getDimSize(0), hq))
      return emitInferError(loc, name,
                            "sinks must be 1-D with one entry per query head");
  }
  types.push_back(RankedTensorType::get(
      {q.getDimSize(0), hq, q.getDimSize(2), v.getDimSize(3)},
      q.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Convolution, random bits
//===----------------------------------------------------------------------===//

LogicalResult ConvGeneralOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  RankedTensorType input = tensorType(adaptor.getInput());
  RankedTensorType weight = tensorType(adaptor.getWeight());
  int64_t spatial = input.getRank() - 2;
  if (spatial < 1 || weight.getRank() != input.getRank())
    return emitInferError(loc, name,
                          "input [N, spatial..., C] and weight [O, spatial..., "
                          "C/groups] need the same rank of at least 3, got " +
                              formatShape(input.getShape()) + " and " +
                              formatShape(weight.getShape()));
  for (ArrayRef<int64_t> list :
       {adaptor.getStrides(), adaptor.getPaddingLo(), adaptor.getPaddingHi(),
        adaptor.getKernelDilation(), adaptor.getInputDilation()})
    if (static_cast<int64_t>(list.size()) != spatial)
      return emitInferError(loc, name,
                            "strides, padding and dilations need " +
                                Twine(spatial) + " entries each");
  int64_t groups = adaptor.getGroups();
  int64_t channels = input.getDimSize(spatial + 1);
  int64_t outChannels = weight.getDimSize(0);
  if (groups < 1 ||
      sizesConflict(channels,
                    ShapedType::isDynamic(weight.getDimSize(spatial + 1))
                        ? ShapedType::kDynamic
                        : weight.getDimSize(spatial + 1) * groups) ||
      (!ShapedType::isDynamic(outChannels) && outChannels % groups != 0))
    return emitInferError(loc, name,
                          "channels do not match: input " +
                              formatShape(input.getShape()) + ", weight " +
                              formatShape(weight.getShape()) + ", groups " +
                              Twine(groups));
  Shape shape = {input.getDimSize(0)};
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t stride = adaptor.getStrides()[i];
    int64_t kdil = adaptor.getKernelDilation()[i];
    int64_t idil = adaptor.getInputDilation()[i];
    int64_t lo = adaptor.getPaddingLo()[i], hi = adaptor.getPaddingHi()[i];
    if (stride < 1 || kdil < 1 || idil < 1 || lo < 0 || hi < 0)
      return emitInferError(
          loc, name,
          "strides and dilations must be positive and padding "
          "non-negative (spatial axis " +
              Twine(i) + ")");
    int64_t in = input.getDimSize(i + 1), kernel = weight.getDimSize(i + 1);
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(kernel)) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t padded = (in - 1) * idil + 1 + lo + hi;
    int64_t window = (kernel - 1) * kdil + 1;
    if (padded < window)
      return emitInferError(loc, name,
                            "kernel window " + Twine(window) +
                                " is larger than the padded input " +
                                Twine(padded) + " on spatial axis " + Twine(i));
    shape.push_back((padded - window) / stride + 1);
  }
  shape.push_back(outChannels);
  types.push_back(RankedTensorType::get(
      shape, promoteTypes(input.getElementType(), weight.getElementType())));
  return success();
}

LogicalResult RandomBitsOp::inferReturnTypes(MLIRContext *ctx,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  RankedTensorType key = tensorType(adaptor.getKey());
  if (!key.getElementType().isUnsignedInteger(32) || key.getRank() != 1 ||
      sizesConflict(key.getDimSize(0), 2))
    return emitInferError(loc, getOperationName(),
                          "key must be a uint32 tensor of shape [2]");
  int64_t width = adaptor.getWidth();
  if (width != 1 && width != 2 && width != 4)
    return emitInferError(loc, getOperationName(),
                          "width must be 1, 2 or 4 bytes, got " + Twine(width));
  if (llvm::any_of(adaptor.getShape(), [](int64_t d) { return d < 0; }))
    return emitInferError(loc, getOperationName(), "shape has a negative size");
  types.push_back(RankedTensorType::get(
      adaptor.getShape(),
      IntegerType::get(ctx, 8 * width, IntegerType::Unsigned)));
  return success();
}
