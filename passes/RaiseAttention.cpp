//===- RaiseAttention.cpp - the mlx-raise-attention pass ------------------===//
//
// An MLX export made on the CPU holds attention as MLX's fallback graph:
// `matmul(scale * q, transpose(k))`, a causal or boolean-mask `select` (or
// an additive mask), a `softmax` over the keys (with sinks: over the sinks
// column and the scores, the sinks' probability sliced off) and a `matmul`
// with v. The GPU runs that as a flash-attention kernel (kernel.attention)
// when the op is whole again: this pass raises the fallback graph back to
// `mlx.scaled_dot_product_attention` where such a kernel can take it, and
// `mlx-decompose{keep-attention}` leaves those ops.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "Kernel/AttentionShapes.h"
#include "Mlx/MlxOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <limits>

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXRAISEATTENTION
#include "passes/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;
using namespace mlir::mlx;

bool mlx::canFormAttentionKernel(Type query, Type key, Type value, bool causal,
                                 Type mask, Type sinks) {
  auto q = dyn_cast<RankedTensorType>(query);
  auto k = dyn_cast<RankedTensorType>(key);
  auto v = dyn_cast<RankedTensorType>(value);
  if (!q || !k || !v || !kernel::isAttentionShape(q, k, v))
    return false;
  if (sinks) {
    auto s = dyn_cast<RankedTensorType>(sinks);
    if (!s || s.getRank() != 1 || s.getDimSize(0) != q.getDimSize(1) ||
        !isa<FloatType>(s.getElementType()))
      return false;
  }
  if (mask) {
    // Rank 4 at most (the leading axes 1), each axis 1 or the full
    // [B, Hq, L, S]; boolean or additive.
    auto m = dyn_cast<RankedTensorType>(mask);
    if (!m || causal || m.getRank() > 4 || !m.hasStaticShape() ||
        !(m.getElementType().isInteger(1) ||
          m.getElementType() == q.getElementType()))
      return false;
    int64_t full[4] = {q.getDimSize(0), q.getDimSize(1), q.getDimSize(2),
                       k.getDimSize(2)};
    for (auto [size, expected] :
         llvm::zip(m.getShape(), ArrayRef(full).take_back(m.getRank())))
      if (size != 1 && size != expected)
        return false;
  }
  return kernel::isFlashAttentionShape(q, k, v, causal) ||
         kernel::isSplitKeyAttentionShape(q, k, v);
}

bool mlx::canFormAttentionKernel(ScaledDotProductAttentionOp op) {
  Value mask = op.getMask(), sinks = op.getSinks();
  return canFormAttentionKernel(
      op.getQueries().getType(), op.getKeys().getType(),
      op.getValues().getType(), op.getCausal(), mask ? mask.getType() : Type(),
      sinks ? sinks.getType() : Type());
}

namespace {
/// `value` through broadcasts, dims expansions and reshapes that keep its
/// element count.
Value peelLayout(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<BroadcastToOp, ExpandDimsOp, ReshapeOp>(def))
      break;
    Value source = def->getOperand(0);
    auto from = cast<RankedTensorType>(source.getType());
    auto to = cast<RankedTensorType>(value.getType());
    if (!isa<BroadcastToOp>(def) &&
        (!from.hasStaticShape() || !to.hasStaticShape() ||
         from.getNumElements() != to.getNumElements()))
      break;
    value = source;
  }
  return value;
}

/// The splat value of a constant, through broadcasts.
std::optional<double> splatValue(Value value) {
  auto constant = peelLayout(value).getDefiningOp<ConstantOp>();
  if (!constant)
    return std::nullopt;
  auto elements = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!elements || !elements.isSplat() ||
      !isa<FloatType>(elements.getElementType()))
    return std::nullopt;
  return elements.getSplatValue<APFloat>().convertToDouble();
}

/// Whether `value` is `arange(start, start + n)` (step 1), shaped so that
/// its elements run along axis `axis` of a rank-`rank` result (through
/// broadcasts, which are checked by shape).
bool isRange(Value value, int64_t start, int64_t n) {
  auto arange = peelLayout(value).getDefiningOp<ArangeOp>();
  if (!arange)
    return false;
  auto type = cast<RankedTensorType>(arange.getType());
  return type.getRank() == 1 && type.getDimSize(0) == n &&
         arange.getStart().convertToDouble() == static_cast<double>(start) &&
         arange.getStep().convertToDouble() == 1.0;
}

/// Whether `condition` is MLX's causal mask of L queries over S keys:
/// `(S - L + i) >= j`, i down the rows and j along the columns.
bool isCausalMask(Value condition, int64_t queries, int64_t keys) {
  auto ge = peelLayout(condition).getDefiningOp<GreaterEqualOp>();
  if (!ge)
    return false;
  // The operands before their broadcasts: a column of L and a row of S.
  auto unbroadcast = [](Value value) {
    while (auto broadcast = value.getDefiningOp<BroadcastToOp>())
      value = broadcast.getX();
    return cast<RankedTensorType>(value.getType());
  };
  RankedTensorType rows = unbroadcast(ge.getLhs());
  RankedTensorType columns = unbroadcast(ge.getRhs());
  if (rows.getRank() < 2 || !rows.hasStaticShape() ||
      rows.getShape().take_back(2) != ArrayRef<int64_t>{queries, 1} ||
      rows.getNumElements() != queries || !columns.hasStaticShape() ||
      columns.getShape().back() != keys || columns.getNumElements() != keys)
    return false;
  return isRange(ge.getLhs(), keys - queries, queries) &&
         isRange(ge.getRhs(), 0, keys);
}

/// `value` without a broadcast_to, and then without an expand_dims that
/// inserts axis 2 (the grouped-query fallback's view of a key/value head as
/// one group): the [B, Hkv, S, D] tensor, or null.
Value ungroup(Value value) {
  if (auto broadcast = value.getDefiningOp<BroadcastToOp>())
    value = broadcast.getX();
  auto expand = value.getDefiningOp<ExpandDimsOp>();
  if (!expand || expand.getAxes() != ArrayRef<int64_t>{2})
    return Value();
  return expand.getX();
}

/// A mask of the attention's rank-4 form: `value` reshaped to `shape`
/// ([B|1, Hq|1, L|1, S|1]).
struct MaskSource {
  Value value;
  SmallVector<int64_t> shape;
};

/// The value before broadcast_to ops.
Value unbroadcast(Value value) {
  while (auto broadcast = value.getDefiningOp<BroadcastToOp>())
    value = broadcast.getX();
  return value;
}

/// Where the fallback's mask `mask` (shaped as the scores: [B, Hq, L, S],
/// or grouped [B, Hkv, G, L, S]) comes from, before its broadcasts, and how
/// it reads as a rank-4 mask; nullopt when its grouped axes do not merge.
std::optional<MaskSource> findMaskSource(Value mask,
                                         RankedTensorType scoresType) {
  Value source = unbroadcast(mask);
  if (scoresType.getRank() == 5) {
    // MLX's grouped fallback unflattens the [B, Hq, L, S] mask's heads.
    if (auto unflatten = source.getDefiningOp<UnflattenOp>();
        unflatten && unflatten.getAxis() == 1 &&
        cast<RankedTensorType>(unflatten.getX().getType()).getRank() == 4) {
      ArrayRef<int64_t> s = scoresType.getShape();
      return findMaskSource(
          unflatten.getX(),
          RankedTensorType::get({s[0], s[1] * s[2], s[3], s[4]},
                                scoresType.getElementType()));
    }
  }
  auto type = dyn_cast<RankedTensorType>(source.getType());
  int64_t rank = scoresType.getRank();
  if (!type || !type.hasStaticShape() || type.getRank() > rank)
    return std::nullopt;
  SmallVector<int64_t> shape(rank - type.getRank(), 1);
  llvm::append_range(shape, type.getShape());
  if (rank == 5) {
    // [b, Hkv, G, l, s] merges to [b, Hq, l, s]; [b, 1, 1, l, s] drops.
    int64_t heads = shape[1] * shape[2];
    if (!(shape[1] == 1 && shape[2] == 1) &&
        !(shape[1] == scoresType.getDimSize(1) &&
          shape[2] == scoresType.getDimSize(2)))
      return std::nullopt;
    shape = {shape[0], heads, shape[3], shape[4]};
  }
  return MaskSource{source, shape};
}

/// The [Hq] sinks that MLX's fallback joins to the scores as their column 0:
/// `column` ([B, Hq, L, 1], or grouped [B, Hkv, G, L, 1]) broadcast from
/// one value per head, through layout ops (and a cast) from a rank-1
/// tensor; null when it is not so.
Value findSinks(Value column, RankedTensorType scoresType) {
  Value source = unbroadcast(column);
  auto type = dyn_cast<RankedTensorType>(source.getType());
  int64_t rank = scoresType.getRank();
  if (!type || !type.hasStaticShape() || type.getRank() > rank)
    return Value();
  // Only the head axes may differ from 1: then the elements are the heads
  // in order, and layout ops that keep the count keep that order.
  SmallVector<int64_t> shape(rank - type.getRank(), 1);
  llvm::append_range(shape, type.getShape());
  int64_t heads = 1;
  for (int64_t axis = 0; axis < rank; ++axis) {
    bool headAxis = axis == 1 || (rank == 5 && axis == 2);
    if (headAxis && shape[axis] == scoresType.getDimSize(axis))
      heads *= shape[axis];
    else if (shape[axis] != 1)
      return Value();
  }
  while (Operation *def = source.getDefiningOp()) {
    if (!isa<UnflattenOp, ExpandDimsOp, ReshapeOp>(def))
      break;
    source = def->getOperand(0);
  }
  if (auto cast = source.getDefiningOp<AstypeOp>())
    source = cast.getX();
  auto sinksType = dyn_cast<RankedTensorType>(source.getType());
  if (!sinksType || sinksType.getRank() != 1 ||
      sinksType.getDimSize(0) != heads ||
      !isa<FloatType>(sinksType.getElementType()))
    return Value();
  return source;
}

/// Whether `slice` drops column 0 of the last axis of its (static) input and
/// keeps the rest.
bool dropsFirstColumn(SliceOp slice) {
  auto type = cast<RankedTensorType>(slice.getX().getType());
  if (!type.hasStaticShape())
    return false;
  int64_t rank = type.getRank();
  for (int64_t axis = 0; axis < rank; ++axis)
    if (slice.getStart()[axis] != (axis == rank - 1 ? 1 : 0) ||
        slice.getStop()[axis] != type.getDimSize(axis) ||
        slice.getStrides()[axis] != 1)
      return false;
  return true;
}

/// matmul(softmax(mask?(matmul(scale * q, transpose(k)))), v) ->
/// scaled_dot_product_attention(q, k, v). With sinks, the softmax's input
/// is concatenate(sinks column, scores) and its column 0 is sliced off. The
/// grouped-query form (rank 5) splits q's heads into [Hkv, G] (unflatten),
/// views k and v with a group axis (expand_dims, broadcast_to) and flattens the
/// result's heads back.
struct RaiseAttention final : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    Value probabilities = op.getLhs();
    auto dropSinks = probabilities.getDefiningOp<SliceOp>();
    if (dropSinks) {
      if (!dropSinks->hasOneUse() || !dropsFirstColumn(dropSinks))
        return failure();
      probabilities = dropSinks.getX();
    }
    auto softmax = probabilities.getDefiningOp<SoftmaxOp>();
    if (!softmax || !softmax->hasOneUse())
      return failure();
    auto scoresType = cast<RankedTensorType>(softmax.getX().getType());
    int64_t rank = scoresType.getRank();
    if ((rank != 4 && rank != 5) || !softmax.getAxes() ||
        softmax.getAxes()->size() != 1 ||
        ((*softmax.getAxes())[0] != -1 && (*softmax.getAxes())[0] != rank - 1))
      return failure();
    bool grouped = rank == 5;
    // What the attention replaces: the product, or the flatten of its
    // grouped heads.
    Operation *result = op;
    if (grouped) {
      auto flatten = op->hasOneUse() ? dyn_cast<FlattenOp>(*op->user_begin())
                                     : FlattenOp();
      if (!flatten || flatten.getStartAxis() != 1 || flatten.getEndAxis() != 2)
        return failure();
      result = flatten;
    }
    Value scores = softmax.getX();
    Value sinks;
    if (dropSinks) {
      auto join = scores.getDefiningOp<ConcatenateOp>();
      // The axis attribute is signed (-1 is the last axis).
      auto axis = join ? static_cast<int64_t>(join.getAxis()) : 0;
      if (!join || !join->hasOneUse() || join.getInputs().size() != 2 ||
          (axis != -1 && axis != rank - 1))
        return failure();
      scores = join.getInputs()[1];
      scoresType = cast<RankedTensorType>(scores.getType());
      if (!(sinks = findSinks(join.getInputs()[0], scoresType)))
        return failure();
    }
    bool causal = false;
    std::optional<MaskSource> mask;
    if (auto select = scores.getDefiningOp<SelectOp>()) {
      std::optional<double> fill = splatValue(select.getY());
      // A masked score far below any kept one: its probability is 0.
      if (!select->hasOneUse() || !fill || *fill > -6.0e4)
        return failure();
      if (isCausalMask(select.getCondition(), scoresType.getDimSize(rank - 2),
                       scoresType.getDimSize(rank - 1)))
        causal = true;
      else if (!(mask = findMaskSource(select.getCondition(), scoresType)))
        return failure();
      scores = select.getX();
    } else if (auto add = scores.getDefiningOp<AddOp>();
               add && add->hasOneUse()) {
      // An additive mask: scores + mask.
      bool lhsIsProduct = add.getLhs().getDefiningOp<MatmulOp>() != nullptr;
      Value additive = lhsIsProduct ? add.getRhs() : add.getLhs();
      scores = lhsIsProduct ? add.getLhs() : add.getRhs();
      if (!(mask = findMaskSource(additive, scoresType)))
        return failure();
    }
    auto product = scores.getDefiningOp<MatmulOp>();
    if (!product || !product->hasOneUse())
      return failure();
    Value keysT = product.getRhs();
    if (grouped)
      if (auto broadcast = keysT.getDefiningOp<BroadcastToOp>())
        keysT = broadcast.getX();
    auto transpose = keysT.getDefiningOp<TransposeOp>();
    SmallVector<int64_t> swapLast = llvm::to_vector(llvm::seq<int64_t>(rank));
    std::swap(swapLast[rank - 1], swapLast[rank - 2]);
    if (!transpose || transpose.getAxes() != ArrayRef<int64_t>(swapLast))
      return failure();
    Value q = product.getLhs(), k = transpose.getX(), v = op.getRhs();
    if (grouped) {
      auto unflatten = q.getDefiningOp<UnflattenOp>();
      k = ungroup(k);
      v = ungroup(v);
      if (!unflatten || unflatten.getAxis() != 1 || !k || !v ||
          unflatten.getShape().size() != 2 ||
          unflatten.getShape()[0] !=
              cast<RankedTensorType>(k.getType()).getDimSize(1))
        return failure();
      q = unflatten.getX();
    }
    double scale = 1.0;
    if (auto multiply = q.getDefiningOp<MultiplyOp>();
        multiply && multiply->hasOneUse()) {
      Value other;
      std::optional<double> factor;
      if ((factor = splatValue(multiply.getLhs())))
        other = multiply.getRhs();
      else if ((factor = splatValue(multiply.getRhs())))
        other = multiply.getLhs();
      if (other && other.getType() == multiply.getType()) {
        scale = *factor;
        q = other;
      }
    }
    // The fallback computes in the inputs' dtype throughout.
    auto qType = cast<RankedTensorType>(q.getType());
    Type element = qType.getElementType();
    for (Value value :
         {scores, Value(softmax.getResult()), Value(op.getResult())})
      if (cast<RankedTensorType>(value.getType()).getElementType() != element)
        return failure();
    Type resultType = result->getResult(0).getType();
    Type maskType;
    if (mask) {
      Type maskElement =
          cast<RankedTensorType>(mask->value.getType()).getElementType();
      if (!maskElement.isInteger(1) && maskElement != element)
        return failure();
      maskType = RankedTensorType::get(mask->shape, maskElement);
    }
    if (qType.getRank() != 4 ||
        !canFormAttentionKernel(q.getType(), k.getType(), v.getType(), causal,
                                maskType, sinks ? sinks.getType() : Type()) ||
        resultType !=
            RankedTensorType::get(
                {qType.getDimSize(0), qType.getDimSize(1), qType.getDimSize(2),
                 cast<RankedTensorType>(v.getType()).getDimSize(3)},
                element))
      return failure();
    // Without groups, one query head per key head.
    if (!grouped && qType.getDimSize(1) !=
                        cast<RankedTensorType>(k.getType()).getDimSize(1))
      return failure();
    Value maskValue;
    if (mask) {
      maskValue = mask->value;
      if (maskValue.getType() != maskType)
        maskValue =
            ReshapeOp::create(rewriter, result->getLoc(), maskType, maskValue,
                              rewriter.getDenseI64ArrayAttr(mask->shape));
    }
    rewriter.replaceOpWithNewOp<ScaledDotProductAttentionOp>(
        result, resultType, q, k, v, maskValue, sinks,
        rewriter.getF32FloatAttr(static_cast<float>(scale)),
        rewriter.getBoolAttr(causal));
    return success();
  }
};

struct MlxRaiseAttentionPass final
    : mlx::impl::MlxRaiseAttentionBase<MlxRaiseAttentionPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<RaiseAttention>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
