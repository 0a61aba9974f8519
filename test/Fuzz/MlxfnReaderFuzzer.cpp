//===- MlxfnReaderFuzzer.cpp - libFuzzer target of the .mlxfn reader ------===//
//
// Any byte string must decode or give an error; never crash, hang or
// allocate beyond what the input can describe.
//
//===----------------------------------------------------------------------===//

#include "importers/Mlxfn/MlxfnReader.h"

#include "llvm/Support/MemoryBuffer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  llvm::Expected<mlxc::mlxfn::File> file =
      mlxc::mlxfn::readFile(llvm::MemoryBufferRef(bytes, "fuzz.mlxfn"));
  if (!file) {
    llvm::consumeError(file.takeError());
    return 0;
  }
  // Touch what the importer reads: every constant's bytes.
  unsigned sum = 0;
  for (auto &entry : file->constants)
    for (char c : entry.second.data)
      sum += static_cast<unsigned char>(c);
  return sum == 0x7fffffff ? 1 : 0;
}
