//===- MergeGpuModules.cpp - the mlxc-merge-gpu-modules pass --------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCMERGEGPUMODULES
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

namespace {
/// Bytes: the widest access to shared memory (a v4 of 32-bit lanes).
constexpr int64_t kWorkgroupAlignment = 16;

struct MlxcMergeGpuModulesPass final
    : mlx::impl::MlxcMergeGpuModulesBase<MlxcMergeGpuModulesPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Kernels read and write their shared buffers 16 bytes at a time
    // (vector<8xf32> in two v4 accesses, LLVM's merged scalar loads), but a
    // buffer's global takes its element's alignment unless told, and ptxas
    // may place a 4-byte one (a flag) before it: a misaligned address at
    // run time.
    module.walk([&](gpu::GPUFuncOp func) {
      auto name = LLVM::LLVMDialect::getAlignAttrName();
      for (unsigned i = 0; i < func.getNumWorkgroupAttributions(); ++i)
        if (!func.getWorkgroupAttributionAttr(i, name))
          func.setWorkgroupAttributionAttr(
              i, name,
              IntegerAttr::get(IntegerType::get(&getContext(), 64),
                               kWorkgroupAlignment));
    });
    SmallVector<gpu::GPUModuleOp> gpuModules(module.getOps<gpu::GPUModuleOp>());
    if (gpuModules.size() < 2)
      return;
    gpu::GPUModuleOp target = gpuModules.front();
    SymbolTable targetSymbols(target);
    // Old (module, kernel) -> new kernel name in the target module.
    DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> renamed;
    for (gpu::GPUModuleOp source : ArrayRef(gpuModules).drop_front()) {
      for (Operation &op :
           llvm::make_early_inc_range(source.getBody()->without_terminator())) {
        auto symbol = dyn_cast<SymbolOpInterface>(op);
        if (!symbol) {
          source.emitError()
              << "cannot merge a gpu.module holding " << op.getName();
          return signalPassFailure();
        }
        StringAttr oldName = symbol.getNameAttr();
        // A global the kernels share (outlining copied it into each of
        // their modules) stays one global under its name.
        if (auto global = dyn_cast<memref::GlobalOp>(op)) {
          auto existing = targetSymbols.lookup<memref::GlobalOp>(oldName);
          if (existing && existing.getType() == global.getType() &&
              existing.getInitialValueAttr() == global.getInitialValueAttr() &&
              existing.getConstant() == global.getConstant()) {
            op.erase();
            continue;
          }
        }
        // So does a function that kernels declare (the warp MMA).
        if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op);
            func && func.isExternal())
          if (auto existing = targetSymbols.lookup<LLVM::LLVMFuncOp>(oldName);
              existing && existing.isExternal() &&
              existing.getFunctionType() == func.getFunctionType()) {
            op.erase();
            continue;
          }
        op.remove();
        // insert() renames the op when the name is taken.
        StringAttr newName = targetSymbols.insert(&op);
        renamed[{source.getNameAttr(), oldName}] = newName;
      }
    }
    WalkResult result = module.walk([&](gpu::LaunchFuncOp launch) {
      auto it =
          renamed.find({launch.getKernelModuleName(), launch.getKernelName()});
      if (it == renamed.end())
        return WalkResult::advance();
      launch.setKernelAttr(SymbolRefAttr::get(
          target.getNameAttr(), {FlatSymbolRefAttr::get(it->second)}));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    for (gpu::GPUModuleOp source : ArrayRef(gpuModules).drop_front())
      source.erase();
  }
};
} // namespace
