//===- ComplexPrimitives.cpp - complex64 primitives as float32 pairs ------===//
//
// The mlx dialect has no complex dtype. A complex64 array of shape S is a
// float32 tensor of shape S + [2] holding (real, imaginary) pairs, the bytes
// MLX stores, and the program's signature still names it complex64. Each
// primitive MLX applies to complex arrays becomes float32 ops on the pairs:
// layout ops act on the leading axes, products and divisions expand into
// real ones, and an FFT is a transform per axis (pocketfft's c2c, r2c and
// c2r, with MLX's 1/n on the inverse): a product with cosine and sine
// matrices for a short axis, and for a long one of length n1 * n2 the
// four-step form (n2 transforms of length n1, twiddles, n1 of length n2).
//
//===----------------------------------------------------------------------===//

#include "importers/Mlxfn/PrimitiveState.h"

#include "Mlx/MlxOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

#include <cmath>

using namespace mlir;
using namespace mlxc::mlxfn;

bool mlxc::mlxfn::clampSliceBounds(ArrayRef<int64_t> shape,
                                   SmallVectorImpl<int64_t> &start,
                                   SmallVectorImpl<int64_t> &stop,
                                   ArrayRef<int64_t> strides) {
  if (start.size() != shape.size() || stop.size() != shape.size() ||
      strides.size() != shape.size())
    return false;
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t n = shape[i];
    int64_t lo = strides[i] < 0 ? -1 : 0, hi = strides[i] < 0 ? n - 1 : n;
    for (int64_t *v : {&start[i], &stop[i]})
      *v = std::clamp(*v < 0 ? *v + n : *v, lo, hi);
  }
  return true;
}

namespace {

using Shape = SmallVector<int64_t>;
using Values = SmallVector<Value, 2>;

/// A complex value taken apart: float32 tensors of its logical shape. `im`
/// is null for a real value.
struct Parts {
  Value re, im;
};

/// DFT matrices larger than this (entries) are computed by the program
/// rather than stored in it.
constexpr int64_t kMaxStoredTwiddles = int64_t(1) << 20;
/// The largest DFT matrix (entries) an FFT may need.
constexpr int64_t kMaxTwiddles = int64_t(1) << 28;

/// Axes up to this length are one product with the DFT matrix.
constexpr int64_t kMaxDirectLength = 128;

/// The factor n1 <= sqrt(n) of n closest to sqrt(n), or 1 (n prime): a
/// length-n transform splits into transforms of lengths n1 and n / n1.
static int64_t getSplitFactor(int64_t n) {
  for (int64_t f = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
       f > 1; --f)
    if (n % f == 0)
      return f;
  return 1;
}

/// The longest axis a transform of length n computes as one product.
static int64_t getLongestDirectLength(int64_t n) {
  int64_t n1 = n > kMaxDirectLength ? getSplitFactor(n) : 1;
  if (n1 == 1)
    return n;
  return std::max(getLongestDirectLength(n1), getLongestDirectLength(n / n1));
}

constexpr double kPi = 3.14159265358979323846;

/// Builds float32 mlx ops with the types it computes; the module verifier
/// checks them against the dialect's inference afterwards.
class PairBuilder {
public:
  PairBuilder(OpBuilder &b, Location loc)
      : b(b), loc(loc), f32(b.getF32Type()) {}

  static ArrayRef<int64_t> shape(Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  }
  static Type dtype(Value v) {
    return cast<RankedTensorType>(v.getType()).getElementType();
  }

  Value op(StringRef name, ValueRange args, ArrayRef<NamedAttribute> attrs,
           ArrayRef<int64_t> resultShape, Type element = {}) {
    OperationState state(loc, ("mlx." + name).str());
    state.addOperands(args);
    state.addAttributes(attrs);
    state.addTypes(RankedTensorType::get(resultShape, element ? element : f32));
    return b.create(state)->getResult(0);
  }
  NamedAttribute arr(StringRef key, ArrayRef<int64_t> v) {
    return b.getNamedAttr(key, b.getDenseI64ArrayAttr(v));
  }
  NamedAttribute i64(StringRef key, int64_t v) {
    return b.getNamedAttr(key, b.getI64IntegerAttr(v));
  }

  Value reshape(Value v, ArrayRef<int64_t> to) {
    if (shape(v) == to)
      return v;
    return op("reshape", v, {arr("shape", to)}, to, dtype(v));
  }
  Value transpose(Value v, ArrayRef<int64_t> perm) {
    Shape to;
    for (int64_t p : perm)
      to.push_back(shape(v)[p]);
    return op("transpose", v, {arr("axes", perm)}, to, dtype(v));
  }
  Value constant(ArrayRef<int64_t> s, ArrayRef<float> values) {
    auto type = RankedTensorType::get(s, f32);
    return mlx::ConstantOp::create(b, loc,
                                   DenseElementsAttr::get(type, values));
  }
  Value scalar(float value) { return constant({}, value); }
  Value splat(float value, ArrayRef<int64_t> s) {
    return op("broadcast_to", scalar(value), {arr("shape", s)}, s);
  }

  /// Elementwise float32 ops; a rank-0 operand broadcasts.
  Value binary(StringRef name, Value x, Value y, Type element = {}) {
    ArrayRef<int64_t> s = shape(x).empty() ? shape(y) : shape(x);
    return op(name, {x, y}, {}, s, element);
  }
  Value add(Value x, Value y) { return binary("add", x, y); }
  Value sub(Value x, Value y) { return binary("subtract", x, y); }
  Value mul(Value x, Value y) { return binary("multiply", x, y); }
  Value div(Value x, Value y) { return binary("divide", x, y); }
  Value unary(StringRef name, Value x) { return op(name, x, {}, shape(x)); }

  /// Part k (0 real, 1 imaginary) of a pair tensor.
  Value part(Value pairs, int64_t k) {
    Shape s(shape(pairs));
    size_t rank = s.size();
    Shape start(rank, 0), stop(s), strides(rank, 1), sliced(s);
    start[rank - 1] = k;
    stop[rank - 1] = k + 1;
    sliced[rank - 1] = 1;
    Value v =
        op("slice", pairs,
           {arr("start", start), arr("stop", stop), arr("strides", strides)},
           sliced);
    return reshape(v, ArrayRef<int64_t>(s).drop_back());
  }
  Parts split(Value pairs) { return {part(pairs, 0), part(pairs, 1)}; }

  /// The pair tensor of `p` (a zero imaginary part for a real value).
  Value join(Parts p) {
    Shape s(shape(p.re));
    Value im = p.im ? p.im : splat(0.0f, s);
    s.push_back(1);
    Value re1 = reshape(p.re, s), im1 = reshape(im, s);
    s.back() = 2;
    return op("concatenate", {re1, im1}, {i64("axis", s.size() - 1)}, s);
  }

  Parts mul(Parts x, Parts y) {
    return {sub(mul(x.re, y.re), mul(x.im, y.im)),
            add(mul(x.re, y.im), mul(x.im, y.re))};
  }
  Parts div(Parts x, Parts y) {
    Value den = add(mul(y.re, y.re), mul(y.im, y.im));
    return {div(add(mul(x.re, y.re), mul(x.im, y.im)), den),
            div(sub(mul(x.im, y.re), mul(x.re, y.im)), den)};
  }
  Value abs(Parts x) {
    return unary("sqrt", add(mul(x.re, x.re), mul(x.im, x.im)));
  }

  /// [rows, cols] cos and sin of 2*pi*((r*c) mod n)/n, rows scaled by
  /// `weights` when given: stored for small matrices, computed otherwise.
  std::pair<Value, Value> twiddles(int64_t rows, int64_t cols, int64_t n,
                                   ArrayRef<float> weights) {
    Shape s = {rows, cols};
    if (rows * cols <= kMaxStoredTwiddles) {
      std::vector<float> c(rows * cols), si(rows * cols);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t k = 0; k < cols; ++k) {
          double angle = 2.0 * kPi * static_cast<double>((r * k) % n) /
                         static_cast<double>(n);
          double w = weights.empty() ? 1.0 : weights[r];
          c[r * cols + k] = static_cast<float>(w * std::cos(angle));
          si[r * cols + k] = static_cast<float>(w * std::sin(angle));
        }
      return {constant(s, c), constant(s, si)};
    }
    // (r * c) mod n in int64, exact in float32 below 2^24.
    auto i64Type = b.getI64Type();
    auto range = [&](int64_t size, Shape to) {
      Value v = op("arange", {},
                   {b.getNamedAttr("start", b.getF64FloatAttr(0)),
                    b.getNamedAttr("stop", b.getF64FloatAttr(size)),
                    b.getNamedAttr("step", b.getF64FloatAttr(1))},
                   {size}, i64Type);
      return reshape(v, to);
    };
    Value product =
        op("multiply", {range(rows, {rows, 1}), range(cols, {1, cols})}, {}, s,
           i64Type);
    Value modulus = mlx::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(RankedTensorType::get({}, i64Type),
                               b.getI64IntegerAttr(n).getValue()));
    Value reduced = op("remainder", {product, modulus}, {}, s, i64Type);
    Value angle = mul(
        op("astype", reduced, {b.getNamedAttr("dtype", TypeAttr::get(f32))}, s),
        scalar(static_cast<float>(2.0 * kPi / n)));
    Value c = unary("cos", angle), si = unary("sin", angle);
    if (!weights.empty()) {
      Value w = constant({rows, 1}, weights);
      c = op("multiply", {c, w}, {}, s);
      si = op("multiply", {si, w}, {}, s);
    }
    return {c, si};
  }

  /// `x` with `axis` moved last and the other axes flattened: [M, n]; the
  /// permutation and the moved shape are kept to undo it.
  struct Moved {
    SmallVector<int64_t> perm, movedShape;
  };
  Value moveLast(Value x, int64_t axis, Moved &m) {
    int64_t rank = shape(x).size();
    m.perm.clear();
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        m.perm.push_back(d);
    m.perm.push_back(axis);
    Value t = transpose(x, m.perm);
    m.movedShape.assign(shape(t).begin(), shape(t).end());
    int64_t rows = 1;
    for (int64_t d : ArrayRef<int64_t>(m.movedShape).drop_back())
      rows *= d;
    return reshape(t, {rows, m.movedShape.back()});
  }
  Value moveBack(Value y, const Moved &m) {
    Shape s(m.movedShape);
    s.back() = shape(y).back();
    Value t = reshape(y, s);
    SmallVector<int64_t> inverse(m.perm.size());
    for (auto [i, p] : llvm::enumerate(m.perm))
      inverse[p] = i;
    return transpose(t, inverse);
  }
  Value matmul(Value x, Value w) {
    return op("matmul", {x, w}, {}, {shape(x)[0], shape(w)[1]});
  }

  /// sum_j x[j] e^{sign 2 pi i j k / n} along `axis`, k < outputs; `realOut`
  /// keeps only the real part, with the Hermitian weights of a c2r
  /// transform (x holds bins 0..n/2 of a length-`n` signal).
  Parts dft(Parts x, int64_t axis, int64_t n, int64_t outputs, int sign,
            bool realOut) {
    Moved m;
    Value re = moveLast(x.re, axis, m);
    Value im = x.im ? moveLast(x.im, axis, m) : Value();
    int64_t inputs = shape(re).back();
    SmallVector<float> weights;
    if (realOut)
      for (int64_t k = 0; k < inputs; ++k)
        weights.push_back(k == 0 || 2 * k == n ? 1.0f : 2.0f);
    auto [c, s] = twiddles(inputs, outputs, n, weights);
    // (re + i im)(c + i sign s)
    Value outRe = matmul(re, c);
    if (im) {
      Value imS = matmul(im, s);
      outRe = sign > 0 ? sub(outRe, imS) : add(outRe, imS);
    }
    if (realOut)
      return {moveBack(outRe, m), Value()};
    Value reS = matmul(re, s);
    Value outIm = sign > 0 ? reS : unary("negative", reS);
    if (im)
      outIm = add(outIm, matmul(im, c));
    return {moveBack(outRe, m), moveBack(outIm, m)};
  }

  /// (re + i im) * (c + i sign s), `im` possibly null.
  Parts rotate(Parts x, Value c, Value s, int sign) {
    Value reS = mul(x.re, s);
    Value re = mul(x.re, c);
    Value im = sign > 0 ? reS : unary("negative", reS);
    if (x.im) {
      Value imS = mul(x.im, s);
      re = sign > 0 ? sub(re, imS) : add(re, imS);
      im = add(im, mul(x.im, c));
    }
    return {re, im};
  }

  /// The complex transform of length n along `axis` (all n outputs). A long
  /// axis, n = n1 * n2 with j = n2 * j1 + j2 and k = k1 + n1 * k2, is
  /// transformed over j1, rotated by e^{sign 2 pi i k1 j2 / n}, transformed
  /// over j2, and read out in k's order.
  Parts fft(Parts x, int64_t axis, int64_t n, int sign) {
    int64_t n1 = n > kMaxDirectLength ? getSplitFactor(n) : 1;
    if (n1 == 1)
      return dft(x, axis, n, n, sign, false);
    int64_t n2 = n / n1;
    Moved m;
    Value re = moveLast(x.re, axis, m);
    Value im = x.im ? moveLast(x.im, axis, m) : Value();
    int64_t rows = shape(re)[0];
    Parts y = {reshape(re, {rows, n1, n2}),
               im ? reshape(im, {rows, n1, n2}) : Value()};
    y = fft(y, 1, n1, sign);
    auto [c, s] = twiddles(n1, n2, n, {});
    Shape withRows = {1, n1, n2};
    y = rotate(y, reshape(c, withRows), reshape(s, withRows), sign);
    y = fft(y, 2, n2, sign);
    auto readOut = [&](Value v) {
      return reshape(transpose(v, {0, 2, 1}), {rows, n});
    };
    return {moveBack(readOut(y.re), m), moveBack(readOut(y.im), m)};
  }

  /// The first `count` entries along `axis`.
  Value take(Value v, int64_t axis, int64_t count) {
    Shape s(shape(v)), start(s.size(), 0), strides(s.size(), 1);
    s[axis] = count;
    return op("slice", v,
              {arr("start", start), arr("stop", s), arr("strides", strides)},
              s);
  }

  /// The full spectrum of a real length-n signal from its first n / 2 + 1
  /// bins along `axis`: X[n - k] = conj(X[k]).
  Parts hermitianExtend(Parts x, int64_t axis, int64_t n) {
    Shape s(shape(x.re));
    int64_t bins = s[axis], mirrored = n - bins;
    if (mirrored <= 0)
      return x;
    size_t rank = s.size();
    Shape start(rank, 0), stop(s), strides(rank, 1), out(s);
    start[axis] = mirrored; // bins n - bins .. 1, descending
    stop[axis] = 0;
    strides[axis] = -1;
    out[axis] = mirrored;
    auto mirror = [&](Value v) {
      return op(
          "slice", v,
          {arr("start", start), arr("stop", stop), arr("strides", strides)},
          out);
    };
    Shape full(s);
    full[axis] = n;
    auto join = [&](Value a, Value b) {
      return op("concatenate", {a, b}, {i64("axis", axis)}, full);
    };
    return {join(x.re, mirror(x.re)),
            join(x.im, unary("negative", mirror(x.im)))};
  }

private:
  OpBuilder &b;
  Location loc;
  Type f32;
};

} // namespace

FailureOr<SmallVector<Value, 2>> mlxc::mlxfn::importComplexPrimitive(
    OpBuilder &builder, Location loc, const Node &node,
    ArrayRef<Value> operands, ArrayRef<bool> isComplex, TypeRange resultTypes) {
  StringRef name = node.name;
  State s{node};
  PairBuilder g(builder, loc);
  auto fail = [&](const Twine &why) -> FailureOr<Values> {
    return emitError(loc) << "MLX primitive " << name << " on complex64 values "
                          << why;
  };
  if (resultTypes.empty() || (resultTypes.size() != 1 && name != "Split"))
    return fail("with " + Twine(resultTypes.size()) +
                " results is not supported by mlxc");
  auto resultType = cast<RankedTensorType>(resultTypes[0]);
  bool complexOut = node.outputs[0].dtype == Dtype::Complex64;
  // The logical shape of the (first) result, and of operand k.
  Shape outShape(node.outputs[0].shape);
  auto logical = [&](size_t k) {
    ArrayRef<int64_t> shape = PairBuilder::shape(operands[k]);
    return Shape(isComplex[k] ? shape.drop_back() : shape);
  };
  auto parts = [&](size_t k) -> Parts {
    if (isComplex[k])
      return g.split(operands[k]);
    Value re = operands[k];
    if (PairBuilder::dtype(re) != builder.getF32Type())
      re = g.op(
          "astype", re,
          {builder.getNamedAttr("dtype", TypeAttr::get(builder.getF32Type()))},
          PairBuilder::shape(re));
    return {re, Value()};
  };
  auto expectOperands = [&](size_t n) { return operands.size() == n; };
  // Elementwise primitives take operands of the result's shape (MLX
  // broadcasts them first).
  auto sameShapes = [&]() {
    for (size_t k = 0; k < operands.size(); ++k)
      if (logical(k) != outShape)
        return false;
    return true;
  };
  auto done = [&](Value v) -> FailureOr<Values> { return Values{v}; };
  auto pairs = [&](Parts p) { return g.join(p); };

  // Layout: the same op on the leading axes, the pair axis kept last.
  if (name == "Copy" || name == "StopGradient") {
    if (!expectOperands(1))
      return fail("needs 1 input");
    return done(operands[0]);
  }
  if (name == "Reshape" || name == "ExpandDims" || name == "Squeeze" ||
      name == "Flatten" || name == "Unflatten") {
    if (!expectOperands(1) || !isComplex[0] || !complexOut)
      return fail("needs 1 complex input");
    return done(g.reshape(operands[0], resultType.getShape()));
  }
  if (name == "Broadcast") {
    if (!expectOperands(1) || !isComplex[0] || !complexOut)
      return fail("needs 1 complex input");
    return done(g.op("broadcast_to", operands[0],
                     {g.arr("shape", resultType.getShape())},
                     resultType.getShape()));
  }
  if (name == "Transpose") {
    if (!expectOperands(1) || !isComplex[0] || !complexOut)
      return fail("needs 1 complex input");
    SmallVector<int64_t> perm(s.v(0));
    int64_t rank = logical(0).size();
    if (static_cast<int64_t>(perm.size()) != rank)
      return fail("has a permutation of the wrong length");
    for (int64_t &p : perm)
      if (p < -rank || p >= rank)
        return fail("has axis " + Twine(p) + " out of range");
      else if (p < 0)
        p += rank;
    perm.push_back(rank);
    return done(g.transpose(operands[0], perm));
  }
  if (name == "Slice" || name == "SliceUpdate") {
    bool update = name == "SliceUpdate";
    if (update && (!expectOperands(2) || (s.has(0) && s.i(0) != 4)))
      return fail("with a reduction is not supported by mlxc");
    if (!update && !expectOperands(1))
      return fail("needs 1 input");
    if (!isComplex[0] || (update && !isComplex[1]) || !complexOut)
      return fail("needs complex inputs");
    unsigned k = update ? 1 : 0;
    Shape start(s.v(k)), stop(s.v(k + 1)), strides(s.v(k + 2));
    if (!clampSliceBounds(logical(0), start, stop, strides))
      return fail("has bounds that do not match the input's rank");
    start.push_back(0);
    stop.push_back(2);
    strides.push_back(1);
    SmallVector<NamedAttribute> attrs = {
        g.arr("start", start), g.arr("stop", stop), g.arr("strides", strides)};
    return done(g.op(update ? "slice_update" : "slice", operands, attrs,
                     resultType.getShape()));
  }
  // An axis of the logical shape of operand 0, made non-negative.
  auto axisOf = [&](int64_t axis) -> FailureOr<int64_t> {
    int64_t rank = logical(0).size();
    if (axis < -rank || axis >= rank)
      return failure();
    return axis < 0 ? axis + rank : axis;
  };
  if (name == "Split") {
    if (!expectOperands(1) || !isComplex[0] || !complexOut)
      return fail("needs 1 complex input");
    FailureOr<int64_t> axis = axisOf(s.i(1));
    if (failed(axis))
      return fail("has axis " + Twine(s.i(1)) + " out of range");
    OperationState state(loc, "mlx.split");
    state.addOperands(operands[0]);
    state.addAttribute("indices", builder.getDenseI64ArrayAttr(s.v(0)));
    state.addAttribute("axis", builder.getI64IntegerAttr(*axis));
    state.addTypes(resultTypes);
    Operation *split = builder.create(state);
    return Values(split->getResults());
  }
  if (name == "Gather") {
    if (operands.empty() || !isComplex[0] || !complexOut)
      return fail("needs a complex source");
    for (size_t k = 1; k < operands.size(); ++k)
      if (isComplex[k])
        return fail("has complex indices");
    SmallVector<int64_t> axes, sizes(s.v(1));
    for (int64_t a : s.v(0)) {
      FailureOr<int64_t> axis = axisOf(a);
      if (failed(axis))
        return fail("has axis " + Twine(a) + " out of range");
      axes.push_back(*axis);
    }
    sizes.push_back(2);
    return done(g.op("gather", operands,
                     {g.arr("axes", axes), g.arr("slice_sizes", sizes)},
                     resultType.getShape()));
  }
  if (name == "GatherAxis") {
    if (!expectOperands(2) || !isComplex[0] || isComplex[1] || !complexOut)
      return fail("needs a complex source and indices");
    FailureOr<int64_t> axis = axisOf(s.i(0));
    if (failed(axis))
      return fail("has axis " + Twine(s.i(0)) + " out of range");
    // The indices take a unit pair axis, which broadcasts.
    Shape indexShape(PairBuilder::shape(operands[1]));
    indexShape.push_back(1);
    return done(g.op("take_along_axis",
                     {operands[0], g.reshape(operands[1], indexShape)},
                     {g.i64("axis", *axis)}, resultType.getShape()));
  }
  if (name == "Scan") {
    if (!expectOperands(1) || !isComplex[0] || s.i(0) != 2)
      return fail("other than a running sum is not supported by mlxc");
    FailureOr<int64_t> axis = axisOf(s.i(1));
    if (failed(axis))
      return fail("has axis " + Twine(s.i(1)) + " out of range");
    return done(
        g.op("cumsum", operands[0],
             {g.i64("axis", *axis),
              builder.getNamedAttr("reverse", builder.getBoolAttr(s.b(2))),
              builder.getNamedAttr("inclusive", builder.getBoolAttr(s.b(3)))},
             resultType.getShape()));
  }
  if (name == "Concatenate") {
    for (bool c : isComplex)
      if (!c)
        return fail("needs complex inputs");
    if (operands.empty())
      return fail("needs inputs");
    int64_t rank = logical(0).size(), axis = s.i(0);
    if (axis < -rank || axis >= rank)
      return fail("has axis " + Twine(axis) + " out of range");
    return done(g.op("concatenate", operands,
                     {g.i64("axis", axis < 0 ? axis + rank : axis)},
                     resultType.getShape()));
  }

  if (name == "Full") {
    // A value (complex or not) spread over the result's shape.
    if (!expectOperands(1) || !complexOut)
      return fail("needs 1 input and a complex result");
    Value value = isComplex[0] ? operands[0] : pairs(parts(0));
    return done(g.op("broadcast_to", value,
                     {g.arr("shape", resultType.getShape())},
                     resultType.getShape()));
  }
  if (name == "Pad") {
    // Pad(x, value): the pair axis is not padded.
    if (!expectOperands(2) || !isComplex[0] || !complexOut)
      return fail("needs a complex input and a pad value");
    SmallVector<int64_t> axes(s.v(0)), low(s.v(1)), high(s.v(2));
    int64_t rank = logical(0).size();
    for (int64_t &a : axes)
      if (a < -rank || a >= rank)
        return fail("has axis " + Twine(a) + " out of range");
      else if (a < 0)
        a += rank;
    Value value = isComplex[1] ? operands[1] : pairs(parts(1));
    if (!logical(1).empty())
      return fail("needs a scalar pad value");
    // Real and imaginary parts pad with the value's parts.
    Parts v = g.split(value), x = parts(0);
    Shape padded(outShape);
    auto pad = [&](Value part, Value with) {
      return g.op("pad", {part, with},
                  {g.arr("axes", axes), g.arr("low", low), g.arr("high", high)},
                  padded);
    };
    return done(pairs({pad(x.re, v.re), pad(x.im, v.im)}));
  }

  // Conversions and parts.
  if (name == "AsType") {
    if (!expectOperands(1))
      return fail("needs 1 input");
    if (complexOut)
      return done(isComplex[0] ? operands[0] : pairs(parts(0)));
    Value re = g.part(operands[0], 0);
    Type to = resultType.getElementType();
    if (to == builder.getF32Type())
      return done(re);
    return done(g.op("astype", re,
                     {builder.getNamedAttr("dtype", TypeAttr::get(to))},
                     outShape, to));
  }
  if (name == "Real" || name == "Imag") {
    if (!expectOperands(1) || !isComplex[0])
      return fail("needs 1 complex input");
    return done(g.part(operands[0], name == "Real" ? 0 : 1));
  }
  if (name == "Conjugate") {
    if (!expectOperands(1) || !isComplex[0])
      return fail("needs 1 complex input");
    Parts x = parts(0);
    return done(pairs({x.re, g.unary("negative", x.im)}));
  }

  // Elementwise arithmetic.
  if (name == "Add" || name == "Subtract" || name == "Multiply" ||
      name == "Divide" || name == "Equal" || name == "NotEqual") {
    if (!expectOperands(2) || !sameShapes())
      return fail("needs 2 inputs of the result's shape");
    Parts x = parts(0), y = parts(1);
    if (!x.im)
      x.im = g.splat(0.0f, outShape);
    if (!y.im)
      y.im = g.splat(0.0f, outShape);
    if (name == "Add")
      return done(pairs({g.add(x.re, y.re), g.add(x.im, y.im)}));
    if (name == "Subtract")
      return done(pairs({g.sub(x.re, y.re), g.sub(x.im, y.im)}));
    if (name == "Multiply")
      return done(pairs(g.mul(x, y)));
    if (name == "Divide")
      return done(pairs(g.div(x, y)));
    bool equal = name == "Equal";
    if (equal && s.has(0) && s.b(0))
      return fail("with equal_nan is not supported by mlxc");
    Type i1 = builder.getI1Type();
    StringRef cmp = equal ? "equal" : "not_equal";
    Value re = g.binary(cmp, x.re, y.re, i1),
          im = g.binary(cmp, x.im, y.im, i1);
    return done(g.binary(equal ? "logical_and" : "logical_or", re, im, i1));
  }
  if (name == "Negative" || name == "Square" || name == "Abs" ||
      name == "Exp" || name == "Log" || name == "Sqrt" || name == "Sin" ||
      name == "Cos") {
    if (!expectOperands(1) || !isComplex[0] || !sameShapes())
      return fail("needs 1 complex input of the result's shape");
    Parts x = parts(0);
    if (name == "Negative")
      return done(
          pairs({g.unary("negative", x.re), g.unary("negative", x.im)}));
    if (name == "Square")
      return done(pairs(g.mul(x, x)));
    // MLX's abs of a complex array is complex (|z| + 0i), then cast.
    if (name == "Abs")
      return done(complexOut ? pairs({g.abs(x), Value()}) : g.abs(x));
    if (name == "Log" && (!s.has(0) || s.i(0) == 2)) // Natural base.
      return done(
          pairs({g.unary("log", g.abs(x)), g.binary("arctan2", x.im, x.re)}));
    if (name == "Log")
      return fail("in base 2 or 10 is not supported by mlxc");
    if (name == "Sqrt") {
      if (s.has(0) && s.b(0))
        return fail("as rsqrt is not supported by mlxc");
      // The principal root: sqrt((|z| + x) / 2) + i sign(y) sqrt((|z| - x) /
      // 2).
      Value r = g.abs(x), half = g.scalar(0.5f);
      Value re = g.unary("sqrt", g.mul(g.add(r, x.re), half));
      Value im = g.unary("sqrt", g.mul(g.sub(r, x.re), half));
      Value negative =
          g.binary("less", x.im, g.scalar(0.0f), builder.getI1Type());
      im =
          g.op("select", {negative, g.unary("negative", im), im}, {}, outShape);
      return done(pairs({re, im}));
    }
    if (name == "Sin" || name == "Cos") {
      Value sin = g.unary("sin", x.re), cos = g.unary("cos", x.re);
      Value sinh = g.unary("sinh", x.im), cosh = g.unary("cosh", x.im);
      if (name == "Sin")
        return done(pairs({g.mul(sin, cosh), g.mul(cos, sinh)}));
      return done(
          pairs({g.mul(cos, cosh), g.unary("negative", g.mul(sin, sinh))}));
    }
    Value magnitude = g.unary("exp", x.re);
    return done(pairs({g.mul(magnitude, g.unary("cos", x.im)),
                       g.mul(magnitude, g.unary("sin", x.im))}));
  }
  if (name == "Select") {
    if (!expectOperands(3) || !sameShapes() || isComplex[0] || !isComplex[1] ||
        !isComplex[2])
      return fail("needs a condition and 2 complex inputs of the result's "
                  "shape");
    Shape withPair(outShape);
    withPair.push_back(1);
    Value condition = g.reshape(operands[0], withPair);
    return done(g.op("select", {condition, operands[1], operands[2]}, {},
                     resultType.getShape()));
  }
  if (name == "Reduce") {
    if (!expectOperands(1) || !isComplex[0] || s.i(0) != 2)
      return fail("other than a sum is not supported by mlxc");
    int64_t rank = logical(0).size();
    SmallVector<int64_t> axes(s.v(1));
    for (int64_t &a : axes)
      if (a < -rank || a >= rank)
        return fail("has axis " + Twine(a) + " out of range");
      else if (a < 0)
        a += rank;
    return done(
        g.op("sum", operands[0],
             {g.arr("axes", axes),
              builder.getNamedAttr("keepdims", builder.getBoolAttr(true))},
             resultType.getShape()));
  }
  if (name == "Matmul") {
    if (!expectOperands(2) || !isComplex[0] || !isComplex[1])
      return fail("needs 2 complex inputs");
    Shape a = logical(0), b = logical(1);
    if (a.size() < 2 || b.size() < 2)
      return fail("needs operands of at least 2 dimensions");
    Parts x = parts(0), y = parts(1);
    auto mm = [&](Value l, Value r) {
      return g.op("matmul", {l, r}, {}, outShape);
    };
    return done(pairs({g.sub(mm(x.re, y.re), mm(x.im, y.im)),
                       g.add(mm(x.re, y.im), mm(x.im, y.re))}));
  }

  if (name == "FFT") {
    if (!expectOperands(1))
      return fail("needs 1 input");
    SmallVector<int64_t> axes(s.v(0));
    bool inverse = s.b(1), real = s.b(2);
    Shape in = logical(0);
    int64_t rank = in.size();
    if (axes.empty() || rank != static_cast<int64_t>(outShape.size()))
      return fail("has no axes or changes the rank");
    for (int64_t a : axes)
      if (a < 0 || a >= rank)
        return fail("has axis " + Twine(a) + " out of range");
    int64_t last = axes.back();
    // Real forward: r2c on the last axis, then c2c; real inverse: c2c, then
    // c2r on the last axis. Other axes keep their lengths.
    bool r2c = real && !inverse, c2r = real && inverse;
    if (isComplex[0] == r2c || complexOut == c2r)
      return fail("has input and result dtypes that do not match its kind");
    for (int64_t d = 0; d < rank; ++d) {
      bool ok = d != last || !real ? in[d] == outShape[d]
                : r2c              ? outShape[d] == in[d] / 2 + 1
                                   : in[d] == outShape[d] / 2 + 1;
      if (!ok)
        return fail("has a result of the wrong length on axis " + Twine(d));
    }
    // A product computes a length with no factors to split it by; its
    // matrices of cosines and sines are n x n.
    for (int64_t a : axes) {
      int64_t n = c2r && a == last ? outShape[a] : in[a];
      int64_t direct = getLongestDirectLength(n);
      if (direct > 0 && direct > kMaxTwiddles / direct)
        return fail("of length " + Twine(n) +
                    " is above what mlxc computes (a prime factor of at most "
                    "16384)");
    }
    int sign = inverse ? 1 : -1;
    Parts x = parts(0);
    double count = 1;
    // Short real axes keep the half-spectrum products (half the columns);
    // long ones go through the complex transform.
    if (r2c) {
      int64_t n = in[last], bins = outShape[last];
      if (n > kMaxDirectLength) {
        Parts full = g.fft(x, last, n, sign);
        x = {g.take(full.re, last, bins), g.take(full.im, last, bins)};
      } else {
        x = g.dft(x, last, n, bins, sign, false);
      }
      count *= n;
    }
    for (int64_t a : axes) {
      if (real && a == last)
        continue;
      x = g.fft(x, a, in[a], sign);
      count *= in[a];
    }
    if (c2r) {
      int64_t n = outShape[last];
      x = n > kMaxDirectLength
              ? Parts{g.fft(g.hermitianExtend(x, last, n), last, n, sign).re,
                      Value()}
              : g.dft(x, last, n, n, sign, true);
      count *= n;
    }
    if (inverse) {
      Value scale = g.scalar(static_cast<float>(1.0 / count));
      x.re = g.mul(x.re, scale);
      if (x.im)
        x.im = g.mul(x.im, scale);
    }
    return done(c2r ? x.re : pairs(x));
  }

  return fail("is not supported by mlxc");
}
