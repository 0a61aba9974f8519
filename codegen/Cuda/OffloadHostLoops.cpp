//===- OffloadHostLoops.cpp - the mlxc-offload-host-loops pass ------------===//

#include "codegen/Passes.h"
#include "codegen/ProductOperands.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

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

/// A scalar the host loads only for kernels (an offset read from a 0-d
/// input): each kernel loads it itself, so that host code reads no buffer
/// (in the runtime's copy mode, buffers are device memory the host cannot
/// read). Only when nothing between the load and the kernel may write
/// memory and the kernel writes nothing of that buffer.
static void sinkLoadIntoKernels(memref::LoadOp load) {
  Block *block = load->getBlock();
  SmallVector<scf::ParallelOp> kernels;
  for (Operation *user : load->getUsers()) {
    Operation *top = block->findAncestorOpInBlock(*user);
    auto kernel = dyn_cast_or_null<scf::ParallelOp>(top);
    if (!kernel || kernel == user)
      return;
    if (!llvm::is_contained(kernels, kernel))
      kernels.push_back(kernel);
  }
  Value root = mlx::getRootBuffer(load.getMemRef());
  for (scf::ParallelOp kernel : kernels) {
    for (Operation *it = load->getNextNode(); it != kernel.getOperation();
         it = it->getNextNode())
      if (!isPure(it) && !isa<memref::LoadOp>(it) &&
          !isa<ViewLikeOpInterface>(it))
        return;
    WalkResult writes = kernel->walk([&](Operation *op) {
      Value written;
      if (auto store = dyn_cast<memref::StoreOp>(op))
        written = store.getMemRef();
      else if (auto copy = dyn_cast<memref::CopyOp>(op))
        written = copy.getTarget();
      else if (!isPure(op) && !isa<memref::LoadOp>(op) &&
               !isa<ViewLikeOpInterface>(op) && op != kernel.getOperation() &&
               op->getNumRegions() == 0 && !op->hasTrait<OpTrait::IsTerminator>())
        return WalkResult::interrupt();
      return written && mlx::getRootBuffer(written) == root ? WalkResult::interrupt()
                                                 : WalkResult::advance();
    });
    if (writes.wasInterrupted())
      return;
  }
  for (scf::ParallelOp kernel : kernels) {
    OpBuilder b = OpBuilder::atBlockBegin(kernel.getBody());
    Operation *copy = b.clone(*load);
    load.getResult().replaceUsesWithIf(copy->getResult(0), [&](OpOperand &use) {
      return kernel->isProperAncestor(use.getOwner());
    });
  }
  load.erase();
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
      for (auto load : llvm::make_early_inc_range(
               func.getBody().front().getOps<memref::LoadOp>()))
        sinkLoadIntoKernels(load);
    });
  }
};
} // namespace
