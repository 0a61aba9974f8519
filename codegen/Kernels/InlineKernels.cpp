//===- InlineKernels.cpp - the mlxc-inline-kernels pass
//--------------------===//
//
// Bufferization works on plain linalg, so the kernel regions are inlined
// before it. The grouping survives as discardable attributes on every op
// that was inside a region (bufferization keeps them on the linalg ops): the
// kernel's number within its function and its strategy.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "Kernel/KernelOps.h"

#include "mlir/IR/Builders.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCINLINEKERNELS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

namespace {
struct MlxcInlineKernelsPass final
    : mlx::impl::MlxcInlineKernelsBase<MlxcInlineKernelsPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation()->walk([](func::FuncOp func) {
      int64_t next = 0;
      Builder b(func.getContext());
      func.walk([&](kernel::RegionOp region) {
        IntegerAttr id = b.getI64IntegerAttr(next++);
        StringAttr strategy =
            b.getStringAttr(kernel::stringifyStrategy(region.getStrategy()));
        Block &body = region.getBody().front();
        auto yield = cast<kernel::YieldOp>(body.getTerminator());
        for (auto [arg, input] :
             llvm::zip(body.getArguments(), region.getInputs()))
          arg.replaceAllUsesWith(input);
        for (Operation &op :
             llvm::make_early_inc_range(body.without_terminator())) {
          if (!op.hasTrait<OpTrait::ConstantLike>()) {
            op.setAttr(kernel::kKernelIdAttr, id);
            op.setAttr(kernel::kKernelStrategyAttr, strategy);
          }
          op.moveBefore(region);
        }
        region.replaceAllUsesWith(yield.getValues());
        region.erase();
      });
      // CSE made one tensor.empty of each shape the destination of every op
      // that writes that shape. One-shot bufferization's conflict analysis
      // is quadratic in the uses of a value: 500 products sharing one empty
      // tensor took 80 s. Each use gets its own.
      func.walk([](tensor::EmptyOp empty) {
        // (An unused one, left by a graph of empty arrays, keeps its none.)
        SmallVector<OpOperand *> uses = llvm::map_to_vector(
            empty->getUses(), [](OpOperand &use) { return &use; });
        for (size_t i = 1; i < uses.size(); ++i) {
          OpBuilder b(uses[i]->getOwner());
          uses[i]->set(cast<tensor::EmptyOp>(b.clone(*empty)).getResult());
        }
      });
    });
  }
};
} // namespace
