//===- device_cpu.c - The CPU device -----------------------------*- C -*-===//
//
// On the CPU the compiled code runs on the calling thread and every buffer is
// ordinary 64-byte aligned host memory.
//
//===----------------------------------------------------------------------===//

#include "internal.h"

#include <stdlib.h>

static mlxrt_status cpuAlloc(mlxrt_device *dev, size_t nbytes, void **out,
                             mlxrt_error *err) {
  (void)dev;
  return mlxrt_host_alloc(nbytes, out, err);
}

static void cpuFree(mlxrt_device *dev, void *p) {
  (void)dev;
  mlxrt_host_free(p);
}

static mlxrt_status cpuRun(mlxrt_device *dev, mlxrt_entry_fn entry, void **args,
                           size_t num_inputs, size_t num_outputs,
                           double *elapsed_ms, mlxrt_error *err) {
  (void)dev;
  (void)num_inputs;
  (void)num_outputs;
  (void)err;
  double start = mlxrt_now_ms();
  entry(args);
  if (elapsed_ms)
    *elapsed_ms = mlxrt_now_ms() - start;
  return MLXRT_OK;
}

static void cpuDestroy(mlxrt_device *dev) { free(dev); }

static const mlxrt_device_ops CpuOps = {cpuAlloc, cpuFree, cpuRun, cpuDestroy,
                                        NULL,     NULL,    NULL,   NULL};

mlxrt_status mlxrt_cpu_device_create(mlxrt_device **out, mlxrt_error *err) {
  mlxrt_device *dev = calloc(1, sizeof(*dev));
  if (!dev)
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  dev->ops = &CpuOps;
  dev->kind = MLXRT_DEVICE_CPU;
  mlxrt_strlcpy(dev->description, "cpu", sizeof(dev->description));
  *out = dev;
  return MLXRT_OK;
}
