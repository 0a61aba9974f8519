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
// strips the waits that earlier passes placed from each gpu.module, and for
// `chip` (sm_90+, the --gpu-arch cubin) adds a clone `<module>_<chip>`
// targeting that chip. There each kernel that every launch gives at most
// kMaxDependentThreads threads starts with griddepcontrol.launch_dependents
// (its successor may be scheduled at once) and, where no wait was placed, a
// wait, and the module's list of such kernels (MLXRT_GRID_DEPENDENT_KERNELS_
// SYMBOL, empty in the sm_70 module) tells the runtime to launch it that way.
// Larger grids gain nothing from starting early, and every block of theirs
// would pay for the two instructions (on the H200, 2026-12-02: a 16 MiB copy of
// 32784 blocks took 41 us instead of 25). mlxc-embed-cubin builds the module's
// cubin from the clone's PTX.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "runtime/mlxrt_abi.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCGRIDDEPENDENTLAUNCH
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

namespace {

/// About two waves of the H200 (132 SMs x 2048 threads).
constexpr int64_t kMaxDependentThreads = 2 * 132 * 2048;

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

/// The grid-dependent variant of `original` for `chip`.
LogicalResult addVariant(gpu::GPUModuleOp original, StringRef chip,
                         const llvm::StringMap<int64_t> &launchThreads) {
  SmallVector<Attribute> targets;
  if (ArrayAttr attrs = original.getTargetsAttr())
    for (Attribute attr : attrs) {
      auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr);
      if (!nvvm)
        return original.emitError()
               << "mlxc-grid-dependent-launch: a target that is not NVVM: "
               << attr;
      targets.push_back(NVVM::NVVMTargetAttr::get(
          original.getContext(), nvvm.getO(), nvvm.getTriple(), chip,
          nvvm.getFeatures(), nvvm.getFlags(), nvvm.getLink(),
          nvvm.getVerifyTarget()));
    }
  if (targets.empty())
    return original.emitError()
           << "mlxc-grid-dependent-launch: the module has no NVVM target";
  OpBuilder b(original->getContext());
  b.setInsertionPointAfter(original);
  auto variant = cast<gpu::GPUModuleOp>(b.clone(*original));
  variant.setName((original.getName() + "_" + chip).str());
  variant.setTargetsAttr(b.getArrayAttr(targets));
  SmallVector<StringRef> dependent;
  for (auto func : variant.getOps<LLVM::LLVMFuncOp>()) {
    if (!isKernel(func))
      continue;
    auto it =
        launchThreads.find((original.getName() + "::" + func.getName()).str());
    bool waits = false;
    func.walk([&](NVVM::GriddepcontrolOp op) {
      waits |= op.getKind() == NVVM::GridDepActionKind::wait;
    });
    if (it == launchThreads.end() || it->second > kMaxDependentThreads) {
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
  addKernelList(variant, dependent);
  return success();
}

struct MlxcGridDependentLaunchPass final
    : mlx::impl::MlxcGridDependentLaunchBase<MlxcGridDependentLaunchPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> modules(module.getOps<gpu::GPUModuleOp>());
    llvm::StringMap<int64_t> launchThreads = getLaunchThreads(module);
    for (gpu::GPUModuleOp gpuModule : modules) {
      if (!chip.empty() && failed(addVariant(gpuModule, chip, launchThreads)))
        return signalPassFailure();
      gpuModule.walk([](NVVM::GriddepcontrolOp op) { op.erase(); });
      addKernelList(gpuModule, {});
    }
  }
};

} // namespace
