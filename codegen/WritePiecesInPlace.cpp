//===- WritePiecesInPlace.cpp - the mlxc-write-pieces-in-place pass -------===//
//
// A piece inserted into a larger tensor (a half of a RoPE rotation into its
// concatenation, a new key row into a KV cache) should be written where it
// goes, not into a buffer of its own that a copy kernel then moves.
// Upstream eliminate-empty-tensors does that for the first insertion only:
// it needs the destination to exist where the piece is computed, and the
// second half's destination is the first half's insertion, made after it;
// a cache copied from an input after the piece was computed does not exist
// there either.
//
// Here the op that computes the piece (an op whose destination is a
// tensor.empty its body never reads) gets as destination the piece's window
// of the chain's root: the tensor the chain of insertions starts from. The
// ops that make the root and the window's offsets (the cache copy, the
// offset read from an input) move above the op when they do not depend on
// it and have no side effects. The destination of an op that does not read
// it does not change its results, so the IR means the same; one-shot
// bufferization then writes the piece in place.
//
//===----------------------------------------------------------------------===//

#include "codegen/Hoist.h"
#include "codegen/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCWRITEPIECESINPLACE
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

namespace {

/// The root of the chain of insertions that `dest` ends: the first
/// destination that is not an insertion made after `producer`.
Value getChainRoot(Value dest, Operation *producer) {
  while (auto insert = dest.getDefiningOp<tensor::InsertSliceOp>()) {
    if (insert->getBlock() != producer->getBlock() ||
        insert->isBeforeInBlock(producer))
      break;
    dest = insert.getDest();
  }
  return dest;
}

/// Makes the producer of `insert`'s source write into the source's window
/// of the chain's root.
void writeInPlace(tensor::InsertSliceOp insert) {
  auto result = dyn_cast<OpResult>(insert.getSource());
  if (!result || !result.hasOneUse())
    return;
  auto producer = dyn_cast<DestinationStyleOpInterface>(result.getOwner());
  if (!producer || producer->getBlock() != insert->getBlock() ||
      !producer.hasPureTensorSemantics())
    return;
  OpOperand *init = producer.getTiedOpOperand(result);
  auto empty = init->get().getDefiningOp<tensor::EmptyOp>();
  auto linalgOp = dyn_cast<linalg::LinalgOp>(producer.getOperation());
  if (!empty || !linalgOp || linalgOp.payloadUsesValueFromOperand(init))
    return;
  Value root = getChainRoot(insert.getDest(), producer);
  SmallVector<Value> needed = {root};
  llvm::append_range(needed, insert.getOffsets());
  if (!mlx::hoistAbove(needed, producer))
    return;
  OpBuilder b(producer);
  auto window = tensor::ExtractSliceOp::create(
      b, insert.getLoc(), insert.getSourceType(), root,
      insert.getMixedOffsets(), insert.getMixedSizes(),
      insert.getMixedStrides());
  init->set(window);
}

struct MlxcWritePiecesInPlacePass final
    : mlx::impl::MlxcWritePiecesInPlaceBase<MlxcWritePiecesInPlacePass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<tensor::InsertSliceOp> inserts;
    getOperation()->walk([&](func::FuncOp func) {
      if (func.isExternal())
        return;
      for (Operation &op : func.getBody().front())
        if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
          inserts.push_back(insert);
    });
    for (tensor::InsertSliceOp insert : inserts)
      writeInPlace(insert);
  }
};

} // namespace
