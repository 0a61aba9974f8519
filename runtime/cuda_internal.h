//===- cuda_internal.h - The CUDA backend's shared internals -----*- C -*-===//
//
// The subset of the CUDA driver API that the runtime uses, declared here so
// that the runtime builds without CUDA headers, and the CUDA device struct
// that the device (device_cuda.c) and the ABI of compiled code (cuda_abi.c)
// share. The driver is loaded with dlopen (cuda_driver.c); nothing links
// against libcuda.
//
// Entry points are resolved by their versioned symbol names (cuMemFree_v2,
// ...): cuda.h maps the plain names to these, and dlsym sees only the real
// symbols. Every name below works with CUDA 12 and CUDA 13 drivers; the two
// that differ between them (cuMemPrefetchAsync_v2, cuEventElapsedTime_v2)
// are resolved with a fallback.
//
//===----------------------------------------------------------------------===//

#ifndef MLXRT_CUDA_INTERNAL_H
#define MLXRT_CUDA_INTERNAL_H

#include "internal.h"
#include <pthread.h>
#include <stdbool.h>

//===----------------------------------------------------------------------===//
// Driver API declarations (values as in cuda.h of CUDA 12 and 13)
//===----------------------------------------------------------------------===//

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef int CUjit_option;
typedef int CUdevice_attribute;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
typedef struct CUgraphNode_st *CUgraphNode;

/// CUgraphExecUpdateResultInfo (CUDA 12.0+).
typedef struct {
  int result;
  CUgraphNode errorNode, errorFromNode;
} CUgraphExecUpdateResultInfo;

/// CUmemLocation, passed by value to cuMemPrefetchAsync_v2.
typedef struct {
  int type; ///< CUmemLocationType.
  int id;
} CUmemLocation;

enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_DEINITIALIZED = 4,
  CUDA_ERROR_STUB_LIBRARY = 34,
  CUDA_ERROR_INSUFFICIENT_DRIVER = 35,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_UNKNOWN = 999,
};

enum {
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83,
  CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS = 89,
};

enum {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_OPTIMIZATION_LEVEL = 7,
};

enum {
  CU_MEM_ATTACH_GLOBAL = 0x1,
  CU_MEM_LOCATION_TYPE_DEVICE = 0x1,
  CU_MEM_LOCATION_TYPE_HOST = 0x2,
  CU_DEVICE_CPU = -1, ///< The host, for the old cuMemPrefetchAsync.
  CU_STREAM_DEFAULT = 0x0,
  CU_STREAM_NON_BLOCKING = 0x1,
  CU_EVENT_DEFAULT = 0x0,
  /// Other threads may use the driver while the stream captures.
  CU_STREAM_CAPTURE_MODE_RELAXED = 2,
};

/// cuLaunchKernelEx's configuration (CUDA 12.0+), as cuda.h lays it out.
typedef struct CUlaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    int programmaticStreamSerializationAllowed;
  } value;
} CUlaunchAttribute;

typedef struct CUlaunchConfig {
  unsigned int gridDimX, gridDimY, gridDimZ;
  unsigned int blockDimX, blockDimY, blockDimZ;
  unsigned int sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned int numAttrs;
} CUlaunchConfig;

enum {
  /// The kernel may start before the previous one in the stream ends; it
  /// waits for it (griddepcontrol.wait) before touching what that one wrote.
  CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6,
};

/// Every driver function the runtime needs, by exact symbol name:
/// X(symbol, parameter list).
#define MLXRT_CUDA_FUNCTIONS(X)                                                \
  X(cuInit, (unsigned int flags))                                              \
  X(cuDriverGetVersion, (int *version))                                        \
  X(cuGetErrorName, (CUresult error, const char **str))                        \
  X(cuGetErrorString, (CUresult error, const char **str))                      \
  X(cuDeviceGetCount, (int *count))                                            \
  X(cuDeviceGet, (CUdevice * device, int ordinal))                             \
  X(cuDeviceGetName, (char *name, int len, CUdevice dev))                      \
  X(cuDeviceGetAttribute,                                                      \
    (int *value, CUdevice_attribute attrib, CUdevice dev))                     \
  X(cuDevicePrimaryCtxRetain, (CUcontext * ctx, CUdevice dev))                 \
  X(cuDevicePrimaryCtxRelease_v2, (CUdevice dev))                              \
  X(cuCtxSetCurrent, (CUcontext ctx))                                          \
  X(cuCtxSynchronize, (void))                                                  \
  X(cuModuleLoadDataEx,                                                        \
    (CUmodule * module, const void *image, unsigned int numOptions,            \
     CUjit_option *options, void **optionValues))                              \
  X(cuModuleUnload, (CUmodule module))                                         \
  X(cuModuleGetFunction, (CUfunction * fn, CUmodule module, const char *name)) \
  X(cuLaunchKernel,                                                            \
    (CUfunction f, unsigned int gridX, unsigned int gridY, unsigned int gridZ, \
     unsigned int blockX, unsigned int blockY, unsigned int blockZ,            \
     unsigned int sharedMemBytes, CUstream stream, void **params,              \
     void **extra))                                                            \
  X(cuStreamCreate, (CUstream * stream, unsigned int flags))                   \
  X(cuStreamSynchronize, (CUstream stream))                                    \
  X(cuStreamDestroy_v2, (CUstream stream))                                     \
  X(cuMemAllocManaged, (CUdeviceptr * ptr, size_t bytes, unsigned int flags))  \
  X(cuMemAlloc_v2, (CUdeviceptr * ptr, size_t bytes))                          \
  X(cuMemFree_v2, (CUdeviceptr ptr))                                           \
  X(cuMemGetInfo_v2, (size_t * free, size_t * total))                          \
  X(cuMemcpyHtoD_v2, (CUdeviceptr dst, const void *src, size_t bytes))         \
  X(cuMemcpyDtoH_v2, (void *dst, CUdeviceptr src, size_t bytes))               \
  X(cuMemcpyDtoHAsync_v2,                                                      \
    (void *dst, CUdeviceptr src, size_t bytes, CUstream stream))               \
  X(cuMemcpyAsync,                                                             \
    (CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream))         \
  X(cuEventCreate, (CUevent * event, unsigned int flags))                      \
  X(cuEventRecord, (CUevent event, CUstream stream))                           \
  X(cuEventSynchronize, (CUevent event))                                       \
  X(cuEventDestroy_v2, (CUevent event))

/// The loaded driver: one per process, never unloaded once it works.
typedef struct mlxrt_cuda_driver {
#define MLXRT_CUDA_FIELD(name, params) CUresult(*name) params;
  MLXRT_CUDA_FUNCTIONS(MLXRT_CUDA_FIELD)
#undef MLXRT_CUDA_FIELD
  /// CUDA 12.2+: the location form. NULL on older drivers, which have
  /// prefetchOld (device ordinal, CU_DEVICE_CPU for the host).
  CUresult (*prefetchV2)(CUdeviceptr ptr, size_t bytes, CUmemLocation to,
                         unsigned int flags, CUstream stream);
  CUresult (*prefetchOld)(CUdeviceptr ptr, size_t bytes, CUdevice to,
                          CUstream stream);
  /// CUDA 12.8+: drop a range's contents and place it (NULL before): an
  /// output the program overwrites needs no migration.
  CUresult (*discardAndPrefetch)(CUdeviceptr *ptrs, size_t *sizes, size_t count,
                                 CUmemLocation *locations,
                                 size_t *locationIndices, size_t numLocations,
                                 unsigned long long flags, CUstream stream);
  /// cuMemAdvise_v2 (CUDA 12.2+, a location) or cuMemAdvise (an ordinal,
  /// CU_DEVICE_CPU for the host); either may be NULL.
  CUresult (*adviseV2)(CUdeviceptr ptr, size_t bytes, int advice,
                       CUmemLocation location);
  CUresult (*adviseOld)(CUdeviceptr ptr, size_t bytes, int advice,
                        CUdevice device);
  /// cuEventElapsedTime_v2 where the driver has it, else cuEventElapsedTime.
  CUresult (*eventElapsedTime)(float *ms, CUevent start, CUevent end);
  /// CUDA graphs (all NULL when the driver lacks one of them: programs then
  /// run uncaptured).
  CUresult (*streamBeginCapture)(CUstream stream, int mode);
  CUresult (*streamEndCapture)(CUstream stream, CUgraph *graph);
  CUresult (*graphInstantiate)(CUgraphExec *exec, CUgraph graph,
                               unsigned long long flags);
  CUresult (*graphLaunch)(CUgraphExec exec, CUstream stream);
  CUresult (*graphExecDestroy)(CUgraphExec exec);
  CUresult (*graphDestroy)(CUgraph graph);
  /// cuGraphExecUpdate_v2 (CUDA 12.0+; NULL before): an instantiated graph
  /// takes another graph of the same shape's parameters.
  CUresult (*graphExecUpdate)(CUgraphExec exec, CUgraph graph,
                              CUgraphExecUpdateResultInfo *info);
  /// A graph's nodes and their types: the shape an update must keep (NULL
  /// where the driver lacks them: no updates then).
  CUresult (*graphGetNodes)(CUgraph graph, CUgraphNode *nodes, size_t *count);
  CUresult (*graphNodeGetType)(CUgraphNode node, int *type);
  /// Programmatic dependent launch (CUDA 12.0+; NULL before): the launch
  /// with attributes, and the lookup of the module global that says a
  /// module's kernels wait for their predecessor themselves.
  CUresult (*launchKernelEx)(const CUlaunchConfig *config, CUfunction f,
                             void **params, void **extra);
  CUresult (*moduleGetGlobal)(CUdeviceptr *ptr, size_t *bytes, CUmodule module,
                              const char *name);
  /// cuFuncSetAttribute (CUDA 9.0+; NULL before): a kernel's opt-in to
  /// more than 48 KB of dynamic shared memory.
  CUresult (*funcSetAttribute)(CUfunction f, int attribute, int value);
  /// cuFuncGetAttribute (NULL where missing): a kernel's static shared
  /// memory, which counts toward the 48 KB as well.
  CUresult (*funcGetAttribute)(int *value, int attribute, CUfunction f);
  int version; ///< cuDriverGetVersion: 12080 for CUDA 12.8.
} mlxrt_cuda_driver;

/// The driver, loaded from `path` (NULL: libcuda.so.1) and initialized
/// (cuInit) on first use; NULL with the reason in `reason` when it does not
/// load, lacks an entry point, or cuInit fails. A failure is not
/// remembered, so a later call tries again; once loaded, the path of later
/// calls does not matter.
const mlxrt_cuda_driver *mlxrt_cuda_driver_load(const char *path, char *reason,
                                                size_t size);

/// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)" for a result code, also when
/// the driver cannot name it.
void mlxrt_cuda_error_text(const mlxrt_cuda_driver *drv, CUresult result,
                           char *buf, size_t size);

//===----------------------------------------------------------------------===//
// The CUDA device
//===----------------------------------------------------------------------===//

/// How many graphs a device keeps besides the one of its last run.
#define MLXRT_CUDA_CACHED_GRAPHS 7
/// How many programs a device remembers as ready for capture on their
/// first run on new buffers (see mlxrt_cuda_graph_state).
#define MLXRT_CUDA_WARM_PROGRAMS 16
/// How many instantiated graphs of forgotten buffers a device keeps for the
/// next capture of their programs (see mlxrt_cuda_spare_graph).
#define MLXRT_CUDA_SPARE_GRAPHS 4

/// What one allocation of the device is.
typedef enum mlxrt_cuda_alloc_kind {
  MLXRT_CUDA_BUFFER,       ///< An input/output buffer (mlxrt_device_alloc).
  MLXRT_CUDA_INTERMEDIATE, ///< _mlir_memref_to_llvm_alloc during a run.
  /// An intermediate allocated while the program was captured: the graph
  /// refers to it, so it lives as long as the graph.
  MLXRT_CUDA_GRAPH_MEMORY,
  MLXRT_CUDA_SINK, ///< Host memory handed out after a failure (no device).
  /// An intermediate a run freed, kept for the next allocation of the same
  /// size and memory (devices of the instance API: keepIntermediates).
  MLXRT_CUDA_SPARE,
} mlxrt_cuda_alloc_kind;

/// Where the pages of a managed allocation were last prefetched to.
typedef enum mlxrt_cuda_where {
  MLXRT_CUDA_ANYWHERE, ///< Unknown, or split: the next prefetch happens.
  MLXRT_CUDA_ON_HOST,
  MLXRT_CUDA_ON_DEVICE,
} mlxrt_cuda_where;

typedef struct mlxrt_cuda_alloc {
  void *key;       ///< The pointer the caller holds.
  CUdeviceptr ptr; ///< Device (or managed) memory; 0 for a sink.
  void *host;      ///< Host copy (copy mode buffers), or the sink.
  size_t bytes;    ///< Bytes allocated.
  mlxrt_cuda_alloc_kind kind;
  bool managed; ///< ptr is managed memory.
  /// Managed memory: a prefetch to where the whole allocation already is
  /// is skipped. Only a hint: host code and kernels may touch the pages
  /// anywhere (the GPU keeps that coherent), so buffers are reset to
  /// MLXRT_CUDA_ANYWHERE before each run, as the host may have written them.
  mlxrt_cuda_where where;
  /// Managed memory advised to live on the host and be mapped for the GPU
  /// (placement MLXRT_PLACE_STREAM): kernels reach it over the
  /// interconnect, nothing migrates.
  bool hostResident;
  /// Resident runs with unified memory: a streamed buffer that a run found
  /// untouched by the host since the run before. The program uses it again
  /// as it was, so it moved to the device once and stays there (placement
  /// MLXRT_PLACE_STREAM is ignored) until the host writes or reads it.
  bool keptOnDevice;
  /// The host wrote or read the buffer since the last resident run that
  /// took it (`inRun`: some resident run took it).
  bool hostTouched, inRun;
  /// Graph memory: the id of the graph it belongs to (mlxrt_cuda_graph).
  unsigned graph;
  /// The last run (dev->enqueued numbering) that took the buffer, and the
  /// last that wrote it: the host waits for those before it writes or frees
  /// the buffer, and before it reads it.
  uint64_t lastUse, lastWrite;
  /// Copy mode, resident runs (the instance API): the host copy has bytes
  /// the device copy lacks (new buffers, host writes), or the device copy
  /// has bytes the host copy lacks (an output not read back yet). Each is
  /// moved only then.
  bool hostNewer, deviceNewer;
} mlxrt_cuda_alloc;

/// Where the program stands with CUDA graphs: the first run of a program
/// on a set of buffers runs it directly (modules load, cuBLASLt plans its
/// products); if the program declared itself capturable
/// (mlxrt_graph_capturable), the second run captures the stream into a
/// graph and launches it, and later runs only launch the graph. A program
/// that already ran so on other buffers (a model's warm-up at opening, the
/// other half of a donated state) is captured on its first run on new
/// buffers: it starts SEEN.
typedef enum mlxrt_cuda_graph_state {
  MLXRT_GRAPH_NONE,       ///< No program seen on these buffers yet.
  MLXRT_GRAPH_SEEN,       ///< Ran once uncaptured; capturable.
  MLXRT_GRAPH_UNCAPTURED, ///< Not capturable (or capture failed): run as is.
  MLXRT_GRAPH_READY,      ///< exec replays the program.
} mlxrt_cuda_graph_state;

/// An instantiated graph whose buffers are gone (freed, or evicted from the
/// cache): never launched again, but the next capture of its program, on
/// other buffers, updates it (cuGraphExecUpdate) instead of instantiating
/// a new one, which costs far more.
typedef struct mlxrt_cuda_spare_graph {
  mlxrt_entry_fn entry;
  CUgraphExec exec;
  uint64_t shape; ///< Its graph's nodes' types (see graphShape).
} mlxrt_cuda_spare_graph;

typedef struct mlxrt_cuda_graph {
  unsigned id; ///< Tags its graph memory; 0 for an empty slot.
  mlxrt_cuda_graph_state state;
  mlxrt_entry_fn entry; ///< The program and the buffers the state is for.
  void **args;
  size_t numArgs;
  CUgraphExec exec;
  uint64_t shape; ///< exec's graph's nodes' types (see graphShape).
  /// During the run: the program called mlxrt_graph_capturable (so its
  /// stream synchronizations are skipped).
  bool declared;
  /// During the run: mlxrt_graph_capturable is to begin a capture.
  bool capture;
  /// During the run: the stream is being captured.
  bool capturing;
  /// Captured on its first run: its program ran before on other buffers.
  bool early;
  /// Host-to-device copies met during capture (constants): made once, after
  /// capture, into graph memory that nothing else writes.
  struct mlxrt_cuda_upload *uploads;
  size_t numUploads, capUploads;
} mlxrt_cuda_graph;

typedef struct mlxrt_cuda_upload {
  CUdeviceptr dst;
  const void *src;
  size_t bytes;
  void *owned; ///< src when the graph owns a copy of it (freed with it).
} mlxrt_cuda_upload;

enum { MLXRT_CUDA_ALLOC_HINTS = 1024 };

/// How many runs may be enqueued and not yet waited for.
#define MLXRT_CUDA_RUNS_IN_FLIGHT 4

/// One enqueued run: events around its phases on the stream (`placed`
/// before its inputs move, `start` and `stop` around the program), and what
/// its trace reports once it ended.
typedef struct mlxrt_cuda_run_slot {
  CUevent placed, start, stop;
  double outputsMs;  ///< Host time of the bookkeeping after the launch.
  bool traceOutputs; ///< Report outputsMs (resident runs) when retired.
} mlxrt_cuda_run_slot;

typedef struct mlxrt_cuda_device {
  mlxrt_device base;
  const mlxrt_cuda_driver *drv;
  int ordinal;
  CUdevice device;
  CUcontext ctx;   ///< The primary context, retained while the device is open.
  CUstream stream; ///< The one stream every launch of the program uses.
  /// Reads of arrays: a non-blocking stream, so that a read waits for the
  /// run that wrote the array, not for the runs enqueued after it.
  CUstream readStream;
  /// Runs of the instance API return once enqueued: run number `enqueued`
  /// (from 1) is in slot enqueued % MLXRT_CUDA_RUNS_IN_FLIGHT until it is
  /// retired (its end waited for, its trace reported); runs up to `retired`
  /// are. A buffer remembers the last run that used it and that wrote it.
  mlxrt_cuda_run_slot runs[MLXRT_CUDA_RUNS_IN_FLIGHT];
  uint64_t enqueued, retired;
  /// Buffers are managed memory, prefetched to the device before a run and
  /// back after it. Otherwise (no concurrent managed access, or
  /// MLXRT_NO_UNIFIED=1) a buffer is host memory plus a device copy, copied
  /// around each run, and intermediates are plain device memory.
  bool unified;
  bool managedMemory;     ///< CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY.
  bool concurrentManaged; ///< ..._CONCURRENT_MANAGED_ACCESS (prefetches).
  /// Per-run phase times go to trace (NULL: none).
  mlxrt_trace_fn trace;
  void *traceUser;
  bool noGraphs; ///< Never capture CUDA graphs.
  /// Intermediates a run frees become spares for the next run, so that
  /// calls after the first allocate nothing (the instance API).
  bool keepIntermediates;
  /// Where cuBLASLt is loaded from (empty: the default search).
  char libcublaslt[512], cudaHome[512];
  /// Loads cuBLASLt (dlopen, ~55 ms on the H200) while the device's
  /// context is made (mlxrt_cublaslt_load_early); joined when the device
  /// closes.
  pthread_t cublasLtLoader;
  bool cublasLtLoading;

  mlxrt_cuda_alloc *allocs;
  size_t numAllocs, capAllocs;
  /// Where a key was last found in `allocs`, by a hash of the key: a hint,
  /// checked before use (a call looks up each of its buffers, a model's
  /// weights among them, and the table holds hundreds).
  size_t allocHints[MLXRT_CUDA_ALLOC_HINTS];

  /// The first failure of a driver call during a run; the ABI functions
  /// turn into no-ops once it is set.
  bool failed;
  mlxrt_status failStatus;
  mlxrt_error error;
  /// The kernel launched last, named in a later synchronization's error.
  const char *lastKernel;

  /// CUDA graph of the last program run (cuda_graph.c), and those of the
  /// programs (or sets of buffers) run before it, most recent last, so that
  /// models called in turn, or a state donated from call to call (two sets
  /// of buffers in turn), replay their own graphs.
  mlxrt_cuda_graph graph;
  mlxrt_cuda_graph cached[MLXRT_CUDA_CACHED_GRAPHS];
  unsigned lastGraphId;
  /// Programs that ran uncaptured and declared themselves capturable: their
  /// modules are loaded and their products planned, so a new set of buffers
  /// is captured on its first run. Oldest first.
  mlxrt_entry_fn warm[MLXRT_CUDA_WARM_PROGRAMS];
  size_t numWarm;
  mlxrt_cuda_spare_graph spare[MLXRT_CUDA_SPARE_GRAPHS]; ///< Oldest first.
  size_t numSpare;
  /// cuBLASLt state (cublaslt.c), created on the first matrix product.
  struct mlxrt_cublaslt_state *blas;
  int ccMajor, ccMinor; ///< Compute capability.
} mlxrt_cuda_device;

/// The device whose program runs on this thread (inside mlxrt_device_run),
/// else NULL.
mlxrt_cuda_device *mlxrt_cuda_active(void);

/// Records a failure of `what` (printf-style) with the text of `result`,
/// unless a failure is already recorded; returns false. For CUDA_SUCCESS it
/// records nothing and returns true.
bool mlxrt_cuda_check(mlxrt_cuda_device *dev, CUresult result, const char *what,
                      ...) MLXRT_PRINTF(3, 4);

/// Records a failure that no driver call reported (first one wins).
void mlxrt_cuda_record(mlxrt_cuda_device *dev, mlxrt_status status,
                       const char *fmt, ...) MLXRT_PRINTF(3, 4);

/// Allocates `bytes` (at least one) of managed (`managed`) or device memory
/// as `kind` after checking that the device has that much free; a buffer of
/// device memory gets a host copy, which is then its key. On failure fills
/// err and returns its status. `*out` is the caller's pointer (the key).
mlxrt_status mlxrt_cuda_allocate(mlxrt_cuda_device *dev, size_t bytes,
                                 mlxrt_cuda_alloc_kind kind, bool managed,
                                 void **out, mlxrt_error *err);

/// The allocation whose device memory holds [ptr, ptr + bytes), or NULL.
mlxrt_cuda_alloc *mlxrt_cuda_find_range(mlxrt_cuda_device *dev, uintptr_t ptr,
                                        size_t bytes);

/// Moves the pages of [ptr, ptr + bytes) of `a` (managed memory) to the
/// device or to the host, on the stream, unless all of `a` is there already.
/// Returns 1 if it prefetched, 0 if it had nothing to do, -1 on a failure
/// (recorded).
int mlxrt_cuda_prefetch(mlxrt_cuda_device *dev, mlxrt_cuda_alloc *a,
                        CUdeviceptr ptr, size_t bytes, bool toHost,
                        const char *what);

/// Drops the pages of `a` (managed memory) and places them on the device:
/// its contents are dead (an output before the program writes it). Falls
/// back to a prefetch on drivers before CUDA 12.8. Same result codes.
int mlxrt_cuda_discard_to_device(mlxrt_cuda_device *dev, mlxrt_cuda_alloc *a,
                                 const char *what);

/// Advises `a` (managed memory) to stay in host memory and be mapped for
/// the GPU, once; false (recorded) when the driver refuses.
bool mlxrt_cuda_make_host_resident(mlxrt_cuda_device *dev, mlxrt_cuda_alloc *a);

/// Frees what mlxrt_cuda_allocate (or a sink) gave out: a buffer when
/// `buffer`, else an intermediate or a sink. Returns false when `key` is no
/// such allocation of the device.
bool mlxrt_cuda_release(mlxrt_cuda_device *dev, void *key, bool buffer);

/// Records a sink: host memory of the run, freed once the run's work is
/// done. Given out in place of device memory once a run has failed, so that
/// host code touching it does not crash; also the staging of a copy to the
/// device that the stream makes later (mlxrt_matmul's pointer arrays).
void *mlxrt_cuda_sink(mlxrt_cuda_device *dev, size_t bytes);

/// Unloads every kernel module loaded into the device's context
/// (cuda_abi.c); called when the device closes, with its context current.
void mlxrt_cuda_unload_modules(mlxrt_cuda_device *dev);

/// Loads every registered module not yet loaded into the device (JIT of
/// the PTX), with its context current; false with the failure recorded.
bool mlxrt_cuda_load_modules(mlxrt_cuda_device *dev);

/// Starts loading cuBLASLt on a thread of its own, so that its dlopen
/// overlaps the making of the device's context; false when no thread could
/// start (the first product then loads it). mlxrt_cublaslt_load_wait joins.
bool mlxrt_cublaslt_load_early(mlxrt_cuda_device *dev);
void mlxrt_cublaslt_load_wait(mlxrt_cuda_device *dev);

/// Creates the device's cuBLASLt handle and workspace (cublaslt.c) unless
/// it has them; false with the failure recorded.
bool mlxrt_cublaslt_prepare(mlxrt_cuda_device *dev);

//===----------------------------------------------------------------------===//
// CUDA graphs (cuda_graph.c)
//===----------------------------------------------------------------------===//

/// Whether this run of `entry` on `args` will be captured or replayed (so
/// the program's own placement calls will not run: the run must place the
/// buffers itself).
bool mlxrt_cuda_graph_replaces_run(const mlxrt_cuda_device *dev,
                                   mlxrt_entry_fn entry, void **args,
                                   size_t numArgs);

/// Runs `entry` on `args` (the program's view of the buffers) on the
/// device's stream: directly, captured into a graph, or by replaying the
/// graph (see mlxrt_cuda_graph_state). Failures are recorded in dev.
void mlxrt_cuda_graph_run(mlxrt_cuda_device *dev, mlxrt_entry_fn entry,
                          void **args, size_t numArgs);

/// Destroys the graph of the last run and frees the memory it owns
/// (context current).
void mlxrt_cuda_graph_reset(mlxrt_cuda_device *dev);

/// Destroys every graph, the cached ones too.
void mlxrt_cuda_graph_reset_all(mlxrt_cuda_device *dev);

/// Destroys the graphs whose program runs on the buffer `view` (the
/// program's address of it), before the buffer is freed.
void mlxrt_cuda_graph_forget_buffer(mlxrt_cuda_device *dev, void *view);

/// Destroys the graphs of program `entry` and forgets that it ran, before
/// its code is unloaded (another program may then get its address).
void mlxrt_cuda_graph_forget_program(mlxrt_cuda_device *dev,
                                     mlxrt_entry_fn entry);

/// Before a run of `entry` on `args`: makes the graph of that program and
/// buffers, if one is cached, the current one (dev->graph); else caches the
/// current one (dropping the oldest) when it is worth keeping.
void mlxrt_cuda_graph_select(mlxrt_cuda_device *dev, mlxrt_entry_fn entry,
                             void **args, size_t numArgs);

/// During capture: remembers a copy from host memory into graph memory, made
/// once the graph exists. False (recorded) when out of memory.
bool mlxrt_cuda_capture_upload(mlxrt_cuda_device *dev, CUdeviceptr dst,
                               const void *src, size_t bytes);
/// The same for bytes that do not outlive the call: the graph keeps a copy.
bool mlxrt_cuda_capture_upload_copy(mlxrt_cuda_device *dev, CUdeviceptr dst,
                                    const void *src, size_t bytes);

/// Device memory for the rest of the running program (graph memory while
/// capturing), or NULL with the failure recorded.
void *mlxrt_cuda_scratch(mlxrt_cuda_device *dev, size_t bytes,
                         const char *what);

/// Waits for the enqueued runs up to number `run` (dev->enqueued counts
/// them) and reports their trace; a failure is recorded (device_cuda.c).
void mlxrt_cuda_wait_runs(mlxrt_cuda_device *dev, uint64_t run);

/// Frees every allocation of `kind` (device_cuda.c).
void mlxrt_cuda_release_kind(mlxrt_cuda_device *dev,
                             mlxrt_cuda_alloc_kind kind);

/// Forgets a recorded failure (device_cuda.c).
void mlxrt_cuda_clear_failure(mlxrt_cuda_device *dev);

//===----------------------------------------------------------------------===//
// cuBLASLt (cublaslt.c)
//===----------------------------------------------------------------------===//

/// Destroys the device's cuBLASLt handle, plans and workspace.
void mlxrt_cublaslt_release(mlxrt_cuda_device *dev);

/// libcublasLt, loaded on first use (`path` alone when not NULL, else
/// libcublasLt.so.13, .so.12, .so, then the lib64 of `cudaHome`, NULL:
/// /usr/local/cuda); NULL with the reason when it does not load or lacks an
/// entry point. A failure is not remembered.
const struct mlxrt_cublaslt *mlxrt_cublaslt_load_from(const char *path,
                                                      const char *cudaHome,
                                                      char *reason,
                                                      size_t size);

/// The arguments of mlxrt_matmul (see mlxrt.h).
typedef struct mlxrt_matmul_args {
  int32_t abDtype, cDtype, flags;
  int64_t batch, m, n, k;
  uint64_t a;
  int64_t lda, strideA;
  uint64_t b;
  int64_t ldb, strideB;
  uint64_t c;
  int64_t ldc, strideC;
} mlxrt_matmul_args;

/// Checks dtypes, flags, sizes, leading dimensions and strides; false with
/// the reason in msg.
bool mlxrt_matmul_validate(const mlxrt_matmul_args *args, char *msg,
                           size_t size);

/// What a cached plan depends on: everything but the addresses, except
/// their alignment (up to 256 bytes), which limits the algorithms.
typedef struct mlxrt_matmul_key {
  int32_t abDtype, cDtype, flags;
  uint32_t alignA, alignB, alignC;
  int64_t batch, m, n, k, lda, ldb, ldc, strideA, strideB, strideC;
} mlxrt_matmul_key;

void mlxrt_matmul_make_key(const mlxrt_matmul_args *args,
                           mlxrt_matmul_key *key);

/// How cuBLASLt (column-major) sees a row-major product: its operands 0 (A,
/// our B), 1 (B, our A) and 2 (C = D, our C transposed), each rows x cols
/// with a leading dimension and batch stride, and its transposes.
typedef struct mlxrt_matmul_lt_layout_t {
  bool transA, transB;
  int64_t rows[3], cols[3], ld[3], stride[3];
} mlxrt_matmul_lt_layout_t;

void mlxrt_matmul_lt_layout(const mlxrt_matmul_key *key,
                            mlxrt_matmul_lt_layout_t *lt);

/// Picks the image of a module for a device of compute capability
/// major.minor. `data` is mlxc's container (MLXRT_IMAGE_MAGIC, mlxrt_abi.h) or
/// anything else (returned as is, kind CUBIN: a cubin or fatbin the driver
/// picks from). A cubin for sm_XY serves devices X.Z with Z >= Y (an
/// architecture-specific one, sm_XYa, only X.Y); otherwise the PTX. Returns
/// false for a malformed container.
bool mlxrt_image_pick(const void *data, size_t size, int major, int minor,
                      const void **image, size_t *imageSize,
                      mlxrt_image_kind *kind, int *sm);

#endif // MLXRT_CUDA_INTERNAL_H
