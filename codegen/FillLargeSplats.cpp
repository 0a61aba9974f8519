//===- FillLargeSplats.cpp - the mlxc-fill-large-splats pass --------------===//
//
// A splat constant that fusion left as a tensor of its own (the ones of a
// mask read by a product, `mx.full` returned as an output, zeros beside a
// concatenate) would be stored whole in the program and copied into its
// buffer. A large one becomes a `linalg.fill` of a `tensor.empty`: the
// program holds one value, and the fill is a kernel like any other map.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCFILLLARGESPLATS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

namespace {

/// Splats of more elements than this become fills; smaller ones stay
/// constants (a few KiB in the program, no kernel).
constexpr int64_t kMaxStoredSplat = 4096;

struct FillLargeSplats final
    : mlx::impl::MlxcFillLargeSplatsBase<FillLargeSplats> {
  void runOnOperation() override {
    SmallVector<arith::ConstantOp> splats;
    getOperation()->walk([&](arith::ConstantOp op) {
      auto type = dyn_cast<RankedTensorType>(op.getType());
      auto value = dyn_cast<SplatElementsAttr>(op.getValue());
      if (type && value && type.hasStaticShape() &&
          type.getNumElements() > kMaxStoredSplat)
        splats.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (arith::ConstantOp op : splats) {
      auto type = cast<RankedTensorType>(op.getType());
      auto value = cast<SplatElementsAttr>(op.getValue());
      rewriter.setInsertionPoint(op);
      Location loc = op.getLoc();
      Value scalar = arith::ConstantOp::create(
          rewriter, loc, cast<TypedAttr>(value.getSplatValue<Attribute>()));
      Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                            type.getElementType());
      rewriter.replaceOp(
          op, linalg::FillOp::create(rewriter, loc, scalar, empty).result());
    }
  }
};

} // namespace
