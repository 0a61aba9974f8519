//===- OutputFile.h - mlxc's outputs, written whole or not at all ---------===//
//
// Every file mlxc writes goes first to a temporary beside it, named
// uniquely and created exclusively (O_EXCL), then is renamed over the
// output: a failed compile leaves the old output as it was, compiles of
// one -o at once all succeed, and no input is ever taken for a temporary.
// An output that is a character device or a FIFO (-o /dev/null, a pipe) is
// written in place instead: renaming over it would replace the node.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_TOOLS_MLXC_OUTPUTFILE_H
#define MLXC_TOOLS_MLXC_OUTPUTFILE_H

#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace mlxc {

class OutputFile {
public:
  /// Creates the temporary for `path`, holding `initial` (e.g. an empty
  /// archive for ar to add to). Prints a one-line error naming `path` and
  /// returns null when it cannot.
  static std::unique_ptr<OutputFile> create(llvm::StringRef path,
                                            llvm::StringRef initial = "");
  /// Removes the temporary unless it was committed.
  ~OutputFile();

  /// Where a tool (the linker, ar) writes the output.
  llvm::StringRef getTempPath() const { return temp; }
  /// Writes the temporary through a (seekable) stream.
  mlir::LogicalResult
  write(llvm::function_ref<mlir::LogicalResult(llvm::raw_pwrite_stream &)> fn);
  /// Puts the temporary in place: renamed over `path`, or copied into it
  /// when it is a device or a FIFO. Prints a one-line error on failure.
  mlir::LogicalResult commit();

private:
  OutputFile(llvm::StringRef path, std::string temp, bool inPlace)
      : path(path.str()), temp(std::move(temp)), inPlace(inPlace) {}
  std::string path, temp;
  bool inPlace;
  bool done = false;
};

} // namespace mlxc

#endif // MLXC_TOOLS_MLXC_OUTPUTFILE_H
