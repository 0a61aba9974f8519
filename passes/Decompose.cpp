//===- Decompose.cpp - the mlx-decompose pass -----------------------------===//
//
// Composite ops rewritten into the graphs MLX falls back to on the CPU, so
// that the code generator only needs kernels for the basic ops (and later
// fusion merges the pieces again).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "Mlx/MlxOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>
#include <limits>

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXDECOMPOSE
#include "passes/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;
using namespace mlir::mlx;

namespace {

/// Builds mlx ops with inferred result types at one location.
class GraphBuilder {
public:
  GraphBuilder(PatternRewriter &rewriter, Location loc)
      : b(rewriter), loc(loc) {}

  template <typename OpTy>
  Value op(ValueRange operands, ArrayRef<NamedAttribute> attrs = {}) {
    return OpTy::create(b, loc, operands, attrs)->getResult(0);
  }
  NamedAttribute attr(StringRef name, Attribute value) {
    return b.getNamedAttr(name, value);
  }
  NamedAttribute axes(ArrayRef<int64_t> values) {
    return attr("axes", b.getDenseI64ArrayAttr(values));
  }
  NamedAttribute keepdims() { return attr("keepdims", b.getBoolAttr(true)); }

  Type dtype(Value v) {
    return cast<RankedTensorType>(v.getType()).getElementType();
  }
  ArrayRef<int64_t> shape(Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  }

  /// A scalar constant of `dtype`.
  Value scalar(Type dtype, double value) {
    auto type = RankedTensorType::get({}, dtype);
    Attribute element;
    if (isa<FloatType>(dtype))
      element = b.getFloatAttr(dtype, value);
    else
      element = b.getIntegerAttr(dtype, static_cast<int64_t>(value));
    return ConstantOp::create(b, loc, DenseElementsAttr::get(type, element));
  }
  Value astype(Value v, Type dtype) {
    if (this->dtype(v) == dtype)
      return v;
    return op<AstypeOp>(v, {attr("dtype", TypeAttr::get(dtype))});
  }
  Value reshape(Value v, ArrayRef<int64_t> shape) {
    if (this->shape(v) == shape)
      return v;
    return op<ReshapeOp>(v, {attr("shape", b.getDenseI64ArrayAttr(shape))});
  }
  Value add(Value x, Value y) { return op<AddOp>({x, y}); }
  Value sub(Value x, Value y) { return op<SubtractOp>({x, y}); }
  Value mul(Value x, Value y) { return op<MultiplyOp>({x, y}); }
  Value div(Value x, Value y) { return op<DivideOp>({x, y}); }
  Value sumKeep(Value x, ArrayRef<int64_t> axes) {
    return op<SumOp>(x, {this->axes(axes), keepdims()});
  }
  Value maxKeep(Value x, ArrayRef<int64_t> axes) {
    return op<MaxOp>(x, {this->axes(axes), keepdims()});
  }
  /// mean over the last axis, kept, in the dtype of x.
  Value meanLast(Value x) {
    int64_t n = shape(x).back();
    return mul(sumKeep(x, {-1}),
               scalar(dtype(x), 1.0 / static_cast<double>(n)));
  }
  Value isInf(Value x) {
    return op<EqualOp>({op<AbsOp>(x), scalar(dtype(x), INFINITY)});
  }

  PatternRewriter &b;
  Location loc;
};

static Type f32(PatternRewriter &rewriter) { return rewriter.getF32Type(); }

static bool isHalf(Type t) { return t.isF16() || t.isBF16(); }

struct DecomposeSoftmax final : OpRewritePattern<SoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    GraphBuilder g(rewriter, op.getLoc());
    Type out = g.dtype(op.getResult());
    auto rank = cast<RankedTensorType>(op.getX().getType()).getRank();
    SmallVector<int64_t> axes =
        op.getAxes() ? llvm::to_vector(*op.getAxes())
                     : llvm::to_vector(llvm::seq<int64_t>(0, rank));
    Type compute = (op.getPrecise() && isHalf(out)) ? f32(rewriter) : out;
    Value x = g.astype(op.getX(), compute);
    Value e = g.op<ExpOp>(g.sub(x, g.maxKeep(x, axes)));
    // MLX scales by the sum's reciprocal: one division a row, not one an
    // element.
    Value y = g.mul(e, g.div(g.scalar(compute, 1.0), g.sumKeep(e, axes)));
    rewriter.replaceOp(op, g.astype(y, out));
    return success();
  }
};

/// MLX: where(isinf(max), max, log(sum(exp(x - max))) + max).
struct DecomposeLogsumexp final : OpRewritePattern<LogsumexpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LogsumexpOp op,
                                PatternRewriter &rewriter) const override {
    GraphBuilder g(rewriter, op.getLoc());
    Type out = g.dtype(op.getResult());
    auto rank = cast<RankedTensorType>(op.getX().getType()).getRank();
    SmallVector<int64_t> axes =
        op.getAxes() ? llvm::to_vector(*op.getAxes())
                     : llvm::to_vector(llvm::seq<int64_t>(0, rank));
    Type compute = isHalf(out) ? f32(rewriter) : out;
    Value x = g.astype(op.getX(), compute);
    Value m = g.maxKeep(x, axes);
    Value inf = g.isInf(m);
    // A row of -inf (or a +inf) must not produce inf - inf.
    Value safe = g.op<SelectOp>({inf, g.scalar(compute, 0), m});
    Value s = g.sumKeep(g.op<ExpOp>(g.sub(x, safe)), axes);
    Value r = g.add(g.op<LogOp>(s), safe);
    r = g.op<SelectOp>({inf, m, r});
    r = g.reshape(g.astype(r, out),
                  cast<RankedTensorType>(op.getType()).getShape());
    rewriter.replaceOp(op, r);
    return success();
  }
};

struct DecomposeRmsNorm final : OpRewritePattern<RmsNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RmsNormOp op,
                                PatternRewriter &rewriter) const override {
    GraphBuilder g(rewriter, op.getLoc());
    Type out = g.dtype(op.getResult());
    Value x = g.astype(op.getX(), f32(rewriter));
    Value ms = g.meanLast(g.op<SquareOp>(x));
    Value eps = g.scalar(f32(rewriter), op.getEps().convertToDouble());
    Value y = g.astype(g.mul(x, g.op<RsqrtOp>(g.add(ms, eps))), out);
    if (Value w = op.getWeight())
      y = g.mul(y, w);
    rewriter.replaceOp(op, g.astype(y, out));
    return success();
  }
};

struct DecomposeLayerNorm final : OpRewritePattern<LayerNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LayerNormOp op,
                                PatternRewriter &rewriter) const override {
    GraphBuilder g(rewriter, op.getLoc());
    Type out = g.dtype(op.getResult());
    Value x = g.astype(op.getX(), f32(rewriter));
    Value centered = g.sub(x, g.meanLast(x));
    Value var = g.meanLast(g.op<SquareOp>(centered));
    Value eps = g.scalar(f32(rewriter), op.getEps().convertToDouble());
    Value y = g.astype(g.mul(centered, g.op<RsqrtOp>(g.add(var, eps))), out);
    if (Value w = op.getWeight())
      y = g.mul(y, w);
    if (Value b = op.getBias())
      y = g.add(y, b);
    rewriter.replaceOp(op, g.astype(y, out));
    return success();
  }
};

struct DecomposeAddmm final : OpRewritePattern<AddmmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddmmOp op,
                                PatternRewriter &rewriter) const override {
    GraphBuilder g(rewriter, op.getLoc());
    Type out = g.dtype(op.getResult());
    Value p =
        g.op<MatmulOp>({g.astype(op.getA(), out), g.astype(op.getB(), out)});
    double alpha = op.getAlpha().convertToDouble();
    double beta = op.getBeta().convertToDouble();
    if (alpha != 1.0)
      p = g.mul(p, g.scalar(out, alpha));
    Value c = g.astype(op.getC(), out);
    if (beta != 1.0)
      c = g.mul(c, g.scalar(out, beta));
    rewriter.replaceOp(op, g.add(p, c));
    return success();
  }
};

struct DecomposeDivmod final : OpRewritePattern<DivmodOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DivmodOp op,
                                PatternRewriter &rewriter) const override {
    GraphBuilder g(rewriter, op.getLoc());
    Value q = g.op<FloorDivideOp>({op.getLhs(), op.getRhs()});
    Value r = g.op<RemainderOp>({op.getLhs(), op.getRhs()});
    rewriter.replaceOp(op, {q, r});
    return success();
  }
};

/// block_masked_mm as MLX's CPU kernel computes it: the operands' masked
/// blocks zeroed (boolean masks) or scaled (float masks), the product, then
/// the output's mask applied the same way.
struct DecomposeBlockMaskedMm final : OpRewritePattern<BlockMaskedMmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BlockMaskedMmOp op,
                                PatternRewriter &rewriter) const override {
    GraphBuilder g(rewriter, op.getLoc());
    int64_t blockSize = op.getBlockSize();
    // One value per element: [..., r, c] -> [..., r, bs, c, bs] -> [..., R, C].
    auto applyMask = [&](Value x, Value mask) {
      if (!mask)
        return x;
      ArrayRef<int64_t> maskShape = g.shape(mask);
      ArrayRef<int64_t> xShape = g.shape(x);
      size_t rank = maskShape.size();
      int64_t rows = maskShape[rank - 2], cols = maskShape[rank - 1];
      SmallVector<int64_t> split(maskShape.drop_back(2));
      split.append({rows, 1, cols, 1});
      Value m = g.reshape(mask, split);
      split[rank - 1] = blockSize;
      split[rank + 1] = blockSize;
      m = g.op<BroadcastToOp>(
          m, {g.attr("shape", rewriter.getDenseI64ArrayAttr(split))});
      SmallVector<int64_t> full(maskShape.drop_back(2));
      full.append({rows * blockSize, cols * blockSize});
      m = g.reshape(m, full);
      SmallVector<int64_t> start(rank, 0), stop(full), strides(rank, 1);
      stop[rank - 2] = xShape[xShape.size() - 2];
      stop[rank - 1] = xShape.back();
      if (ArrayRef<int64_t>(stop) != ArrayRef<int64_t>(full))
        m = g.op<SliceOp>(
            m, {g.attr("start", rewriter.getDenseI64ArrayAttr(start)),
                g.attr("stop", rewriter.getDenseI64ArrayAttr(stop)),
                g.attr("strides", rewriter.getDenseI64ArrayAttr(strides))});
      Type dtype = g.dtype(x);
      if (g.dtype(m).isInteger(1))
        return g.op<SelectOp>({m, x, g.scalar(dtype, 0.0)});
      return g.mul(x, g.astype(m, dtype));
    };
    Value a = applyMask(op.getA(), op.getMaskLhs());
    Value b = applyMask(op.getB(), op.getMaskRhs());
    Value product = g.op<MatmulOp>({a, b});
    rewriter.replaceOp(op, applyMask(product, op.getMaskOut()));
    return success();
  }
};

/// masked_scatter as a gather: per batch, the i-th true element of the mask
/// takes value number (trues before i), an exclusive running count. A count
/// past the batch's values (MLX raises there) reads its last value.
struct DecomposeMaskedScatter final : OpRewritePattern<MaskedScatterOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MaskedScatterOp op,
                                PatternRewriter &rewriter) const override {
    GraphBuilder g(rewriter, op.getLoc());
    auto type = cast<RankedTensorType>(op.getType());
    auto valuesType = cast<RankedTensorType>(op.getValues().getType());
    if (!type.hasStaticShape() || !valuesType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes");
    int64_t batch = type.getDimSize(0);
    int64_t perBatch = batch ? type.getNumElements() / batch : 0;
    int64_t valuesPerBatch = batch ? valuesType.getNumElements() / batch : 0;
    if (perBatch == 0 || valuesPerBatch == 0) {
      rewriter.replaceOp(op, op.getX());
      return success();
    }
    Value mask = g.reshape(op.getMask(), {batch, perBatch});
    Type counter = rewriter.getI32Type();
    if (perBatch > std::numeric_limits<int32_t>::max())
      counter = rewriter.getI64Type();
    Value before =
        g.op<CumsumOp>(g.astype(mask, counter),
                       {g.attr("axis", rewriter.getI64IntegerAttr(1)),
                        g.attr("inclusive", rewriter.getBoolAttr(false))});
    Value values = g.reshape(op.getValues(), {batch, valuesPerBatch});
    Value taken = g.op<TakeAlongAxisOp>(
        {values,
         g.op<MinimumOp>({before, g.scalar(counter, valuesPerBatch - 1)})},
        {g.attr("axis", rewriter.getI64IntegerAttr(1))});
    Value x = g.reshape(op.getX(), {batch, perBatch});
    rewriter.replaceOp(
        op, g.reshape(g.op<SelectOp>({mask, taken, x}), type.getShape()));
    return success();
  }
};

/// matmul of 1-D operands: promote to matrices, multiply, drop the axis.
struct DecomposeVectorMatmul final : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    GraphBuilder g(rewriter, op.getLoc());
    Value a = op.getLhs(), b = op.getRhs();
    if (g.shape(a).size() > 1 && g.shape(b).size() > 1)
      return failure();
    if (g.shape(a).size() == 1)
      a = g.reshape(a, {1, g.shape(a)[0]});
    if (g.shape(b).size() == 1)
      b = g.reshape(b, {g.shape(b)[0], 1});
    Value p = g.op<MatmulOp>({a, b});
    rewriter.replaceOp(
        op, g.reshape(p, cast<RankedTensorType>(op.getType()).getShape()));
    return success();
  }
};

/// A transpose that only moves axes of extent 1 keeps the elements in order:
/// a reshape (no copy), e.g. a decode step's [B, 1, H, D] -> [B, H, 1, D].
struct TransposeOfUnitAxesToReshape final : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    GraphBuilder g(rewriter, op.getLoc());
    ArrayRef<int64_t> shape = g.shape(op.getX());
    ArrayRef<int64_t> axes = op.getAxes();
    int64_t last = -1, rank = shape.size();
    for (int64_t axis : axes) {
      if (axis < 0)
        axis += rank;
      if (axis < 0 || axis >= rank)
        return failure();
      if (shape[axis] == 1)
        continue;
      if (axis < last)
        return failure();
      last = axis;
    }
    rewriter.replaceOp(
        op,
        g.reshape(op.getX(), cast<RankedTensorType>(op.getType()).getShape()));
    return success();
  }
};

/// A product whose right operand is broadcast along its last batch axes
/// ([..., G, M, K] x [..., 1, K, N], or an explicit broadcast_to of such an
/// operand, as in grouped-query attention's scores and outputs): those axes
/// join the left operand's rows, one product of G * M rows instead of G
/// products over a broadcast (copied) right operand.
struct FoldBroadcastBatchIntoRows final : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    GraphBuilder g(rewriter, op.getLoc());
    Value a = op.getLhs(), b = op.getRhs();
    ArrayRef<int64_t> as = g.shape(a);
    int64_t rank = as.size();
    if (rank < 3 || static_cast<int64_t>(g.shape(b).size()) != rank ||
        ShapedType::isDynamicShape(as) ||
        ShapedType::isDynamicShape(g.shape(b)))
      return failure();
    // b before an explicit broadcast, its shape padded to b's rank.
    if (auto broadcast = b.getDefiningOp<BroadcastToOp>())
      if (g.shape(broadcast.getX()).size() <= static_cast<size_t>(rank))
        b = broadcast.getX();
    SmallVector<int64_t> bs(rank - g.shape(b).size(), 1);
    llvm::append_range(bs, g.shape(b));
    // The trailing batch axes where b is 1; at least one where a is not.
    int64_t first = rank - 2, rows = as[rank - 2];
    while (first > 0 && bs[first - 1] == 1) {
      --first;
      rows *= as[first];
    }
    if (rows == as[rank - 2])
      return failure();
    SmallVector<int64_t> aShape(as.begin(), as.begin() + first);
    aShape.append({rows, as[rank - 1]});
    SmallVector<int64_t> bShape(bs.begin(), bs.begin() + first);
    bShape.append({bs[rank - 2], bs[rank - 1]});
    Value p = g.op<MatmulOp>({g.reshape(a, aShape), g.reshape(b, bShape)});
    rewriter.replaceOp(
        op, g.reshape(p, cast<RankedTensorType>(op.getType()).getShape()));
    return success();
  }
};

/// MLX's attention fallback: grouped query heads share key/value heads,
/// scores in the query dtype, softmax in float32.
struct DecomposeAttention final
    : OpRewritePattern<ScaledDotProductAttentionOp> {
  DecomposeAttention(MLIRContext *context, bool keepKernels)
      : OpRewritePattern(context), keepKernels(keepKernels) {}
  LogicalResult matchAndRewrite(ScaledDotProductAttentionOp op,
                                PatternRewriter &rewriter) const override {
    if (keepKernels && canFormAttentionKernel(op))
      return failure();
    GraphBuilder g(rewriter, op.getLoc());
    Value q = op.getQueries(), k = op.getKeys(), v = op.getValues();
    Type dt = g.dtype(q);
    ArrayRef<int64_t> qs = g.shape(q), ks = g.shape(k), vs = g.shape(v);
    int64_t batch = qs[0], hq = qs[1], len = qs[2], hkv = ks[1], keys = ks[2];
    int64_t groups = hq / hkv;
    q = g.mul(q, g.scalar(dt, op.getScale().convertToDouble()));
    // [B, Hkv, G, L, D] x [B, Hkv, 1, D, S] -> [B, Hkv, G, L, S]
    q = g.reshape(q, {batch, hkv, groups, len, qs[3]});
    Value kt = g.op<TransposeOp>(k, {g.axes({0, 1, 3, 2})});
    kt = g.reshape(kt, {batch, hkv, 1, ks[3], keys});
    Value scores = g.op<MatmulOp>({q, g.astype(kt, dt)});
    // The lowest finite value of the dtype, as MLX masks: a row with every
    // key masked averages them (-inf would make it NaN).
    double lowest = APFloat::getLargest(cast<FloatType>(dt).getFloatSemantics(),
                                        /*Negative=*/true)
                        .convertToDouble();
    if (op.getCausal()) {
      // Query i sees keys j <= i + (S - L).
      auto idx = rewriter.getI32Type();
      auto arange = [&](int64_t start, int64_t n) {
        auto type = RankedTensorType::get({n}, idx);
        return ArangeOp::create(rewriter, op.getLoc(), type,
                                rewriter.getF64FloatAttr(start),
                                rewriter.getF64FloatAttr(start + n),
                                rewriter.getF64FloatAttr(1))
            .getResult();
      };
      Value qi = g.reshape(arange(keys - len, len), {len, 1});
      Value kj = g.reshape(arange(0, keys), {1, keys});
      Value keep = g.op<GreaterEqualOp>({qi, kj});
      scores = g.op<SelectOp>({keep, scores, g.scalar(dt, lowest)});
    } else if (Value mask = op.getMask()) {
      // Bring a per-query-head mask into the [B, Hkv, G, L, S] layout.
      SmallVector<int64_t> ms(g.shape(mask));
      while (ms.size() < 4)
        ms.insert(ms.begin(), 1);
      SmallVector<int64_t> grouped = {ms[0], ms[1] == 1 ? 1 : hkv,
                                      ms[1] == 1 ? 1 : groups, ms[2], ms[3]};
      mask = g.reshape(mask, grouped);
      if (g.dtype(mask).isInteger(1))
        scores = g.op<SelectOp>({mask, scores, g.scalar(dt, lowest)});
      else
        scores = g.add(scores, g.astype(mask, dt));
    }
    Value sinks = op.getSinks();
    if (sinks) {
      // One extra logit per query head joins the softmax as column 0, and
      // its probability is dropped.
      Value column = g.reshape(g.astype(sinks, dt), {1, hkv, groups, 1, 1});
      column = g.op<BroadcastToOp>(
          column, {g.attr("shape", rewriter.getDenseI64ArrayAttr(
                                       {batch, hkv, groups, len, 1}))});
      scores = g.op<ConcatenateOp>(
          {column, scores}, {g.attr("axis", rewriter.getI64IntegerAttr(4))});
    }
    Value p = g.op<SoftmaxOp>(
        scores, {g.axes({-1}), g.attr("precise", rewriter.getBoolAttr(true))});
    if (sinks)
      p = g.op<SliceOp>(
          p,
          {g.attr("start", rewriter.getDenseI64ArrayAttr({0, 0, 0, 0, 1})),
           g.attr("stop", rewriter.getDenseI64ArrayAttr(
                              {batch, hkv, groups, len, keys + 1})),
           g.attr("strides", rewriter.getDenseI64ArrayAttr({1, 1, 1, 1, 1}))});
    Value vg = g.reshape(v, {batch, hkv, 1, vs[2], vs[3]});
    Value o = g.op<MatmulOp>({p, g.astype(vg, dt)});
    rewriter.replaceOp(op, g.reshape(o, {batch, hq, len, vs[3]}));
    return success();
  }

private:
  bool keepKernels;
};

struct MlxDecomposePass final : mlx::impl::MlxDecomposeBase<MlxDecomposePass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMlxDecomposePatterns(patterns, keepAttention);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlx::populateMlxDecomposePatterns(RewritePatternSet &patterns,
                                       bool keepAttention) {
  patterns.add<DecomposeSoftmax, DecomposeLogsumexp, DecomposeRmsNorm,
               DecomposeLayerNorm, DecomposeAddmm, DecomposeDivmod,
               DecomposeBlockMaskedMm, DecomposeMaskedScatter,
               DecomposeVectorMatmul, FoldBroadcastBatchIntoRows,
               TransposeOfUnitAxesToReshape>(patterns.getContext());
  patterns.add<DecomposeAttention>(patterns.getContext(), keepAttention);
}
