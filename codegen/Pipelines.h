//===- Pipelines.h - the compilation pipelines of mlxc ----------*- C++ -*-===//
//
// A compile runs through named phases, each a normal form that `mlxc
// --emit=...` stops at and that `mlx-opt --mlxc-pipeline="from=P to=Q"`
// reproduces from the previous one's text:
//
//   mlx      verified mlx dialect (as imported)
//   linalg   fused linalg on tensors of storage types
//   kernels  kernel.region ops, each with the strategy that lowers it
//   gpu      (CUDA) outlined GPU kernels, cuBLASLt calls, the memory plan
//   nvvm     (CUDA) LLVM dialect, the kernels' gpu.modules in NVVM
//   llvm     LLVM dialect, ready for translation (CUDA: gpu.binary ops)
//
// What the passes lower for is the module's `kernel.target`
// (Kernel/Target.h); the options here are those of one compile.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_CODEGEN_PIPELINES_H
#define MLXC_CODEGEN_PIPELINES_H

#include "Kernel/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Support/Timing.h"

#include <optional>
#include <string>

namespace mlir::mlx {

enum class Phase { Mlx, Linalg, Kernels, Gpu, Nvvm, Llvm };

/// "linalg" -> Phase::Linalg, as --emit and mlx-opt spell the phases.
std::optional<Phase> parsePhase(StringRef name);
StringRef getPhaseName(Phase phase);

/// The options of one compile besides its target.
struct PipelineOptions {
  /// CUDA: prefetch unified buffers before the kernels that read them.
  bool prefetch = true;
  /// CUDA: leave the inputs and outputs that one loop-free kernel streams
  /// in host memory.
  bool streamIO = true;
  /// CUDA sm_90+: kernels overlap their predecessors.
  bool gridDependentLaunch = true;
  /// Testing: CPU products become mlxrt_matmul calls, as on CUDA (the
  /// linalg form then keeps them unfused, as on CUDA too).
  bool cpuMatmulCalls = false;
  /// CUDA, phase llvm: build the target's cubin (--emit=ptx needs only the
  /// PTX).
  bool buildCubin = true;
  /// CUDA, phases nvvm and llvm: the toolkit's libdevice.10.bc and, for a
  /// cubin, its ptxas.
  std::string libdevice, ptxas;
};

/// Adds to `pm` (on builtin.module) the passes that take a module of
/// `target` from phase `from` to phase `to`. Fails with a message in
/// `error` for an order that does not exist (a later phase first, a CUDA
/// phase on the CPU) or options the phases need and lack.
LogicalResult buildPipeline(OpPassManager &pm, kernel::TargetAttr target,
                            Phase from, Phase to,
                            const PipelineOptions &options,
                            std::string &error);

/// Runs buildPipeline's passes for the module's own `kernel.target` on
/// `module`, honouring the IR-printing command-line options; with `timing`,
/// each pass is timed under it (mlxc --mlir-timing). Any error a pass
/// reports fails the run.
LogicalResult runPhases(ModuleOp module, Phase from, Phase to,
                        const PipelineOptions &options,
                        TimingScope *timing = nullptr);

/// Registers `--mlxc-pipeline` for mlx-opt, with the phases and the
/// options above as pipeline options.
void registerMlxcPipelines();

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_PIPELINES_H
