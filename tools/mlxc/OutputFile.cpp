//===- OutputFile.cpp - mlxc's outputs, written whole or not at all -------===//

#include "OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlxc;
using namespace llvm;

static mlir::LogicalResult fail(StringRef path, const Twine &why) {
  errs() << "mlxc: error: cannot write " << path << ": " << why << "\n";
  return mlir::failure();
}

std::unique_ptr<OutputFile> OutputFile::create(StringRef path,
                                               StringRef initial) {
  SmallString<256> target(path);
  struct stat st;
  // stat, not lstat: a link to /dev/null is written in place too.
  bool inPlace = ::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode) &&
                 !S_ISDIR(st.st_mode);
  // Not createUniqueFile: it would replace any '%' of the path itself.
  int fd = -1;
  std::string temp;
  std::random_device random;
  std::error_code ec;
  for (int attempt = 0; attempt < 64; ++attempt) {
    temp = (path + ".tmp-" + utohexstr(random(), /*LowerCase=*/true)).str();
    ec = sys::fs::openFileForWrite(temp, fd, sys::fs::CD_CreateNew);
    if (ec != std::errc::file_exists)
      break;
  }
  if (ec) {
    (void)fail(path,
               "cannot create a temporary file beside it: " + ec.message());
    return nullptr;
  }
  sys::RemoveFileOnSignal(temp);
  std::unique_ptr<OutputFile> out(new OutputFile(path, temp, inPlace));
  raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << initial;
  os.close();
  if (os.has_error()) {
    (void)fail(path, os.error().message());
    os.clear_error();
    return nullptr;
  }
  return out;
}

OutputFile::~OutputFile() {
  if (done)
    return;
  sys::fs::remove(temp);
  sys::DontRemoveFileOnSignal(temp);
}

mlir::LogicalResult
OutputFile::write(function_ref<mlir::LogicalResult(raw_pwrite_stream &)> fn) {
  std::error_code ec;
  raw_fd_ostream os(temp, ec, sys::fs::OF_None);
  if (ec)
    return fail(path, ec.message());
  if (mlir::failed(fn(os)))
    return mlir::failure();
  os.close();
  if (os.has_error()) {
    std::string message = os.error().message();
    os.clear_error();
    return fail(path, message);
  }
  return mlir::success();
}

/// Copies the file `from` into the open file `to`.
static std::error_code copyInto(StringRef from, int to) {
  int in;
  if (std::error_code ec = sys::fs::openFileForRead(from, in))
    return ec;
  char buffer[1 << 16];
  std::error_code result;
  for (;;) {
    ssize_t n = ::read(in, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      result = std::error_code(errno, std::generic_category());
      break;
    }
    if (n == 0)
      break;
    for (ssize_t done = 0; done < n;) {
      ssize_t m = ::write(to, buffer + done, size_t(n - done));
      if (m < 0 && errno == EINTR)
        continue;
      if (m <= 0) {
        result = std::error_code(m < 0 ? errno : EIO, std::generic_category());
        break;
      }
      done += m;
    }
    if (result)
      break;
  }
  ::close(in);
  return result;
}

mlir::LogicalResult OutputFile::commit() {
  done = true;
  auto cleanup = [&] {
    sys::fs::remove(temp);
    sys::DontRemoveFileOnSignal(temp);
  };
  if (!inPlace) {
    if (std::error_code ec = sys::fs::rename(temp, path)) {
      cleanup();
      return fail(path, ec.message());
    }
    sys::DontRemoveFileOnSignal(temp);
    return mlir::success();
  }
  // A device or a FIFO: opened as it is (no O_CREAT, no O_TRUNC), never
  // replaced.
  SmallString<256> target(path);
  int fd = ::open(target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    std::string why = std::strerror(errno);
    cleanup();
    return fail(path, why);
  }
  std::error_code ec = copyInto(temp, fd);
  if (::close(fd) != 0 && !ec)
    ec = std::error_code(errno, std::generic_category());
  cleanup();
  if (ec)
    return fail(path, ec.message());
  return mlir::success();
}
