//===- npz.c - Read entries of numpy's .npz (zip) archives -------*- C -*-===//
//
// An .npz is a zip archive of .npy files: np.savez stores them, and
// np.savez_compressed deflates them. numpy always writes zip64 extra fields,
// so they are read here too. The central directory is the authority for
// sizes and offsets (local headers may defer them to a data descriptor), and
// the CRC-32 of every entry read is checked, which catches corrupt archives
// that would otherwise load as wrong numbers.
//
//===----------------------------------------------------------------------===//

#include "internal.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define LOCAL_SIG 0x04034b50u
#define CENTRAL_SIG 0x02014b50u
#define EOCD_SIG 0x06054b50u
#define ZIP64_EOCD_SIG 0x06064b50u
#define ZIP64_LOCATOR_SIG 0x07064b50u
#define EOCD_SIZE 22u
#define MAX_COMMENT 65535u
#define MAX_DIRECTORY_BYTES (256u << 20)

static uint16_t le16(const unsigned char *p) {
  return (uint16_t)(p[0] | p[1] << 8);
}
static uint32_t le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}
static uint64_t le64(const unsigned char *p) {
  return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static mlxrt_status corrupt(mlxrt_error *err, const char *path, uint64_t offset,
                            const char *what) {
  return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                    "%s: corrupt zip archive at byte offset %" PRIu64 ": %s",
                    path, offset, what);
}

/// Reads n bytes at an absolute offset; running short is corruption, since
/// every offset read here came from the archive's own directory.
static mlxrt_status readAt(FILE *f, const char *path, uint64_t offset,
                           void *buf, size_t n, const char *part,
                           mlxrt_error *err) {
  mlxrt_status st = mlxrt_seek(f, offset, path, err);
  if (st != MLXRT_OK)
    return st;
  size_t got = fread(buf, 1, n, f);
  if (got < n && ferror(f))
    return mlxrt_fail(err, MLXRT_ERROR_IO, "%s: read error: %s", path,
                      strerror(errno));
  if (got < n)
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "%s: truncated zip archive: expected %zu bytes of %s at "
                      "byte offset %" PRIu64 ", but the file ends after %zu",
                      path, n, part, offset, got);
  return MLXRT_OK;
}

//===----------------------------------------------------------------------===//
// Directory
//===----------------------------------------------------------------------===//

typedef struct {
  uint64_t entries, dirSize, dirOffset;
} Directory;

static mlxrt_status findDirectory(FILE *f, const char *path, uint64_t size,
                                  Directory *dir, mlxrt_error *err) {
  // The end record sits in the last 22 bytes plus a comment of up to 64 KiB.
  size_t tailLen =
      (size_t)(size < EOCD_SIZE + MAX_COMMENT ? size : EOCD_SIZE + MAX_COMMENT);
  if (tailLen < EOCD_SIZE)
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "%s: truncated zip archive: %" PRIu64
                      " bytes, too short for an end-of-central-directory "
                      "record",
                      path, size);
  unsigned char *tail = malloc(tailLen);
  if (!tail)
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  uint64_t tailStart = size - tailLen;
  mlxrt_status st =
      readAt(f, path, tailStart, tail, tailLen, "end of archive", err);
  size_t at = tailLen - EOCD_SIZE + 1;
  bool found = false;
  while (st == MLXRT_OK && at-- > 0) {
    if (le32(tail + at) == EOCD_SIG &&
        at + EOCD_SIZE + le16(tail + at + 20) <= tailLen) {
      found = true;
      break;
    }
  }
  if (st == MLXRT_OK && !found)
    st = mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                    "%s: not a zip archive, or truncated (no "
                    "end-of-central-directory record)",
                    path);
  if (st != MLXRT_OK) {
    free(tail);
    return st;
  }
  const unsigned char *eocd = tail + at;
  uint64_t eocdPos = tailStart + at;
  dir->entries = le16(eocd + 10);
  dir->dirSize = le32(eocd + 12);
  dir->dirOffset = le32(eocd + 16);
  bool zip64 = dir->entries == 0xffff || dir->dirSize == 0xffffffffu ||
               dir->dirOffset == 0xffffffffu;
  free(tail);

  if (zip64) {
    unsigned char loc[20], rec[56];
    if (eocdPos < sizeof(loc))
      return corrupt(err, path, eocdPos, "no zip64 end-of-directory locator");
    if ((st = readAt(f, path, eocdPos - sizeof(loc), loc, sizeof(loc),
                     "zip64 locator", err)) != MLXRT_OK)
      return st;
    if (le32(loc) != ZIP64_LOCATOR_SIG)
      return corrupt(err, path, eocdPos - sizeof(loc),
                     "no zip64 end-of-directory locator");
    uint64_t recPos = le64(loc + 8);
    if ((st = readAt(f, path, recPos, rec, sizeof(rec),
                     "zip64 end-of-directory record", err)) != MLXRT_OK)
      return st;
    if (le32(rec) != ZIP64_EOCD_SIG)
      return corrupt(err, path, recPos, "bad zip64 end-of-directory record");
    dir->entries = le64(rec + 32);
    dir->dirSize = le64(rec + 40);
    dir->dirOffset = le64(rec + 48);
  }
  if (dir->dirOffset > size || dir->dirSize > size - dir->dirOffset)
    return corrupt(err, path, eocdPos,
                   "central directory lies outside the file");
  if (dir->dirSize > MAX_DIRECTORY_BYTES)
    return corrupt(err, path, eocdPos, "central directory is too large");
  return MLXRT_OK;
}

typedef struct {
  uint16_t flags, method;
  uint32_t crc;
  uint64_t compSize, size, localOffset;
  const unsigned char *name;
  size_t nameLen;
} Entry;

/// Decodes the central directory record at dir[*at] and advances *at.
static mlxrt_status parseCentral(const unsigned char *dir, size_t dirLen,
                                 size_t *at, uint64_t dirOffset,
                                 const char *path, Entry *e, mlxrt_error *err) {
  const unsigned char *p = dir + *at;
  uint64_t where = dirOffset + *at;
  if (dirLen - *at < 46 || le32(p) != CENTRAL_SIG)
    return corrupt(err, path, where, "bad central directory record");
  e->flags = le16(p + 8);
  e->method = le16(p + 10);
  e->crc = le32(p + 16);
  e->compSize = le32(p + 20);
  e->size = le32(p + 24);
  e->nameLen = le16(p + 28);
  size_t extraLen = le16(p + 30), commentLen = le16(p + 32);
  e->localOffset = le32(p + 42);
  if (dirLen - *at - 46 < e->nameLen + extraLen + commentLen)
    return corrupt(err, path, where, "central directory record overruns");
  e->name = p + 46;

  // Fields that overflow 32 bits are 0xffffffff, their values in the zip64
  // extra field (id 1), in this order.
  const unsigned char *extra = p + 46 + e->nameLen;
  uint64_t *wide[3] = {&e->size, &e->compSize, &e->localOffset};
  for (size_t x = 0; x + 4 <= extraLen;) {
    uint16_t id = le16(extra + x), len = le16(extra + x + 2);
    if (x + 4 + len > extraLen)
      return corrupt(err, path, where, "extra field overruns its record");
    if (id == 1) {
      const unsigned char *v = extra + x + 4;
      size_t used = 0;
      for (int i = 0; i < 3; ++i) {
        if (*wide[i] != 0xffffffffu)
          continue;
        if (used + 8 > len)
          return corrupt(err, path, where, "short zip64 extra field");
        *wide[i] = le64(v + used);
        used += 8;
      }
    }
    x += 4 + (size_t)len;
  }
  *at += 46 + e->nameLen + extraLen + commentLen;
  return MLXRT_OK;
}

static bool nameIs(const Entry *e, const char *s, size_t n) {
  return e->nameLen == n && memcmp(e->name, s, n) == 0;
}

/// Finds `want` (or `want`.npy) in the directory. An exact name wins. The
/// entry's name is returned as a new string in *name, since out->name points
/// into the directory buffer, which does not outlive this call. A name that
/// appears twice is refused: numpy (Python's zipfile) reads the last such
/// entry, other readers the first, so the archive means two things.
static mlxrt_status findEntry(FILE *f, const char *path, const Directory *dir,
                              const char *want, Entry *out, char **name,
                              mlxrt_error *err) {
  unsigned char *buf = malloc(dir->dirSize ? (size_t)dir->dirSize : 1);
  if (!buf)
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  mlxrt_status st = readAt(f, path, dir->dirOffset, buf, (size_t)dir->dirSize,
                           "central directory", err);
  size_t wantLen = strlen(want);
  char names[512] = "";
  size_t count = 0, at = 0;
  Entry suffixed;
  unsigned exact = 0, withSuffix = 0;
  for (uint64_t i = 0; st == MLXRT_OK && i < dir->entries; ++i) {
    Entry e;
    if ((st = parseCentral(buf, (size_t)dir->dirSize, &at, dir->dirOffset, path,
                           &e, err)) != MLXRT_OK)
      break;
    if (nameIs(&e, want, wantLen)) {
      if (!exact++)
        *out = e;
    } else if (e.nameLen == wantLen + 4 && memcmp(e.name, want, wantLen) == 0 &&
               memcmp(e.name + wantLen, ".npy", 4) == 0) {
      if (!withSuffix++)
        suffixed = e;
    }
    // List names as the user would type them: without ".npy".
    char shown[128];
    size_t n = e.nameLen;
    if (n >= 4 && memcmp(e.name + n - 4, ".npy", 4) == 0)
      n -= 4;
    snprintf(shown, sizeof(shown), "%.*s", (int)n, (const char *)e.name);
    mlxrt_append_name(names, sizeof(names), &count, shown);
  }
  if (st == MLXRT_OK && !exact && withSuffix)
    *out = suffixed;
  if (st == MLXRT_OK && !exact && !withSuffix)
    st = mlxrt_fail(err, MLXRT_ERROR_NOT_FOUND,
                    "%s: no entry '%s' (the archive holds %s)", path, want,
                    count ? names : "no entries");
  if (st == MLXRT_OK && (exact ? exact : withSuffix) > 1)
    st = mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                    "%s: entry '%.*s' appears %u times in the archive, which "
                    "is ambiguous (numpy reads the last one)",
                    path, (int)out->nameLen, (const char *)out->name,
                    exact ? exact : withSuffix);
  *name = NULL;
  if (st == MLXRT_OK &&
      !(*name = mlxrt_strndup((const char *)out->name, out->nameLen)))
    st = mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  out->name = NULL;
  free(buf);
  return st;
}

//===----------------------------------------------------------------------===//
// Entry reader: stored or deflated data, with size and CRC-32 checks
//===----------------------------------------------------------------------===//

typedef struct {
  mlxrt_reader base;
  FILE *file;
  const Entry *entry;
  uint64_t compLeft; // Bytes of the entry's data still unread in the file.
  uint64_t produced; // Bytes delivered.
  uint32_t crc;
  bool deflated, streamEnd, verified;
  z_stream z;
  unsigned char in[1 << 16];
} EntryReader;

/// Called once all data has been delivered: the sizes and the CRC-32 must
/// be those the directory gives.
static mlxrt_status verifyEntry(EntryReader *r, mlxrt_error *err) {
  if (r->verified)
    return MLXRT_OK;
  r->verified = true;
  if (r->produced != r->entry->size)
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "%s: corrupt: the data holds %" PRIu64
                      " bytes, the zip directory says %" PRIu64,
                      r->base.what, r->produced, r->entry->size);
  if (r->crc != r->entry->crc)
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "%s: corrupt: CRC-32 is 0x%08" PRIx32
                      ", the zip directory says 0x%08" PRIx32,
                      r->base.what, r->crc, r->entry->crc);
  return MLXRT_OK;
}

static mlxrt_status fillInput(EntryReader *r, mlxrt_error *err) {
  size_t n = r->compLeft < sizeof(r->in) ? (size_t)r->compLeft : sizeof(r->in);
  size_t got = fread(r->in, 1, n, r->file);
  if (got < n)
    return mlxrt_fail(
        err, ferror(r->file) ? MLXRT_ERROR_IO : MLXRT_ERROR_FORMAT, "%s: %s",
        r->base.what,
        ferror(r->file) ? strerror(errno) : "truncated compressed data");
  r->compLeft -= got;
  r->z.next_in = r->in;
  r->z.avail_in = (uInt)got;
  return MLXRT_OK;
}

static mlxrt_status entryRead(mlxrt_reader *base, void *buf, size_t n,
                              size_t *got, mlxrt_error *err) {
  EntryReader *r = (EntryReader *)base;
  unsigned char *out = buf;
  size_t done = 0;
  if (!r->deflated) {
    size_t want = r->compLeft < n ? (size_t)r->compLeft : n;
    done = want ? fread(out, 1, want, r->file) : 0;
    r->compLeft -= done;
    if (done < want)
      return mlxrt_fail(
          err, ferror(r->file) ? MLXRT_ERROR_IO : MLXRT_ERROR_FORMAT, "%s: %s",
          base->what, ferror(r->file) ? strerror(errno) : "truncated data");
  } else {
    while (done < n && !r->streamEnd) {
      if (r->z.avail_in == 0 && r->compLeft > 0) {
        mlxrt_status st = fillInput(r, err);
        if (st != MLXRT_OK)
          return st;
      }
      size_t room = n - done < UINT_MAX ? n - done : UINT_MAX;
      r->z.next_out = out + done;
      r->z.avail_out = (uInt)room;
      int zst = inflate(&r->z, Z_NO_FLUSH);
      done += room - r->z.avail_out;
      if (zst == Z_STREAM_END) {
        r->streamEnd = true;
      } else if (zst == Z_BUF_ERROR && r->z.avail_in == 0 && r->compLeft == 0) {
        return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                          "%s: truncated compressed data (the deflate "
                          "stream ends early)",
                          base->what);
      } else if (zst != Z_OK && zst != Z_BUF_ERROR) {
        return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                          "%s: corrupt compressed data: %s", base->what,
                          r->z.msg ? r->z.msg : zError(zst));
      }
    }
  }
  r->crc = (uint32_t)crc32_z(r->crc, out, done);
  r->produced += done;
  *got = done;
  // Guard against a directory whose size understates the data.
  if (r->produced > r->entry->size)
    return verifyEntry(r, err);
  if (done < n)
    return verifyEntry(r, err);
  return MLXRT_OK;
}

mlxrt_status mlxrt_npz_load(FILE *file, uint64_t fileSize, const char *path,
                            const char *entryName,
                            const mlxrt_load_request *req, mlxrt_error *err) {
  Directory dir = {0, 0, 0};
  mlxrt_status st = findDirectory(file, path, fileSize, &dir, err);
  if (st != MLXRT_OK)
    return st;
  Entry e;
  char *name;
  if ((st = findEntry(file, path, &dir, entryName, &e, &name, err)) != MLXRT_OK)
    return st;

  size_t whatLen = strlen(path) + e.nameLen + 16;
  char *what = malloc(whatLen);
  EntryReader *r = calloc(1, sizeof(EntryReader));
  bool zInit = false;
  unsigned char local[30];
  if (!what || !r) {
    st = mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
    goto done;
  }
  snprintf(what, whatLen, "%s entry '%s'", path, name);

  if (e.flags & 1u) {
    st = mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                    "%s: encrypted entries are not "
                    "supported",
                    what);
    goto done;
  }
  if (e.method != 0 && e.method != 8) {
    st = mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                    "%s: unsupported compression method %u (supported: "
                    "stored, deflate)",
                    what, (unsigned)e.method);
    goto done;
  }
  if ((st = readAt(file, path, e.localOffset, local, sizeof(local),
                   "local file header", err)) != MLXRT_OK)
    goto done;
  if (le32(local) != LOCAL_SIG) {
    st = corrupt(err, path, e.localOffset, "bad local file header");
    goto done;
  }
  // As Python's zipfile does: the two copies of the name must agree, or the
  // directory points at another entry's data.
  size_t localNameLen = le16(local + 26);
  if (localNameLen != e.nameLen) {
    st = corrupt(err, path, e.localOffset,
                 "the local file header names another entry");
    goto done;
  }
  if (localNameLen) {
    char *localName = malloc(localNameLen);
    if (!localName) {
      st = mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
      goto done;
    }
    st = readAt(file, path, e.localOffset + 30, localName, localNameLen,
                "local file name", err);
    if (st == MLXRT_OK && memcmp(localName, name, localNameLen) != 0)
      st = corrupt(err, path, e.localOffset,
                   "the local file header names another entry");
    free(localName);
    if (st != MLXRT_OK)
      goto done;
  }
  uint64_t dataStart = e.localOffset + 30 + le16(local + 26) + le16(local + 28);
  if (dataStart > fileSize || e.compSize > fileSize - dataStart) {
    st = mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                    "%s: truncated: expected %" PRIu64
                    " bytes of entry data at byte offset %" PRIu64
                    ", but the file ends at %" PRIu64,
                    what, e.compSize, dataStart, fileSize);
    goto done;
  }
  if (e.method == 0 && e.compSize != e.size) {
    st = corrupt(err, path, e.localOffset,
                 "stored entry with different compressed size");
    goto done;
  }
  if ((st = mlxrt_seek(file, dataStart, path, err)) != MLXRT_OK)
    goto done;

  r->base.read = entryRead;
  r->base.what = what;
  // An allocation guard only (the sizes are checked as the data is read):
  // deflate expands at most ~1032:1, whatever the header claims.
  r->base.end = e.method == 0 || e.compSize > UINT64_MAX / 2048
                    ? e.compSize
                    : e.compSize * 1032 + 64;
  r->file = file;
  r->entry = &e;
  r->compLeft = e.compSize;
  r->crc = (uint32_t)crc32_z(0, Z_NULL, 0);
  r->deflated = e.method == 8;
  if (r->deflated) {
    // Raw deflate: zip carries no zlib header.
    if (inflateInit2(&r->z, -MAX_WBITS) != Z_OK) {
      st = mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY,
                      "%s: cannot initialize zlib", what);
      goto done;
    }
    zInit = true;
  }
  st = mlxrt_npy_load(&r->base, req, err);
  // The .npy reader stops at its last byte; make sure the CRC was checked
  // even when it did not need to look past it.
  if (st == MLXRT_OK && (st = verifyEntry(r, err)) != MLXRT_OK)
    mlxrt_load_release(req);

done:
  if (zInit)
    inflateEnd(&r->z);
  free(r);
  free(what);
  free(name);
  return st;
}
