//===- AttentionCacheCopy.cpp - a KV cache's copy made by attention -------===//
//
// The match behind takeCacheCopy: walking back from the attention op, the
// ops that touch the cache must be whole-row writes of a window of key rows
// (the new entries: a RoPE kernel's outputs, a copy of the new values),
// until the whole-cache copy into it (under mlxc-plan-in-place-outputs'
// guard, maybe one pair of a copy kernel of several caches). Nothing in
// between may write the copy's source.
//
//===----------------------------------------------------------------------===//

#include "codegen/Cuda/AttentionCacheCopy.h"
#include "codegen/ProductOperands.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::mlx;

namespace {
/// The key axis of a [batch, heads, keys, dim] cache.
constexpr unsigned kKeyAxis = 2;

/// A copy of a whole buffer: memref.copy, linalg.copy, or one (input,
/// output) pair of a linalg.generic that passes its inputs through.
struct WholeCopy {
  Operation *op;
  Value source;
  unsigned output; ///< The pair's output (a generic's init index).
};

std::optional<WholeCopy> getWholeCopyInto(Operation *op, Value target) {
  if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    if (copy.getTarget() == target)
      return WholeCopy{op, copy.getSource(), 0};
    return std::nullopt;
  }
  if (auto copy = dyn_cast<linalg::CopyOp>(op)) {
    if (copy.hasPureBufferSemantics() && copy.getOutputs()[0] == target)
      return WholeCopy{op, copy.getInputs()[0], 0};
    return std::nullopt;
  }
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureBufferSemantics() ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  for (auto [i, init] : llvm::enumerate(generic.getDpsInits())) {
    if (init != target)
      continue;
    auto arg = dyn_cast<BlockArgument>(yield.getOperand(i));
    if (!arg || arg.getOwner() != generic.getBody() ||
        arg.getArgNumber() >= generic.getNumDpsInputs())
      return std::nullopt;
    return WholeCopy{op, generic.getDpsInputs()[arg.getArgNumber()],
                     static_cast<unsigned>(i)};
  }
  return std::nullopt;
}

/// The op a guard (scf.if without results or else, one op inside) runs, or
/// `op` itself.
Operation *getGuarded(Operation *op) {
  auto guard = dyn_cast<scf::IfOp>(op);
  if (!guard || guard.getNumResults() != 0 || !guard.getElseRegion().empty())
    return op;
  Block *then = guard.thenBlock();
  Operation *inner = &then->front();
  return inner->getNextNode() == then->getTerminator() ? inner : op;
}

/// A part of the cache: static offsets and sizes but the key axis's offset.
struct Box {
  SmallVector<int64_t> offsets, sizes;
  OpFoldResult keyOffset;
};

/// The box that `view` is: a subview of `cache` itself at unit strides.
std::optional<Box> getBox(Value view, Value cache) {
  auto subview = view.getDefiningOp<memref::SubViewOp>();
  if (!subview || subview.getSource() != cache ||
      subview.getType().getRank() != subview.getSourceType().getRank() ||
      !llvm::all_of(subview.getStaticStrides(),
                    [](int64_t s) { return s == 1; }))
    return std::nullopt;
  Box box;
  for (auto [d, offset, size] :
       llvm::enumerate(subview.getMixedOffsets(), subview.getMixedSizes())) {
    std::optional<int64_t> staticSize = getConstantIntValue(size);
    std::optional<int64_t> staticOffset = getConstantIntValue(offset);
    if (!staticSize || (d != kKeyAxis && !staticOffset))
      return std::nullopt;
    box.sizes.push_back(*staticSize);
    box.offsets.push_back(staticOffset.value_or(0));
    if (d == kKeyAxis)
      box.keyOffset = offset;
  }
  return box;
}

/// The boxes of `cache` that `op` writes whole, when it writes the cache
/// only through such subviews and reads none of it.
std::optional<SmallVector<Box>> getBoxWrites(Operation *op, Value cache) {
  SmallVector<Box> boxes;
  auto inCache = [&](Value v) { return getRootBuffer(v) == cache; };
  auto addTarget = [&](Value target) {
    if (!inCache(target))
      return true;
    std::optional<Box> box = getBox(target, cache);
    if (box)
      boxes.push_back(*box);
    return box.has_value();
  };
  if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    if (inCache(copy.getSource()) || !addTarget(copy.getTarget()))
      return std::nullopt;
    return boxes;
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  // Every point of an init is written when the loops are parallel and its
  // map a permutation.
  if (!linalgOp || !linalgOp.hasPureBufferSemantics() ||
      linalgOp.getNumParallelLoops() != linalgOp.getNumLoops())
    return std::nullopt;
  for (OpOperand *input : linalgOp.getDpsInputOperands())
    if (inCache(input->get()))
      return std::nullopt;
  for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
    if (!inCache(init.get()))
      continue;
    if (linalgOp.payloadUsesValueFromOperand(&init) ||
        !linalgOp.getMatchingIndexingMap(&init).isPermutation() ||
        !addTarget(init.get()))
      return std::nullopt;
  }
  return boxes;
}

/// The window of key rows that `boxes` cover whole and exactly, one box
/// each point: the same key offset and size, disjoint, and across the other
/// axes as many points as a key row has. No boxes: an empty window.
std::optional<std::pair<OpFoldResult, int64_t>>
getWindow(ArrayRef<Box> boxes, ArrayRef<int64_t> shape) {
  if (boxes.empty())
    return std::pair(OpFoldResult(IntegerAttr()), int64_t(0));
  const Box &first = boxes.front();
  int64_t size = first.sizes[kKeyAxis], volume = 0, rowVolume = 1;
  for (auto [d, extent] : llvm::enumerate(shape))
    if (d != kKeyAxis)
      rowVolume *= extent;
  for (auto [i, box] : llvm::enumerate(boxes)) {
    if (box.sizes[kKeyAxis] != size ||
        !isEqualConstantIntOrValue(box.keyOffset, first.keyOffset))
      return std::nullopt;
    int64_t boxVolume = 1;
    for (auto [d, extent] : llvm::enumerate(box.sizes))
      if (d != kKeyAxis)
        boxVolume *= extent;
    volume += boxVolume;
    for (const Box &other : ArrayRef(boxes).drop_front(i + 1)) {
      bool overlap = true;
      for (unsigned d = 0; d < shape.size(); ++d)
        if (d != kKeyAxis &&
            (box.offsets[d] >= other.offsets[d] + other.sizes[d] ||
             other.offsets[d] >= box.offsets[d] + box.sizes[d]))
          overlap = false;
      if (overlap)
        return std::nullopt;
    }
  }
  if (volume != rowVolume)
    return std::nullopt;
  return std::pair(first.keyOffset, size);
}

/// Takes `copy` out of the IR: one pair out of a generic of several, else
/// the op (and its guard, left empty).
void eraseCopy(const WholeCopy &copy) {
  auto generic = dyn_cast<linalg::GenericOp>(copy.op);
  if (!generic || generic.getNumDpsInits() == 1) {
    Operation *parent = copy.op->getParentOp();
    copy.op->erase();
    if (auto guard = dyn_cast<scf::IfOp>(parent);
        guard &&
        &guard.thenBlock()->front() == guard.thenBlock()->getTerminator())
      guard.erase();
    return;
  }
  // The other pairs, each output with the input it yields.
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  SmallVector<Value> inputs, outputs;
  SmallVector<unsigned> sourceOf;
  for (auto [i, init] : llvm::enumerate(generic.getDpsInits())) {
    if (i == copy.output)
      continue;
    Value source =
        generic.getDpsInputs()[cast<BlockArgument>(yield.getOperand(i))
                                   .getArgNumber()];
    auto at = llvm::find(inputs, source);
    sourceOf.push_back(at - inputs.begin());
    if (at == inputs.end())
      inputs.push_back(source);
    outputs.push_back(init);
  }
  OpBuilder b(generic);
  int64_t rank = generic.getNumLoops();
  auto rest = linalg::GenericOp::create(
      b, generic.getLoc(), TypeRange(), inputs, outputs,
      SmallVector<AffineMap>(inputs.size() + outputs.size(),
                             b.getMultiDimIdentityMap(rank)),
      generic.getIteratorTypesArray(),
      [&](OpBuilder &body, Location loc, ValueRange args) {
        SmallVector<Value> yielded;
        for (unsigned i : sourceOf)
          yielded.push_back(args[i]);
        linalg::YieldOp::create(body, loc, yielded);
      });
  rest->setDiscardableAttrs(generic->getDiscardableAttrDictionary());
  generic.erase();
}
} // namespace

std::optional<mlx::CacheCopy> mlx::takeCacheCopy(kernel::AttentionOp op,
                                                 Value cache) {
  auto type = dyn_cast<MemRefType>(cache.getType());
  if (!type || type.getRank() != 4 || !type.hasStaticShape() ||
      !type.getLayout().isIdentity())
    return std::nullopt;
  SmallVector<Box> boxes;
  SmallVector<Operation *> between;
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (std::optional<WholeCopy> copy =
            getWholeCopyInto(getGuarded(prev), cache)) {
      Value source = getRootBuffer(copy->source);
      if (copy->source.getType() != type || source == cache ||
          llvm::any_of(between,
                       [&](Operation *o) { return mayWrite(o, source); }))
        return std::nullopt;
      std::optional<std::pair<OpFoldResult, int64_t>> window =
          getWindow(boxes, type.getShape());
      if (!window)
        return std::nullopt;
      Value start = dyn_cast_if_present<Value>(window->first);
      if (!start) {
        OpBuilder b(op);
        start = arith::ConstantIndexOp::create(
            b, op.getLoc(),
            window->second ? *getConstantIntValue(window->first) : 0);
      }
      CacheCopy found{copy->source, start, window->second};
      eraseCopy(*copy);
      return found;
    }
    if (mayAccess(prev, cache, /*writesOnly=*/false)) {
      std::optional<SmallVector<Box>> writes = getBoxWrites(prev, cache);
      if (!writes)
        return std::nullopt;
      llvm::append_range(boxes, *writes);
    }
    between.push_back(prev);
  }
  return std::nullopt;
}
