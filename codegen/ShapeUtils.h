//===- ShapeUtils.h - small shape and element helpers of codegen ----------===//

#ifndef MLXC_CODEGEN_SHAPEUTILS_H
#define MLXC_CODEGEN_SHAPEUTILS_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::mlx {

/// Bytes of one element in memory, or 0 where a vector access would not be
/// byte-addressed (i1 vectors are bit-packed; index has no fixed size).
inline int64_t getElementBytes(Type type) {
  if (!isa<IntegerType, FloatType>(type))
    return 0;
  unsigned bits = type.getIntOrFloatBitWidth();
  return bits >= 8 && bits % 8 == 0 ? bits / 8 : 0;
}

/// `sizes` without its 1s.
inline SmallVector<int64_t> dropUnitDims(ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> kept;
  for (int64_t size : sizes)
    if (size != 1)
      kept.push_back(size);
  return kept;
}

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_SHAPEUTILS_H
