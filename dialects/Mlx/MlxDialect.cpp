//===- MlxDialect.cpp - mlx dialect registration --------------------------===//

#include "Mlx/MlxDialect.h"
#include "Mlx/MlxOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mlx;

#include "Mlx/MlxDialect.cpp.inc"
#include "Mlx/MlxEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Mlx/MlxAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "Mlx/MlxOps.cpp.inc"

void MlxDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Mlx/MlxAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "Mlx/MlxOps.cpp.inc"
      >();
}

Operation *MlxDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}
