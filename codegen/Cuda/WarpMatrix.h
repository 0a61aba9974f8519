//===- WarpMatrix.h - warp-wide matrix ops shared by CUDA passes ----------===//
//
// Kernels that use tensor cores call `mlxc_mma_m16n8k16_<type>`, a function
// the kernel module declares; mlxc-warp-matrix-ops defines it for each
// module's chip once the modules are lowered and cloned per chip: an
// `mma.sync` from sm_80 on, shuffles and FMAs before (the sm_70 PTX every
// GPU can run). Its operands are one lane's fragments of the PTX
// m16n8k16 layout (g = lane / 4, t = lane % 4):
//   a0..a3: A[g][2t..2t+1], A[g+8][2t..], A[g][2t+8..], A[g+8][2t+8..]
//   b0, b1: B[2t..2t+1][g], B[2t+8..2t+9][g]
//   c0..c3: C[g][2t], C[g][2t+1], C[g+8][2t], C[g+8][2t+1]
// with two 16-bit elements packed in each i32 of a and b (the lower column
// or row in the low half); it returns D = A.B + C in the layout of c.
//
// Fragments come from shared memory through `mlxc_ldmatrix_x4` and
// `mlxc_ldmatrix_x4_trans` (an i64 shared-memory address per lane, the
// start of one 8-element row: lanes 8i..8i+7 give matrix i's rows; they
// return one i32 per matrix): PTX's ldmatrix from sm_75 on, shuffles and
// loads before.
//
// Tiles move from global into shared memory through `mlxc_cp_async_16`
// (16 bytes: an i64 shared-memory address, then an i64 generic address of
// global memory) and `mlxc_cp_async_wait_all` (the calling thread's copies
// have landed; a barrier makes them the block's): `cp.async` from sm_80 on,
// so that the copy overlaps the thread's work until the wait; a load and a
// store before, done at once.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_CODEGEN_CUDA_WARPMATRIX_H
#define MLXC_CODEGEN_CUDA_WARPMATRIX_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::mlx {
constexpr llvm::StringLiteral kWarpMmaPrefix = "mlxc_mma_m16n8k16_";

constexpr llvm::StringLiteral kLdMatrixName = "mlxc_ldmatrix_x4";
constexpr llvm::StringLiteral kLdMatrixTransName = "mlxc_ldmatrix_x4_trans";

constexpr llvm::StringLiteral kAsyncCopyName = "mlxc_cp_async_16";
constexpr llvm::StringLiteral kAsyncWaitName = "mlxc_cp_async_wait_all";

/// The warp MMA function's name for 16-bit float `element` (bf16 or f16).
inline std::string warpMmaName(Type element) {
  return (kWarpMmaPrefix + (element.isBF16() ? "bf16" : "f16")).str();
}
} // namespace mlir::mlx

#endif // MLXC_CODEGEN_CUDA_WARPMATRIX_H
