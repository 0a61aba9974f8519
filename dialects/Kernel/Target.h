//===- Target.h - the machine a module is compiled for ----------*- C++ -*-===//
//
// One `kernel.target` attribute on the module says what the compile
// targets; it is built from the driver's flags by buildTarget and read by
// every pass through getTarget.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TARGET_H
#define KERNEL_TARGET_H

#include "Kernel/KernelOps.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>

namespace mlir::kernel {

/// The module attribute that holds the target.
constexpr llvm::StringLiteral kTargetAttrName = "kernel.target";

/// Blocks a thread-block cluster may hold on every sm_90 GPU.
constexpr int64_t kMaxPortableClusterSize = 8;

struct SmArch {
  unsigned number;   ///< 90 for sm_90 and sm_90a.
  bool archSpecific; ///< The "a" suffix: that exact chip only.
};

/// "sm_90a" -> {90, true}; nullopt unless "sm_" and a number of at least
/// 10, optionally followed by "a".
std::optional<SmArch> parseSmArch(llvm::StringRef arch);

/// What the driver's flags ask for.
struct TargetOptions {
  std::string backend = "cpu"; ///< cpu or cuda (--target).
  std::string arch = "sm_70";  ///< --gpu-arch.
  bool clusters = true;        ///< false: --no-clusters.
};

/// The target of `options`, or an error message naming the bad flag.
FailureOr<TargetAttr> buildTarget(MLIRContext *context,
                                  const TargetOptions &options,
                                  std::string &error);

/// The target of the nearest enclosing builtin.module that has one (`op`
/// itself included); null when none has.
TargetAttr getTarget(Operation *op);

/// getTarget, or `fallback`'s default when no module has a target (a pass
/// tested alone on a module without one).
TargetAttr getTargetOr(Operation *op, Backend fallback);

/// Sets the target of `module`.
void setTarget(ModuleOp module, TargetAttr target);

} // namespace mlir::kernel

#endif // KERNEL_TARGET_H
