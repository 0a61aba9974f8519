//===- ChipFunctions.h - functions kernels call, defined per chip -*- C++
//-*-===//
//
// Some kernel code depends on the chip the module is built for (tensor-core
// products, thread-block clusters). Kernels call it as LLVM functions that
// their module declares; once the modules are lowered and cloned per chip
// (mlxc-chip-variants), mlxc-warp-matrix-ops and mlxc-cluster-ops give each
// declaration a body for its module's chip.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_CODEGEN_CUDA_CHIPFUNCTIONS_H
#define MLXC_CODEGEN_CUDA_CHIPFUNCTIONS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::mlx {

/// A kernel that calls `mlxc_min_blocks_per_sm(N)` (an i32 constant) asks
/// ptxas to keep its registers to the share of N resident blocks a SM
/// (nvvm.minctasm, PTX's .minnctapersm): mlxc-warp-matrix-ops sets it and
/// drops the calls.
constexpr llvm::StringLiteral kMinBlocksPerSmName = "mlxc_min_blocks_per_sm";

/// The LLVM declaration `name : (params) -> result` in `module`, made once
/// (an LLVM function: convert-gpu-to-nvvm would give a func.func a C
/// interface wrapper). gpu-kernel-outlining copies it into the kernels'
/// modules.
inline FlatSymbolRefAttr declareChipFunction(ModuleOp module, StringRef name,
                                             Type result,
                                             ArrayRef<Type> params) {
  if (!module.lookupSymbol(name)) {
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    LLVM::LLVMFuncOp::create(b, module.getLoc(), name,
                             LLVM::LLVMFunctionType::get(result, params));
  }
  return FlatSymbolRefAttr::get(module.getContext(), name);
}

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_CUDA_CHIPFUNCTIONS_H
