//===- FoldProductTransposes.cpp - the mlxc-fold-product-transposes pass --===//
//
// On the CPU, a product of a transposed operand (x @ w.T, every nn.Linear)
// copied the whole weight into a transposed buffer on every call before its
// loops. The loops read the weight through a transposed view instead; the
// copy goes. (CUDA does the same through cuBLASLt's transpose flag, in
// mlxc-matmul-to-runtime.)
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/ProductOperands.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCFOLDPRODUCTTRANSPOSES
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

/// Erases an allocation that only views (unused) and its dealloc use.
static void eraseIfDead(Value buffer) {
  auto alloc = buffer.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return;
  SmallVector<Operation *> users;
  SmallVector<Value> worklist = {alloc.getResult()};
  while (!worklist.empty()) {
    for (Operation *user : worklist.pop_back_val().getUsers()) {
      if (!isa<memref::DeallocOp, memref::ExpandShapeOp,
               memref::CollapseShapeOp>(user))
        return;
      users.push_back(user);
      if (user->getNumResults())
        worklist.push_back(user->getResult(0));
    }
  }
  for (Operation *user : llvm::reverse(users))
    user->erase();
  alloc.erase();
}

namespace {
struct MlxcFoldProductTransposesPass final
    : mlx::impl::MlxcFoldProductTransposesBase<MlxcFoldProductTransposesPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> products;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) &&
          op.hasPureBufferSemantics())
        products.push_back(op);
    });
    for (linalg::LinalgOp product : products) {
      for (OpOperand *input : product.getDpsInputOperands()) {
        auto transpose = dyn_cast_or_null<linalg::TransposeOp>(
            mlx::getFoldableCopy(input->get(), product).getOperation());
        if (!transpose)
          continue;
        OpBuilder b(product);
        SmallVector<Operation *> created;
        Value view =
            mlx::buildTransposedView(b, transpose, input->get(), created);
        // Only the layout may differ: the product takes the strided view.
        if (!view || cast<MemRefType>(view.getType()).getShape() !=
                         cast<MemRefType>(input->get().getType()).getShape()) {
          for (Operation *dead : llvm::reverse(created))
            dead->erase();
          continue;
        }
        Value copied = input->get();
        input->set(view);
        transpose.erase();
        eraseIfDead(mlx::getRootBuffer(copied));
      }
    }
  }
};
} // namespace
