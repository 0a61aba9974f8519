//===- LayoutOps.cpp - shape and layout ops -------------------------------===//
//
// Type inference of reshape, broadcast_to, transpose, expand_dims, squeeze,
// flatten, unflatten, slice, slice_update, dynamic_slice(_update),
// concatenate, split, pad and as_strided.
//
//===----------------------------------------------------------------------===//

#include "Mlx/MlxOps.h"

#include "llvm/ADT/SmallSet.h"

#include <limits>

using namespace mlir;
using namespace mlir::mlx;

/// Product of static sizes, or std::nullopt when any size is dynamic.
static std::optional<int64_t> staticElementCount(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (ShapedType::isDynamic(dim))
      return std::nullopt;
    count *= dim;
  }
  return count;
}

/// Resolves a requested shape with at most one -1 against `count` elements.
static FailureOr<Shape> resolveShape(std::optional<Location> loc,
                                     StringRef opName,
                                     ArrayRef<int64_t> request,
                                     std::optional<int64_t> count) {
  Shape shape(request);
  int64_t known = 1;
  int inferred = -1;
  for (auto [i, dim] : llvm::enumerate(shape)) {
    if (dim == -1) {
      if (inferred >= 0)
        return emitInferError(loc, opName, "shape has more than one -1");
      inferred = i;
      continue;
    }
    if (dim < 0)
      return emitInferError(loc, opName,
                            "shape has a negative size " + Twine(dim));
    known *= dim;
  }
  if (!count) {
    if (inferred >= 0)
      shape[inferred] = ShapedType::kDynamic;
    return shape;
  }
  if (inferred >= 0) {
    if (known == 0 || *count % known != 0)
      return emitInferError(loc, opName,
                            "cannot infer the -1 in " + formatShape(request) +
                                " from " + Twine(*count) + " elements");
    shape[inferred] = *count / known;
  } else if (known != *count) {
    return emitInferError(loc, opName,
                          "cannot reshape " + Twine(*count) + " elements to " +
                              formatShape(request));
  }
  return shape;
}

LogicalResult ReshapeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  RankedTensorType type = tensorType(adaptor.getX());
  FailureOr<Shape> shape =
      resolveShape(loc, getOperationName(), adaptor.getShape(),
                   staticElementCount(type.getShape()));
  if (failed(shape))
    return failure();
  types.push_back(type.clone(*shape));
  return success();
}

LogicalResult BroadcastToOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  RankedTensorType type = tensorType(adaptor.getX());
  ArrayRef<int64_t> target = adaptor.getShape();
  FailureOr<Shape> shape = broadcastShapes({type.getShape(), target});
  if (llvm::any_of(target, [](int64_t d) { return d < 0; }) || failed(shape) ||
      ArrayRef<int64_t>(*shape) != target)
    return emitInferError(loc, getOperationName(),
                          "cannot broadcast " + formatShape(type.getShape()) +
                              " to " + formatShape(target));
  types.push_back(type.clone(target));
  return success();
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  RankedTensorType type = tensorType(adaptor.getX());
  ArrayRef<int64_t> axes = adaptor.getAxes();
  if (static_cast<int64_t>(axes.size()) != type.getRank())
    return emitInferError(loc, getOperationName(),
                          "axes " + formatShape(axes) +
                              " must list every axis of a rank-" +
                              Twine(type.getRank()) + " tensor once");
  FailureOr<SmallVector<int64_t>> perm =
      normalizeAxes(loc, getOperationName(), "axes", axes, type.getRank());
  if (failed(perm))
    return failure();
  Shape shape;
  for (int64_t axis : *perm)
    shape.push_back(type.getDimSize(axis));
  types.push_back(type.clone(shape));
  return success();
}

LogicalResult ExpandDimsOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  RankedTensorType type = tensorType(adaptor.getX());
  int64_t rank = type.getRank() + adaptor.getAxes().size();
  FailureOr<SmallVector<int64_t>> axes =
      normalizeAxes(loc, getOperationName(), "axes", adaptor.getAxes(), rank);
  if (failed(axes))
    return failure();
  Shape shape(rank, 1);
  llvm::SmallSet<int64_t, 4> inserted(axes->begin(), axes->end());
  auto source = type.getShape().begin();
  for (int64_t i = 0; i < rank; ++i)
    if (!inserted.contains(i))
      shape[i] = *source++;
  types.push_back(type.clone(shape));
  return success();
}

LogicalResult SqueezeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  RankedTensorType type = tensorType(adaptor.getX());
  SmallVector<int64_t> axes;
  if (adaptor.getAxes()) {
    FailureOr<SmallVector<int64_t>> normalized = normalizeAxes(
        loc, getOperationName(), "axes", *adaptor.getAxes(), type.getRank());
    if (failed(normalized))
      return failure();
    axes = *normalized;
    for (int64_t axis : axes)
      if (type.getDimSize(axis) != 1)
        return emitInferError(loc, getOperationName(),
                              "cannot squeeze axis " + Twine(axis) +
                                  " of size " +
                                  formatShape(type.getDimSize(axis)));
  } else {
    for (int64_t i = 0; i < type.getRank(); ++i)
      if (type.getDimSize(i) == 1)
        axes.push_back(i);
  }
  Shape shape;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (!llvm::is_contained(axes, i))
      shape.push_back(type.getDimSize(i));
  types.push_back(type.clone(shape));
  return success();
}

LogicalResult FlattenOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  RankedTensorType type = tensorType(adaptor.getX());
  int64_t rank = std::max<int64_t>(type.getRank(), 1);
  FailureOr<int64_t> start = normalizeAxis(adaptor.getStartAxis(), rank);
  FailureOr<int64_t> end = normalizeAxis(adaptor.getEndAxis(), rank);
  if (failed(start) || failed(end) || *start > *end)
    return emitInferError(loc, getOperationName(),
                          "axes " + Twine(adaptor.getStartAxis()) + ".." +
                              Twine(adaptor.getEndAxis()) +
                              " are not an ordered range of a rank-" +
                              Twine(type.getRank()) + " tensor");
  if (type.getRank() == 0) {
    types.push_back(type.clone(Shape{1}));
    return success();
  }
  ArrayRef<int64_t> dims = type.getShape();
  Shape shape(dims.begin(), dims.begin() + *start);
  std::optional<int64_t> merged =
      staticElementCount(dims.slice(*start, *end - *start + 1));
  shape.push_back(merged ? *merged : ShapedType::kDynamic);
  shape.append(dims.begin() + *end + 1, dims.end());
  types.push_back(type.clone(shape));
  return success();
}

LogicalResult UnflattenOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  RankedTensorType type = tensorType(adaptor.getX());
  FailureOr<int64_t> axis =
      normalizeAxis(loc, getOperationName(), adaptor.getAxis(), type.getRank());
  if (failed(axis))
    return failure();
  int64_t size = type.getDimSize(*axis);
  FailureOr<Shape> pieces = resolveShape(
      loc, getOperationName(), adaptor.getShape(),
      ShapedType::isDynamic(size) ? std::nullopt : std::optional(size));
  if (failed(pieces))
    return failure();
  ArrayRef<int64_t> dims = type.getShape();
  Shape shape(dims.begin(), dims.begin() + *axis);
  shape.append(pieces->begin(), pieces->end());
  shape.append(dims.begin() + *axis + 1, dims.end());
  types.push_back(type.clone(shape));
  return success();
}

/// The shape of x[start:stop:strides]; every list has one entry per axis.
static FailureOr<Shape> inferSliceShape(std::optional<Location> loc,
                                        StringRef opName, RankedTensorType type,
                                        ArrayRef<int64_t> start,
                                        ArrayRef<int64_t> stop,
                                        ArrayRef<int64_t> strides) {
  size_t rank = type.getRank();
  if (start.size() != rank || stop.size() != rank || strides.size() != rank)
    return emitInferError(loc, opName,
                          "start, stop and strides need " + Twine(rank) +
                              " entries each, got " + Twine(start.size()) +
                              ", " + Twine(stop.size()) + ", " +
                              Twine(strides.size()));
  Shape shape;
  for (size_t i = 0; i < rank; ++i) {
    int64_t dim = type.getDimSize(i);
    if (strides[i] == 0)
      return emitInferError(loc, opName,
                            "stride of axis " + Twine(i) + " is 0");
    // MLX's Slice stores clamped bounds: [start, stop) forward, or
    // (stop, start] backward.
    // Forward slices cover [start, stop) within [0, dim]; backward ones
    // (stop, start] within [-1, dim - 1].
    int64_t lo = strides[i] > 0 ? 0 : -1;
    int64_t hi = ShapedType::isDynamic(dim)
                     ? std::numeric_limits<int64_t>::max()
                     : (strides[i] > 0 ? dim : dim - 1);
    bool inRange =
        start[i] >= lo && stop[i] >= lo && start[i] <= hi && stop[i] <= hi;
    if (!inRange)
      return emitInferError(loc, opName,
                            "slice " + Twine(start[i]) + ":" + Twine(stop[i]) +
                                ":" + Twine(strides[i]) + " of axis " +
                                Twine(i) + " is outside its size " +
                                formatShape(dim));
    int64_t span = strides[i] > 0 ? stop[i] - start[i] : start[i] - stop[i];
    int64_t step = std::abs(strides[i]);
    shape.push_back(span <= 0 ? 0 : (span + step - 1) / step);
  }
  return shape;
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  RankedTensorType type = tensorType(adaptor.getX());
  FailureOr<Shape> shape =
      inferSliceShape(loc, getOperationName(), type, adaptor.getStart(),
                      adaptor.getStop(), adaptor.getStrides());
  if (failed(shape))
    return failure();
  types.push_back(type.clone(*shape));
  return success();
}

LogicalResult SliceUpdateOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  RankedTensorType type = tensorType(adaptor.getSrc());
  RankedTensorType update = tensorType(adaptor.getUpdate());
  FailureOr<Shape> shape =
      inferSliceShape(loc, getOperationName(), type, adaptor.getStart(),
                      adaptor.getStop(), adaptor.getStrides());
  if (failed(shape))
    return failure();
  FailureOr<Shape> merged = broadcastShapes({update.getShape(), *shape});
  if (failed(merged) || *merged != *shape)
    return emitInferError(loc, getOperationName(),
                          "update of shape " + formatShape(update.getShape()) +
                              " does not broadcast to the slice shape " +
                              formatShape(*shape));
  types.push_back(type);
  return success();
}

/// Checks the start-offset operand of the dynamic slice ops.
static LogicalResult verifyDynamicStart(std::optional<Location> loc,
                                        StringRef opName, RankedTensorType src,
                                        RankedTensorType start,
                                        ArrayRef<int64_t> axes) {
  if (start.getRank() > 1 ||
      (start.getRank() == 1 && start.getDimSize(0) != (int64_t)axes.size()) ||
      (start.getRank() == 0 && axes.size() != 1))
    return emitInferError(loc, opName,
                          "start must hold one offset per axis in axes (" +
                              Twine(axes.size()) + "), got shape " +
                              formatShape(start.getShape()));
  return normalizeAxes(loc, opName, "axes", axes, src.getRank());
}

LogicalResult DynamicSliceOp::inferReturnTypes(MLIRContext *,
                                               std::optional<Location> loc,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &types) {
  RankedTensorType type = tensorType(adaptor.getX());
  if (failed(verifyDynamicStart(loc, getOperationName(), type,
                                tensorType(adaptor.getStart()),
                                adaptor.getAxes())))
    return failure();
  ArrayRef<int64_t> size = adaptor.getSliceSize();
  if (size.size() != static_cast<size_t>(type.getRank()))
    return emitInferError(loc, getOperationName(),
                          "slice_size needs one entry per axis (" +
                              Twine(type.getRank()) + "), got " +
                              Twine(size.size()));
  for (auto [i, s] : llvm::enumerate(size))
    if (s < 0 || (!type.isDynamicDim(i) && s > type.getDimSize(i)))
      return emitInferError(loc, getOperationName(),
                            "slice size " + Twine(s) + " of axis " + Twine(i) +
                                " exceeds its size " +
                                formatShape(type.getDimSize(i)));
  types.push_back(type.clone(size));
  return success();
}

LogicalResult DynamicSliceUpdateOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  RankedTensorType type = tensorType(adaptor.getSrc());
  RankedTensorType update = tensorType(adaptor.getUpdate());
  if (failed(verifyDynamicStart(loc, getOperationName(), type,
                                tensorType(adaptor.getStart()),
                                adaptor.getAxes())))
    return failure();
  if (update.getRank() != type.getRank())
    return emitInferError(loc, getOperationName(),
                          "update rank " + Twine(update.getRank()) +
                              " differs from source rank " +
                              Twine(type.getRank()));
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (!type.isDynamicDim(i) && !update.isDynamicDim(i) &&
        update.getDimSize(i) > type.getDimSize(i))
      return emitInferError(
          loc, getOperationName(),
          "update of shape " + formatShape(update.getShape()) +
              " does not fit in " + formatShape(type.getShape()));
  if (update.getElementType() != type.getElementType())
    return emitInferError(loc, getOperationName(),
                          "update dtype " +
                              getDtypeName(update.getElementType()) +
                              " differs from source dtype " +
                              getDtypeName(type.getElementType()));
  types.push_back(type);
  return success();
}

LogicalResult ConcatenateOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty())
    return emitInferError(loc, getOperationName(), "needs at least one input");
  RankedTensorType first = tensorType(inputs.front());
  FailureOr<int64_t> axis = normalizeAxis(loc, getOperationName(),
                                          adaptor.getAxis(), first.getRank());
  if (failed(axis))
    return failure();
  Shape shape(first.getShape());
  Type dtype = first.getElementType();
  for (Value input : inputs.drop_front()) {
    RankedTensorType type = tensorType(input);
    if (type.getRank() != first.getRank())
      return emitInferError(
          loc, getOperationName(),
          "inputs have different ranks: " + formatShape(first.getShape()) +
              " and " + formatShape(type.getShape()));
    for (int64_t i = 0; i < type.getRank(); ++i) {
      int64_t dim = type.getDimSize(i);
      if (i == *axis) {
        shape[i] = ShapedType::isDynamic(shape[i]) || ShapedType::isDynamic(dim)
                       ? ShapedType::kDynamic
                       : shape[i] + dim;
      } else if (!ShapedType::isDynamic(dim) &&
                 !ShapedType::isDynamic(shape[i]) && dim != shape[i]) {
        return emitInferError(loc, getOperationName(),
                              "shapes " + formatShape(first.getShape()) +
                                  " and " + formatShape(type.getShape()) +
                                  " differ outside the concatenation axis " +
                                  Twine(*axis));
      }
    }
    dtype = promoteTypes(dtype, type.getElementType());
  }
  types.push_back(RankedTensorType::get(shape, dtype));
  return success();
}

LogicalResult SplitOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  RankedTensorType type = tensorType(adaptor.getX());
  FailureOr<int64_t> axis =
      normalizeAxis(loc, getOperationName(), adaptor.getAxis(), type.getRank());
  if (failed(axis))
    return failure();
  int64_t size = type.getDimSize(*axis);
  int64_t previous = 0;
  SmallVector<int64_t> bounds(adaptor.getIndices());
  bounds.push_back(size);
  for (auto [i, bound] : llvm::enumerate(bounds)) {
    bool last = i + 1 == bounds.size();
    if (!last &&
        (bound < previous || (!ShapedType::isDynamic(size) && bound > size)))
      return emitInferError(loc, getOperationName(),
                            "indices " + formatShape(adaptor.getIndices()) +
                                " must ascend within the axis size " +
                                formatShape(size));
    Shape shape(type.getShape());
    shape[*axis] =
        ShapedType::isDynamic(bound) ? ShapedType::kDynamic : bound - previous;
    types.push_back(type.clone(shape));
    previous = bound;
  }
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  RankedTensorType type = tensorType(adaptor.getX());
  RankedTensorType padType = tensorType(adaptor.getPadValue());
  if (padType.getRank() != 0 ||
      padType.getElementType() != type.getElementType())
    return emitInferError(loc, getOperationName(),
                          "pad_value must be a scalar of the input dtype " +
                              getDtypeName(type.getElementType()));
  ArrayRef<int64_t> low = adaptor.getLow(), high = adaptor.getHigh();
  if (low.size() != adaptor.getAxes().size() ||
      high.size() != adaptor.getAxes().size())
    return emitInferError(loc, getOperationName(),
                          "low and high need one entry per axis in axes");
  FailureOr<SmallVector<int64_t>> axes = normalizeAxes(
      loc, getOperationName(), "axes", adaptor.getAxes(), type.getRank());
  if (failed(axes))
    return failure();
  Shape shape(type.getShape());
  for (auto [i, axis] : llvm::enumerate(*axes)) {
    if (low[i] < 0 || high[i] < 0)
      return emitInferError(loc, getOperationName(),
                            "padding of axis " + Twine(axis) + " is negative");
    if (!ShapedType::isDynamic(shape[axis]))
      shape[axis] += low[i] + high[i];
  }
  types.push_back(type.clone(shape));
  return success();
}

LogicalResult AsStridedOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  RankedTensorType type = tensorType(adaptor.getX());
  ArrayRef<int64_t> shape = adaptor.getShape();
  ArrayRef<int64_t> strides = adaptor.getStrides();
  if (shape.size() != strides.size())
    return emitInferError(loc, getOperationName(),
                          "shape and strides differ in length");
  if (llvm::any_of(shape, [](int64_t d) { return d < 0; }))
    return emitInferError(loc, getOperationName(),
                          "shape " + formatShape(shape) +
                              " has a negative size");
  std::optional<int64_t> count = staticElementCount(type.getShape());
  if (count && !llvm::is_contained(shape, 0)) {
    // The lowest and highest flat element the view touches.
    int64_t lo = adaptor.getOffset(), hi = adaptor.getOffset();
    for (auto [dim, stride] : llvm::zip(shape, strides))
      (stride < 0 ? lo : hi) += (dim - 1) * stride;
    if (lo < 0 || hi >= *count)
      return emitInferError(loc, getOperationName(),
                            "view reaches elements " + Twine(lo) + ".." +
                                Twine(hi) + " of an input with " +
                                Twine(*count));
  }
  types.push_back(type.clone(shape));
  return success();
}
