//===- TestUtil.h - Helpers for the mlxrt unit tests -----------*- C++ -*-===//
//
// Builders for the file formats (npy, zip/npz, safetensors) so that each test
// states the exact bytes it feeds the runtime, and a temporary directory that
// disappears after the test.
//
//===----------------------------------------------------------------------===//

#ifndef MLXRT_TEST_TESTUTIL_H
#define MLXRT_TEST_TESTUTIL_H

#include "runtime/mlxrt.h"
#include "runtime/mlxrt_abi.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace mlxrt_test {

/// A fresh directory under $TMPDIR, removed with its contents afterwards.
class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  const std::string &path() const { return Path; }
  /// Path of `name` inside the directory.
  std::string file(const std::string &name) const { return Path + "/" + name; }
  /// Writes `bytes` to `name`; returns its path.
  std::string write(const std::string &name, const std::string &bytes) const;
  /// Names of the files in the directory, sorted.
  std::vector<std::string> list() const;

private:
  std::string Path;
};

std::string readFile(const std::string &path);

template <typename T> std::string bytesOf(const std::vector<T> &values) {
  return std::string(reinterpret_cast<const char *>(values.data()),
                     values.size() * sizeof(T));
}

/// The dict of an .npy header, as numpy writes it.
std::string npyDict(const std::string &descr, const std::string &shape,
                    bool fortran = false);

/// An .npy file: `dict` verbatim as the header (padded to 64 bytes unless
/// `pad` is false), `data` after it, in format version `major`.0.
std::string npyFile(const std::string &dict, const std::string &data,
                    int major = 1, bool pad = true);

struct ZipEntry {
  std::string name;
  std::string data;
  bool deflate = false;
  /// Cuts the stored or compressed bytes to this length (the directory
  /// agrees), to make truncated entries.
  size_t cut = std::string::npos;
};

/// A zip archive of `entries`. With `zip64`, every entry carries the zip64
/// extra fields (as numpy writes them) and the archive ends with zip64
/// end-of-directory records.
std::string zipFile(const std::vector<ZipEntry> &entries, bool zip64 = false);

/// A .safetensors file: the 8-byte length, `json` verbatim, then `data`.
std::string safetensorsFile(const std::string &json, const std::string &data);

/// Little-endian field access, to patch archives in tests.
uint32_t getLE(const std::string &s, size_t at, int bytes);
void setLE(std::string &s, size_t at, int bytes, uint64_t value);

/// Whether `text` contains `part`, for messages with unpredictable tails.
inline bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

/// A tensor descriptor from a dtype and dims.
mlxrt_tensor tensorType(mlxrt_dtype dtype, std::vector<int64_t> dims);

/// Reads `spec` with mlxrt_read_tensor; the message on failure (else "").
std::string readError(const std::string &spec, const char *entry = nullptr);

/// Loads `spec` expecting `type`, into `dst` (resized); message or "".
std::string loadError(const std::string &spec, const mlxrt_tensor &type,
                      std::vector<unsigned char> &dst,
                      const char *entry = nullptr);

/// The owned result of mlxrt_read_tensor.
struct ReadTensor {
  mlxrt_tensor t{};
  mlxrt_status status = MLXRT_OK;
  std::string message;
  ReadTensor(const std::string &spec, const char *entry = nullptr);
  ~ReadTensor() { mlxrt_host_free(t.data); }
  template <typename T> std::vector<T> values() const {
    const T *p = static_cast<const T *>(t.data);
    return std::vector<T>(p, p + t.nbytes / sizeof(T));
  }
};

} // namespace mlxrt_test

#endif // MLXRT_TEST_TESTUTIL_H
