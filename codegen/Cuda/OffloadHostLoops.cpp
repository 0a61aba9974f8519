//===- OffloadHostLoops.cpp - the mlxc-offload-host-loops pass ------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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
      for (Operation &op : llvm::make_early_inc_range(func.getBody().front())) {
        if (op.getNumResults() != 0 || isa<scf::ParallelOp>(op) ||
            !isa<scf::ForOp, memref::StoreOp, memref::CopyOp>(op) ||
            !touchesMemory(&op))
          continue;
        // A store also takes the loads and arithmetic that only feed it
        // (the whole body of a 0-d elementwise op).
        SmallVector<Operation *> slice = {&op};
        llvm::SmallPtrSet<Operation *, 8> inSlice = {&op};
        for (size_t i = 0; i < slice.size(); ++i) {
          for (Value operand : slice[i]->getOperands()) {
            Operation *def = operand.getDefiningOp();
            if (!def || def->getBlock() != op.getBlock() ||
                inSlice.contains(def) || def->getNumRegions() != 0 ||
                def->hasTrait<OpTrait::ConstantLike>() ||
                !(isa<memref::LoadOp>(def) || isPure(def)) ||
                isa<memref::ViewOp, memref::ExpandShapeOp,
                    memref::CollapseShapeOp, memref::SubViewOp>(def))
              continue;
            if (llvm::any_of(def->getUsers(), [&](Operation *user) {
                  return !inSlice.contains(user);
                }))
              continue;
            // A load moves down to the store: nothing in between may write.
            if (isa<memref::LoadOp>(def)) {
              bool clobbered = false;
              for (Operation *it = def->getNextNode(); it && it != &op;
                   it = it->getNextNode())
                clobbered |= !isPure(it) && !inSlice.contains(it);
              if (clobbered)
                continue;
            }
            slice.push_back(def);
            inSlice.insert(def);
          }
        }
        llvm::sort(slice, [](Operation *a, Operation *b) {
          return a->isBeforeInBlock(b);
        });
        // The loop goes where the store is, so every value the slice uses
        // from outside is defined before it.
        OpBuilder b(&op);
        Location loc = op.getLoc();
        Value zero = arith::ConstantIndexOp::create(b, loc, 0);
        Value one = arith::ConstantIndexOp::create(b, loc, 1);
        auto loop = scf::ParallelOp::create(b, loc, ValueRange{zero},
                                            ValueRange{one}, ValueRange{one});
        for (Operation *moved : slice)
          moved->moveBefore(loop.getBody()->getTerminator());
      }
    });
  }
};
} // namespace
