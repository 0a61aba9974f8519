//===- OffloadHostLoops.cpp - the mlxc-offload-host-loops pass ------------===//

#include "codegen/Passes.h"
#include "codegen/ProductOperands.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
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
/// input), with the pure ops that carry it there (index arithmetic, the
/// subview of a window written at that offset): each kernel (a parallel
/// loop, or a launch built earlier: split-key attention's cache window)
/// loads and computes them itself, so that host code reads no buffer (in the
/// runtime's copy mode, buffers are device memory the host cannot read).
/// Only when nothing between the load and the kernel may write memory and
/// the kernel writes nothing of that buffer.
static void sinkLoadIntoKernels(memref::LoadOp load) {
  Block *block = load->getBlock();
  // The slice: the load and the top-level pure ops fed from it.
  SmallVector<Operation *> slice = {load};
  llvm::SmallPtrSet<Operation *, 8> inSlice = {load};
  SmallVector<Operation *> kernels;
  for (size_t i = 0; i < slice.size(); ++i) {
    for (Operation *user : slice[i]->getUsers()) {
      if (inSlice.contains(user))
        continue;
      Operation *top = block->findAncestorOpInBlock(*user);
      if (top == user && user->getNumRegions() == 0 &&
          (isPure(user) || isa<ViewLikeOpInterface>(user))) {
        slice.push_back(user);
        inSlice.insert(user);
        continue;
      }
      if (!isa_and_nonnull<scf::ParallelOp, gpu::LaunchOp>(top) || top == user)
        return;
      Operation *kernel = top;
      if (!llvm::is_contained(kernels, kernel))
        kernels.push_back(kernel);
    }
  }
  if (kernels.empty())
    return;
  // In block order, so that each clone finds its operands already cloned
  // (or defined before the kernel).
  llvm::sort(slice,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  Value root = mlx::getRootBuffer(load.getMemRef());
  // A graph input (not an output, nor an input an output may share: see
  // mlxc-plan-in-place-outputs) is written by no library call: the kernels
  // in between only need to leave it alone.
  bool isInput = mlx::isGraphInput(root);
  for (Operation *kernel : kernels) {
    for (Operation *it = load->getNextNode(); it != kernel;
         it = it->getNextNode()) {
      if (isPure(it) ||
          isa<memref::LoadOp, memref::AllocOp, memref::DeallocOp>(it) ||
          isa<ViewLikeOpInterface>(it))
        continue;
      if (!isInput ||
          !isa<scf::ParallelOp, scf::IfOp, gpu::LaunchOp, func::CallOp>(it) ||
          (it->getNumRegions() && mlx::mayWrite(it, root)))
        return;
    }
    if (mlx::mayWrite(kernel, root))
      return;
  }
  for (Operation *kernel : kernels) {
    OpBuilder b = OpBuilder::atBlockBegin(&kernel->getRegion(0).front());
    IRMapping mapping;
    SmallVector<Operation *> clones;
    for (Operation *op : slice)
      clones.push_back(b.clone(*op, mapping));
    for (Operation *op : slice)
      for (Value result : op->getResults())
        result.replaceUsesWithIf(mapping.lookup(result), [&](OpOperand &use) {
          return kernel->isProperAncestor(use.getOwner());
        });
    // What this kernel does not use (another kernel's window) goes.
    for (Operation *clone : llvm::reverse(clones))
      if (clone->use_empty())
        clone->erase();
  }
  for (Operation *op : llvm::reverse(slice))
    op->erase();
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
        // The host's own stack (the address arrays of mlxrt_matmul's
        // grouped products) is no memory of the GPU.
        if (auto store = dyn_cast<memref::StoreOp>(op);
            store && store.getMemRef().getDefiningOp<memref::AllocaOp>())
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
