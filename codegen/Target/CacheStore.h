//===- CacheStore.h - the compile cache's files, verified -------*- C++ -*-===//
//
// The files of the compile cache, and what mlxc trusts about them. A cache
// folder is used only when it is the user's own and nobody else can write
// it: whoever can write it decides what mlxc links. Inside it, an entry is
// `<key[0:2]>/<key><extension>`, the key 64 hex digits; each file starts
// with a line naming the SHA-256 and the size of its payload, checked on
// every read, so a truncated or damaged entry is a miss (and is rebuilt),
// never a link failure. Only regular files are read, opened without
// following links and up to a size bound; shard folders that are links or
// not the user's own are neither read nor written.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_CODEGEN_TARGET_CACHESTORE_H
#define MLXC_CODEGEN_TARGET_CACHESTORE_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::mlx {

/// Whether `key` may name a cache entry: 64 lowercase hex digits (no path
/// separators, no "..").
bool isCacheKey(llvm::StringRef key);

/// The SHA-256 of `payload`, in hex: how a program entry names its objects'
/// contents.
std::string getContentHash(llvm::StringRef payload);

/// Creates `dir` (mode 0700) when it is missing and checks that it may be
/// trusted: a folder owned by the effective user, writable by no one else.
/// Returns "" when it may, else why not, one line naming the folder.
std::string checkCacheDir(llvm::StringRef dir);

/// The payload of entry `key` + `extension` when it is there and intact
/// (its recorded hash and size match), else nothing. `contentHash`, when
/// given, receives the payload's hash.
std::optional<std::string> readCacheEntry(llvm::StringRef dir,
                                          llvm::StringRef key,
                                          llvm::StringRef extension,
                                          std::string *contentHash = nullptr);

/// Stores `payload` as entry `key` + `extension`: written to a unique
/// temporary file beside it, then renamed into place, so a concurrent
/// compile never reads half an entry. A cache that cannot be written costs
/// time only.
void writeCacheEntry(llvm::StringRef dir, llvm::StringRef key,
                     llvm::StringRef extension, llvm::StringRef payload);

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_TARGET_CACHESTORE_H
