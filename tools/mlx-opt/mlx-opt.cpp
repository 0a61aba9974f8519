//===- mlx-opt.cpp - the mlxc pass driver ---------------------------------===//

#include "tools/InitAll.h"
#include "tools/InputLimits.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  DialectRegistry registry;
  mlxc::registerAllDialects(registry);
  mlxc::registerAllPasses();
  auto [inputFilename, outputFilename] =
      registerAndParseCLIOptions(argc, argv, "mlxc pass driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(inputFilename, &error);
  if (!file) {
    llvm::errs() << error << "\n";
    return 1;
  }
  // The parser recurses per nesting level: refuse absurd depths first.
  llvm::SourceMgr probe;
  probe.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(file->getMemBufferRef(), false),
      llvm::SMLoc());
  if (failed(mlxc::checkNestingDepth(probe)))
    return 1;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (failed(MlirOptMain(output->os(), std::move(file), registry, config)))
    return 1;
  output->keep();
  return 0;
}
