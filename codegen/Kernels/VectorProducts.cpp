//===- VectorProducts.cpp - the mlxc-vector-products pass -----------------===//
//
// A product with few rows (a decode step: one token times each weight) is
// bound by reading its right-hand side once. Where that operand is stored
// with the reduced axis innermost (x @ w.T, every nn.Linear; q @ k.T), each
// output element is the dot product of one stored row with a row of the
// left-hand side: the product is a row reduction over the stored rows. As
// such it becomes a `row_reduction` kernel (mlxc-form-kernels), read at the
// memory floor by the row kernels, its epilogue (the cast, a residual add)
// fused; cuBLASLt's small-N kernels read such weights at well under half the
// floor (H200, Nsight Compute: 24 nvjet 64x8 launches, 1.4-1.9 TB/s).
//
// The product is rewritten as a linalg.generic that reads the transposed (or
// broadcast) operand's source through its indexing map: the transpose and
// broadcast copies are never made.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/ShapeUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCVECTORPRODUCTS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

/// Rows of the left-hand side (per batch) up to which a product is a row
/// reduction. Each output row reads the stored operand once more (from L2
/// when it is small), so more than one row only when it is small.
static constexpr int64_t kMaxRows = 4;
static constexpr int64_t kMaxRereadBytes = 4 << 20;

namespace {

/// An input of the product as the generic will read it: `source` through
/// `map` (over the product's loops).
struct Operand {
  Value source;
  AffineMap map;
};

/// A generic that only moves the elements of its one input: all loops
/// parallel, the output written through a permutation, the body yielding
/// the input element.
bool isElementMove(linalg::GenericOp generic) {
  if (generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1 ||
      generic.getNumReductionLoops() != 0 ||
      !generic.getIndexingMapsArray().back().isPermutation())
    return false;
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  return yield.getNumOperands() == 1 &&
         yield.getOperand(0) == generic.getBody()->getArgument(0);
}

/// Reads `operand` (read through `map`) from the source of the transposes
/// and broadcasts that make it.
Operand lookThroughCopies(Value operand, AffineMap map) {
  for (;;) {
    if (auto transpose = operand.getDefiningOp<linalg::TransposeOp>()) {
      // Result dim i is input dim permutation[i].
      ArrayRef<int64_t> permutation = transpose.getPermutation();
      SmallVector<AffineExpr> exprs(permutation.size());
      for (auto [i, p] : llvm::enumerate(permutation))
        exprs[p] = map.getResult(i);
      operand = transpose.getInput();
      map = AffineMap::get(map.getNumDims(), 0, exprs, map.getContext());
      continue;
    }
    if (auto broadcast = operand.getDefiningOp<linalg::BroadcastOp>()) {
      // The added dims are not read.
      ArrayRef<int64_t> added = broadcast.getDimensions();
      SmallVector<AffineExpr> exprs;
      for (auto [i, expr] : llvm::enumerate(map.getResults()))
        if (!llvm::is_contained(added, int64_t(i)))
          exprs.push_back(expr);
      operand = broadcast.getInput();
      map = AffineMap::get(map.getNumDims(), 0, exprs, map.getContext());
      continue;
    }
    if (auto generic = operand.getDefiningOp<linalg::GenericOp>();
        generic && isElementMove(generic)) {
      // A broadcast or permutation written as a generic (MLX's
      // broadcast_to): read its input through both maps.
      AffineMap output = generic.getIndexingMapsArray().back();
      AffineMap input = generic.getIndexingMapsArray().front();
      operand = generic.getDpsInputs()[0];
      map = input.compose(inversePermutation(output)).compose(map);
      continue;
    }
    if (auto collapse = operand.getDefiningOp<tensor::CollapseShapeOp>()) {
      // Each result dim is one group of source dims; a group with one
      // non-unit dim reads it through the result's expression (unit dims
      // at 0). Merged non-unit dims are not followed.
      ArrayRef<int64_t> shape = collapse.getSrcType().getShape();
      SmallVector<AffineExpr> exprs(shape.size());
      for (auto [j, group] :
           llvm::enumerate(collapse.getReassociationIndices())) {
        if (llvm::count_if(group, [&](int64_t d) { return shape[d] != 1; }) > 1)
          return {operand, map};
        for (int64_t d : group)
          exprs[d] = shape[d] == 1 ? getAffineConstantExpr(0, map.getContext())
                                   : map.getResult(j);
      }
      operand = collapse.getSrc();
      map = AffineMap::get(map.getNumDims(), 0, exprs, map.getContext());
      continue;
    }
    if (auto expand = operand.getDefiningOp<tensor::ExpandShapeOp>()) {
      // Each source dim is one group of result dims: its expression is that
      // of the group's one non-unit dim (0 when all are unit).
      ArrayRef<int64_t> shape = expand.getResultType().getShape();
      SmallVector<AffineExpr> exprs;
      for (ReassociationIndices group : expand.getReassociationIndices()) {
        SmallVector<int64_t> nonUnit;
        for (int64_t d : group)
          if (shape[d] != 1)
            nonUnit.push_back(d);
        if (nonUnit.size() > 1)
          return {operand, map};
        exprs.push_back(nonUnit.empty()
                            ? getAffineConstantExpr(0, map.getContext())
                            : map.getResult(nonUnit.front()));
      }
      operand = expand.getSrc();
      map = AffineMap::get(map.getNumDims(), 0, exprs, map.getContext());
      continue;
    }
    return {operand, map};
  }
}

/// Rewrites `product` as a row reduction when its shape allows it.
void rewriteIfVectorProduct(RewriterBase &rewriter, linalg::LinalgOp product) {
  if (!product.hasPureTensorSemantics() || product.hasDynamicShape())
    return;
  // Loops: [batch,] m, n, k.
  unsigned numLoops = product.getNumLoops();
  SmallVector<int64_t> ranges = product.getStaticLoopRanges();
  int64_t rows = ranges[numLoops - 3];
  AffineExpr reduced = rewriter.getAffineDimExpr(numLoops - 1);
  SmallVector<Operand> inputs;
  for (OpOperand *input : product.getDpsInputOperands()) {
    Operand read =
        lookThroughCopies(input->get(), product.getMatchingIndexingMap(input));
    // Every input reads the reduced axis innermost (a row of its source).
    if (read.map.getNumResults() == 0 ||
        read.map.getResults().back() != reduced)
      return;
    inputs.push_back(read);
  }
  auto reread = cast<ShapedType>(inputs[1].source.getType());
  if (rows > kMaxRows ||
      (rows > 1 &&
       reread.getNumElements() * mlx::getElementBytes(reread.getElementType()) >
           kMaxRereadBytes))
    return;
  FailureOr<linalg::GenericOp> generic =
      linalg::generalizeNamedOp(rewriter, product);
  if (failed(generic))
    return;
  SmallVector<AffineMap> maps = generic->getIndexingMapsArray();
  rewriter.modifyOpInPlace(*generic, [&] {
    for (auto [i, read] : llvm::enumerate(inputs)) {
      generic->setOperand(i, read.source);
      maps[i] = read.map;
    }
    generic->setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
}

struct MlxcVectorProductsPass final
    : mlx::impl::MlxcVectorProductsBase<MlxcVectorProductsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> products;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
        products.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp product : products) {
      rewriter.setInsertionPoint(product);
      rewriteIfVectorProduct(rewriter, product);
    }
    // The copies (and their reshapes) that only fed those products.
    SmallVector<Operation *> dead;
    getOperation()->walk([&](Operation *op) {
      auto generic = dyn_cast<linalg::GenericOp>(op);
      if ((isa<linalg::TransposeOp, linalg::BroadcastOp,
               tensor::CollapseShapeOp, tensor::ExpandShapeOp>(op) ||
           (generic && generic.hasPureTensorSemantics() &&
            isElementMove(generic))) &&
          op->use_empty())
        dead.push_back(op);
    });
    while (!dead.empty()) {
      Operation *op = dead.pop_back_val();
      llvm::SmallSetVector<Operation *, 2> producers;
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp())
          producers.insert(def);
      op->erase();
      for (Operation *def : producers)
        if (def->use_empty() && isMemoryEffectFree(def))
          dead.push_back(def);
    }
  }
};

} // namespace
