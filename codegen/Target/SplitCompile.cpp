//===- SplitCompile.cpp - kernels compiled apart, cached, in parallel -----===//

#include "codegen/Target/SplitCompile.h"
#include "Mlx/MlxAttributes.h"

#include "codegen/Target/CacheStore.h"
#include "codegen/Target/ObjectFile.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::mlx;

static bool isLocal(LLVM::Linkage linkage) {
  return linkage == LLVM::Linkage::Private ||
         linkage == LLVM::Linkage::Internal ||
         linkage == LLVM::Linkage::Linkonce ||
         linkage == LLVM::Linkage::LinkonceODR;
}

/// Drops a function's body, keeping its declaration.
static void dropBody(LLVM::LLVMFuncOp func) {
  func.getBody().dropAllReferences();
  func.getBody().getBlocks().clear();
}

static std::string sha256Hex(StringRef text) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(text)),
                     /*LowerCase=*/true);
}

void mlx::printForKey(Operation *op, llvm::raw_ostream &os, bool generic) {
  OpPrintingFlags flags;
  // Explicit: the command line's --mlir-print-* options must not change a
  // key.
  flags.enableDebugInfo(false)
      .elideLargeElementsAttrs(1ull << 62)
      .useLocalScope();
  if (generic)
    flags.printGenericOpForm();
  op->print(os, flags);
}

static std::string printModule(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printForKey(module, os);
  return text;
}

void mlx::computeUnitKey(CompileUnit &unit, StringRef optionsKey) {
  std::string text = optionsKey.str();
  for (ModuleOp module : unit.modules)
    text += "\n//--\n" + printModule(module);
  unit.key = sha256Hex(text);
}

/// Collects what `kernel` needs in a module of its own: the functions it
/// calls, with bodies when they are private helpers. Fails on a reference
/// to anything but a function.
static LogicalResult collectClosure(LLVM::LLVMFuncOp kernel,
                                    SymbolTable &symbols,
                                    llvm::SetVector<Operation *> &needed) {
  SmallVector<Operation *> worklist = {kernel};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    bool ok = true;
    op->walk([&](Operation *nested) {
      nested->getAttrDictionary().walk([&](SymbolRefAttr ref) {
        if (nested == op &&
            ref.getRootReference() == cast<SymbolOpInterface>(op).getNameAttr())
          return;
        auto callee = dyn_cast_if_present<LLVM::LLVMFuncOp>(
            symbols.lookup(ref.getRootReference()));
        if (!callee) {
          ok = false;
          return;
        }
        if (needed.insert(callee) && !callee.isExternal() &&
            isLocal(callee.getLinkage()))
          worklist.push_back(callee);
      });
    });
    if (!ok)
      return failure();
  }
  return success();
}

SmallVector<CompileUnit> mlx::extractKernelUnits(ModuleOp module,
                                                 StringRef optionsKey) {
  SymbolTable symbols(module);
  SmallVector<LLVM::LLVMFuncOp> kernels;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>())
    if (func->hasAttr(mlx::attrs::kCpuKernel) && !func.isExternal())
      kernels.push_back(func);

  SmallVector<CompileUnit> units;
  DenseMap<StringAttr, StringAttr> renamed;
  MLIRContext *ctx = module.getContext();
  for (LLVM::LLVMFuncOp kernel : kernels) {
    llvm::SetVector<Operation *> needed;
    if (failed(collectClosure(kernel, symbols, needed)))
      continue;
    OwningOpRef<ModuleOp> unitModule = ModuleOp::create(module.getLoc());
    (*unitModule)->setAttrs(module->getAttrDictionary());
    OpBuilder b = OpBuilder::atBlockEnd(unitModule->getBody());
    for (Operation *op : needed) {
      auto func = cast<LLVM::LLVMFuncOp>(b.clone(*op));
      if (func.isExternal())
        continue;
      if (isLocal(func.getLinkage())) {
        func.setLinkage(LLVM::Linkage::Internal);
        continue;
      }
      // Another public function: declared only.
      dropBody(func);
    }
    auto copy = cast<LLVM::LLVMFuncOp>(b.clone(*kernel));
    // The name follows the text (with a fixed name in it): equal kernels
    // of different programs share one object.
    copy.setSymName("mlxc_kernel");
    std::string hash =
        sha256Hex(printModule(*unitModule) + "\n" + optionsKey.str());
    // What it computes (mlxc-outline-cpu-kernels' name), so that a profile
    // reads as the graph; the hash keeps equal names of unequal kernels
    // apart.
    std::string what;
    if (auto attr = kernel->getAttrOfType<StringAttr>(mlx::attrs::kKernelName))
      what = attr.getValue().str() + "_";
    auto name = StringAttr::get(ctx, "mlxc_k_" + what + hash.substr(0, 24));
    copy.setSymNameAttr(name);
    copy.setLinkage(LLVM::Linkage::WeakODR);
    copy.setVisibility_(LLVM::Visibility::Hidden);
    renamed[kernel.getSymNameAttr()] = name;

    kernel.setSymNameAttr(name);
    dropBody(kernel);
    kernel.setLinkage(LLVM::Linkage::External);
    kernel.setVisibility_(LLVM::Visibility::Hidden);

    CompileUnit unit;
    unit.key = hash;
    unit.modules.push_back(*unitModule);
    unit.owned.push_back(std::move(unitModule));
    units.push_back(std::move(unit));
  }
  if (renamed.empty())
    return units;
  module.walk([&](LLVM::CallOp call) {
    if (auto callee = call.getCalleeAttr())
      if (auto it = renamed.find(callee.getAttr()); it != renamed.end())
        call.setCalleeAttr(FlatSymbolRefAttr::get(it->second));
  });
  module.walk([&](LLVM::AddressOfOp address) {
    if (auto it = renamed.find(address.getGlobalNameAttr().getAttr());
        it != renamed.end())
      address.setGlobalNameAttr(FlatSymbolRefAttr::get(it->second));
  });
  return units;
}

std::string mlx::getDefaultCacheDir() {
  SmallString<256> dir;
  if (!llvm::sys::path::cache_directory(dir))
    return "";
  llvm::sys::path::append(dir, "mlxc");
  return std::string(dir);
}

/// An object from the cache, or nothing when there is none (or only a
/// damaged or foreign entry).
static std::optional<std::string>
readCached(StringRef dir, StringRef key, std::string *contentHash = nullptr) {
  std::optional<std::string> object =
      readCacheEntry(dir, key, ".o", contentHash);
  if (!object || !StringRef(*object).starts_with("\x7f"
                                                 "ELF"))
    return std::nullopt;
  return object;
}

struct ObjectCompiler::Job {
  CompileUnit *unit;
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  std::unique_ptr<llvm::TargetMachine> machine;
  bool failed = false;
};

ObjectCompiler::ObjectCompiler(ModuleOp anchor, CompileOptions options)
    : anchor(anchor), options(std::move(options)) {
  if (this->options.threads > 1)
    pool = std::make_unique<llvm::StdThreadPool>(
        llvm::hardware_concurrency(this->options.threads));
}

ObjectCompiler::~ObjectCompiler() {
  if (pool)
    pool->wait();
}

/// O3 (or code generation only) and the object file, on any thread.
static void compileJob(ModuleOp anchor, CompileUnit &unit, llvm::Module &module,
                       llvm::TargetMachine &machine, bool &failed) {
  if (!unit.optimize) {
    machine.setOptLevel(llvm::CodeGenOptLevel::None);
    if (llvm::Error err = lowerHostBFloat(module)) {
      anchor.emitError() << llvm::toString(std::move(err));
      failed = true;
      return;
    }
  } else if (mlir::failed(optimizeModule(anchor, module, machine))) {
    failed = true;
    return;
  }
  SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  if (mlir::failed(writeObjectFile(anchor, module, machine, os))) {
    failed = true;
    return;
  }
  unit.object.assign(buffer.begin(), buffer.end());
}

LogicalResult ObjectCompiler::add(MutableArrayRef<CompileUnit> units) {
  SmallVector<Job *> added;
  for (CompileUnit &unit : units) {
    if (!options.cacheDir.empty())
      if (std::optional<std::string> object =
              readCached(options.cacheDir, unit.key)) {
        unit.object = std::move(*object);
        unit.cached = true;
        continue;
      }
    Job &job = jobs.emplace_back();
    job.unit = &unit;
    job.context = std::make_unique<llvm::LLVMContext>();
    job.machine = options.makeMachine();
    if (!job.machine)
      return anchor.emitError() << "cannot create a host target machine";
    for (ModuleOp module : unit.modules) {
      auto translated = translateToLLVMIR(module, *job.context, *job.machine);
      if (failed(translated))
        return failure();
      if (!job.module) {
        job.module = std::move(*translated);
        continue;
      }
      if (llvm::Linker::linkModules(*job.module, std::move(*translated)))
        return anchor.emitError() << "linking the program's modules failed";
    }
    if (unit.prepare)
      unit.prepare(*job.module);
    added.push_back(&job);
  }
  // The biggest first: the pool's threads finish together.
  llvm::stable_sort(added, [](Job *a, Job *b) {
    return a->module->getInstructionCount() > b->module->getInstructionCount();
  });
  for (Job *job : added) {
    auto run = [anchor = anchor, job] {
      compileJob(anchor, *job->unit, *job->module, *job->machine, job->failed);
      job->module.reset();
      job->context.reset();
    };
    if (pool)
      pool->async(run);
    else
      run();
  }
  return success();
}

LogicalResult ObjectCompiler::finish() {
  if (pool)
    pool->wait();
  for (Job &job : jobs) {
    if (job.failed)
      return failure();
    if (!options.cacheDir.empty())
      writeCacheEntry(options.cacheDir, job.unit->key, ".o", job.unit->object);
  }
  return success();
}

/// A cached GPU binary's payload: this line, then the gpu.binary's objects
/// attribute.
static constexpr llvm::StringLiteral kGpuBinaryHeader = "mlxc-gpu-binary-2\n";

llvm::StringMap<std::string> mlx::loadGpuBinaries(ModuleOp module,
                                                  StringRef cacheDir,
                                                  StringRef optionsKey) {
  llvm::StringMap<std::string> missing;
  for (auto gpuModule :
       llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>())) {
    std::string text;
    llvm::raw_string_ostream os(text);
    printForKey(gpuModule, os);
    std::string key = sha256Hex(text + "\n" + optionsKey.str());
    if (cacheDir.empty()) {
      missing[gpuModule.getName()] = key;
      continue;
    }
    std::optional<std::string> entry = readCacheEntry(cacheDir, key, ".gpubin");
    ArrayAttr objects;
    if (entry && StringRef(*entry).starts_with(kGpuBinaryHeader)) {
      StringRef body = StringRef(*entry).drop_front(kGpuBinaryHeader.size());
      // A damaged entry that still parses as something else is no binary.
      objects = dyn_cast_if_present<ArrayAttr>(
          parseAttribute(body, module.getContext()));
      if (objects && !llvm::all_of(objects, llvm::IsaPred<gpu::ObjectAttr>))
        objects = nullptr;
    }
    if (!objects) {
      missing[gpuModule.getName()] = key;
      continue;
    }
    OpBuilder b(gpuModule);
    gpu::BinaryOp::create(b, gpuModule.getLoc(), gpuModule.getName(),
                          gpuModule.getOffloadingHandlerAttr(), objects);
    gpuModule.erase();
  }
  return missing;
}

void mlx::storeGpuBinaries(ModuleOp module,
                           const llvm::StringMap<std::string> &keys,
                           StringRef cacheDir) {
  if (cacheDir.empty())
    return;
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    auto it = keys.find(binary.getName());
    if (it == keys.end())
      continue;
    std::string text = kGpuBinaryHeader.str();
    llvm::raw_string_ostream os(text);
    binary.getObjectsAttr().print(os);
    writeCacheEntry(cacheDir, it->second, ".gpubin", text);
  }
}

std::string mlx::getCacheKey(StringRef text) { return sha256Hex(text); }

/// A cached program's payload: this line, the length of its notes and the
/// notes, then per object a line of its key and its content's hash. An
/// object is linked only when its entry holds the content recorded here.
static constexpr llvm::StringLiteral kProgramHeader = "mlxc-program-2\n";

std::optional<SmallVector<std::string>>
mlx::loadProgram(StringRef cacheDir, StringRef key, std::string &notes) {
  if (cacheDir.empty())
    return std::nullopt;
  std::optional<std::string> entry = readCacheEntry(cacheDir, key, ".program");
  if (!entry)
    return std::nullopt;
  StringRef text = *entry;
  if (!text.consume_front(kProgramHeader))
    return std::nullopt;
  auto [length, rest] = text.split('\n');
  size_t size;
  if (length.getAsInteger(10, size) || rest.size() < size)
    return std::nullopt;
  std::string programNotes = rest.take_front(size).str();
  SmallVector<StringRef> lines;
  rest.drop_front(size).split(lines, '\n', -1, /*KeepEmpty=*/false);
  if (lines.empty())
    return std::nullopt;
  SmallVector<std::string> objects;
  for (StringRef line : lines) {
    auto [objectKey, recorded] = line.split(' ');
    std::string contentHash;
    if (!isCacheKey(objectKey) || !isCacheKey(recorded))
      return std::nullopt;
    std::optional<std::string> object =
        readCached(cacheDir, objectKey, &contentHash);
    if (!object || contentHash != recorded)
      return std::nullopt;
    objects.push_back(std::move(*object));
  }
  notes = std::move(programNotes);
  return objects;
}

void mlx::storeProgram(StringRef cacheDir, StringRef key, StringRef notes,
                       ArrayRef<CompileUnit> units) {
  if (cacheDir.empty())
    return;
  std::string text =
      kProgramHeader.str() + std::to_string(notes.size()) + "\n" + notes.str();
  for (const CompileUnit &unit : units)
    text += unit.key + " " + getContentHash(unit.object) + "\n";
  writeCacheEntry(cacheDir, key, ".program", text);
}
