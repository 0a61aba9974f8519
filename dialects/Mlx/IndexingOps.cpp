//===- IndexingOps.cpp - gather, scatter and sort ops ---------------------===//

#include "Mlx/MlxOps.h"

using namespace mlir;
using namespace mlir::mlx;

/// Checks that index array `i` addresses axis `axes[i]` of `src` and returns
/// the broadcast shape of the index arrays.
static FailureOr<Shape> inferIndexShape(std::optional<Location> loc,
                                        StringRef opName, RankedTensorType src,
                                        ValueRange indices,
                                        ArrayRef<int64_t> axes) {
  if (indices.size() != axes.size())
    return emitInferError(loc, opName,
                          "has " + Twine(indices.size()) +
                              " index arrays but axes names " +
                              Twine(axes.size()));
  if (failed(normalizeAxes(loc, opName, "axes", axes, src.getRank())))
    return failure();
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value index : indices)
    shapes.push_back(tensorType(index).getShape());
  FailureOr<Shape> shape = broadcastShapes(shapes);
  if (failed(shape)) {
    std::string message = "index shapes";
    for (ArrayRef<int64_t> s : shapes)
      message += " " + formatShape(s);
    return emitInferError(loc, opName, message + " do not broadcast");
  }
  return shape;
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  RankedTensorType src = tensorType(adaptor.getSrc());
  FailureOr<Shape> shape = inferIndexShape(
      loc, getOperationName(), src, adaptor.getIndices(), adaptor.getAxes());
  if (failed(shape))
    return failure();
  ArrayRef<int64_t> sizes = adaptor.getSliceSizes();
  if (sizes.size() != static_cast<size_t>(src.getRank()))
    return emitInferError(loc, getOperationName(),
                          "slice_sizes needs one entry per source axis (" +
                              Twine(src.getRank()) + "), got " +
                              Twine(sizes.size()));
  for (auto [i, size] : llvm::enumerate(sizes))
    if (size < 0 || (!src.isDynamicDim(i) && size > src.getDimSize(i)))
      return emitInferError(loc, getOperationName(),
                            "slice size " + Twine(size) + " of axis " +
                                Twine(i) + " exceeds its size " +
                                formatShape(src.getDimSize(i)));
  shape->append(sizes.begin(), sizes.end());
  types.push_back(src.clone(*shape));
  return success();
}

LogicalResult mlx::inferScatterResult(std::optional<Location> loc,
                                      StringRef opName, Value srcValue,
                                      ValueRange indices, Value updatesValue,
                                      ArrayRef<int64_t> axes,
                                      SmallVectorImpl<Type> &types) {
  RankedTensorType src = tensorType(srcValue);
  RankedTensorType updates = tensorType(updatesValue);
  FailureOr<Shape> shape = inferIndexShape(loc, opName, src, indices, axes);
  if (failed(shape))
    return failure();
  int64_t expectedRank = shape->size() + src.getRank();
  if (updates.getRank() != expectedRank)
    return emitInferError(loc, opName,
                          "updates need rank " + Twine(expectedRank) +
                              " (index rank + source rank), got shape " +
                              formatShape(updates.getShape()));
  ArrayRef<int64_t> slice = updates.getShape().take_back(src.getRank());
  for (int64_t i = 0; i < src.getRank(); ++i)
    if (!src.isDynamicDim(i) && !ShapedType::isDynamic(slice[i]) &&
        slice[i] > src.getDimSize(i))
      return emitInferError(loc, opName,
                            "update slice " + formatShape(slice) +
                                " does not fit in the source " +
                                formatShape(src.getShape()));
  types.push_back(src);
  return success();
}

/// The shape of take_along_axis(x, indices, axis), also the index space of
/// put_along_axis.
static FailureOr<Shape> inferAlongAxisShape(std::optional<Location> loc,
                                            StringRef opName,
                                            RankedTensorType x,
                                            RankedTensorType indices,
                                            int64_t axis) {
  if (indices.getRank() != x.getRank())
    return emitInferError(
        loc, opName,
        "indices of shape " + formatShape(indices.getShape()) +
            " need the rank of the input " + formatShape(x.getShape()));
  FailureOr<int64_t> normalized = normalizeAxis(loc, opName, axis, x.getRank());
  if (failed(normalized))
    return failure();
  Shape xShape(x.getShape());
  xShape[*normalized] = indices.getDimSize(*normalized);
  FailureOr<Shape> shape = broadcastShapes({xShape, indices.getShape()});
  if (failed(shape))
    return emitInferError(
        loc, opName,
        "indices of shape " + formatShape(indices.getShape()) +
            " do not broadcast with the input " + formatShape(x.getShape()) +
            " outside axis " + Twine(*normalized));
  return shape;
}

LogicalResult TakeAlongAxisOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  RankedTensorType x = tensorType(adaptor.getX());
  FailureOr<Shape> shape =
      inferAlongAxisShape(loc, getOperationName(), x,
                          tensorType(adaptor.getIndices()), adaptor.getAxis());
  if (failed(shape))
    return failure();
  types.push_back(x.clone(*shape));
  return success();
}

/// put_along_axis and scatter_add_axis: the result has the type of `x`.
static LogicalResult inferScatterAxisResult(std::optional<Location> loc,
                                            StringRef opName, Value xValue,
                                            Value indices, Value values,
                                            int64_t axis,
                                            SmallVectorImpl<Type> &types) {
  RankedTensorType x = tensorType(xValue);
  FailureOr<Shape> shape =
      inferAlongAxisShape(loc, opName, x, tensorType(indices), axis);
  if (failed(shape))
    return failure();
  ArrayRef<int64_t> valueShape = tensorType(values).getShape();
  FailureOr<Shape> merged = broadcastShapes({valueShape, *shape});
  if (failed(merged) || *merged != *shape)
    return emitInferError(loc, opName,
                          "values of shape " + formatShape(valueShape) +
                              " do not broadcast to the index shape " +
                              formatShape(*shape));
  types.push_back(x);
  return success();
}

LogicalResult PutAlongAxisOp::inferReturnTypes(MLIRContext *,
                                               std::optional<Location> loc,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &types) {
  return inferScatterAxisResult(loc, getOperationName(), adaptor.getX(),
                                adaptor.getIndices(), adaptor.getValues(),
                                adaptor.getAxis(), types);
}

LogicalResult ScatterAddAxisOp::inferReturnTypes(MLIRContext *,
                                                 std::optional<Location> loc,
                                                 Adaptor adaptor,
                                                 SmallVectorImpl<Type> &types) {
  return inferScatterAxisResult(loc, getOperationName(), adaptor.getX(),
                                adaptor.getIndices(), adaptor.getValues(),
                                adaptor.getAxis(), types);
}

LogicalResult MaskedScatterOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  RankedTensorType x = tensorType(adaptor.getX());
  RankedTensorType mask = tensorType(adaptor.getMask());
  RankedTensorType values = tensorType(adaptor.getValues());
  StringRef name = getOperationName();
  if (mask.getShape() != x.getShape())
    return emitInferError(loc, name,
                          "the mask " + formatShape(mask.getShape()) +
                              " must have the shape of the input " +
                              formatShape(x.getShape()));
  if (values.getElementType() != x.getElementType())
    return emitInferError(loc, name,
                          "the values (" +
                              getDtypeName(values.getElementType()) +
                              ") must have the input's dtype (" +
                              getDtypeName(x.getElementType()) + ")");
  // Axis 0 is the batch of both (MLX adds it before the primitive).
  if (x.getRank() == 0 || values.getRank() == 0 ||
      values.getDimSize(0) != x.getDimSize(0))
    return emitInferError(
        loc, name,
        "the input " + formatShape(x.getShape()) + " and the values " +
            formatShape(values.getShape()) +
            " must be at least 1-D with one batch size (axis 0)");
  types.push_back(x);
  return success();
}

LogicalResult SearchSortedOp::inferReturnTypes(MLIRContext *context,
                                               std::optional<Location> loc,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &types) {
  RankedTensorType sorted = tensorType(adaptor.getSorted());
  RankedTensorType values = tensorType(adaptor.getValues());
  if (sorted.getRank() != 1)
    return emitInferError(loc, getOperationName(),
                          "the sorted sequence must be 1-D, got rank " +
                              Twine(sorted.getRank()));
  if (sorted.getElementType() != values.getElementType())
    return emitInferError(
        loc, getOperationName(),
        "the sequence (" + getDtypeName(sorted.getElementType()) +
            ") and the values (" + getDtypeName(values.getElementType()) +
            ") must have one dtype");
  types.push_back(
      values.clone(IntegerType::get(context, 32, IntegerType::Unsigned)));
  return success();
}

LogicalResult mlx::inferSortResult(std::optional<Location> loc,
                                   StringRef opName, Value x, int64_t axis,
                                   std::optional<int64_t> kth,
                                   bool returnsIndices,
                                   SmallVectorImpl<Type> &types) {
  RankedTensorType type = tensorType(x);
  FailureOr<int64_t> normalized =
      normalizeAxis(loc, opName, axis, type.getRank());
  if (failed(normalized))
    return failure();
  if (kth) {
    int64_t size = type.getDimSize(*normalized);
    if (!ShapedType::isDynamic(size) && (*kth < -size || *kth >= size))
      return emitInferError(loc, opName,
                            "kth " + Twine(*kth) +
                                " is outside the axis of size " + Twine(size));
  }
  if (!returnsIndices) {
    types.push_back(type);
    return success();
  }
  types.push_back(type.clone(
      IntegerType::get(type.getContext(), 32, IntegerType::Unsigned)));
  return success();
}
