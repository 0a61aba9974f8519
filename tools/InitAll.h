//===- InitAll.h - everything the mlxc tools register --------------*- C++ -*-===//
//
// The one place that lists the dialects and passes of the project's tools, so
// that mlx-opt and mlxc accept the same IR.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_TOOLS_INITALL_H
#define MLXC_TOOLS_INITALL_H

#include "Mlx/MlxDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace mlxc {

/// Dialects a graph may use before lowering: mlx plus the upstream dialects
/// that hold functions and constants.
inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::mlx::MlxDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::tensor::TensorDialect>();
}

/// The project's passes and the upstream ones its pipelines use.
inline void registerAllPasses() { mlir::registerTransformsPasses(); }

} // namespace mlxc

#endif // MLXC_TOOLS_INITALL_H
