//===- DedupKernels.cpp - the mlxc-dedup-kernels pass ---------------------===//
//
// Structurally equal kernels (a model's layers) are compiled once: every
// class of equal kernels keeps its first member and the launches or calls of
// the others move to it. Equality is decided on the generic printed form
// with the symbol name blanked out: exact, linear in the IR's size, and
// independent of pointer values, so the choice is deterministic.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "Mlx/MlxAttributes.h"
#include "codegen/Target/SplitCompile.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCDEDUPKERNELS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

/// The kernel's body, types and attributes as text, its own name left out.
static std::string fingerprint(SymbolOpInterface kernel) {
  StringAttr name = kernel.getNameAttr();
  kernel.setName(StringAttr::get(kernel->getContext(), "kernel"));
  std::string text;
  llvm::raw_string_ostream os(text);
  mlx::printForKey(kernel, os, /*generic=*/true);
  kernel.setName(name);
  return text;
}

/// Groups `kernels` into classes of equal ones: maps each kernel's name to
/// the name of the first equal kernel, for those that have one.
static DenseMap<StringAttr, StringAttr>
findDuplicates(ArrayRef<SymbolOpInterface> kernels) {
  llvm::StringMap<StringAttr> firstByText;
  DenseMap<StringAttr, StringAttr> replacement;
  for (SymbolOpInterface kernel : kernels) {
    auto [it, inserted] =
        firstByText.try_emplace(fingerprint(kernel), kernel.getNameAttr());
    if (!inserted)
      replacement[kernel.getNameAttr()] = it->second;
  }
  return replacement;
}

namespace {
struct MlxcDedupKernelsPass final
    : mlx::impl::MlxcDedupKernelsBase<MlxcDedupKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
      dedupGpuKernels(module, gpuModule);
    dedupCpuKernels(module);
  }

  void dedupGpuKernels(ModuleOp module, gpu::GPUModuleOp gpuModule) {
    SmallVector<SymbolOpInterface> kernels;
    for (auto func : gpuModule.getOps<gpu::GPUFuncOp>())
      if (func.isKernel())
        kernels.push_back(func);
    DenseMap<StringAttr, StringAttr> replacement = findDuplicates(kernels);
    if (replacement.empty())
      return;
    StringAttr moduleName = gpuModule.getNameAttr();
    module.walk([&](gpu::LaunchFuncOp launch) {
      if (launch.getKernelModuleName() != moduleName)
        return;
      auto it = replacement.find(launch.getKernelName());
      if (it != replacement.end())
        launch.setKernelAttr(SymbolRefAttr::get(
            moduleName, {FlatSymbolRefAttr::get(it->second)}));
    });
    eraseReplaced(gpuModule, replacement);
  }

  void dedupCpuKernels(ModuleOp module) {
    SmallVector<SymbolOpInterface> kernels;
    for (auto func : module.getOps<func::FuncOp>())
      if (func->hasAttr(mlx::attrs::kCpuKernel))
        kernels.push_back(func);
    DenseMap<StringAttr, StringAttr> replacement = findDuplicates(kernels);
    if (replacement.empty())
      return;
    module.walk([&](func::CallOp call) {
      auto it = replacement.find(call.getCalleeAttr().getAttr());
      if (it != replacement.end())
        call.setCalleeAttr(FlatSymbolRefAttr::get(it->second));
    });
    eraseReplaced(module, replacement);
  }

  void eraseReplaced(Operation *symbolTable,
                     const DenseMap<StringAttr, StringAttr> &replacement) {
    SymbolTable symbols(symbolTable);
    for (auto [name, kept] : replacement) {
      (void)kept;
      symbols.lookup(name)->erase();
      ++numErased;
    }
  }
};
} // namespace
