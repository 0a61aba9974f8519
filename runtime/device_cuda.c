//===- device_cuda.c - The CUDA device ---------------------------*- C -*-===//
//
// One device = one GPU's primary context, one stream, two timing events and
// a table of the memory handed out. The driver is reached through dlopen
// (cuda_driver.c), so all of this builds and links on machines with no GPU.
//
// Buffers (inputs and outputs, mlxrt_device_alloc) are unified: managed
// memory that the host fills and reads directly, prefetched to the GPU before
// a run and back to the host after it. Where the GPU lacks concurrent managed
// access, or with MLXRT_NO_UNIFIED=1 in the environment (to test this path
// on any GPU), a buffer is host memory plus a device copy instead ("copy
// mode"): inputs are copied to the device before a run, outputs back after
// it, and the program sees the device pointers (so its host code must not
// touch them).
//
// Intermediates: gpu.alloc (mgpuMemAlloc) is plain device memory, the
// memref.alloc that host code may touch (_mlir_memref_to_llvm_alloc) is
// managed memory wherever the GPU has it.
//
// During mlxrt_device_run, the compiled code calls back into the runtime
// (cuda_abi.c) for kernels, streams and intermediate buffers; those calls
// find the device through a thread-local pointer and record the first driver
// failure here, which the run then returns as its status.
//
//===----------------------------------------------------------------------===//

#include "cuda_internal.h"

#include <stdlib.h>
#include <string.h>

static _Thread_local mlxrt_cuda_device *Active;

mlxrt_cuda_device *mlxrt_cuda_active(void) { return Active; }

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

void mlxrt_cuda_record(mlxrt_cuda_device *dev, mlxrt_status status,
                       const char *fmt, ...) {
  if (dev->failed)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(dev->error.message, sizeof(dev->error.message), fmt, ap);
  va_end(ap);
  dev->failed = true;
  dev->failStatus = status;
}

bool mlxrt_cuda_check(mlxrt_cuda_device *dev, CUresult result, const char *what,
                      ...) {
  if (result == CUDA_SUCCESS)
    return true;
  if (dev->failed)
    return false;
  char call[1024], text[512];
  va_list ap;
  va_start(ap, what);
  vsnprintf(call, sizeof(call), what, ap);
  va_end(ap);
  mlxrt_cuda_error_text(dev->drv, result, text, sizeof(text));
  mlxrt_cuda_record(dev,
                    result == CUDA_ERROR_OUT_OF_MEMORY
                        ? MLXRT_ERROR_OUT_OF_MEMORY
                        : MLXRT_ERROR_DEVICE,
                    "%s failed on %s: %s", call, dev->base.description, text);
  return false;
}

/// Moves a recorded failure into err and clears it.
static mlxrt_status takeFailure(mlxrt_cuda_device *dev, mlxrt_error *err) {
  mlxrt_status st = dev->failStatus;
  if (err)
    *err = dev->error;
  dev->failed = false;
  return st;
}

static void resetFailure(mlxrt_cuda_device *dev) {
  dev->failed = false;
  dev->failStatus = MLXRT_OK;
  dev->error.message[0] = '\0';
  dev->lastKernel = NULL;
}

void mlxrt_cuda_clear_failure(mlxrt_cuda_device *dev) { resetFailure(dev); }

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

static double mib(size_t bytes) { return (double)bytes / (1024.0 * 1024.0); }

/// Managed memory beyond what the GPU has free can hang the GPU, not only
/// the program: such a request must leave this much free.
static const size_t ManagedReserve = (size_t)64 << 20;

/// Fails with an out-of-memory message unless the device has `bytes` free.
static mlxrt_status checkFree(mlxrt_cuda_device *dev, size_t bytes,
                              bool managed, mlxrt_error *err) {
  size_t freeBytes = 0, total = 0;
  CUresult r = dev->drv->cuMemGetInfo_v2(&freeBytes, &total);
  if (r != CUDA_SUCCESS) {
    char text[512];
    mlxrt_cuda_error_text(dev->drv, r, text, sizeof(text));
    return mlxrt_fail(err, MLXRT_ERROR_DEVICE,
                      "cuMemGetInfo_v2 failed on %s: %s", dev->base.description,
                      text);
  }
  size_t reserve = managed ? ManagedReserve : 0;
  if (freeBytes >= reserve && bytes <= freeBytes - reserve)
    return MLXRT_OK;
  return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY,
                    "out of memory: cannot allocate %zu bytes (%.1f MiB) of "
                    "%s memory on %s: %.1f MiB of %.1f MiB free",
                    bytes, mib(bytes), managed ? "unified" : "device",
                    dev->base.description, mib(freeBytes), mib(total));
}

static mlxrt_cuda_alloc *findAlloc(mlxrt_cuda_device *dev, const void *key) {
  // Keys are at least 64-byte aligned; Fibonacci hashing spreads the rest.
  size_t *hint = &dev->allocHints[((uintptr_t)key >> 6) * 0x9e3779b97f4a7c15u >>
                                  (64 - 10)];
  _Static_assert(MLXRT_CUDA_ALLOC_HINTS == 1 << 10, "10 bits of hash");
  if (*hint < dev->numAllocs && dev->allocs[*hint].key == key)
    return &dev->allocs[*hint];
  // Newest first: intermediates are mostly freed in reverse order.
  for (size_t i = dev->numAllocs; i-- > 0;)
    if (dev->allocs[i].key == key) {
      *hint = i;
      return &dev->allocs[i];
    }
  return NULL;
}

static bool reserveSlot(mlxrt_cuda_device *dev) {
  if (dev->numAllocs < dev->capAllocs)
    return true;
  size_t cap = dev->capAllocs ? 2 * dev->capAllocs : 32;
  mlxrt_cuda_alloc *grown = realloc(dev->allocs, cap * sizeof(*grown));
  if (!grown)
    return false;
  dev->allocs = grown;
  dev->capAllocs = cap;
  return true;
}

mlxrt_cuda_alloc *mlxrt_cuda_find_range(mlxrt_cuda_device *dev, uintptr_t ptr,
                                        size_t bytes) {
  for (size_t i = dev->numAllocs; i-- > 0;) {
    mlxrt_cuda_alloc *a = &dev->allocs[i];
    if (a->ptr && ptr >= a->ptr && ptr - a->ptr <= a->bytes &&
        bytes <= a->bytes - (ptr - a->ptr))
      return a;
  }
  return NULL;
}

static mlxrt_status allocateNew(mlxrt_cuda_device *dev, size_t bytes,
                                mlxrt_cuda_alloc_kind kind, bool managed,
                                void **out, mlxrt_error *err) {
  *out = NULL;
  // The driver rejects empty allocations; NULL must mean "no buffer".
  size_t size = bytes ? bytes : 1;
  if (!reserveSlot(dev))
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  if (managed && !dev->managedMemory)
    return mlxrt_fail(err, MLXRT_ERROR_DEVICE,
                      "%s has no managed (unified) memory",
                      dev->base.description);
  mlxrt_status st = checkFree(dev, size, managed, err);
  if (st != MLXRT_OK)
    return st;
  CUdeviceptr ptr = 0;
  CUresult r =
      managed ? dev->drv->cuMemAllocManaged(&ptr, size, CU_MEM_ATTACH_GLOBAL)
              : dev->drv->cuMemAlloc_v2(&ptr, size);
  if (r != CUDA_SUCCESS) {
    char text[512];
    mlxrt_cuda_error_text(dev->drv, r, text, sizeof(text));
    return mlxrt_fail(err,
                      r == CUDA_ERROR_OUT_OF_MEMORY ? MLXRT_ERROR_OUT_OF_MEMORY
                                                    : MLXRT_ERROR_DEVICE,
                      "%s of %zu bytes failed on %s: %s",
                      managed ? "cuMemAllocManaged" : "cuMemAlloc_v2", size,
                      dev->base.description, text);
  }
  void *key = (void *)(uintptr_t)ptr;
  void *host = NULL;
  if (kind == MLXRT_CUDA_BUFFER && !managed) {
    st = mlxrt_host_alloc(bytes, &host, err);
    if (st != MLXRT_OK) {
      dev->drv->cuMemFree_v2(ptr);
      return st;
    }
    key = host;
  }
  mlxrt_cuda_alloc *a = &dev->allocs[dev->numAllocs++];
  a->key = key;
  a->ptr = ptr;
  a->host = host;
  a->bytes = size;
  a->kind = kind;
  a->managed = managed;
  a->where = MLXRT_CUDA_ANYWHERE;
  a->hostResident = false;
  a->keptOnDevice = false;
  a->hostTouched = false;
  a->inRun = false;
  a->hostNewer = true;
  a->deviceNewer = false;
  a->graph = 0;
  *out = key;
  return MLXRT_OK;
}

static void releaseAlloc(mlxrt_cuda_device *dev, mlxrt_cuda_alloc *a);

mlxrt_status mlxrt_cuda_allocate(mlxrt_cuda_device *dev, size_t bytes,
                                 mlxrt_cuda_alloc_kind kind, bool managed,
                                 void **out, mlxrt_error *err) {
  // A spare of the size and memory asked for serves an intermediate.
  size_t size = bytes ? bytes : 1;
  bool spares = false;
  for (size_t i = 0; i < dev->numAllocs; ++i) {
    mlxrt_cuda_alloc *a = &dev->allocs[i];
    if (a->kind != MLXRT_CUDA_SPARE)
      continue;
    spares = true;
    if (kind != MLXRT_CUDA_BUFFER && a->bytes == size &&
        a->managed == managed) {
      a->kind = kind;
      a->where = MLXRT_CUDA_ANYWHERE;
      a->hostResident = false;
      a->keptOnDevice = false;
      *out = a->key;
      return MLXRT_OK;
    }
  }
  mlxrt_status st = allocateNew(dev, bytes, kind, managed, out, err);
  if (st == MLXRT_ERROR_OUT_OF_MEMORY && spares) {
    // The spares held the memory: give it back and try again.
    for (size_t i = dev->numAllocs; i-- > 0;)
      if (dev->allocs[i].kind == MLXRT_CUDA_SPARE)
        releaseAlloc(dev, &dev->allocs[i]);
    st = allocateNew(dev, bytes, kind, managed, out, err);
  }
  return st;
}

void *mlxrt_cuda_sink(mlxrt_cuda_device *dev, size_t bytes) {
  void *p = NULL;
  if (!reserveSlot(dev) || mlxrt_host_alloc(bytes, &p, NULL) != MLXRT_OK)
    return NULL;
  mlxrt_cuda_alloc *a = &dev->allocs[dev->numAllocs++];
  a->key = p;
  a->ptr = 0;
  a->host = p;
  a->bytes = bytes;
  a->kind = MLXRT_CUDA_SINK;
  a->managed = false;
  a->where = MLXRT_CUDA_ANYWHERE;
  a->hostResident = false;
  return p;
}

/// Frees the memory behind an entry and removes it from the table.
static void releaseAlloc(mlxrt_cuda_device *dev, mlxrt_cuda_alloc *a) {
  if (a->ptr)
    mlxrt_cuda_check(dev, dev->drv->cuMemFree_v2(a->ptr), "cuMemFree_v2");
  mlxrt_host_free(a->host);
  *a = dev->allocs[--dev->numAllocs];
}

bool mlxrt_cuda_release(mlxrt_cuda_device *dev, void *key, bool buffer) {
  mlxrt_cuda_alloc *a = findAlloc(dev, key);
  if (!a || (a->kind == MLXRT_CUDA_BUFFER) != buffer ||
      a->kind == MLXRT_CUDA_SPARE)
    return false;
  if (a->kind == MLXRT_CUDA_INTERMEDIATE && dev->keepIntermediates)
    a->kind = MLXRT_CUDA_SPARE;
  else
    releaseAlloc(dev, a);
  return true;
}

/// Frees the intermediates and sinks a run left behind (graph memory stays
/// with its graph); intermediates become spares where they are kept.
static void releaseIntermediates(mlxrt_cuda_device *dev) {
  bool waited = false;
  for (size_t i = dev->numAllocs; i-- > 0;) {
    mlxrt_cuda_alloc *a = &dev->allocs[i];
    bool kept = a->kind == MLXRT_CUDA_INTERMEDIATE && dev->keepIntermediates &&
                !dev->failed;
    bool freed = !kept && (a->kind == MLXRT_CUDA_INTERMEDIATE ||
                           a->kind == MLXRT_CUDA_SINK);
    if (freed && !waited) { // Not under a kernel still running.
      mlxrt_cuda_wait_runs(dev, dev->enqueued);
      waited = true;
    }
  }
  for (size_t i = dev->numAllocs; i-- > 0;) {
    mlxrt_cuda_alloc *a = &dev->allocs[i];
    if (a->kind == MLXRT_CUDA_INTERMEDIATE && dev->keepIntermediates &&
        !dev->failed)
      a->kind = MLXRT_CUDA_SPARE;
    else if (a->kind == MLXRT_CUDA_INTERMEDIATE || a->kind == MLXRT_CUDA_SINK)
      releaseAlloc(dev, a);
  }
}

void mlxrt_cuda_release_kind(mlxrt_cuda_device *dev,
                             mlxrt_cuda_alloc_kind kind) {
  for (size_t i = dev->numAllocs; i-- > 0;)
    if (dev->allocs[i].kind == kind)
      releaseAlloc(dev, &dev->allocs[i]);
}

//===----------------------------------------------------------------------===//
// Discovery
//===----------------------------------------------------------------------===//

int mlxrt_cuda_device_count_with(const char *libcuda, char *reason,
                                 size_t size) {
  char scratch[512];
  if (!reason || size == 0) {
    reason = scratch;
    size = sizeof(scratch);
  }
  const mlxrt_cuda_driver *drv = mlxrt_cuda_driver_load(libcuda, reason, size);
  if (!drv)
    return 0;
  int count = 0;
  CUresult r = drv->cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS) {
    char text[512];
    mlxrt_cuda_error_text(drv, r, text, sizeof(text));
    snprintf(reason, size, "cuDeviceGetCount failed: %s", text);
    return 0;
  }
  if (count <= 0) {
    snprintf(reason, size, "the CUDA driver reports no devices");
    return 0;
  }
  return count;
}

/// The driver and the device handle of `ordinal`, or a "no CUDA device"
/// failure that says why.
static mlxrt_status lookupDevice(const char *libcuda, int ordinal,
                                 const mlxrt_cuda_driver **drv,
                                 CUdevice *device, mlxrt_error *err) {
  char reason[512];
  int count = mlxrt_cuda_device_count_with(libcuda, reason, sizeof(reason));
  if (count == 0)
    return mlxrt_fail(err, MLXRT_ERROR_DEVICE, "no CUDA device: %s", reason);
  if ((ordinal < 0 || ordinal >= count) && count == 1)
    return mlxrt_fail(err, MLXRT_ERROR_DEVICE,
                      "no CUDA device: cuda:%d does not exist (there is one "
                      "CUDA device, cuda:0)",
                      ordinal);
  if (ordinal < 0 || ordinal >= count)
    return mlxrt_fail(err, MLXRT_ERROR_DEVICE,
                      "no CUDA device: cuda:%d does not exist (there are %d "
                      "CUDA devices, cuda:0 to cuda:%d)",
                      ordinal, count, count - 1);
  *drv = mlxrt_cuda_driver_load(libcuda, NULL, 0);
  CUresult r = (*drv)->cuDeviceGet(device, ordinal);
  if (r != CUDA_SUCCESS) {
    char text[512];
    mlxrt_cuda_error_text(*drv, r, text, sizeof(text));
    return mlxrt_fail(err, MLXRT_ERROR_DEVICE,
                      "no CUDA device: cuDeviceGet(%d) failed: %s", ordinal,
                      text);
  }
  return MLXRT_OK;
}

mlxrt_status mlxrt_cuda_device_name_with(const char *libcuda, int ordinal,
                                         char *name, size_t size,
                                         mlxrt_error *err) {
  if (size)
    name[0] = '\0';
  const mlxrt_cuda_driver *drv;
  CUdevice device;
  mlxrt_status st = lookupDevice(libcuda, ordinal, &drv, &device, err);
  if (st != MLXRT_OK)
    return st;
  char buf[256];
  CUresult r = drv->cuDeviceGetName(buf, (int)sizeof(buf), device);
  if (r != CUDA_SUCCESS) {
    char text[512];
    mlxrt_cuda_error_text(drv, r, text, sizeof(text));
    return mlxrt_fail(err, MLXRT_ERROR_DEVICE, "cuDeviceGetName(%d) failed: %s",
                      ordinal, text);
  }
  buf[sizeof(buf) - 1] = '\0';
  if (size)
    mlxrt_strlcpy(name, buf, size);
  return MLXRT_OK;
}

//===----------------------------------------------------------------------===//
// The device
//===----------------------------------------------------------------------===//

/// Makes the device's context current on the calling thread.
static mlxrt_status makeCurrent(mlxrt_cuda_device *dev, mlxrt_error *err) {
  CUresult r = dev->drv->cuCtxSetCurrent(dev->ctx);
  if (r == CUDA_SUCCESS)
    return MLXRT_OK;
  char text[512];
  mlxrt_cuda_error_text(dev->drv, r, text, sizeof(text));
  return mlxrt_fail(err, MLXRT_ERROR_DEVICE, "cuCtxSetCurrent failed on %s: %s",
                    dev->base.description, text);
}

static mlxrt_status cudaAlloc(mlxrt_device *base, size_t nbytes, void **out,
                              mlxrt_error *err) {
  mlxrt_cuda_device *dev = (mlxrt_cuda_device *)base;
  *out = NULL;
  mlxrt_status st = makeCurrent(dev, err);
  if (st != MLXRT_OK)
    return st;
  return mlxrt_cuda_allocate(dev, nbytes, MLXRT_CUDA_BUFFER, dev->unified, out,
                             err);
}

static void cudaFree(mlxrt_device *base, void *p) {
  mlxrt_cuda_device *dev = (mlxrt_cuda_device *)base;
  if (makeCurrent(dev, NULL) == MLXRT_OK) {
    // A graph refers to its buffers by address, which a new buffer may
    // reuse; freeing a buffer it does not use leaves it (the instance API
    // frees arrays the caller dropped between calls).
    // Runs still using the buffer end first.
    mlxrt_cuda_alloc *a = findAlloc(dev, p);
    if (a) {
      mlxrt_cuda_wait_runs(dev, a->lastUse);
      mlxrt_cuda_graph_forget_buffer(
          dev, dev->unified ? a->key : (void *)(uintptr_t)a->ptr);
    }
    mlxrt_cuda_release(dev, p, true);
  }
}

int mlxrt_cuda_prefetch(mlxrt_cuda_device *dev, mlxrt_cuda_alloc *a,
                        CUdeviceptr ptr, size_t bytes, bool toHost,
                        const char *what) {
  mlxrt_cuda_where to = toHost ? MLXRT_CUDA_ON_HOST : MLXRT_CUDA_ON_DEVICE;
  if (a->where == to)
    return 0;
  const mlxrt_cuda_driver *drv = dev->drv;
  CUresult r;
  if (drv->prefetchV2) {
    CUmemLocation loc;
    loc.type = toHost ? CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE;
    loc.id = toHost ? 0 : dev->ordinal; // The host's id is ignored.
    r = drv->prefetchV2(ptr, bytes, loc, 0, dev->stream);
  } else {
    r = drv->prefetchOld(ptr, bytes, toHost ? CU_DEVICE_CPU : dev->device,
                         dev->stream);
  }
  if (!mlxrt_cuda_check(dev, r, "%s of %s (%zu bytes) to the %s",
                        drv->prefetchV2 ? "cuMemPrefetchAsync_v2"
                                        : "cuMemPrefetchAsync",
                        what, bytes, toHost ? "host" : "device"))
    return -1;
  a->where = ptr == a->ptr && bytes == a->bytes ? to : MLXRT_CUDA_ANYWHERE;
  return 1;
}

int mlxrt_cuda_discard_to_device(mlxrt_cuda_device *dev, mlxrt_cuda_alloc *a,
                                 const char *what) {
  if (a->where == MLXRT_CUDA_ON_DEVICE)
    return 0;
  if (!dev->drv->discardAndPrefetch)
    return mlxrt_cuda_prefetch(dev, a, a->ptr, a->bytes, false, what);
  CUdeviceptr ptr = a->ptr;
  size_t bytes = a->bytes, index = 0;
  CUmemLocation loc;
  loc.type = CU_MEM_LOCATION_TYPE_DEVICE;
  loc.id = dev->ordinal;
  if (!mlxrt_cuda_check(dev,
                        dev->drv->discardAndPrefetch(&ptr, &bytes, 1, &loc,
                                                     &index, 1, 0, dev->stream),
                        "cuMemDiscardAndPrefetchBatchAsync of %s (%zu bytes)",
                        what, bytes))
    return -1;
  a->where = MLXRT_CUDA_ON_DEVICE;
  return 1;
}

enum {
  AdvisePreferredLocation = 3,
  AdviseUnsetPreferredLocation = 4,
  AdviseAccessedBy = 5
};

static bool advise(mlxrt_cuda_device *dev, mlxrt_cuda_alloc *a, int advice,
                   bool host) {
  const mlxrt_cuda_driver *drv = dev->drv;
  if (drv->adviseV2) {
    CUmemLocation loc;
    loc.type = host ? CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE;
    loc.id = host ? 0 : dev->ordinal;
    return mlxrt_cuda_check(dev, drv->adviseV2(a->ptr, a->bytes, advice, loc),
                            "cuMemAdvise_v2(%d) of %zu bytes", advice,
                            a->bytes);
  }
  if (drv->adviseOld)
    return mlxrt_cuda_check(dev,
                            drv->adviseOld(a->ptr, a->bytes, advice,
                                           host ? CU_DEVICE_CPU : dev->device),
                            "cuMemAdvise(%d) of %zu bytes", advice, a->bytes);
  return false;
}

bool mlxrt_cuda_make_host_resident(mlxrt_cuda_device *dev,
                                   mlxrt_cuda_alloc *a) {
  if (!a->hostResident)
    a->hostResident = advise(dev, a, AdvisePreferredLocation, true) &&
                      advise(dev, a, AdviseAccessedBy, false);
  return a->hostResident;
}

/// Reports a transfer to the trace callback.
static void traceTransfer(mlxrt_cuda_device *dev, mlxrt_trace_kind kind,
                          size_t bytes, const char *what) {
  if (!dev->trace)
    return;
  mlxrt_trace_event event = {kind, 0, what, bytes};
  dev->trace(dev->traceUser, &event);
}

/// Resident runs with unified memory: a buffer the memory plan streams from
/// host memory (read or written once by one kernel, so migrating it first
/// would cost more) that the host did not touch since the run before is
/// used again as it was: it moves to the device now, once, and stays there
/// while the host leaves it alone. Run again on the same inputs, a program
/// then reads device memory rather than host memory over the interconnect
/// each time.
static void keepReusedOnDevice(mlxrt_cuda_device *dev, void **args,
                               size_t numInputs, size_t numArgs) {
  for (size_t i = 0; i < numArgs && !dev->failed; ++i) {
    mlxrt_cuda_alloc *a = findAlloc(dev, args[i]);
    if (!a->hostResident || a->hostTouched || !a->inRun ||
        !advise(dev, a, AdviseUnsetPreferredLocation, false))
      continue;
    a->hostResident = false;
    a->keptOnDevice = true;
    // In order: an output that is also an input (in place) was moved as
    // the input, and is not discarded.
    char what[64];
    snprintf(what, sizeof(what), "buffer %zu", i);
    if (i < numInputs) {
      if (mlxrt_cuda_prefetch(dev, a, a->ptr, a->bytes, false, what) > 0)
        traceTransfer(dev, MLXRT_TRACE_TO_DEVICE, a->bytes, "input used again");
    } else {
      mlxrt_cuda_discard_to_device(dev, a, what);
    }
  }
}

/// The host touched a buffer: a buffer kept on the device for reuse goes
/// back to the plan's placement at the next run.
static void hostTouched(mlxrt_cuda_alloc *a) {
  a->hostTouched = true;
  a->keptOnDevice = false;
}

/// Copy mode: copies the inputs to the device. With unified memory the
/// compiled program places every buffer itself (mlxrt_prefetch calls that
/// mlx-memory-placement inserted), so nothing moves here (data a kernel
/// streams from host memory must not be migrated first), except before a
/// captured or replayed run, which skips those calls: then the buffers the
/// program migrates (all but the host-resident ones, which its first run
/// marked) go to the device here, outputs without their dead contents.
static void moveIn(mlxrt_cuda_device *dev, void **args, size_t numInputs,
                   size_t numArgs, bool graphRun, bool resident) {
  if (dev->unified) {
    for (size_t i = 0; graphRun && i < numArgs && !dev->failed; ++i) {
      mlxrt_cuda_alloc *a = findAlloc(dev, args[i]);
      if (a->hostResident || a->where == MLXRT_CUDA_ON_DEVICE)
        continue;
      char what[64];
      snprintf(what, sizeof(what), "buffer %zu", i);
      if (i < numInputs)
        mlxrt_cuda_prefetch(dev, a, a->ptr, a->bytes, false, what);
      else
        mlxrt_cuda_discard_to_device(dev, a, what);
    }
    return;
  }
  for (size_t i = 0; i < numInputs && !dev->failed; ++i) {
    mlxrt_cuda_alloc *a = findAlloc(dev, args[i]);
    // Resident: the device copy is current unless the host wrote since.
    if (resident && !a->hostNewer)
      continue;
    if (mlxrt_cuda_check(
            dev, dev->drv->cuMemcpyHtoD_v2(a->ptr, a->host, a->bytes),
            "cuMemcpyHtoD_v2 of input %zu (%zu bytes)", i, a->bytes)) {
      a->hostNewer = false;
      traceTransfer(dev, MLXRT_TRACE_TO_DEVICE, a->bytes, "input");
    }
  }
}

//===----------------------------------------------------------------------===//
// Runs in flight
//===----------------------------------------------------------------------===//

static void traceMs(mlxrt_cuda_device *dev, mlxrt_trace_kind kind, double ms) {
  mlxrt_trace_event event = {kind, ms, "", 0};
  dev->trace(dev->traceUser, &event);
}

/// The time between two events of a slot (0 where the driver cannot say).
static float elapsed(mlxrt_cuda_device *dev, CUevent from, CUevent to) {
  float ms = 0;
  if (dev->drv->eventElapsedTime(&ms, from, to) != CUDA_SUCCESS)
    ms = 0;
  return ms;
}

void mlxrt_cuda_wait_runs(mlxrt_cuda_device *dev, uint64_t run) {
  if (run > dev->enqueued)
    run = dev->enqueued;
  while (dev->retired < run) {
    uint64_t n = ++dev->retired;
    mlxrt_cuda_run_slot *slot = &dev->runs[n % MLXRT_CUDA_RUNS_IN_FLIGHT];
    // After a failure the context is synchronized (or dead): nothing to time.
    if (dev->failed ||
        !mlxrt_cuda_check(dev, dev->drv->cuEventSynchronize(slot->stop),
                          "cuEventSynchronize after kernel '%s'",
                          dev->lastKernel ? dev->lastKernel : "(none)") ||
        !dev->trace)
      continue;
    traceMs(dev, MLXRT_TRACE_INPUTS_PLACED,
            elapsed(dev, slot->placed, slot->start));
    traceMs(dev, MLXRT_TRACE_PROGRAM, elapsed(dev, slot->start, slot->stop));
    if (slot->traceOutputs)
      traceMs(dev, MLXRT_TRACE_OUTPUTS_PLACED, slot->outputsMs);
  }
}

/// Waits for the runs up to number `run` outside a run: their failure, if
/// any, is returned.
static mlxrt_status waitForRuns(mlxrt_cuda_device *dev, uint64_t run,
                                mlxrt_error *err) {
  if (run <= dev->retired)
    return MLXRT_OK;
  mlxrt_status st = makeCurrent(dev, err);
  if (st != MLXRT_OK)
    return st;
  resetFailure(dev);
  mlxrt_cuda_wait_runs(dev, run);
  return dev->failed ? takeFailure(dev, err) : MLXRT_OK;
}

/// Copies device bytes to the host once the runs that write them ended, on
/// the read stream: not behind the runs enqueued since.
static bool copyToHost(mlxrt_cuda_device *dev, void *dst, CUdeviceptr src,
                       size_t bytes, const char *what) {
  return mlxrt_cuda_check(
             dev,
             dev->drv->cuMemcpyDtoHAsync_v2(dst, src, bytes, dev->readStream),
             "cuMemcpyDtoHAsync_v2 of %s (%zu bytes)", what, bytes) &&
         mlxrt_cuda_check(dev, dev->drv->cuStreamSynchronize(dev->readStream),
                          "cuStreamSynchronize after copying %s", what);
}

/// Makes the outputs readable on the host; the stream is idle afterwards.
static void moveOut(mlxrt_cuda_device *dev, void **args, size_t numInputs,
                    size_t numArgs) {
  for (size_t i = numInputs; i < numArgs && !dev->failed; ++i) {
    mlxrt_cuda_alloc *a = findAlloc(dev, args[i]);
    char what[64];
    snprintf(what, sizeof(what), "buffer %zu", i);
    if (dev->unified && a->hostResident)
      continue;
    if (dev->unified)
      mlxrt_cuda_prefetch(dev, a, a->ptr, a->bytes, true, what);
    else
      mlxrt_cuda_check(
          dev, dev->drv->cuMemcpyDtoH_v2(a->host, a->ptr, a->bytes),
          "cuMemcpyDtoH_v2 of output %zu (%zu bytes)", i, a->bytes);
  }
  if (!dev->failed)
    mlxrt_cuda_check(dev, dev->drv->cuStreamSynchronize(dev->stream),
                     "cuStreamSynchronize after copying the outputs back");
}

/// A run; `resident` (the instance API) moves only inputs the host wrote
/// and leaves the outputs on the device until mlxrt_device_to_host.
static mlxrt_status runOn(mlxrt_device *base, mlxrt_entry_fn entry, void **args,
                          size_t numInputs, size_t numOutputs,
                          double *elapsedMs, bool resident, mlxrt_error *err) {
  mlxrt_cuda_device *dev = (mlxrt_cuda_device *)base;
  const mlxrt_cuda_driver *drv = dev->drv;
  if (Active)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "a program is already running on this thread");
  size_t numArgs = numInputs + numOutputs;
  if (numArgs < numInputs)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT, "too many buffers");
  mlxrt_status st = makeCurrent(dev, err);
  if (st != MLXRT_OK)
    return st;

  // The program gets the device's view of each buffer.
  void **programArgs = calloc(numArgs + 1, sizeof(void *));
  if (!programArgs)
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  for (size_t i = 0; i < numArgs; ++i) {
    mlxrt_cuda_alloc *a = findAlloc(dev, args[i]);
    if (!a || a->kind != MLXRT_CUDA_BUFFER) {
      free(programArgs);
      return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                        "buffer %zu of the run was not allocated on %s "
                        "(use mlxrt_device_alloc)",
                        i, dev->base.description);
    }
    programArgs[i] = dev->unified ? a->key : (void *)(uintptr_t)a->ptr;
  }
  // The host may have written any buffer since the last run (resident runs
  // learn of each write: mlxrt_device_host_wrote).
  for (size_t i = 0; i < dev->numAllocs && !resident; ++i)
    dev->allocs[i].where = MLXRT_CUDA_ANYWHERE;

  resetFailure(dev);
  if (resident && dev->unified && dev->concurrentManaged)
    keepReusedOnDevice(dev, args, numInputs, numArgs);
  mlxrt_cuda_graph_select(dev, entry, programArgs, numArgs);
  bool replaced =
      mlxrt_cuda_graph_replaces_run(dev, entry, programArgs, numArgs);
  // A replay only enqueues. Any other run's host code may touch buffers
  // (or capture the stream): the runs before it end first.
  if (!resident || !replaced || dev->graph.state != MLXRT_GRAPH_READY)
    mlxrt_cuda_wait_runs(dev, dev->enqueued);
  uint64_t run = dev->enqueued + 1;
  if (run > dev->retired + MLXRT_CUDA_RUNS_IN_FLIGHT)
    mlxrt_cuda_wait_runs(dev, run - MLXRT_CUDA_RUNS_IN_FLIGHT);
  mlxrt_cuda_run_slot *slot = &dev->runs[run % MLXRT_CUDA_RUNS_IN_FLIGHT];
  slot->traceOutputs = false;
  if (dev->trace && !dev->failed)
    mlxrt_cuda_check(dev, drv->cuEventRecord(slot->placed, dev->stream),
                     "cuEventRecord");
  moveIn(dev, args, numInputs, numArgs, replaced, resident);
  if (!dev->failed &&
      mlxrt_cuda_check(dev, drv->cuEventRecord(slot->start, dev->stream),
                       "cuEventRecord")) {
    Active = dev;
    mlxrt_cuda_graph_run(dev, entry, programArgs, numArgs);
    Active = NULL;
  }
  if (!dev->failed)
    mlxrt_cuda_check(dev, drv->cuEventRecord(slot->stop, dev->stream),
                     "cuEventRecord");
  dev->enqueued = run;
  for (size_t i = 0; i < numArgs; ++i) {
    mlxrt_cuda_alloc *a = findAlloc(dev, args[i]);
    a->lastUse = run;
    if (i >= numInputs)
      a->lastWrite = run;
  }
  float ms = 0;
  double t1 = dev->trace ? mlxrt_now_ms() : 0;
  if (!resident) {
    mlxrt_cuda_wait_runs(dev, run);
    if (!dev->failed)
      ms = elapsed(dev, slot->start, slot->stop);
    t1 = dev->trace ? mlxrt_now_ms() : 0;
    if (!dev->failed)
      moveOut(dev, args, numInputs, numArgs);
  }
  for (size_t i = 0; resident && i < numArgs; ++i) {
    mlxrt_cuda_alloc *a = findAlloc(dev, args[i]);
    a->hostTouched = false;
    a->inRun = true;
    if (i < numInputs || dev->failed)
      continue;
    // The outputs stay where the program left them: on the device when the
    // run placed them there first (its kernels wrote there), so that the
    // next run, taking them back as inputs (a donated cache, a token),
    // prefetches nothing. Otherwise only the pages written moved.
    a->hostNewer = false;
    a->deviceNewer = !dev->unified;
    if (a->where != MLXRT_CUDA_ON_DEVICE)
      a->where = MLXRT_CUDA_ANYWHERE;
  }
  if (dev->trace && !dev->failed) {
    // A resident run's trace comes when it is waited for.
    if (resident) {
      slot->outputsMs = mlxrt_now_ms() - t1;
      slot->traceOutputs = true;
    } else {
      traceMs(dev, MLXRT_TRACE_OUTPUTS_PLACED, mlxrt_now_ms() - t1);
    }
  }
  if (dev->failed) { // Nothing may still run on memory about to be freed.
    drv->cuCtxSynchronize();
    mlxrt_cuda_graph_reset(dev);
    dev->retired = dev->enqueued;
  }
  releaseIntermediates(dev);
  free(programArgs);
  if (dev->failed)
    return takeFailure(dev, err);
  if (elapsedMs)
    *elapsedMs = ms;
  return MLXRT_OK;
}

static mlxrt_status cudaRun(mlxrt_device *base, mlxrt_entry_fn entry,
                            void **args, size_t numInputs, size_t numOutputs,
                            double *elapsedMs, mlxrt_error *err) {
  return runOn(base, entry, args, numInputs, numOutputs, elapsedMs, false, err);
}

static mlxrt_status cudaRunResident(mlxrt_device *base, mlxrt_entry_fn entry,
                                    void **args, size_t numInputs,
                                    size_t numOutputs, mlxrt_error *err) {
  return runOn(base, entry, args, numInputs, numOutputs, NULL, true, err);
}

static mlxrt_status cudaToHost(mlxrt_device *base, void *p, mlxrt_error *err) {
  mlxrt_cuda_device *dev = (mlxrt_cuda_device *)base;
  mlxrt_cuda_alloc *a = findAlloc(dev, p);
  if (!a || a->kind != MLXRT_CUDA_BUFFER)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT, "not a buffer of %s",
                      dev->base.description);
  hostTouched(a);
  mlxrt_status st = waitForRuns(dev, a->lastWrite, err);
  if (st != MLXRT_OK)
    return st;
  bool move = dev->unified ? !a->hostResident && a->where != MLXRT_CUDA_ON_HOST
                           : a->deviceNewer;
  if (!move)
    return MLXRT_OK;
  if ((st = makeCurrent(dev, err)) != MLXRT_OK)
    return st;
  resetFailure(dev);
  if (dev->unified) {
    if (mlxrt_cuda_prefetch(dev, a, a->ptr, a->bytes, true, "an array") > 0)
      traceTransfer(dev, MLXRT_TRACE_TO_HOST, a->bytes, "array");
    if (!dev->failed)
      mlxrt_cuda_check(dev, dev->drv->cuStreamSynchronize(dev->stream),
                       "cuStreamSynchronize after moving an array to the "
                       "host");
  } else if (copyToHost(dev, a->host, a->ptr, a->bytes, "an array")) {
    a->deviceNewer = false;
    traceTransfer(dev, MLXRT_TRACE_TO_HOST, a->bytes, "array");
  }
  return dev->failed ? takeFailure(dev, err) : MLXRT_OK;
}

static mlxrt_status cudaPrepare(mlxrt_device *base, bool matmul,
                                mlxrt_error *err) {
  mlxrt_cuda_device *dev = (mlxrt_cuda_device *)base;
  mlxrt_status st = makeCurrent(dev, err);
  if (st != MLXRT_OK)
    return st;
  resetFailure(dev);
  if (mlxrt_cuda_load_modules(dev) && matmul)
    mlxrt_cublaslt_prepare(dev);
  return dev->failed ? takeFailure(dev, err) : MLXRT_OK;
}

/// Unified arrays up to this size are copied out at each read rather than
/// moved to the host (a decode loop's token: moving it there and back cost
/// 0.2 ms a step on the H200, 2026-12-02).
static const size_t MaxCopiedReadBytes = 64 << 10;

static mlxrt_status cudaRead(mlxrt_device *base, void *p, void *dst,
                             size_t nbytes, mlxrt_error *err) {
  mlxrt_cuda_device *dev = (mlxrt_cuda_device *)base;
  mlxrt_cuda_alloc *a = findAlloc(dev, p);
  if (!a || a->kind != MLXRT_CUDA_BUFFER || nbytes > a->bytes)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "not a buffer of %s of at least %zu bytes",
                      dev->base.description, nbytes);
  // Copy mode keeps a host copy: made current once, it serves every read.
  // A large unified array moves to the host once as well.
  if (!dev->unified || a->bytes > MaxCopiedReadBytes) {
    mlxrt_status st = cudaToHost(base, p, err);
    if (st == MLXRT_OK && nbytes)
      memcpy(dst, p, nbytes);
    return st;
  }
  hostTouched(a);
  mlxrt_status st = waitForRuns(dev, a->lastWrite, err);
  if (st != MLXRT_OK)
    return st;
  if (a->hostResident || a->where == MLXRT_CUDA_ON_HOST || nbytes == 0) {
    memcpy(dst, p, nbytes);
    return MLXRT_OK;
  }
  if ((st = makeCurrent(dev, err)) != MLXRT_OK)
    return st;
  resetFailure(dev);
  // A copy: the buffer stays where the next run wants it.
  if (copyToHost(dev, dst, a->ptr, nbytes, "an array"))
    traceTransfer(dev, MLXRT_TRACE_TO_HOST, nbytes, "array (read)");
  return dev->failed ? takeFailure(dev, err) : MLXRT_OK;
}

static mlxrt_status cudaBeforeHostWrite(mlxrt_device *base, void *p,
                                        mlxrt_error *err) {
  mlxrt_cuda_device *dev = (mlxrt_cuda_device *)base;
  mlxrt_cuda_alloc *a = findAlloc(dev, p);
  return a ? waitForRuns(dev, a->lastUse, err) : MLXRT_OK;
}

static mlxrt_status cudaSynchronize(mlxrt_device *base, mlxrt_error *err) {
  mlxrt_cuda_device *dev = (mlxrt_cuda_device *)base;
  return waitForRuns(dev, dev->enqueued, err);
}

static void cudaSetTrace(mlxrt_device *base, mlxrt_trace_fn trace, void *user) {
  mlxrt_cuda_device *dev = (mlxrt_cuda_device *)base;
  dev->trace = trace;
  dev->traceUser = user;
}

static void cudaHostWrote(mlxrt_device *base, void *p) {
  mlxrt_cuda_alloc *a = findAlloc((mlxrt_cuda_device *)base, p);
  if (!a)
    return;
  a->hostNewer = true;
  a->deviceNewer = false;
  a->where = MLXRT_CUDA_ANYWHERE;
  hostTouched(a);
}

static void cudaDestroy(mlxrt_device *base) {
  mlxrt_cuda_device *dev = (mlxrt_cuda_device *)base;
  const mlxrt_cuda_driver *drv = dev->drv;
  mlxrt_cublaslt_load_wait(dev);
  if (dev->ctx && makeCurrent(dev, NULL) == MLXRT_OK) {
    drv->cuCtxSynchronize();
    dev->retired = dev->enqueued;
    mlxrt_cuda_graph_reset_all(dev);
    mlxrt_cublaslt_release(dev);
    mlxrt_cuda_unload_modules(dev);
    while (dev->numAllocs)
      releaseAlloc(dev, &dev->allocs[dev->numAllocs - 1]);
    for (size_t i = 0; i < MLXRT_CUDA_RUNS_IN_FLIGHT; ++i) {
      mlxrt_cuda_run_slot *slot = &dev->runs[i];
      CUevent events[] = {slot->placed, slot->start, slot->stop};
      for (size_t e = 0; e < 3; ++e)
        if (events[e])
          drv->cuEventDestroy_v2(events[e]);
    }
    if (dev->readStream)
      drv->cuStreamDestroy_v2(dev->readStream);
    if (dev->stream)
      drv->cuStreamDestroy_v2(dev->stream);
  }
  if (dev->ctx)
    drv->cuDevicePrimaryCtxRelease_v2(dev->device);
  free(dev->allocs);
  free(dev);
}

static void cudaForgetProgram(mlxrt_device *base, mlxrt_entry_fn entry) {
  mlxrt_cuda_device *dev = (mlxrt_cuda_device *)base;
  if (makeCurrent(dev, NULL) == MLXRT_OK)
    mlxrt_cuda_graph_forget_program(dev, entry);
}

static const mlxrt_device_ops CudaOps = {
    cudaAlloc,           cudaFree,        cudaRun,
    cudaDestroy,         cudaRunResident, cudaToHost,
    cudaHostWrote,       cudaPrepare,     cudaRead,
    cudaBeforeHostWrite, cudaSynchronize, cudaSetTrace,
    cudaForgetProgram};

mlxrt_status mlxrt_cuda_device_create(int ordinal,
                                      const mlxrt_device_config *config,
                                      mlxrt_device **out, mlxrt_error *err) {
  *out = NULL;
  const mlxrt_cuda_driver *drv;
  CUdevice device;
  mlxrt_status st = lookupDevice(config->libcuda, ordinal, &drv, &device, err);
  if (st != MLXRT_OK)
    return st;
  mlxrt_cuda_device *dev = calloc(1, sizeof(*dev));
  if (!dev)
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  dev->base.ops = &CudaOps;
  dev->base.kind = MLXRT_DEVICE_CUDA;
  dev->drv = drv;
  dev->ordinal = ordinal;
  dev->device = device;
  snprintf(dev->base.description, sizeof(dev->base.description), "cuda:%d",
           ordinal);
  if (config->libcublaslt)
    mlxrt_strlcpy(dev->libcublaslt, config->libcublaslt,
                  sizeof(dev->libcublaslt));
  if (config->cudaHome)
    mlxrt_strlcpy(dev->cudaHome, config->cudaHome, sizeof(dev->cudaHome));
  // cuInit is done; the context takes as long again (about 100 ms each on
  // the H200), during which cuBLASLt's library loads.
  mlxrt_cublaslt_load_early(dev);

  char name[96] = "";
  int managed = 0, concurrent = 0;
  bool ok =
      mlxrt_cuda_check(dev,
                       drv->cuDeviceGetName(name, (int)sizeof(name), device),
                       "cuDeviceGetName") &&
      mlxrt_cuda_check(
          dev,
          drv->cuDeviceGetAttribute(&managed,
                                    CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, device),
          "cuDeviceGetAttribute(MANAGED_MEMORY)") &&
      mlxrt_cuda_check(dev,
                       drv->cuDeviceGetAttribute(
                           &concurrent,
                           CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS,
                           device),
                       "cuDeviceGetAttribute(CONCURRENT_MANAGED_ACCESS)") &&
      mlxrt_cuda_check(dev,
                       drv->cuDeviceGetAttribute(
                           &dev->ccMajor,
                           CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                           device),
                       "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MAJOR)") &&
      mlxrt_cuda_check(dev,
                       drv->cuDeviceGetAttribute(
                           &dev->ccMinor,
                           CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                           device),
                       "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MINOR)") &&
      mlxrt_cuda_check(dev, drv->cuDevicePrimaryCtxRetain(&dev->ctx, device),
                       "cuDevicePrimaryCtxRetain");
  name[sizeof(name) - 1] = '\0';
  if (ok)
    snprintf(dev->base.description, sizeof(dev->base.description),
             "cuda:%d (%s)", ordinal, name);
  ok = ok &&
       mlxrt_cuda_check(dev, drv->cuCtxSetCurrent(dev->ctx),
                        "cuCtxSetCurrent") &&
       // A blocking stream: it waits for the synchronous copies of copy
       // mode, which run on the legacy default stream.
       mlxrt_cuda_check(dev,
                        drv->cuStreamCreate(&dev->stream, CU_STREAM_DEFAULT),
                        "cuStreamCreate") &&
       mlxrt_cuda_check(
           dev, drv->cuStreamCreate(&dev->readStream, CU_STREAM_NON_BLOCKING),
           "cuStreamCreate");
  for (size_t i = 0; ok && i < MLXRT_CUDA_RUNS_IN_FLIGHT; ++i) {
    mlxrt_cuda_run_slot *slot = &dev->runs[i];
    CUevent *events[] = {&slot->placed, &slot->start, &slot->stop};
    for (size_t e = 0; ok && e < 3; ++e)
      ok =
          mlxrt_cuda_check(dev, drv->cuEventCreate(events[e], CU_EVENT_DEFAULT),
                           "cuEventCreate");
  }
  if (!ok) {
    st = takeFailure(dev, err);
    mlxrt_error_prefix(err, "no CUDA device: ");
    cudaDestroy(&dev->base);
    return st;
  }
  dev->managedMemory = managed != 0;
  dev->concurrentManaged = managed && concurrent;
  // The unified path is the default; MLXRT_MEMORY_COPY forces copies.
  dev->unified = dev->concurrentManaged && config->memory != MLXRT_MEMORY_COPY;
  dev->trace = config->trace;
  dev->traceUser = config->traceUser;
  dev->noGraphs = config->noGraphs;
  dev->keepIntermediates = config->keepIntermediates;
  *out = &dev->base;
  return MLXRT_OK;
}
