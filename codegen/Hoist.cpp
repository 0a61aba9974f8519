//===- Hoist.cpp - moving pure ops above a point in their block -----------===//

#include "codegen/Hoist.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

bool mlx::hoistAbove(ArrayRef<Value> values, Operation *point) {
  Block *block = point->getBlock();
  SetVector<Operation *> needed;
  BackwardSliceOptions options;
  options.inclusive = true;
  options.omitUsesFromAbove = false;
  options.filter = [&](Operation *op) {
    return op->getBlock() == block && !op->isBeforeInBlock(point);
  };
  for (Value value : values) {
    Operation *def = value.getDefiningOp();
    if (!def || !options.filter(def))
      continue;
    if (failed(getBackwardSlice(def, &needed, options)))
      return false;
  }
  for (Operation *op : needed)
    if (op == point || !isMemoryEffectFree(op))
      return false;
  SmallVector<Operation *> ordered(needed.begin(), needed.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *op : ordered)
    op->moveBefore(point);
  return true;
}
