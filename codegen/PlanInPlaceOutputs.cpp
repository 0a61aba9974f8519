//===- PlanInPlaceOutputs.cpp - the mlxc-plan-in-place-outputs pass -------===//
//
// A decode step returns its KV cache updated at one row. Bufferized, the
// output is a copy of the input cache followed by the row's write: the whole
// cache (16.8 MB for one layer of a 32-head, 2049-entry cache) is read and
// written on every step. When the caller donates the input (passes its
// buffer for the output too), the copy is a no-op and only the row moves.
// The guarded copies of a step (a layer's two caches, every layer's) that
// can run together run as one kernel, under one guard: a donated pair in it
// copies its buffer onto itself, which changes nothing.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "Mlx/MlxAttributes.h"
#include "codegen/ProductOperands.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCPLANINPLACEOUTPUTS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

/// The top-level ops (in `block`) that use `buffer` or a view of it, besides
/// `except`.
static SmallVector<Operation *> getTopLevelUses(Value buffer, Block &block,
                                                Operation *except) {
  SmallVector<Operation *> uses;
  SmallVector<Value> worklist = {buffer};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (user == except)
        continue;
      if (isa<ViewLikeOpInterface, memref::TransposeOp>(user) &&
          user->getOperand(0) == value) {
        for (Value result : user->getResults())
          worklist.push_back(result);
      }
      if (Operation *top = block.findAncestorOpInBlock(*user))
        uses.push_back(top);
    }
  }
  return uses;
}

/// The (source, target) of a whole-buffer copy: memref.copy, or linalg.copy
/// on buffers.
static std::optional<std::pair<Value, Value>> getCopy(Operation *op) {
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return std::pair(copy.getSource(), copy.getTarget());
  if (auto copy = dyn_cast<linalg::CopyOp>(op);
      copy && copy.hasPureBufferSemantics())
    return std::pair(copy.getInputs()[0], copy.getOutputs()[0]);
  return std::nullopt;
}

/// Whether `output` may be given the buffer of `input`: `copy` copies the
/// whole input into it, nothing before the copy touches the output, and
/// nothing after it reads the input.
static bool canShare(Block &block, Operation *copy, Value input, Value output) {
  for (Operation *use : getTopLevelUses(output, block, copy))
    if (use->isBeforeInBlock(copy))
      return false;
  for (Operation *use : getTopLevelUses(input, block, copy))
    if (!use->isBeforeInBlock(copy) || isa<memref::DeallocOp>(use))
      return false;
  return true;
}

/// At most this many guarded copies share one kernel.
static constexpr unsigned kMaxMergedCopies = 4;

/// The copy that `guard` runs when its two buffers differ (as built below).
static Operation *getGuardedCopy(scf::IfOp guard) {
  if (!guard || guard.getNumResults() != 0 || !guard.getElseRegion().empty())
    return {};
  Block *then = guard.thenBlock();
  Operation *copy = &then->front();
  auto cmp = guard.getCondition().getDefiningOp<arith::CmpIOp>();
  if (copy == then->getTerminator() ||
      copy != then->getTerminator()->getPrevNode() || !cmp || !getCopy(copy))
    return {};
  return copy;
}

/// The ops that make `guard`'s condition (address reads and a compare, of
/// arguments only), in order.
static SmallVector<Operation *> getConditionOps(scf::IfOp guard) {
  auto cmp = guard.getCondition().getDefiningOp<arith::CmpIOp>();
  SmallVector<Operation *> ops;
  for (Value operand : cmp->getOperands())
    if (Operation *def = operand.getDefiningOp())
      ops.push_back(def);
  ops.push_back(cmp);
  return ops;
}

/// Runs the guarded copies of one type that can move up to the first of
/// them as one kernel under one guard (any pair differs).
static void mergeGuardedCopies(Block &block) {
  SmallVector<scf::IfOp> guards;
  for (Operation &op : block)
    if (auto guard = dyn_cast<scf::IfOp>(op); getGuardedCopy(guard))
      guards.push_back(guard);
  llvm::SmallPtrSet<Operation *, 16> merged;
  for (scf::IfOp first : guards) {
    if (merged.contains(first))
      continue;
    Operation *firstCopy = getGuardedCopy(first);
    SmallVector<scf::IfOp> group = {first};
    for (scf::IfOp next : guards) {
      if (group.size() == kMaxMergedCopies)
        break;
      if (merged.contains(next) || !first->isBeforeInBlock(next))
        continue;
      Operation *copy = getGuardedCopy(next);
      if (copy->getOperandTypes() != firstCopy->getOperandTypes())
        continue;
      // Nothing between the first guard and this one touches its buffers,
      // and its condition reads only arguments.
      auto [from, to] = *getCopy(copy);
      bool movable = isa<BlockArgument>(from) && isa<BlockArgument>(to);
      SmallVector<Operation *> condition = getConditionOps(next);
      for (Operation *op : condition)
        for (Value operand : op->getOperands())
          if (Operation *def = operand.getDefiningOp();
              def && !llvm::is_contained(condition, def))
            movable = false;
      for (Operation *op = first->getNextNode(); movable && op != next;
           op = op->getNextNode())
        if (!llvm::is_contained(condition, op) &&
            (mlx::mayAccess(op, from, false) || mlx::mayAccess(op, to, false)))
          movable = false;
      if (movable)
        group.push_back(next);
    }
    if (group.size() < 2)
      continue;
    OpBuilder b(first);
    Location loc = first.getLoc();
    Value any = first.getCondition();
    SmallVector<Value> inputs, outputs;
    for (scf::IfOp guard : group) {
      if (guard != first) {
        for (Operation *op : getConditionOps(guard))
          op->moveBefore(first);
        any = arith::OrIOp::create(b, loc, any, guard.getCondition());
      }
      auto [from, to] = *getCopy(getGuardedCopy(guard));
      inputs.push_back(from);
      outputs.push_back(to);
    }
    auto guard = scf::IfOp::create(b, loc, any, /*withElse=*/false);
    b.setInsertionPoint(guard.thenBlock()->getTerminator());
    int64_t rank = cast<MemRefType>(inputs.front().getType()).getRank();
    auto copies = linalg::GenericOp::create(
        b, firstCopy->getLoc(), TypeRange(), inputs, outputs,
        SmallVector<AffineMap>(2 * inputs.size(),
                               b.getMultiDimIdentityMap(rank)),
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &body, Location loc, ValueRange args) {
          linalg::YieldOp::create(body, loc, args.take_front(inputs.size()));
        });
    copies->setDiscardableAttrs(firstCopy->getDiscardableAttrDictionary());
    for (scf::IfOp old : group) {
      merged.insert(old);
      old->erase();
    }
  }
}

namespace {
struct MlxcPlanInPlaceOutputsPass final
    : mlx::impl::MlxcPlanInPlaceOutputsBase<MlxcPlanInPlaceOutputsPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation()->walk([](func::FuncOp func) {
      if (func.isExternal() || !func.getBody().hasOneBlock())
        return;
      Block &block = func.getBody().front();
      auto isOutput = [&](unsigned i) {
        return static_cast<bool>(func.getArgAttr(i, "bufferize.result"));
      };
      SmallVector<unsigned> outputs;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        if (isOutput(i))
          outputs.push_back(i);
      if (outputs.empty())
        return;
      SmallVector<int64_t> plan(outputs.size(), -1);
      llvm::SmallDenseSet<unsigned> sharedInputs;
      for (Operation &op : llvm::make_early_inc_range(block)) {
        std::optional<std::pair<Value, Value>> ends = getCopy(&op);
        if (!ends)
          continue;
        Operation *copy = &op;
        auto input = dyn_cast<BlockArgument>(ends->first);
        auto output = dyn_cast<BlockArgument>(ends->second);
        if (!input || !output || input.getOwner() != &block ||
            output.getOwner() != &block || isOutput(input.getArgNumber()) ||
            !isOutput(output.getArgNumber()) ||
            input.getType() != output.getType() ||
            !cast<MemRefType>(input.getType()).getLayout().isIdentity() ||
            sharedInputs.contains(input.getArgNumber()))
          continue;
        auto slot = llvm::find(outputs, output.getArgNumber());
        if (plan[slot - outputs.begin()] >= 0 ||
            !canShare(block, copy, input, output))
          continue;
        // The copy runs only when the caller gave two buffers.
        OpBuilder b(copy);
        Location loc = copy->getLoc();
        // Only the addresses are compared: no access to either buffer
        // (mlx-memory-placement).
        auto address = [&](Value buffer) -> Value {
          auto op =
              memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
          op->setAttr(mlx::attrs::kAddressOnly, b.getUnitAttr());
          return op;
        };
        Value from = address(input), to = address(output);
        Value differ =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, from, to);
        auto guard = scf::IfOp::create(b, loc, differ, /*withElse=*/false);
        copy->moveBefore(guard.thenBlock()->getTerminator());
        plan[slot - outputs.begin()] = input.getArgNumber();
        sharedInputs.insert(input.getArgNumber());
      }
      if (llvm::any_of(plan, [](int64_t i) { return i >= 0; }))
        func->setAttr(mlx::attrs::kInPlace,
                      DenseI64ArrayAttr::get(func.getContext(), plan));
      mergeGuardedCopies(block);
    });
  }
};
} // namespace
