//===- Pipelines.cpp - the compilation pipelines of mlxc ------------------===//

#include "codegen/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

std::string mlx::getLinalgPipeline() {
  return "mlx-decompose,canonicalize,cse,convert-mlx-to-linalg,"
         "linalg-fuse-elementwise-ops,canonicalize,cse";
}

std::string mlx::getCpuLLVMPipeline() {
  return
      // Function results become caller-allocated out-parameters, so that the
      // runtime owns every input and output buffer.
      "one-shot-bufferize{bufferize-function-boundaries "
      "function-boundary-type-conversion=identity-layout-map},"
      "canonicalize,"
      "buffer-results-to-out-params{hoist-static-allocs "
      "modify-public-functions},"
      "buffer-deallocation-pipeline,canonicalize,"
      "convert-linalg-to-loops,expand-strided-metadata,lower-affine,"
      "convert-scf-to-cf,"
      // ipowi and friends have no LLVM intrinsic: expand them to functions;
      // math without an LLVM intrinsic (erf, sinh, ...) calls libm.
      "convert-math-to-funcs,convert-math-to-llvm,convert-math-to-libm,"
      "convert-arith-to-llvm,convert-index-to-llvm,finalize-memref-to-llvm,"
      "convert-func-to-llvm{use-bare-ptr-memref-call-conv},"
      "convert-cf-to-llvm,reconcile-unrealized-casts";
}

LogicalResult mlx::runPipeline(ModuleOp module, StringRef pipeline) {
  PassManager pm(module->getName());
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (failed(parsePassPipeline(pipeline, pm, os)))
    return module.emitError() << "invalid pipeline: " << errors;
  return pm.run(module);
}

void mlx::registerMlxcPipelines() {
  PassPipelineRegistration<>(
      "mlxc-linalg-pipeline", "mlx dialect to fused linalg on tensors",
      [](OpPassManager &pm) {
        (void)parsePassPipeline(getLinalgPipeline(), pm);
      });
  PassPipelineRegistration<>(
      "mlxc-cpu-llvm-pipeline",
      "fused linalg on tensors to the LLVM dialect for the host CPU",
      [](OpPassManager &pm) {
        (void)parsePassPipeline(getCpuLLVMPipeline(), pm);
      });
}
