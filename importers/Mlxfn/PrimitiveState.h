//===- PrimitiveState.h - reading a primitive's state ----------*- C++ -*-===//
//
// Shared by the importer's primitive mappings (MlxfnImporter.cpp and
// ComplexPrimitives.cpp). Private to importers/Mlxfn.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_IMPORTERS_MLXFN_PRIMITIVESTATE_H
#define MLXC_IMPORTERS_MLXFN_PRIMITIVESTATE_H

#include "importers/Mlxfn/MlxfnReader.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeRange.h"
#include "mlir/IR/Value.h"

namespace mlxc::mlxfn {

/// Typed fields of a node's state (the reader checked them against the
/// primitive's schema).
struct State {
  const Node &node;
  int64_t i(unsigned k) const { return std::get<int64_t>(node.params[k]); }
  double f(unsigned k) const { return std::get<double>(node.params[k]); }
  bool b(unsigned k) const { return std::get<bool>(node.params[k]); }
  bool has(unsigned k) const {
    return k < node.params.size() &&
           !std::holds_alternative<std::monostate>(node.params[k]);
  }
  llvm::ArrayRef<int64_t> v(unsigned k) const {
    return std::get<llvm::SmallVector<int64_t>>(node.params[k]);
  }
  Dtype dtype(unsigned k) const { return std::get<Dtype>(node.params[k]); }
  llvm::StringRef str(unsigned k) const {
    return std::get<std::string>(node.params[k]);
  }
};

/// MLX stores slice bounds as Python does (negative from the end, past the
/// ends allowed); mlx.slice takes them clamped. False when a list's length
/// is not the rank of `shape`.
bool clampSliceBounds(llvm::ArrayRef<int64_t> shape,
                      llvm::SmallVectorImpl<int64_t> &start,
                      llvm::SmallVectorImpl<int64_t> &stop,
                      llvm::ArrayRef<int64_t> strides);

/// The mlx ops of an MLX primitive that takes or gives complex64 arrays.
/// mlxc holds a complex64 array of shape S as a float32 tensor of shape
/// S + [2] (real, imaginary: the bytes MLX stores); `isComplex` says which
/// operands are such pairs, and `resultTypes` are the recorded results in
/// that form. Errors are emitted at `loc`.
mlir::FailureOr<llvm::SmallVector<mlir::Value, 2>>
importComplexPrimitive(mlir::OpBuilder &builder, mlir::Location loc,
                       const Node &node, llvm::ArrayRef<mlir::Value> operands,
                       llvm::ArrayRef<bool> isComplex,
                       mlir::TypeRange resultTypes);

} // namespace mlxc::mlxfn

#endif // MLXC_IMPORTERS_MLXFN_PRIMITIVESTATE_H
