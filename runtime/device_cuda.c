//===- device_cuda.c - The CUDA device (not built yet) -----------*- C -*-===//
//
// The CUDA backend will live here: it talks to the driver API through
// dlopen("libcuda.so.1") so that executables link and run their CPU path on
// machines without a driver. Until it exists, CUDA is reported unavailable
// with the reason, and the command line falls back to the CPU.
//
//===----------------------------------------------------------------------===//

#include "internal.h"

#include <dlfcn.h>

int mlxrt_cuda_available(char *reason, size_t size) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    snprintf(reason, size, "%s", why ? why : "cannot load libcuda.so.1");
    return 0;
  }
  dlclose(lib);
  snprintf(reason, size,
           "libcuda.so.1 loads, but this runtime has no CUDA backend yet");
  return 0;
}

mlxrt_status mlxrt_cuda_device_create(int ordinal, mlxrt_device **out,
                                      mlxrt_error *err) {
  (void)ordinal;
  *out = NULL;
  char reason[512];
  if (!mlxrt_cuda_available(reason, sizeof(reason)))
    return mlxrt_fail(err, MLXRT_ERROR_DEVICE, "no CUDA device: %s", reason);
  return mlxrt_fail(err, MLXRT_ERROR_DEVICE, "no CUDA device: %s",
                    "this runtime has no CUDA backend yet");
}
