//===- ClusterOps.cpp - the mlxc-cluster-ops pass -------------------------===//
//
// Defines the thread-block cluster functions that kernels declare
// (ClusterOps.h) in each lowered gpu.module, for the module's own chip. From
// sm_90 on: a cluster barrier, mapa and ld.shared::cluster, and each kernel
// that asks for clusters gets their shape (nvvm.cluster_dim: the PTX's
// .reqnctapercluster, which a plain cuLaunchKernel honours). Older modules
// say no clusters; their loads and barrier are never reached there and read
// the block's own memory. It runs after mlxc-chip-variants, which clones
// the modules per chip.
//
//===----------------------------------------------------------------------===//

#include "codegen/Cuda/ClusterOps.h"
#include "codegen/Cuda/Arch.h"
#include "codegen/Cuda/ChipFunctions.h"
#include "codegen/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCCLUSTEROPS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

namespace {

/// Gives `func` (a declaration) its body for a module with (`clusters`) or
/// without clusters; failure for a declaration of the wrong type.
LogicalResult define(LLVM::LLVMFuncOp func, bool clusters) {
  StringRef name = func.getName();
  LLVM::LLVMFunctionType type = func.getFunctionType();
  Type result = type.getReturnType();
  bool isRows = name == mlx::kClusterRowsName;
  bool isSync = name == mlx::kClusterSyncName;
  bool isLoad = name.starts_with(mlx::kClusterLoadPrefix);
  if ((isRows && (type.getNumParams() != 1 || !result.isInteger(1))) ||
      (isSync &&
       (type.getNumParams() != 0 || !isa<LLVM::LLVMVoidType>(result))) ||
      (isLoad &&
       (type.getNumParams() != 2 || !type.getParamType(0).isInteger(64) ||
        !type.getParamType(1).isInteger(32) || !result.isIntOrFloat())))
    return func.emitOpError() << "is not a cluster function mlxc defines";
  OpBuilder b(func.getContext());
  Block *entry = func.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  Location loc = func.getLoc();
  if (isRows) {
    Value answer = LLVM::ConstantOp::create(b, loc, b.getI1Type(),
                                            b.getBoolAttr(clusters));
    LLVM::ReturnOp::create(b, loc, answer);
  } else if (isSync) {
    if (clusters) {
      NVVM::ClusterArriveOp::create(b, loc, /*aligned=*/b.getUnitAttr());
      NVVM::ClusterWaitOp::create(b, loc, /*aligned=*/b.getUnitAttr());
    }
    LLVM::ReturnOp::create(b, loc, ValueRange());
  } else {
    auto shared = LLVM::LLVMPointerType::get(
        b.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
    Value ptr = LLVM::IntToPtrOp::create(b, loc, shared, entry->getArgument(0));
    if (clusters)
      ptr = NVVM::MapaOp::create(
          b, loc,
          LLVM::LLVMPointerType::get(
              b.getContext(),
              static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster)),
          ptr, entry->getArgument(1));
    Value loaded = LLVM::LoadOp::create(b, loc, result, ptr);
    LLVM::ReturnOp::create(b, loc, loaded);
  }
  func.setLinkage(LLVM::Linkage::Internal);
  func.setPassthroughAttr(b.getArrayAttr({b.getStringAttr("alwaysinline")}));
  return success();
}

/// Gives each kernel of `module` that calls mlxc_cluster_rows its cluster
/// shape; failure for a size that is not a constant of 2 to 8 blocks.
LogicalResult setClusterShapes(gpu::GPUModuleOp module) {
  std::string message = "asks for clusters of other than one constant size "
                        "of 2 to " +
                        std::to_string(mlx::kMaxPortableClusterSize) +
                        " blocks";
  for (auto kernel : module.getOps<LLVM::LLVMFuncOp>()) {
    FailureOr<std::optional<int64_t>> size =
        mlx::getConstantCallArgument(kernel, mlx::kClusterRowsName, 2,
                                     mlx::kMaxPortableClusterSize, message);
    if (failed(size))
      return failure();
    if (*size)
      kernel->setAttr(
          NVVM::NVVMDialect::getClusterDimAttrName(),
          DenseI32ArrayAttr::get(module.getContext(),
                                 {static_cast<int32_t>(**size), 1, 1}));
  }
  return success();
}

struct MlxcClusterOpsPass final
    : mlx::impl::MlxcClusterOpsBase<MlxcClusterOpsPass> {
  using Base::Base;
  void runOnOperation() override {
    WalkResult walk = getOperation()->walk([&](gpu::GPUModuleOp module) {
      bool clusters = mlx::getModuleChip(module) >= 90;
      for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
        StringRef name = func.getName();
        if (!func.isExternal() ||
            !(name == mlx::kClusterRowsName || name == mlx::kClusterSyncName ||
              name.starts_with(mlx::kClusterLoadPrefix)))
          continue;
        if (failed(define(func, clusters)))
          return WalkResult::interrupt();
      }
      if (clusters && failed(setClusterShapes(module)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
