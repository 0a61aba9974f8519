//===- ObjectFile.cpp - LLVM IR and object files for the host -------------===//

#include "codegen/Target/ObjectFile.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::mlx;

FailureOr<std::unique_ptr<llvm::TargetMachine>>
mlx::createHostTargetMachine(ModuleOp module, StringRef cpuName) {
  // "native": the CPU mlxc runs on, as clang's -march=native.
  std::string cpu = cpuName == "native" ? llvm::sys::getHostCPUName().str()
                                        : cpuName.str();
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return module.emitError()
           << "no LLVM target for " << triple.str() << ": " << error;
  // An unknown CPU name would only be a warning from LLVM, and its features
  // then an LLVM ERROR later on: refuse it here.
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!subtarget || !subtarget->isCPUStringValid(cpu))
    return module.emitError()
           << "unknown host CPU '" << cpu << "' for " << triple.str()
           << " (--cpu takes an LLVM CPU name such as x86-64-v3, "
              "x86-64-v2, x86-64, native or skylake)";
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpu, /*Features=*/"", options, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    return module.emitError()
           << "cannot create a target machine for CPU '" << cpu << "'";
  return machine;
}

FailureOr<std::unique_ptr<llvm::Module>>
mlx::translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                       llvm::TargetMachine &machine) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context);
  if (!llvmModule)
    return module.emitError() << "translation to LLVM IR failed";
  llvmModule->setTargetTriple(machine.getTargetTriple());
  llvmModule->setDataLayout(machine.createDataLayout());
  return llvmModule;
}

LogicalResult mlx::optimizeModule(ModuleOp anchor, llvm::Module &module,
                                  llvm::TargetMachine &machine) {
  if (llvm::Error err = lowerHostBFloat(module))
    return anchor.emitError() << llvm::toString(std::move(err));
  auto optimize = makeOptimizingTransformer(3, 0, &machine);
  if (llvm::Error err = optimize(&module))
    return anchor.emitError()
           << "LLVM optimization failed: " << llvm::toString(std::move(err));
  return success();
}

LogicalResult mlx::writeObjectFile(ModuleOp anchor, llvm::Module &module,
                                   llvm::TargetMachine &machine,
                                   llvm::raw_pwrite_stream &os) {
  llvm::legacy::PassManager pm;
  if (machine.addPassesToEmitFile(pm, os, nullptr,
                                  llvm::CodeGenFileType::ObjectFile))
    return anchor.emitError() << "the target cannot emit object files";
  pm.run(module);
  return success();
}
