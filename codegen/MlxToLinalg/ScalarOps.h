//===- ScalarOps.h - MLX's scalar semantics in arith/math -------*- C++ -*-===//
//
// The element-level meaning of every elementwise mlx op, emitted with arith
// and math ops on signless values. MLX dtypes are tracked beside the values,
// because unsigned dtypes become signless integers on the way to LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_CODEGEN_MLXTOLINALG_SCALAROPS_H
#define MLXC_CODEGEN_MLXTOLINALG_SCALAROPS_H

#include "mlir/IR/Builders.h"

namespace mlir::mlx {

/// The signless type that carries values of MLX dtype `dtype` (ui32 -> i32).
Type toStorageType(Type dtype);

/// Converts `value` (storage of MLX dtype `from`) to MLX dtype `to` as MLX's
/// astype does: floats to ints truncate, anything to bool is `!= 0`.
Value castScalar(OpBuilder &b, Location loc, Value value, Type from, Type to);

/// Emits the scalar computation of elementwise op `op` (unary, binary,
/// select, astype) on `args`, which are the storage values of its operands in
/// their own dtypes. Returns the storage value of the result dtype, or failure
/// when `op` is not elementwise.
FailureOr<Value> emitElementwiseScalar(OpBuilder &b, Location loc,
                                       Operation *op, ValueRange args);

/// MLX's maximum/minimum of two storage values of `dtype` (NaN propagates).
Value emitMaximum(OpBuilder &b, Location loc, Value x, Value y, Type dtype);
Value emitMinimum(OpBuilder &b, Location loc, Value x, Value y, Type dtype);

/// The storage constant of `value` in MLX dtype `dtype`.
Value scalarConstant(OpBuilder &b, Location loc, Type dtype, double value);

/// How reductions, scans and scatters merge two values.
enum class CombineKind { Sum, Prod, Max, Min, All, Any };
/// `acc` merged with `x` under `kind` with MLX's semantics for `dtype` (sum
/// and product of bools are or/and; max/min propagate NaN).
Value combineScalars(OpBuilder &b, Location loc, CombineKind kind, Value acc,
                     Value x, Type dtype);

/// Whether `op` is an elementwise op that emitElementwiseScalar handles.
bool isElementwiseOp(Operation *op);

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_MLXTOLINALG_SCALAROPS_H
