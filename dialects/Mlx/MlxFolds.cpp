//===- MlxFolds.cpp - folders of mlx ops ----------------------------------===//
//
// Only exact rewrites: identities that hold for every value of the dtype
// (x + 0 is not one for floats, where -0.0 + 0.0 == +0.0), and constant
// folding of small constants with MLX's arithmetic (wrapping integers, IEEE
// round-to-nearest-even, MLX's NaN rules for maximum/minimum).
//
//===----------------------------------------------------------------------===//

#include "Mlx/MlxOps.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/APSInt.h"

using namespace mlir;
using namespace mlir::mlx;

/// Constants up to this many elements are folded; bigger ones are left to
/// the generated kernels so that folding never bloats the module.
static constexpr int64_t kMaxFoldElements = 4096;

namespace {
/// One element of an MLX array while folding: an integer (with the
/// signedness of its dtype) or a float.
struct Scalar {
  std::optional<APInt> integer;
  std::optional<APFloat> real;
};
} // namespace

static bool isSignedDtype(Type dtype) {
  return getDtypeCategory(dtype) == DtypeCategory::Signed;
}

/// Reads element `index` of `attr` as a scalar of its own dtype.
static Scalar readScalar(DenseElementsAttr attr, int64_t index) {
  Type dtype = attr.getElementType();
  Scalar s;
  if (isa<FloatType>(dtype))
    s.real = attr.getValues<APFloat>()[index];
  else
    s.integer = attr.getValues<APInt>()[index];
  return s;
}

/// Converts `value` of dtype `from` to dtype `to` as MLX's astype does;
/// std::nullopt when the result is not defined (float to int overflow, NaN).
static std::optional<Scalar> convertScalar(const Scalar &value, Type from,
                                           Type to) {
  Scalar result;
  bool fromSigned = isSignedDtype(from);
  if (auto floatType = dyn_cast<FloatType>(to)) {
    APFloat f(floatType.getFloatSemantics());
    bool lost;
    if (value.real) {
      f = *value.real;
      f.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &lost);
    } else {
      f.convertFromAPInt(*value.integer, fromSigned && !from.isInteger(1),
                         APFloat::rmNearestTiesToEven);
    }
    result.real = f;
    return result;
  }
  unsigned width = to.getIntOrFloatBitWidth();
  if (to.isInteger(1)) {
    bool nonZero =
        value.real ? !value.real->isZero() : !value.integer->isZero();
    result.integer = APInt(1, nonZero);
    return result;
  }
  if (value.real) {
    llvm::APSInt out(width, /*isUnsigned=*/!isSignedDtype(to));
    bool exact;
    if (value.real->convertToInteger(out, APFloat::rmTowardZero, &exact) &
        APFloat::opInvalidOp)
      return std::nullopt;
    result.integer = out;
    return result;
  }
  result.integer = (fromSigned && !from.isInteger(1))
                       ? value.integer->sextOrTrunc(width)
                       : value.integer->zextOrTrunc(width);
  return result;
}

/// Folds an elementwise op over constant operands: each operand converted to
/// `computeType`, broadcast to `resultType`'s shape, combined by `fn`, whose
/// scalar has the element type of `resultType`.
static Attribute
foldElementwise(ArrayRef<Attribute> operands, ValueRange values,
                Type computeType, RankedTensorType resultType,
                function_ref<std::optional<Scalar>(ArrayRef<Scalar>)> fn) {
  if (!resultType.hasStaticShape() ||
      resultType.getNumElements() > kMaxFoldElements)
    return {};
  SmallVector<DenseElementsAttr> attrs;
  for (Attribute operand : operands) {
    auto dense = dyn_cast_or_null<DenseElementsAttr>(operand);
    if (!dense)
      return {};
    attrs.push_back(dense);
  }
  ArrayRef<int64_t> shape = resultType.getShape();
  int64_t rank = shape.size();
  SmallVector<Attribute> results;
  SmallVector<int64_t> index(rank, 0);
  for (int64_t flat = 0, e = resultType.getNumElements(); flat < e; ++flat) {
    // Multi-index of `flat`, then the broadcast position in each operand.
    for (int64_t d = rank - 1, rest = flat; d >= 0; --d) {
      index[d] = rest % shape[d];
      rest /= shape[d];
    }
    SmallVector<Scalar> args;
    for (auto [attr, value] : llvm::zip(attrs, values)) {
      auto type = cast<RankedTensorType>(value.getType());
      int64_t position = 0;
      if (!attr.isSplat()) {
        int64_t offset = rank - type.getRank();
        for (int64_t d = 0; d < type.getRank(); ++d) {
          int64_t size = type.getDimSize(d);
          position = position * size + (size == 1 ? 0 : index[offset + d]);
        }
      }
      std::optional<Scalar> converted = convertScalar(
          readScalar(attr, position), type.getElementType(), computeType);
      if (!converted)
        return {};
      args.push_back(*converted);
    }
    std::optional<Scalar> out = fn(args);
    if (!out)
      return {};
    Type dtype = resultType.getElementType();
    if (out->real)
      results.push_back(FloatAttr::get(dtype, *out->real));
    else
      results.push_back(IntegerAttr::get(dtype, *out->integer));
  }
  return DenseElementsAttr::get(resultType, results);
}

/// True when `attr` is a constant whose every element converts to `value`.
static bool isSplatOf(Attribute attr, double value, bool checkNegZero = false) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense || !dense.isSplat())
    return false;
  if (checkNegZero && !isa<FloatType>(dense.getElementType()))
    return false; // an integer 0 promotes to +0.0, which is not neutral
  if (isa<FloatType>(dense.getElementType())) {
    APFloat f = dense.getSplatValue<APFloat>();
    if (checkNegZero)
      return f.isZero() && f.isNegative();
    return f.convertToDouble() == value;
  }
  APInt i = dense.getSplatValue<APInt>();
  return i.getZExtValue() == static_cast<uint64_t>(value);
}

/// The operand itself when the op is an identity on it: same type as the
/// result (no promotion, no broadcast) and a neutral constant as other side.
static OpFoldResult foldNeutral(Operation *op, Value x, Attribute other,
                                double neutral, bool floatNeedsNegZero) {
  if (x.getType() != op->getResult(0).getType())
    return {};
  auto type = cast<RankedTensorType>(x.getType());
  bool isFloat = isa<FloatType>(type.getElementType());
  if (isFloat && floatNeedsNegZero)
    return isSplatOf(other, neutral, /*checkNegZero=*/true) ? x : Value();
  return isSplatOf(other, neutral) ? x : Value();
}

/// Compute dtype of a binary op: the promotion of its operand dtypes.
static Type promotedOperandType(Operation *op) {
  Type lhs =
      cast<RankedTensorType>(op->getOperand(0).getType()).getElementType();
  Type rhs =
      cast<RankedTensorType>(op->getOperand(1).getType()).getElementType();
  return promoteTypes(lhs, rhs);
}

using ScalarFn =
    std::function<std::optional<Scalar>(const Scalar &, const Scalar &, bool)>;

/// Folds a binary arithmetic op whose result dtype is its compute dtype.
static Attribute foldArithmetic(Operation *op, ArrayRef<Attribute> operands,
                                const ScalarFn &fn) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  bool isSigned = isSignedDtype(type.getElementType());
  return foldElementwise(
      operands, op->getOperands(), type.getElementType(), type,
      [&](ArrayRef<Scalar> args) { return fn(args[0], args[1], isSigned); });
}

static Scalar makeInt(APInt v) { return Scalar{std::move(v), std::nullopt}; }
static Scalar makeReal(APFloat v) { return Scalar{std::nullopt, std::move(v)}; }

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldNeutral(*this, getLhs(), adaptor.getRhs(), 0,
                                   /*floatNeedsNegZero=*/true))
    return r;
  return foldArithmetic(*this, adaptor.getOperands(),
                        [](const Scalar &a, const Scalar &b, bool) {
                          if (a.real)
                            return makeReal(*a.real + *b.real);
                          if (a.integer->getBitWidth() == 1) // bool: or
                            return makeInt(*a.integer | *b.integer);
                          return makeInt(*a.integer + *b.integer);
                        });
}

OpFoldResult SubtractOp::fold(FoldAdaptor adaptor) {
  // x - (+0.0) == x for every float, including -0.0.
  if (OpFoldResult r = foldNeutral(*this, getLhs(), adaptor.getRhs(), 0,
                                   /*floatNeedsNegZero=*/false)) {
    auto dense = cast<DenseElementsAttr>(adaptor.getRhs());
    if (!isa<FloatType>(dense.getElementType()) ||
        !dense.getSplatValue<APFloat>().isNegative())
      return r;
  }
  return foldArithmetic(*this, adaptor.getOperands(),
                        [](const Scalar &a, const Scalar &b, bool) {
                          if (a.real)
                            return makeReal(*a.real - *b.real);
                          return makeInt(*a.integer - *b.integer);
                        });
}

OpFoldResult MultiplyOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldNeutral(*this, getLhs(), adaptor.getRhs(), 1,
                                   /*floatNeedsNegZero=*/false))
    return r;
  return foldArithmetic(*this, adaptor.getOperands(),
                        [](const Scalar &a, const Scalar &b, bool) {
                          if (a.real)
                            return makeReal(*a.real * *b.real);
                          // bool * bool is logical and; APInt(1) agrees.
                          return makeInt(*a.integer * *b.integer);
                        });
}

/// MLX's maximum/minimum: a NaN on the left wins, otherwise `a cmp b ? a : b`
/// (so a NaN on the right wins too, and equal zeros give the right one).
static std::optional<Scalar> pickExtreme(const Scalar &a, const Scalar &b,
                                         bool isSigned, bool wantMax) {
  if (a.real) {
    if (a.real->isNaN())
      return a;
    APFloat::cmpResult c = a.real->compare(*b.real);
    bool takeA =
        wantMax ? c == APFloat::cmpGreaterThan : c == APFloat::cmpLessThan;
    return takeA ? a : b;
  }
  bool greater =
      isSigned ? a.integer->sgt(*b.integer) : a.integer->ugt(*b.integer);
  bool less =
      isSigned ? a.integer->slt(*b.integer) : a.integer->ult(*b.integer);
  return (wantMax ? greater : less) ? a : b;
}

OpFoldResult MaximumOp::fold(FoldAdaptor adaptor) {
  return foldArithmetic(*this, adaptor.getOperands(),
                        [](const Scalar &a, const Scalar &b, bool s) {
                          return pickExtreme(a, b, s, /*wantMax=*/true);
                        });
}

OpFoldResult MinimumOp::fold(FoldAdaptor adaptor) {
  return foldArithmetic(*this, adaptor.getOperands(),
                        [](const Scalar &a, const Scalar &b, bool s) {
                          return pickExtreme(a, b, s, /*wantMax=*/false);
                        });
}

/// Folds a comparison: operands compared in their promoted dtype.
static Attribute foldComparison(Operation *op, ArrayRef<Attribute> operands,
                                function_ref<bool(int)> accept,
                                bool nanEqual = false) {
  Type computeType = promotedOperandType(op);
  bool isSigned = isSignedDtype(computeType);
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  return foldElementwise(
      operands, op->getOperands(), computeType, type,
      [&](ArrayRef<Scalar> args) -> std::optional<Scalar> {
        const Scalar &a = args[0], &b = args[1];
        // -2 for unordered, else -1/0/1.
        int order;
        if (a.real) {
          if (a.real->isNaN() && b.real->isNaN() && nanEqual)
            order = 0;
          else
            switch (a.real->compare(*b.real)) {
            case APFloat::cmpLessThan:
              order = -1;
              break;
            case APFloat::cmpEqual:
              order = 0;
              break;
            case APFloat::cmpGreaterThan:
              order = 1;
              break;
            default:
              order = -2;
              break;
            }
        } else if (isSigned) {
          order = a.integer->slt(*b.integer) ? -1 : a.integer->sgt(*b.integer);
        } else {
          order = a.integer->ult(*b.integer) ? -1 : a.integer->ugt(*b.integer);
        }
        return makeInt(APInt(1, accept(order)));
      });
}

OpFoldResult EqualOp::fold(FoldAdaptor adaptor) {
  return foldComparison(
      *this, adaptor.getOperands(), [](int o) { return o == 0; },
      getEqualNan());
}
OpFoldResult NotEqualOp::fold(FoldAdaptor adaptor) {
  // NaN != NaN is true: "not ordered-equal".
  return foldComparison(*this, adaptor.getOperands(),
                        [](int o) { return o != 0; });
}
OpFoldResult LessOp::fold(FoldAdaptor adaptor) {
  return foldComparison(*this, adaptor.getOperands(),
                        [](int o) { return o == -1; });
}
OpFoldResult LessEqualOp::fold(FoldAdaptor adaptor) {
  return foldComparison(*this, adaptor.getOperands(),
                        [](int o) { return o == -1 || o == 0; });
}
OpFoldResult GreaterOp::fold(FoldAdaptor adaptor) {
  return foldComparison(*this, adaptor.getOperands(),
                        [](int o) { return o == 1; });
}
OpFoldResult GreaterEqualOp::fold(FoldAdaptor adaptor) {
  return foldComparison(*this, adaptor.getOperands(),
                        [](int o) { return o == 1 || o == 0; });
}

/// Folds a unary op that keeps its dtype.
static Attribute foldUnary(Operation *op, Attribute operand,
                           function_ref<Scalar(const Scalar &)> fn) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  return foldElementwise({operand}, op->getOperands(), type.getElementType(),
                         type, [&](ArrayRef<Scalar> args) {
                           return std::optional<Scalar>(fn(args[0]));
                         });
}

OpFoldResult NegativeOp::fold(FoldAdaptor adaptor) {
  return foldUnary(*this, adaptor.getX(), [](const Scalar &a) {
    if (a.real)
      return makeReal(-*a.real);
    return makeInt(-*a.integer);
  });
}

OpFoldResult AbsOp::fold(FoldAdaptor adaptor) {
  Type dtype = getX().getType().getElementType();
  // abs of unsigned values and bool is the identity.
  if (getDtypeCategory(dtype) == DtypeCategory::Unsigned || dtype.isInteger(1))
    return getX();
  return foldUnary(*this, adaptor.getX(), [](const Scalar &a) {
    if (a.real)
      return makeReal(abs(*a.real));
    return makeInt(a.integer->abs());
  });
}

OpFoldResult AstypeOp::fold(FoldAdaptor adaptor) {
  if (getX().getType() == getType())
    return getX();
  return foldUnary(*this, adaptor.getX(), [](const Scalar &a) { return a; });
}

//===----------------------------------------------------------------------===//
// Layout folds
//===----------------------------------------------------------------------===//

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getX().getType() == getType())
    return getX();
  // reshape(reshape(x)) == reshape(x): only the last shape matters. A -1
  // was resolved against the inner shape, so pin the resolved sizes.
  if (auto inner = getX().getDefiningOp<ReshapeOp>()) {
    if (getType().hasStaticShape())
      setShape(getType().getShape());
    else if (llvm::is_contained(getShape(), -1))
      return {};
    getXMutable().assign(inner.getX());
    return getResult();
  }
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getX()))
    if (getType().hasStaticShape())
      return dense.reshape(getType());
  return {};
}

OpFoldResult BroadcastToOp::fold(FoldAdaptor adaptor) {
  if (getX().getType() == getType())
    return getX();
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getX()))
    if (dense.isSplat())
      return DenseElementsAttr::get(getType(),
                                    dense.getSplatValue<Attribute>());
  return {};
}

/// The permutation with negative entries resolved.
static SmallVector<int64_t> normalizedPermutation(ArrayRef<int64_t> axes) {
  int64_t rank = axes.size();
  return llvm::map_to_vector(axes,
                             [&](int64_t a) { return a < 0 ? a + rank : a; });
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  SmallVector<int64_t> perm = normalizedPermutation(getAxes());
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return getX();
  // transpose(transpose(x, p), q) == transpose(x, p[q[i]]).
  if (auto inner = getX().getDefiningOp<TransposeOp>()) {
    SmallVector<int64_t> innerPerm = normalizedPermutation(inner.getAxes());
    SmallVector<int64_t> composed =
        llvm::map_to_vector(perm, [&](int64_t q) { return innerPerm[q]; });
    getXMutable().assign(inner.getX());
    setAxes(composed);
    if (llvm::equal(composed, llvm::seq<int64_t>(0, composed.size())))
      return getX();
    return getResult();
  }
  return {};
}
