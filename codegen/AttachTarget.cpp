//===- AttachTarget.cpp - mlxc-attach-target ------------------------------===//
//
// Sets the module's kernel.target from mlxc's flags, so that mlx-opt runs a
// pass or a phase for the target mlxc would.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "Kernel/Target.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCATTACHTARGET
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

namespace {
struct MlxcAttachTargetPass final
    : mlx::impl::MlxcAttachTargetBase<MlxcAttachTargetPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string error;
    FailureOr<kernel::TargetAttr> built =
        kernel::buildTarget(&getContext(), {target, gpuArch, clusters}, error);
    if (failed(built)) {
      module.emitError() << "mlxc-attach-target: " << error;
      return signalPassFailure();
    }
    kernel::TargetAttr attr = *built;
    if (maxCluster >= 0 || sms > 0) {
      attr = kernel::TargetAttr::getChecked(
          [&] { return module.emitError() << "mlxc-attach-target: "; },
          &getContext(), attr.getBackend(), attr.getArch(),
          sms > 0 ? int64_t(sms) : attr.getSms(),
          maxCluster >= 0 ? int64_t(maxCluster) : attr.getMaxCluster());
      if (!attr)
        return signalPassFailure();
    }
    kernel::setTarget(module, attr);
  }
};
} // namespace
