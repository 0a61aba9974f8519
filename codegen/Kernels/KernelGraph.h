//===- KernelGraph.h - the kernel graph as Graphviz -------------*- C++ -*-===//

#ifndef MLXC_CODEGEN_KERNELS_KERNELGRAPH_H
#define MLXC_CODEGEN_KERNELS_KERNELGRAPH_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::mlx {

struct KernelGraphOptions {
  bool cuda = false;
  /// Graph inputs and outputs stream from host memory (mlxc's default on
  /// CUDA; --no-stream-io keeps them in unified memory).
  bool streamIO = true;
  /// The memory plan's arenas, when a CUDA plan was made.
  std::optional<int64_t> deviceArenaBytes, unifiedArenaBytes;
  /// The program's names of the function's arguments and results (in<i> /
  /// out<i> where missing).
  std::vector<std::string> inputNames, outputNames;
  /// The graph's name in the picture (the function's symbol if empty).
  std::string title;
};

/// Prints `func` (after mlxc-form-kernels) as a Graphviz digraph: a cluster
/// per kernel region with its strategy and ops, graph inputs and outputs,
/// host ops that are no kernel, and an edge per tensor with its shape,
/// bytes and placement (host on the CPU; device, unified or streamed on
/// CUDA).
void printKernelGraph(func::FuncOp func, const KernelGraphOptions &options,
                      llvm::raw_ostream &os);

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_KERNELS_KERNELGRAPH_H
