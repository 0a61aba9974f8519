//===- Arch.h - NVIDIA architecture names ---------------------*- C++ -*-===//
//
// "sm_90a" and friends, as --gpu-arch and NVVM targets spell them, and
// the facts every chip shares.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_CODEGEN_CUDA_ARCH_H
#define MLXC_CODEGEN_CUDA_ARCH_H

#include "Kernel/Target.h"

namespace mlir::gpu {
class GPUModuleOp;
} // namespace mlir::gpu

namespace mlir::mlx {

using kernel::parseSmArch;
using kernel::SmArch;

/// Threads of a warp, on every NVIDIA GPU.
constexpr int64_t kWarpSize = 32;

/// The lowest chip number among `module`'s NVVM targets (90 for sm_90a), 0
/// without one. Defined with mlxc-chip-variants.
unsigned getModuleChip(gpu::GPUModuleOp module);

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_CUDA_ARCH_H
