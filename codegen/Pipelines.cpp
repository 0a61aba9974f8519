//===- Pipelines.cpp - the compilation pipelines of mlxc ------------------===//

#include "codegen/Pipelines.h"

#include "codegen/Passes.h"
#include "passes/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using mlx::Phase;

std::optional<Phase> mlx::parsePhase(StringRef name) {
  return llvm::StringSwitch<std::optional<Phase>>(name)
      .Case("mlx", Phase::Mlx)
      .Case("linalg", Phase::Linalg)
      .Case("kernels", Phase::Kernels)
      .Case("gpu", Phase::Gpu)
      .Case("nvvm", Phase::Nvvm)
      .Case("llvm", Phase::Llvm)
      .Default(std::nullopt);
}

StringRef mlx::getPhaseName(Phase phase) {
  switch (phase) {
  case Phase::Mlx:
    return "mlx";
  case Phase::Linalg:
    return "linalg";
  case Phase::Kernels:
    return "kernels";
  case Phase::Gpu:
    return "gpu";
  case Phase::Nvvm:
    return "nvvm";
  case Phase::Llvm:
    return "llvm";
  }
  llvm_unreachable("unknown phase");
}

namespace {
/// The passes of each phase, added to one pass manager.
class PipelineBuilder {
public:
  PipelineBuilder(OpPassManager &pm, kernel::TargetAttr target,
                  const mlx::PipelineOptions &options)
      : pm(pm), target(target), options(options) {}

  /// mlx -> linalg on tensors: decomposition, canonicalization, lowering and
  /// elementwise fusion. CUDA fuses nothing into matrix products
  /// (mlxc-fuse-elementwise), so that they reach cuBLASLt; a target with
  /// attention kernels keeps the attention they take whole
  /// (kernel.attention), raising MLX's fallback graph back to it first.
  void addLinalg() {
    mlx::MlxDecomposeOptions decompose;
    if (target.hasAttentionKernels()) {
      pm.addPass(mlx::createMlxRaiseAttention());
      decompose.keepAttention = true;
    }
    pm.addPass(mlx::createMlxDecompose(decompose));
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    pm.addPass(mlx::createConvertMlxToLinalg());
    pm.addPass(mlx::createMlxcFoldConstantMaps());
    pm.addPass(mlx::createMlxcElementwiseThroughConcat());
    if (target.isCuda() || options.cpuMatmulCalls)
      pm.addPass(mlx::createMlxcFuseElementwise());
    else
      pm.addPass(createLinalgElementwiseOpFusionPass());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    pm.addPass(mlx::createMlxcFillLargeSplats());
  }

  /// linalg on tensors -> kernel regions. The quantized products the target
  /// has no kernel for become dequantized matrices first.
  void addKernels() {
    pm.addPass(mlx::createMlxcQuantizedProducts());
    pm.addPass(mlx::createMlxcVectorProducts());
    pm.addPass(mlx::createMlxcFormKernels());
  }

  /// Bufferization shared by all targets (the kernel regions inlined first,
  /// their ops tagged): function results become caller-allocated
  /// out-parameters (marked `bufferize.result`), so that the runtime owns
  /// every input and output buffer; an updated input (a KV cache) may share
  /// the output's buffer.
  void addBufferization() {
    pm.addPass(mlx::createMlxcInlineKernels());
    pm.addPass(mlx::createMlxcReadOnlyInputs());
    pm.addPass(mlx::createMlxcWritePiecesInPlace());
    pm.addPass(bufferization::createEmptyTensorEliminationPass());
    bufferization::OneShotBufferizePassOptions bufferize;
    bufferize.bufferizeFunctionBoundaries = true;
    bufferize.functionBoundaryTypeConversion =
        bufferization::LayoutMapOption::IdentityLayoutMap;
    pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
    pm.addPass(createCanonicalizerPass());
    bufferization::BufferResultsToOutParamsPassOptions outParams;
    outParams.hoistStaticAllocs = true;
    outParams.modifyPublicFunctions = true;
    outParams.addResultAttribute = true;
    pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
    pm.addPass(mlx::createMlxcForwardOutputCopies());
    bufferization::buildBufferDeallocationPipeline(pm);
    pm.addPass(createCanonicalizerPass());
    pm.addPass(mlx::createMlxcPlanInPlaceOutputs());
  }

  /// bf16 arithmetic and conversions through f32, then the f32 <-> bf16
  /// conversions as integer ops: no libgcc __truncsfbf2 needed.
  void addFloatEmulation(OpPassManager &nested) {
    arith::ArithEmulateUnsupportedFloatsOptions emulate;
    emulate.sourceTypeStrs = {"bf16"};
    emulate.targetTypeStr = "f32";
    nested.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
  }

  /// Math, arith, index, func and cf to LLVM: functions take one bare
  /// pointer per buffer. ipowi and friends have no LLVM intrinsic: they
  /// expand to functions; math without one (erf, sinh, ...) calls libm.
  void addScalarsToLLVM(bool genericAllocs) {
    if (genericAllocs) {
      FinalizeMemRefToLLVMConversionPassOptions memref;
      memref.useGenericFunctions = true;
      pm.addPass(createFinalizeMemRefToLLVMConversionPass(memref));
    }
    pm.addPass(createConvertMathToFuncs());
    pm.addPass(createConvertMathToLLVMPass());
    pm.addPass(createConvertMathToLibmPass());
    addFloatEmulation(pm);
    arith::ArithExpandOpsPassOptions expand;
    expand.includeBf16 = true;
    pm.addPass(arith::createArithExpandOpsPass(expand));
    pm.addPass(createArithToLLVMConversionPass());
    pm.addPass(createConvertIndexToLLVMPass());
    if (!genericAllocs)
      pm.addPass(createFinalizeMemRefToLLVMConversionPass());
    ConvertFuncToLLVMPassOptions func;
    func.useBarePtrCallConv = true;
    pm.addPass(createConvertFuncToLLVMPass(func));
    pm.addPass(createConvertControlFlowToLLVMPass());
  }

  /// kernels -> LLVM dialect for the host CPU: loops, one function per
  /// kernel (equal ones shared: LLVM's work stays linear in the model).
  void addCpuLLVM() {
    addBufferization();
    // The output marks let the products write outputs directly, as on CUDA.
    if (options.cpuMatmulCalls)
      pm.addPass(mlx::createMlxcMatmulToRuntime());
    else
      pm.addPass(mlx::createMlxcFoldProductTransposes());
    // Strided copies would call the C runner utils' memrefCopy otherwise.
    pm.addPass(mlx::createMlxcCopyToLinalg());
    pm.addPass(mlx::createMlxcOutlineCpuKernels());
    pm.addPass(mlx::createMlxcDedupKernels());
    pm.addPass(createConvertLinalgToLoopsPass());
    pm.addPass(memref::createExpandStridedMetadataPass());
    pm.addPass(createLowerAffinePass());
    pm.addPass(createSCFToControlFlowPass());
    addScalarsToLLVM(/*genericAllocs=*/false);
    pm.addPass(createReconcileUnrealizedCastsPass());
  }

  /// kernels -> outlined GPU kernels with a memory plan: every parallel
  /// loop nest becomes a kernel (grid x 256 threads; row reductions one
  /// warp per row), matrix products become cuBLASLt calls, then
  /// mlx-memory-placement.
  void addGpu() {
    addBufferization();
    // Before the loops: products of few rows over a row-major operand
    // become split kernels, those that cuBLASLt can run calls.
    pm.addPass(mlx::createMlxcSplitVectorProducts());
    mlx::MlxcMatmulToRuntimeOptions matmul;
    matmul.groupSharedOperands = true;
    pm.addPass(mlx::createMlxcMatmulToRuntime(matmul));
    pm.addPass(mlx::createMlxcLowerAttention());
    pm.addPass(mlx::createMlxcLowerQuantizedProducts());
    pm.addPass(mlx::createMlxcCopyToLinalg());
    pm.addPass(mlx::createMlxcFuseRowKernels());
    pm.addPass(mlx::createMlxcSplitReductions());
    pm.addPass(mlx::createMlxcMapRowReductions());
    pm.addPass(mlx::createMlxcVectorizeElementwise());
    pm.addPass(mlx::createMlxcInterchangeReductions());
    pm.addPass(createConvertLinalgToParallelLoopsPass());
    // No canonicalization from here to the mapping: it would fold the
    // one-iteration loops away and merge the tile loops.
    pm.addPass(mlx::createMlxcTileParallelLoops());
    pm.addPass(mlx::createMlxcOffloadHostLoops());
    pm.addNestedPass<func::FuncOp>(createGpuMapParallelLoopsPass());
    pm.addPass(createConvertParallelLoopToGpuPass());
    // Small kernels that do not depend on each other: one launch.
    pm.addNestedPass<func::FuncOp>(mlx::createMlxcMergeLaunches());
    pm.addPass(createGpuLaunchSinkIndexComputationsPass());
    pm.addPass(createGpuKernelOutliningPass());
    pm.addPass(mlx::createMlxcMergeGpuModules());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(mlx::createMlxcDedupKernels());
    mlx::MlxMemoryPlacementOptions placement;
    placement.prefetch = options.prefetch;
    placement.streamIO = options.streamIO;
    pm.addNestedPass<func::FuncOp>(mlx::createMlxMemoryPlacement(placement));
  }

  /// Outlined kernels -> LLVM dialect: kernels to NVVM for sm_70 (every GPU
  /// from Volta on JITs its PTX), with libdevice to be linked in; host code
  /// launches through the mgpu* functions of the runtime and allocates
  /// through `_mlir_memref_to_llvm_alloc` (unified memory).
  void addNvvm() {
    pm.addPass(createLowerAffinePass());
    pm.addPass(createSCFToControlFlowPass());
    GpuNVVMAttachTargetOptions attach;
    attach.chip = "sm_70";
    attach.linkLibs = {options.libdevice};
    attach.optLevel = 3;
    pm.addPass(createGpuNVVMAttachTarget(attach));
    // bf16 arithmetic through f32; the conversions stay fptrunc/fpext,
    // which NVPTX lowers per chip: integer rounding for sm_70,
    // cvt.rn.bf16.f32 from sm_80 on (the cubin's variant).
    OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
    addFloatEmulation(kernels);
    kernels.addPass(mlx::createMlxcHalfExp());
    // Kernels take full memref descriptors: views at run-time offsets
    // (dynamic slices, scan steps) reach them too.
    OpPassManager &nvvm = pm.nest<gpu::GPUModuleOp>();
    nvvm.addPass(createConvertGpuOpsToNVVMOps());
    nvvm.addPass(createCanonicalizerPass());
    nvvm.addPass(createCSEPass());
    nvvm.addPass(createReconcileUnrealizedCastsPass());
    // Host code before gpu-to-llvm, whose own patterns would allocate with
    // plain malloc and pass full memref descriptors.
    pm.addPass(memref::createExpandStridedMetadataPass());
    pm.addPass(createLowerAffinePass());
    addScalarsToLLVM(/*genericAllocs=*/true);
    pm.addPass(createGpuToLLVMConversionPass());
  }

  /// Each gpu.module -> a gpu.binary of PTX and, for a target with a cubin,
  /// a cubin assembled by ptxas (mlxc-embed-cubin). From sm_80 on the cubin
  /// comes from the modules' clones for that chip (mlxc-chip-variants),
  /// whose kernels overlap their predecessors on sm_90+ unless the options
  /// say otherwise. Modules the kernel cache already turned into binaries
  /// stay as they are.
  void addBinaries() {
    mlx::MlxcChipVariantsOptions variants;
    variants.chip = target.getVariantChip().str();
    pm.addPass(mlx::createMlxcChipVariants(variants));
    pm.addPass(mlx::createMlxcWarpMatrixOps());
    pm.addPass(mlx::createMlxcClusterOps());
    mlx::MlxcGridDependentLaunchOptions dependent;
    dependent.enable = options.gridDependentLaunch;
    pm.addPass(mlx::createMlxcGridDependentLaunch(dependent));
    // MLIR's serializer looks for libdevice in the toolkit too ($CUDA_HOME
    // by default): name the one the libdevice above came from.
    GpuModuleToBinaryPassOptions binary;
    binary.compilationTarget = "isa";
    binary.toolkitPath =
        llvm::sys::path::parent_path(
            llvm::sys::path::parent_path(
                llvm::sys::path::parent_path(options.libdevice)))
            .str();
    pm.addPass(createGpuModuleToBinaryPass(binary));
    if (target.hasCubin() && options.buildCubin) {
      mlx::MlxcEmbedCubinOptions cubin;
      cubin.arch = target.getArch().str();
      cubin.ptxas = options.ptxas;
      pm.addPass(mlx::createMlxcEmbedCubin(cubin));
    }
    pm.addPass(createReconcileUnrealizedCastsPass());
  }

private:
  OpPassManager &pm;
  kernel::TargetAttr target;
  const mlx::PipelineOptions &options;
};
} // namespace

LogicalResult mlx::buildPipeline(OpPassManager &pm, kernel::TargetAttr target,
                                 Phase from, Phase to,
                                 const PipelineOptions &options,
                                 std::string &error) {
  auto fail = [&](const Twine &message) {
    error = message.str();
    return failure();
  };
  if (!target)
    return fail("the module has no kernel.target");
  if (to < from)
    return fail("phase '" + getPhaseName(to) + "' comes before '" +
                getPhaseName(from) + "'");
  bool cuda = target.isCuda();
  for (Phase phase : {from, to})
    if (!cuda && (phase == Phase::Gpu || phase == Phase::Nvvm))
      return fail("phase '" + getPhaseName(phase) +
                  "' exists for the cuda target only");
  if (cuda && to >= Phase::Nvvm && from < Phase::Nvvm &&
      options.libdevice.empty())
    return fail("the nvvm phase needs libdevice (the CUDA toolkit's "
                "nvvm/libdevice/libdevice.10.bc)");
  if (cuda && to == Phase::Llvm && target.hasCubin() && options.buildCubin &&
      options.ptxas.empty())
    return fail("a cubin for " + target.getArch() + " needs ptxas");
  // Phase p's passes take the module from phase p-1 to p.
  auto runs = [&](Phase phase) { return from < phase && phase <= to; };
  PipelineBuilder builder(pm, target, options);
  if (runs(Phase::Linalg))
    builder.addLinalg();
  if (runs(Phase::Kernels))
    builder.addKernels();
  if (!cuda) {
    if (runs(Phase::Llvm))
      builder.addCpuLLVM();
    return success();
  }
  if (runs(Phase::Gpu))
    builder.addGpu();
  if (runs(Phase::Nvvm))
    builder.addNvvm();
  if (runs(Phase::Llvm))
    builder.addBinaries();
  return success();
}

LogicalResult mlx::runPhases(ModuleOp module, Phase from, Phase to,
                             const PipelineOptions &options,
                             TimingScope *timing) {
  PassManager pm(module->getName());
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  if (timing)
    pm.enableTiming(*timing);
  std::string error;
  if (failed(buildPipeline(pm, kernel::getTarget(module), from, to, options,
                           error)))
    return module.emitError() << error;
  // Some upstream passes report an error and still succeed: any error
  // fails the pipeline (the tool's own handler prints it).
  bool sawError = false;
  ScopedDiagnosticHandler errorWatch(module.getContext(), [&](Diagnostic &d) {
    sawError |= d.getSeverity() == DiagnosticSeverity::Error;
    return failure();
  });
  return failure(failed(pm.run(module)) || sawError);
}

namespace {
struct MlxcPipelineOptions : PassPipelineOptions<MlxcPipelineOptions> {
  Option<std::string> from{*this, "from",
                           llvm::cl::desc("The input's phase: mlx, linalg, "
                                          "kernels, gpu or nvvm"),
                           llvm::cl::init("mlx")};
  Option<std::string> to{*this, "to",
                         llvm::cl::desc("The phase to stop at: linalg, "
                                        "kernels, gpu, nvvm or llvm"),
                         llvm::cl::init("llvm")};
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("cpu or cuda, for a module without kernel.target "
                     "(as mlxc --target); a module's own must agree")};
  Option<std::string> gpuArch{*this, "gpu-arch",
                              llvm::cl::desc("As mlxc --gpu-arch"),
                              llvm::cl::init("sm_70")};
  Option<bool> clusters{*this, "clusters",
                        llvm::cl::desc("false: as mlxc --no-clusters"),
                        llvm::cl::init(true)};
  Option<bool> prefetch{*this, "prefetch",
                        llvm::cl::desc("false: as mlxc --no-prefetch"),
                        llvm::cl::init(true)};
  Option<bool> streamIO{*this, "stream-io",
                        llvm::cl::desc("false: as mlxc --no-stream-io"),
                        llvm::cl::init(true)};
  Option<bool> gridDependentLaunch{
      *this, "grid-dependent-launch",
      llvm::cl::desc("false: as mlxc --no-grid-dependent-launch"),
      llvm::cl::init(true)};
  Option<bool> cpuMatmulCalls{*this, "cpu-matmul-calls",
                              llvm::cl::desc("As mlxc --cpu-matmul-calls"),
                              llvm::cl::init(false)};
  Option<std::string> libdevice{
      *this, "libdevice",
      llvm::cl::desc("The toolkit's libdevice.10.bc (phases nvvm, llvm)")};
  Option<std::string> ptxas{*this, "ptxas",
                            llvm::cl::desc("ptxas, for a cubin (phase llvm)")};
};

/// Runs the phases the options name on a module, for the module's target:
/// the pipeline is only known once the module is.
struct MlxcPhasesPass final
    : PassWrapper<MlxcPhasesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MlxcPhasesPass)

  explicit MlxcPhasesPass(const MlxcPipelineOptions &o) {
    from = o.from;
    to = o.to;
    target = o.target;
    gpuArch = o.gpuArch;
    clusters = o.clusters;
    options.prefetch = o.prefetch;
    options.streamIO = o.streamIO;
    options.gridDependentLaunch = o.gridDependentLaunch;
    options.cpuMatmulCalls = o.cpuMatmulCalls;
    options.libdevice = o.libdevice;
    options.ptxas = o.ptxas;
  }
  StringRef getArgument() const override { return "mlxc-phases"; }
  StringRef getDescription() const override {
    return "the phases of an mlxc compile (--mlxc-pipeline)";
  }

  /// Every dialect some phase of either target creates.
  void getDependentDialects(DialectRegistry &registry) const override {
    MLIRContext context(MLIRContext::Threading::DISABLED);
    context.loadDialect<kernel::KernelDialect>();
    std::string error;
    for (StringRef backend : {"cpu", "cuda"}) {
      FailureOr<kernel::TargetAttr> target =
          kernel::buildTarget(&context, {backend.str(), "sm_90", true}, error);
      mlx::PipelineOptions all;
      all.libdevice = "libdevice.10.bc";
      all.ptxas = "ptxas";
      OpPassManager pm(ModuleOp::getOperationName());
      if (succeeded(target) &&
          succeeded(mlx::buildPipeline(pm, *target, Phase::Mlx, Phase::Llvm,
                                       all, error)))
        pm.getDependentDialects(registry);
    }
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<Phase> first = mlx::parsePhase(from),
                         last = mlx::parsePhase(to);
    if (!first || !last) {
      module.emitError() << "--mlxc-pipeline: unknown phase '"
                         << (first ? to : from)
                         << "' (mlx, linalg, kernels, gpu, nvvm or llvm)";
      return signalPassFailure();
    }
    kernel::TargetAttr own = kernel::getTarget(module);
    if (!target.empty()) {
      std::string error;
      FailureOr<kernel::TargetAttr> asked = kernel::buildTarget(
          &getContext(), {target, gpuArch, clusters}, error);
      if (failed(asked)) {
        module.emitError() << "--mlxc-pipeline: " << error;
        return signalPassFailure();
      }
      if (own && own != *asked) {
        module.emitError() << "--mlxc-pipeline: the module's kernel.target "
                           << own << " is not the " << *asked << " asked for";
        return signalPassFailure();
      }
      own = *asked;
      kernel::setTarget(module, own);
    }
    if (!own) {
      module.emitError() << "--mlxc-pipeline: the module has no "
                            "kernel.target; name one (target=cpu or cuda)";
      return signalPassFailure();
    }
    OpPassManager pm(ModuleOp::getOperationName());
    std::string error;
    if (failed(mlx::buildPipeline(pm, own, *first, *last, options, error))) {
      module.emitError() << "--mlxc-pipeline: " << error;
      return signalPassFailure();
    }
    if (failed(runPipeline(pm, module)))
      signalPassFailure();
  }

  std::string from, to, target, gpuArch;
  bool clusters = true;
  mlx::PipelineOptions options;
};
} // namespace

void mlx::registerMlxcPipelines() {
  PassPipelineRegistration<MlxcPipelineOptions>(
      "mlxc-pipeline",
      "The phases of an mlxc compile, from one normal form to another "
      "(from=, to=), for the module's kernel.target",
      [](OpPassManager &pm, const MlxcPipelineOptions &options) {
        pm.addPass(std::make_unique<MlxcPhasesPass>(options));
      });
}
