//===- status.c - Status codes and error messages ----------------*- C -*-===//

#include "internal.h"

#include <stdlib.h>
#include <string.h>

// runtime/CMakeLists.txt defines it; other builds of these sources (the
// fuzz targets) need no version.
#ifndef MLXRT_VERSION
#define MLXRT_VERSION "unknown"
#endif

const char *mlxrt_version(void) { return MLXRT_VERSION; }

const char *mlxrt_status_name(mlxrt_status status) {
  switch (status) {
  case MLXRT_OK:
    return "ok";
  case MLXRT_ERROR_INVALID_ARGUMENT:
    return "invalid argument";
  case MLXRT_ERROR_IO:
    return "i/o error";
  case MLXRT_ERROR_FORMAT:
    return "bad file format";
  case MLXRT_ERROR_NOT_FOUND:
    return "not found";
  case MLXRT_ERROR_MISMATCH:
    return "type mismatch";
  case MLXRT_ERROR_OUT_OF_MEMORY:
    return "out of memory";
  case MLXRT_ERROR_DEVICE:
    return "device error";
  }
  return "unknown status";
}

mlxrt_status mlxrt_fail(mlxrt_error *err, mlxrt_status status, const char *fmt,
                        ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof(err->message), fmt, ap);
    va_end(ap);
  }
  return status;
}

void mlxrt_error_prefix(mlxrt_error *err, const char *fmt, ...) {
  if (!err)
    return;
  char prefix[sizeof(err->message)];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(prefix, sizeof(prefix), fmt, ap);
  va_end(ap);
  if (n <= 0)
    return;
  size_t plen = strlen(prefix);
  size_t mlen = strlen(err->message);
  if (plen >= sizeof(err->message) - 1)
    plen = sizeof(err->message) - 1;
  if (plen + mlen > sizeof(err->message) - 1)
    mlen = sizeof(err->message) - 1 - plen;
  memmove(err->message + plen, err->message, mlen);
  memcpy(err->message, prefix, plen);
  err->message[plen + mlen] = '\0';
}

void mlxrt_strlcpy(char *dst, const char *src, size_t size) {
  if (size == 0)
    return;
  size_t n = strlen(src);
  if (n >= size)
    n = size - 1;
  memcpy(dst, src, n);
  dst[n] = '\0';
}

char *mlxrt_strndup(const char *s, size_t n) {
  char *copy = malloc(n + 1);
  if (!copy)
    return NULL;
  memcpy(copy, s, n);
  copy[n] = '\0';
  return copy;
}
