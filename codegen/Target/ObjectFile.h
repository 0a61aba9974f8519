//===- ObjectFile.h - LLVM IR and object files for the host -------*- C++
//-*-===//

#ifndef MLXC_CODEGEN_TARGET_OBJECTFILE_H
#define MLXC_CODEGEN_TARGET_OBJECTFILE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>

namespace mlir::mlx {

/// A TargetMachine for the host triple with position-independent code (the
/// system linker makes PIE executables). `cpu` names the oldest CPU the
/// program must run on.
FailureOr<std::unique_ptr<llvm::TargetMachine>>
createHostTargetMachine(ModuleOp module, StringRef cpu);

/// Translates an LLVM-dialect module for `machine`'s triple and data layout.
FailureOr<std::unique_ptr<llvm::Module>>
translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                  llvm::TargetMachine &machine);

/// Optimizes at O3 (the loop vectorizer only runs in the O3 pipeline).
LogicalResult optimizeModule(ModuleOp diagnosticsAnchor, llvm::Module &module,
                             llvm::TargetMachine &machine);

/// Writes `module` as an object file.
LogicalResult writeObjectFile(ModuleOp diagnosticsAnchor, llvm::Module &module,
                              llvm::TargetMachine &machine,
                              llvm::raw_pwrite_stream &os);

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_TARGET_OBJECTFILE_H
