//===- MlxAttributes.h - the discardable attributes of mlxc -----*- C++ -*-===//
//
// Every attribute one phase of mlxc leaves for a later one (or for the
// driver) is named here, under the mlx dialect's prefix; the dialect
// verifies where each may appear and what it holds, so a misspelt or
// mistyped one is an error, not a silently missed contract.
//
//===----------------------------------------------------------------------===//

#ifndef MLX_MLXATTRIBUTES_H
#define MLX_MLXATTRIBUTES_H

#include "llvm/ADT/StringRef.h"

namespace mlir::mlx::attrs {

// Graph functions' arguments and results.
/// The MLX name of an input or output (a string).
constexpr llvm::StringLiteral kName = "mlx.name";
/// An MLX dtype the tensor type does not say ("complex64").
constexpr llvm::StringLiteral kDtype = "mlx.dtype";

// Modules imported from an .mlxfn file (strings).
constexpr llvm::StringLiteral kMlxfnVersion = "mlx.mlxfn_version";
constexpr llvm::StringLiteral kMlxfnMetadata = "mlx.mlxfn_metadata";

// A compiled graph function: its memory plan (mlx-memory-placement;
// integers), whether it can be captured as a CUDA graph (unit), and the
// outputs that update an input in place (mlxc-plan-in-place-outputs; one
// input index per output, -1 for none).
constexpr llvm::StringLiteral kDeviceArenaBytes = "mlx.device_arena_bytes";
constexpr llvm::StringLiteral kUnifiedArenaBytes = "mlx.unified_arena_bytes";
constexpr llvm::StringLiteral kUnreusedBytes = "mlx.unreused_bytes";
constexpr llvm::StringLiteral kPrefetches = "mlx.prefetches";
constexpr llvm::StringLiteral kStreamedBuffers = "mlx.streamed_buffers";
constexpr llvm::StringLiteral kCapturable = "mlx.capturable";
constexpr llvm::StringLiteral kInPlace = "mlx.in_place";

// CPU kernels outlined as functions (mlxc-outline-cpu-kernels): the mark
// (unit) and the ops they compute (a string, the symbol's readable part).
constexpr llvm::StringLiteral kCpuKernel = "mlx.cpu_kernel";
constexpr llvm::StringLiteral kKernelName = "mlx.kernel_name";

// Ops of the CUDA lowering (units): a memref op whose buffer only passes
// its address on (no kernel reads it through that op); a call the device
// reads or writes buffers through (cuBLASLt); a row reduction mapped to a
// warp per row; a fused row kernel's launch.
constexpr llvm::StringLiteral kAddressOnly = "mlx.address_only";
constexpr llvm::StringLiteral kDeviceAccess = "mlx.device_access";
constexpr llvm::StringLiteral kRowReduction = "mlx.row_reduction";
constexpr llvm::StringLiteral kRowKernel = "mlx.row_kernel";

} // namespace mlir::mlx::attrs

#endif // MLX_MLXATTRIBUTES_H
