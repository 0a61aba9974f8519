//===- ChipVariants.cpp - the mlxc-chip-variants pass ---------------------===//
//
// The executable's PTX targets sm_70, so that every GPU from Volta on runs
// it. A cubin for a newer chip assembled from that PTX inherits its sm_70
// code: bf16 conversions as integer rounding sequences (six instructions
// where sm_80 has one cvt.rn.bf16.f32) and bf16 arithmetic through f32
// (sm_80 has sub.rn.bf16 and mul.rn.bf16). This pass clones each
// lowered gpu.module as `<module>_<chip>` targeting the cubin's chip, so
// NVPTX lowers the same LLVM dialect for that chip; mlxc-grid-dependent-
// launch then specializes the clone for sm_90, and mlxc-embed-cubin builds
// the cubin from the clone's PTX and drops the clone.
//
//===----------------------------------------------------------------------===//

#include "codegen/Cuda/Arch.h"
#include "codegen/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCCHIPVARIANTS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

unsigned mlx::getModuleChip(gpu::GPUModuleOp module) {
  unsigned chip = 0;
  if (ArrayAttr targets = module.getTargetsAttr())
    for (Attribute attr : targets)
      if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr))
        if (std::optional<SmArch> arch = parseSmArch(nvvm.getChip()))
          chip = chip ? std::min(chip, arch->number) : arch->number;
  return chip;
}

namespace {

/// `module`'s targets with their chip replaced by `chip`; failure (with a
/// diagnostic) for a target that is not NVVM or no target at all.
FailureOr<ArrayAttr> retarget(gpu::GPUModuleOp module, StringRef chip) {
  SmallVector<Attribute> targets;
  if (ArrayAttr attrs = module.getTargetsAttr())
    for (Attribute attr : attrs) {
      auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr);
      if (!nvvm)
        return module.emitError()
               << "mlxc-chip-variants: a target that is not NVVM: " << attr;
      targets.push_back(NVVM::NVVMTargetAttr::get(
          module.getContext(), nvvm.getO(), nvvm.getTriple(), chip,
          nvvm.getFeatures(), nvvm.getFlags(), nvvm.getLink(),
          nvvm.getVerifyTarget()));
    }
  if (targets.empty())
    return module.emitError()
           << "mlxc-chip-variants: the module has no NVVM target";
  return ArrayAttr::get(module.getContext(), targets);
}

struct MlxcChipVariantsPass final
    : mlx::impl::MlxcChipVariantsBase<MlxcChipVariantsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (chip.empty())
      return;
    ModuleOp module = getOperation();
    std::optional<mlx::SmArch> parsed = mlx::parseSmArch(chip);
    if (!parsed || parsed->number < 75) {
      module.emitError() << "mlxc-chip-variants: chip must be sm_75 or newer, "
                            "got '"
                         << chip << "'";
      return signalPassFailure();
    }
    SmallVector<gpu::GPUModuleOp> modules(module.getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp original : modules) {
      FailureOr<ArrayAttr> targets = retarget(original, chip);
      if (failed(targets))
        return signalPassFailure();
      OpBuilder b(original);
      b.setInsertionPointAfter(original);
      auto variant = cast<gpu::GPUModuleOp>(b.clone(*original));
      variant.setName((original.getName() + "_" + chip).str());
      variant.setTargetsAttr(*targets);
    }
  }
};

} // namespace
