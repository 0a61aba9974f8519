//===- EntryPoint.cpp - the C entry point of a compiled graph -------------===//

#include "codegen/Host/EntryPoint.h"
#include "Mlx/MlxAttributes.h"

#include "Mlx/TypePromotion.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSet.h"

// The runtime's limits (MLXRT_MAX_RANK): what it will accept is checked here,
// at compile time. The symbol names and the descriptor's layout come from
// the ABI header the runtime reads them with.
#include "runtime/mlxrt.h"
#include "runtime/mlxrt_abi.h"

#include <cstddef>

// The descriptor is emitted as the LLVM struct { i32, i32, ptr x 4 }.
static_assert(offsetof(mlxrt_model_abi, abi_version) == 0 &&
                  offsetof(mlxrt_model_abi, flags) == 4 &&
                  offsetof(mlxrt_model_abi, name) == 8 &&
                  offsetof(mlxrt_model_abi, signature) == 16 &&
                  offsetof(mlxrt_model_abi, entry) == 24 &&
                  offsetof(mlxrt_model_abi, entry_cuda) == 32 &&
                  sizeof(mlxrt_model_abi) == 40,
              "mlxrt_model_abi is not laid out as codegen emits it");

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
  for (auto [output, input] : cpuInPlace)
    text += "cpu-in-place " + outputs[output].name + " " + inputs[input].name +
            "\n";
  for (auto [output, input] : cudaInPlace)
    text += "cuda-in-place " + outputs[output].name + " " + inputs[input].name +
            "\n";
  return text;
}

static bool isEmpty(const TensorSpec &spec);

void ProgramSignature::setInPlace(Variant variant, ArrayRef<int64_t> plan) {
  auto &pairs = variant == Variant::Cpu ? cpuInPlace : cudaInPlace;
  pairs.clear();
  // The graph function's arguments: the inputs that hold elements, then
  // one out-parameter per computed output.
  SmallVector<size_t> inputOfArg;
  for (auto [i, spec] : llvm::enumerate(inputs))
    if (!isEmpty(spec))
      inputOfArg.push_back(i);
  size_t param = 0;
  for (size_t k = 0; k < outputs.size(); ++k) {
    bool computed = outputSources.empty()
                        ? !isEmpty(outputs[k])
                        : outputSources[k].kind == OutputSource::Computed;
    if (!computed)
      continue;
    if (param < plan.size() && plan[param] >= 0 &&
        static_cast<size_t>(plan[param]) < inputOfArg.size())
      pairs.push_back({k, inputOfArg[plan[param]]});
    ++param;
  }
}

std::string mlx::getModelSymbol(StringRef model, StringRef suffix) {
  return (MLXRT_SYMBOL_PREFIX + model + suffix).str();
}

bool mlx::isValidModelName(StringRef name) {
  if (name.empty() || llvm::isDigit(name.front()))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

std::string mlx::sanitizeModelName(StringRef stem) {
  std::string name;
  for (char c : stem)
    name.push_back(llvm::isAlnum(c) || c == '_' ? c : '_');
  if (name.empty())
    return MLXRT_EXECUTABLE_MODEL_NAME;
  if (llvm::isDigit(name.front()))
    name.insert(name.begin(), '_');
  return name;
}

SmallVector<std::string> mlx::getExportedSymbols(StringRef model) {
  SmallVector<std::string> names;
  for (StringRef suffix :
       {StringRef(MLXRT_MODEL_SUFFIX), StringRef(MLXRT_SIGNATURE_SUFFIX),
        StringRef(MLXRT_ENTRY_SUFFIX), StringRef(MLXRT_ENTRY_CUDA_SUFFIX),
        StringRef("")})
    names.push_back(getModelSymbol(model, suffix));
  names.push_back(MLXRT_SHARED_MODEL_SYMBOL);
  return names;
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
    // complex64 arrays travel as float32 (real, imaginary) pairs.
    if (auto dtype = attrs ? attrs.getAs<StringAttr>(mlx::attrs::kDtype) : nullptr) {
      if (dtype.getValue() != "complex64" || !spec.dtype.isF32() ||
          spec.shape.empty() || spec.shape.back() != 2)
        return func.emitError()
               << kind << " #" << index << " has type " << type
               << " and mlx.dtype \"" << dtype.getValue()
               << "\"; only complex64 is named so, on float32 pairs (a last "
                  "axis of 2)";
      spec.dtype = ComplexType::get(spec.dtype);
      spec.shape.pop_back();
    }
    StringAttr name = attrs ? attrs.getAs<StringAttr>(mlx::attrs::kName) : nullptr;
    spec.name =
        name ? name.str()
             : ((kind == "argument" ? "arg" : "out") + Twine(index)).str();
    auto fail = [&]() {
      std::string shown;
      llvm::raw_string_ostream os(shown);
      llvm::printEscapedString(llvm::StringRef(spec.name).take_front(64), os);
      return func.emitError() << kind << " #" << index << " ('" << shown
                              << "', " << type << "): ";
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

/// Declares `void name(ptr)` at the top of `module` unless it exists.
static LLVM::LLVMFuncOp getOrDeclareEntry(OpBuilder &b, ModuleOp module,
                                          Location loc, StringRef name) {
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return fn;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  return LLVM::LLVMFuncOp::create(
      b, loc, name,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(b.getContext()),
                                  {ptr}));
}

/// `const mlxrt_model_abi mlxc_<model>_model` (runtime/mlxrt_abi.h).
static void addModelDescriptor(OpBuilder &b, ModuleOp module, Location loc,
                               StringRef model, bool hasCuda) {
  MLIRContext *ctx = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i32 = b.getI32Type();
  std::string nameText = model.str();
  nameText.push_back('\0');
  std::string nameSymbol = getModelSymbol(model, "_name");
  LLVM::GlobalOp::create(
      b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), nameText.size()),
      /*isConstant=*/true, LLVM::Linkage::Internal, nameSymbol,
      b.getStringAttr(nameText));
  LLVM::LLVMFuncOp cudaEntry;
  if (hasCuda)
    cudaEntry = getOrDeclareEntry(
        b, module, loc, getModelSymbol(model, MLXRT_ENTRY_CUDA_SUFFIX));
  auto type =
      LLVM::LLVMStructType::getLiteral(ctx, {i32, i32, ptr, ptr, ptr, ptr});
  auto global = LLVM::GlobalOp::create(
      b, loc, type, /*isConstant=*/true, LLVM::Linkage::External,
      getModelSymbol(model, MLXRT_MODEL_SUFFIX), Attribute());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(b.createBlock(&global.getInitializerRegion()));
  Value value = LLVM::UndefOp::create(b, loc, type);
  auto insert = [&](Value field, int64_t index) {
    value = LLVM::InsertValueOp::create(b, loc, value, field, index);
  };
  insert(LLVM::ConstantOp::create(b, loc, i32,
                                  b.getI32IntegerAttr(MLXRT_ABI_VERSION)),
         0);
  insert(LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(0)), 1);
  insert(LLVM::AddressOfOp::create(b, loc, ptr, nameSymbol), 2);
  insert(LLVM::AddressOfOp::create(
             b, loc, ptr, getModelSymbol(model, MLXRT_SIGNATURE_SUFFIX)),
         3);
  insert(LLVM::AddressOfOp::create(b, loc, ptr,
                                   getModelSymbol(model, MLXRT_ENTRY_SUFFIX)),
         4);
  insert(cudaEntry ? Value(LLVM::AddressOfOp::create(b, loc, ptr,
                                                     cudaEntry.getSymName()))
                   : Value(LLVM::ZeroOp::create(b, loc, ptr)),
         5);
  LLVM::ReturnOp::create(b, loc, value);
}

LogicalResult mlx::addSharedModelPointer(ModuleOp module, StringRef model) {
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(module.getContext());
  std::string descriptor = getModelSymbol(model, MLXRT_MODEL_SUFFIX);
  if (!module.lookupSymbol<LLVM::GlobalOp>(descriptor))
    return module.emitError() << descriptor << " not found";
  auto global = LLVM::GlobalOp::create(b, loc, ptr, /*isConstant=*/true,
                                       LLVM::Linkage::External,
                                       MLXRT_SHARED_MODEL_SYMBOL, Attribute());
  b.setInsertionPointToStart(b.createBlock(&global.getInitializerRegion()));
  LLVM::ReturnOp::create(
      b, loc, LLVM::AddressOfOp::create(b, loc, ptr, descriptor).getResult());
  return success();
}

LogicalResult mlx::addEntryPoint(ModuleOp module,
                                 const ProgramSignature &signature,
                                 Variant variant, StringRef model,
                                 bool capturable, bool hasCuda) {
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
    LLVM::GlobalOp::create(
        b, loc, arrayType, /*isConstant=*/true, LLVM::Linkage::External,
        getModelSymbol(model, MLXRT_SIGNATURE_SUFFIX), b.getStringAttr(text));
    addModelDescriptor(b, module, loc, model, hasCuda);
  }

  auto entryType =
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr});
  auto entry = LLVM::LLVMFuncOp::create(
      b, loc,
      getModelSymbol(model, variant == Variant::Cpu ? MLXRT_ENTRY_SUFFIX
                                                    : MLXRT_ENTRY_CUDA_SUFFIX),
      entryType);
  Block *body = entry.addEntryBlock(b);
  b.setInsertionPointToStart(body);
  if (variant == Variant::Cuda && capturable) {
    auto voidType =
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {});
    auto declared =
        module.lookupSymbol<LLVM::LLVMFuncOp>(MLXRT_GRAPH_CAPTURABLE_SYMBOL);
    if (!declared) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      declared =
          LLVM::LLVMFuncOp::create(b, loc, MLXRT_GRAPH_CAPTURABLE_SYMBOL, voidType);
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
    if (isComputed(k) || signature.outputSources[k].kind == OutputSource::Empty)
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
                                      const ProgramSignature &signature,
                                      StringRef model) {
  MLIRContext *ctx = module.getContext();
  std::string entryName = getModelSymbol(model, MLXRT_ENTRY_SUFFIX);
  auto entry = module.lookupSymbol<LLVM::LLVMFuncOp>(entryName);
  if (!entry)
    return module.emitError() << entryName << " not found";
  size_t count = signature.inputs.size() + signature.outputs.size();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = entry.getLoc();
  auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                          SmallVector<Type>(count, ptr));
  auto fn = LLVM::LLVMFuncOp::create(b, loc, getModelSymbol(model, ""), type);
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
  if (isa<ComplexType>(dtype))
    return "float"; // (real, imaginary) pairs
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
                                  StringRef source, StringRef model,
                                  bool hasCuda) {
  std::string guard = "MLXC_" + StringRef(model).upper() + "_H";
  std::string h;
  llvm::raw_string_ostream os(h);
  os << "/* Generated by mlxc from " << source << ": graph '" << signature.entry
     << "', model '" << model << "'. */\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <stdbool.h>\n#include <stdint.h>\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
     << "/* Runs the graph on the CPU in the calling thread. Every buffer is\n"
     << "   row-major and contiguous; float16/bfloat16 are raw 16-bit values.\n"
     << "   Outputs are written in full. */\n"
     << "void " << getModelSymbol(model, "") << "(";
  bool first = true;
  auto param = [&](const TensorSpec &spec, bool isInput) {
    // Names such as "layers.0.w" are not C identifiers.
    os << (first ? "" : ",") << "\n    " << (isInput ? "const " : "")
       << getCType(spec.dtype) << " *" << sanitizeModelName(spec.name) << " /* "
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
     << "void " << getModelSymbol(model, MLXRT_ENTRY_SUFFIX)
     << "(void **buffers);\n";
  if (hasCuda)
    os << "/* The CUDA variant: run it through the runtime (mlxrt_api.h). */\n"
       << "void " << getModelSymbol(model, MLXRT_ENTRY_CUDA_SUFFIX)
       << "(void **buffers);\n";
  os << "extern const char " << getModelSymbol(model, MLXRT_SIGNATURE_SUFFIX)
     << "[];\n\n"
     << "/* For the runtime's C API: mlxrt_model_open(instance, &"
     << getModelSymbol(model, MLXRT_MODEL_SUFFIX) << ", ...). */\n"
     << "struct mlxrt_model_abi;\n"
     << "extern const struct mlxrt_model_abi "
     << getModelSymbol(model, MLXRT_MODEL_SUFFIX) << ";\n\n"
     << "#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
  return h;
}
