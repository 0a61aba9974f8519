//===- Hoist.h - moving pure ops above a point in their block ---*- C++ -*-===//

#ifndef MLXC_CODEGEN_HOIST_H
#define MLXC_CODEGEN_HOIST_H

#include "mlir/IR/Operation.h"

namespace mlir::mlx {

/// Moves the ops after `point` in its block that `values` need (their
/// backward slice in that block) before it, in order, so that `values`
/// exist at `point`. Returns false, with nothing moved, when one of them is
/// `point` itself or has side effects.
bool hoistAbove(ArrayRef<Value> values, Operation *point);

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_HOIST_H
