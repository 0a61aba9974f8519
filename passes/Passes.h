//===- Passes.h - transformations of the mlx dialect -------------*- C++
//-*-===//

#ifndef MLXC_PASSES_PASSES_H
#define MLXC_PASSES_PASSES_H

#include "Mlx/MlxDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/Pass.h"

namespace mlir::mlx {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

/// The rewrites of mlx-decompose, for use in other pattern sets.
void populateMlxDecomposePatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace mlir::mlx

#endif // MLXC_PASSES_PASSES_H
