//===- Target.cpp - the machine a module is compiled for ------------------===//

#include "Kernel/Target.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace mlir::kernel;

std::optional<SmArch> kernel::parseSmArch(llvm::StringRef arch) {
  llvm::StringRef digits = arch;
  if (!digits.consume_front("sm_"))
    return std::nullopt;
  bool archSpecific = digits.consume_back("a");
  unsigned number;
  if (digits.getAsInteger(10, number) || number < 10)
    return std::nullopt;
  return SmArch{number, archSpecific};
}

unsigned TargetAttr::getChip() const {
  std::optional<SmArch> arch = parseSmArch(getArch());
  return isCuda() && arch ? arch->number : 70;
}

LogicalResult
TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                   Backend backend, StringRef arch, int64_t sms,
                   int64_t maxCluster) {
  if (backend == Backend::Cpu) {
    if (arch != "sm_70" || maxCluster != 0)
      return emitError() << "a cpu target has no arch or max_cluster";
  } else {
    std::optional<SmArch> parsed = parseSmArch(arch);
    // ptxas builds cubins for sm_75 and newer; sm_70 is the PTX.
    if (!parsed || (parsed->number != 70 && parsed->number < 75))
      return emitError() << "arch must be sm_70 (PTX only) or sm_75 or "
                            "newer, got '"
                         << arch << "'";
    if (maxCluster < 0 || maxCluster > 16 ||
        (maxCluster > 1 && parsed->number < 90))
      return emitError() << "max_cluster " << maxCluster
                         << " needs sm_90 or newer and at most 16 blocks";
  }
  if (sms < 1 || sms > 4096)
    return emitError() << "sms must be in [1, 4096], got " << sms;
  return success();
}

FailureOr<TargetAttr> kernel::buildTarget(MLIRContext *context,
                                          const TargetOptions &options,
                                          std::string &error) {
  if (options.backend == "cpu")
    return TargetAttr::get(context, Backend::Cpu, "sm_70", 132, 0);
  if (options.backend != "cuda") {
    error = "unknown --target=" + options.backend + " (expected cpu or cuda)";
    return failure();
  }
  std::optional<SmArch> arch = parseSmArch(options.arch);
  if (!arch || (arch->number != 70 && arch->number < 75)) {
    error = "--gpu-arch must be sm_70 (PTX only) or sm_75 or newer (PTX and "
            "a cubin), got '" +
            options.arch + "'";
    return failure();
  }
  // Clusters come with the kernels lowered again for sm_90 and newer.
  int64_t maxCluster =
      options.clusters && arch->number >= 90 ? kMaxPortableClusterSize : 0;
  return TargetAttr::get(context, Backend::Cuda, options.arch, 132,
                         maxCluster);
}

TargetAttr kernel::getTarget(Operation *op) {
  for (; op; op = op->getParentOp())
    if (isa<ModuleOp>(op))
      if (auto target = op->getAttrOfType<TargetAttr>(kTargetAttrName))
        return target;
  return {};
}

TargetAttr kernel::getTargetOr(Operation *op, Backend fallback) {
  if (TargetAttr target = getTarget(op))
    return target;
  return TargetAttr::get(op->getContext(), fallback, "sm_70", 132, 0);
}

void kernel::setTarget(ModuleOp module, TargetAttr target) {
  module->setAttr(kTargetAttrName, target);
}
