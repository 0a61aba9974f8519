//===- ChipFunctions.h - functions kernels call, defined per chip ---------===//
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
#include "mlir/IR/Matchers.h"

#include <optional>

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

/// The constant that `kernel`'s calls of `name` pass (one i32 from `min` to
/// `max` for all of them; nullopt when it makes none), with the calls in
/// `calls` when given. Failure, reported on the call with `message` ("asks
/// for ..."), for any other argument.
inline FailureOr<std::optional<int64_t>>
getConstantCallArgument(LLVM::LLVMFuncOp kernel, StringRef name, int64_t min,
                        int64_t max, StringRef message,
                        SmallVectorImpl<LLVM::CallOp> *calls = nullptr) {
  std::optional<int64_t> constant;
  WalkResult walk = kernel.walk([&](LLVM::CallOp call) {
    if (call.getCallee() != name)
      return WalkResult::advance();
    APInt value;
    if (call.getNumOperands() != 1 ||
        !matchPattern(call.getOperand(0), m_ConstantInt(&value)) ||
        value.getSExtValue() < min || value.getSExtValue() > max ||
        (constant && *constant != value.getSExtValue())) {
      call.emitOpError() << message;
      return WalkResult::interrupt();
    }
    constant = value.getSExtValue();
    if (calls)
      calls->push_back(call);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return constant;
}

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_CUDA_CHIPFUNCTIONS_H
