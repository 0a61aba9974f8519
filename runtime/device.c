//===- device.c - Device selection and dispatch to backends ------*- C -*-===//

#include "internal.h"

#include <stdlib.h>
#include <string.h>

/// Parses the N of "cuda:N": decimal digits only, no sign, no overflow.
static bool parseOrdinal(const char *s, int *out) {
  if (!*s)
    return false;
  long value = 0;
  for (; *s; ++s) {
    if (*s < '0' || *s > '9' || value > 1000000)
      return false;
    value = value * 10 + (*s - '0');
  }
  *out = (int)value;
  return true;
}

mlxrt_status mlxrt_device_open(const char *name, mlxrt_device **out,
                               mlxrt_error *err) {
  *out = NULL;
  if (!name || strcmp(name, "cpu") == 0)
    return mlxrt_cpu_device_create(out, err);
  int ordinal = 0;
  if (strcmp(name, "cuda") == 0 ||
      (strncmp(name, "cuda:", 5) == 0 && parseOrdinal(name + 5, &ordinal)))
    return mlxrt_cuda_device_create(ordinal, out, err);
  return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                    "unknown device '%s' (expected cpu, cuda or cuda:N)", name);
}

void mlxrt_device_close(mlxrt_device *dev) {
  if (dev)
    dev->ops->destroy(dev);
}

mlxrt_device_kind mlxrt_device_get_kind(const mlxrt_device *dev) {
  return dev->kind;
}

const char *mlxrt_device_description(const mlxrt_device *dev) {
  return dev->description;
}

mlxrt_status mlxrt_device_alloc(mlxrt_device *dev, size_t nbytes, void **out,
                                mlxrt_error *err) {
  return dev->ops->alloc(dev, nbytes, out, err);
}

void mlxrt_device_free(mlxrt_device *dev, void *p) {
  if (p)
    dev->ops->free(dev, p);
}

mlxrt_status mlxrt_device_run(mlxrt_device *dev, mlxrt_entry_fn entry,
                              void **args, double *elapsed_ms,
                              mlxrt_error *err) {
  return dev->ops->run(dev, entry, args, elapsed_ms, err);
}
