//===- MlxDialect.h - mlx dialect -------------------------------*- C++ -*-===//
//
// The mlx dialect: array graphs with MLX's semantics.
//
//===----------------------------------------------------------------------===//

#ifndef MLX_MLXDIALECT_H
#define MLX_MLXDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"

#include "Mlx/MlxDialect.h.inc"

#endif // MLX_MLXDIALECT_H
