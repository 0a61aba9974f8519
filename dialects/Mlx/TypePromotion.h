//===- TypePromotion.h - MLX dtypes and promotion ---------------*- C++ -*-===//
//
// MLX's dtypes as MLIR element types, and MLX's type-promotion table.
//
//===----------------------------------------------------------------------===//

#ifndef MLX_TYPEPROMOTION_H
#define MLX_TYPEPROMOTION_H

#include "mlir/IR/Types.h"

namespace mlir::mlx {

/// True for the 13 element types that stand for MLX dtypes: i1 (bool),
/// i8..i64 (signed), ui8..ui64, f16, bf16, f32, f64.
bool isMlxDtype(Type type);

/// Classes of MLX dtypes, in the order promotion ranks them.
enum class DtypeCategory { Bool, Unsigned, Signed, Float };
DtypeCategory getDtypeCategory(Type dtype);

/// Bytes per element of an MLX dtype (bool is one byte).
unsigned getItemSize(Type dtype);

/// MLX's `promote_types(a, b)`: the dtype binary ops compute in.
Type promoteTypes(Type a, Type b);

/// The dtype of MLX's floating-point math on `dtype`: floats stay, everything
/// else becomes float32.
Type toInexactType(Type dtype);

/// MLX's name of a dtype ("float32", "uint8", "bool", ...), for messages.
std::string getDtypeName(Type dtype);

} // namespace mlir::mlx

#endif // MLX_TYPEPROMOTION_H
