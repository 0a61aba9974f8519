//===- FakeCuda.c - A CUDA driver and cuBLASLt on the host -------*- C -*-===//
//
// A stand-in for libcuda.so.1 and libcublasLt that the runtime loads through
// $MLXRT_LIBCUDA / $MLXRT_LIBCUBLASLT in MlxrtFakeCudaTests, so that the
// logic around the driver (CUDA graph capture and replay, cuBLASLt plans,
// the choice of module image) is tested on machines without a GPU. It is
// strict where the real driver is strict about stream capture: a
// synchronization, a synchronous copy, a prefetch, a free or a module load
// on a capturing stream fails and invalidates the capture.
//
// "Kernels" are host functions the test registers by name; a launch runs
// one (or records it, with its parameters copied, while capturing); a graph
// launch runs the recorded launches, copies and products in order. Products
// are float32 only, computed as cublasLtMatmul's documentation defines them.
// With "deferred" set, the stream's work (and its events) waits in a queue
// until a synchronization reaches it, as a GPU still busy would: a host
// access that does not wait for it sees the old bytes. The stream created
// non-blocking (the runtime's read stream) has no queue.
//
//===----------------------------------------------------------------------===//

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef void (*FakeKernel)(void **params);

enum {
  OK = 0,
  INVALID_VALUE = 1,
  NOT_FOUND = 500,
  NO_BINARY_FOR_GPU = 209,
  CAPTURE_UNSUPPORTED = 900,
  CAPTURE_INVALIDATED = 901,
  GRAPH_EXEC_UPDATE_FAILURE = 910,
};

//===----------------------------------------------------------------------===//
// Control from the test
//===----------------------------------------------------------------------===//

typedef struct {
  char name[64];
  FakeKernel fn;
  int numParams;
  size_t sizes[8];
  int sharedOptIn; ///< cuFuncSetAttribute's dynamic shared memory limit.
} KernelInfo;

static KernelInfo Kernels[16];
static int NumKernels;

/// Counters and knobs, by name.
static struct {
  const char *name;
  long value;
} Vars[] = {
    {"launches", 0},           // kernels run
    {"syncs", 0},              // cuStreamSynchronize calls
    {"captured", 0},           // operations recorded during capture
    {"graph_launches", 0},     // cuGraphLaunch calls
    {"graph_updates", 0},      // cuGraphExecUpdate_v2 calls that updated
    {"update_failures", 0},    // cuGraphExecUpdate_v2 calls refused
    {"capture_errors", 0},     // calls rejected because the stream captured
    {"live_allocs", 0},        // device allocations not freed
    {"live_graphs", 0},        // instantiated graphs not destroyed
    {"allocations", 0},        // device allocations made
    {"module_loads", 0},       // cuModuleLoadDataEx calls
    {"shared_opt_ins", 0},     // cuFuncSetAttribute calls
    {"dependent_launches", 0}, // cuLaunchKernelEx with programmatic
                               // stream serialization
    {"heuristics", 0},         // cublasLtMatmulAlgoGetHeuristic calls
    {"handles", 0},            // cublasLtCreate calls
    {"prefetches", 0},         // cuMemPrefetchAsync_v2 calls
    {"advise_host", 0},        // cuMemAdvise_v2: preferred location host
    {"advise_unset", 0},       // cuMemAdvise_v2: preferred location unset
    {"products", 0},           // products computed
    {"cc_major", 9},           // compute capability
    {"cc_minor", 0},           //
    {"concurrent", 1},         // concurrent managed access
    {"fail_instantiate", 0},
    {"fail_update", 0},       // cuGraphExecUpdate_v2 refuses every update
    {"unsupported_m", 0},     // a product with this cuBLASLt m is unsupported
    {"no_pointer_arrays", 0}, // cuBLASLt without pointer-array batches
    {"deferred", 0},          // stream work waits until something synchronizes
    {"pending", 0},           // operations waiting so
    {"static_shared", 0},     // every kernel's static shared memory (bytes)
};

static long *var(const char *name) {
  for (size_t i = 0; i < sizeof(Vars) / sizeof(Vars[0]); ++i)
    if (strcmp(Vars[i].name, name) == 0)
      return &Vars[i].value;
  abort();
}

long fake_cuda_get(const char *name) { return *var(name); }
void fake_cuda_set(const char *name, long value) { *var(name) = value; }

void fake_cuda_register_kernel(const char *name, FakeKernel fn, int numParams,
                               const size_t *sizes) {
  KernelInfo *k = &Kernels[NumKernels++];
  strncpy(k->name, name, sizeof(k->name) - 1);
  k->fn = fn;
  k->numParams = numParams;
  memcpy(k->sizes, sizes, (size_t)numParams * sizeof(size_t));
}

/// The list of grid-dependent kernels every module defines (runtime/
/// mlxrt_abi.h), or none when `bytes` is 0.
static char DependentKernels[256];
static size_t DependentKernelsBytes;
void fake_cuda_set_dependent_kernels(const char *names, size_t bytes) {
  if (bytes > sizeof(DependentKernels))
    bytes = 0;
  memcpy(DependentKernels, names, bytes);
  DependentKernelsBytes = bytes;
}

/// The first bytes of the image each cuModuleLoadDataEx got, last first.
static char LastImage[64];
const char *fake_cuda_last_image(void) { return LastImage; }

//===----------------------------------------------------------------------===//
// Streams, capture and graphs
//===----------------------------------------------------------------------===//

typedef enum { NODE_KERNEL, NODE_COPY, NODE_GEMM, NODE_EVENT } NodeKind;

typedef struct {
  int transA, transB;
  int64_t rows[3], cols[3], ld[3], stride[3];
  int32_t batch;
  int pointers; ///< a, b and c are arrays of `batch` matrix addresses.
} Gemm;

typedef struct {
  NodeKind kind;
  KernelInfo *kernel;
  unsigned char params[8][16];
  void *dst;
  const void *src;
  size_t bytes;
  Gemm gemm;
  float alpha, beta;
  const float *a, *b;
  float *c, *d;
} Node;

typedef struct {
  Node *nodes;
  int count;
} Graph;

static void trace(const char *line, int length);

static bool Capturing, Invalidated;
static Graph Recording;

static void runNode(const Node *n);

static CUresult record(const Node *n) {
  Recording.nodes =
      realloc(Recording.nodes, (size_t)(Recording.count + 1) * sizeof(Node));
  Recording.nodes[Recording.count++] = *n;
  ++*var("captured");
  return OK;
}

/// The stream's work not yet run (deferred mode).
static Node *Pending;
static int NumPending, CapPending;

static void setPending(int n) {
  NumPending = n;
  *var("pending") = n;
}

/// Runs the first `n` waiting operations.
static void runPending(int n) {
  for (int i = 0; i < n; ++i)
    runNode(&Pending[i]);
  memmove(Pending, Pending + n, (size_t)(NumPending - n) * sizeof(Node));
  setPending(NumPending - n);
}

static void drain(void) { runPending(NumPending); }

/// Enqueues: runs now, records while capturing, or waits (deferred).
static CUresult enqueue(const Node *n) {
  if (Capturing)
    return record(n);
  if (!*var("deferred")) {
    runNode(n);
    return OK;
  }
  if (NumPending == CapPending) {
    CapPending = CapPending ? 2 * CapPending : 16;
    Pending = realloc(Pending, (size_t)CapPending * sizeof(Node));
  }
  Pending[NumPending] = *n;
  setPending(NumPending + 1);
  return OK;
}

/// What the real driver refuses on a capturing stream.
static CUresult refuseWhileCapturing(void) {
  if (!Capturing)
    return OK;
  Invalidated = true;
  ++*var("capture_errors");
  return CAPTURE_UNSUPPORTED;
}

CUresult cuStreamBeginCapture_v2(void *stream, int mode) {
  (void)stream;
  if (mode != 2 || Capturing) // Only relaxed captures are expected.
    return INVALID_VALUE;
  Capturing = true;
  Invalidated = false;
  trace("begin capture", 13);
  Recording.nodes = NULL;
  Recording.count = 0;
  return OK;
}

CUresult cuStreamEndCapture(void *stream, Graph **graph) {
  (void)stream;
  Capturing = false;
  if (Invalidated) {
    free(Recording.nodes);
    *graph = NULL;
    return CAPTURE_INVALIDATED;
  }
  *graph = malloc(sizeof(Graph));
  **graph = Recording;
  return OK;
}

CUresult cuGraphInstantiateWithFlags(Graph **exec, Graph *graph,
                                     unsigned long long flags) {
  (void)flags;
  if (*var("fail_instantiate"))
    return INVALID_VALUE;
  *exec = malloc(sizeof(Graph));
  ++*var("live_graphs");
  (*exec)->count = graph->count;
  (*exec)->nodes = malloc((size_t)graph->count * sizeof(Node) + 1);
  memcpy((*exec)->nodes, graph->nodes, (size_t)graph->count * sizeof(Node));
  return OK;
}

/// Takes `graph`'s parameters when its nodes are those of `exec` (kinds and
/// kernels), as the real driver updates parameters and refuses a change of
/// topology.
CUresult cuGraphExecUpdate_v2(Graph *exec, Graph *graph, void *info) {
  (void)info;
  bool same = exec->count == graph->count && !*var("fail_update");
  for (int i = 0; same && i < exec->count; ++i)
    same = exec->nodes[i].kind == graph->nodes[i].kind &&
           exec->nodes[i].kernel == graph->nodes[i].kernel;
  if (!same) {
    ++*var("update_failures");
    return GRAPH_EXEC_UPDATE_FAILURE;
  }
  memcpy(exec->nodes, graph->nodes, (size_t)graph->count * sizeof(Node));
  ++*var("graph_updates");
  trace("graph update", 12);
  return OK;
}

/// The nodes are the recorded operations (handles: their addresses).
CUresult cuGraphGetNodes(Graph *graph, Node **nodes, size_t *count) {
  if (nodes)
    for (size_t i = 0; i < *count && i < (size_t)graph->count; ++i)
      nodes[i] = &graph->nodes[i];
  *count = (size_t)graph->count;
  return OK;
}

/// CUgraphNodeType: kernels (a product is cuBLASLt's kernel) 0, copies 1,
/// event records 7.
CUresult cuGraphNodeGetType(const Node *node, int *type) {
  *type = node->kind == NODE_COPY ? 1 : node->kind == NODE_EVENT ? 7 : 0;
  return OK;
}

CUresult cuGraphLaunch(Graph *exec, void *stream) {
  (void)stream;
  if (Capturing)
    return refuseWhileCapturing();
  ++*var("graph_launches");
  trace("graph launch", 12);
  for (int i = 0; i < exec->count; ++i)
    enqueue(&exec->nodes[i]);
  return OK;
}

static CUresult destroyGraph(Graph *g) {
  if (g)
    free(g->nodes);
  free(g);
  return OK;
}

CUresult cuGraphExecDestroy(Graph *exec) {
  if (exec)
    --*var("live_graphs");
  return destroyGraph(exec);
}
CUresult cuGraphDestroy(Graph *graph) { return destroyGraph(graph); }

//===----------------------------------------------------------------------===//
// The driver API the runtime resolves
//===----------------------------------------------------------------------===//

/// For executables run against the fake ($MLXRT_LIBCUDA): $FAKE_CUDA_CC
/// ("86") sets the compute capability, $FAKE_CUDA_TRACE names a file that
/// gets one line per module image loaded ("ELF" for a cubin, else the
/// image's first line).
static void trace(const char *line, int length) {
  const char *path = getenv("FAKE_CUDA_TRACE");
  FILE *f = path ? fopen(path, "a") : NULL;
  if (!f)
    return;
  fprintf(f, "%.*s\n", length, line);
  fclose(f);
}

static void traceImage(const void *image) {
  const char *text = image;
  if (memcmp(text,
             "\x7f"
             "ELF",
             4) == 0) {
    trace("ELF", 3);
    return;
  }
  char line[256];
  snprintf(line, sizeof(line), "text: %.*s", (int)strcspn(text, "\n"), text);
  trace(line, (int)strlen(line));
}

CUresult cuInit(unsigned flags) {
  if (getenv("FAKE_CUDA_DEFERRED"))
    *var("deferred") = 1;
  const char *cc = getenv("FAKE_CUDA_CC");
  if (cc && strlen(cc) >= 2) {
    *var("cc_major") = atoi(cc) / 10;
    *var("cc_minor") = atoi(cc) % 10;
  }
  return flags ? INVALID_VALUE : OK;
}
CUresult cuDriverGetVersion(int *v) {
  *v = 13000;
  return OK;
}
CUresult cuGetErrorName(CUresult e, const char **s) {
  *s = e == CAPTURE_UNSUPPORTED   ? "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"
       : e == CAPTURE_INVALIDATED ? "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"
       : e == INVALID_VALUE       ? "CUDA_ERROR_INVALID_VALUE"
       : e == NOT_FOUND           ? "CUDA_ERROR_NOT_FOUND"
                                  : "CUDA_ERROR_UNKNOWN";
  return OK;
}
CUresult cuGetErrorString(CUresult e, const char **s) {
  (void)e;
  *s = "fake";
  return OK;
}
CUresult cuDeviceGetCount(int *n) {
  *n = 1;
  return OK;
}
CUresult cuDeviceGet(int *d, int ordinal) {
  *d = ordinal;
  return ordinal == 0 ? OK : INVALID_VALUE;
}
CUresult cuDeviceGetName(char *name, int len, int dev) {
  (void)dev;
  strncpy(name, "Fake GPU", (size_t)len);
  return OK;
}
CUresult cuDeviceGetAttribute(int *v, int attr, int dev) {
  (void)dev;
  *v = attr == 75   ? (int)*var("cc_major")
       : attr == 76 ? (int)*var("cc_minor")
       : attr == 83 ? 1
       : attr == 89 ? (int)*var("concurrent")
                    : 0;
  return OK;
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev) {
  (void)dev;
  *ctx = (void *)0x1;
  return OK;
}
CUresult cuDevicePrimaryCtxRelease_v2(int dev) {
  (void)dev;
  return OK;
}
CUresult cuCtxSetCurrent(void *ctx) {
  (void)ctx;
  return OK;
}
CUresult cuCtxSynchronize(void) {
  CUresult r = refuseWhileCapturing();
  if (r == OK)
    drain();
  return r;
}

CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned n,
                            int *options, void **values) {
  (void)n, (void)options, (void)values;
  if (refuseWhileCapturing())
    return CAPTURE_UNSUPPORTED;
  ++*var("module_loads");
  // A new module's functions start with the default attributes.
  for (int i = 0; i < NumKernels; ++i)
    Kernels[i].sharedOptIn = 0;
  memset(LastImage, 0, sizeof(LastImage));
  memcpy(LastImage, image, 16);
  traceImage(image);
  if (memcmp(image, "BADCUBIN", 8) == 0)
    return NO_BINARY_FOR_GPU;
  *module = (void *)0x2;
  return OK;
}
CUresult cuModuleUnload(void *module) {
  (void)module;
  return OK;
}
CUresult cuModuleGetFunction(KernelInfo **fn, void *module, const char *name) {
  (void)module;
  for (int i = 0; i < NumKernels; ++i)
    if (strcmp(Kernels[i].name, name) == 0) {
      *fn = &Kernels[i];
      return OK;
    }
  return NOT_FOUND;
}
CUresult cuLaunchKernel(KernelInfo *f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                        void *stream, void **params, void **extra) {
  (void)gx, (void)gy, (void)gz, (void)by, (void)bz, (void)stream;
  (void)extra;
  if (bx > 1024)
    return INVALID_VALUE;
  // As the driver: over 48 KB of shared memory, static and dynamic, needs
  // the opt-in for the dynamic part.
  if ((long)smem + *var("static_shared") > 48 * 1024 &&
      (int)smem > f->sharedOptIn)
    return INVALID_VALUE;
  // Parameters are copied at the launch (or its capture), as CUDA does.
  Node n = {.kind = NODE_KERNEL, .kernel = f};
  for (int i = 0; i < f->numParams; ++i)
    memcpy(n.params[i], params[i], f->sizes[i]);
  return enqueue(&n);
}
/// CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES (1): the static shared memory.
CUresult cuFuncGetAttribute(int *value, int attribute, KernelInfo *f) {
  (void)f;
  if (attribute != 1)
    return INVALID_VALUE;
  *value = (int)*var("static_shared");
  return OK;
}
/// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (8), up to an H100's
/// 227 KB a block.
CUresult cuFuncSetAttribute(KernelInfo *f, int attribute, int value) {
  if (attribute != 8 || value < 0 || value > 227 * 1024)
    return INVALID_VALUE;
  ++*var("shared_opt_ins");
  f->sharedOptIn = value;
  return OK;
}
CUresult cuModuleGetGlobal_v2(uintptr_t *ptr, size_t *bytes, void *module,
                              const char *name) {
  (void)module;
  if (!DependentKernelsBytes || strcmp(name, "mlxc_grid_dependent_kernels"))
    return NOT_FOUND;
  *ptr = (uintptr_t)DependentKernels; // Device memory is host memory here.
  *bytes = DependentKernelsBytes;
  return OK;
}
/// cuda.h's layout of cuLaunchKernelEx's configuration.
typedef struct {
  int id;
  char pad[4];
  union {
    char bytes[64];
    int programmaticStreamSerializationAllowed;
  } value;
} LaunchAttribute;
typedef struct {
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  void *hStream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
} LaunchConfig;
CUresult cuLaunchKernelEx(const LaunchConfig *c, KernelInfo *f, void **params,
                          void **extra) {
  for (unsigned i = 0; i < c->numAttrs; ++i)
    if (c->attrs[i].id == 6 &&
        c->attrs[i].value.programmaticStreamSerializationAllowed == 1)
      ++*var("dependent_launches");
  return cuLaunchKernel(f, c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX,
                        c->blockDimY, c->blockDimZ, c->sharedMemBytes,
                        c->hStream, params, extra);
}
/// The stream of the program's work, and the non-blocking one.
#define FAKE_STREAM ((void *)0x3)
#define FAKE_READ_STREAM ((void *)0x5)
CUresult cuStreamCreate(void **stream, unsigned flags) {
  *stream = flags & 1 ? FAKE_READ_STREAM : FAKE_STREAM;
  return OK;
}
CUresult cuStreamSynchronize(void *stream) {
  if (stream == FAKE_READ_STREAM)
    return OK;
  ++*var("syncs");
  CUresult r = refuseWhileCapturing();
  if (r == OK)
    drain();
  return r;
}
CUresult cuStreamDestroy_v2(void *stream) {
  (void)stream;
  return OK;
}
/// Live allocations: a copy from anywhere else is from pageable host memory.
static struct {
  uintptr_t ptr;
  size_t bytes;
} Allocs[1024];

static bool isDeviceMemory(uintptr_t p) {
  for (size_t i = 0; i < sizeof(Allocs) / sizeof(Allocs[0]); ++i)
    if (Allocs[i].ptr && p >= Allocs[i].ptr &&
        p < Allocs[i].ptr + Allocs[i].bytes)
      return true;
  return false;
}

static CUresult allocate(uintptr_t *ptr, size_t bytes) {
  void *p = NULL;
  if (posix_memalign(&p, 256, bytes ? bytes : 1))
    return 2;
  memset(p, 0xA5, bytes); // Not zero: tests must not rely on fresh memory.
  *ptr = (uintptr_t)p;
  for (size_t i = 0; i < sizeof(Allocs) / sizeof(Allocs[0]); ++i)
    if (!Allocs[i].ptr) {
      Allocs[i].ptr = *ptr;
      Allocs[i].bytes = bytes ? bytes : 1;
      break;
    }
  ++*var("live_allocs");
  ++*var("allocations");
  return OK;
}
CUresult cuMemAllocManaged(uintptr_t *ptr, size_t bytes, unsigned flags) {
  (void)flags;
  return allocate(ptr, bytes);
}
CUresult cuMemAlloc_v2(uintptr_t *ptr, size_t bytes) {
  return allocate(ptr, bytes);
}
CUresult cuMemFree_v2(uintptr_t ptr) {
  if (refuseWhileCapturing())
    return CAPTURE_UNSUPPORTED;
  drain(); // As the driver, which waits for the device's work.
  for (size_t i = 0; i < sizeof(Allocs) / sizeof(Allocs[0]); ++i)
    if (Allocs[i].ptr == ptr)
      Allocs[i].ptr = 0;
  free((void *)ptr);
  --*var("live_allocs");
  return OK;
}
CUresult cuMemGetInfo_v2(size_t *freeBytes, size_t *total) {
  *freeBytes = (size_t)1 << 34;
  *total = (size_t)1 << 35;
  return OK;
}
// The synchronous copies run on the legacy stream, which waits for the
// program's (blocking) stream.
CUresult cuMemcpyHtoD_v2(uintptr_t dst, const void *src, size_t bytes) {
  if (refuseWhileCapturing())
    return CAPTURE_UNSUPPORTED;
  drain();
  memcpy((void *)dst, src, bytes);
  return OK;
}
CUresult cuMemcpyDtoH_v2(void *dst, uintptr_t src, size_t bytes) {
  if (refuseWhileCapturing())
    return CAPTURE_UNSUPPORTED;
  drain();
  memcpy(dst, (const void *)src, bytes);
  return OK;
}
CUresult cuMemcpyDtoHAsync_v2(void *dst, uintptr_t src, size_t bytes,
                              void *stream) {
  if (stream != FAKE_READ_STREAM) {
    Node n = {.kind = NODE_COPY,
              .dst = dst,
              .src = (const void *)src,
              .bytes = bytes};
    return enqueue(&n);
  }
  memcpy(dst, (const void *)src, bytes);
  return OK;
}
CUresult cuMemcpyAsync(uintptr_t dst, uintptr_t src, size_t bytes,
                       void *stream) {
  (void)stream;
  // Strict: pageable host memory is not captured.
  if (Capturing && !isDeviceMemory(src))
    return refuseWhileCapturing();
  Node n = {.kind = NODE_COPY,
            .dst = (void *)dst,
            .src = (const void *)src,
            .bytes = bytes};
  return enqueue(&n);
}
CUresult cuEventCreate(void **event, unsigned flags) {
  (void)flags;
  *event = malloc(1);
  return OK;
}
CUresult cuEventRecord(void *event, void *stream) {
  (void)stream;
  CUresult r = refuseWhileCapturing();
  Node n = {.kind = NODE_EVENT, .dst = event};
  if (r == OK && *var("deferred"))
    enqueue(&n);
  return r;
}
/// Runs the waiting operations up to the event's last record.
CUresult cuEventSynchronize(void *event) {
  CUresult r = refuseWhileCapturing();
  for (int i = NumPending; r == OK && i-- > 0;)
    if (Pending[i].kind == NODE_EVENT && Pending[i].dst == event) {
      runPending(i + 1);
      break;
    }
  return r;
}
CUresult cuEventDestroy_v2(void *event) {
  free(event);
  return OK;
}
CUresult cuEventElapsedTime_v2(float *ms, void *start, void *end) {
  (void)start, (void)end;
  *ms = 0.25f;
  return OK;
}
typedef struct {
  int type, id;
} Location;
CUresult cuMemPrefetchAsync_v2(uintptr_t ptr, size_t bytes, Location to,
                               unsigned flags, void *stream) {
  (void)ptr, (void)bytes, (void)to, (void)flags, (void)stream;
  CUresult r = refuseWhileCapturing();
  if (r == OK)
    ++*var("prefetches");
  return r;
}

CUresult cuMemAdvise_v2(uintptr_t ptr, size_t bytes, int advice, Location loc) {
  (void)ptr, (void)bytes;
  if (advice == 3 && loc.type == 2) // CU_MEM_LOCATION_TYPE_HOST
    ++*var("advise_host");
  if (advice == 4)
    ++*var("advise_unset");
  return OK;
}

//===----------------------------------------------------------------------===//
// cuBLASLt
//===----------------------------------------------------------------------===//

typedef struct {
  int transA, transB, computeType, scaleType;
} Desc;
typedef struct {
  int type;
  int64_t rows, cols, ld, stride;
  int32_t batch;
  uint32_t mode; ///< 1: pointer arrays.
} Layout;

int cublasLtCreate(void **handle) {
  *handle = malloc(1);
  ++*var("handles");
  return 0;
}
int cublasLtDestroy(void *handle) {
  free(handle);
  return 0;
}
const char *cublasLtGetStatusName(int status) {
  return status == 15 ? "CUBLAS_STATUS_NOT_SUPPORTED" : "CUBLAS_STATUS_?";
}
const char *cublasLtGetStatusString(int status) {
  (void)status;
  return "fake status";
}
int cublasLtMatmulDescCreate(Desc **d, int computeType, int scaleType) {
  *d = calloc(1, sizeof(Desc));
  (*d)->computeType = computeType;
  (*d)->scaleType = scaleType;
  return 0;
}
int cublasLtMatmulDescDestroy(Desc *d) {
  free(d);
  return 0;
}
int cublasLtMatmulDescSetAttribute(Desc *d, int attr, const void *buf,
                                   size_t size) {
  if (size != 4)
    return 7;
  if (attr == 3)
    memcpy(&d->transA, buf, 4);
  else if (attr == 4)
    memcpy(&d->transB, buf, 4);
  else
    return 7;
  return 0;
}
int cublasLtMatrixLayoutCreate(Layout **l, int type, uint64_t rows,
                               uint64_t cols, int64_t ld) {
  *l = calloc(1, sizeof(Layout));
  **l = (Layout){type, (int64_t)rows, (int64_t)cols, ld, 0, 1, 0};
  return ld < (int64_t)rows ? 7 : 0; // Column-major: ld >= rows.
}
int cublasLtMatrixLayoutDestroy(Layout *l) {
  free(l);
  return 0;
}
int cublasLtMatrixLayoutSetAttribute(Layout *l, int attr, const void *buf,
                                     size_t size) {
  if (attr == 5 && size == 4)
    memcpy(&l->batch, buf, 4);
  else if (attr == 6 && size == 8)
    memcpy(&l->stride, buf, 8);
  else if (attr == 8 && size == 4 && !*var("no_pointer_arrays"))
    memcpy(&l->mode, buf, 4); // A cuBLASLt before 12.9 has no batch mode.
  else
    return 7;
  return 0;
}
int cublasLtMatmulPreferenceCreate(void **p) {
  *p = malloc(1);
  return 0;
}
int cublasLtMatmulPreferenceDestroy(void *p) {
  free(p);
  return 0;
}
int cublasLtMatmulPreferenceSetAttribute(void *p, int attr, const void *buf,
                                         size_t size) {
  (void)p, (void)buf;
  // Workspace bytes are uint64_t, alignments uint32_t.
  return (attr == 1 && size == 8) || (attr >= 5 && attr <= 8 && size == 4) ? 0
                                                                           : 7;
}
typedef struct {
  uint64_t algo[8];
  size_t workspaceSize;
  int state;
  float waves;
  int reserved[4];
} Heuristic;
int cublasLtMatmulAlgoGetHeuristic(void *h, Desc *d, Layout *a, Layout *b,
                                   Layout *c, Layout *dd, void *pref, int req,
                                   Heuristic *results, int *count) {
  (void)h, (void)d, (void)b, (void)dd, (void)pref;
  ++*var("heuristics");
  if (req < 1)
    return 7;
  // cuBLASLt's m is the rows of C.
  if (c->rows == *var("unsupported_m"))
    return 15;
  memset(results, 0, sizeof(*results));
  results->workspaceSize = 1024;
  results->algo[0] = (uint64_t)a->type;
  *count = 1;
  return 0;
}

static void gemm(const Gemm *g, const float *a, const float *b, float *c,
                 float alpha, float beta) {
  int64_t m = g->rows[2], n = g->cols[2];
  int64_t k = g->transA ? g->rows[0] : g->cols[0];
  for (int32_t bi = 0; bi < g->batch; ++bi) {
    // Pointer arrays are read when the product runs, as on a GPU.
    const float *ab =
        g->pointers ? ((const float *const *)a)[bi] : a + bi * g->stride[0];
    const float *bb =
        g->pointers ? ((const float *const *)b)[bi] : b + bi * g->stride[1];
    float *cb = g->pointers ? ((float *const *)c)[bi] : c + bi * g->stride[2];
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t l = 0; l < k; ++l) {
          float x = g->transA ? ab[l + i * g->ld[0]] : ab[i + l * g->ld[0]];
          float y = g->transB ? bb[j + l * g->ld[1]] : bb[l + j * g->ld[1]];
          sum += (double)x * y;
        }
        float *out = &cb[i + j * g->ld[2]];
        *out = (float)(alpha * sum + (beta != 0 ? beta * *out : 0));
      }
  }
  ++*var("products");
  char line[128];
  snprintf(line, sizeof(line), "gemm %lld x %lld x %lld, batch %d%s",
           (long long)m, (long long)n, (long long)k, (int)g->batch,
           g->pointers ? " (pointer arrays)" : "");
  trace(line, (int)strlen(line));
}

int cublasLtMatmul(void *h, Desc *d, const float *alpha, const float *a,
                   Layout *la, const float *b, Layout *lb, const float *beta,
                   const float *c, Layout *lc, float *dd, Layout *ld,
                   const void *algo, void *workspace, size_t wsSize,
                   void *stream) {
  (void)h, (void)algo, (void)stream, (void)ld;
  if (la->type != 0 || lb->type != 0 || lc->type != 0 || c != dd ||
      (wsSize && !workspace))
    return 15; // Only float32, in place, as the runtime calls it.
  Node n = {.kind = NODE_GEMM, .alpha = *alpha, .beta = *beta};
  Layout *ls[3] = {la, lb, lc};
  for (int i = 0; i < 3; ++i) {
    n.gemm.rows[i] = ls[i]->rows;
    n.gemm.cols[i] = ls[i]->cols;
    n.gemm.ld[i] = ls[i]->ld;
    n.gemm.stride[i] = ls[i]->stride;
  }
  n.gemm.transA = d->transA;
  n.gemm.transB = d->transB;
  n.gemm.batch = lc->batch;
  n.gemm.pointers = lc->mode == 1;
  if (la->mode != lc->mode || lb->mode != lc->mode)
    return 15; // One batch mode for all operands, as the runtime asks.
  n.a = a;
  n.b = b;
  n.c = dd;
  return enqueue(&n) ? 13 : 0;
}

static void runNode(const Node *n) {
  switch (n->kind) {
  case NODE_KERNEL: {
    void *params[8];
    for (int i = 0; i < n->kernel->numParams; ++i)
      params[i] = (void *)(uintptr_t)n->params[i];
    n->kernel->fn(params);
    ++*var("launches");
    break;
  }
  case NODE_COPY:
    memcpy(n->dst, n->src, n->bytes);
    break;
  case NODE_GEMM:
    gemm(&n->gemm, n->a, n->b, n->c, n->alpha, n->beta);
    break;
  case NODE_EVENT:
    break;
  }
}
