//===- MlxfnImporter.cpp - .mlxfn files into the mlx dialect --------------===//
//
// Each MLX primitive becomes the mlx op of the same meaning. Ops are built
// generically (name, operands, attributes) with the result types MLX
// recorded in the file; the module verifier then checks every result type
// against the dialect's own shape and dtype inference, so a disagreement
// between MLX and mlxc is an error at import, not a wrong answer later.
//
//===----------------------------------------------------------------------===//

#include "importers/Mlxfn/MlxfnImporter.h"
#include "Mlx/MlxAttributes.h"
#include "importers/Mlxfn/MlxfnReader.h"
#include "importers/Mlxfn/PrimitiveState.h"

#include "Mlx/MlxDialect.h"
#include "Mlx/MlxOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlxc::mlxfn;

namespace {

/// Payloads at least this large stay in the file (a resource blob over the
/// mapped buffer); smaller ones are copied into ordinary dense attributes,
/// which folds and prints read more easily.
constexpr size_t kResourceThresholdBytes = 256;

/// The outcome of mapping one primitive.
using Values = SmallVector<Value, 2>;

class Importer {
public:
  Importer(const File &file, StringRef filename, StringRef stem,
           MLIRContext *context)
      : file(file), filename(filename), stem(stem), context(context),
        builder(context) {}

  OwningOpRef<ModuleOp> run();

private:
  LogicalResult importFunction(const Function &function, unsigned index,
                               ModuleOp module);
  FailureOr<Value> getConstant(uint64_t id, Location loc);
  FailureOr<Values> importPrimitive(const Node &node, ArrayRef<Value> operands,
                                    TypeRange resultTypes, Location loc);
  FailureOr<Type> getElementType(Dtype dtype, Location loc);
  FailureOr<RankedTensorType> getTensorType(const ArrayMeta &meta,
                                            Location loc);
  /// getTensorType of each of `metas`, appended to `types`.
  LogicalResult getTensorTypes(ArrayRef<ArrayMeta> metas, Location loc,
                               SmallVectorImpl<Type> &types);

  const File &file;
  StringRef filename, stem;
  MLIRContext *context;
  OpBuilder builder;
  /// Constants already materialized in the current function.
  std::unordered_map<uint64_t, Value> constantValues;
  unsigned resourceCount = 0;
};

} // namespace

FailureOr<Type> Importer::getElementType(Dtype dtype, Location loc) {
  Builder b(context);
  switch (dtype) {
  case Dtype::Bool:
    return b.getI1Type();
  case Dtype::UInt8:
    return Type(b.getIntegerType(8, false));
  case Dtype::UInt16:
    return Type(b.getIntegerType(16, false));
  case Dtype::UInt32:
    return Type(b.getIntegerType(32, false));
  case Dtype::UInt64:
    return Type(b.getIntegerType(64, false));
  case Dtype::Int8:
    return Type(b.getI8Type());
  case Dtype::Int16:
    return Type(b.getI16Type());
  case Dtype::Int32:
    return Type(b.getI32Type());
  case Dtype::Int64:
    return Type(b.getI64Type());
  case Dtype::Float16:
    return Type(b.getF16Type());
  case Dtype::Float32:
    return Type(b.getF32Type());
  case Dtype::Float64:
    return Type(b.getF64Type());
  case Dtype::BFloat16:
    return Type(b.getBF16Type());
  case Dtype::Complex64:
    break;
  }
  return emitError(loc) << "dtype " << getDtypeName(dtype)
                        << " is not supported by mlxc";
}

FailureOr<RankedTensorType> Importer::getTensorType(const ArrayMeta &meta,
                                                    Location loc) {
  // complex64: (real, imaginary) float32 pairs, a trailing axis of 2.
  if (meta.dtype == Dtype::Complex64) {
    SmallVector<int64_t> shape(meta.shape);
    shape.push_back(2);
    return RankedTensorType::get(shape, Float32Type::get(context));
  }
  FailureOr<Type> element = getElementType(meta.dtype, loc);
  if (failed(element))
    return failure();
  return RankedTensorType::get(meta.shape, *element);
}

LogicalResult Importer::getTensorTypes(ArrayRef<ArrayMeta> metas, Location loc,
                                       SmallVectorImpl<Type> &types) {
  for (const ArrayMeta &meta : metas) {
    FailureOr<RankedTensorType> type = getTensorType(meta, loc);
    if (failed(type))
      return failure();
    types.push_back(*type);
  }
  return success();
}

FailureOr<Value> Importer::getConstant(uint64_t id, Location loc) {
  if (auto it = constantValues.find(id); it != constantValues.end())
    return it->second;
  auto it = file.constants.find(id);
  if (it == file.constants.end())
    return emitError(loc) << "constant " << id << " is used before its data";
  const Constant &constant = it->second;
  FailureOr<RankedTensorType> type = getTensorType(constant.meta, loc);
  if (failed(type))
    return failure();
  Location constLoc = NameLoc::get(
      builder.getStringAttr("constant@" + Twine(constant.offset)), loc);
  ElementsAttr value;
  if (constant.meta.dtype == Dtype::Bool) {
    SmallVector<bool> bits;
    for (char c : constant.data)
      bits.push_back(c != 0);
    value = DenseElementsAttr::get(*type, ArrayRef<bool>(bits));
  } else if (constant.data.size() < kResourceThresholdBytes) {
    bool splat = false;
    if (!DenseElementsAttr::isValidRawBuffer(*type, constant.data, splat))
      return emitError(constLoc) << "constant data does not match " << *type;
    value = DenseElementsAttr::getFromRawBuffer(*type, constant.data);
  } else {
    // No alignment is promised for payloads, so claim none.
    AsmResourceBlob blob =
        UnmanagedAsmResourceBlob::allocateWithAlign(constant.data, 1);
    value = DenseResourceElementsAttr::get(
        *type, ("mlxfn_" + stem + "_" + Twine(resourceCount++)).str(),
        std::move(blob));
  }
  Value result = mlx::ConstantOp::create(builder, constLoc, value);
  constantValues[id] = result;
  return result;
}

FailureOr<Values> Importer::importPrimitive(const Node &node,
                                            ArrayRef<Value> operands,
                                            TypeRange resultTypes,
                                            Location loc) {
  StringRef name = node.name;
  State s{node};
  Builder b(context);
  auto unsupported = [&](const Twine &why) -> FailureOr<Values> {
    return emitError(loc) << "MLX primitive " << name << " " << why;
  };
  auto expectInputs = [&](size_t lo, size_t hi) {
    if (operands.size() >= lo && operands.size() <= hi)
      return success();
    return failure();
  };
  // Ops take the types the file gives; the verifier checks them afterwards.
  auto buildTyped = [&](StringRef op, ValueRange args,
                        ArrayRef<NamedAttribute> attrs,
                        TypeRange types) -> Values {
    OperationState state(loc, ("mlx." + op).str());
    state.addOperands(args);
    state.addAttributes(attrs);
    state.addTypes(types);
    Operation *created = builder.create(state);
    return Values(created->getResults());
  };
  auto build = [&](StringRef op, ValueRange args,
                   ArrayRef<NamedAttribute> attrs = {}) -> FailureOr<Values> {
    return buildTyped(op, args, attrs, resultTypes);
  };
  auto attr = [&](StringRef key, Attribute value) {
    return b.getNamedAttr(key, value);
  };
  auto i64 = [&](int64_t v) { return b.getI64IntegerAttr(v); };
  auto arr = [&](ArrayRef<int64_t> v) { return b.getDenseI64ArrayAttr(v); };
  auto segments = [&](ArrayRef<int32_t> sizes) {
    return attr("operandSegmentSizes", b.getDenseI32ArrayAttr(sizes));
  };
  int64_t rank0 = operands.empty()
                      ? 0
                      : cast<RankedTensorType>(operands[0].getType()).getRank();

  // Primitives that map one to one, without state (their ops'
  // `mlxPrimitive` in MlxOps.td).
  static const llvm::StringMap<StringRef> simplePrimitives = {
#define MLX_PRIMITIVE(primitive, op) {primitive, op},
#include "Mlx/MlxPrimitives.inc"
#undef MLX_PRIMITIVE
  };
  StringRef simple = simplePrimitives.lookup(name);
  if (!simple.empty())
    return build(simple, operands);

  if (name == "Copy" || name == "StopGradient") {
    if (failed(expectInputs(1, 1)))
      return unsupported("needs 1 input");
    return Values{operands[0]};
  }
  if (name == "Depends") { // Outputs are the first inputs, ordered after the
    if (node.outputs.size() > operands.size()) // rest.
      return unsupported("has more outputs than inputs");
    return Values(operands.take_front(node.outputs.size()));
  }

  if (name == "Equal")
    return build("equal", operands, {attr("equal_nan", b.getBoolAttr(s.b(0)))});
  if (name == "Log") {
    static const char *const ops[] = {"log2", "log10", "log"};
    if (s.i(0) < 0 || s.i(0) > 2)
      return unsupported("has an unknown base " + Twine(s.i(0)));
    return build(ops[s.i(0)], operands);
  }
  if (name == "Sqrt")
    return build(s.b(0) ? "rsqrt" : "sqrt", operands);
  if (name == "BitwiseBinary") {
    static const char *const ops[] = {"bitwise_and", "bitwise_or",
                                      "bitwise_xor", "left_shift",
                                      "right_shift"};
    if (s.i(0) < 0 || s.i(0) > 4)
      return unsupported("has an unknown operation " + Twine(s.i(0)));
    return build(ops[s.i(0)], operands);
  }
  if (name == "AsType")
    return build(
        "astype", operands,
        {attr("dtype", TypeAttr::get(getElementTypeOrSelf(resultTypes[0])))});
  if (name == "View")
    return build(
        "view", operands,
        {attr("dtype", TypeAttr::get(getElementTypeOrSelf(resultTypes[0])))});

  // Layout.
  auto resultShape = [&]() {
    return cast<RankedTensorType>(resultTypes[0]).getShape();
  };
  if (name == "Reshape")
    // The stored shape may hold -1 (shapeless export); the recorded result
    // shape is the resolved one.
    return build("reshape", operands, {attr("shape", arr(resultShape()))});
  if (name == "Broadcast" || name == "BroadcastAxes")
    return build("broadcast_to", operands.take_front(1),
                 {attr("shape", arr(resultShape()))});
  if (name == "Transpose")
    return build("transpose", operands, {attr("axes", arr(s.v(0)))});
  if (name == "ExpandDims")
    return build("expand_dims", operands, {attr("axes", arr(s.v(0)))});
  if (name == "Squeeze")
    return build("squeeze", operands, {attr("axes", arr(s.v(0)))});
  if (name == "Flatten")
    return build(
        "flatten", operands,
        {attr("start_axis", i64(s.i(0))), attr("end_axis", i64(s.i(1)))});
  if (name == "Unflatten")
    return build("unflatten", operands,
                 {attr("axis", i64(s.i(0))), attr("shape", arr(s.v(1)))});
  auto sliceAttrs = [&](unsigned k) -> FailureOr<SmallVector<NamedAttribute>> {
    if (operands.empty())
      return failure();
    SmallVector<int64_t> start(s.v(k)), stop(s.v(k + 1));
    ArrayRef<int64_t> strides = s.v(k + 2);
    auto shape = cast<RankedTensorType>(operands[0].getType()).getShape();
    if (!clampSliceBounds(shape, start, stop, strides))
      return failure();
    return SmallVector<NamedAttribute>{attr("start", arr(start)),
                                       attr("stop", arr(stop)),
                                       attr("strides", arr(strides))};
  };
  if (name == "Slice" || name == "SliceUpdate") {
    bool update = name == "SliceUpdate";
    // MLX's SliceUpdate::ReduceType: Max, Min, Sum, Prod, None.
    static const char *const reductions[] = {"maximum", "minimum", "add",
                                             "multiply"};
    int64_t reduction = update && s.has(0) ? s.i(0) : 4;
    if (reduction < 0 || reduction > 4)
      return unsupported("has an unknown reduction " + Twine(reduction));
    FailureOr<SmallVector<NamedAttribute>> attrs = sliceAttrs(update ? 1 : 0);
    if (failed(attrs))
      return unsupported("has no input or bounds that do not match the "
                         "input's rank");
    if (!update || reduction == 4)
      return build(update ? "slice_update" : "slice", operands, *attrs);
    // x.at[slice].add(v) and the like: the slice combined with the update
    // (which has the slice's shape and the input's dtype), written back.
    if (operands.size() != 2)
      return unsupported("needs 2 inputs");
    Type sliceType = operands[1].getType();
    Value slice = buildTyped("slice", operands[0], *attrs, sliceType)[0];
    Value combined = buildTyped(reductions[reduction], {slice, operands[1]}, {},
                                sliceType)[0];
    return build("slice_update", {operands[0], combined}, *attrs);
  }
  if (name == "DynamicSlice")
    return build("dynamic_slice", operands,
                 {attr("axes", arr(s.v(0))), attr("slice_size", arr(s.v(1)))});
  if (name == "DynamicSliceUpdate")
    return build("dynamic_slice_update", operands, {attr("axes", arr(s.v(0)))});
  if (name == "Concatenate")
    return build("concatenate", operands, {attr("axis", i64(s.i(0)))});
  if (name == "Split")
    return build("split", operands,
                 {attr("indices", arr(s.v(0))), attr("axis", i64(s.i(1)))});
  if (name == "Pad")
    return build("pad", operands,
                 {attr("axes", arr(s.v(0))), attr("low", arr(s.v(1))),
                  attr("high", arr(s.v(2)))});
  if (name == "AsStrided")
    return build("as_strided", operands,
                 {attr("shape", arr(s.v(0))), attr("strides", arr(s.v(1))),
                  attr("offset", i64(s.i(2)))});
  if (name == "Arange")
    return build("arange", operands,
                 {attr("start", b.getF64FloatAttr(s.f(0))),
                  attr("stop", b.getF64FloatAttr(s.f(1))),
                  attr("step", b.getF64FloatAttr(s.f(2)))});
  if (name == "NumberOfElements") {
    // The element count of the (static) input over `axes`, or its inverse.
    if (failed(expectInputs(1, 1)))
      return unsupported("needs 1 input");
    auto inputType = cast<RankedTensorType>(operands[0].getType());
    double count = 1;
    for (int64_t axis : s.v(0)) {
      if (axis < -rank0 || axis >= rank0)
        return unsupported("has axis " + Twine(axis) + " out of range");
      count *= inputType.getDimSize(axis < 0 ? axis + rank0 : axis);
    }
    double value = s.b(1) ? 1.0 / count : count;
    auto type = cast<RankedTensorType>(resultTypes[0]);
    Attribute element;
    if (auto floatType = dyn_cast<FloatType>(type.getElementType()))
      element = b.getFloatAttr(floatType, value);
    else
      element =
          b.getIntegerAttr(type.getElementType(), static_cast<int64_t>(value));
    return Values{mlx::ConstantOp::create(
        builder, loc, DenseElementsAttr::get(type, element))};
  }

  // Reductions and scans (MLX's primitives keep the reduced axes).
  if (name == "Reduce") {
    static const char *const ops[] = {"all",  "any", "sum",
                                      "prod", "min", "max"};
    if (s.i(0) < 0 || s.i(0) > 5)
      return unsupported("has an unknown reduction " + Twine(s.i(0)));
    return build(
        ops[s.i(0)], operands,
        {attr("axes", arr(s.v(1))), attr("keepdims", b.getBoolAttr(true))});
  }
  if (name == "ArgReduce")
    return build(
        s.i(0) == 0 ? "argmin" : "argmax", operands,
        {attr("axis", i64(s.i(1))), attr("keepdims", b.getBoolAttr(true))});
  if (name == "LogSumExp")
    return build("logsumexp", operands,
                 {attr("axes", arr({rank0 - 1})),
                  attr("keepdims", b.getBoolAttr(true))});
  if (name == "Softmax")
    return build("softmax", operands,
                 {attr("axes", arr({rank0 - 1})),
                  attr("precise", b.getBoolAttr(s.b(0)))});
  if (name == "Scan") {
    static const char *const ops[] = {"cummax", "cummin", "cumsum", "cumprod"};
    if (s.i(0) < 0 || s.i(0) > 3)
      return unsupported("with reduction " + Twine(s.i(0)) +
                         " (logcumsumexp) has no mlx op");
    return build(ops[s.i(0)], operands,
                 {attr("axis", i64(s.i(1))),
                  attr("reverse", b.getBoolAttr(s.b(2))),
                  attr("inclusive", b.getBoolAttr(s.b(3)))});
  }
  if (name == "Sort" || name == "ArgSort")
    return build(name == "Sort" ? "sort" : "argsort", operands,
                 {attr("axis", i64(s.i(0)))});
  if (name == "Partition" || name == "ArgPartition")
    return build(name == "Partition" ? "partition" : "argpartition", operands,
                 {attr("kth", i64(s.i(0))), attr("axis", i64(s.i(1)))});
  if (name == "Hadamard")
    return build("hadamard_transform", operands,
                 {attr("scale", b.getF32FloatAttr(s.f(0)))});
  if (name == "SearchSorted")
    return build("searchsorted", operands,
                 {attr("right", b.getBoolAttr(s.b(0)))});

  // Indexing.
  if (name == "Gather")
    return build("gather", operands,
                 {attr("axes", arr(s.v(0))), attr("slice_sizes", arr(s.v(1)))});
  if (name == "GatherAxis")
    return build("take_along_axis", operands, {attr("axis", i64(s.i(0)))});
  if (name == "Scatter") {
    static const char *const ops[] = {"scatter_max", "scatter_min",
                                      "scatter_add", "scatter_prod", "scatter"};
    if (s.i(0) < 0 || s.i(0) > 4)
      return unsupported("has an unknown reduction " + Twine(s.i(0)));
    return build(ops[s.i(0)], operands, {attr("axes", arr(s.v(1)))});
  }
  if (name == "ScatterAxis")
    return build(s.i(0) == 0 ? "scatter_add_axis" : "put_along_axis", operands,
                 {attr("axis", i64(s.i(1)))});

  // Linear algebra.
  if (name == "AddMM") {
    if (failed(expectInputs(3, 3)))
      return unsupported("needs 3 inputs");
    return build("addmm", {operands[2], operands[0], operands[1]},
                 {attr("alpha", b.getF32FloatAttr(s.f(0))),
                  attr("beta", b.getF32FloatAttr(s.f(1)))});
  }
  auto quantization = [&](unsigned k) {
    return SmallVector<NamedAttribute>{
        attr("group_size", i64(s.i(k))), attr("bits", i64(s.i(k + 1))),
        attr("mode",
             mlx::QuantizationModeAttr::get(
                 context, static_cast<mlx::QuantizationMode>(s.i(k + 2))))};
  };
  auto checkMode = [&](unsigned k) {
    return success(s.i(k) >= 0 && s.i(k) <= 3);
  };
  if (name == "GatherMM") {
    if (failed(expectInputs(4, 4)))
      return unsupported("needs 4 inputs");
    return build("gather_mm", operands,
                 {segments({1, 1, 1, 1}),
                  attr("sorted_indices", b.getBoolAttr(s.b(1)))});
  }
  if (name == "Inverse")
    return build("inverse", operands,
                 {attr("tri", b.getBoolAttr(s.b(0))),
                  attr("upper", b.getBoolAttr(s.b(1)))});
  if (name == "Eigh") {
    if (s.b(1))
      return unsupported("with eigenvectors is not supported by mlxc (only "
                         "the eigenvalues: mx.linalg.eigvalsh)");
    return build("eigvalsh", operands,
                 {attr("upper", b.getBoolAttr(s.str(0) == "U"))});
  }
  if (name == "SVD") {
    if (s.b(0))
      return unsupported(
          "with compute_uv is not supported by mlxc (only the "
          "singular values: mx.linalg.svd(a, compute_uv=False))");
    return build("svdvals", operands);
  }
  if (name == "QRF")
    return build("qr", operands);
  if (name == "Cholesky")
    return build("cholesky", operands, {attr("upper", b.getBoolAttr(s.b(0)))});
  if (name == "BlockMaskedMM") {
    // a, b, then the output's mask and/or the operands' two.
    if (failed(expectInputs(3, 5)))
      return unsupported("needs 3 to 5 inputs");
    bool hasOut = operands.size() != 4;
    int32_t operandMasks = operands.size() == 3 ? 0 : 1;
    return build("block_masked_mm", operands,
                 {segments({1, 1, hasOut ? 1 : 0, operandMasks, operandMasks}),
                  attr("block_size", i64(s.i(0)))});
  }
  if (name == "QuantizedMatmul") {
    if (failed(checkMode(2)) || failed(expectInputs(3, 4)))
      return unsupported("has an unknown mode or input count");
    SmallVector<NamedAttribute> attrs = quantization(0);
    attrs.push_back(attr("transpose", b.getBoolAttr(s.b(3))));
    return build("quantized_matmul", operands, attrs);
  }
  if (name == "GatherQMM") {
    if (failed(checkMode(2)) || failed(expectInputs(5, 6)))
      return unsupported("has an unknown mode or input count");
    bool hasBiases = operands.size() == 6;
    SmallVector<NamedAttribute> attrs = quantization(0);
    attrs.push_back(attr("transpose", b.getBoolAttr(s.b(3))));
    attrs.push_back(attr("sorted_indices", b.getBoolAttr(s.b(5))));
    attrs.push_back(segments({1, 1, 1, hasBiases ? 1 : 0, 1, 1}));
    return build("gather_qmm", operands, attrs);
  }
  if (name == "Quantize") {
    if (failed(checkMode(3)))
      return unsupported("has an unknown mode " + Twine(s.i(3)));
    SmallVector<NamedAttribute> attrs = quantization(1);
    if (!s.b(4))
      return build("quantize", operands, attrs);
    attrs.push_back(
        attr("dtype", TypeAttr::get(getElementTypeOrSelf(resultTypes[0]))));
    return build("dequantize", operands, attrs);
  }
  if (name == "Convolution")
    return build(
        "conv_general", operands,
        {attr("strides", arr(s.v(0))), attr("padding_lo", arr(s.v(1))),
         attr("padding_hi", arr(s.v(2))), attr("kernel_dilation", arr(s.v(3))),
         attr("input_dilation", arr(s.v(4))), attr("groups", i64(s.i(5))),
         attr("flip", b.getBoolAttr(s.b(6)))});
  if (name == "RandomBits")
    return build("random_bits", operands,
                 {attr("shape", arr(s.v(0))), attr("width", i64(s.i(1)))});

  // Fused "fast" primitives (exports from a GPU stream).
  if (name == "RMSNorm")
    return build("rms_norm", operands,
                 {attr("eps", b.getF32FloatAttr(s.f(1)))});
  if (name == "LayerNorm") {
    if (failed(expectInputs(3, 3)))
      return unsupported("needs 3 inputs");
    return build("layer_norm", operands,
                 {segments({1, 1, 1}), attr("eps", b.getF32FloatAttr(s.f(1)))});
  }
  if (name == "RoPE") {
    if (!s.b(5))
      return unsupported("in the backward direction (forward = false) has "
                         "no mlx op");
    SmallVector<NamedAttribute> attrs = {
        attr("dims", i64(s.i(1))), attr("traditional", b.getBoolAttr(s.b(2))),
        attr("scale", b.getF32FloatAttr(s.f(4)))};
    if (operands.size() == 2)
      attrs.push_back(attr("base", b.getF32FloatAttr(s.f(3))));
    return build("rope", operands, attrs);
  }
  if (name == "ScaledDotProductAttention") {
    bool sinks = s.has(3) && s.b(3);
    if (s.has(4) && s.b(4))
      return unsupported("with output_logsumexp (a training graph) has no "
                         "mlx op");
    size_t fixed = 3 + (sinks ? 1 : 0);
    if (operands.size() < fixed || operands.size() > fixed + 1)
      return unsupported("has " + Twine(operands.size()) + " inputs");
    bool mask = operands.size() == fixed + 1;
    return build("scaled_dot_product_attention", operands,
                 {segments({1, 1, 1, mask ? 1 : 0, sinks ? 1 : 0}),
                  attr("scale", b.getF32FloatAttr(s.f(1))),
                  attr("causal", b.getBoolAttr(s.has(2) && s.b(2)))});
  }

  return unsupported("is not supported by mlxc");
}

LogicalResult Importer::importFunction(const Function &function, unsigned index,
                                       ModuleOp module) {
  Location funcLoc = FileLineColLoc::get(context, filename, index + 1, 0);
  SmallVector<Type> inputTypes;
  if (failed(getTensorTypes(function.inputs, funcLoc, inputTypes)))
    return failure();
  std::string funcName = stem.str();
  if (file.functions.size() > 1)
    funcName += "_" + std::to_string(index);
  builder.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(builder, funcLoc, funcName,
                                   builder.getFunctionType(inputTypes, {}));
  Block *body = func.addEntryBlock();
  builder.setInsertionPointToStart(body);
  constantValues.clear();

  size_t numPositional = function.inputIds.size() - function.kwargKeys.size();
  // MLX's ids are arbitrary u64 values (DenseMap reserves two of them).
  std::unordered_map<uint64_t, Value> values;
  auto lookup = [&](uint64_t id) {
    auto it = values.find(id);
    return it == values.end() ? Value() : it->second;
  };
  // complex64 values, held as float32 pairs (getTensorType).
  llvm::DenseSet<Value> complexValues;
  auto markComplex = [&](Value value, Dtype dtype) {
    if (dtype == Dtype::Complex64)
      complexValues.insert(value);
  };
  for (auto [i, id] : llvm::enumerate(function.inputIds)) {
    values[id] = body->getArgument(i);
    if (i < function.inputs.size() &&
        function.inputs[i].dtype == Dtype::Complex64) {
      markComplex(body->getArgument(i), Dtype::Complex64);
      func.setArgAttr(i, mlx::attrs::kDtype, builder.getStringAttr("complex64"));
    }
    std::string argName = i < numPositional
                              ? "arg" + std::to_string(i)
                              : function.kwargKeys[i - numPositional];
    func.setArgAttr(i, mlx::attrs::kName, builder.getStringAttr(argName));
  }

  for (auto [t, node] : llvm::enumerate(function.tape)) {
    Location tapeLoc = FileLineColLoc::get(context, filename, index + 1, t + 1);
    switch (node.kind) {
    case Node::Kind::Input:
      break;
    case Node::Kind::Constant: {
      FailureOr<Value> constant = getConstant(node.id, tapeLoc);
      if (failed(constant))
        return failure();
      values[node.id] = *constant;
      markComplex(*constant, file.constants.at(node.id).meta.dtype);
      break;
    }
    case Node::Kind::Primitive: {
      Location loc = NameLoc::get(builder.getStringAttr(node.name), tapeLoc);
      SmallVector<Value> operands;
      for (uint64_t id : node.inputs) {
        Value value = lookup(id);
        if (!value)
          return emitError(loc) << "input " << id << " of " << node.name
                                << " is not defined before its use";
        operands.push_back(value);
      }
      SmallVector<bool> isComplex;
      for (Value operand : operands)
        isComplex.push_back(complexValues.contains(operand));
      bool complex = llvm::is_contained(isComplex, true) ||
                     llvm::any_of(node.outputs, [](const ArrayMeta &meta) {
                       return meta.dtype == Dtype::Complex64;
                     });
      SmallVector<Type> types;
      if (failed(getTensorTypes(node.outputs, loc, types)))
        return failure();
      FailureOr<Values> results =
          complex ? importComplexPrimitive(builder, loc, node, operands,
                                           isComplex, types)
                  : importPrimitive(node, operands, types, loc);
      if (failed(results))
        return failure();
      if (results->size() != node.outputIds.size() ||
          results->size() != node.outputs.size())
        return emitError(loc)
               << node.name << " gave " << results->size()
               << " results, the file records " << node.outputIds.size();
      for (auto [id, value, meta] :
           llvm::zip(node.outputIds, *results, node.outputs)) {
        values[id] = value;
        markComplex(value, meta.dtype);
      }
      break;
    }
    }
  }

  SmallVector<Value> outputs;
  for (uint64_t id : function.outputIds) {
    Value value = lookup(id);
    if (!value)
      return emitError(funcLoc) << "output " << id << " is never computed";
    outputs.push_back(value);
  }
  func::ReturnOp::create(builder, funcLoc, outputs);
  func.setFunctionType(
      builder.getFunctionType(inputTypes, ValueRange(outputs).getTypes()));
  for (unsigned i = 0; i < outputs.size(); ++i) {
    func.setResultAttr(i, mlx::attrs::kName,
                       builder.getStringAttr("out" + std::to_string(i)));
    if (complexValues.contains(outputs[i]))
      func.setResultAttr(i, mlx::attrs::kDtype, builder.getStringAttr("complex64"));
  }
  return success();
}

OwningOpRef<ModuleOp> Importer::run() {
  OwningOpRef<ModuleOp> module =
      ModuleOp::create(FileLineColLoc::get(context, filename, 0, 0));
  Builder b(context);
  (*module)->setAttr(mlx::attrs::kMlxfnVersion, b.getStringAttr(file.versionString));
  if (!file.metadata.empty())
    (*module)->setAttr(mlx::attrs::kMlxfnMetadata, b.getStringAttr(file.metadata));
  for (auto [i, function] : llvm::enumerate(file.functions))
    if (failed(importFunction(function, i, *module)))
      return nullptr;
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

/// A C identifier from the file's stem, for function and symbol names.
static std::string getSymbolStem(StringRef filename) {
  std::string stem = llvm::sys::path::stem(filename).str();
  for (char &c : stem)
    if (!llvm::isAlnum(c))
      c = '_';
  if (stem.empty() || llvm::isDigit(stem[0]))
    stem = "graph_" + stem;
  return stem;
}

bool mlxc::isMlxfn(llvm::MemoryBufferRef buffer) {
  return hasMlxfnHeader(buffer.getBuffer());
}

OwningOpRef<ModuleOp> mlxc::importMlxfn(MLIRContext *context,
                                        llvm::MemoryBufferRef buffer) {
  context->loadDialect<mlx::MlxDialect, func::FuncDialect>();
  StringRef filename = buffer.getBufferIdentifier();
  llvm::Expected<File> file = readFile(buffer);
  if (!file) {
    emitError(FileLineColLoc::get(context, filename, 0, 0))
        << "cannot read the .mlxfn file: " << llvm::toString(file.takeError());
    return nullptr;
  }
  std::string stem = getSymbolStem(filename);
  if (file->shapeless)
    emitWarning(FileLineColLoc::get(context, filename, 0, 0))
        << "the file was exported with shapeless=True; mlxc compiles it for "
           "the traced example shapes";
  return Importer(*file, filename, stem, context).run();
}
