//===- ShapeInference.cpp - shape helpers shared by mlx ops ---------------===//

#include "Mlx/ShapeInference.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::mlx;

LogicalResult mlx::emitInferError(std::optional<Location> loc, StringRef opName,
                                  const Twine &message) {
  return emitOptionalError(loc, "'", opName, "' op ", message.str());
}

std::string mlx::formatShape(ArrayRef<int64_t> shape) {
  std::string result = "[";
  llvm::interleave(
      shape,
      [&](int64_t dim) {
        result += ShapedType::isDynamic(dim) ? "?" : std::to_string(dim);
      },
      [&] { result += ", "; });
  return result + "]";
}

FailureOr<Shape> mlx::broadcastShapes(ArrayRef<ArrayRef<int64_t>> shapes) {
  size_t rank = 0;
  for (ArrayRef<int64_t> shape : shapes)
    rank = std::max(rank, shape.size());
  Shape result(rank, 1);
  for (ArrayRef<int64_t> shape : shapes) {
    size_t offset = rank - shape.size();
    for (auto [i, dim] : llvm::enumerate(shape)) {
      int64_t &out = result[offset + i];
      if (dim == 1)
        continue;
      if (out == 1 || ShapedType::isDynamic(out)) {
        // A dynamic size stays dynamic unless a static size pins it.
        if (!(ShapedType::isDynamic(dim) && out != 1))
          out = dim;
        continue;
      }
      if (ShapedType::isDynamic(dim) || dim == out)
        continue;
      return failure();
    }
  }
  return result;
}

FailureOr<int64_t> mlx::normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return failure();
  return axis < 0 ? axis + rank : axis;
}

FailureOr<int64_t> mlx::normalizeAxis(std::optional<Location> loc,
                                      StringRef opName, int64_t axis,
                                      int64_t rank) {
  FailureOr<int64_t> normalized = normalizeAxis(axis, rank);
  if (failed(normalized))
    (void)emitInferError(loc, opName,
                         "axis " + Twine(axis) + " is out of range for rank " +
                             Twine(rank));
  return normalized;
}

FailureOr<SmallVector<int64_t>>
mlx::normalizeAxes(std::optional<Location> loc, StringRef opName,
                   StringRef what, ArrayRef<int64_t> axes, int64_t rank) {
  SmallVector<int64_t> result;
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t axis : axes) {
    FailureOr<int64_t> normalized = normalizeAxis(axis, rank);
    if (failed(normalized)) {
      (void)emitInferError(loc, opName,
                           what + " entry " + Twine(axis) +
                               " is out of range for rank " + Twine(rank));
      return failure();
    }
    if (!seen.insert(*normalized).second) {
      (void)emitInferError(loc, opName,
                           what + " repeats axis " + Twine(*normalized));
      return failure();
    }
    result.push_back(*normalized);
  }
  return result;
}
