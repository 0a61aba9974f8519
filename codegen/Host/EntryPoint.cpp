//===- EntryPoint.cpp - the C entry point of a compiled graph -------------===//

#include "codegen/Host/EntryPoint.h"

#include "Mlx/TypePromotion.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSet.h"

// The runtime's limits (MLXRT_MAX_RANK): what it will accept is checked here,
// at compile time.
#include "runtime/mlxrt.h"

using namespace mlir;
using namespace mlir::mlx;

std::string ProgramSignature::str() const {
  std::string text = "entry " + entry + "\n";
  auto add = [&](StringRef kind, const TensorSpec &spec) {
    text +=
        (kind + " " + spec.name + " " + getDtypeName(spec.dtype) + " ").str();
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
          entry)
      .str();
}

/// Why `name` cannot be a name in the signature (one token of a line there,
/// and bindable as NAME=FILE on the executable's command line), or "".
static std::string whyBadName(StringRef name) {
  if (name.empty())
    return "it is empty";
  for (char c : name) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f)
      return "it holds a space, a control character or a non-ASCII byte";
    if (c == '=' || c == '/' || c == ':')
      return std::string("it holds '") + c + "'";
  }
  return "";
}

FailureOr<ProgramSignature> mlx::getProgramSignature(func::FuncOp func) {
  ProgramSignature signature;
  signature.entry = func.getSymName().str();
  if (std::string why = whyBadName(signature.entry); !why.empty())
    return func.emitError() << "the graph function's name cannot be a "
                               "program's entry name: "
                            << why;
  llvm::StringSet<> names;
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
    spec.name =
        name ? name.str()
             : ((kind == "argument" ? "arg" : "out") + Twine(index)).str();
    auto fail = [&]() {
      std::string shown;
      llvm::raw_string_ostream os(shown);
      llvm::printEscapedString(llvm::StringRef(spec.name).take_front(64), os);
      return func.emitError()
             << kind << " #" << index << " ('" << shown << "', " << type
             << "): ";
    };
    if (std::string why = whyBadName(spec.name); !why.empty())
      return fail() << "not a valid name: " << why;
    if (!names.insert(spec.name).second)
      return fail() << "the name is taken by another input or output";
    if (tensor.getRank() > MLXRT_MAX_RANK)
      return fail() << "rank " << tensor.getRank()
                    << " is above the runtime's limit of " << MLXRT_MAX_RANK
                    << " dimensions";
    // Byte counts are signed 64-bit (memref sizes, and the runtime's size_t).
    uint64_t bytes = getItemSize(spec.dtype);
    bool empty = llvm::is_contained(spec.shape, 0);
    for (int64_t dim : spec.shape)
      if (!empty && (bytes > static_cast<uint64_t>(INT64_MAX) /
                                 static_cast<uint64_t>(dim)))
        return fail() << "the tensor's byte count overflows 64 bits";
      else if (!empty)
        bytes *= static_cast<uint64_t>(dim);
    return spec;
  };
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    FailureOr<TensorSpec> spec =
        read(type, func.getArgAttrDict(i), "argument", i);
    if (failed(spec))
      return failure();
    signature.inputs.push_back(*spec);
  }
  for (auto [i, type] : llvm::enumerate(func.getResultTypes())) {
    FailureOr<TensorSpec> spec =
        read(type, func.getResultAttrDict(i), "result", i);
    if (failed(spec))
      return failure();
    signature.outputs.push_back(*spec);
  }
  return signature;
}

/// Zero-size arrays hold no bytes: the graph function neither takes nor
/// returns them (a zero-size memref has no bare-pointer form), and the entry
/// point passes on only the other buffers.
static bool isEmpty(const TensorSpec &spec) {
  return llvm::is_contained(spec.shape, 0);
}

void mlx::dedupGraphResults(func::FuncOp func, ProgramSignature &signature) {
  auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
  signature.outputSources.clear();
  SmallVector<Value> computed;
  SmallVector<Type> types;
  DenseMap<Value, unsigned> firstOutput;
  for (auto [k, value] : llvm::enumerate(ret.getOperands())) {
    OutputSource source;
    if (isEmpty(signature.outputs[k])) {
      source = {OutputSource::Empty, 0};
    } else if (auto arg = dyn_cast<BlockArgument>(value)) {
      source = {OutputSource::Input, arg.getArgNumber()};
    } else if (auto it = firstOutput.find(value); it != firstOutput.end()) {
      source = {OutputSource::Output, it->second};
    } else {
      firstOutput[value] = k;
      computed.push_back(value);
      types.push_back(value.getType());
    }
    signature.outputSources.push_back(source);
  }
  // Result attributes (mlx.name) belonged to the old results.
  func.removeResAttrsAttr();
  if (computed.size() != ret.getNumOperands()) {
    OpBuilder b(ret);
    func::ReturnOp::create(b, ret.getLoc(), computed);
    ret.erase();
  }
  // Zero-size inputs: any value of their type will do.
  BitVector emptyInputs(func.getNumArguments());
  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  for (auto [i, spec] : llvm::enumerate(signature.inputs)) {
    if (!isEmpty(spec))
      continue;
    BlockArgument arg = func.getArgument(i);
    auto type = cast<RankedTensorType>(arg.getType());
    arg.replaceAllUsesWith(tensor::EmptyOp::create(
        b, func.getLoc(), type.getShape(), type.getElementType()));
    emptyInputs.set(i);
  }
  (void)func.eraseArguments(emptyInputs);
  func.setFunctionType(
      FunctionType::get(func.getContext(), func.getArgumentTypes(), types));
}

static int64_t byteSize(const TensorSpec &spec) {
  int64_t n = getItemSize(spec.dtype);
  for (int64_t d : spec.shape)
    n *= d;
  return n;
}

LogicalResult mlx::addEntryPoint(ModuleOp module,
                                 const ProgramSignature &signature,
                                 Variant variant, bool capturable) {
  MLIRContext *ctx = module.getContext();
  std::string graph = getGraphSymbol(signature.entry, variant);
  auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(graph);
  size_t numInputs = signature.inputs.size();
  size_t numOutputs = signature.outputs.size();
  auto isComputed = [&](size_t k) {
    return signature.outputSources.empty()
               ? !isEmpty(signature.outputs[k])
               : signature.outputSources[k].kind == OutputSource::Computed;
  };
  size_t buffers = 0;
  for (size_t k = 0; k < numOutputs; ++k)
    buffers += isComputed(k);
  for (const TensorSpec &spec : signature.inputs)
    buffers += !isEmpty(spec);
  if (!fn || fn.getNumArguments() != buffers)
    return module.emitError()
           << "lowered graph function '" << graph << "' with " << buffers
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

  auto entryType =
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr});
  auto entry = LLVM::LLVMFuncOp::create(b, loc,
                                        variant == Variant::Cpu
                                            ? "mlxc_program_entry"
                                            : "mlxc_program_entry_cuda",
                                        entryType);
  Block *body = entry.addEntryBlock(b);
  b.setInsertionPointToStart(body);
  if (variant == Variant::Cuda && capturable) {
    auto voidType =
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {});
    auto declared =
        module.lookupSymbol<LLVM::LLVMFuncOp>("mlxrt_graph_capturable");
    if (!declared) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      declared =
          LLVM::LLVMFuncOp::create(b, loc, "mlxrt_graph_capturable", voidType);
    }
    LLVM::CallOp::create(b, loc, declared, ValueRange{});
  }
  auto loadSlot = [&](size_t i) -> Value {
    Value slot =
        LLVM::GEPOp::create(b, loc, ptr, ptr, body->getArgument(0),
                            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    return LLVM::LoadOp::create(b, loc, ptr, slot);
  };
  SmallVector<Value> args;
  for (size_t i = 0; i < numInputs; ++i)
    if (!isEmpty(signature.inputs[i]))
      args.push_back(loadSlot(i));
  for (size_t k = 0; k < numOutputs; ++k)
    if (isComputed(k))
      args.push_back(loadSlot(numInputs + k));
  LLVM::CallOp::create(b, loc, fn, args);
  // Outputs that repeat an input or another output are copies.
  for (size_t k = 0; k < numOutputs; ++k) {
    if (isComputed(k) ||
        signature.outputSources[k].kind == OutputSource::Empty)
      continue;
    const OutputSource &source = signature.outputSources[k];
    size_t from = source.kind == OutputSource::Input ? source.index
                                                     : numInputs + source.index;
    Value bytes = LLVM::ConstantOp::create(
        b, loc, b.getI64Type(),
        b.getI64IntegerAttr(byteSize(signature.outputs[k])));
    if (variant == Variant::Cpu) {
      LLVM::MemcpyOp::create(b, loc, loadSlot(numInputs + k), loadSlot(from),
                             bytes, /*isVolatile=*/false);
      continue;
    }
    // On CUDA the buffers may be device memory (copy mode): the runtime
    // copies on its stream.
    auto memcpyType = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(ctx), {ptr, ptr, b.getI64Type(), ptr});
    auto memcpyFn = module.lookupSymbol<LLVM::LLVMFuncOp>("mgpuMemcpy");
    if (!memcpyFn) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      memcpyFn = LLVM::LLVMFuncOp::create(b, loc, "mgpuMemcpy", memcpyType);
    }
    Value null = LLVM::ZeroOp::create(b, loc, ptr);
    LLVM::CallOp::create(
        b, loc, memcpyFn,
        ValueRange{loadSlot(numInputs + k), loadSlot(from), bytes, null});
  }
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  return success();
}

LogicalResult mlx::addTypedEntryPoint(ModuleOp module,
                                      const ProgramSignature &signature) {
  MLIRContext *ctx = module.getContext();
  auto entry = module.lookupSymbol<LLVM::LLVMFuncOp>("mlxc_program_entry");
  if (!entry)
    return module.emitError() << "mlxc_program_entry not found";
  size_t count = signature.inputs.size() + signature.outputs.size();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = entry.getLoc();
  auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                          SmallVector<Type>(count, ptr));
  auto fn = LLVM::LLVMFuncOp::create(b, loc, "mlxc_" + signature.entry, type);
  Block *body = fn.addEntryBlock(b);
  b.setInsertionPointToStart(body);
  Value size = LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                        b.getI64IntegerAttr(count));
  Value array = LLVM::AllocaOp::create(b, loc, ptr, ptr, size);
  for (size_t i = 0; i < count; ++i) {
    Value slot =
        LLVM::GEPOp::create(b, loc, ptr, ptr, array,
                            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    LLVM::StoreOp::create(b, loc, body->getArgument(i), slot);
  }
  LLVM::CallOp::create(b, loc, entry, ValueRange{array});
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  return success();
}

/// The C type of an MLX dtype's elements.
static std::string getCType(Type dtype) {
  if (dtype.isInteger(1))
    return "bool";
  if (dtype.isF16() || dtype.isBF16())
    return "uint16_t"; // raw half bits
  if (dtype.isF32())
    return "float";
  if (dtype.isF64())
    return "double";
  bool isUnsigned = getDtypeCategory(dtype) == DtypeCategory::Unsigned;
  return (isUnsigned ? "uint" : "int") +
         std::to_string(dtype.getIntOrFloatBitWidth()) + "_t";
}

std::string mlx::getLibraryHeader(const ProgramSignature &signature,
                                  StringRef source) {
  std::string guard = "MLXC_" + StringRef(signature.entry).upper() + "_H";
  std::string h;
  llvm::raw_string_ostream os(h);
  os << "/* Generated by mlxc from " << source << ": graph '" << signature.entry
     << "'. */\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <stdbool.h>\n#include <stdint.h>\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
     << "/* Runs the graph on the CPU in the calling thread. Every buffer is\n"
     << "   row-major and contiguous; float16/bfloat16 are raw 16-bit values.\n"
     << "   Outputs are written in full. */\n"
     << "void mlxc_" << signature.entry << "(";
  bool first = true;
  auto param = [&](const TensorSpec &spec, bool isInput) {
    os << (first ? "" : ",") << "\n    " << (isInput ? "const " : "")
       << getCType(spec.dtype) << " *" << spec.name << " /* "
       << getDtypeName(spec.dtype) << " [";
    llvm::interleaveComma(spec.shape, os);
    os << "] */";
    first = false;
  };
  for (const TensorSpec &spec : signature.inputs)
    param(spec, true);
  for (const TensorSpec &spec : signature.outputs)
    param(spec, false);
  os << ");\n\n"
     << "/* The generic form: inputs then outputs. The signature text lists\n"
     << "   them (\"input NAME DTYPE DIMS\" per line). */\n"
     << "void mlxc_program_entry(void **buffers);\n"
     << "extern const char mlxc_program_signature[];\n\n"
     << "#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
  return h;
}
