//===- TypePromotion.cpp - MLX dtypes and promotion -----------------------===//
//
// Reproduces MLX's promotion table (mlx/dtype.cpp). test/Dialect/Mlx/
// promotion.mlir checks every pair of dtypes against MLX's own answers.
//
//===----------------------------------------------------------------------===//

#include "Mlx/TypePromotion.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace mlir::mlx;

bool mlx::isMlxDtype(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type)) {
    unsigned width = intType.getWidth();
    if (intType.isSigned())
      return false;
    if (width == 1)
      return intType.isSignless();
    return width == 8 || width == 16 || width == 32 || width == 64;
  }
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64();
}

DtypeCategory mlx::getDtypeCategory(Type dtype) {
  if (dtype.isInteger(1))
    return DtypeCategory::Bool;
  if (dtype.isUnsignedInteger())
    return DtypeCategory::Unsigned;
  if (dtype.isSignlessInteger())
    return DtypeCategory::Signed;
  return DtypeCategory::Float;
}

unsigned mlx::getItemSize(Type dtype) {
  if (dtype.isInteger(1))
    return 1;
  // complex64 appears in program signatures only (float32 pairs inside).
  if (auto complex = dyn_cast<ComplexType>(dtype))
    return 2 * getItemSize(complex.getElementType());
  return dtype.getIntOrFloatBitWidth() / 8;
}

Type mlx::toInexactType(Type dtype) {
  if (getDtypeCategory(dtype) == DtypeCategory::Float)
    return dtype;
  return Float32Type::get(dtype.getContext());
}

Type mlx::promoteTypes(Type a, Type b) {
  if (a == b)
    return a;
  DtypeCategory ca = getDtypeCategory(a), cb = getDtypeCategory(b);
  // Order the pair so that `a` has the lower category.
  if (ca > cb) {
    std::swap(a, b);
    std::swap(ca, cb);
  }
  MLIRContext *ctx = a.getContext();
  unsigned wa = getItemSize(a), wb = getItemSize(b);
  switch (cb) {
  case DtypeCategory::Bool:
    return a;
  case DtypeCategory::Unsigned:
    // bool with unsigned, or two unsigned: the wider.
    return wa > wb ? a : b;
  case DtypeCategory::Signed:
    if (ca != DtypeCategory::Unsigned)
      return wa > wb ? a : b;
    // unsigned with signed: a signed type that holds both, none for uint64.
    if (wa == 8)
      return Float32Type::get(ctx);
    return IntegerType::get(ctx, 8 * std::max(2 * wa, wb));
  case DtypeCategory::Float:
    if (ca != DtypeCategory::Float)
      return b;
    // float16 with bfloat16 has no common 16-bit type.
    if (wa == wb)
      return Float32Type::get(ctx);
    return wa > wb ? a : b;
  }
  llvm_unreachable("unknown dtype category");
}

std::string mlx::getDtypeName(Type dtype) {
  if (dtype.isInteger(1))
    return "bool";
  if (auto complex = dyn_cast<ComplexType>(dtype))
    return "complex" + std::to_string(8 * getItemSize(complex));
  if (dtype.isBF16())
    return "bfloat16";
  unsigned bits = dtype.getIntOrFloatBitWidth();
  switch (getDtypeCategory(dtype)) {
  case DtypeCategory::Unsigned:
    return "uint" + std::to_string(bits);
  case DtypeCategory::Signed:
    return "int" + std::to_string(bits);
  default:
    return "float" + std::to_string(bits);
  }
}
