//===- tensor.c - Tensor descriptors and host memory -------------*- C -*-===//

#include "internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

mlxrt_status mlxrt_tensor_init(mlxrt_tensor *t, mlxrt_dtype dtype, int rank,
                               const int64_t *dims, mlxrt_error *err) {
  memset(t, 0, sizeof(*t));
  if ((unsigned)dtype >= (unsigned)MLXRT_DTYPE_COUNT)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT, "invalid dtype %d",
                      (int)dtype);
  if (rank < 0 || rank > MLXRT_MAX_RANK)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "rank %d is not supported (at most %d dimensions)", rank,
                      MLXRT_MAX_RANK);
  bool empty = false;
  for (int i = 0; i < rank; ++i) {
    if (dims[i] < 0)
      return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                        "negative size %" PRId64 " in dimension %d", dims[i],
                        i);
    empty |= dims[i] == 0;
  }
  // The byte count must fit size_t; checking it (rather than the element
  // count) also bounds the element count. An empty tensor has no bytes
  // however large its other dimensions are.
  size_t nbytes = empty ? 0 : mlxrt_dtype_size(dtype);
  for (int i = 0; i < rank && !empty; ++i) {
    if ((uint64_t)nbytes > (uint64_t)SIZE_MAX / (uint64_t)dims[i])
      return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                        "tensor of %s is too large (byte count overflows)",
                        mlxrt_dtype_name(dtype));
    nbytes *= (size_t)dims[i];
  }
  t->dtype = dtype;
  t->rank = rank;
  for (int i = 0; i < rank; ++i)
    t->dims[i] = dims[i];
  t->nbytes = nbytes;
  return MLXRT_OK;
}

uint64_t mlxrt_tensor_numel(const mlxrt_tensor *t) {
  uint64_t n = 1;
  for (int i = 0; i < t->rank; ++i)
    n *= (uint64_t)t->dims[i];
  return n;
}

int mlxrt_tensor_same_type(const mlxrt_tensor *a, const mlxrt_tensor *b) {
  if (a->dtype != b->dtype || a->rank != b->rank)
    return 0;
  for (int i = 0; i < a->rank; ++i)
    if (a->dims[i] != b->dims[i])
      return 0;
  return 1;
}

char *mlxrt_tensor_type_str(const mlxrt_tensor *t, char *buf, size_t size) {
  if (size == 0)
    return buf;
  if (t->rank == 0) {
    snprintf(buf, size, "%s scalar", mlxrt_dtype_name(t->dtype));
    return buf;
  }
  size_t used = 0;
  int n = snprintf(buf, size, "%s [", mlxrt_dtype_name(t->dtype));
  for (int i = 0; n >= 0; ++i) {
    used += (size_t)n;
    if (used >= size)
      return buf; // Truncated; snprintf already terminated it.
    if (i == t->rank) {
      n = snprintf(buf + used, size - used, "]");
      break;
    }
    n = snprintf(buf + used, size - used, "%s%" PRId64, i ? ", " : "",
                 t->dims[i]);
  }
  return buf;
}

mlxrt_status mlxrt_host_alloc(size_t nbytes, void **out, mlxrt_error *err) {
  *out = NULL;
  // aligned_alloc wants a multiple of the alignment; round up, and give even
  // an empty tensor a real pointer so that NULL always means "no buffer".
  size_t rounded = nbytes == 0 ? 64 : (nbytes + 63) & ~(size_t)63;
  void *p = rounded >= nbytes ? aligned_alloc(64, rounded) : NULL;
  if (!p)
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY,
                      "out of memory: cannot allocate %zu bytes (%.1f MiB)",
                      nbytes, (double)nbytes / (1024.0 * 1024.0));
  *out = p;
  return MLXRT_OK;
}

void mlxrt_host_free(void *p) { free(p); }
