//===- mlxc.cpp - the mlxc ahead-of-time compiler driver ------------------===//
//
//   mlxc graph.mlir -o model            # executable for the host CPU
//   mlxc graph.mlir --emit=linalg       # stop at a named phase
//
// Phases: mlir (verified mlx) -> linalg (fused, on tensors) -> llvm (LLVM IR)
// -> obj -> exe (linked with the runtime, runtime/).
//
//===----------------------------------------------------------------------===//

#include "tools/InitAll.h"
#include "Mlx/MlxAttributes.h"
#include "tools/InputLimits.h"
#include "tools/mlxc/OutputFile.h"

#include "Kernel/Target.h"

#include "codegen/Host/EntryPoint.h"
#include "codegen/Kernels/KernelGraph.h"
#include "codegen/Pipelines.h"
#include "codegen/Target/CacheStore.h"
#include "codegen/Target/ObjectFile.h"
#include "codegen/Target/SplitCompile.h"
#include "importers/Mlxfn/MlxfnImporter.h"
#include "runtime/mlxrt_abi.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Threading.h"
#include "llvm/TargetParser/Host.h"

#include <chrono>
#include <functional>

using namespace mlir;
using namespace llvm;

namespace {
enum class Emit {
  Mlir,
  Linalg,
  Kernels,
  Gpu,
  Dot,
  Ptx,
  Llvm,
  Obj,
  Lib,
  Shared,
  Exe
};
} // namespace

// LLVM sorts help categories by name: "Compile" comes first.
static cl::OptionCategory category("Compile options (mlxc)");
static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<graph.mlir | model.mlxfn>"),
                                      cl::cat(category));
static cl::opt<std::string> outputFile("o", cl::desc("Output file"),
                                       cl::value_desc("path"),
                                       cl::cat(category));
static cl::opt<Emit> emit(
    "emit", cl::desc("What to produce"), cl::init(Emit::Exe),
    cl::values(clEnumValN(Emit::Mlir, "mlir", "the verified mlx graph"),
               clEnumValN(Emit::Linalg, "linalg",
                          "fused linalg on tensors (after lowering)"),
               clEnumValN(Emit::Kernels, "kernels",
                          "the kernel regions, each with its strategy (of "
                          "the CUDA variant with --target=cuda)"),
               clEnumValN(Emit::Gpu, "gpu",
                          "the CUDA variant's GPU kernels, cuBLASLt calls "
                          "and memory plan (implies --target=cuda)"),
               clEnumValN(Emit::Dot, "dot",
                          "the kernel graph for Graphviz: kernels, "
                          "tensors with bytes and placement, arenas"),
               clEnumValN(Emit::Ptx, "ptx",
                          "the PTX of the kernels (implies --target=cuda)"),
               clEnumValN(Emit::Llvm, "llvm", "optimized LLVM IR"),
               clEnumValN(Emit::Obj, "obj", "an object file"),
               clEnumValN(Emit::Lib, "lib",
                          "a static library and a C header (-o libX.a "
                          "writes X.h beside it)"),
               clEnumValN(Emit::Shared, "shared",
                          "a shared object that the runtime's C API and "
                          "the Python package load (-o libX.so)"),
               clEnumValN(Emit::Exe, "exe",
                          "an executable linked with the runtime")),
    cl::cat(category));
static cl::opt<bool> keepConstants(
    "keep-constants",
    cl::desc("--emit=mlir, linalg and kernels print every constant in full "
             "(default: constants of more than 16 elements and resources of "
             "more than 64 bytes are elided, and the text does not parse "
             "back)"),
    cl::cat(category));
static cl::opt<std::string> target(
    "target",
    cl::desc("cpu, or cuda (the executable then holds the CUDA and the CPU "
             "variant and picks one with --device)"),
    cl::init("cpu"), cl::cat(category));
static cl::opt<std::string> gpuArch(
    "gpu-arch",
    cl::desc("GPU architecture to build a cubin for, beside the sm_70 PTX "
             "that runs on every GPU (sm_75 or newer; ptxas from the CUDA "
             "toolkit; default sm_70: PTX only)"),
    cl::init("sm_70"), cl::cat(category));
static cl::opt<std::string> cudaPath(
    "cuda-path",
    cl::desc("CUDA toolkit (for libdevice; default $CUDA_HOME, $CUDA_PATH or "
             "/usr/local/cuda)"),
    cl::cat(category));
static cl::opt<std::string> modelName(
    "name",
    cl::desc("The model's name in its symbols (mlxc_NAME_entry, ...), so that "
             "many models link into one program (default for --emit=lib and "
             "shared: the output file's name without lib and extension; "
             "else program)"),
    cl::cat(category));
static cl::opt<std::string>
    entryName("entry",
              cl::desc("The graph function to compile (default: the only "
                       "public function, else the first, with a note "
                       "listing the others: an .mlxfn's traces are "
                       "NAME_0, NAME_1, ...)"),
              cl::cat(category));
static cl::opt<std::string>
    hostCpu("cpu", cl::desc("Oldest host CPU the program must run on"),
            cl::init("x86-64-v3"), cl::cat(category));
static cl::opt<bool> noPrefetch(
    "no-prefetch",
    cl::desc("Leave out the prefetches of unified memory (for benchmarks)"),
    cl::cat(category));
static cl::opt<bool> noGridDependentLaunch(
    "no-grid-dependent-launch",
    cl::desc("Launch each kernel only once the one before it has ended, also "
             "on sm_90 and newer (for benchmarks)"),
    cl::cat(category));
static cl::opt<bool> noClusters(
    "no-clusters",
    cl::desc("Keep each row of a row kernel in one block, also on sm_90 and "
             "newer, where rows too long for a block spread over "
             "thread-block clusters (for benchmarks)"),
    cl::cat(category));
static cl::opt<bool> noStreamIO(
    "no-stream-io",
    cl::desc("Migrate every unified input and output instead of leaving "
             "those one loop-free kernel streams in host memory (for "
             "benchmarks)"),
    cl::cat(category));
static cl::opt<bool> cpuMatmulCalls(
    "cpu-matmul-calls",
    cl::desc("Testing: on the CPU too, matrix products become mlxrt_matmul "
             "calls as on CUDA (link a host mlxrt_matmul before the runtime)"),
    cl::Hidden, cl::cat(category));
static cl::list<std::string>
    linkArgs("link-arg",
             cl::desc("Extra argument for the system linker driver"),
             cl::value_desc("arg"), cl::cat(category));
static cl::opt<std::string> runtimeDir(
    "runtime-dir",
    cl::desc("Folder with libmlxrt.a and libmlxrt_main.a (default: ../lib "
             "beside mlxc)"),
    cl::cat(category));

static cl::opt<std::string> cacheDir(
    "cache-dir",
    cl::desc("Folder of the compiled-object cache, shared by every compile "
             "(default $XDG_CACHE_HOME/mlxc or ~/.cache/mlxc)"),
    cl::value_desc("path"), cl::cat(category));
static cl::opt<bool> noCache("no-cache",
                             cl::desc("Neither read nor fill the cache"),
                             cl::cat(category));
static cl::opt<bool> cacheReport(
    "cache-report",
    cl::desc("Say how many objects came from the cache and how many were "
             "compiled"),
    cl::cat(category));
static cl::opt<unsigned>
    jobs("j", cl::desc("Threads for LLVM's work (default: every core)"),
         cl::value_desc("N"), cl::init(0), cl::cat(category));

static cl::opt<bool> quiet(
    "quiet",
    cl::desc("No progress lines (printed per phase once a compile has run "
             "for 2 s)"),
    cl::cat(category));
static cl::opt<double> progressAfter(
    "progress-after",
    cl::desc("Seconds of compiling after which each phase is announced"),
    cl::init(2.0), cl::Hidden, cl::cat(category));

/// Starts a timed phase (--mlir-timing) and, once the compile has run for
/// --progress-after seconds (2), says which phase it is in, so a long
/// compile is never silent.
static const auto compileStart = std::chrono::steady_clock::now();
static TimingScope phase(TimingScope &timing, StringRef name) {
  double elapsed = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - compileStart)
                       .count();
  if (!quiet && elapsed >= progressAfter)
    errs() << llvm::format("mlxc: [%.1f s] ", elapsed) << name << "\n";
  return timing.nest(name);
}

/// Prints the textual emits. A model's weights would fill the screen with
/// hex: constants above 16 elements and resources above 64 bytes are elided
/// (MLIR's --mlir-elide-* options, when given, set other limits), unless
/// --keep-constants asks for text that parses back.
static void printModule(ModuleOp module, raw_ostream &os) {
  OpPrintingFlags flags;
  if (!keepConstants) {
    if (!flags.getLargeElementsAttrLimit())
      flags.elideLargeElementsAttrs(16);
    if (!flags.getLargeResourceStringLimit())
      flags.elideLargeResourceString(64);
  }
  module.print(os, flags);
}

/// Finds the graph function to compile: one with a body.
static FailureOr<func::FuncOp> findEntry(ModuleOp module) {
  if (!entryName.empty()) {
    auto func = module.lookupSymbol<func::FuncOp>(entryName);
    if (!func)
      return module.emitError() << "no function named '" << entryName << "'";
    if (func.isExternal())
      return func.emitError() << "'" << entryName
                              << "' is a declaration; --entry needs a "
                                 "function with a body";
    return func;
  }
  SmallVector<func::FuncOp> defined, publics;
  for (func::FuncOp f : module.getOps<func::FuncOp>()) {
    if (f.isExternal())
      continue;
    defined.push_back(f);
    if (f.isPublic())
      publics.push_back(f);
  }
  if (defined.empty())
    return module.emitError()
           << "the module has no function with a body to compile";
  if (publics.size() == 1)
    return publics.front();
  // Several graphs (an .mlxfn with several traces): compiling the first
  // silently hides the others, so name them and the way to pick one.
  SmallVector<func::FuncOp> &candidates = publics.empty() ? defined : publics;
  if (!quiet && candidates.size() > 1) {
    errs() << "mlxc: note: compiling '" << candidates.front().getSymName()
           << "', the first of " << candidates.size()
           << " graphs in the file (--entry=NAME picks another):\n";
    for (func::FuncOp f : candidates) {
      errs() << "  " << f.getSymName() << "(";
      llvm::interleaveComma(f.getArgumentTypes(), errs());
      errs() << ")\n";
    }
  }
  return candidates.front();
}

/// Checks the functions `entry` calls: each has a body and holds mlx ops
/// only, and no call chain returns to a function on it (compiled code has no
/// recursion).
/// `state` ends up holding every function `entry` reaches.
static LogicalResult checkCallGraph(ModuleOp module, func::FuncOp entry,
                                    llvm::DenseMap<Operation *, int> &state) {
  SymbolTable symbols(module);
  // 1: on the call stack, 2: done.
  std::function<LogicalResult(func::FuncOp)> visit =
      [&](func::FuncOp func) -> LogicalResult {
    state[func] = 1;
    // A graph is made of mlx ops; anything else (arith on tensors, say)
    // would reach bufferization or code generation unchecked.
    WalkResult foreign = func.walk([&](Operation *op) {
      if (op == func.getOperation() || isa<mlx::MlxDialect>(op->getDialect()) ||
          isa<func::ReturnOp, func::CallOp>(op))
        return WalkResult::advance();
      op->emitError() << "'" << op->getName()
                      << "' is not an op of the mlx dialect; a graph is "
                         "written in mlx ops (see docs/Dialects/MlxOps.md)";
      return WalkResult::interrupt();
    });
    if (foreign.wasInterrupted())
      return failure();
    WalkResult result = func.walk([&](CallOpInterface call) {
      auto ref = dyn_cast_if_present<SymbolRefAttr>(
          dyn_cast<SymbolRefAttr>(call.getCallableForCallee()));
      auto callee =
          ref ? symbols.lookup<func::FuncOp>(ref.getLeafReference()) : nullptr;
      if (!callee) {
        call->emitError() << "a compiled graph can only call functions "
                             "defined in the same module";
        return WalkResult::interrupt();
      }
      if (callee.isExternal()) {
        call->emitError() << "call to @" << callee.getSymName()
                          << ", a declaration without a body";
        return WalkResult::interrupt();
      }
      int seen = state.lookup(callee);
      if (seen == 1) {
        call->emitError() << "recursive call to @" << callee.getSymName()
                          << ": a compiled graph cannot recurse";
        return WalkResult::interrupt();
      }
      if (seen == 0 && failed(visit(callee)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    state[func] = 2;
    return failure(result.wasInterrupted());
  };
  return visit(entry);
}

/// Keeps the entry and the functions it calls: other graphs of the file
/// (another trace of an .mlxfn) would otherwise be compiled into both
/// variants and clash when they are linked. Names and complex dtypes
/// (`mlx.name`, `mlx.dtype`) live in the signature from here on; LLVM has
/// no use for them.
static void keepEntryOnly(ModuleOp module, func::FuncOp entry,
                          const llvm::DenseMap<Operation *, int> &reached) {
  MLIRContext *ctx = module.getContext();
  StringAttr names[] = {StringAttr::get(ctx, mlx::attrs::kName),
                        StringAttr::get(ctx, mlx::attrs::kDtype)};
  for (func::FuncOp func :
       llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
    if (func != entry && !reached.count(func)) {
      func.erase();
      continue;
    }
    if (func != entry)
      func.setPrivate();
    for (StringAttr name : names) {
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        func.removeArgAttr(i, name);
      for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
        func.removeResultAttr(i, name);
    }
  }
}

/// Writes `text` (or binary data) to `path` only when everything succeeded.
static LogicalResult
writeOutput(StringRef path,
            llvm::function_ref<LogicalResult(raw_ostream &)> fn) {
  if (path == "-") {
    if (failed(fn(outs())))
      return failure();
    outs().flush();
    if (outs().has_error()) {
      errs() << "mlxc: error: cannot write standard output: "
             << outs().error().message() << "\n";
      outs().clear_error();
      return failure();
    }
    return success();
  }
  std::unique_ptr<mlxc::OutputFile> output = mlxc::OutputFile::create(path);
  if (!output ||
      failed(output->write([&](raw_pwrite_stream &os) { return fn(os); })))
    return failure();
  return output->commit();
}

static std::string outputPath(StringRef fallback) {
  return outputFile.empty() ? fallback.str() : std::string(outputFile);
}

static std::string defaultRuntimeDir(const char *argv0) {
  std::string exe = sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&defaultRuntimeDir));
  SmallString<256> dir(sys::path::parent_path(sys::path::parent_path(exe)));
  sys::path::append(dir, "lib");
  return std::string(dir);
}

/// Links `object` with the runtime into `output` (through a temporary file,
/// so that a failed link leaves nothing behind).
static LogicalResult linkExecutable(ArrayRef<std::string> objects,
                                    StringRef output, StringRef libDir) {
  ErrorOr<std::string> cc = sys::findProgramByName("cc");
  if (!cc) {
    errs() << "mlxc: error: no system linker driver 'cc' on PATH\n";
    return failure();
  }
  SmallString<256> mainLib(libDir), rtLib(libDir);
  sys::path::append(mainLib, "libmlxrt_main.a");
  sys::path::append(rtLib, "libmlxrt.a");
  for (StringRef lib : {mainLib.str(), rtLib.str()})
    if (!sys::fs::exists(lib)) {
      errs() << "mlxc: error: runtime library " << lib
             << " not found (set --runtime-dir)\n";
      return failure();
    }
  std::unique_ptr<mlxc::OutputFile> out = mlxc::OutputFile::create(output);
  if (!out)
    return failure();
  SmallVector<StringRef> args = {*cc, "-o", out->getTempPath()};
  args.append(objects.begin(), objects.end());
  args.append({mainLib, rtLib, "-lz", "-ldl", "-lm", "-pthread"});
  for (const std::string &arg : linkArgs)
    args.push_back(arg);
  std::string message;
  int rc = sys::ExecuteAndWait(*cc, args, std::nullopt, {}, 0, 0, &message);
  if (rc != 0) {
    errs() << "mlxc: error: linking " << output << " failed"
           << (message.empty() ? "" : ": " + message) << "\n";
    return failure();
  }
  return out->commit();
}

/// The CUDA toolkits to search: an explicit --cuda-path alone, else
/// $CUDA_HOME, $CUDA_PATH, $CUDA_ROOT and /usr/local/cuda.
static SmallVector<std::string> getToolkitRoots() {
  if (!cudaPath.empty())
    return {cudaPath};
  SmallVector<std::string> roots;
  for (const char *var : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"})
    if (const char *value = getenv(var))
      roots.push_back(value);
  roots.push_back("/usr/local/cuda");
  return roots;
}

/// The first toolkit root's `relative` file that exists (and, for
/// `executable`, that can run), or "".
static std::string findInToolkit(ArrayRef<StringRef> relative,
                                 bool executable) {
  for (const std::string &root : getToolkitRoots()) {
    SmallString<256> path(root);
    for (StringRef part : relative)
      sys::path::append(path, part);
    if (executable ? sys::fs::can_execute(path) : sys::fs::exists(path))
      return std::string(path);
  }
  return "";
}

/// libdevice.10.bc of the CUDA toolkit: math functions of the kernels.
static FailureOr<std::string> findLibdevice() {
  std::string path =
      findInToolkit({"nvvm", "libdevice", "libdevice.10.bc"}, false);
  if (!path.empty())
    return path;
  errs() << "mlxc: error: libdevice.10.bc not found under "
         << join(getToolkitRoots(), ", ") << " (set --cuda-path)\n";
  return failure();
}

/// ptxas of the CUDA toolkit (then, without --cuda-path, on $PATH): it
/// builds the cubin for --gpu-arch.
static FailureOr<std::string> findPtxas() {
  std::string path = findInToolkit({"bin", "ptxas"}, true);
  if (!path.empty())
    return path;
  if (cudaPath.empty())
    if (ErrorOr<std::string> onPath = sys::findProgramByName("ptxas"))
      return *onPath;
  errs() << "mlxc: error: --gpu-arch=" << gpuArch
         << " needs ptxas to build the cubin; not found in "
         << join(getToolkitRoots(), "/bin, ") << "/bin"
         << (cudaPath.empty() ? " or on PATH" : "")
         << " (set --cuda-path to a CUDA toolkit)\n";
  return failure();
}

/// Writes `library` (an archive of the object) and its C header beside it
/// (libX.a -> X.h), both through temporary files.
static LogicalResult writeLibrary(StringRef library,
                                  const mlx::ProgramSignature &signature,
                                  StringRef model, bool hasCuda,
                                  ArrayRef<std::string> objects) {
  if (!StringRef(library).ends_with(".a")) {
    errs() << "mlxc: error: --emit=lib writes a static library; name it "
              "lib<name>.a, got '"
           << library << "'\n";
    return failure();
  }
  ErrorOr<std::string> ar = sys::findProgramByName("ar");
  if (!ar) {
    errs() << "mlxc: error: no 'ar' on PATH to build " << library << "\n";
    return failure();
  }
  // The temporary starts as an empty archive, which ar adds to.
  std::unique_ptr<mlxc::OutputFile> out =
      mlxc::OutputFile::create(library, "!<arch>\n");
  if (!out)
    return failure();
  SmallVector<StringRef> args = {*ar, "rcs", out->getTempPath()};
  args.append(objects.begin(), objects.end());
  std::string message;
  if (sys::ExecuteAndWait(*ar, args, std::nullopt, {}, 0, 0, &message) != 0) {
    errs() << "mlxc: error: ar failed for " << library << ": " << message
           << "\n";
    return failure();
  }
  StringRef stem = sys::path::stem(library);
  stem.consume_front("lib");
  SmallString<256> header(sys::path::parent_path(library));
  sys::path::append(header, stem + ".h");
  if (failed(writeOutput(header, [&](raw_ostream &os) {
        os << mlx::getLibraryHeader(signature, sys::path::filename(inputFile),
                                    model, hasCuda);
        return success();
      })))
    return failure();
  return out->commit();
}

/// Prints the memory plan mlx-memory-placement made for the graph.
/// What the compile told the user (the memory plan): a program taken whole
/// from the cache says it again.
static std::string compileNotes;

static void reportMemoryPlan(ModuleOp module,
                             const mlx::ProgramSignature &signature) {
  auto graph = module.lookupSymbol<func::FuncOp>(
      mlx::getGraphSymbol(signature.entry, mlx::Variant::Cuda));
  auto get = [&](StringRef name) -> int64_t {
    auto attr = graph ? graph->getAttrOfType<IntegerAttr>(name) : nullptr;
    return attr ? attr.getInt() : 0;
  };
  llvm::raw_string_ostream notes(compileNotes);
  notes << "mlxc: memory plan of '" << signature.entry
        << "' (cuda): device arena " << get(mlx::attrs::kDeviceArenaBytes)
        << " bytes, unified arena " << get(mlx::attrs::kUnifiedArenaBytes)
        << " bytes (" << get(mlx::attrs::kUnreusedBytes) << " without reuse), "
        << get(mlx::attrs::kPrefetches) << " prefetches, "
        << get(mlx::attrs::kStreamedBuffers) << " buffers streamed from host memory"
        << (graph && graph->hasAttr(mlx::attrs::kCapturable)
                ? ", capturable (CUDA graph)"
                : "")
        << "\n";
  errs() << compileNotes;
}

/// Refuses, before any work, an output the compile could not write or that
/// would replace its own input. "-" is standard output (textual emits and
/// objects only).
static LogicalResult checkOutputPath(StringRef path, bool toStdoutAllowed) {
  if (path == "-") {
    if (toStdoutAllowed)
      return success();
    errs()
        << "mlxc: error: -o - (standard output) is for --emit=mlir, "
           "linalg, kernels, dot, llvm, ptx and obj; this emit writes files: "
           "name one\n";
    return failure();
  }
  StringRef dir = sys::path::parent_path(path);
  if (!dir.empty() && !sys::fs::is_directory(dir)) {
    errs() << "mlxc: error: cannot write " << path << ": the folder " << dir
           << " does not exist\n";
    return failure();
  }
  if (sys::fs::is_directory(path)) {
    errs() << "mlxc: error: cannot write " << path << ": it is a folder\n";
    return failure();
  }
  if (sys::fs::equivalent(path, inputFile)) {
    errs() << "mlxc: error: the output " << path
           << " is the input file; choose another -o\n";
    return failure();
  }
  return success();
}

/// The default output of each emit.
static std::string outputPathFor(Emit kind) {
  switch (kind) {
  case Emit::Obj:
    return outputPath("a.o");
  case Emit::Lib:
    return outputPath("libmodel.a");
  case Emit::Shared:
    return outputPath("libmodel.so");
  case Emit::Exe:
    return outputPath("a.out");
  default:
    return outputPath("-");
  }
}

/// --emit=dot: the kernel graph of `graph` (after kernel formation), with
/// the program's names where the function's interface still matches them.
static LogicalResult writeKernelGraph(func::FuncOp graph,
                                      const mlx::ProgramSignature &signature,
                                      mlx::KernelGraphOptions options) {
  if (!graph) {
    errs() << "mlxc: error: no graph function to draw\n";
    return failure();
  }
  options.title = signature.entry;
  if (graph.getNumArguments() == signature.inputs.size())
    for (const mlx::TensorSpec &input : signature.inputs)
      options.inputNames.push_back(input.name);
  for (auto [spec, source] :
       llvm::zip(signature.outputs, signature.outputSources))
    if (source.kind == mlx::OutputSource::Computed)
      options.outputNames.push_back(spec.name);
  if (options.outputNames.size() != graph.getNumResults())
    options.outputNames.clear();
  return writeOutput(outputPath("-"), [&](raw_ostream &os) {
    mlx::printKernelGraph(graph, options, os);
    return success();
  });
}

/// The model's name: --name, else for a library or a shared object the
/// output file's stem (libX.a, libX.so: X) made a C identifier; else
/// "program", the name the command line's main() links to (objects are
/// linked into executables).
static FailureOr<std::string> getModelName() {
  if (!modelName.empty()) {
    if (emit == Emit::Exe && modelName != MLXRT_EXECUTABLE_MODEL_NAME) {
      errs() << "mlxc: error: --name is for --emit=obj, lib and shared; an "
                "executable's model is always '"
             << MLXRT_EXECUTABLE_MODEL_NAME << "'\n";
      return failure();
    }
    if (!mlx::isValidModelName(modelName)) {
      errs() << "mlxc: error: --name=" << modelName
             << " is not a C identifier (letters, digits and '_', not "
                "starting with a digit)\n";
      return failure();
    }
    return std::string(modelName);
  }
  std::string output = outputPath("-");
  if ((emit != Emit::Lib && emit != Emit::Shared) || output == "-")
    return std::string(MLXRT_EXECUTABLE_MODEL_NAME);
  StringRef stem = sys::path::stem(output);
  stem.consume_front("lib");
  return mlx::sanitizeModelName(stem);
}

/// Gives every definition but `keep` (and LLVM's own llvm.*) internal
/// linkage.
static void internalizeAllBut(llvm::Module &module,
                              ArrayRef<std::string> keep) {
  auto internalize = [&](llvm::GlobalValue &value) {
    if (value.isDeclaration() || value.hasLocalLinkage() ||
        value.getName().starts_with("llvm.") ||
        llvm::is_contained(keep, value.getName()))
      return;
    value.setLinkage(llvm::GlobalValue::InternalLinkage);
  };
  for (llvm::Function &fn : module.functions())
    internalize(fn);
  for (llvm::GlobalVariable &global : module.globals())
    internalize(global);
  for (llvm::GlobalAlias &alias : module.aliases())
    internalize(alias);
}

/// ORs `flags` into the descriptor's flags (known once the CUDA variant is
/// lowered, after the descriptor was made).
static void setModelFlags(llvm::Module &module, StringRef model,
                          uint32_t flags) {
  llvm::GlobalVariable *descriptor =
      module.getNamedGlobal(mlx::getModelSymbol(model, MLXRT_MODEL_SUFFIX));
  auto *init =
      descriptor ? dyn_cast<llvm::ConstantStruct>(descriptor->getInitializer())
                 : nullptr;
  if (!init)
    return;
  SmallVector<llvm::Constant *> fields;
  for (unsigned i = 0, e = init->getNumOperands(); i < e; ++i)
    fields.push_back(init->getOperand(i));
  auto *old = cast<llvm::ConstantInt>(fields[1]);
  fields[1] =
      llvm::ConstantInt::get(old->getType(), old->getZExtValue() | flags);
  descriptor->setInitializer(
      llvm::ConstantStruct::get(init->getType(), fields));
}

/// Replaces the text of the model's signature (emitted with the CPU
/// variant) by `text`: the CUDA variant, compiled later, adds its records.
static void setSignatureText(llvm::Module &module, StringRef model,
                             std::string text) {
  llvm::GlobalVariable *old =
      module.getNamedGlobal(mlx::getModelSymbol(model, MLXRT_SIGNATURE_SUFFIX));
  if (!old)
    return;
  text.push_back('\0');
  llvm::Constant *init = llvm::ConstantDataArray::getString(
      module.getContext(), text, /*AddNull=*/false);
  auto *fresh = new llvm::GlobalVariable(
      module, init->getType(), /*isConstant=*/true, old->getLinkage(), init);
  fresh->takeName(old);
  fresh->setVisibility(old->getVisibility());
  old->replaceAllUsesWith(fresh);
  old->eraseFromParent();
}

/// Links `objects` into the shared object `output` (through a temporary
/// file). The runtime symbols a CUDA model calls (mgpu*, mlxrt_*) stay
/// undefined: the process that loads it has the runtime (libmlxrt.so).
static LogicalResult writeShared(StringRef output,
                                 ArrayRef<std::string> objects) {
  ErrorOr<std::string> cc = sys::findProgramByName("cc");
  if (!cc) {
    errs() << "mlxc: error: no system linker driver 'cc' on PATH\n";
    return failure();
  }
  std::unique_ptr<mlxc::OutputFile> out = mlxc::OutputFile::create(output);
  if (!out)
    return failure();
  SmallVector<StringRef> args = {*cc, "-shared", "-o", out->getTempPath()};
  args.append(objects.begin(), objects.end());
  args.push_back("-lm");
  for (const std::string &arg : linkArgs)
    args.push_back(arg);
  std::string message;
  if (sys::ExecuteAndWait(*cc, args, std::nullopt, {}, 0, 0, &message) != 0) {
    errs() << "mlxc: error: linking " << output << " failed"
           << (message.empty() ? "" : ": " + message) << "\n";
    return failure();
  }
  return out->commit();
}

/// A file as the cache keys know it: path, size and modification time.
static std::string fileIdentity(StringRef path) {
  sys::fs::file_status status;
  if (sys::fs::status(path, status))
    return path.str();
  return path.str() + " " + std::to_string(status.getSize()) + " " +
         std::to_string(
             status.getLastModificationTime().time_since_epoch().count());
}

/// GPU binaries of this compile taken from the cache, and built.
static unsigned gpuBinariesReused = 0, gpuBinariesBuilt = 0;

/// Everything besides the IR that decides an object's bytes: the LLVM,
/// the target and this very mlxc (its size and time: a rebuilt compiler
/// never reuses another's objects).
static std::string getObjectOptionsKey(const char *argv0,
                                       TargetMachine &machine) {
  std::string key = "mlxc-objects-1 " MLXC_VERSION " LLVM " LLVM_VERSION_STRING;
  key += " " + machine.getTargetTriple().str() + " " +
         machine.getTargetCPU().str() + " " +
         machine.getTargetFeatureString().str();
  return key + " " +
         fileIdentity(sys::fs::getMainExecutable(
             argv0, reinterpret_cast<void *>(&getObjectOptionsKey)));
}

/// Whether a program may come whole from the cache: not when the user asked
/// to see the compile's IR or timing, which a cached program would skip.
static bool usesProgramCache() {
  if (noCache)
    return false;
  static const StringRef watchers[] = {"mlir-timing",
                                       "mlir-print-ir-after-all",
                                       "mlir-print-ir-before-all",
                                       "mlir-print-ir-after-change",
                                       "mlir-print-ir-after",
                                       "mlir-print-ir-before",
                                       "mlir-print-ir-after-failure"};
  auto &options = cl::getRegisteredOptions();
  for (StringRef name : watchers) {
    auto it = options.find(name);
    if (it != options.end() && it->second->getNumOccurrences())
      return false;
  }
  return true;
}

/// The program's key: its mlx graph (after import, the entry kept) and
/// every option that changes what is built.
static std::string getProgramKey(ModuleOp module, StringRef optionsKey,
                                 StringRef libdevice, StringRef ptxas) {
  std::string text;
  raw_string_ostream os(text);
  os << optionsKey << "\nemit " << int(Emit(emit)) << " target " << target
     << " gpu-arch " << gpuArch << " prefetch " << !noPrefetch << " stream-io "
     << !noStreamIO << " cpu-matmul-calls " << cpuMatmulCalls
     << " grid-dependent-launch " << !noGridDependentLaunch << " clusters "
     << !noClusters << "\nlibdevice "
     << (libdevice.empty() ? "" : fileIdentity(libdevice)) << "\nptxas "
     << (ptxas.empty() ? "" : fileIdentity(ptxas)) << "\n";
  mlx::printForKey(module, os);
  return mlx::getCacheKey(text);
}

/// The cache folder in use: set by resolveCacheDir, "" when there is none.
static std::string activeCacheDir;

/// Picks the cache folder (--cache-dir, else the default; none under
/// --no-cache) and checks it is the user's own and writable by no one else:
/// whoever can write it decides what mlxc links. An explicit --cache-dir
/// that fails is an error; the default one is warned about and the compile
/// runs without a cache.
static LogicalResult resolveCacheDir() {
  activeCacheDir.clear();
  if (noCache)
    return success();
  std::string dir =
      cacheDir.empty() ? mlx::getDefaultCacheDir() : std::string(cacheDir);
  if (dir.empty())
    return success();
  std::string why = mlx::checkCacheDir(dir);
  if (why.empty()) {
    activeCacheDir = dir;
    return success();
  }
  if (!cacheDir.empty()) {
    errs() << "mlxc: error: " << why << " (--cache-dir)\n";
    return failure();
  }
  errs() << "mlxc: warning: " << why << "; compiling without the cache\n";
  return success();
}

/// The cache folder, or "" (--no-cache, or a folder refused).
static StringRef getCacheDir() { return activeCacheDir; }

/// Prints text read back from a cache entry: lines as they are, every other
/// byte that is not printable ASCII escaped (the entry is only bytes).
static void printEscaped(StringRef text, raw_ostream &os) {
  for (unsigned char c : text) {
    if (c == '\n' || (c >= 0x20 && c < 0x7f && c != '\\'))
      os << c;
    else if (c == '\\')
      os << "\\\\";
    else
      os << "\\x" << llvm::format_hex_no_prefix(c, 2);
  }
}

/// How objects are compiled: threads (-j), the cache (--cache-dir,
/// --no-cache) and a host target machine per unit.

static mlx::CompileOptions getCompileOptions(ModuleOp module) {
  mlx::CompileOptions options;
  options.makeMachine = [module]() -> std::unique_ptr<TargetMachine> {
    auto machine = mlx::createHostTargetMachine(module, hostCpu);
    return succeeded(machine) ? std::move(*machine) : nullptr;
  };
  options.cacheDir = getCacheDir().str();
  options.threads = jobs ? unsigned(jobs)
                         : llvm::hardware_concurrency().compute_thread_count();
  return options;
}

/// Compiles the program's own units (the CPU graph, and the CUDA schedule)
/// beside the kernels already compiling, then links all the objects with
/// the runtime (--emit=exe) or archives them (--emit=lib).
static LogicalResult linkObjects(ArrayRef<std::string> objects,
                                 const mlx::ProgramSignature &signature,
                                 StringRef model, bool hasCuda,
                                 const char *argv0, TimingScope &timing);

static LogicalResult compileAndLink(ModuleOp module, ModuleOp cudaModule,
                                    mlx::ObjectCompiler &compiler,
                                    SmallVectorImpl<mlx::CompileUnit> &kernels,
                                    StringRef optionsKey, StringRef programKey,
                                    const mlx::ProgramSignature &signature,
                                    StringRef model, uint32_t modelFlags,
                                    const char *argv0, TimingScope &timing) {
  // Only the model's own symbols leave the program's objects: two models
  // linked into one program share no other name (the kernels' are hidden
  // and named after their text).
  SmallVector<std::string> exported = mlx::getExportedSymbols(model);
  SmallVector<mlx::CompileUnit, 2> units;
  mlx::CompileUnit &program = units.emplace_back();
  program.modules.push_back(module);
  std::string signatureText = signature.str();
  program.prepare = [model = model.str(), exported, modelFlags,
                     signatureText](llvm::Module &m) {
    if (modelFlags)
      setModelFlags(m, model, modelFlags);
    setSignatureText(m, model, signatureText);
    internalizeAllBut(m, exported);
  };
  mlx::computeUnitKey(program,
                      (optionsKey + " model-flags " + Twine(modelFlags) +
                       " signature " + signatureText)
                          .str());
  if (cudaModule) {
    // The CUDA variant's host code is a schedule of launches: code
    // generation only (at O3, one straight-line function of thousands of
    // launches cost seconds in the SLP vectorizer alone).
    mlx::CompileUnit &schedule = units.emplace_back();
    schedule.modules.push_back(cudaModule);
    schedule.optimize = false;
    schedule.prepare = [exported](llvm::Module &m) {
      internalizeAllBut(m, exported);
    };
    mlx::computeUnitKey(schedule, (optionsKey + " O0").str());
  }
  {
    TimingScope t = phase(timing, "LLVM optimization and code generation");
    if (failed(compiler.add(units)) || failed(compiler.finish()))
      return failure();
  }
  for (mlx::CompileUnit &kernel : kernels)
    units.push_back(std::move(kernel));
  if (cacheReport) {
    unsigned reused = llvm::count_if(
        units, [](const mlx::CompileUnit &unit) { return unit.cached; });
    StringRef dir = getCacheDir();
    errs() << "mlxc: object cache " << (dir.empty() ? "off" : dir) << ": "
           << reused << " of " << units.size() << " objects reused, "
           << units.size() - reused << " compiled";
    if (cudaModule)
      errs() << "; " << gpuBinariesReused << " of "
             << gpuBinariesReused + gpuBinariesBuilt << " GPU binaries reused";
    errs() << "\n";
  }

  if (!programKey.empty())
    mlx::storeProgram(getCacheDir(), programKey, compileNotes, units);
  SmallVector<std::string> objects;
  for (mlx::CompileUnit &unit : units)
    objects.push_back(std::move(unit.object));
  return linkObjects(objects, signature, model, bool(cudaModule), argv0,
                     timing);
}

/// Links the objects with the runtime (--emit=exe) or archives them
/// (--emit=lib).
static LogicalResult linkObjects(ArrayRef<std::string> objects,
                                 const mlx::ProgramSignature &signature,
                                 StringRef model, bool hasCuda,
                                 const char *argv0, TimingScope &timing) {
  // The objects go to temporary files for the linker or the archiver.
  SmallVector<std::string> paths;
  std::vector<llvm::FileRemover> removers;
  removers.reserve(objects.size());
  for (const std::string &object : objects) {
    SmallString<128> path;
    int fd;
    if (std::error_code ec =
            sys::fs::createTemporaryFile("mlxc", "o", fd, path)) {
      errs() << "mlxc: error: cannot create a temporary file: " << ec.message()
             << "\n";
      return failure();
    }
    removers.emplace_back(path);
    raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << object;
    os.close();
    if (os.has_error()) {
      errs() << "mlxc: error: cannot write " << path << ": "
             << os.error().message() << "\n";
      os.clear_error();
      return failure();
    }
    paths.push_back(std::string(path));
  }
  if (emit == Emit::Lib)
    return writeLibrary(outputPathFor(Emit::Lib), signature, model, hasCuda,
                        paths);
  if (emit == Emit::Shared)
    return writeShared(outputPathFor(Emit::Shared), paths);
  TimingScope t = phase(timing, "link with the runtime");
  return linkExecutable(paths, outputPathFor(Emit::Exe),
                        runtimeDir.empty() ? defaultRuntimeDir(argv0)
                                           : std::string(runtimeDir));
}

static LogicalResult compile(ModuleOp module, const char *argv0,
                             TimingScope &timing) {
  FailureOr<std::string> modelOr = getModelName();
  if (failed(modelOr))
    return failure();
  StringRef model = *modelOr;
  if (target != "cpu" && target != "cuda") {
    errs() << "mlxc: error: unknown --target=" << target
           << " (expected cpu or cuda)\n";
    return failure();
  }
  bool cuda = target == "cuda" || emit == Emit::Ptx || emit == Emit::Gpu;
  // The one place the flags become a target: the passes read it from the
  // module (kernel.target).
  std::string targetError;
  FailureOr<kernel::TargetAttr> cudaTarget = kernel::TargetAttr();
  if (cuda) {
    cudaTarget = kernel::buildTarget(module.getContext(),
                                     {"cuda", gpuArch, !noClusters},
                                     targetError);
    if (failed(cudaTarget)) {
      errs() << "mlxc: error: " << targetError << "\n";
      return failure();
    }
  }
  FailureOr<kernel::TargetAttr> cpuTarget =
      kernel::buildTarget(module.getContext(), {"cpu"}, targetError);
  if (failed(cpuTarget))
    return failure();
  // The PTX is always sm_70 (every GPU from Volta on JITs it); any other
  // --gpu-arch adds a cubin, which ptxas builds.
  bool wantCubin = cuda && cudaTarget->hasCubin() && emit != Emit::Ptx;
  // From sm_80 on, the cubin (and --emit=ptx) comes from the kernels
  // lowered again for that chip (mlxc-chip-variants).
  std::string variantChip = cuda ? cudaTarget->getVariantChip().str() : "";
  mlx::PipelineOptions pipelineOptions;
  pipelineOptions.prefetch = !noPrefetch;
  pipelineOptions.streamIO = !noStreamIO;
  pipelineOptions.gridDependentLaunch = !noGridDependentLaunch;
  pipelineOptions.cpuMatmulCalls = cpuMatmulCalls;
  if (emit == Emit::Mlir)
    return writeOutput(outputPath("-"), [&](raw_ostream &os) {
      printModule(module, os);
      return success();
    });

  FailureOr<func::FuncOp> entry = findEntry(module);
  if (failed(entry))
    return failure();
  FailureOr<mlx::ProgramSignature> signature = mlx::getProgramSignature(*entry);
  if (failed(signature))
    return failure();
  llvm::DenseMap<Operation *, int> reached;
  if (failed(checkCallGraph(module, *entry, reached)))
    return failure();
  keepEntryOnly(module, *entry, reached);
  // The graph gets a collision-free name.
  SymbolTable symbols(module);
  if (failed(symbols.rename(
          *entry, mlx::getGraphSymbol(signature->entry, mlx::Variant::Cpu))))
    return failure();
  // The host target first: a bad --cpu is an error before any work.
  auto machine = mlx::createHostTargetMachine(module, hostCpu);
  if (failed(machine))
    return failure();
  FailureOr<std::string> libdevice = std::string(), ptxas = std::string();
  bool linalgOnly = emit == Emit::Linalg || emit == Emit::Kernels ||
                    emit == Emit::Dot || emit == Emit::Gpu;
  if (cuda && !linalgOnly) {
    libdevice = findLibdevice();
    if (succeeded(libdevice) && wantCubin)
      ptxas = findPtxas();
    if (failed(libdevice) || failed(ptxas))
      return failure();
    pipelineOptions.libdevice = *libdevice;
    pipelineOptions.ptxas = *ptxas;
  }

  // Executables and libraries are built from several objects: each CPU
  // kernel apart (cached, on every core), then the rest. The emits of one
  // module (llvm, obj) keep it whole.
  bool split = emit == Emit::Exe || emit == Emit::Lib || emit == Emit::Shared;
  if ((split || (cuda && !linalgOnly)) && failed(resolveCacheDir()))
    return failure();
  std::string optionsKey = getObjectOptionsKey(argv0, **machine);
  // A program compiled before with the same input and options is linked
  // from the cache at once.
  std::string programKey;
  if (split && usesProgramCache()) {
    programKey = getProgramKey(module, optionsKey + " model " + model.str(),
                               *libdevice, *ptxas);
    std::string notes;
    if (std::optional<SmallVector<std::string>> objects =
            mlx::loadProgram(getCacheDir(), programKey, notes)) {
      printEscaped(notes, errs());
      if (cacheReport)
        errs() << "mlxc: object cache " << getCacheDir()
               << ": the whole program reused (" << objects->size()
               << " objects)\n";
      return linkObjects(*objects, *signature, model, cuda, argv0, timing);
    }
  }

  // The CUDA variant lowers the graph its own way: matrix products stay
  // whole for cuBLASLt (the CPU runs --cpu-matmul-calls the same way).
  kernel::setTarget(module, *cpuTarget);
  OwningOpRef<ModuleOp> cudaModule;
  auto makeCudaModule = [&] {
    cudaModule = module.clone();
    kernel::setTarget(*cudaModule, *cudaTarget);
  };
  if (cuda)
    makeCudaModule();
  // The textual emits of a --target=cuda compile show the CUDA variant.
  bool cudaOnly = cuda && linalgOnly;
  if (!cudaOnly) {
    TimingScope t = phase(timing, "mlx to linalg (cpu)");
    if (failed(mlx::runPhases(module, mlx::Phase::Mlx, mlx::Phase::Linalg,
                              pipelineOptions, &t)))
      return failure();
    // After CSE and folding, results may repeat a value or be an argument.
    mlx::dedupGraphResults(module.lookupSymbol<func::FuncOp>(
                               mlx::getGraphSymbol(signature->entry,
                                                   mlx::Variant::Cpu)),
                           *signature);
  }
  if (emit == Emit::Linalg && !cuda)
    return writeOutput(outputPath("-"), [&](raw_ostream &os) {
      printModule(module, os);
      return success();
    });
  if (!cudaOnly) {
    TimingScope t = phase(timing, "kernel formation (cpu)");
    if (failed(mlx::runPhases(module, mlx::Phase::Linalg, mlx::Phase::Kernels,
                              pipelineOptions, &t)))
      return failure();
    if (emit == Emit::Kernels)
      return writeOutput(outputPath("-"), [&](raw_ostream &os) {
        printModule(module, os);
        return success();
      });
    if (emit == Emit::Dot)
      return writeKernelGraph(
          module.lookupSymbol<func::FuncOp>(
              mlx::getGraphSymbol(signature->entry, mlx::Variant::Cpu)),
          *signature, mlx::KernelGraphOptions{});
  }

  if (cuda) {
    // Both variants share one signature: should the CUDA form repeat other
    // results, it starts from the CPU's linalg form instead.
    mlx::ProgramSignature cudaSignature = *signature;
    TimingScope t = phase(timing, "mlx to linalg (cuda)");
    bool same = succeeded(mlx::runPhases(*cudaModule, mlx::Phase::Mlx,
                                         mlx::Phase::Linalg, pipelineOptions,
                                         &t));
    if (same && cudaOnly)
      mlx::dedupGraphResults(
          cudaModule->lookupSymbol<func::FuncOp>(
              mlx::getGraphSymbol(signature->entry, mlx::Variant::Cpu)),
          *signature);
    else if (same) {
      mlx::dedupGraphResults(
          cudaModule->lookupSymbol<func::FuncOp>(
              mlx::getGraphSymbol(signature->entry, mlx::Variant::Cpu)),
          cudaSignature);
      same = llvm::equal(
          signature->outputSources, cudaSignature.outputSources,
          [](const mlx::OutputSource &a, const mlx::OutputSource &b) {
            return a.kind == b.kind && a.index == b.index;
          });
    }
    if (!same && cudaOnly)
      return failure();
    if (!same)
      makeCudaModule();
    SymbolTable cudaSymbols(*cudaModule);
    auto graph = cudaSymbols.lookup<func::FuncOp>(
        mlx::getGraphSymbol(signature->entry, mlx::Variant::Cpu));
    if (failed(cudaSymbols.rename(
            graph, mlx::getGraphSymbol(signature->entry, mlx::Variant::Cuda))))
      return failure();
    t.stop();
    if (emit == Emit::Linalg)
      return writeOutput(outputPath("-"), [&](raw_ostream &os) {
        printModule(*cudaModule, os);
        return success();
      });
    TimingScope f = phase(timing, "kernel formation (cuda)");
    if (failed(mlx::runPhases(*cudaModule, mlx::Phase::Linalg,
                              mlx::Phase::Kernels, pipelineOptions, &f)))
      return failure();
    f.stop();
    if (emit == Emit::Kernels)
      return writeOutput(outputPath("-"), [&](raw_ostream &os) {
        printModule(*cudaModule, os);
        return success();
      });
    if (emit == Emit::Dot) {
      // The arenas come from the real memory plan, made on a copy.
      OwningOpRef<ModuleOp> planned = cudaModule->clone();
      if (failed(mlx::runPhases(*planned, mlx::Phase::Kernels, mlx::Phase::Gpu,
                                pipelineOptions)))
        return failure();
      auto plannedGraph = planned->lookupSymbol<func::FuncOp>(
          mlx::getGraphSymbol(signature->entry, mlx::Variant::Cuda));
      mlx::KernelGraphOptions options;
      options.cuda = true;
      options.streamIO = !noStreamIO;
      auto bytes = [&](StringRef name) -> std::optional<int64_t> {
        auto attr = plannedGraph
                        ? plannedGraph->getAttrOfType<IntegerAttr>(name)
                        : nullptr;
        return attr ? std::optional<int64_t>(attr.getInt()) : std::nullopt;
      };
      options.deviceArenaBytes = bytes(mlx::attrs::kDeviceArenaBytes);
      options.unifiedArenaBytes = bytes(mlx::attrs::kUnifiedArenaBytes);
      return writeKernelGraph(
          cudaModule->lookupSymbol<func::FuncOp>(
              mlx::getGraphSymbol(signature->entry, mlx::Variant::Cuda)),
          *signature, options);
    }
    if (emit == Emit::Gpu) {
      if (failed(mlx::runPhases(*cudaModule, mlx::Phase::Kernels,
                                mlx::Phase::Gpu, pipelineOptions)))
        return failure();
      return writeOutput(outputPath("-"), [&](raw_ostream &os) {
        printModule(*cudaModule, os);
        return success();
      });
    }
  }

  {
    TimingScope t = phase(timing, "linalg to llvm dialect (cpu)");
    if (failed(mlx::runPhases(module, mlx::Phase::Kernels, mlx::Phase::Llvm,
                              pipelineOptions, &t)))
      return failure();
    if (Operation *graph = module.lookupSymbol(
            mlx::getGraphSymbol(signature->entry, mlx::Variant::Cpu)))
      if (auto plan = graph->getAttrOfType<DenseI64ArrayAttr>(mlx::attrs::kInPlace))
        signature->setInPlace(mlx::Variant::Cpu, plan.asArrayRef());
    if (failed(mlx::addEntryPoint(module, *signature, mlx::Variant::Cpu, model,
                                  /*capturable=*/false, cuda)) ||
        (emit == Emit::Lib &&
         failed(mlx::addTypedEntryPoint(module, *signature, model))) ||
        (emit == Emit::Shared &&
         failed(mlx::addSharedModelPointer(module, model))))
      return failure();
  }
  SmallVector<mlx::CompileUnit> units;
  uint32_t modelFlags = 0;
  // The kernels compile on the pool while the CUDA variant is lowered.
  mlx::ObjectCompiler compiler(module, getCompileOptions(module));
  if (split) {
    units = mlx::extractKernelUnits(module, optionsKey);
    if (failed(compiler.add(units)))
      return failure();
  }
  LLVMContext llvmContext;
  FailureOr<std::unique_ptr<llvm::Module>> llvmModule =
      std::unique_ptr<llvm::Module>();
  if (!split) {
    TimingScope t = phase(timing, "translate to LLVM IR (cpu)");
    llvmModule = mlx::translateToLLVMIR(module, llvmContext, **machine);
    if (failed(llvmModule))
      return failure();
  }
  if (cuda) {
    {
      TimingScope t = phase(timing, "kernels and memory plan (cuda)");
      if (failed(mlx::runPhases(*cudaModule, mlx::Phase::Kernels,
                                mlx::Phase::Gpu, pipelineOptions, &t)))
        return failure();
    }
    reportMemoryPlan(*cudaModule, *signature);
    if (auto planned = cudaModule->lookupSymbol<func::FuncOp>(
            mlx::getGraphSymbol(signature->entry, mlx::Variant::Cuda)))
      if (auto plan =
              planned->getAttrOfType<DenseI64ArrayAttr>(mlx::attrs::kInPlace))
        signature->setInPlace(mlx::Variant::Cuda, plan.asArrayRef());
    auto graph = cudaModule->lookupSymbol<func::FuncOp>(
        mlx::getGraphSymbol(signature->entry, mlx::Variant::Cuda));
    bool capturable = graph && graph->hasAttr(mlx::attrs::kCapturable);
    {
      TimingScope t = phase(timing, "to llvm dialect, PTX and cubin (cuda)");
      if (failed(mlx::runPhases(*cudaModule, mlx::Phase::Gpu, mlx::Phase::Nvvm,
                                pipelineOptions, &t)))
        return failure();
      // PTX and cubins come from the cache when it has them. The cache
      // keeps no variants by themselves: their PTX is printed fresh.
      std::string cache =
          emit == Emit::Ptx && !variantChip.empty() ? "" : getCacheDir().str();
      std::string gpuKey =
          optionsKey + " " + fileIdentity(*libdevice) + " " +
          (wantCubin ? gpuArch + " " + fileIdentity(*ptxas) : "") +
          " variant " + variantChip + " grid-dependent-kernels " +
          (noGridDependentLaunch ? "no" : "yes");
      llvm::StringMap<std::string> built =
          mlx::loadGpuBinaries(*cudaModule, cache, gpuKey);
      gpuBinariesBuilt = built.size();
      gpuBinariesReused = llvm::range_size(cudaModule->getOps<gpu::BinaryOp>());
      pipelineOptions.buildCubin = wantCubin;
      if (failed(mlx::runPhases(*cudaModule, mlx::Phase::Nvvm,
                                mlx::Phase::Llvm, pipelineOptions, &t)) ||
          failed(mlx::addEntryPoint(*cudaModule, *signature, mlx::Variant::Cuda,
                                    model, capturable)))
        return failure();
      mlx::storeGpuBinaries(*cudaModule, built, cache);
    }
    if (emit == Emit::Ptx) {
      // The PTX the GPU of --gpu-arch runs: its chip's variants where
      // there are some, the sm_70 modules otherwise.
      std::string ptx;
      cudaModule->walk([&](gpu::BinaryOp binary) {
        if (!variantChip.empty() &&
            !binary.getName().ends_with("_" + variantChip))
          return;
        for (mlir::Attribute object : binary.getObjects())
          ptx += cast<gpu::ObjectAttr>(object).getObject().str();
      });
      return writeOutput(outputPath("-"), [&](raw_ostream &os) {
        os << ptx;
        return success();
      });
    }
    if (cudaModule->lookupSymbol(MLXRT_MATMUL_SYMBOL))
      modelFlags |= MLXRT_MODEL_USES_MATMUL;
    if (cudaModule->lookupSymbol(MLXRT_GRAPH_CAPTURABLE_SYMBOL))
      modelFlags |= MLXRT_MODEL_CAPTURABLE;
    if (!split) {
      TimingScope t = phase(timing, "translate to LLVM IR and link (cuda)");
      auto cudaLLVM =
          mlx::translateToLLVMIR(*cudaModule, llvmContext, **machine);
      if (failed(cudaLLVM))
        return failure();
      if (Linker::linkModules(**llvmModule, std::move(*cudaLLVM)))
        return module.emitError() << "linking the CPU and CUDA variants failed";
      if (modelFlags)
        setModelFlags(**llvmModule, model, modelFlags);
      setSignatureText(**llvmModule, model, signature->str());
    }
  }
  if (split)
    return compileAndLink(module, cuda ? *cudaModule : ModuleOp(), compiler,
                          units, optionsKey, programKey, *signature, model,
                          modelFlags, argv0, timing);
  // Only the model's own symbols leave the object: two models linked into
  // one program share no other name.
  internalizeAllBut(**llvmModule, mlx::getExportedSymbols(model));

  {
    TimingScope t = phase(timing, "LLVM optimization (O3)");
    if (failed(mlx::optimizeModule(module, **llvmModule, **machine)))
      return failure();
  }
  if (emit == Emit::Llvm)
    return writeOutput(outputPath("-"), [&](raw_ostream &os) {
      (*llvmModule)->print(os, nullptr);
      return success();
    });

  TimingScope t = phase(timing, "LLVM code generation");
  std::string path = outputPathFor(Emit::Obj);
  if (path == "-") {
    // Object emission seeks: build it in memory, then stream it.
    SmallVector<char, 0> buffer;
    raw_svector_ostream os(buffer);
    if (failed(mlx::writeObjectFile(module, **llvmModule, **machine, os)))
      return failure();
    outs().write(buffer.data(), buffer.size());
    outs().flush();
    return success(!outs().has_error());
  }
  std::unique_ptr<mlxc::OutputFile> out = mlxc::OutputFile::create(path);
  if (!out || failed(out->write([&](raw_pwrite_stream &os) {
        return mlx::writeObjectFile(module, **llvmModule, **machine, os);
      })))
    return failure();
  return out->commit();
}

/// Prints `file:F:T: error: message [MLX primitive P]` for a diagnostic
/// located in an imported .mlxfn file (F: traced function, T: tape entry).
static LogicalResult printMlxfnDiagnostic(Diagnostic &diag) {
  auto print = [](Location loc, StringRef severity, const Twine &message) {
    std::string primitive;
    if (auto name = dyn_cast<NameLoc>(loc)) {
      primitive = name.getName().str();
      loc = name.getChildLoc();
    }
    if (auto file = dyn_cast<FileLineColLoc>(loc))
      errs() << file.getFilename().getValue() << ":" << file.getLine() << ":"
             << file.getColumn() << ": ";
    errs() << severity << ": " << message;
    if (!primitive.empty())
      errs() << " [MLX primitive " << primitive << "]";
    errs() << "\n";
  };
  StringRef severity =
      diag.getSeverity() == mlir::DiagnosticSeverity::Error     ? "error"
      : diag.getSeverity() == mlir::DiagnosticSeverity::Warning ? "warning"
                                                                : "note";
  print(diag.getLocation(), severity, diag.str());
  for (Diagnostic &note : diag.getNotes())
    print(note.getLocation(), "note", note.str());
  return success();
}

/// mlxc's own options lead `--help`; the MLIR options a compiler engineer
/// uses follow; LLVM's hundreds of others wait under `--help-hidden`.
static void organizeHelp() {
  static cl::OptionCategory debugCategory("Debugging options (MLIR)");
  static const StringRef shown[] = {"mlir-timing",
                                    "mlir-timing-display",
                                    "mlir-print-ir-after-all",
                                    "mlir-print-ir-before-all",
                                    "mlir-print-ir-after-change",
                                    "mlir-print-ir-after-failure",
                                    "mlir-print-ir-module-scope",
                                    "mlir-print-debuginfo",
                                    "mlir-print-local-scope",
                                    "mlir-elide-elementsattrs-if-larger",
                                    "mlir-disable-threading"};
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.second;
    StringRef name = entry.first;
    // LLVM's generic options (--help, --version, ...) stay as they are.
    if (llvm::is_contained(option->Categories, &category) ||
        name.starts_with("help") || name == "version" ||
        (name.starts_with("print-") && name.ends_with("options")))
      continue;
    if (llvm::is_contained(shown, name)) {
      option->Categories.assign({&debugCategory});
      continue;
    }
    if (option->getOptionHiddenFlag() == cl::NotHidden)
      option->setHiddenFlag(cl::Hidden);
  }
}

static void printVersion(raw_ostream &os) {
  os << "mlxc " << MLXC_VERSION << " (LLVM/MLIR " << LLVM_VERSION_STRING
     << ")\n  host target: " << sys::getDefaultTargetTriple()
     << ", default --cpu=" << hostCpu.getDefault().getValue()
     << "\n  GPU code: PTX for sm_70 and newer, cubins for --gpu-arch\n";
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  registerAsmPrinterCLOptions();
  mlxc::registerAllPasses();
  organizeHelp();
  cl::SetVersionPrinter(printVersion);
  cl::ParseCommandLineOptions(
      argc, argv,
      "mlxc: compile MLX array graphs ahead of time\n\n"
      "  mlxc graph.mlir -o model [--target=cuda] [--gpu-arch=sm_90]\n"
      "  mlxc model.mlxfn -o model\n"
      "  mlxc graph.mlir "
      "--emit=mlir|linalg|kernels|gpu|dot|ptx|llvm|obj|lib|shared|exe [-o "
      "FILE|-]\n"
      "\n"
      "An executable mlxc builds needs at run time: glibc 2.34 or newer, "
      "libz.so.1,\nand a CPU at least as new as --cpu (default x86-64-v3: "
      "AVX2, FMA); a --target=cuda\nexecutable also uses the NVIDIA driver "
      "(libcuda.so.1) when a GPU is present,\nand libcublasLt when the "
      "graph has a matrix product. Run it with --help for\nits inputs and "
      "outputs.\n");

  // Every phase is timed under --mlir-timing, LLVM's and the linker's too.
  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope timing = timingManager.getRootScope();

  bool toStdout = emit == Emit::Mlir || emit == Emit::Linalg ||
                  emit == Emit::Kernels || emit == Emit::Gpu ||
                  emit == Emit::Dot ||
                  emit == Emit::Ptx || emit == Emit::Llvm || emit == Emit::Obj;
  if (failed(checkOutputPath(outputPathFor(emit), toStdout)))
    return 1;
  if (emit == Emit::Lib) {
    // The header is written beside the library: refuse it replacing input.
    std::string library = outputPathFor(Emit::Lib);
    StringRef stem = sys::path::stem(library);
    stem.consume_front("lib");
    SmallString<256> header(sys::path::parent_path(library));
    sys::path::append(header, stem + ".h");
    if (failed(checkOutputPath(header.str(), false)))
      return 1;
  }

  DialectRegistry registry;
  mlxc::registerAllDialects(registry);
  registerAllToLLVMIRTranslations(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Errors name the op and its location; a dump of the whole graph after
  // each one helps no user (--mlir-print-ir-after-failure does that).
  context.printOpOnDiagnostic(false);

  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file) {
    errs() << "mlxc: error: " << error << "\n";
    return 1;
  }
  auto sourceMgr = std::make_shared<SourceMgr>();
  OwningOpRef<ModuleOp> module;
  // By its header, or by its name: a damaged .mlxfn gets the reader's
  // message, not the MLIR parser's on binary text.
  if (mlxc::isMlxfn(file->getMemBufferRef()) ||
      StringRef(inputFile).ends_with_insensitive(".mlxfn")) {
    // Binary: no source line to show, so diagnostics name the file, the
    // traced function and tape entry, and the MLX primitive. The mapped
    // file stays alive while the weights are read from it.
    ScopedDiagnosticHandler handler(&context, printMlxfnDiagnostic);
    TimingScope importTiming = phase(timing, "import .mlxfn");
    module = mlxc::importMlxfn(&context, file->getMemBufferRef());
    importTiming.stop();
    if (!module)
      return 1;
    return failed(compile(*module, argv[0], timing)) ? 1 : 0;
  }
  sourceMgr->AddNewSourceBuffer(std::move(file), SMLoc());
  SourceMgrDiagnosticHandler handler(*sourceMgr, &context);
  // MLIR's parser recurses once per nesting level: refuse absurd depths
  // with a located error rather than overflow the stack.
  if (failed(mlxc::checkNestingDepth(*sourceMgr)))
    return 1;
  TimingScope parseTiming = phase(timing, "parse");
  module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  parseTiming.stop();
  if (!module)
    return 1;
  return failed(compile(*module, argv[0], timing)) ? 1 : 0;
}
