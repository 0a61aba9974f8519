//===- CacheStore.cpp - the compile cache's files, verified ---------------===//

#include "codegen/Target/CacheStore.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlir;
using llvm::SmallString;
using llvm::SmallVector;
using llvm::StringRef;

/// The first line of every entry: this, the payload's SHA-256 and its size.
static constexpr llvm::StringLiteral kEntryMagic = "mlxc-entry-2";

/// No entry is bigger (objects of the largest models are a few hundred MB):
/// a file that claims more is no entry, and is never read into memory.
static constexpr uint64_t kMaxEntryBytes = 1ull << 32;

bool mlx::isCacheKey(StringRef key) {
  return key.size() == 64 && llvm::all_of(key, [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

std::string mlx::getContentHash(StringRef payload) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(payload)),
                     /*LowerCase=*/true);
}

namespace {
/// A file descriptor closed when it goes.
struct Fd {
  int fd = -1;
  explicit Fd(int fd) : fd(fd) {}
  Fd(const Fd &) = delete;
  ~Fd() {
    if (fd >= 0)
      ::close(fd);
  }
  explicit operator bool() const { return fd >= 0; }
};
} // namespace

/// Why the open folder `fd` may not be trusted, or "".
static std::string distrust(int fd) {
  struct stat st;
  if (::fstat(fd, &st) != 0)
    return std::strerror(errno);
  if (!S_ISDIR(st.st_mode))
    return "not a folder";
  if (st.st_uid != ::geteuid())
    return ("owned by uid " + llvm::Twine(st.st_uid) + ", not by you (uid " +
            llvm::Twine(::geteuid()) + ")")
        .str();
  if (st.st_mode & (S_IWGRP | S_IWOTH)) {
    std::string mode;
    llvm::raw_string_ostream(mode)
        << llvm::format("%04o", unsigned(st.st_mode & 07777));
    return "writable by group or others (mode " + mode + ")";
  }
  return "";
}

/// The cache folder itself, opened and checked (it may be a link: the
/// user's own choice of where it lives; what it names is checked).
static int openCacheDir(StringRef dir) {
  SmallString<256> path(dir);
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  if (!distrust(fd).empty()) {
    ::close(fd);
    return -1;
  }
  return fd;
}

/// A shard folder (the key's first two digits) of the open cache folder:
/// never a link, and as trusted as the cache itself.
static int openShard(int cacheFd, StringRef key, bool create) {
  std::string name = key.take_front(2).str();
  if (create && ::mkdirat(cacheFd, name.c_str(), 0700) != 0 && errno != EEXIST)
    return -1;
  int fd = ::openat(cacheFd, name.c_str(),
                    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return -1;
  if (!distrust(fd).empty()) {
    ::close(fd);
    return -1;
  }
  return fd;
}

std::string mlx::checkCacheDir(StringRef dir) {
  std::string name = ("cache folder " + dir).str();
  if (!llvm::sys::fs::exists(dir)) {
    StringRef parent = llvm::sys::path::parent_path(dir);
    if (!parent.empty())
      if (std::error_code ec = llvm::sys::fs::create_directories(parent))
        return name + ": cannot create it: " + ec.message();
    SmallString<256> path(dir);
    // 0700: the umask may allow group writes, which the check refuses.
    if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST)
      return name + ": cannot create it: " + std::strerror(errno);
  }
  SmallString<256> path(dir);
  Fd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd)
    return name + ": " + std::strerror(errno);
  std::string why = distrust(fd.fd);
  if (!why.empty())
    return name + " is " + why +
           "; whoever can write it decides what mlxc links";
  return "";
}

/// Reads all of the regular file `name` in the folder `dirFd`, when it is
/// one and is at most kMaxEntryBytes.
static std::optional<std::string> readRegularFile(int dirFd,
                                                  const std::string &name) {
  // O_NONBLOCK: a FIFO planted as an entry must not hang the open.
  Fd fd(::openat(dirFd, name.c_str(),
                 O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (!fd)
    return std::nullopt;
  struct stat st;
  if (::fstat(fd.fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      st.st_uid != ::geteuid() || uint64_t(st.st_size) > kMaxEntryBytes)
    return std::nullopt;
  std::string data(size_t(st.st_size), '\0');
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::read(fd.fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return std::nullopt;
    done += size_t(n);
  }
  return data;
}

std::optional<std::string> mlx::readCacheEntry(StringRef dir, StringRef key,
                                               StringRef extension,
                                               std::string *contentHash) {
  if (dir.empty() || !isCacheKey(key))
    return std::nullopt;
  Fd cache(openCacheDir(dir));
  if (!cache)
    return std::nullopt;
  Fd shard(openShard(cache.fd, key, /*create=*/false));
  if (!shard)
    return std::nullopt;
  std::optional<std::string> file =
      readRegularFile(shard.fd, (key + extension).str());
  if (!file)
    return std::nullopt;
  StringRef text = *file;
  auto [header, payload] = text.split('\n');
  SmallVector<StringRef, 3> fields;
  header.split(fields, ' ');
  uint64_t size;
  if (fields.size() != 3 || fields[0] != kEntryMagic ||
      !isCacheKey(fields[1]) || fields[2].getAsInteger(10, size) ||
      size != payload.size() || getContentHash(payload) != fields[1])
    return std::nullopt;
  if (contentHash)
    *contentHash = fields[1].str();
  return payload.str();
}

static bool writeAll(int fd, StringRef data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    data = data.drop_front(size_t(n));
  }
  return true;
}

void mlx::writeCacheEntry(StringRef dir, StringRef key, StringRef extension,
                          StringRef payload) {
  if (dir.empty() || !isCacheKey(key) || payload.size() > kMaxEntryBytes)
    return;
  Fd cache(openCacheDir(dir));
  if (!cache)
    return;
  Fd shard(openShard(cache.fd, key, /*create=*/true));
  if (!shard)
    return;
  std::string name = (key + extension).str();
  std::string temp;
  int fd = -1;
  std::random_device random;
  for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
    temp = name + ".tmp-" + llvm::utohexstr(random(), /*LowerCase=*/true);
    fd = ::openat(shard.fd, temp.c_str(),
                  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 && errno != EEXIST)
      return;
  }
  if (fd < 0)
    return;
  std::string header = (kEntryMagic + " " + getContentHash(payload) + " " +
                        llvm::Twine(payload.size()) + "\n")
                           .str();
  bool ok = writeAll(fd, header) && writeAll(fd, payload);
  ok = ::close(fd) == 0 && ok;
  if (!ok || ::renameat(shard.fd, temp.c_str(), shard.fd, name.c_str()) != 0)
    ::unlinkat(shard.fd, temp.c_str(), 0);
}
