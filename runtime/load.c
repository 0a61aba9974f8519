//===- load.c - Load a tensor from .npy, .npz or .safetensors ----*- C -*-===//
//
// Splits "FILE[:ENTRY]", recognizes the format by its first bytes, and holds
// the part every format shares: checking the dtype and shape against what the
// program expects and reading the data (converting float32 to bfloat16 when
// asked). Data goes straight from the file into the destination buffer, so a
// weight is never held twice in memory.
//
//===----------------------------------------------------------------------===//

#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static bool endsWith(const char *s, size_t len, const char *suffix) {
  size_t n = strlen(suffix);
  return len >= n && strncasecmp(s + len - n, suffix, n) == 0;
}

/// Splits "FILE.npz:ENTRY" / "FILE.safetensors:NAME" at the last ':'. Only
/// those two extensions take a name, so other paths may contain ':'.
static mlxrt_status splitSpec(const char *spec, char **path, char **entry,
                              mlxrt_error *err) {
  *path = *entry = NULL;
  const char *colon = strrchr(spec, ':');
  size_t pathLen = strlen(spec);
  if (colon && (endsWith(spec, (size_t)(colon - spec), ".npz") ||
                endsWith(spec, (size_t)(colon - spec), ".safetensors"))) {
    pathLen = (size_t)(colon - spec);
    if (colon[1] == '\0')
      return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                        "'%s': empty entry name after ':'", spec);
    if (!(*entry = mlxrt_strndup(colon + 1, strlen(colon + 1))))
      return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  if (pathLen == 0) {
    free(*entry);
    *entry = NULL;
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT, "empty file name");
  }
  if (!(*path = mlxrt_strndup(spec, pathLen))) {
    free(*entry);
    *entry = NULL;
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  return MLXRT_OK;
}

typedef enum { FORMAT_NPY, FORMAT_NPZ, FORMAT_SAFETENSORS } Format;

static mlxrt_status detectFormat(FILE *f, const char *path, uint64_t size,
                                 Format *format, mlxrt_error *err) {
  unsigned char head[9] = {0};
  size_t got = fread(head, 1, sizeof(head), f);
  if (got < sizeof(head) && ferror(f))
    return mlxrt_fail(err, MLXRT_ERROR_IO, "%s: read error: %s", path,
                      strerror(errno));
  if (size == 0)
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT, "%s: empty file (0 bytes)",
                      path);
  size_t len = strlen(path);
  if (got >= 6 && memcmp(head, "\x93NUMPY", 6) == 0) {
    *format = FORMAT_NPY;
  } else if (got >= 4 && (memcmp(head, "PK\x03\x04", 4) == 0 ||
                          memcmp(head, "PK\x05\x06", 4) == 0)) {
    *format = FORMAT_NPZ;
  } else if (got == 9 && head[8] == '{') {
    *format = FORMAT_SAFETENSORS; // 8-byte header length, then JSON.
  } else if (endsWith(path, len, ".safetensors")) {
    *format = FORMAT_SAFETENSORS; // Let its parser say what is wrong.
  } else if (endsWith(path, len, ".npz")) {
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "%s: not an .npz file (no zip signature at byte 0)",
                      path);
  } else if (endsWith(path, len, ".npy")) {
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "%s: not an .npy file (no \\x93NUMPY magic at byte 0)",
                      path);
  } else {
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "%s: unrecognized file format (expected .npy, .npz or "
                      ".safetensors)",
                      path);
  }
  return mlxrt_seek(f, 0, path, err);
}

static mlxrt_status notRegular(const char *path, mode_t mode,
                               mlxrt_error *err) {
  if (S_ISDIR(mode))
    return mlxrt_fail(err, MLXRT_ERROR_IO, "cannot read '%s': %s", path,
                      strerror(EISDIR));
  return mlxrt_fail(err, MLXRT_ERROR_IO,
                    "cannot read '%s': it is %s, not a regular file (the "
                    "formats need a file's size and random access)",
                    path,
                    S_ISFIFO(mode)   ? "a FIFO or pipe"
                    : S_ISCHR(mode)  ? "a character device"
                    : S_ISBLK(mode)  ? "a block device"
                    : S_ISSOCK(mode) ? "a socket"
                                     : "a special file");
}

/// Opens a regular file for reading; anything else is refused before it is
/// opened (opening a FIFO without a writer would block), and again after
/// (it may have been swapped): O_NONBLOCK keeps that open from blocking.
static mlxrt_status openInput(const char *path, FILE **out, uint64_t *size,
                              mlxrt_error *err) {
  *out = NULL;
  struct stat info;
  if (stat(path, &info) != 0)
    return mlxrt_fail(err, MLXRT_ERROR_IO, "cannot open '%s': %s", path,
                      strerror(errno));
  if (!S_ISREG(info.st_mode))
    return notRegular(path, info.st_mode, err);
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return mlxrt_fail(err, MLXRT_ERROR_IO, "cannot open '%s': %s", path,
                      strerror(errno));
  mlxrt_status st = MLXRT_OK;
  int flags;
  if (fstat(fd, &info) != 0)
    st = mlxrt_fail(err, MLXRT_ERROR_IO, "cannot stat '%s': %s", path,
                    strerror(errno));
  else if (!S_ISREG(info.st_mode))
    st = notRegular(path, info.st_mode, err);
  else if ((flags = fcntl(fd, F_GETFL)) < 0 ||
           fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 ||
           !(*out = fdopen(fd, "rb")))
    st = mlxrt_fail(err, MLXRT_ERROR_IO, "cannot open '%s': %s", path,
                    strerror(errno));
  if (st != MLXRT_OK) {
    close(fd);
    return st;
  }
  *size = (uint64_t)info.st_size;
  return MLXRT_OK;
}

static mlxrt_status loadSpec(const char *spec, const char *defaultEntry,
                             const mlxrt_load_request *req, mlxrt_error *err) {
  char *path, *entry;
  mlxrt_status st = splitSpec(spec, &path, &entry, err);
  if (st != MLXRT_OK)
    return st;

  FILE *f;
  uint64_t size = 0;
  st = openInput(path, &f, &size, err);
  if (st == MLXRT_OK) {
    Format format = FORMAT_NPY;
    const char *name = entry ? entry : defaultEntry;
    st = detectFormat(f, path, size, &format, err);
    if (st != MLXRT_OK) {
      // Reported by detectFormat.
    } else if (format == FORMAT_NPY) {
      if (entry) {
        st = mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                        "%s is an .npy file, which holds one array; it has "
                        "no entry '%s'",
                        path, entry);
      } else {
        mlxrt_file_reader r;
        mlxrt_file_reader_init(&r, f, 0, size, path);
        st = mlxrt_npy_load(&r.base, req, err);
      }
    } else if (!name) {
      st = mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "%s: an archive needs an entry name (%s:NAME)", path,
                      path);
    } else if (format == FORMAT_NPZ) {
      st = mlxrt_npz_load(f, size, path, name, req, err);
    } else {
      st = mlxrt_safetensors_load(f, size, path, name, req, err);
    }
  }
  if (f)
    fclose(f);
  free(path);
  free(entry);
  return st;
}

mlxrt_status mlxrt_load_tensor(const char *spec, const char *default_entry,
                               const mlxrt_tensor *expected, void *dst,
                               mlxrt_error *err) {
  mlxrt_tensor out;
  mlxrt_load_request req = {expected, dst, &out};
  return loadSpec(spec, default_entry, &req, err);
}

mlxrt_status mlxrt_read_tensor(const char *spec, const char *default_entry,
                               mlxrt_tensor *out, mlxrt_error *err) {
  memset(out, 0, sizeof(*out));
  mlxrt_load_request req = {NULL, NULL, out};
  mlxrt_status st = loadSpec(spec, default_entry, &req, err);
  if (st != MLXRT_OK && out->data) {
    mlxrt_host_free(out->data);
    out->data = NULL;
  }
  return st;
}

/// Reads float32 data from r and stores it as bfloat16, a chunk at a time.
static mlxrt_status readFloat32AsBfloat16(mlxrt_reader *r, uint16_t *dst,
                                          uint64_t count, mlxrt_error *err) {
  float chunk[4096];
  uint64_t start = r->pos, done = 0;
  while (done < count) {
    size_t n = count - done < 4096 ? (size_t)(count - done) : 4096;
    size_t got;
    mlxrt_status st = mlxrt_reader_read(r, chunk, n * sizeof(float), &got, err);
    if (st != MLXRT_OK)
      return st;
    if (got < n * sizeof(float))
      return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                        "%s: truncated: expected %" PRIu64
                        " bytes of array data at byte offset %" PRIu64
                        ", but the data ends after %" PRIu64,
                        r->what, count * sizeof(float), start,
                        done * sizeof(float) + got);
    for (size_t i = 0; i < n; ++i)
      dst[done + i] = mlxrt_float_to_bfloat16(chunk[i]);
    done += n;
  }
  return MLXRT_OK;
}

mlxrt_status mlxrt_load_payload(mlxrt_reader *r, const mlxrt_tensor *found,
                                const mlxrt_load_request *req,
                                const char *where, mlxrt_error *err) {
  const mlxrt_tensor *want = req->expected ? req->expected : found;
  bool toBfloat16 = false;
  if (!mlxrt_tensor_same_type(want, found)) {
    mlxrt_tensor asFloat32 = *want;
    asFloat32.dtype = MLXRT_DTYPE_FLOAT32;
    toBfloat16 = want->dtype == MLXRT_DTYPE_BFLOAT16 &&
                 mlxrt_tensor_same_type(&asFloat32, found);
    if (!toBfloat16) {
      char wantStr[256], foundStr[256];
      return mlxrt_fail(
          err, MLXRT_ERROR_MISMATCH, "expected %s%s, got %s in %s",
          mlxrt_tensor_type_str(want, wantStr, sizeof(wantStr)),
          want->dtype == MLXRT_DTYPE_BFLOAT16 ? " (or float32 data)" : "",
          mlxrt_tensor_type_str(found, foundStr, sizeof(foundStr)), where);
    }
  }

  *req->out = *want;
  req->out->data = req->dst;
  if (!req->expected) {
    // The data must fit in what is left before memory is taken for it.
    if (r->end >= r->pos && want->nbytes > r->end - r->pos)
      return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                        "%s: truncated: expected %zu bytes of array data at "
                        "byte offset %" PRIu64 ", but the data ends after "
                        "%" PRIu64,
                        r->what, want->nbytes, r->pos, r->end - r->pos);
    mlxrt_status st = mlxrt_host_alloc(want->nbytes, &req->out->data, err);
    if (st != MLXRT_OK) {
      mlxrt_error_prefix(err, "%s: ", where);
      return st;
    }
  }

  mlxrt_status st =
      toBfloat16 ? readFloat32AsBfloat16(r, req->out->data,
                                         mlxrt_tensor_numel(want), err)
                 : mlxrt_reader_read_exact(r, req->out->data, want->nbytes,
                                           "array data", err);
  if (st != MLXRT_OK) {
    mlxrt_load_release(req); // Nothing half-read is handed back.
    return st;
  }
  // numpy stores bools as bytes; anything but 0 or 1 would break code that
  // treats them as i1.
  if (want->dtype == MLXRT_DTYPE_BOOL) {
    unsigned char *p = req->out->data;
    for (size_t i = 0; i < want->nbytes; ++i)
      p[i] = p[i] != 0;
  }
  return MLXRT_OK;
}

void mlxrt_load_release(const mlxrt_load_request *req) {
  if (req->expected)
    return;
  mlxrt_host_free(req->out->data);
  req->out->data = NULL;
}

void mlxrt_append_name(char *buf, size_t size, size_t *count,
                       const char *name) {
  enum { MaxListed = 8 };
  size_t used = strlen(buf);
  if (*count < MaxListed)
    snprintf(buf + used, size - used, "%s'%s'", *count ? ", " : "", name);
  else if (*count == MaxListed)
    snprintf(buf + used, size - used, ", ...");
  ++*count;
}
