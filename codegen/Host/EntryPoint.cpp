//===- EntryPoint.cpp - the C entry point of a compiled graph -------------===//

#include "codegen/Host/EntryPoint.h"

#include "Mlx/TypePromotion.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::mlx;

std::string ProgramSignature::str() const {
  std::string text = "entry " + entry + "\n";
  auto add = [&](StringRef kind, const TensorSpec &spec) {
    text += (kind + " " + spec.name + " " + getDtypeName(spec.dtype) + " ").str();
    if (spec.shape.empty())
      text += "scalar";
    for (auto [i, dim] : llvm::enumerate(spec.shape))
      text += (i ? "," : "") + std::to_string(dim);
    text += "\n";
  };
  for (const TensorSpec &spec : inputs)
    add("input", spec);
  for (const TensorSpec &spec : outputs)
    add("output", spec);
  return text;
}

std::string mlx::getGraphSymbol(StringRef entry, Variant variant) {
  return ((variant == Variant::Cpu ? "mlxc_graph_" : "mlxc_graph_cuda_") +
          entry).str();
}

FailureOr<ProgramSignature> mlx::getProgramSignature(func::FuncOp func) {
  ProgramSignature signature;
  signature.entry = func.getSymName().str();
  auto read = [&](Type type, DictionaryAttr attrs, StringRef kind,
                  unsigned index) -> FailureOr<TensorSpec> {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !isMlxDtype(tensor.getElementType()) ||
        !tensor.hasStaticShape())
      return func.emitError() << kind << " #" << index << " has type " << type
                              << "; a compiled graph takes and returns "
                                 "statically shaped tensors of MLX dtypes";
    TensorSpec spec;
    spec.dtype = tensor.getElementType();
    spec.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
    StringAttr name = attrs ? attrs.getAs<StringAttr>("mlx.name") : nullptr;
    spec.name = name ? name.str()
                     : ((kind == "argument" ? "arg" : "out") + Twine(index)).str();
    return spec;
  };
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    FailureOr<TensorSpec> spec = read(type, func.getArgAttrDict(i), "argument", i);
    if (failed(spec))
      return failure();
    signature.inputs.push_back(*spec);
  }
  for (auto [i, type] : llvm::enumerate(func.getResultTypes())) {
    FailureOr<TensorSpec> spec = read(type, func.getResultAttrDict(i), "result", i);
    if (failed(spec))
      return failure();
    signature.outputs.push_back(*spec);
  }
  return signature;
}

LogicalResult mlx::addEntryPoint(ModuleOp module,
                                 const ProgramSignature &signature,
                                 Variant variant) {
  MLIRContext *ctx = module.getContext();
  std::string graph = getGraphSymbol(signature.entry, variant);
  auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(graph);
  size_t buffers = signature.inputs.size() + signature.outputs.size();
  if (!fn || fn.getNumArguments() != buffers)
    return module.emitError() << "lowered graph function '" << graph
                              << "' with " << buffers
                              << " pointer arguments not found";
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = fn.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(ctx);

  if (variant == Variant::Cpu) {
    std::string text = signature.str();
    text.push_back('\0');
    auto arrayType =
        LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), text.size());
    LLVM::GlobalOp::create(b, loc, arrayType, /*isConstant=*/true,
                           LLVM::Linkage::External, "mlxc_program_signature",
                           b.getStringAttr(text));
  }

  auto entryType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr});
  auto entry = LLVM::LLVMFuncOp::create(
      b, loc,
      variant == Variant::Cpu ? "mlxc_program_entry" : "mlxc_program_entry_cuda",
      entryType);
  Block *body = entry.addEntryBlock(b);
  b.setInsertionPointToStart(body);
  SmallVector<Value> args;
  for (size_t i = 0; i < buffers; ++i) {
    Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr, body->getArgument(0),
                                     ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    args.push_back(LLVM::LoadOp::create(b, loc, ptr, slot));
  }
  LLVM::CallOp::create(b, loc, fn, args);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  return success();
}
