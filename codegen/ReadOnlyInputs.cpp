//===- ReadOnlyInputs.cpp - the mlxc-read-only-inputs pass ----------------===//

#include "codegen/Passes.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCREADONLYINPUTS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

namespace {
struct MlxcReadOnlyInputsPass final
    : mlx::impl::MlxcReadOnlyInputsBase<MlxcReadOnlyInputsPass> {
  using Base::Base;
  void runOnOperation() override {
    auto readOnly = BoolAttr::get(&getContext(), false);
    getOperation().walk([&](func::FuncOp func) {
      if (func.isExternal())
        return;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        if (isa<TensorType>(func.getArgument(i).getType()))
          func.setArgAttr(i, "bufferization.writable", readOnly);
    });
  }
};
} // namespace
