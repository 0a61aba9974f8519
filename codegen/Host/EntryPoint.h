//===- EntryPoint.h - the C entry point of a compiled graph ------*- C++
//-*-===//
//
// A compiled program exports `void mlxc_program_entry(void **buffers)` (inputs
// then outputs, row-major) and `const char mlxc_program_signature[]`, which
// the runtime parses (runtime/signature.c) to read inputs and write outputs.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_CODEGEN_HOST_ENTRYPOINT_H
#define MLXC_CODEGEN_HOST_ENTRYPOINT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::mlx {

struct TensorSpec {
  std::string name;
  Type dtype;
  SmallVector<int64_t> shape;
};

/// Where output `k` of the program comes from: a result the graph computes,
/// a copy of an input or of an earlier output (a graph may return an
/// argument, or one value twice; the compiled function returns each computed
/// value once and the entry point copies the rest), or nothing at all for a
/// zero-size output.
struct OutputSource {
  enum Kind { Computed, Input, Output, Empty } kind = Computed;
  unsigned index = 0; ///< the input or output copied
};

/// The interface of one graph function, taken before lowering.
struct ProgramSignature {
  std::string entry;
  SmallVector<TensorSpec> inputs, outputs;
  SmallVector<OutputSource> outputSources;

  /// The text of `mlxc_program_signature`.
  std::string str() const;
};

/// Reads the signature of `func`; arguments and results must be statically
/// shaped tensors of MLX dtypes (an error at the function otherwise). Names
/// come from `mlx.name` argument/result attributes, else arg<i> / out<i>.
FailureOr<ProgramSignature> getProgramSignature(func::FuncOp func);

/// Where compiled code runs; each variant has its own entry symbol
/// (`mlxc_program_entry` for the CPU, `mlxc_program_entry_cuda`).
enum class Variant { Cpu, Cuda };

/// Makes `func` return every computed value once and no arguments, and
/// records in `signature` how the program's outputs are assembled. Zero-size
/// inputs and outputs leave the function's signature (the entry point passes
/// only the buffers that hold bytes).
void dedupGraphResults(func::FuncOp func, ProgramSignature &signature);

/// The symbol the graph function gets in the object file, so that no graph
/// name can collide with C symbols such as `main`, nor the two variants.
std::string getGraphSymbol(StringRef entry, Variant variant);

/// Adds the entry point of `variant` to a module in the LLVM dialect whose
/// graph function (renamed by getGraphSymbol) takes one bare pointer per
/// input and output; the CPU variant also carries `mlxc_program_signature`.
/// A `capturable` CUDA variant first calls `mlxrt_graph_capturable()`, which
/// lets the runtime replay it as a CUDA graph.
LogicalResult addEntryPoint(ModuleOp module, const ProgramSignature &signature,
                            Variant variant, bool capturable = false);

/// Adds `void mlxc_<entry>(T *in..., T *out...)`, the typed C entry of a
/// library (--emit=lib): it calls `mlxc_program_entry` on the CPU.
LogicalResult addTypedEntryPoint(ModuleOp module,
                                 const ProgramSignature &signature);

/// The C header of a library: the typed entry with shapes in comments, and
/// the generic entries.
std::string getLibraryHeader(const ProgramSignature &signature,
                             StringRef source);

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_HOST_ENTRYPOINT_H
