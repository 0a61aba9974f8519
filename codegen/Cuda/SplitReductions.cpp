//===- SplitReductions.cpp - the mlxc-split-reductions pass ---------------===//
//
// A reduction with few outputs and long reductions (a sum to a scalar, a
// column sum of few columns) has too little parallelism for the GPU: one
// thread per output, or one warp per row, walking millions of elements. A
// sum over all of a 4096 x 4096 tensor ran as a single thread (842 ms).
//
// Such a reduction becomes two:
//   partials[o..., s] = reduce_j value(o..., s * L + j)    (kernel 1)
//   out[o...]         = C(out[o...], reduce_s partials[o..., s])  (kernel 2)
// where the reduced elements are split into S chunks of L consecutive ones.
// Kernel 1 has S times the parallelism; kernel 2 reads S partials per
// output. Both are linalg.generic ops that the later passes map as usual
// (a row reduction gets a warp per row). The summation order is fixed by
// the shapes alone: results are deterministic from run to run.
//
// The partials start from the constant the output was filled with; that
// constant must be idempotent under the combiner (C(c, c) = c: 0 for sums,
// -inf for max, ...), so that folding it in S + 1 times changes nothing.
//
// Adjacent reduced loops are collapsed into one first, when every input
// holds them as contiguous axes. Named reductions (linalg.reduce) are
// generalized here, so that the row mapping sees them too.
//
//===----------------------------------------------------------------------===//

#include "codegen/Cuda/RowReduction.h"
#include "codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <vector>

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCSPLITREDUCTIONS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;
using mlir::mlx::RowReduction;

namespace {

/// Warps that keep the H200's memory busy (132 SMs); row reductions get a
/// warp per row, so fewer rows than half of this are split.
constexpr int64_t kTargetWarps = 2048;
/// Threads for reductions mapped one thread per output (column sums).
constexpr int64_t kTargetThreads = 131072;
/// The shortest chunk worth a warp, and a thread.
constexpr int64_t kMinWarpChunk = 512;
constexpr int64_t kMinThreadChunk = 32;
/// Fewer chunks than this: not worth a second kernel.
constexpr int64_t kMinParts = 4;

/// How a reduction is split.
struct SplitPlan {
  linalg::GenericOp op;
  /// The reduced loops, consecutive: [first, first + count).
  unsigned first = 0, count = 0;
  /// Whether they are collapsed into one (else only `first` is split).
  bool collapse = false;
  /// Whether each chunk is a row (a warp each, partials [outputs..., S]);
  /// else a thread per (chunk, output), partials [S, outputs...] so that
  /// neighbouring threads update neighbouring partials.
  bool rowLike = false;
  int64_t size = 0;    ///< Elements of the split loop (after collapsing).
  int64_t parts = 0;   ///< S.
  linalg::FillOp fill; ///< Of the output, with the identity.
  TypedAttr identity;
  RowReduction payload; ///< The value ops and the combiner.
};

/// The largest divisor of `n` not above `cap`.
int64_t largestDivisor(int64_t n, int64_t cap) {
  for (int64_t d = std::min(n, cap); d > 1; --d)
    if (n % d == 0)
      return d;
  return 1;
}

/// The fill of `init` with a constant before `op`, if nothing in between
/// touches memory or uses `init`.
linalg::FillOp findInitFill(linalg::GenericOp op, Value init) {
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev)) {
      if (fill.getOutputs()[0] != init ||
          !matchPattern(fill.getInputs()[0], m_Constant()))
        return {};
      return fill;
    }
    if (!isMemoryEffectFree(prev) ||
        llvm::is_contained(prev->getOperands(), init))
      return {};
  }
  return {};
}

/// Whether C(c, c) folds to c.
bool isIdempotent(RowReduction r, TypedAttr c) {
  Block &body = r.op.getRegion().front();
  DenseMap<Value, Attribute> known;
  known[body.getArgument(body.getNumArguments() - 1)] = c;
  known[r.value] = c;
  for (Operation *inner : r.combineOps) {
    SmallVector<Attribute> operands;
    for (Value operand : inner->getOperands()) {
      Attribute attr = known.lookup(operand);
      if (!attr)
        matchPattern(operand, m_Constant(&attr));
      operands.push_back(attr);
    }
    SmallVector<OpFoldResult> folded;
    if (failed(inner->fold(operands, folded)) || folded.size() != 1)
      return false;
    Attribute result = dyn_cast<Attribute>(folded[0]);
    if (!result)
      result = known.lookup(cast<Value>(folded[0]));
    if (!result)
      return false;
    known[inner->getResult(0)] = result;
  }
  return known.lookup(r.combined) == c;
}

/// The consecutive reduced loops of `op` and whether every input holds them
/// as one contiguous run of plain axes (or not at all).
std::optional<SplitPlan> planSplit(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 || op.hasIndexSemantics())
    return std::nullopt;
  std::optional<SmallVector<int64_t, 4>> ranges = op.getStaticLoopRanges();
  if (!ranges || llvm::any_of(*ranges, ShapedType::isDynamic))
    return std::nullopt;
  SplitPlan plan;
  plan.op = op;
  SmallVector<unsigned> reduced;
  op.getReductionDims(reduced);
  plan.first = reduced.front();
  plan.count = reduced.size();
  if (reduced.back() - reduced.front() + 1 != reduced.size())
    return std::nullopt;
  OpOperand *init = op.getDpsInitOperand(0);
  auto initType = dyn_cast<MemRefType>(init->get().getType());
  if (!initType || !initType.hasStaticShape())
    return std::nullopt;
  for (unsigned d = plan.first; d < plan.first + plan.count; ++d)
    if (op.getMatchingIndexingMap(init).isFunctionOfDim(d))
      return std::nullopt;

  // Every input: plain axes; the reduced loops all or none, in order.
  plan.collapse = plan.count > 1;
  bool rowLike = reduced.back() == op.getNumLoops() - 1;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    auto type = dyn_cast<MemRefType>(input->get().getType());
    if (!type || !map.isProjectedPermutation(/*allowZeroInResults=*/false))
      return std::nullopt;
    std::optional<unsigned> at =
        map.getResultPosition(getAffineDimExpr(plan.first, op.getContext()));
    if (!at) {
      for (unsigned d = plan.first; d < plan.first + plan.count; ++d)
        if (map.isFunctionOfDim(d))
          return std::nullopt;
      continue;
    }
    for (unsigned k = 0; k < plan.count; ++k)
      if (*at + k >= map.getNumResults() ||
          map.getDimPosition(*at + k) != plan.first + k)
        return std::nullopt;
    if (*at + plan.count != map.getNumResults())
      rowLike = false;
    ReassociationIndices run;
    for (unsigned k = 0; k < plan.count; ++k)
      run.push_back(*at + k);
    SmallVector<ReassociationIndices> reassociation;
    for (unsigned i = 0; i < *at; ++i)
      reassociation.push_back({i});
    reassociation.push_back(run);
    for (unsigned i = *at + plan.count; i < map.getNumResults(); ++i)
      reassociation.push_back({i});
    if (plan.collapse &&
        !memref::CollapseShapeOp::isGuaranteedCollapsible(type, reassociation))
      plan.collapse = false;
  }
  if (!plan.collapse) {
    // Only the outermost reduced loop is split; the others stay inside.
    rowLike = rowLike && plan.count == 1;
  }
  plan.size = 1;
  for (unsigned k = 0; k < (plan.collapse ? plan.count : 1); ++k)
    plan.size *= (*ranges)[plan.first + k];

  // Enough parallelism already, or too little work to split.
  int64_t outputs = initType.getNumElements();
  plan.rowLike = rowLike;
  if (rowLike) {
    if (outputs >= kTargetWarps / 2 || plan.size < 8 * kMinWarpChunk)
      return std::nullopt;
    plan.parts = largestDivisor(
        plan.size, std::min(kTargetWarps / outputs, plan.size / kMinWarpChunk));
  } else {
    if (outputs >= kTargetThreads / 4 || plan.size < 8 * kMinThreadChunk)
      return std::nullopt;
    plan.parts =
        largestDivisor(plan.size, std::min(kTargetThreads / outputs,
                                           plan.size / kMinThreadChunk));
  }
  if (plan.parts < kMinParts)
    return std::nullopt;

  plan.fill = findInitFill(op, init->get());
  if (!plan.fill)
    return std::nullopt;
  matchPattern(plan.fill.getInputs()[0], m_Constant(&plan.identity));
  std::optional<RowReduction> payload = mlx::splitReductionPayload(op);
  if (!plan.identity || !payload || !isIdempotent(*payload, plan.identity))
    return std::nullopt;
  plan.payload = *payload;
  return plan;
}

/// `input` with its axes [at, at + count) collapsed (when asked) and the
/// first of them split into [parts, rest].
Value reshapeInput(OpBuilder &b, Location loc, Value input, unsigned at,
                   unsigned count, bool collapse, int64_t parts) {
  auto type = cast<MemRefType>(input.getType());
  if (collapse && count > 1) {
    SmallVector<ReassociationIndices> reassociation;
    for (unsigned i = 0; i < at; ++i)
      reassociation.push_back({i});
    ReassociationIndices run;
    for (unsigned k = 0; k < count; ++k)
      run.push_back(at + k);
    reassociation.push_back(run);
    for (unsigned i = at + count; i < type.getRank(); ++i)
      reassociation.push_back({i});
    input = memref::CollapseShapeOp::create(b, loc, input, reassociation);
    type = cast<MemRefType>(input.getType());
  }
  SmallVector<ReassociationIndices> reassociation;
  SmallVector<int64_t> shape;
  for (unsigned i = 0; i < type.getRank(); ++i) {
    if (i == at) {
      reassociation.push_back({static_cast<int64_t>(shape.size()),
                               static_cast<int64_t>(shape.size() + 1)});
      shape.push_back(parts);
      shape.push_back(type.getDimSize(i) / parts);
      continue;
    }
    reassociation.push_back({static_cast<int64_t>(shape.size())});
    shape.push_back(type.getDimSize(i));
  }
  return memref::ExpandShapeOp::create(b, loc, shape, input, reassociation);
}

void applySplit(RewriterBase &rewriter, const SplitPlan &plan) {
  linalg::GenericOp op = plan.op;
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  rewriter.setInsertionPoint(op);
  const RowReduction &payload = plan.payload;
  unsigned merged = plan.collapse ? plan.count : 1;
  unsigned numLoops = op.getNumLoops();
  unsigned newLoops = numLoops - merged + 2;

  // Old loop d -> new loop: before the split ones unchanged, the split run
  // becomes (s, j), the later ones shift.
  auto newDim = [&](unsigned d) -> unsigned {
    if (d < plan.first)
      return d;
    return d - merged + 2;
  };
  SmallVector<AffineExpr> dimMap;
  for (unsigned d = 0; d < numLoops; ++d)
    dimMap.push_back(getAffineDimExpr(
        d >= plan.first && d < plan.first + merged ? plan.first + 1 : newDim(d),
        ctx));
  AffineExpr s = getAffineDimExpr(plan.first, ctx);
  AffineExpr j = getAffineDimExpr(plan.first + 1, ctx);

  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    std::optional<unsigned> at =
        map.getResultPosition(getAffineDimExpr(plan.first, ctx));
    if (!at) {
      inputs.push_back(input->get());
      maps.push_back(map.replaceDimsAndSymbols(dimMap, {}, newLoops, 0));
      continue;
    }
    inputs.push_back(reshapeInput(rewriter, loc, input->get(), *at, plan.count,
                                  plan.collapse, plan.parts));
    SmallVector<AffineExpr> results;
    for (unsigned i = 0; i < map.getNumResults(); ++i) {
      unsigned d = map.getDimPosition(i);
      if (d == plan.first) {
        results.append({s, j});
        continue;
      }
      if (d > plan.first && d < plan.first + merged)
        continue;
      results.push_back(getAffineDimExpr(newDim(d), ctx));
    }
    maps.push_back(AffineMap::get(newLoops, 0, results, ctx));
  }

  // The partials: the output's shape and S, filled with the identity.
  Value out = op.getDpsInitOperand(0)->get();
  auto outType = cast<MemRefType>(out.getType());
  SmallVector<int64_t> partialShape(outType.getShape());
  partialShape.insert(plan.rowLike ? partialShape.end() : partialShape.begin(),
                      plan.parts);
  auto partialType = MemRefType::get(partialShape, outType.getElementType());
  Value partials = memref::AllocOp::create(rewriter, loc, partialType);
  Value identity = arith::ConstantOp::create(rewriter, loc, plan.identity);
  linalg::FillOp::create(rewriter, loc, identity, partials);
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0))
                         .replaceDimsAndSymbols(dimMap, {}, newLoops, 0);
  SmallVector<AffineExpr> partialResults(outMap.getResults());
  partialResults.insert(
      plan.rowLike ? partialResults.end() : partialResults.begin(), s);
  maps.push_back(AffineMap::get(newLoops, 0, partialResults, ctx));

  SmallVector<utils::IteratorType> iterators;
  for (unsigned d = 0; d < numLoops; ++d) {
    if (d == plan.first) {
      iterators.append(
          {utils::IteratorType::parallel, utils::IteratorType::reduction});
      continue;
    }
    if (d > plan.first && d < plan.first + merged)
      continue;
    iterators.push_back(op.getIteratorTypesArray()[d]);
  }
  auto chunks =
      linalg::GenericOp::create(rewriter, loc, TypeRange(), inputs,
                                ValueRange{partials}, maps, iterators);
  rewriter.cloneRegionBefore(op.getRegion(), chunks.getRegion(),
                             chunks.getRegion().begin());

  // out = C(out, reduce_s partials).
  unsigned rank = outType.getRank();
  AffineMap identityMap = AffineMap::getMultiDimIdentityMap(rank + 1, ctx);
  // The partials as kernel 1 laid them out: s last (rows) or first.
  SmallVector<AffineExpr> partialAt(identityMap.getResults());
  if (!plan.rowLike)
    std::rotate(partialAt.begin(), partialAt.end() - 1, partialAt.end());
  AffineMap partialMap = AffineMap::get(rank + 1, 0, partialAt, ctx);
  SmallVector<utils::IteratorType> finalIterators(
      rank, utils::IteratorType::parallel);
  finalIterators.push_back(utils::IteratorType::reduction);
  auto total = linalg::GenericOp::create(
      rewriter, loc, TypeRange(), ValueRange{partials}, ValueRange{out},
      ArrayRef<AffineMap>{partialMap, identityMap.dropResult(rank)},
      finalIterators, [&](OpBuilder &b, Location l, ValueRange args) {
        linalg::YieldOp::create(b, l,
                                mlx::emitCombine(b, payload, args[1], args[0]));
      });
  // The output's fill right before the total: the row mapping folds a fill
  // it finds there into its stores.
  rewriter.moveOpBefore(plan.fill, total);
  rewriter.setInsertionPointAfter(total);
  memref::DeallocOp::create(rewriter, loc, partials);
  rewriter.eraseOp(op);
}

struct MlxcSplitReductionsPass final
    : mlx::impl::MlxcSplitReductionsBase<MlxcSplitReductionsPass> {
  using Base::Base;
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::ReduceOp> named;
    getOperation()->walk([&](linalg::ReduceOp op) {
      if (op.hasPureBufferSemantics())
        named.push_back(op);
    });
    for (linalg::ReduceOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    std::vector<SplitPlan> plans;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (std::optional<SplitPlan> plan = planSplit(op))
        plans.push_back(*plan);
    });
    for (const SplitPlan &plan : plans)
      applySplit(rewriter, plan);
  }
};

} // namespace
