//===- KernelOps.h - kernel dialect -----------------------------*- C++ -*-===//
//
// Kernel regions: the output of mlxc's kernel-formation stage.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_KERNELOPS_H
#define KERNEL_KERNELOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Kernel/KernelDialect.h.inc"
#include "Kernel/KernelEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Kernel/KernelAttrs.h.inc"

#define GET_OP_CLASSES
#include "Kernel/KernelOps.h.inc"

namespace mlir::kernel {
/// The discardable attributes that tag an op with its kernel once the
/// regions are inlined (mlxc-inline-kernels).
constexpr llvm::StringLiteral kKernelIdAttr = "kernel.id";
constexpr llvm::StringLiteral kKernelStrategyAttr = "kernel.strategy";

/// Whether `op` is a matrix product of a `product` kernel: a linalg matmul
/// or batch_matmul, or a contraction other than one that reads its single
/// reduced loop innermost in every input (that one is a row reduction).
bool isProduct(Operation *op);
} // namespace mlir::kernel

#endif // KERNEL_KERNELOPS_H
