//===- InitAll.h - everything the mlxc tools register -----------*- C++ -*-===//
//
// The one place that lists the dialects and passes of the project's tools, so
// that mlx-opt and mlxc accept the same IR.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_TOOLS_INITALL_H
#define MLXC_TOOLS_INITALL_H

#include "Kernel/KernelOps.h"
#include "Mlx/MlxDialect.h"
#include "codegen/Passes.h"
#include "codegen/Pipelines.h"
#include "passes/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

namespace mlxc {

/// The mlx dialect and every upstream dialect and extension: the pipelines
/// pass through linalg, bufferization, scf, gpu, nvvm and llvm, and each
/// stage must be readable by mlx-opt. (libMLIR.so holds them all, so this
/// costs no binary size.)
inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::mlx::MlxDialect, mlir::kernel::KernelDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary serializes through LLVM IR and the NVVM target.
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
}

/// The project's passes and the upstream ones.
inline void registerAllPasses() {
  mlir::registerAllPasses();
  mlir::mlx::registerMlxPasses();
  mlir::mlx::registerCodegenPasses();
  mlir::mlx::registerMlxcPipelines();
}

} // namespace mlxc

#endif // MLXC_TOOLS_INITALL_H
