//===- ElementwiseOps.cpp - elementwise, creation and cast ops ------------===//
//
// Type inference and verifiers of the unary, binary, select, divmod, astype,
// view, constant, full and arange ops.
//
//===----------------------------------------------------------------------===//

#include "Mlx/MlxOps.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::mlx;

LogicalResult mlx::inferElementwiseResult(std::optional<Location> loc,
                                          StringRef opName, ResultRule rule,
                                          ValueRange operands,
                                          SmallVectorImpl<Type> &types) {
  SmallVector<ArrayRef<int64_t>> shapes;
  Type dtype;
  for (Value operand : operands) {
    auto type = cast<RankedTensorType>(operand.getType());
    shapes.push_back(type.getShape());
    dtype = dtype ? promoteTypes(dtype, type.getElementType())
                  : type.getElementType();
  }
  FailureOr<Shape> shape = broadcastShapes(shapes);
  if (failed(shape)) {
    std::string message = "operand shapes";
    for (ArrayRef<int64_t> s : shapes)
      message += " " + formatShape(s);
    return emitInferError(loc, opName, message + " do not broadcast");
  }
  DtypeCategory category = getDtypeCategory(dtype);
  switch (rule) {
  case ResultRule::Promote:
    break;
  case ResultRule::Numeric:
    if (category == DtypeCategory::Bool)
      return emitInferError(loc, opName, "does not accept bool operands");
    break;
  case ResultRule::Float:
    dtype = toInexactType(dtype);
    break;
  case ResultRule::Bool:
    dtype = IntegerType::get(dtype.getContext(), 1);
    break;
  case ResultRule::Integer:
  case ResultRule::Shift:
    if (category == DtypeCategory::Float)
      return emitInferError(loc, opName,
                            "needs integer or bool operands, got " +
                                getDtypeName(dtype));
    if (rule == ResultRule::Shift && category == DtypeCategory::Bool)
      dtype = IntegerType::get(dtype.getContext(), 8, IntegerType::Unsigned);
    break;
  }
  types.push_back(RankedTensorType::get(*shape, dtype));
  return success();
}

//===----------------------------------------------------------------------===//
// divmod, select
//===----------------------------------------------------------------------===//

LogicalResult DivmodOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  if (failed(
          inferElementwiseResult(loc, getOperationName(), ResultRule::Promote,
                                 {adaptor.getLhs(), adaptor.getRhs()}, types)))
    return failure();
  types.push_back(types.front());
  return success();
}

LogicalResult SelectOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto condType = cast<RankedTensorType>(adaptor.getCondition().getType());
  if (!condType.getElementType().isInteger(1))
    return emitInferError(loc, getOperationName(),
                          "condition must be bool, got " +
                              getDtypeName(condType.getElementType()));
  SmallVector<Type> valueTypes;
  if (failed(
          inferElementwiseResult(loc, getOperationName(), ResultRule::Promote,
                                 {adaptor.getX(), adaptor.getY()}, valueTypes)))
    return failure();
  auto valueType = cast<RankedTensorType>(valueTypes.front());
  FailureOr<Shape> shape =
      broadcastShapes({condType.getShape(), valueType.getShape()});
  if (failed(shape))
    return emitInferError(
        loc, getOperationName(),
        "condition shape " + formatShape(condType.getShape()) +
            " does not broadcast with " + formatShape(valueType.getShape()));
  types.push_back(RankedTensorType::get(*shape, valueType.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// astype, view
//===----------------------------------------------------------------------===//

LogicalResult AstypeOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto type = cast<RankedTensorType>(adaptor.getX().getType());
  types.push_back(type.clone(adaptor.getDtype()));
  return success();
}

LogicalResult ViewOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  auto type = cast<RankedTensorType>(adaptor.getX().getType());
  Type dtype = adaptor.getDtype();
  unsigned from = getItemSize(type.getElementType()), to = getItemSize(dtype);
  Shape shape(type.getShape());
  if (from != to) {
    if (shape.empty())
      return emitInferError(loc, getOperationName(),
                            "cannot change the item size of a scalar (" +
                                getDtypeName(type.getElementType()) + " to " +
                                getDtypeName(dtype) + ")");
    int64_t &last = shape.back();
    if (!ShapedType::isDynamic(last)) {
      if ((last * from) % to != 0)
        return emitInferError(loc, getOperationName(),
                              "last axis of " + Twine(last) + " x " +
                                  getDtypeName(type.getElementType()) +
                                  " is not a whole number of " +
                                  getDtypeName(dtype));
      last = last * from / to;
    }
  }
  types.push_back(RankedTensorType::get(shape, dtype));
  return success();
}

//===----------------------------------------------------------------------===//
// constant, full, arange
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::verify() {
  auto type = dyn_cast<RankedTensorType>(getValue().getType());
  if (!type || !type.hasStaticShape())
    return emitOpError("value must have a static tensor type");
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult FullOp::verify() {
  auto valueType = getValue().getType();
  auto resultType = getResult().getType();
  FailureOr<Shape> shape =
      broadcastShapes({valueType.getShape(), resultType.getShape()});
  if (failed(shape) || ArrayRef<int64_t>(*shape) != resultType.getShape())
    return emitOpError("value of shape ")
           << formatShape(valueType.getShape())
           << " does not broadcast to the result shape "
           << formatShape(resultType.getShape());
  return success();
}

LogicalResult ArangeOp::verify() {
  double start = getStart().convertToDouble();
  double stop = getStop().convertToDouble();
  double step = getStep().convertToDouble();
  if (step == 0 || !std::isfinite(start) || !std::isfinite(stop) ||
      !std::isfinite(step))
    return emitOpError("needs finite start, stop and a non-zero step");
  Type dtype = getResult().getType().getElementType();
  if (dtype.isInteger(1))
    return emitOpError("cannot produce bool");
  double count = std::ceil((stop - start) / step);
  if (count > static_cast<double>(std::numeric_limits<int32_t>::max()))
    return emitOpError("range of ")
           << count << " elements exceeds MLX's maximum size";
  int64_t expected = std::max<int64_t>(0, static_cast<int64_t>(count));
  int64_t size = getResult().getType().getDimSize(0);
  if (!ShapedType::isDynamic(size) && size != expected)
    return emitOpError("result has ")
           << size << " elements but the range has " << expected;
  return success();
}
