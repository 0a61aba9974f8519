//===- TileParallelLoops.cpp - the mlxc-tile-parallel-loops pass ----------===//

#include "codegen/Passes.h"
#include "Mlx/MlxAttributes.h"

#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <numeric>

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCTILEPARALLELLOOPS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

namespace {
struct MlxcTileParallelLoopsPass final
    : mlx::impl::MlxcTileParallelLoopsBase<MlxcTileParallelLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (blockSize < 1 || blockSize > 1024) {
      getOperation()->emitError() << "block-size must be in [1, 1024], got "
                                  << static_cast<int64_t>(blockSize);
      return signalPassFailure();
    }
    SmallVector<scf::ParallelOp> outermost;
    getOperation()->walk([&](scf::ParallelOp op) {
      if (!op->getParentOfType<scf::ParallelOp>() &&
          !op->hasAttr(mlx::attrs::kRowReduction))
        outermost.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp op : outermost) {
      scf::ParallelOp loop = op;
      if (loop.getNumLoops() > 1) {
        // collapseParallelLoops builds a new loop in place of the old one;
        // find it among the loops of the block.
        Block *block = loop->getBlock();
        llvm::SmallPtrSet<Operation *, 8> before;
        for (auto other : block->getOps<scf::ParallelOp>())
          before.insert(other);
        std::vector<unsigned> all(loop.getNumLoops());
        std::iota(all.begin(), all.end(), 0);
        rewriter.setInsertionPoint(loop);
        collapseParallelLoops(rewriter, loop, {all});
        scf::ParallelOp collapsed;
        for (auto other : block->getOps<scf::ParallelOp>())
          if (!before.contains(other))
            collapsed = other;
        if (!collapsed) {
          op->emitError() << "could not collapse the parallel loop";
          return signalPassFailure();
        }
        loop = collapsed;
      }
      scf::tileParallelLoop(loop, {static_cast<int64_t>(blockSize)},
                            /*noMinMaxBounds=*/false);
    }
    // Fold the collapsed bounds into constants for convert-parallel-loops-
    // to-gpu. Only folding: canonicalization would merge the tile loops
    // back into one nest and leave one thread per block.
    if (failed(
            applyPatternsGreedily(getOperation(), FrozenRewritePatternSet())))
      return signalPassFailure();
  }
};
} // namespace
