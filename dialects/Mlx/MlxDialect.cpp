//===- MlxDialect.cpp - mlx dialect registration --------------------------===//

#include "Mlx/MlxDialect.h"
#include "Mlx/MlxAttributes.h"
#include "Mlx/MlxOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSwitch.h"
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

namespace {
/// What an attribute of MlxAttributes.h holds.
enum class AttrKind { Unknown, String, Integer, Unit, IndexArray, Dtype };

AttrKind getAttrKind(StringRef name) {
  return llvm::StringSwitch<AttrKind>(name)
      .Cases({attrs::kName, attrs::kMlxfnVersion, attrs::kMlxfnMetadata,
              attrs::kKernelName},
             AttrKind::String)
      .Case(attrs::kDtype, AttrKind::Dtype)
      .Cases({attrs::kDeviceArenaBytes, attrs::kUnifiedArenaBytes,
              attrs::kUnreusedBytes, attrs::kPrefetches,
              attrs::kStreamedBuffers},
             AttrKind::Integer)
      .Cases({attrs::kCapturable, attrs::kCpuKernel, attrs::kAddressOnly,
              attrs::kDeviceAccess, attrs::kRowReduction, attrs::kRowKernel},
             AttrKind::Unit)
      .Case(attrs::kInPlace, AttrKind::IndexArray)
      .Default(AttrKind::Unknown);
}

LogicalResult verifyKind(NamedAttribute attr,
                         function_ref<InFlightDiagnostic()> emitError) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  switch (getAttrKind(name)) {
  case AttrKind::Unknown:
    return emitError() << "unknown mlx dialect attribute '" << name
                       << "' (dialects/Mlx/MlxAttributes.h lists them)";
  case AttrKind::String:
    if (isa<StringAttr>(value))
      return success();
    return emitError() << "'" << name << "' must be a string";
  case AttrKind::Dtype:
    if (auto text = dyn_cast<StringAttr>(value);
        text && text.getValue() == "complex64")
      return success();
    return emitError() << "'" << name << "' must be \"complex64\"";
  case AttrKind::Integer:
    if (auto integer = dyn_cast<IntegerAttr>(value);
        integer && integer.getType().isSignlessInteger())
      return success();
    return emitError() << "'" << name << "' must be an integer";
  case AttrKind::Unit:
    if (isa<UnitAttr>(value))
      return success();
    return emitError() << "'" << name << "' must be a unit attribute";
  case AttrKind::IndexArray:
    if (isa<DenseI64ArrayAttr>(value))
      return success();
    return emitError() << "'" << name << "' must be an array<i64>";
  }
  llvm_unreachable("unknown attribute kind");
}

bool isSignatureAttr(StringRef name) {
  return name == attrs::kName || name == attrs::kDtype;
}
} // namespace

LogicalResult MlxDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  auto emitError = [&] { return op->emitError(); };
  if (failed(verifyKind(attr, emitError)))
    return failure();
  StringRef name = attr.getName().getValue();
  if (isSignatureAttr(name))
    return op->emitError() << "'" << name
                           << "' belongs on a function's arguments and "
                              "results";
  if ((name == attrs::kMlxfnVersion || name == attrs::kMlxfnMetadata) &&
      !isa<ModuleOp>(op))
    return op->emitError() << "'" << name << "' belongs on a module";
  return success();
}

LogicalResult MlxDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                   unsigned,
                                                   NamedAttribute attr) {
  auto emitError = [&] { return op->emitError(); };
  if (failed(verifyKind(attr, emitError)))
    return failure();
  if (!isSignatureAttr(attr.getName().getValue()))
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' is not an argument attribute";
  return success();
}

LogicalResult MlxDialect::verifyRegionResultAttribute(Operation *op, unsigned,
                                                      unsigned,
                                                      NamedAttribute attr) {
  return verifyRegionArgAttribute(op, 0, 0, attr);
}
