//===- ClusterOps.h - thread-block cluster functions of CUDA kernels ------===//
//
// A kernel that spreads a row over a thread-block cluster (sm_90 and newer)
// calls functions its module declares; mlxc-cluster-ops defines them for
// each module's chip once the modules are lowered and cloned per chip:
//   mlxc_cluster_rows(i32 size) -> i1: true where the chip runs the kernel
//     as clusters of `size` blocks along x (the kernel then gets that
//     cluster shape), false in older modules (the sm_70 PTX every GPU can
//     run), whose kernel takes a path that needs no cluster;
//   mlxc_cluster_sync(): every thread of the cluster's blocks arrives
//     (release) and waits for the others (acquire);
//   mlxc_cluster_load_<type>(i64 address, i32 rank) -> type: the value at a
//     shared-memory address of this block, read in block `rank` of the
//     cluster.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_CODEGEN_CUDA_CLUSTEROPS_H
#define MLXC_CODEGEN_CUDA_CLUSTEROPS_H

#include "Kernel/Target.h"

#include "llvm/ADT/StringRef.h"

namespace mlir::mlx {
constexpr llvm::StringLiteral kClusterRowsName = "mlxc_cluster_rows";
constexpr llvm::StringLiteral kClusterSyncName = "mlxc_cluster_sync";
constexpr llvm::StringLiteral kClusterLoadPrefix = "mlxc_cluster_load_";
using kernel::kMaxPortableClusterSize;
} // namespace mlir::mlx

#endif // MLXC_CODEGEN_CUDA_CLUSTEROPS_H
