//===- cuda_driver.c - Loading the CUDA driver with dlopen -------*- C -*-===//
//
// libcuda.so.1 is opened on first use and every entry point the runtime
// calls is resolved by its exact symbol name, then cuInit runs. The result
// is kept for the life of the process (unloading a working driver is never
// safe while modules or memory might remain); a failure is not kept, so the
// reason can be reported again and a test can point $MLXRT_LIBCUDA at
// another library (e.g. the toolkit's stub) in the same process.
//
//===----------------------------------------------------------------------===//

#include "cuda_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t DriverLock = PTHREAD_MUTEX_INITIALIZER;
static mlxrt_cuda_driver Driver;
static bool DriverReady;

/// Names for the codes that matter before cuGetErrorName can be trusted (a
/// stub library answers every call, that one too, with an error).
static const char *fallbackErrorName(CUresult result) {
  switch (result) {
  case CUDA_ERROR_INVALID_VALUE:
    return "CUDA_ERROR_INVALID_VALUE (invalid argument)";
  case CUDA_ERROR_OUT_OF_MEMORY:
    return "CUDA_ERROR_OUT_OF_MEMORY (out of memory)";
  case CUDA_ERROR_NOT_INITIALIZED:
    return "CUDA_ERROR_NOT_INITIALIZED (initialization error)";
  case CUDA_ERROR_DEINITIALIZED:
    return "CUDA_ERROR_DEINITIALIZED (driver shutting down)";
  case CUDA_ERROR_STUB_LIBRARY:
    return "CUDA_ERROR_STUB_LIBRARY (CUDA driver is a stub library)";
  case CUDA_ERROR_INSUFFICIENT_DRIVER:
    return "CUDA_ERROR_INSUFFICIENT_DRIVER (CUDA driver version is "
           "insufficient for CUDA runtime version)";
  case CUDA_ERROR_NO_DEVICE:
    return "CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)";
  case CUDA_ERROR_INVALID_DEVICE:
    return "CUDA_ERROR_INVALID_DEVICE (invalid device ordinal)";
  default:
    return NULL;
  }
}

void mlxrt_cuda_error_text(const mlxrt_cuda_driver *drv, CUresult result,
                           char *buf, size_t size) {
  const char *name = NULL, *text = NULL;
  if (drv && drv->cuGetErrorName &&
      drv->cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = NULL;
  if (drv && drv->cuGetErrorString &&
      drv->cuGetErrorString(result, &text) != CUDA_SUCCESS)
    text = NULL;
  if (name && text) {
    snprintf(buf, size, "%s (%s)", name, text);
  } else if (name) {
    snprintf(buf, size, "%s", name);
  } else {
    const char *fallback = fallbackErrorName(result);
    if (fallback)
      snprintf(buf, size, "%s", fallback);
    else
      snprintf(buf, size, "CUDA error %d", result);
  }
}

/// dlopen, dlsym and cuInit into *drv; on failure the library is closed
/// again and `reason` says why.
static bool loadDriver(mlxrt_cuda_driver *drv, const char *path, char *reason,
                       size_t size) {
  if (!path || !*path)
    path = "libcuda.so.1";
  memset(drv, 0, sizeof(*drv));
  dlerror();
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    snprintf(reason, size, "%s", why ? why : "cannot load the CUDA driver");
    return false;
  }

  const char *missing = NULL;
#define MLXRT_CUDA_RESOLVE(name, params)                                       \
  if (!missing) {                                                              \
    *(void **)(&drv->name) = dlsym(lib, #name);                                \
    if (!drv->name)                                                            \
      missing = #name;                                                         \
  }
  MLXRT_CUDA_FUNCTIONS(MLXRT_CUDA_RESOLVE)
#undef MLXRT_CUDA_RESOLVE
  if (!missing) {
    *(void **)(&drv->prefetchV2) = dlsym(lib, "cuMemPrefetchAsync_v2");
    *(void **)(&drv->prefetchOld) = dlsym(lib, "cuMemPrefetchAsync");
    *(void **)(&drv->discardAndPrefetch) =
        dlsym(lib, "cuMemDiscardAndPrefetchBatchAsync");
    if (!drv->prefetchV2 && !drv->prefetchOld)
      missing = "cuMemPrefetchAsync_v2";
  }
  *(void **)(&drv->launchKernelEx) = dlsym(lib, "cuLaunchKernelEx");
  *(void **)(&drv->moduleGetGlobal) = dlsym(lib, "cuModuleGetGlobal_v2");
  *(void **)(&drv->funcSetAttribute) = dlsym(lib, "cuFuncSetAttribute");
  *(void **)(&drv->funcGetAttribute) = dlsym(lib, "cuFuncGetAttribute");
  *(void **)(&drv->adviseV2) = dlsym(lib, "cuMemAdvise_v2");
  *(void **)(&drv->adviseOld) = dlsym(lib, "cuMemAdvise");
  if (!missing) {
    *(void **)(&drv->eventElapsedTime) = dlsym(lib, "cuEventElapsedTime_v2");
    if (!drv->eventElapsedTime)
      *(void **)(&drv->eventElapsedTime) = dlsym(lib, "cuEventElapsedTime");
    if (!drv->eventElapsedTime)
      missing = "cuEventElapsedTime";
  }
  if (!missing) {
    // Graphs are optional: without them programs run uncaptured.
    *(void **)(&drv->streamBeginCapture) =
        dlsym(lib, "cuStreamBeginCapture_v2");
    *(void **)(&drv->streamEndCapture) = dlsym(lib, "cuStreamEndCapture");
    *(void **)(&drv->graphInstantiate) =
        dlsym(lib, "cuGraphInstantiateWithFlags");
    *(void **)(&drv->graphLaunch) = dlsym(lib, "cuGraphLaunch");
    *(void **)(&drv->graphExecDestroy) = dlsym(lib, "cuGraphExecDestroy");
    *(void **)(&drv->graphDestroy) = dlsym(lib, "cuGraphDestroy");
    if (!drv->streamBeginCapture || !drv->streamEndCapture ||
        !drv->graphInstantiate || !drv->graphLaunch || !drv->graphExecDestroy ||
        !drv->graphDestroy)
      drv->streamBeginCapture = NULL;
    *(void **)(&drv->graphExecUpdate) = dlsym(lib, "cuGraphExecUpdate_v2");
    *(void **)(&drv->graphGetNodes) = dlsym(lib, "cuGraphGetNodes");
    *(void **)(&drv->graphNodeGetType) = dlsym(lib, "cuGraphNodeGetType");
    if (!drv->graphGetNodes || !drv->graphNodeGetType)
      drv->graphExecUpdate = NULL;
  }
  if (missing) {
    snprintf(reason, size, "%s has no %s (the driver is too old)", path,
             missing);
    dlclose(lib);
    return false;
  }

  CUresult r = drv->cuInit(0);
  if (r == CUDA_SUCCESS)
    r = drv->cuDriverGetVersion(&drv->version);
  if (r != CUDA_SUCCESS) {
    char text[256];
    mlxrt_cuda_error_text(drv, r, text, sizeof(text));
    snprintf(reason, size, "cuInit failed: %s", text);
    dlclose(lib);
    return false;
  }
  return true;
}

const mlxrt_cuda_driver *mlxrt_cuda_driver_load(const char *path, char *reason,
                                                size_t size) {
  char scratch[512];
  if (!reason || size == 0) {
    reason = scratch;
    size = sizeof(scratch);
  }
  pthread_mutex_lock(&DriverLock);
  if (!DriverReady) {
    mlxrt_cuda_driver drv;
    if (loadDriver(&drv, path, reason, size)) {
      Driver = drv;
      DriverReady = true;
    }
  }
  const mlxrt_cuda_driver *result = DriverReady ? &Driver : NULL;
  pthread_mutex_unlock(&DriverLock);
  return result;
}
