//===- ForwardOutputCopies.cpp - the mlxc-forward-output-copies pass ------===//
//
// buffer-results-to-out-params writes a function result into its
// out-parameter with a copy unless the result is an allocation itself; a
// result that is a reshape of one (logsumexp's rows collapsed to a vector,
// a norm's output seen through a view) costs a copy kernel. When nothing
// else touches the out-parameter and the allocation is dead after the copy,
// the allocation becomes a view of the out-parameter and the copy goes.
//
// The same holds for a copy into a window of another buffer (the second
// half of a RoPE rotation into its concatenation or into a KV cache row,
// which one-shot bufferization leaves out of place): when one linalg op
// writes the whole allocation without reading it, and nothing between that
// op and the copy touches the window's buffer, the op writes the window.
// Copies of a window onto itself (what an in-place insertion bufferizes
// to) go first.
//
//===----------------------------------------------------------------------===//

#include "codegen/Hoist.h"
#include "codegen/Passes.h"
#include "codegen/ProductOperands.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCFORWARDOUTPUTCOPIES
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

/// Whether every use of `value` (through views) is in an op of `block`
/// before `end`, or `end` itself.
static bool usedOnlyBefore(Value value, Operation *end, Block *block) {
  for (Operation *user : value.getUsers()) {
    if (user == end)
      continue;
    Operation *top = block->findAncestorOpInBlock(*user);
    if (!top || !top->isBeforeInBlock(end))
      return false;
    // A view's uses are the buffer's uses (a write through a view after
    // the copy would otherwise change the output).
    if (auto view = dyn_cast<ViewLikeOpInterface>(user);
        view && view.getViewSource() == value &&
        !usedOnlyBefore(view->getResult(0), end, block))
      return false;
  }
  return true;
}

static bool isContiguous(MemRefType type) {
  return type.hasStaticShape() && type.getLayout().isIdentity();
}

/// `arg` (contiguous) seen with the shape of `type` (both of rank >= 1
/// unless equal): itself, or collapsed to one dimension and expanded to
/// `type`'s.
static Value viewAs(OpBuilder &b, Location loc, Value arg, MemRefType type) {
  auto argType = cast<MemRefType>(arg.getType());
  if (argType == type)
    return arg;
  Value flat = arg;
  if (argType.getRank() != 1) {
    ReassociationIndices all;
    for (int64_t i = 0; i < argType.getRank(); ++i)
      all.push_back(i);
    flat = memref::CollapseShapeOp::create(
        b, loc, arg, SmallVector<ReassociationIndices>{all});
  }
  if (type.getRank() == 1)
    return flat;
  ReassociationIndices all;
  for (int64_t i = 0; i < type.getRank(); ++i)
    all.push_back(i);
  return memref::ExpandShapeOp::create(b, loc, type, flat,
                                       SmallVector<ReassociationIndices>{all});
}

/// Whether `copy` moves a window onto itself: source and target are equal
/// subviews of one buffer.
static bool isSelfCopy(memref::CopyOp copy) {
  if (copy.getSource() == copy.getTarget())
    return true;
  auto a = copy.getSource().getDefiningOp<memref::SubViewOp>();
  auto b = copy.getTarget().getDefiningOp<memref::SubViewOp>();
  return a && b && a.getSource() == b.getSource() &&
         a.getType() == b.getType() &&
         a.getMixedOffsets() == b.getMixedOffsets() &&
         a.getMixedSizes() == b.getMixedSizes() &&
         a.getMixedStrides() == b.getMixedStrides();
}

/// Makes the op that fills the allocation `copy` reads write the copy's
/// target instead; false when that is not safe.
static bool forwardIntoWindow(memref::CopyOp copy) {
  Block *block = copy->getBlock();
  auto alloc = copy.getSource().getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != block || alloc->getNumOperands() != 0 ||
      !isContiguous(alloc.getType()))
    return false;
  // One writer before the copy, which writes all of it without reading it.
  linalg::LinalgOp writer;
  for (Operation *user : alloc->getUsers()) {
    if (user == copy)
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
    if (writer || !linalgOp || linalgOp->getBlock() != block ||
        !linalgOp.hasPureBufferSemantics() || !linalgOp->isBeforeInBlock(copy))
      return false;
    writer = linalgOp;
  }
  if (!writer || writer.getNumReductionLoops() != 0 ||
      llvm::is_contained(writer.getDpsInputs(), alloc.getResult()))
    return false;
  for (OpOperand &init : writer.getDpsInitsMutable())
    if (init.get() == alloc.getResult() &&
        (writer.payloadUsesValueFromOperand(&init) ||
         !writer.getMatchingIndexingMap(&init).isIdentity()))
      return false;
  // The writer must not read the window's buffer, and nothing between it
  // and the copy may touch that buffer.
  Value target = copy.getTarget();
  Value root = mlx::getRootBuffer(target);
  for (Value input : writer.getDpsInputs())
    if (mlx::getRootBuffer(input) == root)
      return false;
  for (Operation *op = writer->getNextNode(); op != copy;
       op = op->getNextNode())
    if (!isMemoryEffectFree(op) && mlx::mayAccess(op, root, false))
      return false;
  // The window's views (and what they need) must exist at the writer.
  if (!mlx::hoistAbove(target, writer))
    return false;
  alloc.getResult().replaceUsesWithIf(target, [&](OpOperand &use) {
    return use.getOwner() == writer.getOperation();
  });
  copy.erase();
  alloc.erase();
  return true;
}

namespace {
struct MlxcForwardOutputCopiesPass final
    : mlx::impl::MlxcForwardOutputCopiesBase<MlxcForwardOutputCopiesPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation()->walk([&](func::FuncOp func) {
      if (func.isExternal())
        return;
      Block &block = func.getBody().front();
      for (Operation &op : llvm::make_early_inc_range(block)) {
        auto copy = dyn_cast<memref::CopyOp>(&op);
        if (!copy)
          continue;
        if (isSelfCopy(copy)) {
          copy.erase();
          continue;
        }
        if (forwardIntoWindow(copy))
          continue;
        auto out = dyn_cast<BlockArgument>(copy.getTarget());
        if (!out || out.getOwner() != &block ||
            !func.getArgAttr(out.getArgNumber(), "bufferize.result") ||
            !out.hasOneUse())
          continue;
        memref::AllocOp alloc = mlx::getAllocUnderReshapes(copy.getSource());
        if (!alloc || alloc->getBlock() != &block)
          continue;
        auto allocType = alloc.getType();
        auto outType = cast<MemRefType>(out.getType());
        if (!isContiguous(allocType) || !isContiguous(outType) ||
            allocType.getElementType() != outType.getElementType() ||
            allocType.getNumElements() != outType.getNumElements() ||
            (allocType != outType &&
             (allocType.getRank() == 0 || outType.getRank() == 0)) ||
            !usedOnlyBefore(alloc.getResult(), copy, &block))
          continue;
        // The copy reads the whole allocation in order (views keep the
        // row-major order), so the allocation may be the output itself.
        OpBuilder b(alloc);
        Value view = viewAs(b, alloc.getLoc(), out, allocType);
        alloc.getResult().replaceAllUsesWith(view);
        copy.erase();
        alloc.erase();
      }
    });
  }
};
} // namespace
