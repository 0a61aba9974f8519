//===- ReductionOps.cpp - reductions, scans and softmax -------------------===//

#include "Mlx/MlxOps.h"

using namespace mlir;
using namespace mlir::mlx;

/// The dtype MLX gives a reduction of `dtype` under `rule`.
static Type reduceDtype(ReduceRule rule, Type dtype) {
  MLIRContext *ctx = dtype.getContext();
  switch (rule) {
  case ReduceRule::Accumulate:
    // sum/prod widen small integers and bool to 32 bits (mlx/ops.cpp).
    if (getItemSize(dtype) < 4 &&
        getDtypeCategory(dtype) != DtypeCategory::Float)
      return getDtypeCategory(dtype) == DtypeCategory::Unsigned
                 ? IntegerType::get(ctx, 32, IntegerType::Unsigned)
                 : IntegerType::get(ctx, 32);
    return dtype;
  case ReduceRule::Same:
    return dtype;
  case ReduceRule::Bool:
    return IntegerType::get(ctx, 1);
  case ReduceRule::Float:
    return toInexactType(dtype);
  case ReduceRule::Index:
    return IntegerType::get(ctx, 32, IntegerType::Unsigned);
  }
  llvm_unreachable("unknown reduce rule");
}

LogicalResult mlx::inferReduceResult(std::optional<Location> loc,
                                     StringRef opName, ReduceRule rule, Value x,
                                     std::optional<ArrayRef<int64_t>> axes,
                                     bool keepdims,
                                     SmallVectorImpl<Type> &types) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> reduced;
  if (axes) {
    FailureOr<SmallVector<int64_t>> normalized =
        normalizeAxes(loc, opName, "axes", *axes, type.getRank());
    if (failed(normalized))
      return failure();
    reduced = *normalized;
  } else {
    reduced = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  }
  // MLX's logsumexp refuses any empty array.
  if (opName.ends_with("logsumexp") && type.getNumElements() == 0)
    return emitInferError(loc, opName, "the array is empty");
  Shape shape;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    bool isReduced = llvm::is_contained(reduced, i);
    // As in MLX: an empty axis has no index and no extremum (sum, prod,
    // all, any and mean give their identities or NaN).
    if (isReduced && type.getDimSize(i) == 0) {
      if (rule == ReduceRule::Index)
        return emitInferError(loc, opName,
                              "cannot reduce an empty axis " + Twine(i) +
                                  " to an index");
      if (rule == ReduceRule::Same)
        return emitInferError(loc, opName,
                              "cannot reduce over axis " + Twine(i) +
                                  ", which has size 0");
    }
    if (!isReduced)
      shape.push_back(type.getDimSize(i));
    else if (keepdims)
      shape.push_back(1);
  }
  types.push_back(
      RankedTensorType::get(shape, reduceDtype(rule, type.getElementType())));
  return success();
}

LogicalResult mlx::inferScanResult(std::optional<Location> loc,
                                   StringRef opName, ScanRule rule, Value x,
                                   int64_t axis, SmallVectorImpl<Type> &types) {
  auto type = cast<RankedTensorType>(x.getType());
  if (failed(normalizeAxis(loc, opName, axis, type.getRank())))
    return failure();
  Type dtype = type.getElementType();
  if (rule == ScanRule::Sum && dtype.isInteger(1))
    dtype = IntegerType::get(dtype.getContext(), 32);
  types.push_back(type.clone(dtype));
  return success();
}

LogicalResult SoftmaxOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  auto type = cast<RankedTensorType>(adaptor.getX().getType());
  if (adaptor.getAxes() &&
      failed(normalizeAxes(loc, getOperationName(), "axes", *adaptor.getAxes(),
                           type.getRank())))
    return failure();
  types.push_back(type.clone(toInexactType(type.getElementType())));
  return success();
}
