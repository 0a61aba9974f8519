//===- KernelOps.cpp - kernel dialect ------------------------------------===//

#include "Kernel/KernelOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::kernel;

#include "Kernel/KernelDialect.cpp.inc"
#include "Kernel/KernelEnums.cpp.inc"

void KernelDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Kernel/KernelOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "Kernel/KernelOps.cpp.inc"

void RegionOp::build(OpBuilder &builder, OperationState &state,
                     Strategy strategy, ValueRange inputs,
                     TypeRange resultTypes) {
  state.addAttribute(getStrategyAttrName(state.name),
                     StrategyAttr::get(builder.getContext(), strategy));
  state.addOperands(inputs);
  state.addTypes(resultTypes);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value input : inputs)
    block->addArgument(input.getType(), input.getLoc());
}

/// Whether every input of `op` reads its innermost loop, a reduction,
/// innermost.
static bool readsReducedInnermost(linalg::LinalgOp op) {
  if (op.getNumLoops() == 0 ||
      op.getIteratorTypesArray().back() != utils::IteratorType::reduction)
    return false;
  AffineExpr reduced = getAffineDimExpr(op.getNumLoops() - 1, op.getContext());
  return llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    AffineMap map = op.getMatchingIndexingMap(input);
    return map.getNumResults() != 0 && map.getResults().back() == reduced;
  });
}

bool kernel::isProduct(Operation *op) {
  if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
    return true;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumReductionLoops() != 0 &&
         linalg::isaContractionOpInterface(linalgOp) &&
         !(linalgOp.getNumReductionLoops() == 1 &&
           readsReducedInnermost(linalgOp));
}

/// Whether a linalg op reduces (has a reduction loop).
static bool reduces(linalg::LinalgOp op) {
  return op.getNumReductionLoops() != 0;
}

LogicalResult RegionOp::verify() {
  Block &block = getBody().front();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError() << "has " << getInputs().size() << " inputs but "
                         << block.getNumArguments() << " block arguments";
  for (auto [input, arg] : llvm::zip(getInputs(), block.getArguments()))
    if (input.getType() != arg.getType())
      return emitOpError() << "block argument " << arg.getArgNumber()
                           << " has type " << arg.getType()
                           << ", its input has " << input.getType();
  auto yield =
      dyn_cast_or_null<YieldOp>(block.empty() ? nullptr : &block.back());
  if (!yield)
    return emitOpError() << "must end with kernel.yield";
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError() << "yields " << yield.getValues().size()
                         << " values whose types differ from its results";
  // The strategy must fit the ops: the lowering relies on it.
  int products = 0, reductions = 0;
  for (Operation &op : block.without_terminator()) {
    if (isProduct(&op))
      ++products;
    else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      reductions += reduces(linalgOp);
  }
  switch (getStrategy()) {
  case Strategy::Product:
    if (products != 1)
      return emitOpError() << "of strategy 'product' holds " << products
                           << " matrix products (expected 1)";
    break;
  case Strategy::RowReduction:
  case Strategy::Reduction:
    if (products != 0 || reductions == 0)
      return emitOpError() << "of strategy '"
                           << stringifyStrategy(getStrategy())
                           << "' must hold a reduction and no product";
    break;
  case Strategy::Elementwise:
  case Strategy::Copy:
    if (products != 0 || reductions != 0)
      return emitOpError() << "of strategy '"
                           << stringifyStrategy(getStrategy())
                           << "' must hold no reduction or product";
    break;
  }
  return success();
}
