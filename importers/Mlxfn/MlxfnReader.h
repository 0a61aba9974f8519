//===- MlxfnReader.h - Decoder of MLX's .mlxfn export format ----*- C++ -*-===//
//
// Reads the files `mx.export_function` writes (MLX 0.29 to 0.32.x) into plain
// structures: the header, every traced function with its tape, and the
// constants. The reader knows the byte layout and its version differences
// only; what the primitives mean is the importer's business
// (MlxfnImporter.h). It depends on LLVM Support alone, so fuzz targets link
// it without MLIR.
//
// Nothing is copied: constant payloads and names are views into the buffer,
// which the caller keeps alive (typically a memory-mapped file).
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_IMPORTERS_MLXFN_MLXFNREADER_H
#define MLXC_IMPORTERS_MLXFN_MLXFNREADER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace mlxc::mlxfn {

/// MLX's `Dtype::Val` numbering, as written to disk.
enum class Dtype : uint8_t {
  Bool = 0,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Int8,
  Int16,
  Int32,
  Int64,
  Float16,
  Float32,
  Float64,
  BFloat16,
  Complex64,
};

/// Bytes per element, and the name MLX prints (`float32`, ...).
unsigned getItemSize(Dtype dtype);
llvm::StringRef getDtypeName(Dtype dtype);

/// An MLX release, from the header's version string ("0.32.4",
/// "0.32.2.dev20260822+abc" counts as 0.32.2).
struct Version {
  unsigned major = 0, minor = 0, patch = 0;
  bool atLeast(unsigned ma, unsigned mi, unsigned pa) const {
    if (major != ma)
      return major > ma;
    if (minor != mi)
      return minor > mi;
    return patch >= pa;
  }
};

/// Shape and dtype of an array.
struct ArrayMeta {
  llvm::SmallVector<int64_t> shape;
  Dtype dtype = Dtype::Float32;
  int64_t getNumElements() const;
};

/// One decoded field of a primitive's state. Integers, enums and sizes are
/// int64_t; f32/f64 are double; shapes, axis lists and strides are vectors.
/// Fields that are absent in a file's version hold std::monostate.
using Param = std::variant<std::monostate, int64_t, double, bool,
                           llvm::SmallVector<int64_t>, Dtype, std::string>;

/// A constant array stored in the file. `data` points into the buffer.
struct Constant {
  ArrayMeta meta;
  llvm::ArrayRef<char> data;
  uint64_t offset = 0; ///< Byte offset of the payload in the file.
};

/// One tape entry.
struct Node {
  enum class Kind { Input, Constant, Primitive };
  Kind kind = Kind::Input;
  uint64_t id = 0;
  uint64_t offset = 0; ///< Byte offset of the entry in the file.
  // Primitive only:
  std::string name; ///< The factory key, e.g. "Reduce", "RMSNorm".
  llvm::SmallVector<uint64_t> inputs;
  llvm::SmallVector<Param> params;
  int32_t deviceType = 0;                ///< Stream device: 0 cpu, 1 gpu.
  llvm::SmallVector<uint64_t> outputIds; ///< All outputs, `id` first if one.
  llvm::SmallVector<ArrayMeta> outputs;
};

/// One traced function.
struct Function {
  llvm::SmallVector<std::string> kwargKeys; ///< Sorted, as MLX writes them.
  llvm::SmallVector<uint64_t> inputIds;     ///< Positional, then kwargs.
  llvm::SmallVector<ArrayMeta> inputs;
  llvm::SmallVector<uint64_t> outputIds;
  std::vector<Node> tape; ///< Topological order.
};

struct File {
  std::string versionString;
  Version version;
  bool shapeless = false;
  std::string metadata; ///< Empty before 0.32.1.
  std::vector<Function> functions;
  /// Constants of the whole file by id; a constant shared by several
  /// functions is stored once, under the first one that used it.
  /// (Ids are arbitrary u64 values, so no DenseMap: it reserves two keys.)
  std::unordered_map<uint64_t, Constant> constants;
};

/// True when `data` starts with a length-prefixed "<digits>." version
/// string, as every .mlxfn file does (text never has the zero bytes).
bool hasMlxfnHeader(llvm::StringRef data);

/// Decodes `buffer`. Errors name the byte offset, and for unknown content
/// the version, primitive or dtype.
llvm::Expected<File> readFile(llvm::MemoryBufferRef buffer);

/// The oldest and newest releases whose layout the reader knows.
extern const Version kOldestVersion;
extern const Version kNewestVersion; ///< Exclusive: 0.33.0.

} // namespace mlxc::mlxfn

#endif // MLXC_IMPORTERS_MLXFN_MLXFNREADER_H
