//===- EmbedCubin.cpp - the mlxc-embed-cubin pass -------------------------===//
//
// The executable keeps the sm_70 PTX (it runs on every GPU from Volta on)
// and, for `--gpu-arch=sm_XX`, gains a cubin that ptxas built from that
// same PTX, or from the module's variant for that chip (`<module>_sm_XX`,
// see mlxc-chip-variants), which this pass then drops: no JIT at
// start-up on that architecture. Both go into one
// container that the runtime's mgpuModuleLoad reads (runtime/cuda_abi.c).
//
//===----------------------------------------------------------------------===//

#include "codegen/Cuda/Arch.h"
#include "codegen/Passes.h"
#include "runtime/mlxrt_abi.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCEMBEDCUBIN
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

namespace {

struct Image {
  uint32_t kind, sm, flags;
  std::string data;
};
} // namespace

static std::string buildContainer(ArrayRef<Image> images) {
  std::string out;
  llvm::raw_string_ostream os(out);
  auto bytes = [&](uint64_t v, int n) {
    for (int i = 0; i < n; ++i)
      os << static_cast<char>((v >> (8 * i)) & 0xff);
  };
  auto u32 = [&](uint32_t v) { bytes(v, 4); };
  auto u64 = [&](uint64_t v) { bytes(v, 8); };
  static_assert(sizeof(MLXRT_IMAGE_MAGIC) == 9, "an 8-byte magic");
  os << MLXRT_IMAGE_MAGIC;
  u32(images.size());
  u32(0);
  uint64_t offset =
      MLXRT_IMAGE_HEADER_BYTES + MLXRT_IMAGE_ENTRY_BYTES * images.size();
  for (const Image &image : images) {
    u32(image.kind);
    u32(image.sm);
    u32(image.flags);
    u32(0);
    u64(offset);
    u64(image.data.size());
    offset += image.data.size();
  }
  for (const Image &image : images)
    os << image.data;
  return out;
}

/// ptxas -arch=<arch> on `ptx`; the cubin, or an error at `loc`.
static FailureOr<std::string> assemble(Location loc, StringRef ptxas,
                                       StringRef arch, StringRef ptx) {
  SmallString<128> input, output, log;
  auto makeTemp = [&](StringRef suffix, SmallString<128> &path) {
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("mlxc-cubin", suffix, path)) {
      emitError(loc) << "cannot create a temporary file: " << ec.message();
      return false;
    }
    return true;
  };
  if (!makeTemp("ptx", input) || !makeTemp("cubin", output) ||
      !makeTemp("log", log))
    return failure();
  llvm::FileRemover removeInput(input), removeOutput(output), removeLog(log);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(input, ec);
    if (ec)
      return emitError(loc) << "cannot write " << input << ": " << ec.message();
    os << ptx;
  }
  std::string archFlag = ("-arch=" + arch).str();
  SmallVector<StringRef> args = {ptxas, archFlag, "-O3", input, "-o", output};
  std::optional<StringRef> redirects[] = {std::nullopt, log, log};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0,
                                     &message);
  if (rc != 0) {
    std::string text;
    if (auto buffer = llvm::MemoryBuffer::getFile(log))
      text = StringRef((*buffer)->getBuffer()).trim().str();
    return emitError(loc) << "'" << ptxas << " " << archFlag << "' failed"
                          << (message.empty() ? "" : ": " + message)
                          << (text.empty() ? "" : ": " + text);
  }
  auto buffer = llvm::MemoryBuffer::getFile(output, /*IsText=*/false);
  if (!buffer)
    return emitError(loc) << "cannot read the cubin from " << ptxas << ": "
                          << buffer.getError().message();
  return (*buffer)->getBuffer().str();
}

namespace {
struct MlxcEmbedCubinPass final
    : mlx::impl::MlxcEmbedCubinBase<MlxcEmbedCubinPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<mlx::SmArch> parsed = mlx::parseSmArch(arch);
    if (!parsed || parsed->number < 75) {
      module.emitError() << "mlxc-embed-cubin: arch must be sm_75 or newer "
                            "(ptxas builds no older cubin), got '"
                         << arch << "'";
      return signalPassFailure();
    }
    if (!llvm::sys::fs::can_execute(ptxas)) {
      module.emitError() << "mlxc-embed-cubin: cannot run ptxas '" << ptxas
                         << "'";
      return signalPassFailure();
    }
    MLIRContext *ctx = &getContext();
    SmallVector<gpu::BinaryOp> binaries(module.getOps<gpu::BinaryOp>());
    SymbolTable symbols(module);
    for (gpu::BinaryOp binary : binaries) {
      if (!binary->getBlock())
        continue; // A variant, consumed below.
      // The cubin comes from the module's variant for this chip when
      // mlxc-chip-variants made one.
      auto variant =
          symbols.lookup<gpu::BinaryOp>((binary.getName() + "_" + arch).str());
      SmallVector<Attribute> objects;
      for (Attribute attr : binary.getObjects()) {
        auto object = cast<gpu::ObjectAttr>(attr);
        if (object.getFormat() != gpu::CompilationTarget::Assembly) {
          objects.push_back(object);
          continue;
        }
        StringRef ptx = object.getObject().getValue();
        StringRef cubinPtx = ptx;
        if (variant)
          for (Attribute variantAttr : variant.getObjects())
            if (auto variantObject = cast<gpu::ObjectAttr>(variantAttr);
                variantObject.getFormat() == gpu::CompilationTarget::Assembly)
              cubinPtx = variantObject.getObject().getValue();
        FailureOr<std::string> cubin =
            assemble(binary.getLoc(), ptxas, arch, cubinPtx);
        if (failed(cubin))
          return signalPassFailure();
        // The PTX is what the driver JITs: it ends with its NUL.
        uint32_t ptxSm = 70;
        if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget()))
          if (auto chip = mlx::parseSmArch(nvvm.getChip()))
            ptxSm = chip->number;
        Image images[] = {{MLXRT_IMAGE_PTX, ptxSm, 0, (ptx + Twine('\0')).str()},
                          {MLXRT_IMAGE_CUBIN, parsed->number,
                           parsed->archSpecific
                               ? uint32_t(MLXRT_IMAGE_ARCH_SPECIFIC)
                               : 0u,
                           *cubin}};
        objects.push_back(gpu::ObjectAttr::get(
            ctx, object.getTarget(), gpu::CompilationTarget::Binary,
            StringAttr::get(ctx, buildContainer(images)),
            object.getProperties(), object.getKernels()));
      }
      binary.setObjectsAttr(ArrayAttr::get(ctx, objects));
      if (variant)
        variant.erase();
    }
  }
};
} // namespace
