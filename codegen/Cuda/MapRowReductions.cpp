//===- MapRowReductions.cpp - the mlxc-map-row-reductions pass ------------===//
//
// A row reduction (the reduced dimension is the innermost loop and the
// innermost axis of every input) lowered by convert-linalg-to-parallel-loops
// gets one thread per row: neighbouring threads read addresses a row apart,
// and each step rereads and rewrites the output element in memory. Here each
// row gets one warp instead: lane l accumulates elements l, l+32, ... in a
// register (coalesced 128-byte reads), the warp combines its 32 partials
// with xor shuffles, and lane 0 folds the total into the output element.
//
// The payload `out' = P(ins, out)` is split into the part that does not
// depend on `out` (the element's value v) and the combiner C(out, v); the
// combiner of MLX's reductions (sum, prod, max/min with NaN propagation,
// all/any) is associative and commutative, so partials merge with C too.
//
//===----------------------------------------------------------------------===//

#include "codegen/Cuda/Arch.h"
#include "Mlx/MlxAttributes.h"
#include "codegen/Cuda/RowReduction.h"
#include "codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

#include <functional>

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCMAPROWREDUCTIONS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;
using mlx::kWarpSize;
using mlir::mlx::emitCombine;
using mlir::mlx::matchRowReduction;
using mlir::mlx::RowReduction;

static constexpr int64_t kWarpsPerBlock = 8;

/// Ops allowed in a combiner: associative merges and the comparisons and
/// selects that MLX's max/min (with NaN propagation) are made of.
static bool isCombinerOp(Operation *op) {
  return isa<arith::AddFOp, arith::MulFOp, arith::AddIOp, arith::MulIOp,
             arith::AndIOp, arith::OrIOp, arith::MaximumFOp, arith::MinimumFOp,
             arith::MaxNumFOp, arith::MinNumFOp, arith::MaxSIOp, arith::MinSIOp,
             arith::MaxUIOp, arith::MinUIOp, arith::CmpFOp, arith::CmpIOp,
             arith::SelectOp>(op);
}

std::optional<RowReduction> mlx::matchRowReduction(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1)
    return std::nullopt;
  unsigned numLoops = op.getNumLoops();
  auto iterators = op.getIteratorTypesArray();
  if (iterators.back() != utils::IteratorType::reduction)
    return std::nullopt;
  std::optional<SmallVector<int64_t, 4>> ranges = op.getStaticLoopRanges();
  if (!ranges || llvm::any_of(*ranges, ShapedType::isDynamic))
    return std::nullopt;
  // Only row reductions: every input reads the reduced dim innermost (else
  // one thread per output element is already coalesced).
  AffineExpr reduced = getAffineDimExpr(numLoops - 1, op.getContext());
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!isa<MemRefType>(input->get().getType()) || map.getNumResults() == 0 ||
        map.getResults().back() != reduced)
      return std::nullopt;
  }
  OpOperand *init = op.getDpsInitOperand(0);
  if (op.getMatchingIndexingMap(init).isFunctionOfDim(numLoops - 1))
    return std::nullopt;
  std::optional<RowReduction> r = splitReductionPayload(op);
  if (!r)
    return std::nullopt;
  r->parallelSizes.assign(ranges->begin(), ranges->end() - 1);
  r->reducedSize = ranges->back();
  return r;
}

std::optional<RowReduction> mlx::splitReductionPayload(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1)
    return std::nullopt;
  OpOperand *init = op.getDpsInitOperand(0);
  Type element = getElementTypeOrSelf(init->get().getType());
  // The warp shuffle moves 32-bit values; f16/bf16 travel as f32 (exact).
  if (!element.isF32() && !element.isInteger(32) && !element.isF16() &&
      !element.isBF16())
    return std::nullopt;

  RowReduction r;
  r.op = op;
  Block &body = op.getRegion().front();
  BlockArgument out = body.getArgument(body.getNumArguments() - 1);
  r.combined = body.getTerminator()->getOperand(0);
  // Split by dependence on `out`.
  llvm::SmallPtrSet<Operation *, 8> dependsOnOut;
  for (Operation &inner : body.without_terminator()) {
    bool depends = llvm::any_of(inner.getOperands(), [&](Value v) {
      return v == out ||
             (v.getDefiningOp() && dependsOnOut.contains(v.getDefiningOp()));
    });
    if (depends) {
      if (!isCombinerOp(&inner) || inner.getNumRegions())
        return std::nullopt;
      dependsOnOut.insert(&inner);
      r.combineOps.push_back(&inner);
    } else {
      r.valueOps.push_back(&inner);
    }
  }
  if (r.combineOps.empty() || r.combined.getDefiningOp() != r.combineOps.back())
    return std::nullopt;
  // The values the combiner takes from outside.
  llvm::SetVector<Value> outside;
  for (Operation *inner : r.combineOps)
    for (Value operand : inner->getOperands())
      if (operand != out &&
          !(operand.getDefiningOp() &&
            dependsOnOut.contains(operand.getDefiningOp())) &&
          !operand.getDefiningOp<arith::ConstantOp>())
        outside.insert(operand);
  // One of them is v; the others must be functions of v alone (MLX's max
  // tests isnan(v)): those ops join the combiner.
  for (Value candidate : outside) {
    SmallVector<Operation *> derived;
    llvm::SmallPtrSet<Operation *, 4> seen;
    std::function<bool(Value)> onlyFrom = [&](Value v) -> bool {
      if (v == candidate || v.getDefiningOp<arith::ConstantOp>())
        return true;
      Operation *def = v.getDefiningOp();
      if (!def || !llvm::is_contained(r.valueOps, def) || !isCombinerOp(def))
        return false;
      if (!seen.insert(def).second)
        return true;
      if (!llvm::all_of(def->getOperands(), onlyFrom))
        return false;
      derived.push_back(def);
      return true;
    };
    if (llvm::all_of(outside, onlyFrom)) {
      r.value = candidate;
      llvm::sort(derived, [](Operation *a, Operation *b) {
        return a->isBeforeInBlock(b);
      });
      r.combineOps.insert(r.combineOps.begin(), derived.begin(), derived.end());
      break;
    }
  }
  if (!r.value || r.value.getType() != element)
    return std::nullopt;
  // v must not be used by the combiner's ops only through `out`'s side:
  // its ops must not read the output either (checked above), and no payload
  // op may have regions or side effects.
  for (Operation *inner : r.valueOps)
    if (inner->getNumRegions() || !isMemoryEffectFree(inner))
      return std::nullopt;
  return r;
}

Value mlx::emitCombine(OpBuilder &b, const RowReduction &r, Value a,
                       Value bValue) {
  linalg::GenericOp op = r.op;
  Block &body = op.getRegion().front();
  IRMapping map;
  map.map(body.getArgument(body.getNumArguments() - 1), a);
  map.map(r.value, bValue);
  for (Operation *inner : r.combineOps) {
    for (Value operand : inner->getOperands())
      if (auto constant = operand.getDefiningOp<arith::ConstantOp>();
          constant && !map.contains(operand))
        b.clone(*constant, map);
    b.clone(*inner, map);
  }
  return map.lookup(r.combined);
}

Value mlx::emitShuffleXor(OpBuilder &b, Location loc, Value value,
                          int64_t offset) {
  Type type = value.getType();
  bool widen = type.isF16() || type.isBF16();
  Value sent =
      widen ? arith::ExtFOp::create(b, loc, b.getF32Type(), value) : value;
  Value other =
      gpu::ShuffleOp::create(
          b, loc, sent, arith::ConstantIntOp::create(b, loc, offset, 32),
          arith::ConstantIntOp::create(b, loc, kWarpSize, 32),
          gpu::ShuffleMode::XOR)
          .getShuffleResult();
  return widen ? arith::TruncFOp::create(b, loc, type, other).getResult()
               : other;
}

Value mlx::emitWarpButterfly(OpBuilder &b, Location loc, const RowReduction &r,
                             Value partial, Value &hasBits) {
  // Every lane holds a partial: no flags travel with them (half the
  // shuffles).
  if (matchPattern(hasBits, m_One())) {
    for (int64_t offset = kWarpSize / 2; offset >= 1; offset /= 2)
      partial =
          emitCombine(b, r, partial, emitShuffleXor(b, loc, partial, offset));
    return partial;
  }
  for (int64_t offset = kWarpSize / 2; offset >= 1; offset /= 2) {
    Value other = emitShuffleXor(b, loc, partial, offset);
    Value otherBits = emitShuffleXor(b, loc, hasBits, offset);
    Value otherHas = arith::TruncIOp::create(b, loc, b.getI1Type(), otherBits);
    Value mine = arith::TruncIOp::create(b, loc, b.getI1Type(), hasBits);
    Value merged = emitCombine(b, r, partial, other);
    Value both = arith::AndIOp::create(b, loc, mine, otherHas);
    partial = arith::SelectOp::create(
        b, loc, both, merged,
        arith::SelectOp::create(b, loc, mine, partial, other));
    hasBits = arith::OrIOp::create(b, loc, hasBits, otherBits);
  }
  return partial;
}

namespace {

/// Emits v at loop indices `ivs` (parallel dims, then the reduced one).
static Value emitValue(OpBuilder &b, Location loc, const RowReduction &r,
                       ValueRange ivs) {
  linalg::GenericOp op = r.op;
  Block &body = op.getRegion().front();
  IRMapping map;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap indexing = op.getMatchingIndexingMap(input);
    SmallVector<Value> indices;
    for (AffineExpr expr : indexing.getResults())
      indices.push_back(affine::AffineApplyOp::create(
          b, loc, AffineMap::get(indexing.getNumDims(), 0, expr), ivs));
    Value element =
        memref::LoadOp::create(b, loc, input->get(), indices).getResult();
    map.map(body.getArgument(input->getOperandNumber()), element);
  }
  for (Operation *inner : r.valueOps) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      map.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    b.clone(*inner, map);
  }
  return map.lookupOrDefault(r.value);
}

/// The constant fill of the output right before `r`'s op, when every output
/// element is some row's (the output map permutes the parallel loops) and
/// every row has elements: the row's store can start from the constant
/// instead of reading it back, and the fill's kernel goes away.
static linalg::FillOp findFoldableFill(const RowReduction &r) {
  linalg::GenericOp op = r.op;
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  OpOperand *init = op.getDpsInitOperand(0);
  if (!fill || fill.getOutputs()[0] != init->get() || r.reducedSize == 0 ||
      !fill.getInputs()[0].getDefiningOp<arith::ConstantOp>())
    return {};
  // Every output element is one row's: the results are the parallel loops,
  // each once (the matcher ensured the reduced one is not among them), and
  // zeros over unit axes (keepdims).
  AffineMap map = op.getMatchingIndexingMap(init);
  auto type = cast<MemRefType>(init->get().getType());
  if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
    return {};
  unsigned dims = 0;
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    if (isa<AffineDimExpr>(expr))
      ++dims;
    else if (type.getDimSize(i) != 1)
      return {};
  }
  if (dims + 1 != map.getNumDims())
    return {};
  return fill;
}

static void rewrite(const RowReduction &r) {
  linalg::GenericOp op = r.op;
  Location loc = op.getLoc();
  linalg::FillOp fill = findFoldableFill(r);
  OpBuilder b(op);
  Type element = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  int64_t rows = 1;
  for (int64_t size : r.parallelSizes)
    rows *= size;
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value zero = cst(0), one = cst(1);
  Value numBlocks = cst(llvm::divideCeil(rows, kWarpsPerBlock));
  auto grid = scf::ParallelOp::create(b, loc, ValueRange{zero},
                                      ValueRange{numBlocks}, ValueRange{one});
  grid->setAttr(mlx::attrs::kRowReduction, b.getUnitAttr());
  b.setInsertionPointToStart(grid.getBody());
  auto threads = scf::ParallelOp::create(
      b, loc, ValueRange{zero, zero},
      ValueRange{cst(kWarpSize), cst(kWarpsPerBlock)}, ValueRange{one, one});
  b.setInsertionPointToStart(threads.getBody());
  Value lane = threads.getInductionVars()[0];
  Value warp = threads.getInductionVars()[1];
  Value row = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, grid.getInductionVars()[0],
                            cst(kWarpsPerBlock)),
      warp);
  Value rowValid =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, cst(rows));
  Value laneValid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          lane, cst(r.reducedSize));
  Value has = arith::AndIOp::create(b, loc, rowValid, laneValid);
  // The row's indices: delinearize (rows past the end read row 0; their
  // partials are never used).
  Value safeRow = arith::SelectOp::create(b, loc, rowValid, row, zero);
  SmallVector<Value> ivs(r.parallelSizes.size());
  Value rest = safeRow;
  for (int i = static_cast<int>(r.parallelSizes.size()) - 1; i >= 0; --i) {
    Value size = cst(r.parallelSizes[i]);
    ivs[i] = arith::RemUIOp::create(b, loc, rest, size);
    rest = arith::DivUIOp::create(b, loc, rest, size);
  }
  // Partial of this lane: elements lane, lane + 32, ...
  Value zeroValue = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  auto first = scf::IfOp::create(b, loc, TypeRange{element}, has,
                                 /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(first.thenBlock());
    SmallVector<Value> at(ivs);
    at.push_back(lane);
    scf::YieldOp::create(b, loc, emitValue(b, loc, r, at));
    b.setInsertionPointToStart(first.elseBlock());
    scf::YieldOp::create(b, loc, zeroValue);
  }
  Value start = arith::AddIOp::create(b, loc, lane, cst(kWarpSize));
  Value end =
      arith::SelectOp::create(b, loc, rowValid, cst(r.reducedSize), zero);
  auto loop = scf::ForOp::create(
      b, loc, start, end, cst(kWarpSize), ValueRange(first.getResults()),
      [&](OpBuilder &body, Location l, Value j, ValueRange acc) {
        SmallVector<Value> at(ivs);
        at.push_back(j);
        Value v = emitValue(body, l, r, at);
        scf::YieldOp::create(body, l, emitCombine(body, r, acc[0], v));
      });
  Value partial = loop.getResult(0);
  // Butterfly over the warp; lanes without elements contribute nothing.
  Value hasBits = arith::ExtUIOp::create(b, loc, b.getI32Type(), has);
  partial = emitWarpButterfly(b, loc, r, partial, hasBits);
  // Lane 0 folds the row's total into the output element.
  Value isLane0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, zero);
  Value anyElement = arith::TruncIOp::create(b, loc, b.getI1Type(), hasBits);
  Value store = arith::AndIOp::create(
      b, loc, arith::AndIOp::create(b, loc, isLane0, rowValid), anyElement);
  scf::IfOp::create(b, loc, store, [&](OpBuilder &then, Location l) {
    OpOperand *init = op.getDpsInitOperand(0);
    AffineMap indexing = op.getMatchingIndexingMap(init);
    SmallVector<Value> at(ivs);
    at.push_back(zero); // The reduced dim does not index the output.
    SmallVector<Value> indices;
    for (AffineExpr expr : indexing.getResults())
      indices.push_back(affine::AffineApplyOp::create(
          then, l, AffineMap::get(indexing.getNumDims(), 0, expr), at));
    Value old =
        fill
            ? then.clone(*fill.getInputs()[0].getDefiningOp())->getResult(0)
            : memref::LoadOp::create(then, l, init->get(), indices).getResult();
    Value total = emitCombine(then, r, old, partial);
    memref::StoreOp::create(then, l, total, init->get(), indices);
    scf::YieldOp::create(then, l);
  });
  op.erase();
  if (fill)
    fill.erase();
}

struct MlxcMapRowReductionsPass final
    : mlx::impl::MlxcMapRowReductionsBase<MlxcMapRowReductionsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<RowReduction> matches;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (std::optional<RowReduction> r = matchRowReduction(op))
        matches.push_back(std::move(*r));
    });
    for (const RowReduction &r : matches)
      rewrite(r);
  }
};
} // namespace
