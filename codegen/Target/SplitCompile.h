//===- SplitCompile.h - kernels compiled apart, cached, in parallel -------===//
//
// The CPU variant's kernels (functions marked `mlx.cpu_kernel`) leave the
// host module before LLVM sees it: each becomes a small module of its own,
// named by a hash of its text, compiled to an object file on a thread pool
// and kept in an on-disk cache under that hash. The rest of the program (the
// graphs, the entry points, the GPU binaries) is one more such module.
// LLVM's work is then linear in the number of distinct kernels, uses every
// core, and an unchanged kernel is never compiled twice.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_CODEGEN_TARGET_SPLITCOMPILE_H
#define MLXC_CODEGEN_TARGET_SPLITCOMPILE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Target/TargetMachine.h"

#include <deque>
#include <functional>
#include <memory>
#include <string>

namespace mlir::mlx {

/// One module to compile to one object file.
struct CompileUnit {
  /// What the object depends on: the LLVM-dialect text of the module(s)
  /// and every option that changes the code.
  std::string key;
  /// The modules (linked into one LLVM module) to compile on a miss.
  SmallVector<ModuleOp, 2> modules;
  /// Those of them the unit owns (a kernel's).
  SmallVector<OwningOpRef<ModuleOp>, 1> owned;
  /// The object file, filled by ObjectCompiler.
  std::string object;
  bool cached = false;
  /// Runs on the translated LLVM module before it is optimized (e.g. to
  /// make all but the exported symbols internal); part of the key's
  /// options.
  std::function<void(llvm::Module &)> prepare;
  /// Whether LLVM optimizes it (O3) or only generates code (O0: schedules
  /// of launches, where optimizing buys nothing).
  bool optimize = true;
};

/// Moves every `mlx.cpu_kernel` llvm.func of `module` (an LLVM-dialect
/// module) into a unit of its own, with the declarations and private
/// helpers it uses. The kernel is renamed `mlxc_k_<mlx.kernel_name>_<hash>`
/// (weak_odr, hidden) after what it computes and its text, and `module`
/// keeps a declaration. A kernel that uses a global variable stays in
/// `module`.
SmallVector<CompileUnit> extractKernelUnits(ModuleOp module,
                                            StringRef optionsKey);

/// Completes `unit.key` from its modules' text and `optionsKey`.
void computeUnitKey(CompileUnit &unit, StringRef optionsKey);

struct CompileOptions {
  /// Makes a target machine (one per thread: they are not shared).
  std::function<std::unique_ptr<llvm::TargetMachine>()> makeMachine;
  /// Folder of the object cache; empty: no cache.
  std::string cacheDir;
  unsigned threads = 1;
};

/// Fills units' objects: from the cache, or by translating, optimizing (O3)
/// and compiling their modules on a pool of `options.threads` threads, then
/// storing the objects in the cache. Units may be added while earlier ones
/// compile (the caller lowers the CUDA variant meanwhile); they must stay
/// where they are until finish().
class ObjectCompiler {
public:
  ObjectCompiler(ModuleOp anchor, CompileOptions options);
  ~ObjectCompiler();
  /// Looks the units up in the cache and translates the others here (the
  /// MLIR context stays on this thread); their compiles start at once.
  LogicalResult add(MutableArrayRef<CompileUnit> units);
  /// Waits for every compile; errors are reported at the anchor.
  LogicalResult finish();

private:
  struct Job;
  ModuleOp anchor;
  CompileOptions options;
  std::unique_ptr<llvm::StdThreadPool> pool;
  std::deque<Job> jobs;
};

/// The GPU side of the cache: each gpu.module whose binary the cache holds
/// (under a hash of its NVVM text and `optionsKey`, which names libdevice,
/// the cubin architecture and ptxas) becomes that gpu.binary. Returns the
/// keys of the others by module name, for storeGpuBinaries once they are
/// built.
llvm::StringMap<std::string>
loadGpuBinaries(ModuleOp module, StringRef cacheDir, StringRef optionsKey);
void storeGpuBinaries(ModuleOp module, const llvm::StringMap<std::string> &keys,
                      StringRef cacheDir);

/// Prints `op` the way every cache key and kernel fingerprint sees it: no
/// locations, no elided constants, no aliases (`generic`: the generic op
/// form).
void printForKey(Operation *op, llvm::raw_ostream &os, bool generic = false);

/// A cache key: the SHA-256 of `text`, in hex.
std::string getCacheKey(StringRef text);

/// The program level of the cache: a program's objects (by their keys and
/// their contents' hashes) and the notes its compile printed, under a key of
/// the program's input and options. load returns the objects' bytes, or
/// nothing when the program or any of its objects is missing, damaged or
/// not the content the program recorded. The notes are the entry's bytes:
/// print them escaped.
std::optional<SmallVector<std::string>>
loadProgram(StringRef cacheDir, StringRef key, std::string &notes);
void storeProgram(StringRef cacheDir, StringRef key, StringRef notes,
                  ArrayRef<CompileUnit> units);

/// The default cache folder: $XDG_CACHE_HOME/mlxc, else ~/.cache/mlxc.
std::string getDefaultCacheDir();

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_TARGET_SPLITCOMPILE_H
