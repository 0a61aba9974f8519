//===- ShapeInference.h - result types of mlx ops ---------------*- C++ -*-===//
//
// Shape and dtype rules shared by op families. Each helper either appends the
// result types or emits a diagnostic at `loc` (when given) that names the op
// and says what is wrong, and fails.
//
//===----------------------------------------------------------------------===//

#ifndef MLX_SHAPEINFERENCE_H
#define MLX_SHAPEINFERENCE_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/ValueRange.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir::mlx {

/// How an elementwise op derives its result dtype from its operands.
enum class ResultRule {
  Promote, ///< promote_types of the operands
  Numeric, ///< as Promote, but bool is rejected (negative)
  Float,   ///< promoted, then integers and bool become float32
  Bool,    ///< always bool (comparisons, logical ops)
  Integer, ///< promoted; integers and bool only (bitwise ops)
  Shift,   ///< as Integer, but bool becomes uint8 (left/right shift)
};

/// How a reduction derives its result dtype.
enum class ReduceRule {
  Accumulate, ///< sum/prod: bool, int8, int16 -> int32; uint8/16 -> uint32
  Same,       ///< max/min
  Bool,       ///< all/any
  Float,      ///< logsumexp
  Index,      ///< argmax/argmin: uint32
};

/// How a scan derives its result dtype.
enum class ScanRule {
  Sum,  ///< cumsum: bool -> int32
  Same, ///< cumprod, cummax, cummin
};

/// The type of an mlx op's operand (ODS has checked it is a ranked tensor).
inline RankedTensorType tensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

/// A dimension size that may be dynamic (ShapedType::kDynamic).
using Shape = SmallVector<int64_t>;

/// NumPy broadcasting of several shapes; fails when two sizes differ and
/// neither is 1. Dynamic sizes broadcast with anything.
FailureOr<Shape> broadcastShapes(ArrayRef<ArrayRef<int64_t>> shapes);

/// Renders a shape as "[2, 3, ?]".
std::string formatShape(ArrayRef<int64_t> shape);

/// Maps a possibly negative axis into [0, rank); fails when out of range.
FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank);

/// As above, with a diagnostic "axis A is out of range for rank R".
FailureOr<int64_t> normalizeAxis(std::optional<Location> loc, StringRef opName,
                                 int64_t axis, int64_t rank);

/// Normalizes a list of axes, rejecting duplicates and out-of-range entries
/// with a diagnostic that names `what` (e.g. "axes").
FailureOr<SmallVector<int64_t>> normalizeAxes(std::optional<Location> loc,
                                              StringRef opName, StringRef what,
                                              ArrayRef<int64_t> axes,
                                              int64_t rank);

/// Emits "'<opName>' op <message>" at `loc` and returns failure.
LogicalResult emitInferError(std::optional<Location> loc, StringRef opName,
                             const Twine &message);

LogicalResult inferElementwiseResult(std::optional<Location> loc,
                                     StringRef opName, ResultRule rule,
                                     ValueRange operands,
                                     SmallVectorImpl<Type> &types);

LogicalResult inferReduceResult(std::optional<Location> loc, StringRef opName,
                                ReduceRule rule, Value x,
                                std::optional<ArrayRef<int64_t>> axes,
                                bool keepdims, SmallVectorImpl<Type> &types);

LogicalResult inferScanResult(std::optional<Location> loc, StringRef opName,
                              ScanRule rule, Value x, int64_t axis,
                              SmallVectorImpl<Type> &types);

LogicalResult inferScatterResult(std::optional<Location> loc, StringRef opName,
                                 Value src, ValueRange indices, Value updates,
                                 ArrayRef<int64_t> axes,
                                 SmallVectorImpl<Type> &types);

LogicalResult inferSortResult(std::optional<Location> loc, StringRef opName,
                              Value x, int64_t axis, std::optional<int64_t> kth,
                              bool returnsIndices,
                              SmallVectorImpl<Type> &types);

} // namespace mlir::mlx

#endif // MLX_SHAPEINFERENCE_H
