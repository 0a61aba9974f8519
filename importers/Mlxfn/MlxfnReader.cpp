//===- MlxfnReader.cpp - Decoder of MLX's .mlxfn export format ------------===//
//
// The layout (little-endian, no alignment, no padding):
//
//   File     := string version, i32 count, bool shapeless,
//               [string metadata  (0.32.1 on)], Function{count}
//   Function := vec<string> kwarg_keys, vec<u64> input_ids, vec<Meta> inputs,
//               vec<u64> output_ids, u64 tape_size, Entry{tape_size}
//   Entry    := u64 id, bool has_primitive, then either
//               vec<u64> inputs, Stream, string name, <state>, u64 siblings,
//               (Shape, Dtype) or (vec<u64> ids, vec<Shape>, vec<Dtype>)
//               or bool is_constant [, Shape, Dtype, raw bytes (first use)]
//
// A primitive's state has no length prefix, so the reader must know every
// primitive's fields (kSchemas below) to find the next entry.
//
//===----------------------------------------------------------------------===//

#include "importers/Mlxfn/MlxfnReader.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>

using namespace llvm;

namespace mlxc::mlxfn {

const Version kOldestVersion = {0, 29, 0};
const Version kNewestVersion = {0, 33, 0};

unsigned getItemSize(Dtype dtype) {
  switch (dtype) {
  case Dtype::Bool:
  case Dtype::UInt8:
  case Dtype::Int8:
    return 1;
  case Dtype::UInt16:
  case Dtype::Int16:
  case Dtype::Float16:
  case Dtype::BFloat16:
    return 2;
  case Dtype::UInt32:
  case Dtype::Int32:
  case Dtype::Float32:
    return 4;
  case Dtype::UInt64:
  case Dtype::Int64:
  case Dtype::Float64:
  case Dtype::Complex64:
    return 8;
  }
  return 0;
}

StringRef getDtypeName(Dtype dtype) {
  static const char *const names[] = {
      "bool",    "uint8",   "uint16",   "uint32",   "uint64",
      "int8",    "int16",   "int32",    "int64",    "float16",
      "float32", "float64", "bfloat16", "complex64"};
  return names[static_cast<unsigned>(dtype)];
}

int64_t ArrayMeta::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

namespace {
/// A string read from the file, as a message shows it: bytes outside
/// printable ASCII escaped (a corrupt file's name is any bytes), at most 64.
std::string shown(StringRef text) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::printEscapedString(text.take_front(64), os);
  if (text.size() > 64)
    os << "...";
  return out;
}

/// How one state field is encoded.
enum class Field {
  Null, ///< 0 bytes (the fallback-lambda placeholder of fast primitives).
  I32,  ///< int32, also every enum.
  U64,
  F32,
  F64,
  Bool,
  Dtype,  ///< int32 value + uint8 itemsize.
  VecI32, ///< Shape and axis lists.
  VecI64, ///< Strides.
  VecU64, ///< FFT axes.
  String,
};

/// A field that only files of `since` and later carry.
struct FieldSpec {
  Field field;
  Version since = {0, 0, 0};
};

using Schema = SmallVector<FieldSpec, 6>;

const StringMap<Schema> &getSchemas() {
  static const StringMap<Schema> schemas = [] {
    StringMap<Schema> s;
    for (const char *name :
         {"Abs",          "Add",          "ArcCos",      "ArcCosh",
          "ArcSin",       "ArcSinh",      "ArcTan",      "ArcTan2",
          "ArcTanh",      "Ceil",         "Conjugate",   "Copy",
          "Cos",          "Cosh",         "Depends",     "Divide",
          "DivMod",       "Erf",          "ErfInv",      "Exp",
          "Expm1",        "Floor",        "FloorDivide", "Full",
          "Greater",      "GreaterEqual", "Imag",        "Less",
          "LessEqual",    "Log1p",        "LogicalNot",  "LogicalAnd",
          "LogicalOr",    "LogAddExp",    "LogSumExp",   "MaskedScatter",
          "Matmul",       "Maximum",      "Minimum",     "Multiply",
          "Negative",     "NotEqual",     "Power",       "Real",
          "Remainder",    "Round",        "Select",      "Sigmoid",
          "Sign",         "Sin",          "Sinh",        "Square",
          "StopGradient", "Subtract",     "Tan",         "Tanh",
          "QRF"})
      s[name] = {};
    using F = Field;
    auto v = [](F f) { return FieldSpec{f}; };
    s["AddMM"] = {v(F::F32), v(F::F32)};
    s["Arange"] = {v(F::F64), v(F::F64), v(F::F64)};
    s["ArgPartition"] = {v(F::I32), v(F::I32)};
    s["ArgReduce"] = {v(F::I32), v(F::I32)};
    s["ArgSort"] = {v(F::I32)};
    s["AsType"] = {v(F::Dtype)};
    s["AsStrided"] = {v(F::VecI32), v(F::VecI64), v(F::U64)};
    s["BitwiseBinary"] = {v(F::I32)};
    s["BlockMaskedMM"] = {v(F::I32)};
    s["Broadcast"] = {v(F::VecI32)};
    s["BroadcastAxes"] = {v(F::VecI32)};
    s["Concatenate"] = {v(F::I32)};
    s["Convolution"] = {v(F::VecI32), v(F::VecI32), v(F::VecI32), v(F::VecI32),
                        v(F::VecI32), v(F::I32),    v(F::Bool)};
    s["DynamicSlice"] = {v(F::VecI32), v(F::VecI32)};
    s["DynamicSliceUpdate"] = {v(F::VecI32)};
    s["Equal"] = {v(F::Bool)};
    s["ExpandDims"] = {v(F::VecI32)};
    // 0.32.4 writes a third one-byte field (0.32.2's source has two; the
    // first release with it is not known here, 0.32.3 is assumed).
    s["FFT"] = {v(F::VecU64), v(F::Bool), v(F::Bool), {F::Bool, {0, 32, 3}}};
    s["Flatten"] = {v(F::I32), v(F::I32)};
    s["Gather"] = {v(F::VecI32), v(F::VecI32)};
    s["GatherAxis"] = {v(F::I32)};
    s["GatherMM"] = {v(F::Bool), v(F::Bool)};
    s["GatherQMM"] = {v(F::I32),  v(F::I32),  v(F::I32),
                      v(F::Bool), v(F::Bool), v(F::Bool)};
    s["Hadamard"] = {v(F::F32)};
    s["Log"] = {v(F::I32)};
    s["NumberOfElements"] = {v(F::VecI32), v(F::Bool), v(F::Dtype)};
    s["Pad"] = {v(F::VecI32), v(F::VecI32), v(F::VecI32)};
    s["Partition"] = {v(F::I32), v(F::I32)};
    s["QuantizedMatmul"] = {v(F::I32), v(F::I32), v(F::I32), v(F::Bool)};
    s["RandomBits"] = {v(F::VecI32), v(F::I32)};
    s["Reshape"] = {v(F::VecI32)};
    s["Reduce"] = {v(F::I32), v(F::VecI32)};
    s["Scan"] = {v(F::I32), v(F::I32), v(F::Bool), v(F::Bool)};
    s["Scatter"] = {v(F::I32), v(F::VecI32)};
    s["ScatterAxis"] = {v(F::I32), v(F::I32)};
    s["SearchSorted"] = {v(F::Bool)};
    s["Slice"] = {v(F::VecI32), v(F::VecI32), v(F::VecI32)};
    s["SliceUpdate"] = {
        {F::I32, {0, 31, 2}}, v(F::VecI32), v(F::VecI32), v(F::VecI32)};
    s["Softmax"] = {v(F::Bool)};
    s["Sort"] = {v(F::I32)};
    s["Split"] = {v(F::VecI32), v(F::I32)};
    s["Sqrt"] = {v(F::Bool)};
    s["Squeeze"] = {v(F::VecI32)};
    s["Transpose"] = {v(F::VecI32)};
    s["Unflatten"] = {v(F::I32), v(F::VecI32)};
    s["View"] = {v(F::Dtype)};
    s["SVD"] = {v(F::Bool)};
    s["Inverse"] = {v(F::Bool), v(F::Bool)};
    s["Cholesky"] = {v(F::Bool)};
    s["Eig"] = {v(F::Bool)};
    s["Eigh"] = {v(F::String), v(F::Bool)};
    s["Quantize"] = {v(F::Null), v(F::I32), v(F::I32), v(F::I32), v(F::Bool)};
    s["RMSNorm"] = {v(F::Null), v(F::F32)};
    s["RMSNormVJP"] = {v(F::Null), v(F::F32)};
    s["LayerNorm"] = {v(F::Null), v(F::F32)};
    s["LayerNormVJP"] = {v(F::Null), v(F::F32)};
    s["RoPE"] = {v(F::Null), v(F::I32), v(F::Bool),
                 v(F::F32),  v(F::F32), v(F::Bool)};
    s["ScaledDotProductAttention"] = {v(F::Null),
                                      v(F::F32),
                                      v(F::Bool),
                                      {F::Bool, {0, 29, 1}},
                                      {F::Bool, {0, 30, 0}},
                                      {F::Bool, {0, 32, 2}}};
    return s;
  }();
  return schemas;
}

/// A bounds-checked little-endian cursor over the file.
class Cursor {
public:
  explicit Cursor(StringRef data) : data(data) {}

  uint64_t offset() const { return pos; }
  uint64_t remaining() const { return data.size() - pos; }

  Error fail(const Twine &what) const {
    return createStringError(inconvertibleErrorCode(),
                             "at byte " + Twine(pos) + ": " + what);
  }

  Error need(uint64_t bytes, StringRef what) const {
    if (bytes > remaining())
      return fail("truncated file: " + what + " needs " + Twine(bytes) +
                  " bytes, " + Twine(remaining()) + " left");
    return Error::success();
  }

  template <typename T> Error read(T &value, StringRef what) {
    if (Error e = need(sizeof(T), what))
      return e;
    value =
        support::endian::read<T, llvm::endianness::little>(data.data() + pos);
    pos += sizeof(T);
    return Error::success();
  }

  Error readBool(bool &value, StringRef what) {
    uint8_t byte;
    if (Error e = read(byte, what))
      return e;
    if (byte > 1)
      return createStringError(inconvertibleErrorCode(),
                               "at byte " + Twine(pos - 1) + ": " + what +
                                   " is not a bool (" + Twine(unsigned(byte)) +
                                   ")");
    value = byte;
    return Error::success();
  }

  /// A u64 element count, checked against the bytes that remain so that a
  /// corrupt count cannot make the reader allocate without bound.
  Error readCount(uint64_t &count, uint64_t minElementBytes, StringRef what) {
    if (Error e = read(count, what))
      return e;
    if (minElementBytes && count > remaining() / minElementBytes)
      return createStringError(
          inconvertibleErrorCode(),
          "at byte " + Twine(pos - 8) + ": truncated or corrupt file: " + what +
              " claims " + Twine(count) + " entries, only " +
              Twine(remaining()) + " bytes are left");
    return Error::success();
  }

  Error readString(std::string &value, StringRef what) {
    uint64_t size;
    if (Error e = readCount(size, 1, what))
      return e;
    value.assign(data.data() + pos, size);
    pos += size;
    return Error::success();
  }

  Error readBytes(uint64_t size, ArrayRef<char> &bytes, StringRef what) {
    if (Error e = need(size, what))
      return e;
    bytes = ArrayRef<char>(data.data() + pos, size);
    pos += size;
    return Error::success();
  }

  template <typename Elt, typename Vec>
  Error readVector(Vec &values, StringRef what) {
    uint64_t count;
    if (Error e = readCount(count, sizeof(Elt), what))
      return e;
    values.clear();
    values.reserve(count);
    for (uint64_t i = 0; i < count; ++i) {
      Elt element;
      if (Error e = read(element, what))
        return e;
      values.push_back(element);
    }
    return Error::success();
  }

private:
  StringRef data;
  uint64_t pos = 0;
};

class Reader {
public:
  Reader(StringRef data) : cursor(data) {}

  Expected<File> run();

private:
  Error readHeader();
  Error readFunction(Function &function);
  Error readEntry(Node &node, Function &function);
  Error readPrimitive(Node &node);
  Error readParam(Field field, Param &param, StringRef primitive);
  Error readDtype(Dtype &dtype, StringRef what);
  Error readShape(SmallVector<int64_t> &shape, StringRef what);
  Error readMeta(ArrayMeta &meta, StringRef what);

  Cursor cursor;
  File file;
};

} // namespace

/// Parses "0.32.4" or "0.32.2.dev20260822+abc".
static bool parseVersion(StringRef text, Version &version) {
  SmallVector<StringRef, 4> parts;
  text.split(parts, '.');
  if (parts.size() < 3)
    return false;
  StringRef patch =
      parts[2].take_while([](char c) { return llvm::isDigit(c); });
  return !parts[0].getAsInteger(10, version.major) &&
         !parts[1].getAsInteger(10, version.minor) && !patch.empty() &&
         !patch.getAsInteger(10, version.patch);
}

Error Reader::readDtype(Dtype &dtype, StringRef what) {
  uint64_t start = cursor.offset();
  int32_t value;
  uint8_t itemSize;
  if (Error e = cursor.read(value, what))
    return e;
  if (Error e = cursor.read(itemSize, what))
    return e;
  if (value < 0 || value > static_cast<int32_t>(Dtype::Complex64) ||
      getItemSize(static_cast<Dtype>(value)) != itemSize)
    return createStringError(inconvertibleErrorCode(),
                             "at byte " + Twine(start) + ": " + what +
                                 " is not an MLX dtype (value " + Twine(value) +
                                 ", item size " + Twine(unsigned(itemSize)) +
                                 ")");
  dtype = static_cast<Dtype>(value);
  return Error::success();
}

Error Reader::readShape(SmallVector<int64_t> &shape, StringRef what) {
  uint64_t start = cursor.offset();
  SmallVector<int32_t> dims;
  if (Error e = cursor.readVector<int32_t>(dims, what))
    return e;
  shape.assign(dims.begin(), dims.end());
  for (int64_t d : shape)
    if (d < 0)
      return createStringError(inconvertibleErrorCode(),
                               "at byte " + Twine(start) + ": " + what +
                                   " has a negative dimension (" + Twine(d) +
                                   ")");
  return Error::success();
}

Error Reader::readMeta(ArrayMeta &meta, StringRef what) {
  if (Error e = readShape(meta.shape, what))
    return e;
  return readDtype(meta.dtype, what);
}

Error Reader::readHeader() {
  if (Error e = cursor.readString(file.versionString, "the version string"))
    return e;
  // Printable, as every message that names the version shows it.
  if (!parseVersion(file.versionString, file.version) ||
      !llvm::all_of(file.versionString,
                    [](char c) { return llvm::isPrint(c); }))
    return createStringError(inconvertibleErrorCode(),
                             "at byte 0: '" + shown(file.versionString) +
                                 "' is not an MLX version string (is this an "
                                 ".mlxfn file?)");
  if (!file.version.atLeast(kOldestVersion.major, kOldestVersion.minor,
                            kOldestVersion.patch) ||
      file.version.atLeast(kNewestVersion.major, kNewestVersion.minor,
                           kNewestVersion.patch))
    return createStringError(
        inconvertibleErrorCode(),
        "at byte 0: the file was written by MLX " + file.versionString +
            "; this reader knows the layouts of MLX 0.29.0 to 0.32.x");
  int32_t count;
  if (Error e = cursor.read(count, "the function count"))
    return e;
  if (count < 0)
    return cursor.fail("negative function count " + Twine(count));
  if (Error e = cursor.readBool(file.shapeless, "the shapeless flag"))
    return e;
  if (file.version.atLeast(0, 32, 1))
    if (Error e = cursor.readString(file.metadata, "the metadata string"))
      return e;
  if (count == 0)
    return cursor.fail("the file holds no function");
  // Each function takes at least 40 bytes (five counts).
  if (static_cast<uint64_t>(count) > cursor.remaining() / 40)
    return cursor.fail("function count " + Twine(count) +
                       " exceeds what the file can hold");
  file.functions.resize(count);
  return Error::success();
}

Error Reader::readParam(Field field, Param &param, StringRef primitive) {
  std::string what = ("the state of " + primitive).str();
  switch (field) {
  case Field::Null:
    param = std::monostate();
    return Error::success();
  case Field::I32: {
    int32_t v;
    if (Error e = cursor.read(v, what))
      return e;
    param = static_cast<int64_t>(v);
    return Error::success();
  }
  case Field::U64: {
    uint64_t v;
    if (Error e = cursor.read(v, what))
      return e;
    param = static_cast<int64_t>(v);
    return Error::success();
  }
  case Field::F32: {
    float v;
    if (Error e = cursor.read(v, what))
      return e;
    param = static_cast<double>(v);
    return Error::success();
  }
  case Field::F64: {
    double v;
    if (Error e = cursor.read(v, what))
      return e;
    param = v;
    return Error::success();
  }
  case Field::Bool: {
    bool v;
    if (Error e = cursor.readBool(v, what))
      return e;
    param = v;
    return Error::success();
  }
  case Field::Dtype: {
    Dtype v;
    if (Error e = readDtype(v, what))
      return e;
    param = v;
    return Error::success();
  }
  case Field::VecI32: {
    SmallVector<int32_t> v;
    if (Error e = cursor.readVector<int32_t>(v, what))
      return e;
    param = SmallVector<int64_t>(v.begin(), v.end());
    return Error::success();
  }
  case Field::VecI64: {
    SmallVector<int64_t> v;
    if (Error e = cursor.readVector<int64_t>(v, what))
      return e;
    param = std::move(v);
    return Error::success();
  }
  case Field::VecU64: {
    SmallVector<uint64_t> v;
    if (Error e = cursor.readVector<uint64_t>(v, what))
      return e;
    param = SmallVector<int64_t>(v.begin(), v.end());
    return Error::success();
  }
  case Field::String: {
    std::string v;
    if (Error e = cursor.readString(v, what))
      return e;
    param = std::move(v);
    return Error::success();
  }
  }
  return Error::success();
}

Error Reader::readPrimitive(Node &node) {
  if (Error e = cursor.readVector<uint64_t>(node.inputs, "the input ids"))
    return e;
  int32_t streamIndex, deviceIndex;
  if (Error e = cursor.read(streamIndex, "the stream"))
    return e;
  if (Error e = cursor.read(node.deviceType, "the stream"))
    return e;
  if (Error e = cursor.read(deviceIndex, "the stream"))
    return e;
  uint64_t nameOffset = cursor.offset();
  if (Error e = cursor.readString(node.name, "the primitive name"))
    return e;
  const auto &schemas = getSchemas();
  auto it = schemas.find(node.name);
  if (it == schemas.end())
    return createStringError(inconvertibleErrorCode(),
                             "at byte " + Twine(nameOffset) +
                                 ": unknown primitive '" + shown(node.name) +
                                 "' (MLX " + file.versionString +
                                 "); its state cannot be decoded");
  for (const FieldSpec &spec : it->second) {
    Param param;
    if (file.version.atLeast(spec.since.major, spec.since.minor,
                             spec.since.patch))
      if (Error e = readParam(spec.field, param, node.name))
        return e;
    node.params.push_back(std::move(param));
  }
  uint64_t siblings;
  if (Error e = cursor.readCount(siblings, 8, "the sibling count"))
    return e;
  if (siblings == 0) {
    node.outputIds.push_back(node.id);
    node.outputs.emplace_back();
    return readMeta(node.outputs.back(), "the output");
  }
  if (Error e = cursor.readVector<uint64_t>(node.outputIds, "the output ids"))
    return e;
  if (node.outputIds.size() != siblings + 1)
    return cursor.fail(Twine(node.outputIds.size()) + " output ids for " +
                       Twine(siblings) + " siblings of " + node.name);
  uint64_t count;
  if (Error e = cursor.readCount(count, 8, "the output shapes"))
    return e;
  if (count != node.outputIds.size())
    return cursor.fail(Twine(count) + " output shapes for " +
                       Twine(node.outputIds.size()) + " outputs");
  node.outputs.resize(count);
  for (ArrayMeta &meta : node.outputs)
    if (Error e = readShape(meta.shape, "an output shape"))
      return e;
  if (Error e = cursor.readCount(count, 5, "the output dtypes"))
    return e;
  if (count != node.outputs.size())
    return cursor.fail(Twine(count) + " output dtypes for " +
                       Twine(node.outputs.size()) + " outputs");
  for (ArrayMeta &meta : node.outputs)
    if (Error e = readDtype(meta.dtype, "an output dtype"))
      return e;
  return Error::success();
}

Error Reader::readEntry(Node &node, Function &function) {
  node.offset = cursor.offset();
  if (Error e = cursor.read(node.id, "a tape entry id"))
    return e;
  bool hasPrimitive;
  if (Error e = cursor.readBool(hasPrimitive, "a tape entry"))
    return e;
  if (hasPrimitive) {
    node.kind = Node::Kind::Primitive;
    Error e = readPrimitive(node);
    // A state whose layout changed in this MLX version reads as damage from
    // here on: name the primitive, which is the likelier cause.
    if (e && !node.name.empty() && getSchemas().count(node.name))
      return createStringError(
          inconvertibleErrorCode(),
          toString(std::move(e)) + " (in the entry of MLX primitive " +
              node.name + "; if the file is intact, mlxc does not know how " +
              "MLX " + file.versionString + " stores " + node.name + ")");
    return e;
  }
  bool isConstant;
  if (Error e = cursor.readBool(isConstant, "a tape entry"))
    return e;
  if (!isConstant) {
    node.kind = Node::Kind::Input;
    if (!llvm::is_contained(function.inputIds, node.id))
      return createStringError(inconvertibleErrorCode(),
                               "at byte " + Twine(node.offset) +
                                   ": tape entry " + Twine(node.id) +
                                   " is neither an input nor a constant");
    return Error::success();
  }
  node.kind = Node::Kind::Constant;
  if (file.constants.count(node.id))
    return Error::success(); // Written by an earlier entry or function.
  Constant constant;
  if (Error e = readMeta(constant.meta, "a constant"))
    return e;
  uint64_t elements = 1;
  for (int64_t d : constant.meta.shape) {
    bool overflow = false;
    elements = SaturatingMultiply<uint64_t>(elements, d, &overflow);
    if (overflow)
      return cursor.fail("constant " + Twine(node.id) + " is too large");
  }
  uint64_t bytes =
      SaturatingMultiply<uint64_t>(elements, getItemSize(constant.meta.dtype));
  constant.offset = cursor.offset();
  if (Error e = cursor.readBytes(bytes, constant.data, "a constant's data"))
    return e;
  file.constants[node.id] = constant;
  return Error::success();
}

Error Reader::readFunction(Function &function) {
  uint64_t count;
  if (Error e = cursor.readCount(count, 8, "the keyword names"))
    return e;
  function.kwargKeys.resize(count);
  for (std::string &key : function.kwargKeys)
    if (Error e = cursor.readString(key, "a keyword name"))
      return e;
  if (Error e = cursor.readVector<uint64_t>(function.inputIds, "the input ids"))
    return e;
  if (Error e = cursor.readCount(count, 13, "the inputs"))
    return e;
  if (count != function.inputIds.size())
    return cursor.fail(Twine(count) + " input shapes for " +
                       Twine(function.inputIds.size()) + " input ids");
  if (function.kwargKeys.size() > count)
    return cursor.fail(Twine(function.kwargKeys.size()) +
                       " keyword names for " + Twine(count) + " inputs");
  function.inputs.resize(count);
  for (ArrayMeta &meta : function.inputs)
    if (Error e = readMeta(meta, "an input"))
      return e;
  if (Error e =
          cursor.readVector<uint64_t>(function.outputIds, "the output ids"))
    return e;
  if (Error e = cursor.readCount(count, 10, "the tape"))
    return e;
  function.tape.resize(count);
  for (Node &node : function.tape)
    if (Error e = readEntry(node, function))
      return e;
  return Error::success();
}

Expected<File> Reader::run() {
  if (Error e = readHeader())
    return std::move(e);
  for (Function &function : file.functions)
    if (Error e = readFunction(function))
      return std::move(e);
  if (cursor.remaining())
    return cursor.fail(Twine(cursor.remaining()) +
                       " bytes follow the last function");
  return std::move(file);
}

bool hasMlxfnHeader(StringRef data) {
  if (data.size() < 10)
    return false;
  uint64_t size =
      support::endian::read<uint64_t, llvm::endianness::little>(data.data());
  return size >= 3 && size <= 64 && llvm::isDigit(data[8]) &&
         data.substr(8).contains('.');
}

Expected<File> readFile(MemoryBufferRef buffer) {
  return Reader(buffer.getBuffer()).run();
}

} // namespace mlxc::mlxfn
