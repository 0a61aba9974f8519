//===- Arch.h - NVIDIA architecture names ---------------------*- C++ -*-===//
//
// "sm_90a" and friends, as --gpu-arch and NVVM targets spell them.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_CODEGEN_CUDA_ARCH_H
#define MLXC_CODEGEN_CUDA_ARCH_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::gpu {
class GPUModuleOp;
} // namespace mlir::gpu

namespace mlir::mlx {

struct SmArch {
  unsigned number;   ///< 90 for sm_90 and sm_90a.
  bool archSpecific; ///< The "a" suffix: that exact chip only.
};

/// "sm_90a" -> {90, true}; nullopt unless "sm_" and a number of at least
/// 10, optionally followed by "a".
inline std::optional<SmArch> parseSmArch(llvm::StringRef arch) {
  llvm::StringRef digits = arch;
  if (!digits.consume_front("sm_"))
    return std::nullopt;
  bool archSpecific = digits.consume_back("a");
  unsigned number;
  if (digits.getAsInteger(10, number) || number < 10)
    return std::nullopt;
  return SmArch{number, archSpecific};
}

/// The lowest chip number among `module`'s NVVM targets (90 for sm_90a), 0
/// without one. Defined with mlxc-chip-variants.
unsigned getModuleChip(gpu::GPUModuleOp module);

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_CUDA_ARCH_H
