//===- Pipelines.h - the compilation pipelines of mlxc ------------*- C++
//-*-===//
//
// Each phase boundary is a named normal form the driver can stop at
// (`mlxc --emit=...`) and that mlx-opt reproduces from the same text:
//   mlx      verified mlx dialect (as imported)
//   linalg   fused linalg on tensors of storage types
//   llvm     LLVM dialect, bufferized, ready for translation
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_CODEGEN_PIPELINES_H
#define MLXC_CODEGEN_PIPELINES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Support/Timing.h"

#include <string>

namespace mlir::mlx {

/// mlx -> linalg on tensors: decomposition, canonicalization, lowering and
/// elementwise fusion. `keepProducts` (CUDA) fuses nothing into matrix
/// products (mlxc-fuse-elementwise), so that they reach cuBLASLt.
/// `attentionKernels` (CUDA, sm_80 and newer) keeps the attention that the
/// flash-attention or split-key kernel takes whole (kernel.attention),
/// raising MLX's fallback graph back to it first.
std::string getLinalgPipeline(bool keepProducts = false,
                              bool attentionKernels = false);

/// The kernel-formation stage: linalg on tensors to kernel regions.
std::string getKernelFormationPipeline(bool cuda = false);

/// linalg on tensors -> LLVM dialect for the host CPU: bufferization with
/// outputs as out-parameters, loops, and the LLVM conversions. Functions
/// take one bare pointer per buffer. `matmulCalls` (for testing the
/// rewrite on machines without a GPU) makes products mlxrt_matmul calls as
/// on CUDA; the program then needs a host mlxrt_matmul at link time.
std::string getCpuLLVMPipeline(bool matmulCalls = false);

/// linalg on tensors -> outlined GPU kernels with a memory plan:
/// bufferization as on the CPU, every parallel loop nest becomes a kernel
/// (grid x 256 threads; row reductions one warp per row), matrix products
/// become cuBLASLt calls, then mlx-memory-placement. With
/// `clusterRows` (a cubin for sm_90 or newer), rows too long for a block
/// spread over thread-block clusters of up to that many blocks.
std::string getCudaKernelPipeline(bool prefetch = true, bool streamIO = true,
                                  int64_t clusterRows = 0);

/// Outlined kernels -> LLVM dialect: kernels to NVVM for `chip`, with
/// libdevice to be linked in; host code launches through the mgpu*
/// functions of the runtime and allocates through
/// `_mlir_memref_to_llvm_alloc` (unified memory).
std::string getCudaLLVMPipeline(StringRef chip, StringRef libdevicePath);

/// Then each gpu.module -> a gpu.binary of PTX, with `cubinArch` (e.g.
/// sm_90) also a cubin for that architecture, assembled by `ptxas`
/// (mlxc-embed-cubin). With `variantChip` (the cubin's architecture, sm_80+)
/// the cubin comes from the modules' clones for that chip
/// (mlxc-chip-variants), whose kernels overlap their predecessors on sm_90+
/// when `gridDependent` (mlxc-grid-dependent-launch). Modules the kernel
/// cache already turned into binaries stay as they are.
std::string getCudaBinaryPipeline(StringRef libdevicePath,
                                  StringRef cubinArch = "",
                                  StringRef ptxas = "",
                                  StringRef variantChip = "",
                                  bool gridDependent = true);

/// Runs the textual `pipeline` (the contents of `builtin.module(...)`) on
/// `module`, honouring the IR-printing command-line options; with `timing`,
/// each pass is timed under it (mlxc --mlir-timing).
LogicalResult runPipeline(ModuleOp module, StringRef pipeline,
                          TimingScope *timing = nullptr);

/// Registers the pipelines above for mlx-opt: `--mlxc-linalg-pipeline` and
/// `--mlxc-cpu-llvm-pipeline`.
void registerMlxcPipelines();

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_PIPELINES_H
