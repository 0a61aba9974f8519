//===- device.c - Device selection and dispatch to backends ------*- C -*-===//

#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

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

mlxrt_status mlxrt_device_parse_name(const char *name, mlxrt_device_kind *kind,
                                     int *ordinal, mlxrt_error *err) {
  *kind = MLXRT_DEVICE_CPU;
  *ordinal = 0;
  if (!name || strcmp(name, "cpu") == 0)
    return MLXRT_OK;
  if (strcmp(name, "cuda") == 0 ||
      (strncmp(name, "cuda:", 5) == 0 && parseOrdinal(name + 5, ordinal))) {
    *kind = MLXRT_DEVICE_CUDA;
    return MLXRT_OK;
  }
  *ordinal = 0;
  return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                    "unknown device '%s' (expected cpu, cuda or cuda:N)", name);
}

mlxrt_status mlxrt_device_open_config(const char *name,
                                      const mlxrt_device_config *config,
                                      mlxrt_device **out, mlxrt_error *err) {
  *out = NULL;
  mlxrt_device_kind kind;
  int ordinal;
  mlxrt_status st = mlxrt_device_parse_name(name, &kind, &ordinal, err);
  if (st != MLXRT_OK)
    return st;
  if (kind == MLXRT_DEVICE_CUDA)
    return mlxrt_cuda_device_create(ordinal, config, out, err);
  return mlxrt_cpu_device_create(out, err);
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
                              void **args, size_t num_inputs,
                              size_t num_outputs, double *elapsed_ms,
                              mlxrt_error *err) {
  if (!entry)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "no program to run on %s", dev->description);
  return dev->ops->run(dev, entry, args, num_inputs, num_outputs, elapsed_ms,
                       err);
}

mlxrt_status mlxrt_device_run_resident(mlxrt_device *dev, mlxrt_entry_fn entry,
                                       void **args, size_t num_inputs,
                                       size_t num_outputs, mlxrt_error *err) {
  if (!entry)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "no program to run on %s", dev->description);
  if (!dev->ops->runResident)
    return dev->ops->run(dev, entry, args, num_inputs, num_outputs, NULL, err);
  return dev->ops->runResident(dev, entry, args, num_inputs, num_outputs, err);
}

mlxrt_status mlxrt_device_to_host(mlxrt_device *dev, void *p,
                                  mlxrt_error *err) {
  return dev->ops->toHost ? dev->ops->toHost(dev, p, err) : MLXRT_OK;
}

mlxrt_status mlxrt_device_read(mlxrt_device *dev, void *p, void *dst,
                               size_t nbytes, mlxrt_error *err) {
  if (dev->ops->read)
    return dev->ops->read(dev, p, dst, nbytes, err);
  mlxrt_status st = mlxrt_device_to_host(dev, p, err);
  if (st == MLXRT_OK && nbytes)
    memcpy(dst, p, nbytes);
  return st;
}

void mlxrt_device_host_wrote(mlxrt_device *dev, void *p) {
  if (dev->ops->hostWrote)
    dev->ops->hostWrote(dev, p);
}

mlxrt_status mlxrt_device_before_host_write(mlxrt_device *dev, void *p,
                                            mlxrt_error *err) {
  return dev->ops->beforeHostWrite ? dev->ops->beforeHostWrite(dev, p, err)
                                   : MLXRT_OK;
}

mlxrt_status mlxrt_device_synchronize(mlxrt_device *dev, mlxrt_error *err) {
  return dev->ops->synchronize ? dev->ops->synchronize(dev, err) : MLXRT_OK;
}

void mlxrt_device_set_trace(mlxrt_device *dev, mlxrt_trace_fn trace,
                            void *user) {
  if (dev->ops->setTrace)
    dev->ops->setTrace(dev, trace, user);
}

void mlxrt_device_forget_program(mlxrt_device *dev, mlxrt_entry_fn entry) {
  if (dev->ops->forgetProgram)
    dev->ops->forgetProgram(dev, entry);
}

mlxrt_status mlxrt_device_prepare(mlxrt_device *dev, bool matmul,
                                  mlxrt_error *err) {
  return dev->ops->prepare ? dev->ops->prepare(dev, matmul, err) : MLXRT_OK;
}

double mlxrt_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}
