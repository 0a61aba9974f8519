//===- MlxOps.h - mlx dialect ops -------------------------------*- C++ -*-===//
//
// Op classes generated from MlxOps.td, and the helpers their type inference
// uses.
//
//===----------------------------------------------------------------------===//

#ifndef MLX_MLXOPS_H
#define MLX_MLXOPS_H

#include "Mlx/MlxDialect.h"
#include "Mlx/ShapeInference.h"
#include "Mlx/TypePromotion.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Mlx/MlxEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Mlx/MlxAttrs.h.inc"

#define GET_OP_CLASSES
#include "Mlx/MlxOps.h.inc"

#endif // MLX_MLXOPS_H
