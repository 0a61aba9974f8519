//===- FoldConstantMaps.cpp - the mlxc-fold-constant-maps pass ------------===//
//
// An elementwise map whose values depend only on its loop indices and on
// constants (RoPE's inverse frequencies, an arange, a small iota mask) is
// computed at compile time: each element is evaluated by the folders of the
// map's ops, and the map becomes a dense constant. It is then no kernel and
// no launch. Only small maps fold (the constant is stored in the program);
// a map with an op that does not fold stays as it is.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCFOLDCONSTANTMAPS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

namespace {

/// Loop points of a map that folds (each result has as many elements at
/// most): a RoPE table or a mask of a few rows, not an activation.
constexpr int64_t kMaxPoints = 4096;
/// Folds (points times body ops) per map: a bound on compile time.
constexpr int64_t kMaxFolds = 1 << 17;

/// The value of `value` at the current point: a block argument's or a body
/// op's result (in `values`), or a constant defined outside the body.
Attribute lookup(Value value, const DenseMap<Value, Attribute> &values) {
  if (Attribute known = values.lookup(value))
    return known;
  Attribute constant;
  if (matchPattern(value, m_Constant(&constant)))
    return constant;
  return {};
}

/// The row-major offset of `indices` in `shape`.
int64_t linearize(ArrayRef<int64_t> indices, ArrayRef<int64_t> shape) {
  int64_t offset = 0;
  for (auto [index, size] : llvm::zip_equal(indices, shape))
    offset = offset * size + index;
  return offset;
}

/// The results of `op` as dense constants, or failure when it is not a
/// small map of indices and constants or one of its ops does not fold.
FailureOr<SmallVector<DenseElementsAttr>> evaluate(linalg::GenericOp op) {
  if (op.getNumReductionLoops() != 0 || op.hasDynamicShape() ||
      !op.hasPureTensorSemantics())
    return failure();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t points = computeProduct(ranges);
  Block *body = op.getBody();
  int64_t bodyOps = body->getOperations().size();
  if (points > kMaxPoints || points * bodyOps > kMaxFolds)
    return failure();

  // Inputs: dense constants read through their maps.
  SmallVector<DenseElementsAttr> inputs;
  for (OpOperand *input : op.getDpsInputOperands()) {
    DenseElementsAttr dense;
    if (!matchPattern(input->get(), m_Constant(&dense)))
      return failure();
    inputs.push_back(dense);
  }
  // Outputs: written once per point (a permutation of the loops), their
  // initial values never read.
  SmallVector<ShapedType> resultTypes;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    auto type = dyn_cast<RankedTensorType>(init.get().getType());
    if (!type || !type.hasStaticShape() ||
        !op.getMatchingIndexingMap(&init).isPermutation() ||
        !op.getMatchingBlockArgument(&init).use_empty())
      return failure();
    resultTypes.push_back(type);
  }

  SmallVector<SmallVector<Attribute>> results;
  for (ShapedType type : resultTypes)
    results.emplace_back(type.getNumElements());
  Builder builder(op.getContext());
  SmallVector<int64_t> point(ranges.size(), 0);
  for (int64_t n = 0; n < points; ++n) {
    // The loop indices of point n (the last loop fastest).
    for (int64_t rest = n, d = ranges.size() - 1; d >= 0; --d) {
      point[d] = rest % ranges[d];
      rest /= ranges[d];
    }
    DenseMap<Value, Attribute> values;
    for (auto [input, dense] :
         llvm::zip_equal(op.getDpsInputOperands(), inputs)) {
      SmallVector<int64_t> at = op.getMatchingIndexingMap(input).compose(point);
      ArrayRef<int64_t> shape = dense.getType().getShape();
      values[op.getMatchingBlockArgument(input)] =
          dense.isSplat() ? dense.getSplatValue<Attribute>()
                          : dense.getValues<Attribute>()[linearize(at, shape)];
    }
    for (Operation &inner : body->without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
        values[index] = builder.getIndexAttr(point[index.getDim()]);
        continue;
      }
      SmallVector<Attribute> operands;
      for (Value operand : inner.getOperands()) {
        Attribute attr = lookup(operand, values);
        if (!attr)
          return failure();
        operands.push_back(attr);
      }
      SmallVector<OpFoldResult> folded;
      if (inner.getNumRegions() != 0 || failed(inner.fold(operands, folded)) ||
          folded.size() != inner.getNumResults())
        return failure();
      for (auto [result, value] : llvm::zip_equal(inner.getResults(), folded)) {
        Attribute attr = isa<Attribute>(value)
                             ? cast<Attribute>(value)
                             : lookup(cast<Value>(value), values);
        auto typed = dyn_cast_or_null<TypedAttr>(attr);
        if (!typed || typed.getType() != result.getType())
          return failure();
        values[result] = typed;
      }
    }
    for (auto [i, yielded] :
         llvm::enumerate(body->getTerminator()->getOperands())) {
      Attribute attr = lookup(yielded, values);
      if (!attr)
        return failure();
      OpOperand *init = op.getDpsInitOperand(i);
      SmallVector<int64_t> at = op.getMatchingIndexingMap(init).compose(point);
      results[i][linearize(at, resultTypes[i].getShape())] = attr;
    }
  }
  SmallVector<DenseElementsAttr> dense;
  for (auto [type, elements] : llvm::zip_equal(resultTypes, results))
    dense.push_back(DenseElementsAttr::get(type, elements));
  return dense;
}

struct MlxcFoldConstantMapsPass final
    : mlx::impl::MlxcFoldConstantMapsBase<MlxcFoldConstantMapsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> maps;
    getOperation()->walk([&](linalg::GenericOp op) { maps.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : maps) {
      FailureOr<SmallVector<DenseElementsAttr>> values = evaluate(op);
      if (failed(values))
        continue;
      rewriter.setInsertionPoint(op);
      SmallVector<Value> constants;
      for (DenseElementsAttr value : *values)
        constants.push_back(
            arith::ConstantOp::create(rewriter, op.getLoc(), value));
      rewriter.replaceOp(op, constants);
    }
  }
};

} // namespace
