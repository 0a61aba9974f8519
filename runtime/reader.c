//===- reader.c - Sequential byte sources for the file formats ---*- C -*-===//

#include "internal.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/types.h>

mlxrt_status mlxrt_reader_read(mlxrt_reader *r, void *buf, size_t n,
                               size_t *got, mlxrt_error *err) {
  *got = 0;
  mlxrt_status st = r->read(r, buf, n, got, err);
  r->pos += *got;
  return st;
}

mlxrt_status mlxrt_reader_read_exact(mlxrt_reader *r, void *buf, size_t n,
                                     const char *part, mlxrt_error *err) {
  uint64_t start = r->pos;
  size_t got;
  mlxrt_status st = mlxrt_reader_read(r, buf, n, &got, err);
  if (st != MLXRT_OK)
    return st;
  if (got < n)
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "%s: truncated: expected %zu bytes of %s at byte offset "
                      "%" PRIu64 ", but the data ends after %zu",
                      r->what, n, part, start, got);
  return MLXRT_OK;
}

static mlxrt_status fileRead(mlxrt_reader *base, void *buf, size_t n,
                             size_t *got, mlxrt_error *err) {
  mlxrt_file_reader *r = (mlxrt_file_reader *)base;
  if ((uint64_t)n > r->remaining)
    n = (size_t)r->remaining;
  size_t done = n ? fread(buf, 1, n, r->file) : 0;
  r->remaining -= done;
  *got = done;
  if (done < n && ferror(r->file))
    return mlxrt_fail(err, MLXRT_ERROR_IO,
                      "%s: read error at byte offset %" PRIu64 ": %s",
                      base->what, base->pos + done, strerror(errno));
  // A file that shrank since its size was taken just ends early.
  if (done < n)
    r->remaining = 0;
  return MLXRT_OK;
}

void mlxrt_file_reader_init(mlxrt_file_reader *r, FILE *file, uint64_t offset,
                            uint64_t size, const char *what) {
  r->base.read = fileRead;
  r->base.what = what;
  r->base.pos = offset;
  r->base.end = offset + size;
  r->file = file;
  r->remaining = size;
}

mlxrt_status mlxrt_seek(FILE *f, uint64_t offset, const char *what,
                        mlxrt_error *err) {
  if (offset > (uint64_t)INT64_MAX)
    errno = EOVERFLOW;
  if (offset > (uint64_t)INT64_MAX || fseeko(f, (off_t)offset, SEEK_SET) != 0)
    return mlxrt_fail(err, MLXRT_ERROR_IO,
                      "%s: cannot seek to byte offset %" PRIu64 ": %s", what,
                      offset, strerror(errno));
  return MLXRT_OK;
}
