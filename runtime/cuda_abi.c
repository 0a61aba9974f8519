//===- cuda_abi.c - The functions compiled CUDA code calls -------*- C -*-===//
//
// MLIR's gpu-to-llvm lowering makes the CUDA variant of a program call the
// mgpu* functions below, and its allocations call _mlir_memref_to_llvm_alloc.
// The signatures are MLIR 22's; the semantics are the runtime's own, not
// those of MLIR's stock wrappers (which abort without a GPU and create a
// stream per launch):
//
//  - mgpuModuleLoadJIT runs from global constructors, before main and on
//    machines without a GPU: it only records the PTX. The module is loaded
//    (cuModuleLoadDataEx, the driver compiles the PTX) on its first
//    mgpuModuleGetFunction, into the context of the device running the
//    program, and kept with its functions until that device closes.
//  - The "streams" are the running device's one stream.
//  - A failing driver call records its message in the device (naming the
//    call, the kernel and the CUDA error) and turns the calls after it into
//    no-ops; mlxrt_device_run returns the message once the program returns.
//
// The compiled code has no handle to pass, so the running device is found
// through a thread-local pointer (mlxrt_cuda_active), and the modules live
// in one process-wide list (they belong to the executable, not to a device).
//
//===----------------------------------------------------------------------===//

#include "cuda_internal.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/// One kernel of a loaded module; the handle mgpuModuleGetFunction returns.
typedef struct KernelFunction {
  struct KernelFunction *next;
  CUfunction fn;
  /// Named in its module's MLXRT_GRID_DEPENDENT_KERNELS_SYMBOL.
  bool dependentLaunch;
  /// The dynamic shared memory the kernel opted in to (cuFuncSetAttribute);
  /// 0: the default 48 KB.
  int sharedOptIn;
  /// Its static shared memory (0 where the driver cannot say).
  int staticShared;
  char name[]; ///< Named in error messages.
} KernelFunction;

/// A module as loaded into one device's context.
typedef struct ModuleInstance {
  struct ModuleInstance *next;
  mlxrt_cuda_device *dev;
  CUmodule module;
  /// MLXRT_GRID_DEPENDENT_KERNELS_SYMBOL's names (NULL: none), read when
  /// the driver can launch them so (cuLaunchKernelEx).
  char *dependentKernels;
  size_t dependentKernelsBytes;
  KernelFunction *functions;
} ModuleInstance;

/// The handle mgpuModuleLoadJIT (PTX) and mgpuModuleLoad (an image: mlxc's
/// container of PTX and cubins, or a cubin/fatbin) return, loaded lazily.
typedef struct LazyModule {
  struct LazyModule *next;
  const char *ptx; ///< mgpuModuleLoadJIT's PTX, else NULL.
  const void *image;
  size_t imageSize;
  int optLevel;
  ModuleInstance *instances;
} LazyModule;

//===----------------------------------------------------------------------===//
// mlxc's module container
//===----------------------------------------------------------------------===//
//
// The layout is MLXRT_IMAGE_MAGIC's (mlxrt_abi.h).

static uint32_t readU32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

static uint64_t readU64(const unsigned char *p) {
  return (uint64_t)readU32(p) | (uint64_t)readU32(p + 4) << 32;
}

bool mlxrt_image_pick(const void *data, size_t size, int major, int minor,
                      const void **image, size_t *imageSize,
                      mlxrt_image_kind *kind, int *sm) {
  const unsigned char *p = data;
  *image = NULL;
  *imageSize = 0;
  *kind = MLXRT_IMAGE_PTX;
  *sm = 0;
  if (!p || size < 8 || memcmp(p, MLXRT_IMAGE_MAGIC, 8) != 0) {
    *image = data;
    *imageSize = size;
    *kind = MLXRT_IMAGE_CUBIN;
    return data != NULL;
  }
  if (size < MLXRT_IMAGE_HEADER_BYTES)
    return false;
  uint64_t count = readU32(p + 8);
  if (count > (size - MLXRT_IMAGE_HEADER_BYTES) / MLXRT_IMAGE_ENTRY_BYTES)
    return false;
  int bestMinor = -1;
  for (uint64_t i = 0; i < count; ++i) {
    const unsigned char *e =
        p + MLXRT_IMAGE_HEADER_BYTES + MLXRT_IMAGE_ENTRY_BYTES * i;
    uint32_t entryKind = readU32(e), entrySm = readU32(e + 4);
    uint32_t flags = readU32(e + 8);
    uint64_t offset = readU64(e + 16), bytes = readU64(e + 24);
    if (offset > size || bytes > size - offset || bytes == 0 ||
        entryKind > MLXRT_IMAGE_CUBIN)
      return false;
    if (entryKind == MLXRT_IMAGE_PTX) {
      // PTX is text the driver reads up to its NUL.
      if (p[offset + bytes - 1] != '\0')
        return false;
      if (bestMinor < 0) {
        *image = p + offset;
        *imageSize = (size_t)bytes;
        *sm = (int)entrySm;
      }
      continue;
    }
    int cubinMajor = (int)entrySm / 10, cubinMinor = (int)entrySm % 10;
    bool fits = cubinMajor == major &&
                ((flags & MLXRT_IMAGE_ARCH_SPECIFIC) ? cubinMinor == minor : cubinMinor <= minor);
    if (fits && cubinMinor > bestMinor) {
      bestMinor = cubinMinor;
      *image = p + offset;
      *imageSize = (size_t)bytes;
      *kind = MLXRT_IMAGE_CUBIN;
      *sm = (int)entrySm;
    }
  }
  return true;
}

static pthread_mutex_t ModulesLock = PTHREAD_MUTEX_INITIALIZER;
static LazyModule *Modules;

/// Unloads one instance (its device's context must be current) and frees it.
static void destroyInstance(ModuleInstance *inst) {
  inst->dev->drv->cuModuleUnload(inst->module);
  free(inst->dependentKernels);
  for (KernelFunction *f = inst->functions; f;) {
    KernelFunction *next = f->next;
    free(f);
    f = next;
  }
  free(inst);
}

void *mgpuModuleLoadJIT(void *ptx, int optLevel) {
  LazyModule *m = calloc(1, sizeof(*m));
  if (!m)
    return NULL; // mgpuModuleGetFunction reports it.
  m->ptx = ptx;
  m->image = ptx;
  m->optLevel = optLevel < 0 ? 0 : optLevel > 4 ? 4 : optLevel;
  pthread_mutex_lock(&ModulesLock);
  m->next = Modules;
  Modules = m;
  pthread_mutex_unlock(&ModulesLock);
  return m;
}

void *mgpuModuleLoad(void *data, size_t size) {
  LazyModule *m = calloc(1, sizeof(*m));
  if (!m)
    return NULL; // mgpuModuleGetFunction reports it.
  m->image = data;
  m->imageSize = size;
  m->optLevel = 4; // The driver's default, for PTX in the container.
  pthread_mutex_lock(&ModulesLock);
  m->next = Modules;
  Modules = m;
  pthread_mutex_unlock(&ModulesLock);
  return m;
}

void mgpuModuleUnload(void *module) {
  LazyModule *m = module;
  if (!m)
    return;
  pthread_mutex_lock(&ModulesLock);
  for (LazyModule **p = &Modules; *p; p = &(*p)->next) {
    if (*p == m) {
      *p = m->next;
      break;
    }
  }
  // Instances exist only while their device is open (closing it unloads
  // them), so their contexts are alive.
  while (m->instances) {
    ModuleInstance *inst = m->instances;
    m->instances = inst->next;
    inst->dev->drv->cuCtxSetCurrent(inst->dev->ctx);
    destroyInstance(inst);
  }
  pthread_mutex_unlock(&ModulesLock);
  free(m);
}

void mlxrt_cuda_unload_modules(mlxrt_cuda_device *dev) {
  pthread_mutex_lock(&ModulesLock);
  for (LazyModule *m = Modules; m; m = m->next) {
    for (ModuleInstance **p = &m->instances; *p;) {
      ModuleInstance *inst = *p;
      if (inst->dev == dev) {
        *p = inst->next;
        destroyInstance(inst);
      } else {
        p = &inst->next;
      }
    }
  }
  pthread_mutex_unlock(&ModulesLock);
}

/// The driver's JIT log as one line: each line break becomes "; ".
static void flattenLog(const char *log, char *out, size_t size) {
  size_t n = 0;
  bool pendingBreak = false;
  for (const char *p = log; *p && n + 3 < size; ++p) {
    if (*p == '\n' || *p == '\r') {
      pendingBreak = n > 0;
      continue;
    }
    if (pendingBreak) {
      out[n++] = ';';
      out[n++] = ' ';
      pendingBreak = false;
    }
    out[n++] = *p;
  }
  out[n] = '\0';
}

/// Loads `m` into dev's context (the caller holds ModulesLock).
/// Reads the module's MLXRT_GRID_DEPENDENT_KERNELS_SYMBOL into `inst`. A
/// module without it (a cached build from before it) or a driver that
/// cannot launch them so leaves the list empty: every kernel then launches
/// after the one before ends, as the sm_70 PTX's do.
static void readDependentKernels(ModuleInstance *inst) {
  const mlxrt_cuda_driver *drv = inst->dev->drv;
  CUdeviceptr names;
  size_t bytes;
  if (!drv->launchKernelEx || !drv->moduleGetGlobal ||
      drv->moduleGetGlobal(&names, &bytes, inst->module,
                           MLXRT_GRID_DEPENDENT_KERNELS_SYMBOL) !=
          CUDA_SUCCESS ||
      bytes < 2 || bytes > (1u << 20))
    return;
  char *copy = malloc(bytes);
  if (!copy)
    return;
  if (drv->cuMemcpyDtoH_v2(copy, names, bytes) != CUDA_SUCCESS ||
      copy[bytes - 1] != '\0') {
    free(copy);
    return;
  }
  inst->dependentKernels = copy;
  inst->dependentKernelsBytes = bytes;
}

static ModuleInstance *loadInstance(LazyModule *m, mlxrt_cuda_device *dev,
                                    const char *kernel) {
  char log[4096] = "";
  CUjit_option options[3] = {CU_JIT_ERROR_LOG_BUFFER,
                             CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                             CU_JIT_OPTIMIZATION_LEVEL};
  void *values[3] = {log, (void *)(uintptr_t)sizeof(log),
                     (void *)(uintptr_t)m->optLevel};
  CUmodule module = NULL;
  const void *image = m->ptx;
  mlxrt_image_kind kind = MLXRT_IMAGE_PTX;
  int sm = 0;
  if (!m->ptx) {
    size_t imageSize;
    if (!mlxrt_image_pick(m->image, m->imageSize, dev->ccMajor, dev->ccMinor,
                          &image, &imageSize, &kind, &sm)) {
      mlxrt_cuda_record(dev, MLXRT_ERROR_DEVICE,
                        "the module of kernel '%s' is a malformed image",
                        kernel);
      return NULL;
    }
    if (!image) {
      mlxrt_cuda_record(dev, MLXRT_ERROR_DEVICE,
                        "the module of kernel '%s' has neither PTX nor a "
                        "cubin for %s (compute capability %d.%d)",
                        kernel, dev->base.description, dev->ccMajor,
                        dev->ccMinor);
      return NULL;
    }
  }
  // A cubin needs no JIT (the driver ignores the level for it).
  CUresult r = dev->drv->cuModuleLoadDataEx(&module, image, 3, options, values);
  if ((r == CUDA_ERROR_NO_BINARY_FOR_GPU || r == CUDA_ERROR_INVALID_IMAGE) &&
      kind == MLXRT_IMAGE_CUBIN && sm) {
    // A cubin the driver rejects: the PTX serves every GPU.
    size_t imageSize;
    const void *ptx = NULL;
    if (mlxrt_image_pick(m->image, m->imageSize, 0, 0, &ptx, &imageSize, &kind,
                         &sm) &&
        ptx) {
      log[0] = '\0';
      r = dev->drv->cuModuleLoadDataEx(&module, ptx, 3, options, values);
    }
  }
  if (r != CUDA_SUCCESS) {
    log[sizeof(log) - 1] = '\0';
    char line[sizeof(log) + 1024];
    flattenLog(log, line, sizeof(line));
    char text[512], what[64];
    mlxrt_cuda_error_text(dev->drv, r, text, sizeof(text));
    if (kind == MLXRT_IMAGE_PTX)
      snprintf(what, sizeof(what), "PTX, JIT at -O%d", m->optLevel);
    else if (sm)
      snprintf(what, sizeof(what), "cubin for sm_%d", sm);
    else
      snprintf(what, sizeof(what), "binary image");
    mlxrt_cuda_record(dev,
                      r == CUDA_ERROR_OUT_OF_MEMORY ? MLXRT_ERROR_OUT_OF_MEMORY
                                                    : MLXRT_ERROR_DEVICE,
                      "cuModuleLoadDataEx of the module of kernel '%s' (%s) "
                      "failed on %s: %s%s%s",
                      kernel, what, dev->base.description, text,
                      line[0] ? ": " : "", line);
    return NULL;
  }
  ModuleInstance *inst = calloc(1, sizeof(*inst));
  if (!inst) {
    dev->drv->cuModuleUnload(module);
    mlxrt_cuda_record(dev, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
    return NULL;
  }
  inst->dev = dev;
  inst->module = module;
  readDependentKernels(inst);
  inst->next = m->instances;
  m->instances = inst;
  return inst;
}

bool mlxrt_cuda_load_modules(mlxrt_cuda_device *dev) {
  pthread_mutex_lock(&ModulesLock);
  for (LazyModule *m = Modules; m && !dev->failed; m = m->next) {
    ModuleInstance *inst = m->instances;
    while (inst && inst->dev != dev)
      inst = inst->next;
    if (!inst)
      loadInstance(m, dev, "(loaded when the model opened)");
  }
  pthread_mutex_unlock(&ModulesLock);
  return !dev->failed;
}

/// Whether `kernel` is one of the instance's grid-dependent kernels.
static bool isGridDependent(const ModuleInstance *inst, const char *kernel) {
  const char *end = inst->dependentKernels + inst->dependentKernelsBytes;
  for (const char *name = inst->dependentKernels; name && name < end && *name;
       name += strlen(name) + 1)
    if (strcmp(name, kernel) == 0)
      return true;
  return false;
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  mlxrt_cuda_device *dev = mlxrt_cuda_active();
  if (!dev || dev->failed)
    return NULL;
  LazyModule *m = module;
  if (!m) {
    mlxrt_cuda_record(dev, MLXRT_ERROR_OUT_OF_MEMORY,
                      "the module of kernel '%s' was not registered (out of "
                      "memory at program start)",
                      name);
    return NULL;
  }
  pthread_mutex_lock(&ModulesLock);
  ModuleInstance *inst = m->instances;
  while (inst && inst->dev != dev)
    inst = inst->next;
  if (!inst)
    inst = loadInstance(m, dev, name);
  KernelFunction *f = NULL;
  if (inst) {
    f = inst->functions;
    while (f && strcmp(f->name, name) != 0)
      f = f->next;
  }
  if (inst && !f) {
    CUfunction fn = NULL;
    if (mlxrt_cuda_check(dev,
                         dev->drv->cuModuleGetFunction(&fn, inst->module, name),
                         "cuModuleGetFunction of kernel '%s'", name)) {
      size_t len = strlen(name);
      f = malloc(sizeof(*f) + len + 1);
      if (f) {
        f->fn = fn;
        f->dependentLaunch = isGridDependent(inst, name);
        f->sharedOptIn = 0;
        enum { SharedSizeBytesAttribute = 1 };
        f->staticShared = 0;
        if (dev->drv->funcGetAttribute &&
            dev->drv->funcGetAttribute(
                &f->staticShared, SharedSizeBytesAttribute, fn) != CUDA_SUCCESS)
          f->staticShared = 0;
        memcpy(f->name, name, len + 1);
        f->next = inst->functions;
        inst->functions = f;
      } else {
        mlxrt_cuda_record(dev, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
      }
    }
  }
  pthread_mutex_unlock(&ModulesLock);
  return f;
}

void *mgpuStreamCreate(void) {
  mlxrt_cuda_device *dev = mlxrt_cuda_active();
  return dev ? (void *)dev->stream : NULL;
}

void mgpuStreamDestroy(void *stream) {
  (void)stream; // The device's stream lives as long as the device.
}

void mgpuStreamSynchronize(void *stream) {
  (void)stream; // Every launch goes to the device's one stream.
  mlxrt_cuda_device *dev = mlxrt_cuda_active();
  // A capturable program has no host code that waits for results (the run
  // waits at its end), captured or not: the per-launch synchronizations of
  // the stock lowering only cost time.
  if (!dev || dev->failed || dev->graph.declared)
    return;
  mlxrt_cuda_check(dev, dev->drv->cuStreamSynchronize(dev->stream),
                   "cuStreamSynchronize after kernel '%s'",
                   dev->lastKernel ? dev->lastKernel : "(none)");
}

/// A launch whose dynamic and static shared memory together exceed 48 KB
/// needs the kernel's opt-in first, once per function (the attribute is not
/// stream work, so it is legal while a graph is captured).
static bool allowSharedMemory(mlxrt_cuda_device *dev, KernelFunction *f,
                              int32_t bytes) {
  enum { DefaultShared = 48 << 10, MaxDynamicSharedAttribute = 8 };
  if ((int64_t)bytes + f->staticShared <= DefaultShared ||
      bytes <= f->sharedOptIn)
    return true;
  if (!dev->drv->funcSetAttribute) {
    mlxrt_cuda_record(dev, MLXRT_ERROR_DEVICE,
                      "kernel '%s' needs %d bytes of shared memory, and the "
                      "driver has no cuFuncSetAttribute to allow more than "
                      "48 KB",
                      f->name, (int)bytes);
    return false;
  }
  if (!mlxrt_cuda_check(dev,
                        dev->drv->funcSetAttribute(
                            f->fn, MaxDynamicSharedAttribute, (int)bytes),
                        "cuFuncSetAttribute of kernel '%s' for %d bytes of "
                        "dynamic shared memory",
                        f->name, (int)bytes))
    return false;
  f->sharedOptIn = bytes;
  return true;
}

static bool fitsUInt(intptr_t v) { return v >= 1 && (uintmax_t)v <= UINT_MAX; }

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemBytes, void *stream,
                      void **params, void **extra, size_t paramsCount) {
  (void)stream;
  (void)paramsCount;
  mlxrt_cuda_device *dev = mlxrt_cuda_active();
  if (!dev || dev->failed)
    return;
  KernelFunction *f = function;
  if (!f) {
    mlxrt_cuda_record(dev, MLXRT_ERROR_DEVICE,
                      "mgpuLaunchKernel: no kernel function");
    return;
  }
  if (!fitsUInt(gridX) || !fitsUInt(gridY) || !fitsUInt(gridZ) ||
      !fitsUInt(blockX) || !fitsUInt(blockY) || !fitsUInt(blockZ) ||
      sharedMemBytes < 0) {
    mlxrt_cuda_record(dev, MLXRT_ERROR_DEVICE,
                      "kernel '%s': launch configuration out of range (grid "
                      "%jd x %jd x %jd, block %jd x %jd x %jd, %d bytes of "
                      "shared memory)",
                      f->name, (intmax_t)gridX, (intmax_t)gridY,
                      (intmax_t)gridZ, (intmax_t)blockX, (intmax_t)blockY,
                      (intmax_t)blockZ, (int)sharedMemBytes);
    return;
  }
  dev->lastKernel = f->name;
  if (!allowSharedMemory(dev, f, sharedMemBytes))
    return;
  CUresult r;
  if (f->dependentLaunch) {
    CUlaunchAttribute attribute;
    memset(&attribute, 0, sizeof(attribute));
    attribute.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attribute.value.programmaticStreamSerializationAllowed = 1;
    CUlaunchConfig config = {.gridDimX = (unsigned)gridX,
                             .gridDimY = (unsigned)gridY,
                             .gridDimZ = (unsigned)gridZ,
                             .blockDimX = (unsigned)blockX,
                             .blockDimY = (unsigned)blockY,
                             .blockDimZ = (unsigned)blockZ,
                             .sharedMemBytes = (unsigned)sharedMemBytes,
                             .hStream = dev->stream,
                             .attrs = &attribute,
                             .numAttrs = 1};
    r = dev->drv->launchKernelEx(&config, f->fn, params, extra);
  } else {
    r = dev->drv->cuLaunchKernel(
        f->fn, (unsigned)gridX, (unsigned)gridY, (unsigned)gridZ,
        (unsigned)blockX, (unsigned)blockY, (unsigned)blockZ,
        (unsigned)sharedMemBytes, dev->stream, params, extra);
  }
  mlxrt_cuda_check(dev, r,
                   "%s of kernel '%s' (grid %jd x %jd x %jd, block %jd x %jd x "
                   "%jd, %d bytes of shared memory)",
                   f->dependentLaunch ? "cuLaunchKernelEx" : "cuLaunchKernel",
                   f->name, (intmax_t)gridX, (intmax_t)gridY, (intmax_t)gridZ,
                   (intmax_t)blockX, (intmax_t)blockY, (intmax_t)blockZ,
                   (int)sharedMemBytes);
}

/// Memory for the rest of the run: graph memory, freed with its graph,
/// while capturing (the graph keeps the addresses it was captured with).
static void *allocateForRun(mlxrt_cuda_device *dev, size_t bytes, bool managed,
                            const char *what) {
  void *p = NULL;
  mlxrt_error err;
  mlxrt_status st = mlxrt_cuda_allocate(
      dev, bytes,
      dev->graph.capturing ? MLXRT_CUDA_GRAPH_MEMORY : MLXRT_CUDA_INTERMEDIATE,
      managed, &p, &err);
  if (st != MLXRT_OK) {
    mlxrt_cuda_record(dev, st, "%s: %s", what, err.message);
    return NULL;
  }
  if (dev->graph.capturing) {
    // Freed with its graph, whichever graphs are cached by then.
    mlxrt_cuda_alloc *a = mlxrt_cuda_find_range(dev, (uintptr_t)p, 0);
    if (a && a->key == p)
      a->graph = dev->graph.id;
  }
  return p;
}

void *mlxrt_cuda_scratch(mlxrt_cuda_device *dev, size_t bytes,
                         const char *what) {
  return allocateForRun(dev, bytes, false, what);
}

/// An intermediate buffer of the run, or host memory (a sink) once the run
/// has failed, so that host code touching it does not crash (the kernels
/// that would use it no longer run).
static void *allocIntermediate(size_t bytes, bool managed, const char *what) {
  mlxrt_cuda_device *dev = mlxrt_cuda_active();
  if (!dev)
    return NULL; // Not inside mlxrt_device_run on a CUDA device.
  if (dev->failed)
    return mlxrt_cuda_sink(dev, bytes);
  void *p = allocateForRun(dev, bytes, managed, what);
  return p ? p : mlxrt_cuda_sink(dev, bytes);
}

static void freeIntermediate(void *ptr, const char *fn) {
  mlxrt_cuda_device *dev = mlxrt_cuda_active();
  if (!ptr || !dev)
    return;
  if (dev->graph.capturing) {
    // Graph memory is freed with the graph.
    mlxrt_cuda_alloc *a = mlxrt_cuda_find_range(dev, (uintptr_t)ptr, 0);
    if (a && a->kind == MLXRT_CUDA_GRAPH_MEMORY && a->key == ptr)
      return;
  }
  if (!mlxrt_cuda_release(dev, ptr, false))
    mlxrt_cuda_record(dev, MLXRT_ERROR_DEVICE,
                      "%s(%p): not an intermediate buffer of %s", fn, ptr,
                      dev->base.description);
}

void *_mlir_memref_to_llvm_alloc(size_t bytes) {
  // Host code may touch these (memref.alloc of the GPU pipeline is what the
  // host sees), so managed memory wherever the device has it, in copy mode
  // too: without concurrent access the host touches it only between
  // launches, which all synchronize.
  mlxrt_cuda_device *dev = mlxrt_cuda_active();
  return allocIntermediate(bytes, dev && dev->managedMemory,
                           "intermediate buffer");
}

void _mlir_memref_to_llvm_free(void *ptr) {
  freeIntermediate(ptr, "_mlir_memref_to_llvm_free");
}

void *mgpuMemAlloc(uint64_t bytes, void *stream, int8_t host_shared) {
  (void)stream;
  if ((uint64_t)(size_t)bytes != bytes) // Only where size_t is narrower.
    bytes = (uint64_t)SIZE_MAX;
  return allocIntermediate((size_t)bytes, host_shared != 0,
                           host_shared ? "intermediate buffer (gpu.alloc "
                                         "host_shared)"
                                       : "device buffer (gpu.alloc)");
}

void mgpuMemFree(void *ptr, void *stream) {
  (void)stream;
  freeIntermediate(ptr, "mgpuMemFree");
}

/// gpu.memcpy (constants to the device) and the copies of outputs that
/// repeat another buffer: unified addressing lets the driver find out where
/// each side lives.
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream) {
  (void)stream;
  mlxrt_cuda_device *dev = mlxrt_cuda_active();
  if (!dev || dev->failed || bytes == 0)
    return;
  // A copy from host memory (a constant) is not captured: it goes into the
  // graph's memory once, after capture.
  if (dev->graph.capturing &&
      !mlxrt_cuda_find_range(dev, (uintptr_t)src, bytes)) {
    mlxrt_cuda_capture_upload(dev, (CUdeviceptr)dst, src, bytes);
    return;
  }
  mlxrt_cuda_check(dev,
                   dev->drv->cuMemcpyAsync((CUdeviceptr)dst, (CUdeviceptr)src,
                                           bytes, dev->stream),
                   "cuMemcpyAsync of %zu bytes", bytes);
}

void mlxrt_prefetch(int64_t ptr, int64_t bytes, int32_t placement) {
  mlxrt_cuda_device *dev = mlxrt_cuda_active();
  // During capture the buffers are on the device already (the run prefetched
  // them), and the run brings the outputs back.
  if (!dev || dev->failed || bytes <= 0 || dev->graph.capturing)
    return;
  mlxrt_cuda_alloc *a =
      mlxrt_cuda_find_range(dev, (uintptr_t)ptr, (size_t)bytes);
  if (!a) {
    mlxrt_cuda_record(dev, MLXRT_ERROR_DEVICE,
                      "mlxrt_prefetch(0x%jx, %jd bytes): not memory of %s",
                      (uintmax_t)(uint64_t)ptr, (intmax_t)bytes,
                      dev->base.description);
    return;
  }
  // Only managed memory moves; a buffer in copy mode is copied by the run,
  // and device memory stays where it is.
  if (!a->managed || !dev->concurrentManaged || a->hostResident)
    return;
  char what[64];
  if (a->kind == MLXRT_CUDA_BUFFER)
    snprintf(what, sizeof(what), "a buffer");
  else
    snprintf(what, sizeof(what), "a unified intermediate");
  int moved = 0;
  switch (placement) {
  case MLXRT_PLACE_STREAM:
    // Kernels reach it over the interconnect; nothing to wait for. A buffer
    // used again as it was stays on the device (keepReusedOnDevice).
    if (!a->keptOnDevice)
      mlxrt_cuda_make_host_resident(dev, a);
    return;
  case MLXRT_PLACE_DEVICE_DISCARD:
    if (a->kind == MLXRT_CUDA_BUFFER && (CUdeviceptr)ptr == a->ptr &&
        (size_t)bytes == a->bytes) {
      moved = mlxrt_cuda_discard_to_device(dev, a, what);
      break;
    }
    moved = mlxrt_cuda_prefetch(dev, a, (CUdeviceptr)ptr, (size_t)bytes, false,
                                what);
    break;
  case MLXRT_PLACE_DEVICE:
  case MLXRT_PLACE_HOST:
    moved = mlxrt_cuda_prefetch(dev, a, (CUdeviceptr)ptr, (size_t)bytes,
                                placement == MLXRT_PLACE_HOST, what);
    break;
  default:
    mlxrt_cuda_record(dev, MLXRT_ERROR_INVALID_ARGUMENT,
                      "mlxrt_prefetch: unknown placement %d", (int)placement);
    return;
  }
  // Host code touches the buffer next: let the pages arrive first.
  if (moved > 0 && placement == MLXRT_PLACE_HOST)
    mlxrt_cuda_check(dev, dev->drv->cuStreamSynchronize(dev->stream),
                     "cuStreamSynchronize after a prefetch to the host");
}
