//===- ProductOperands.cpp - operands of products, read through copies ---===//

#include "codegen/ProductOperands.h"
#include "Mlx/MlxAttributes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

/// The allocation or argument a buffer is a view of.
Value mlx::getRootBuffer(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(def))
      value = view.getViewSource();
    else if (isa<memref::TransposeOp>(def))
      value = def->getOperand(0);
    else
      break;
  }
  return value;
}

bool mlx::isGraphInput(Value root) {
  auto arg = dyn_cast<BlockArgument>(root);
  auto func = arg ? dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp())
                  : func::FuncOp();
  if (!func || arg.getOwner() != &func.getBody().front() ||
      func.getArgAttr(arg.getArgNumber(), "bufferize.result"))
    return false;
  auto shared = func->getAttrOfType<DenseI64ArrayAttr>(mlx::attrs::kInPlace);
  return !shared ||
         !llvm::is_contained(shared.asArrayRef(),
                             static_cast<int64_t>(arg.getArgNumber()));
}

bool mlx::mayWrite(Operation *scope, Value root) {
  return mayAccess(scope, root, /*writesOnly=*/true);
}

bool mlx::mayAccess(Operation *scope, Value root, bool writesOnly) {
  return scope
      ->walk([&](Operation *op) {
        auto iface = dyn_cast<MemoryEffectOpInterface>(op);
        if (!iface && op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
          return WalkResult::advance(); // Its nested ops say.
        if (!iface) {
          for (Value operand : op->getOperands())
            if (getRootBuffer(operand) == root)
              return WalkResult::interrupt();
          return WalkResult::advance();
        }
        SmallVector<MemoryEffects::EffectInstance> effects;
        iface.getEffects(effects);
        for (const MemoryEffects::EffectInstance &effect : effects) {
          bool access =
              isa<MemoryEffects::Write>(effect.getEffect()) ||
              (!writesOnly && isa<MemoryEffects::Read>(effect.getEffect()));
          Value value = effect.getValue();
          if (access && (!value || getRootBuffer(value) == root))
            return WalkResult::interrupt();
        }
        return WalkResult::advance();
      })
      .wasInterrupted();
}

memref::AllocOp mlx::getAllocUnderReshapes(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto alloc = dyn_cast<memref::AllocOp>(def))
      return alloc;
    if (!isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(def))
      return {};
    value = def->getOperand(0);
  }
  return {};
}

/// The op that fills `operand` (a linalg.transpose, or a linalg.generic
/// that broadcasts a matrix over the batch) when nothing else touches the
/// buffer and its source is not written before the product: the product
/// can read the source instead (transpose flag, batch stride 0) and the copy
/// kernel goes.
linalg::LinalgOp mlx::getFoldableCopy(Value operand, Operation *product) {
  // The copy writes the operand, or a buffer the operand collapses (the
  // batch axes of a transposed 4-D tensor, say).
  SmallVector<Value> chain = {operand};
  while (auto collapse = chain.back().getDefiningOp<memref::CollapseShapeOp>())
    chain.push_back(collapse.getSrc());
  linalg::LinalgOp copy;
  for (Value value : chain) {
    for (Operation *user : value.getUsers()) {
      if (user == product || isa<memref::DeallocOp>(user) ||
          (isa<memref::CollapseShapeOp>(user) &&
           llvm::is_contained(chain, user->getResult(0))))
        continue;
      auto c = dyn_cast<linalg::LinalgOp>(user);
      if (!c || copy || !isa<linalg::TransposeOp, linalg::GenericOp>(user) ||
          !c.hasPureBufferSemantics() || c.getNumDpsInputs() != 1 ||
          c.getNumDpsInits() != 1 || c.getDpsInits()[0] != value ||
          c->getBlock() != product->getBlock() ||
          !c->isBeforeInBlock(product) ||
          (value != operand && !isa<linalg::TransposeOp>(user)))
        return {};
      copy = c;
    }
  }
  if (!copy)
    return {};
  // A generic must be a broadcast over the batch: out[b, i, j] = in[i, j].
  if (auto generic = dyn_cast<linalg::GenericOp>(copy.getOperation())) {
    MLIRContext *ctx = generic.getContext();
    AffineExpr d1 = getAffineDimExpr(1, ctx), d2 = getAffineDimExpr(2, ctx);
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    Block &body = generic.getRegion().front();
    auto yield = cast<linalg::YieldOp>(body.getTerminator());
    if (maps.size() != 2 || !maps[1].isIdentity() ||
        maps[0] != AffineMap::get(3, 0, {d1, d2}, ctx) ||
        generic.getNumReductionLoops() != 0 ||
        body.getOperations().size() != 1 || yield.getNumOperands() != 1 ||
        yield.getOperand(0) != body.getArgument(0))
      return {};
  }
  // The buffer behind `operand` (through reshapes) must have no other use.
  memref::AllocOp alloc = getAllocUnderReshapes(operand);
  if (!alloc)
    return {};
  Value root = alloc.getResult();
  SmallVector<Value> worklist = {root};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isa<memref::DeallocOp>(user) || user == copy || user == product)
        continue;
      if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(user) &&
          (user->getResult(0) == operand || value != operand)) {
        worklist.push_back(user->getResult(0));
        continue;
      }
      return {};
    }
  }
  // The source itself must not be written between the two ops: only pure
  // ops, allocations and linalg ops writing other buffers may come between.
  Value source = getRootBuffer(copy.getDpsInputs()[0]);
  for (Operation *op = copy->getNextNode(); op != product;
       op = op->getNextNode()) {
    if (isPure(op) || isa<memref::AllocOp>(op))
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || !linalgOp.hasPureBufferSemantics() ||
        llvm::any_of(linalgOp.getDpsInits(),
                     [&](Value init) { return getRootBuffer(init) == source; }))
      return {};
  }
  return copy;
}

Value mlx::buildTransposedView(OpBuilder &b, linalg::TransposeOp transpose,
                               Value operand,
                               SmallVectorImpl<Operation *> &created) {
  Value view = memref::TransposeOp::create(
      b, transpose.getLoc(), transpose.getInput(),
      AffineMapAttr::get(AffineMap::getPermutationMap(
          transpose.getPermutation(), transpose.getContext())));
  created.push_back(view.getDefiningOp());
  // The collapses from the copy's buffer to the operand, on the view:
  // possible where the view's collapsed axes are contiguous.
  SmallVector<memref::CollapseShapeOp> collapses;
  for (Value v = operand; v != transpose.getInit();
       v = v.getDefiningOp<memref::CollapseShapeOp>().getSrc())
    collapses.push_back(v.getDefiningOp<memref::CollapseShapeOp>());
  for (memref::CollapseShapeOp collapse : llvm::reverse(collapses)) {
    if (!memref::CollapseShapeOp::isGuaranteedCollapsible(
            cast<MemRefType>(view.getType()),
            collapse.getReassociationIndices()))
      return {};
    view = memref::CollapseShapeOp::create(b, collapse.getLoc(), view,
                                           collapse.getReassociationIndices());
    created.push_back(view.getDefiningOp());
  }
  return view;
}

bool mlx::isZeroFillOf(Operation *op, Value buffer) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op);
  return fill && fill.hasPureBufferSemantics() &&
         fill.getDpsInits()[0] == buffer &&
         matchPattern(fill.getDpsInputs()[0], m_AnyZeroFloat());
}
