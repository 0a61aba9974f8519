//===- EntryPoint.h - the C entry point of a compiled graph --*- C++ -*-===//
//
// A compiled model named NAME exports `void mlxc_NAME_entry(void **buffers)`
// (inputs then outputs, row-major), `const char mlxc_NAME_signature[]`, which
// the runtime parses (runtime/signature.c), and the descriptor
// `mlxc_NAME_model` that the runtime's C API opens (runtime/mlxrt_abi.h has
// the names and the layout). Executables use the name "program".
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
enum class Variant;

struct ProgramSignature {
  std::string entry;
  SmallVector<TensorSpec> inputs, outputs;
  SmallVector<OutputSource> outputSources;
  /// (output, input) pairs whose buffers the CPU and the CUDA variant let
  /// the caller share: the output is the input, updated
  /// (mlxc-plan-in-place-outputs).
  SmallVector<std::pair<size_t, size_t>> cpuInPlace, cudaInPlace;

  /// The text of `mlxc_program_signature`.
  std::string str() const;

  /// Records a graph function's `mlx.in_place` plan (per out-parameter,
  /// the argument index of the input it may share, or -1).
  void setInPlace(enum Variant variant, ArrayRef<int64_t> plan);
};

/// Reads the signature of `func`; arguments and results must be statically
/// shaped tensors of MLX dtypes (an error at the function otherwise). Names
/// come from `mlx.name` argument/result attributes, else arg<i> / out<i>.
FailureOr<ProgramSignature> getProgramSignature(func::FuncOp func);

/// Where compiled code runs; each variant has its own entry symbol
/// (`mlxc_NAME_entry` for the CPU, `mlxc_NAME_entry_cuda`).
enum class Variant { Cpu, Cuda };

/// `mlxc_<model><suffix>`: the exported symbols of model `model`
/// (suffixes in runtime/mlxrt_abi.h; "" is the typed entry of a library).
std::string getModelSymbol(StringRef model, StringRef suffix);

/// Whether `name` can name a model: a C identifier.
bool isValidModelName(StringRef name);

/// A model name made from a file name's stem: characters that cannot be in
/// a C identifier become '_', a leading digit gets a '_' in front.
std::string sanitizeModelName(StringRef stem);

/// Makes `func` return every computed value once and no arguments, and
/// records in `signature` how the program's outputs are assembled. Zero-size
/// inputs and outputs leave the function's signature (the entry point passes
/// only the buffers that hold bytes).
void dedupGraphResults(func::FuncOp func, ProgramSignature &signature);

/// The symbol the graph function gets in the object file, so that no graph
/// name can collide with C symbols such as `main`, nor the two variants.
std::string getGraphSymbol(StringRef entry, Variant variant);

/// Adds the entry point of `variant` of model `model` to a module in the
/// LLVM dialect whose graph function (renamed by getGraphSymbol) takes one
/// bare pointer per input and output; the CPU variant also carries the
/// signature text and the model's descriptor (which refers to the CUDA
/// entry, linked in later, when `hasCuda`). A `capturable` CUDA variant
/// first calls `mlxrt_graph_capturable()`, which lets the runtime replay it
/// as a CUDA graph.
LogicalResult addEntryPoint(ModuleOp module, const ProgramSignature &signature,
                            Variant variant, StringRef model,
                            bool capturable = false, bool hasCuda = false);

/// Adds `void mlxc_<model>(T *in..., T *out...)`, the typed C entry of a
/// library (--emit=lib): it calls the CPU entry.
LogicalResult addTypedEntryPoint(ModuleOp module,
                                 const ProgramSignature &signature,
                                 StringRef model);

/// Adds `mlxc_shared_model`, a pointer to the descriptor, which a loader of
/// a shared object (--emit=shared) finds without knowing the model's name.
LogicalResult addSharedModelPointer(ModuleOp module, StringRef model);

/// The names a model exports (entries, signature, descriptor, typed entry,
/// shared pointer): everything else in its object file can be internal.
SmallVector<std::string> getExportedSymbols(StringRef model);

/// The C header of a library: the typed entry with shapes in comments, the
/// generic entries and the descriptor for the runtime's C API.
std::string getLibraryHeader(const ProgramSignature &signature,
                             StringRef source, StringRef model, bool hasCuda);

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_HOST_ENTRYPOINT_H
