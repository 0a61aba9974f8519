//===- OffloadHostLoops.cpp - the mlxc-offload-host-loops pass ------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCOFFLOADHOSTLOOPS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

/// Whether `op` reads or writes buffer memory (itself or inside).
static bool touchesMemory(Operation *op) {
  bool touches = false;
  op->walk([&](Operation *nested) {
    if (isa<memref::LoadOp, memref::StoreOp, memref::CopyOp>(nested))
      touches = true;
  });
  return touches;
}

namespace {
struct MlxcOffloadHostLoopsPass final
    : mlx::impl::MlxcOffloadHostLoopsBase<MlxcOffloadHostLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation()->walk([&](func::FuncOp func) {
      if (func.isExternal())
        return;
      for (Operation &op :
           llvm::make_early_inc_range(func.getBody().front())) {
        if (op.getNumResults() != 0 || isa<scf::ParallelOp>(op) ||
            !isa<scf::ForOp, memref::StoreOp, memref::CopyOp>(op) ||
            !touchesMemory(&op))
          continue;
        OpBuilder b(&op);
        Location loc = op.getLoc();
        Value zero = arith::ConstantIndexOp::create(b, loc, 0);
        Value one = arith::ConstantIndexOp::create(b, loc, 1);
        auto loop = scf::ParallelOp::create(b, loc, ValueRange{zero},
                                            ValueRange{one}, ValueRange{one});
        op.moveBefore(loop.getBody()->getTerminator());
      }
    });
  }
};
} // namespace
