//===- GridDependentLaunch.cpp - the mlxc-grid-dependent-launch pass ------===//
//
// A decode step is a chain of small kernels, each waiting for the one before
// it: on sm_90 and newer a kernel may start while its predecessor ends
// (programmatic dependent launch) if it waits for it (griddepcontrol.wait)
// before it reads what the predecessor may write or writes anything. The
// weights a product streams are written by nothing in the program, so its
// kernel loads them before that wait (mlxc-split-vector-products places
// it): the launch, the block start-up and the weight reads overlap the
// kernel before.
//
// The sm_70 PTX that every GPU runs cannot hold griddepcontrol. So this pass
// strips the waits that earlier passes placed from each gpu.module whose
// target is older than sm_90, and specializes those for sm_90 and newer (the
// cubin's variant, mlxc-chip-variants). There each kernel that every launch
// gives at most two waves of threads (the module's kernel.target) starts
// with griddepcontrol.
// launch_dependents (its successor may be scheduled at once) and, where no
// wait was placed, a wait, and the module's list of such kernels
// (MLXRT_GRID_DEPENDENT_KERNELS_SYMBOL, empty in other modules) tells the
// runtime to launch it that way. Larger grids gain nothing from starting
// early, and every block of theirs would pay for the two instructions (on
// the H200, 2026-12-02: a 16 MiB copy of 32784 blocks took 41 us instead of
// 25).
//
//===----------------------------------------------------------------------===//

#include "codegen/Cuda/Arch.h"
#include "codegen/Passes.h"

#include "runtime/mlxrt_abi.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/StringSet.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCGRIDDEPENDENTLAUNCH
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

namespace {

/// Threads an SM keeps resident: a grid of up to two waves (2 x SMs x
/// this) starts with griddepcontrol.
constexpr int64_t kThreadsPerSm = 2048;

bool isKernel(LLVM::LLVMFuncOp func) {
  return !func.isExternal() &&
         (func->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()) ||
          func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()));
}

/// Threads of each kernel's largest launch; INT64_MAX where a launch's
/// sizes are not constants.
llvm::StringMap<int64_t> getLaunchThreads(ModuleOp module) {
  llvm::StringMap<int64_t> threads;
  module.walk([&](gpu::LaunchFuncOp launch) {
    int64_t count = 1;
    for (Value size : {launch.getGridSizeX(), launch.getGridSizeY(),
                       launch.getGridSizeZ(), launch.getBlockSizeX(),
                       launch.getBlockSizeY(), launch.getBlockSizeZ()}) {
      APInt value;
      if (!matchPattern(size, m_ConstantInt(&value)) ||
          value.getSExtValue() < 1 ||
          count > INT64_MAX / value.getSExtValue()) {
        count = INT64_MAX;
        break;
      }
      count *= value.getSExtValue();
    }
    std::string key = (launch.getKernelModuleName().getValue() +
                       "::" + launch.getKernelName().getValue())
                          .str();
    threads[key] = std::max(threads.lookup(key), count);
  });
  return threads;
}

/// Defines the module's list of grid-dependent kernels (each name ended by a
/// NUL, then a NUL), in global memory and visible: cuModuleGetGlobal finds
/// it in every module mlxc builds.
void addKernelList(gpu::GPUModuleOp module, ArrayRef<StringRef> kernels) {
  std::string names;
  for (StringRef kernel : kernels)
    names += (kernel + Twine('\0')).str();
  names += '\0';
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), names.size());
  LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/true,
                         LLVM::Linkage::External,
                         MLXRT_GRID_DEPENDENT_KERNELS_SYMBOL,
                         b.getStringAttr(names), /*alignment=*/1,
                         /*addrSpace=*/1);
}

/// The module the host launches in `module`'s place: `<name>` for its
/// variant `<name>_<chip>` (mlxc-chip-variants), else itself.
StringRef getLaunchedName(gpu::GPUModuleOp module,
                          const llvm::StringSet<> &names) {
  StringRef name = module.getName();
  if (ArrayAttr attrs = module.getTargetsAttr())
    for (Attribute attr : attrs)
      if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr)) {
        StringRef original = name;
        if (original.consume_back(("_" + nvvm.getChip()).str()) &&
            names.contains(original))
          return original;
      }
  return name;
}

/// Makes `module`'s small kernels grid-dependent and lists them.
void specialize(gpu::GPUModuleOp module,
                const llvm::StringMap<int64_t> &launchThreads,
                StringRef launchedModule, int64_t maxThreads) {
  OpBuilder b(module->getContext());
  SmallVector<StringRef> dependent;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    if (!isKernel(func))
      continue;
    auto it =
        launchThreads.find((launchedModule + "::" + func.getName()).str());
    bool waits = false;
    func.walk([&](NVVM::GriddepcontrolOp op) {
      waits |= op.getKind() == NVVM::GridDepActionKind::wait;
    });
    if (it == launchThreads.end() || it->second > maxThreads) {
      func.walk([](NVVM::GriddepcontrolOp op) { op.erase(); });
      continue;
    }
    b.setInsertionPointToStart(&func.getBody().front());
    Location loc = func.getLoc();
    NVVM::GriddepcontrolOp::create(b, loc,
                                   NVVM::GridDepActionKind::launch_dependents);
    if (!waits)
      NVVM::GriddepcontrolOp::create(b, loc, NVVM::GridDepActionKind::wait);
    dependent.push_back(func.getName());
  }
  addKernelList(module, dependent);
}

struct MlxcGridDependentLaunchPass final
    : mlx::impl::MlxcGridDependentLaunchBase<MlxcGridDependentLaunchPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringMap<int64_t> launchThreads = getLaunchThreads(module);
    int64_t maxThreads =
        2 * kernel::getTargetOr(module, kernel::Backend::Cuda).getSms() *
        kThreadsPerSm;
    // The host launches the original module; a variant `<module>_<chip>`
    // replaces it in the cubin.
    llvm::StringSet<> names;
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
      names.insert(gpuModule.getName());
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
      if (enable && mlx::getModuleChip(gpuModule) >= 90) {
        specialize(gpuModule, launchThreads, getLaunchedName(gpuModule, names),
                   maxThreads);
        continue;
      }
      gpuModule.walk([](NVVM::GriddepcontrolOp op) { op.erase(); });
      addKernelList(gpuModule, {});
    }
  }
};

} // namespace
