//===- QuantizedProducts.cpp - the mlxc-quantized-products pass -----------===//
//
// Kernel formation decides how a quantized product is computed: as one
// kernel that reads the packed words where they lie (the op stays, and
// mlxc-form-kernels gives it a `quantized_product` region), or, where the
// target has no such kernel, as MLX's own CPU path computes it: the
// dequantized matrix, then a product.
//
//===----------------------------------------------------------------------===//

#include "codegen/Kernels/QuantizedProducts.h"

#include "Kernel/Target.h"
#include "codegen/MlxToLinalg/MlxToLinalg.h"
#include "codegen/Passes.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCQUANTIZEDPRODUCTS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

bool mlx::canLowerQuantizedProduct(kernel::QuantizedMatmulOp op,
                                   kernel::TargetAttr target) {
  if (!target.isCuda() || op.getNumResults() != 1)
    return false;
  auto elementOf = [](Value v) {
    return cast<ShapedType>(v.getType()).getElementType();
  };
  auto supported = [](Type t) { return t.isBF16() || t.isF16() || t.isF32(); };
  int64_t rows = op.getRows();
  return rows >= 1 && rows <= kMaxQuantizedRows && op.getColumns() >= 1 &&
         supported(elementOf(op.getX())) &&
         supported(elementOf(op.getScales())) &&
         supported(elementOf(op.getInit()));
}

namespace {
struct MlxcQuantizedProductsPass final
    : mlx::impl::MlxcQuantizedProductsBase<MlxcQuantizedProductsPass> {
  using Base::Base;
  void runOnOperation() override {
    kernel::TargetAttr target =
        kernel::getTargetOr(getOperation(), kernel::Backend::Cpu);
    SmallVector<kernel::QuantizedMatmulOp> products;
    getOperation()->walk([&](kernel::QuantizedMatmulOp op) {
      if (op.getNumResults() == 1 && !mlx::canLowerQuantizedProduct(op, target))
        products.push_back(op);
    });
    for (kernel::QuantizedMatmulOp op : products) {
      OpBuilder b(op);
      Value product = mlx::lowering::buildQuantizedMatmul(b, op);
      op.getResult().front().replaceAllUsesWith(product);
      Operation *init = op.getInit().getDefiningOp();
      op.erase();
      if (init && isa<tensor::EmptyOp>(init) && init->use_empty())
        init->erase();
    }
  }
};
} // namespace
