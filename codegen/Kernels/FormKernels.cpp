//===- FormKernels.cpp - the mlxc-form-kernels pass
//------------------------===//
//
// The kernel-formation stage: groups the linalg-on-tensors ops of each
// function into kernel.region ops, one per kernel, each with its strategy.
// Every decision of which ops share a kernel is made here, in one walk over
// the function in program order:
//   - a row reduction opens a row group; the ops that follow over the same
//     rows (elementwise over the rows, per-row scalars, further row
//     reductions) join it while they read a value of the group and all
//     their other operands exist where the group starts;
//   - a matrix product is a kernel with the transposes and broadcasts that
//     only feed it (the library reads those operands through views); any
//     other reduction, an elementwise map and a copy are a kernel each;
//   - a fill joins the kernel whose accumulator it initializes (its only
//     use), else it is an elementwise kernel of its own.
//   - the elementwise map right before a row group, over its rows, is the
//     group's prologue (see findPrologue for when its result is also read
//     elsewhere);
//   - elementwise maps alone in their kernels, over the same loops and not
//     depending on each other (RoPE's two halves), become one generic with
//     the results of all: one kernel.
// Rules that keep kernels honest: an op is in one region only (a reduction
// or a product is never duplicated to fuse it), and an op that needs a value
// computed after the group started (a host read of the group's result, say)
// does not join it.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/ShapeUtils.h"

#include "Kernel/KernelOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

#include <deque>

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCFORMKERNELS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;
using kernel::isProduct;
using kernel::Strategy;
using mlx::dropUnitDims;

namespace {

struct Group {
  Strategy strategy;
  SmallVector<Operation *> ops; ///< Members, fills included.
  Operation *start = nullptr;   ///< The first member that is not a fill.
  SmallVector<int64_t> rows; ///< Row groups: row loop sizes, unit dims dropped.
  int64_t columns = 0;
};

bool isCopy(Operation *op) {
  if (isa<tensor::InsertSliceOp, tensor::PadOp, tensor::ConcatOp,
          linalg::CopyOp, linalg::TransposeOp, linalg::BroadcastOp>(op))
    return true;
  // A generic that only moves elements (a permutation, a broadcast).
  auto generic = dyn_cast<linalg::GenericOp>(op);
  return generic && generic.getNumReductionLoops() == 0 &&
         llvm::hasSingleElement(generic.getBody()->getOperations()) &&
         llvm::all_of(generic.getBody()->getTerminator()->getOperands(),
                      [](Value v) { return isa<BlockArgument>(v); });
}

/// A reduction over the innermost loop that every input reads innermost:
/// the rows are the other loops.
bool isRowReduction(linalg::GenericOp op, Group &shape) {
  if (op.getNumReductionLoops() != 1 || isProduct(op) ||
      op.getNumDpsInits() != 1)
    return false;
  unsigned last = op.getNumLoops() - 1;
  if (op.getIteratorTypesArray().back() != utils::IteratorType::reduction)
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return false;
  AffineExpr reduced = getAffineDimExpr(last, op.getContext());
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.getNumResults() == 0 || map.getResults().back() != reduced)
      return false;
  }
  shape.rows = dropUnitDims(ArrayRef(ranges).drop_back());
  shape.columns = ranges.back();
  return true;
}

/// Ops that are no kernel: they cost nothing at run time (constants,
/// allocation hints, reshapes that become views) and never end a group.
bool isTransparent(Operation *op) {
  return op->hasTrait<OpTrait::ConstantLike>() ||
         isa<tensor::EmptyOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp,
             linalg::FillOp>(op);
}

/// Ops that are cloned into every region that uses them rather than
/// passed in.
bool isClonedIn(Operation *op) { return op->hasTrait<OpTrait::ConstantLike>(); }

/// An empty tensor of static shape: it can move to wherever a region
/// starts. (It stays shared, not cloned: bufferization then places the
/// kernels' results as it did before the regions existed.)
bool isMovableEmpty(Operation *op) {
  return isa<tensor::EmptyOp>(op) && op->getNumOperands() == 0;
}

/// Row groups of up to this many rows take an elementwise prologue only
/// when nothing else reads its result (see findPrologue).
constexpr int64_t kMaxPrologueRowsKeptApart = 4;

/// At most this many elementwise maps share a kernel side by side, found
/// among the next kernels (a bound on the compile time of long graphs).
constexpr int64_t kMaxSiblingMaps = 4;
constexpr int64_t kSiblingWindow = 16;

class KernelFormer {
public:
  explicit KernelFormer(Block &block) : block(block) {}
  void run();

private:
  /// Whether `value` exists before `start` or comes from `group` (views and
  /// constants are followed to their sources).
  bool isAvailable(Value value, const Group &group) const;
  /// Whether `op` (over loops `ranges`) may join the open row group.
  bool joinsRowGroup(linalg::GenericOp op);
  /// Opens a group for `op` with the fill of its accumulator.
  Group &openGroup(Strategy strategy, Operation *op);
  void closeRowGroup() { rowGroup = nullptr; }
  /// The elementwise kernel right before row group `group` that its members
  /// read, if any.
  Group *findPrologue(const Group &group);
  /// Whether `op` is an elementwise map alone in its kernel.
  bool isLoneMap(Operation *op) const;
  /// Whether `value` exists before `point` or is made by ops that can move
  /// there (constants, empty tensors, reshapes of such values);
  /// `hoistBefore` moves them.
  bool canHoistBefore(Value value, Operation *point) const;
  void hoistBefore(Value value, Operation *point);
  /// Merges later elementwise maps over the same loops that do not depend on
  /// it into `group`'s map.
  void mergeSiblingMaps(Group &group);
  void buildRegion(Group &group);

  Block &block;
  std::deque<Group> groups; // stable addresses: groupOf points into it
  Group *rowGroup = nullptr;
  llvm::DenseMap<Operation *, Group *> groupOf;
};

bool KernelFormer::isAvailable(Value value, const Group &group) const {
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != &block)
    return true; // A block argument or a value from above.
  // The group's own values, and anything made before it starts (another
  // kernel's result included).
  if (groupOf.lookup(def) == &group)
    return true;
  if (def->isBeforeInBlock(group.start) || isClonedIn(def) ||
      isMovableEmpty(def))
    return true;
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
    return isAvailable(def->getOperand(0), group);
  return false;
}

Group &KernelFormer::openGroup(Strategy strategy, Operation *op) {
  groups.push_back(Group{strategy, {}, op, {}, 0});
  Group &group = groups.back();
  group.ops.push_back(op);
  groupOf[op] = &group;
  return group;
}

bool KernelFormer::joinsRowGroup(linalg::GenericOp op) {
  if (!rowGroup || isProduct(op) || isCopy(op))
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return false;
  Group shape;
  if (op.getNumReductionLoops() != 0) {
    if (!isRowReduction(op, shape) || shape.rows != rowGroup->rows ||
        shape.columns != rowGroup->columns)
      return false;
  } else {
    SmallVector<int64_t> all = dropUnitDims(ranges), full(rowGroup->rows);
    full.push_back(rowGroup->columns);
    bool overRows = all == full && ranges.back() == rowGroup->columns;
    bool perRow = all == rowGroup->rows;
    if (!overRows && !perRow)
      return false;
  }
  // It reads a value of the group, and everything else it reads exists
  // where the group starts.
  bool readsGroup = false;
  for (Value operand : op->getOperands()) {
    Operation *def = operand.getDefiningOp();
    while (def && isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
      def = def->getOperand(0).getDefiningOp();
    if (def && groupOf.lookup(def) == rowGroup)
      readsGroup = true;
    // A fill that only this op uses joins its kernel below (its operands
    // are constants).
    if (auto fill = operand.getDefiningOp<linalg::FillOp>();
        fill && fill->hasOneUse())
      continue;
    if (!isAvailable(operand, *rowGroup))
      return false;
  }
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  for (Value value : captured)
    if (!isAvailable(value, *rowGroup))
      return false;
  return readsGroup;
}

Group *KernelFormer::findPrologue(const Group &group) {
  // The last kernel op before the group: only transparent ops between.
  Operation *prev = group.start->getPrevNode();
  while (prev && isTransparent(prev))
    prev = prev->getPrevNode();
  auto producer = dyn_cast_or_null<linalg::GenericOp>(prev);
  Group *prologue = producer ? groupOf.lookup(producer) : nullptr;
  if (!prologue || prologue->strategy != Strategy::Elementwise ||
      prologue->ops.size() != 1 || producer->getNumResults() != 1 ||
      producer.getNumReductionLoops() != 0)
    return nullptr;
  // Over the group's rows and columns.
  SmallVector<int64_t> ranges = producer.getStaticLoopRanges();
  SmallVector<int64_t> full(group.rows);
  full.push_back(group.columns);
  if (llvm::any_of(ranges, ShapedType::isDynamic) ||
      dropUnitDims(ranges) != full || ranges.back() != group.columns)
    return nullptr;
  // Read by members alone (through reshapes), or also later when the
  // group has many rows: the row kernel then writes it too, in its final
  // pass (a decoder layer's residual sum, which the next norm reads and the
  // layer returns: one read of it saved). A group of a few rows keeps it
  // apart: such a row kernel can run inside the blocks of the vector
  // products that read it (mlxc-split-vector-products), which write no
  // other row.
  bool read = false, escapes = false;
  SmallVector<Value> worklist = {producer->getResult(0)};
  while (!worklist.empty()) {
    for (Operation *user : worklist.pop_back_val().getUsers()) {
      if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user))
        worklist.push_back(user->getResult(0));
      else if (groupOf.lookup(user) == &group)
        read = true;
      else
        escapes = true;
    }
  }
  if (!read ||
      (escapes && llvm::product_of(group.rows) <= kMaxPrologueRowsKeptApart))
    return nullptr;
  return prologue;
}

bool KernelFormer::isLoneMap(Operation *op) const {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  Group *group = groupOf.lookup(op);
  return generic && group && group->strategy == Strategy::Elementwise &&
         group->ops.size() == 1 && generic.hasPureTensorSemantics() &&
         generic.getNumReductionLoops() == 0 && !isCopy(op) &&
         llvm::none_of(generic.getStaticLoopRanges(), ShapedType::isDynamic);
}

bool KernelFormer::canHoistBefore(Value value, Operation *point) const {
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != &block || def->isBeforeInBlock(point))
    return true;
  if (def == point ||
      !(isClonedIn(def) || isMovableEmpty(def) ||
        isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def)))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return canHoistBefore(operand, point);
  });
}

void KernelFormer::hoistBefore(Value value, Operation *point) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != &block || def->isBeforeInBlock(point))
    return;
  for (Value operand : def->getOperands())
    hoistBefore(operand, point);
  def->moveBefore(point);
}

void KernelFormer::mergeSiblingMaps(Group &group) {
  auto first = cast<linalg::GenericOp>(group.ops.front());
  SmallVector<int64_t> ranges = first.getStaticLoopRanges();
  int64_t merged = 1, scanned = 0;
  for (Operation *op = first->getNextNode();
       op && merged < kMaxSiblingMaps && scanned < kSiblingWindow;
       op = op->getNextNode()) {
    if (isTransparent(op) || !groupOf.lookup(op))
      continue;
    ++scanned;
    auto next = dyn_cast<linalg::GenericOp>(op);
    if (!isLoneMap(op) || next.getStaticLoopRanges() != ranges)
      continue;
    // Everything `next` reads must exist where `first` runs (so it cannot
    // depend on `first`).
    llvm::SetVector<Value> reads(next->getOperands().begin(),
                                 next->getOperands().end());
    getUsedValuesDefinedAbove(next->getRegions(), reads);
    if (!llvm::all_of(
            reads, [&](Value value) { return canHoistBefore(value, first); }))
      continue;
    for (Value value : reads)
      hoistBefore(value, first);
    // One generic: `first`'s operands, then `next`'s, bodies side by side.
    OpBuilder b(first);
    SmallVector<Value> inputs(first.getDpsInputs()), inits(first.getDpsInits());
    llvm::append_range(inputs, next.getDpsInputs());
    for (Value init : next.getDpsInits()) {
      // Each result its own destination (CSE may have merged the empties).
      if (llvm::is_contained(inits, init) && init.getDefiningOp() &&
          isMovableEmpty(init.getDefiningOp()))
        init = b.clone(*init.getDefiningOp())->getResult(0);
      inits.push_back(init);
    }
    SmallVector<AffineMap> maps;
    for (linalg::GenericOp g : {first, next})
      for (OpOperand *input : g.getDpsInputOperands())
        maps.push_back(g.getMatchingIndexingMap(input));
    for (linalg::GenericOp g : {first, next})
      for (OpOperand &init : g.getDpsInitsMutable())
        maps.push_back(g.getMatchingIndexingMap(&init));
    SmallVector<Type> resultTypes(first->getResultTypes());
    llvm::append_range(resultTypes, next->getResultTypes());
    auto fused = linalg::GenericOp::create(
        b, b.getFusedLoc({first.getLoc(), next.getLoc()}), resultTypes, inputs,
        inits, maps, first.getIteratorTypesArray());
    SmallVector<BlockArgument> args;
    auto argsOf = [](linalg::GenericOp g, bool ins) {
      ArrayRef<BlockArgument> all = g.getBody()->getArguments();
      unsigned n = g.getNumDpsInputs();
      return ins ? all.take_front(n) : all.drop_front(n);
    };
    for (bool ins : {true, false})
      for (linalg::GenericOp g : {first, next})
        llvm::append_range(args, argsOf(g, ins));
    Block *body = b.createBlock(
        &fused.getRegion(), {},
        llvm::map_to_vector(args, [](BlockArgument a) { return a.getType(); }),
        llvm::map_to_vector(args, [](BlockArgument a) { return a.getLoc(); }));
    IRMapping mapping;
    for (auto [old, arg] : llvm::zip(args, body->getArguments()))
      mapping.map(old, arg);
    SmallVector<Value> yielded;
    for (linalg::GenericOp g : {first, next}) {
      for (Operation &inner : g.getBody()->without_terminator())
        b.clone(inner, mapping);
      for (Value v : g.getBody()->getTerminator()->getOperands())
        yielded.push_back(mapping.lookupOrDefault(v));
    }
    linalg::YieldOp::create(b, fused.getLoc(), yielded);

    unsigned n = first->getNumResults();
    first->replaceAllUsesWith(fused->getResults().take_front(n));
    next->replaceAllUsesWith(fused->getResults().drop_front(n));
    Group *other = groupOf.lookup(next);
    other->ops.clear();
    groupOf.erase(next);
    groupOf.erase(first);
    next->erase();
    first->erase();
    groupOf[fused] = &group;
    group.ops = {fused.getOperation()};
    group.start = fused;
    first = fused;
    op = fused; // go on after the merged map
    ++merged;
  }
}

void KernelFormer::run() {
  // A fill that initializes several accumulators (CSE merges the zeros of
  // a mean and a variance) is cloned per accumulator: a fill is cheap to
  // recompute, and each copy joins its own user's kernel.
  for (Operation &op : llvm::make_early_inc_range(block)) {
    auto fill = dyn_cast<linalg::FillOp>(&op);
    if (!fill || fill->hasOneUse())
      continue;
    for (OpOperand &use : llvm::make_early_inc_range(fill->getUses())) {
      auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
      if (!dps || !dps.isDpsInit(&use) || fill->hasOneUse())
        continue;
      OpBuilder b(use.getOwner());
      use.set(b.clone(*fill)->getResult(0));
    }
  }
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (isTransparent(&op))
      continue;
    auto generic = dyn_cast<linalg::GenericOp>(&op);
    if (generic && joinsRowGroup(generic)) {
      rowGroup->ops.push_back(&op);
      groupOf[&op] = rowGroup;
      continue;
    }
    closeRowGroup();
    Group shape;
    if (isProduct(&op)) {
      Group &group = openGroup(Strategy::Product, &op);
      // A transpose or broadcast that only feeds the product is how the
      // library reads that operand (a transposed view, batch stride 0):
      // it joins the product's kernel.
      for (Value input : cast<DestinationStyleOpInterface>(op).getDpsInputs()) {
        Value value = input;
        Operation *def = value.getDefiningOp();
        while (def &&
               isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def) &&
               def->hasOneUse()) {
          value = def->getOperand(0);
          def = value.getDefiningOp();
        }
        Group *copy = def ? groupOf.lookup(def) : nullptr;
        if (!isa_and_nonnull<linalg::TransposeOp, linalg::BroadcastOp>(def) ||
            !def->hasOneUse() || !copy || copy->strategy != Strategy::Copy ||
            copy->ops.size() != 1)
          continue;
        copy->ops.clear();
        group.ops.push_back(def);
        groupOf[def] = &group;
      }
    } else if (generic && isRowReduction(generic, shape)) {
      Group &group = openGroup(Strategy::RowReduction, &op);
      group.rows = shape.rows;
      group.columns = shape.columns;
      rowGroup = &group;
    } else if (isa<kernel::AttentionOp>(&op)) {
      openGroup(Strategy::Attention, &op);
    } else if (isa<kernel::QuantizedMatmulOp>(&op)) {
      openGroup(Strategy::QuantizedProduct, &op);
    } else if (isCopy(&op)) {
      openGroup(Strategy::Copy, &op);
    } else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op)) {
      openGroup(linalgOp.getNumReductionLoops() ? Strategy::Reduction
                                                : Strategy::Elementwise,
                &op);
    }
    // Anything else (loops of sort and scan, host reads, calls) is no
    // kernel region and ends the row group.
  }
  // The elementwise op right before a row group that the group reads
  // (attention's scale and mask before its softmax, the residual sum before
  // a norm) is its prologue: its result reaches memory only if read later.
  for (Group &group : groups) {
    if (group.strategy != Strategy::RowReduction || group.ops.empty())
      continue;
    if (Group *prologue = findPrologue(group)) {
      Operation *member = prologue->ops.front();
      prologue->ops.clear();
      group.ops.push_back(member);
      groupOf[member] = &group;
      group.start = member;
    }
  }
  // Fills: into the kernel of the op whose accumulator they are (their
  // only use), else a kernel of their own.
  for (Operation &op : block) {
    auto fill = dyn_cast<linalg::FillOp>(&op);
    if (!fill)
      continue;
    Group *owner = nullptr;
    if (fill->hasOneUse()) {
      Operation *user = *fill->getUsers().begin();
      auto dps = dyn_cast<DestinationStyleOpInterface>(user);
      if (dps && dps.isDpsInit(&*fill->getUses().begin()))
        owner = groupOf.lookup(user);
    }
    if (!owner)
      owner = &openGroup(Strategy::Elementwise, fill);
    else
      owner->ops.push_back(fill);
    groupOf[fill] = owner;
  }
  // Elementwise maps over the same loops that do not depend on each other
  // (the two halves of a RoPE rotation) share one kernel: one generic with
  // the results of both.
  for (Group &group : groups)
    if (!group.ops.empty() && isLoneMap(group.ops.front()))
      mergeSiblingMaps(group);
  for (Group &group : groups) {
    if (group.ops.empty())
      continue; // merged into another kernel
    llvm::sort(group.ops, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    buildRegion(group);
  }
}

void KernelFormer::buildRegion(Group &group) {
  llvm::SmallPtrSet<Operation *, 16> members(group.ops.begin(),
                                             group.ops.end());
  // Views between members move in with them: those only members use, and
  // those made after the group starts (a view of a member's result).
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation &op : block) {
      if (members.contains(&op) ||
          !isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op) ||
          llvm::none_of(op.getUsers(), [&](Operation *user) {
            return members.contains(user);
          }))
        continue;
      bool onlyMembers = llvm::all_of(op.getUsers(), [&](Operation *user) {
        return members.contains(user);
      });
      if (onlyMembers || !op.isBeforeInBlock(group.start)) {
        members.insert(&op);
        changed = true;
      }
    }
  }
  SmallVector<Operation *> ordered;
  for (Operation &op : block)
    if (members.contains(&op))
      ordered.push_back(&op);

  // Inputs: values the members use from outside, in first-use order;
  // constants and empty tensors are cloned in instead.
  llvm::SetVector<Value> inputs;
  llvm::SetVector<Operation *> clones;
  auto use = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (def && members.contains(def))
      return;
    if (def && isClonedIn(def) && def->getNumOperands() == 0) {
      clones.insert(def);
      return;
    }
    if (def && isMovableEmpty(def) && group.start->isBeforeInBlock(def))
      def->moveBefore(group.start);
    inputs.insert(value);
  };
  for (Operation *op : ordered) {
    for (Value operand : op->getOperands())
      use(operand);
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    for (Value value : captured)
      use(value);
  }
  // Results: member values used outside the group.
  SmallVector<Value> results;
  for (Operation *op : ordered)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !members.contains(user);
          }))
        results.push_back(result);

  OpBuilder b(group.start);
  Location loc =
      group.ops.size() == 1
          ? group.ops.front()->getLoc()
          : b.getFusedLoc(llvm::map_to_vector(
                group.ops, [](Operation *op) { return op->getLoc(); }));
  auto region =
      kernel::RegionOp::create(b, loc, group.strategy, inputs.getArrayRef(),
                               TypeRange(ValueRange(results)));
  Block &body = region.getBody().front();
  IRMapping mapping;
  for (auto [input, arg] : llvm::zip(inputs, body.getArguments()))
    mapping.map(input, arg);
  OpBuilder inner = OpBuilder::atBlockEnd(&body);
  for (Operation *op : clones)
    inner.clone(*op, mapping);
  for (Operation *op : ordered)
    inner.clone(*op, mapping);
  kernel::YieldOp::create(
      inner, loc,
      llvm::map_to_vector(results, [&](Value v) { return mapping.lookup(v); }));
  for (auto [result, replacement] : llvm::zip(results, region.getResults()))
    result.replaceUsesWithIf(replacement, [&](OpOperand &operand) {
      return !members.contains(operand.getOwner());
    });
  for (Operation *op : llvm::reverse(ordered)) {
    groupOf.erase(op);
    op->erase();
  }
  for (Operation *op : clones)
    if (op->use_empty())
      op->erase();
}

struct MlxcFormKernelsPass final
    : mlx::impl::MlxcFormKernelsBase<MlxcFormKernelsPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation()->walk([](func::FuncOp func) {
      if (!func.isExternal())
        KernelFormer(func.getBody().front()).run();
    });
  }
};

} // namespace
