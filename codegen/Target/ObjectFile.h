//===- ObjectFile.h - LLVM IR and object files for the host -----*- C++ -*-===//

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

/// Keeps host code's bfloat values as the i16 of their bits, and its
/// conversions to and from float as integer operations (HostBFloat.cpp):
/// executables never need libgcc's __truncsfbf2.
llvm::Error lowerHostBFloat(llvm::Module &module);

/// Optimizes at O3 (after lowerHostBFloat) (the loop vectorizer only runs in the O3 pipeline).
LogicalResult optimizeModule(ModuleOp diagnosticsAnchor, llvm::Module &module,
                             llvm::TargetMachine &machine);

/// Writes `module` as an object file.
LogicalResult writeObjectFile(ModuleOp diagnosticsAnchor, llvm::Module &module,
                              llvm::TargetMachine &machine,
                              llvm::raw_pwrite_stream &os);

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_TARGET_OBJECTFILE_H
