//===- Pipelines.cpp - the compilation pipelines of mlxc ------------------===//

#include "codegen/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/Path.h"

using namespace mlir;

std::string mlx::getLinalgPipeline(bool keepProducts, bool attentionKernels) {
  return std::string(attentionKernels
                         ? "mlx-raise-attention,mlx-decompose{keep-attention},"
                         : "mlx-decompose,") +
         "canonicalize,cse,convert-mlx-to-linalg,mlxc-fold-constant-maps,"
         "mlxc-elementwise-through-concat," +
         (keepProducts ? "mlxc-fuse-elementwise"
                       : "linalg-fuse-elementwise-ops") +
         ",canonicalize,cse,mlxc-fill-large-splats";
}

std::string mlx::getKernelFormationPipeline(bool cuda) {
  return std::string("mlxc-quantized-products{target=") +
         (cuda ? "cuda" : "cpu") + "},mlxc-vector-products,mlxc-form-kernels";
}

/// Bufferization shared by all targets (the kernel regions inlined first,
/// their ops tagged): function results become
/// caller-allocated out-parameters (marked `bufferize.result`), so that the
/// runtime owns every input and output buffer.
static std::string getBufferizePipeline(bool markResults) {
  return std::string("mlxc-inline-kernels,mlxc-read-only-inputs,"
                     "mlxc-write-pieces-in-place,eliminate-empty-tensors,"
                     "one-shot-bufferize{bufferize-function-boundaries "
                     "function-boundary-type-conversion=identity-layout-map},"
                     "canonicalize,"
                     "buffer-results-to-out-params{hoist-static-allocs "
                     "modify-public-functions") +
         (markResults ? " add-result-attr},mlxc-forward-output-copies,"
                      : "},") +
         "buffer-deallocation-pipeline,canonicalize,";
}

std::string mlx::getCpuLLVMPipeline(bool matmulCalls) {
  // The output marks let the products write outputs directly, as on CUDA.
  return getBufferizePipeline(/*markResults=*/true) +
         // An updated input (a KV cache) may share the output's buffer.
         "mlxc-plan-in-place-outputs," +
         (matmulCalls ? "mlxc-matmul-to-runtime,"
                      : "mlxc-fold-product-transposes,") +
         // Strided copies would call the C runner utils' memrefCopy otherwise.
         "mlxc-copy-to-linalg,"
         // One function per kernel, equal ones shared: LLVM's work stays
         // linear in the model.
         "mlxc-outline-cpu-kernels,mlxc-dedup-kernels,"
         "convert-linalg-to-loops,expand-strided-metadata,lower-affine,"
         "convert-scf-to-cf,"
         // ipowi and friends have no LLVM intrinsic: expand them to functions;
         // math without an LLVM intrinsic (erf, sinh, ...) calls libm.
         "convert-math-to-funcs,convert-math-to-llvm,convert-math-to-libm,"
         // bf16 arithmetic and conversions through f32, then the f32 <-> bf16
         // conversions as integer ops: no libgcc __truncsfbf2 needed.
         "arith-emulate-unsupported-floats{source-types=bf16 target-type=f32},"
         "arith-expand{include-bf16},"
         "convert-arith-to-llvm,convert-index-to-llvm,finalize-memref-to-llvm,"
         "convert-func-to-llvm{use-bare-ptr-memref-call-conv},"
         "convert-cf-to-llvm,reconcile-unrealized-casts";
}

std::string mlx::getCudaKernelPipeline(bool prefetch, bool streamIO,
                                       int64_t clusterRows) {
  return getBufferizePipeline(/*markResults=*/true) +
         // An updated input (a KV cache) may share the output's buffer.
         "mlxc-plan-in-place-outputs,"
         // Before the loops: products of few rows over a row-major operand
         // become split kernels, those that cuBLASLt can run calls.
         "mlxc-split-vector-products,"
         "mlxc-matmul-to-runtime{group-shared-operands},"
         "mlxc-lower-attention,mlxc-lower-quantized-products,"
         "mlxc-copy-to-linalg,"
         "mlxc-fuse-row-kernels{clusters=" +
         std::to_string(clusterRows) +
         "},"
         "mlxc-split-reductions,"
         "mlxc-map-row-reductions,"
         "mlxc-vectorize-elementwise,mlxc-interchange-reductions,"
         "convert-linalg-to-parallel-loops,"
         // No canonicalization from here to the mapping: it would fold the
         // one-iteration loops away and merge the tile loops.
         "mlxc-tile-parallel-loops,mlxc-offload-host-loops,"
         "func.func(gpu-map-parallel-loops),convert-parallel-loops-to-gpu,"
         // Small kernels that do not depend on each other: one launch.
         "func.func(mlxc-merge-launches),"
         "gpu-launch-sink-index-computations,gpu-kernel-outlining,"
         "mlxc-merge-gpu-modules,canonicalize,mlxc-dedup-kernels," +
         "func.func(mlx-memory-placement{prefetch=" +
         std::string(prefetch ? "true" : "false") +
         " stream-io=" + (streamIO ? "true" : "false") + "})";
}

/// TOOLKIT of TOOLKIT/nvvm/libdevice/libdevice.10.bc.
static std::string toolkitFromLibdevice(StringRef libdevicePath) {
  return llvm::sys::path::parent_path(
             llvm::sys::path::parent_path(
                 llvm::sys::path::parent_path(libdevicePath)))
      .str();
}

std::string mlx::getCudaLLVMPipeline(StringRef chip, StringRef libdevicePath) {
  return "lower-affine,convert-scf-to-cf,"
         "nvvm-attach-target{chip=" +
         chip.str() + " l=" + libdevicePath.str() +
         " O=3},"
         // bf16 arithmetic through f32; the conversions stay fptrunc/fpext,
         // which NVPTX lowers per chip: integer rounding for sm_70,
         // cvt.rn.bf16.f32 from sm_80 on (the cubin's variant).
         "gpu.module(arith-emulate-unsupported-floats{source-types=bf16 "
         "target-type=f32},mlxc-half-exp),"
         // Kernels take full memref descriptors: views at run-time offsets
         // (dynamic slices, scan steps) reach them too.
         "gpu.module(convert-gpu-to-nvvm,"
         "canonicalize,cse,reconcile-unrealized-casts),"
         // Host code before gpu-to-llvm, whose own patterns would allocate
         // with plain malloc and pass full memref descriptors.
         "expand-strided-metadata,lower-affine,"
         "finalize-memref-to-llvm{use-generic-functions},"
         "convert-math-to-funcs,convert-math-to-llvm,convert-math-to-libm,"
         "arith-emulate-unsupported-floats{source-types=bf16 target-type=f32},"
         "arith-expand{include-bf16},"
         "convert-arith-to-llvm,convert-index-to-llvm,"
         "convert-func-to-llvm{use-bare-ptr-memref-call-conv},"
         "convert-cf-to-llvm,"
         "gpu-to-llvm";
}

std::string mlx::getCudaBinaryPipeline(StringRef libdevicePath,
                                       StringRef cubinArch, StringRef ptxas,
                                       StringRef variantChip,
                                       bool gridDependent) {
  // MLIR's serializer looks for libdevice in the toolkit too ($CUDA_HOME
  // by default): name the one the libdevice above came from.
  return "mlxc-chip-variants{chip=" + variantChip.str() +
         "},mlxc-warp-matrix-ops,mlxc-cluster-ops,"
         "mlxc-grid-dependent-launch{enable=" +
         (gridDependent ? "true" : "false") +
         "},"
         "gpu-module-to-binary{format=isa toolkit=" +
         toolkitFromLibdevice(libdevicePath) + "}," +
         (cubinArch.empty() ? std::string()
                            : "mlxc-embed-cubin{arch=" + cubinArch.str() +
                                  " ptxas=" + ptxas.str() + "},") +
         "reconcile-unrealized-casts";
}

LogicalResult mlx::runPipeline(ModuleOp module, StringRef pipeline,
                               TimingScope *timing) {
  PassManager pm(module->getName());
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  if (timing)
    pm.enableTiming(*timing);
  // Some upstream passes report an error and still succeed: any error
  // fails the pipeline (the tool's own handler prints it).
  bool sawError = false;
  ScopedDiagnosticHandler errorWatch(module.getContext(), [&](Diagnostic &d) {
    sawError |= d.getSeverity() == DiagnosticSeverity::Error;
    return failure();
  });
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (failed(parsePassPipeline(pipeline, pm, os)))
    return module.emitError() << "invalid pipeline: " << errors;
  return failure(failed(pm.run(module)) || sawError);
}

void mlx::registerMlxcPipelines() {
  PassPipelineRegistration<>("mlxc-linalg-pipeline",
                             "mlx dialect to fused linalg on tensors",
                             [](OpPassManager &pm) {
                               (void)parsePassPipeline(getLinalgPipeline(), pm);
                             });
  PassPipelineRegistration<>(
      "mlxc-cuda-kernel-pipeline",
      "kernel regions to GPU kernels and the memory plan (the CUDA path up "
      "to the NVVM lowering)",
      [](OpPassManager &pm) {
        (void)parsePassPipeline(getCudaKernelPipeline(), pm);
      });
  PassPipelineRegistration<>(
      "mlxc-cpu-llvm-pipeline",
      "fused linalg on tensors to the LLVM dialect for the host CPU",
      [](OpPassManager &pm) {
        (void)parsePassPipeline(getCpuLLVMPipeline(), pm);
      });
}
