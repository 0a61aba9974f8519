//===- cublaslt.c - Matrix products through cuBLASLt -------------*- C -*-===//
//
// The CUDA variant of a program calls mlxrt_matmul for every matrix product
// (mlxc's mlxc-matmul-to-runtime pass). libcublasLt is opened with dlopen on
// the first product, like the driver, so that programs without products, and
// every program on machines without CUDA, never need it. Each device gets
// one cuBLASLt handle, one workspace and a cache of plans: the descriptors,
// layouts and heuristic algorithm of each distinct product shape, made on
// the first run so that later runs (and graph capture) only enqueue
// cublasLtMatmul on the device's stream.
//
// Products are row-major; cuBLASLt is column-major. A row-major m x n matrix
// is its column-major transpose, so C = A B is computed as C^T = B^T A^T:
// cuBLASLt's A is our B, its B our A, and its m and n are our n and m.
//
//===----------------------------------------------------------------------===//

#include "cuda_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// The library (values as in cublasLt.h, cublas_api.h and library_types.h of
// CUDA 12 and 13)
//===----------------------------------------------------------------------===//

typedef int cublasStatus_t;
typedef struct cublasLtContext *cublasLtHandle_t;
typedef struct cublasLtMatmulDescOpaque *cublasLtMatmulDesc_t;
typedef struct cublasLtMatrixLayoutOpaque *cublasLtMatrixLayout_t;
typedef struct cublasLtMatmulPreferenceOpaque *cublasLtMatmulPreference_t;

typedef struct {
  uint64_t data[8];
} cublasLtMatmulAlgo_t;

typedef struct {
  cublasLtMatmulAlgo_t algo;
  size_t workspaceSize;
  cublasStatus_t state;
  float wavesCount;
  int reserved[4];
} cublasLtMatmulHeuristicResult_t;

enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_COMPUTE_32F = 68,
  CUDA_R_32F = 0,
  CUDA_R_16F = 2,
  CUDA_R_16BF = 14,
  CUBLAS_OP_N = 0,
  CUBLAS_OP_T = 1,
  CUBLASLT_MATMUL_DESC_TRANSA = 3,
  CUBLASLT_MATMUL_DESC_TRANSB = 4,
  CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5,
  CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6,
  CUBLASLT_MATRIX_LAYOUT_BATCH_MODE = 8,
  CUBLASLT_BATCH_MODE_POINTER_ARRAY = 1,
  CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES = 5,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES = 6,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES = 7,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES = 8,
};

#define MLXRT_CUBLASLT_FUNCTIONS(X)                                            \
  X(cublasStatus_t, cublasLtCreate, (cublasLtHandle_t * handle))               \
  X(cublasStatus_t, cublasLtDestroy, (cublasLtHandle_t handle))                \
  X(const char *, cublasLtGetStatusName, (cublasStatus_t status))              \
  X(const char *, cublasLtGetStatusString, (cublasStatus_t status))            \
  X(cublasStatus_t, cublasLtMatmulDescCreate,                                  \
    (cublasLtMatmulDesc_t * desc, int computeType, int scaleType))             \
  X(cublasStatus_t, cublasLtMatmulDescDestroy, (cublasLtMatmulDesc_t desc))    \
  X(cublasStatus_t, cublasLtMatmulDescSetAttribute,                            \
    (cublasLtMatmulDesc_t desc, int attr, const void *buf, size_t size))       \
  X(cublasStatus_t, cublasLtMatrixLayoutCreate,                                \
    (cublasLtMatrixLayout_t * layout, int type, uint64_t rows, uint64_t cols,  \
     int64_t ld))                                                              \
  X(cublasStatus_t, cublasLtMatrixLayoutDestroy,                               \
    (cublasLtMatrixLayout_t layout))                                           \
  X(cublasStatus_t, cublasLtMatrixLayoutSetAttribute,                          \
    (cublasLtMatrixLayout_t layout, int attr, const void *buf, size_t size))   \
  X(cublasStatus_t, cublasLtMatmulPreferenceCreate,                            \
    (cublasLtMatmulPreference_t * pref))                                       \
  X(cublasStatus_t, cublasLtMatmulPreferenceDestroy,                           \
    (cublasLtMatmulPreference_t pref))                                         \
  X(cublasStatus_t, cublasLtMatmulPreferenceSetAttribute,                      \
    (cublasLtMatmulPreference_t pref, int attr, const void *buf, size_t size)) \
  X(cublasStatus_t, cublasLtMatmulAlgoGetHeuristic,                            \
    (cublasLtHandle_t handle, cublasLtMatmulDesc_t desc,                       \
     cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,                       \
     cublasLtMatrixLayout_t c, cublasLtMatrixLayout_t d,                       \
     cublasLtMatmulPreference_t pref, int requested,                           \
     cublasLtMatmulHeuristicResult_t *results, int *count))                    \
  X(cublasStatus_t, cublasLtMatmul,                                            \
    (cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, const void *alpha,    \
     const void *a, cublasLtMatrixLayout_t aDesc, const void *b,               \
     cublasLtMatrixLayout_t bDesc, const void *beta, const void *c,            \
     cublasLtMatrixLayout_t cDesc, void *d, cublasLtMatrixLayout_t dDesc,      \
     const cublasLtMatmulAlgo_t *algo, void *workspace, size_t workspaceSize,  \
     CUstream stream))

typedef struct mlxrt_cublaslt {
#define MLXRT_CUBLASLT_FIELD(ret, name, params) ret(*name) params;
  MLXRT_CUBLASLT_FUNCTIONS(MLXRT_CUBLASLT_FIELD)
#undef MLXRT_CUBLASLT_FIELD
} mlxrt_cublaslt;

static pthread_mutex_t LibLock = PTHREAD_MUTEX_INITIALIZER;
static mlxrt_cublaslt Lib;
static bool LibReady;

/// dlopen + dlsym of one candidate; false with the reason.
static bool loadLibrary(const char *path, mlxrt_cublaslt *lib, char *reason,
                        size_t size) {
  memset(lib, 0, sizeof(*lib));
  dlerror();
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    snprintf(reason, size, "%.400s", why ? why : path);
    return false;
  }
#define MLXRT_CUBLASLT_RESOLVE(ret, name, params)                              \
  *(void **)(&lib->name) = dlsym(handle, #name);                               \
  if (!lib->name) {                                                            \
    snprintf(reason, size, "%.300s has no %s", path, #name);                   \
    dlclose(handle);                                                           \
    return false;                                                              \
  }
  MLXRT_CUBLASLT_FUNCTIONS(MLXRT_CUBLASLT_RESOLVE)
#undef MLXRT_CUBLASLT_RESOLVE
  return true;
}

const struct mlxrt_cublaslt *mlxrt_cublaslt_load_from(const char *path,
                                                      const char *cudaHome,
                                                      char *reason,
                                                      size_t size) {
  char scratch[512];
  if (!reason || size == 0) {
    reason = scratch;
    size = sizeof(scratch);
  }
  pthread_mutex_lock(&LibLock);
  if (!LibReady) {
    // `path` alone when set; else the sonames of CUDA 13 and 12 on the
    // loader's path, then the toolkit's lib64 (often not on it).
    char candidates[8][256];
    size_t n = 0;
    if (path && *path) {
      mlxrt_strlcpy(candidates[n++], path, sizeof(candidates[0]));
    } else {
      const char *names[] = {"libcublasLt.so.13", "libcublasLt.so.12",
                             "libcublasLt.so"};
      for (size_t i = 0; i < 3; ++i)
        mlxrt_strlcpy(candidates[n++], names[i], sizeof(candidates[0]));
      for (size_t i = 0; i < 2; ++i)
        snprintf(candidates[n++], sizeof(candidates[0]), "%s/lib64/%s",
                 cudaHome && *cudaHome ? cudaHome : "/usr/local/cuda",
                 names[i]);
    }
    char first[512] = "";
    for (size_t i = 0; i < n && !LibReady; ++i) {
      mlxrt_cublaslt lib;
      char why[512];
      if (loadLibrary(candidates[i], &lib, why, sizeof(why))) {
        Lib = lib;
        LibReady = true;
      } else if (!first[0]) {
        mlxrt_strlcpy(first, why, sizeof(first));
      }
    }
    if (!LibReady)
      snprintf(reason, size, "%s%s", first,
               n > 1 ? " (also tried the CUDA 12 soname and the toolkit's "
                       "lib64; set MLXRT_LIBCUBLASLT, or the instance's "
                       "libcublaslt option)"
                     : "");
  }
  const mlxrt_cublaslt *result = LibReady ? &Lib : NULL;
  pthread_mutex_unlock(&LibLock);
  return result;
}

//===----------------------------------------------------------------------===//
// Arguments and plans
//===----------------------------------------------------------------------===//

static bool isMatmulDtype(int32_t dtype) {
  return dtype == MLXRT_DTYPE_FLOAT32 || dtype == MLXRT_DTYPE_FLOAT16 ||
         dtype == MLXRT_DTYPE_BFLOAT16;
}

static int cudaType(int32_t dtype) {
  return dtype == MLXRT_DTYPE_FLOAT16    ? CUDA_R_16F
         : dtype == MLXRT_DTYPE_BFLOAT16 ? CUDA_R_16BF
                                         : CUDA_R_32F;
}

/// The bytes a strided operand spans: (batch - 1) * stride + (rows - 1) * ld
/// + cols elements.
static uint64_t spanBytes(int64_t batch, int64_t stride, int64_t rows,
                          int64_t ld, int64_t cols, size_t elem) {
  return ((uint64_t)(batch - 1) * (uint64_t)stride +
          (uint64_t)(rows - 1) * (uint64_t)ld + (uint64_t)cols) *
         elem;
}

bool mlxrt_matmul_validate(const mlxrt_matmul_args *p, char *msg, size_t size) {
  const int64_t limit = (int64_t)1 << 40; // Far beyond any GPU's memory.
  bool ta = p->flags & MLXRT_MATMUL_TRANSPOSE_A;
  bool tb = p->flags & MLXRT_MATMUL_TRANSPOSE_B;
  if (!isMatmulDtype(p->abDtype) ||
      !(p->cDtype == MLXRT_DTYPE_FLOAT32 || p->cDtype == p->abDtype)) {
    snprintf(msg, size,
             "unsupported dtypes %s x %s -> %s (float32, float16 or bfloat16 "
             "operands; float32 or the operands' dtype out)",
             mlxrt_dtype_name((mlxrt_dtype)p->abDtype),
             mlxrt_dtype_name((mlxrt_dtype)p->abDtype),
             mlxrt_dtype_name((mlxrt_dtype)p->cDtype));
    return false;
  }
  if (p->flags & ~(MLXRT_MATMUL_TRANSPOSE_A | MLXRT_MATMUL_TRANSPOSE_B |
                   MLXRT_MATMUL_ACCUMULATE | MLXRT_MATMUL_POINTER_ARRAYS)) {
    snprintf(msg, size, "unknown flags 0x%x", (unsigned)p->flags);
    return false;
  }
  if (p->batch < 1 || p->batch > INT32_MAX || p->m < 1 || p->m > limit ||
      p->n < 1 || p->n > limit || p->k < 1 || p->k > limit) {
    snprintf(msg, size,
             "bad sizes: batch %jd, m %jd, n %jd, k %jd (each at least 1)",
             (intmax_t)p->batch, (intmax_t)p->m, (intmax_t)p->n,
             (intmax_t)p->k);
    return false;
  }
  int64_t aCols = ta ? p->m : p->k, bCols = tb ? p->k : p->n;
  if (p->lda < aCols || p->lda > limit || p->ldb < bCols || p->ldb > limit ||
      p->ldc < p->n || p->ldc > limit) {
    snprintf(msg, size,
             "bad leading dimensions: lda %jd (at least %jd), ldb %jd (at "
             "least %jd), ldc %jd (at least %jd)",
             (intmax_t)p->lda, (intmax_t)aCols, (intmax_t)p->ldb,
             (intmax_t)bCols, (intmax_t)p->ldc, (intmax_t)p->n);
    return false;
  }
  bool pointers = p->flags & MLXRT_MATMUL_POINTER_ARRAYS;
  if (pointers && (p->batch > MLXRT_MATMUL_MAX_POINTERS || p->strideA ||
                   p->strideB || p->strideC)) {
    snprintf(msg, size,
             "pointer arrays of %jd matrices (at most %d) with batch strides "
             "%jd, %jd, %jd (must be 0)",
             (intmax_t)p->batch, MLXRT_MATMUL_MAX_POINTERS,
             (intmax_t)p->strideA, (intmax_t)p->strideB, (intmax_t)p->strideC);
    return false;
  }
  if (p->strideA < 0 || p->strideA > limit || p->strideB < 0 ||
      p->strideB > limit || p->strideC < 0 || p->strideC > limit ||
      (p->batch > 1 && p->strideC == 0 && !pointers)) {
    snprintf(msg, size,
             "bad batch strides: %jd, %jd, %jd (C's must be positive when "
             "batched)",
             (intmax_t)p->strideA, (intmax_t)p->strideB, (intmax_t)p->strideC);
    return false;
  }
  if (!p->a || !p->b || !p->c) {
    snprintf(msg, size, "a null operand pointer");
    return false;
  }
  return true;
}

/// The largest power of two up to 256 that divides `ptr`: cuBLASLt picks
/// algorithms for the alignment it is told.
static uint32_t alignmentOf(uint64_t ptr) {
  uint32_t align = 256;
  while (align > 1 && ptr % align)
    align /= 2;
  return align;
}

void mlxrt_matmul_make_key(const mlxrt_matmul_args *p, mlxrt_matmul_key *key) {
  memset(key, 0, sizeof(*key)); // Padding too: keys compare with memcmp.
  key->abDtype = p->abDtype;
  key->cDtype = p->cDtype;
  key->flags = p->flags;
  key->alignA = alignmentOf(p->a);
  key->alignB = alignmentOf(p->b);
  key->alignC = alignmentOf(p->c);
  key->batch = p->batch;
  key->m = p->m;
  key->n = p->n;
  key->k = p->k;
  key->lda = p->lda;
  key->ldb = p->ldb;
  key->ldc = p->ldc;
  key->strideA = p->strideA;
  key->strideB = p->strideB;
  key->strideC = p->strideC;
}

/// One product's descriptors and algorithm.
typedef struct Plan {
  mlxrt_matmul_key key;
  cublasLtMatmulDesc_t desc;
  cublasLtMatrixLayout_t a, b, c; ///< cuBLASLt's A, B and C (= D).
  cublasLtMatmulAlgo_t algo;
  size_t workspaceSize;
} Plan;

/// cuBLASLt's workspace for every product of the device (NVIDIA suggests
/// 32 MiB on Hopper; smaller GPUs just use less of it).
static const size_t WorkspaceBytes = (size_t)32 << 20;

struct mlxrt_cublaslt_state {
  const mlxrt_cublaslt *lib;
  cublasLtHandle_t handle;
  CUdeviceptr workspace;
  Plan *plans;
  size_t numPlans, capPlans;
  /// This cuBLASLt has no pointer-array products (before 12.9, or no
  /// algorithm): their matrices go one product each.
  bool noPointerArrays;
};

static void destroyPlan(const mlxrt_cublaslt *lib, Plan *plan) {
  if (plan->c)
    lib->cublasLtMatrixLayoutDestroy(plan->c);
  if (plan->b)
    lib->cublasLtMatrixLayoutDestroy(plan->b);
  if (plan->a)
    lib->cublasLtMatrixLayoutDestroy(plan->a);
  if (plan->desc)
    lib->cublasLtMatmulDescDestroy(plan->desc);
}

void mlxrt_cublaslt_release(mlxrt_cuda_device *dev) {
  struct mlxrt_cublaslt_state *s = dev->blas;
  if (!s)
    return;
  for (size_t i = 0; i < s->numPlans; ++i)
    destroyPlan(s->lib, &s->plans[i]);
  free(s->plans);
  if (s->handle)
    s->lib->cublasLtDestroy(s->handle);
  if (s->workspace)
    dev->drv->cuMemFree_v2(s->workspace);
  free(s);
  dev->blas = NULL;
}

/// Records a failed cuBLASLt call with its status; returns false.
static bool checkBlas(mlxrt_cuda_device *dev, const mlxrt_cublaslt *lib,
                      cublasStatus_t status, const char *call,
                      const char *what) {
  if (status == CUBLAS_STATUS_SUCCESS)
    return true;
  const char *name = lib->cublasLtGetStatusName(status);
  const char *text = lib->cublasLtGetStatusString(status);
  mlxrt_cuda_record(dev,
                    status == 3 /* CUBLAS_STATUS_ALLOC_FAILED */
                        ? MLXRT_ERROR_OUT_OF_MEMORY
                        : MLXRT_ERROR_DEVICE,
                    "%s for %s failed on %s: %s (%s)", call, what,
                    dev->base.description, name ? name : "cuBLAS status",
                    text ? text : "?");
  if (!name)
    snprintf(dev->error.message + strlen(dev->error.message),
             sizeof(dev->error.message) - strlen(dev->error.message), " %d",
             status);
  return false;
}

/// One heuristic query for a small float32 product. cuBLASLt sets itself up
/// at the first query of a process (80-120 ms on the H200, 2026-12-02,
/// bench/deploy/startup_probe.c), then answers in microseconds: done here,
/// when a model opens, the first call's plans are quick. Failures are left
/// to the real plans, which report them.
static void warmUp(const mlxrt_cublaslt *lib, cublasLtHandle_t handle) {
  cublasLtMatmulDesc_t desc = NULL;
  cublasLtMatrixLayout_t layout = NULL;
  cublasLtMatmulPreference_t pref = NULL;
  cublasLtMatmulHeuristicResult_t result;
  int found = 0;
  uint64_t workspace = WorkspaceBytes;
  if (lib->cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F) ==
          CUBLAS_STATUS_SUCCESS &&
      lib->cublasLtMatrixLayoutCreate(&layout, CUDA_R_32F, 16, 16, 16) ==
          CUBLAS_STATUS_SUCCESS &&
      lib->cublasLtMatmulPreferenceCreate(&pref) == CUBLAS_STATUS_SUCCESS &&
      lib->cublasLtMatmulPreferenceSetAttribute(
          pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
          sizeof(workspace)) == CUBLAS_STATUS_SUCCESS)
    lib->cublasLtMatmulAlgoGetHeuristic(handle, desc, layout, layout, layout,
                                        layout, pref, 1, &result, &found);
  if (pref)
    lib->cublasLtMatmulPreferenceDestroy(pref);
  if (layout)
    lib->cublasLtMatrixLayoutDestroy(layout);
  if (desc)
    lib->cublasLtMatmulDescDestroy(desc);
}

/// The device's cuBLASLt state, made on first use (handle and workspace).
static struct mlxrt_cublaslt_state *getState(mlxrt_cuda_device *dev) {
  if (dev->blas)
    return dev->blas;
  mlxrt_cublaslt_load_wait(dev);
  char reason[1024];
  const mlxrt_cublaslt *lib = mlxrt_cublaslt_load_from(
      dev->libcublaslt[0] ? dev->libcublaslt : NULL,
      dev->cudaHome[0] ? dev->cudaHome : NULL, reason, sizeof(reason));
  if (!lib) {
    mlxrt_cuda_record(dev, MLXRT_ERROR_DEVICE,
                      "matrix product on %s: cuBLASLt is not available: %s",
                      dev->base.description, reason);
    return NULL;
  }
  struct mlxrt_cublaslt_state *s = calloc(1, sizeof(*s));
  if (!s) {
    mlxrt_cuda_record(dev, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
    return NULL;
  }
  s->lib = lib;
  dev->blas = s;
  if (!checkBlas(dev, lib, lib->cublasLtCreate(&s->handle), "cublasLtCreate",
                 "the device") ||
      !mlxrt_cuda_check(dev,
                        dev->drv->cuMemAlloc_v2(&s->workspace, WorkspaceBytes),
                        "cuMemAlloc_v2 of cuBLASLt's workspace (%zu bytes)",
                        WorkspaceBytes)) {
    mlxrt_cublaslt_release(dev);
    return NULL;
  }
  warmUp(lib, s->handle);
  return s;
}

bool mlxrt_cublaslt_prepare(mlxrt_cuda_device *dev) {
  return getState(dev) != NULL;
}

static void *loadEarly(void *arg) {
  mlxrt_cuda_device *dev = arg;
  // Failures are left to the first product, which tries again and says why.
  mlxrt_cublaslt_load_from(dev->libcublaslt[0] ? dev->libcublaslt : NULL,
                           dev->cudaHome[0] ? dev->cudaHome : NULL, NULL, 0);
  return NULL;
}

bool mlxrt_cublaslt_load_early(mlxrt_cuda_device *dev) {
  dev->cublasLtLoading =
      pthread_create(&dev->cublasLtLoader, NULL, loadEarly, dev) == 0;
  return dev->cublasLtLoading;
}

void mlxrt_cublaslt_load_wait(mlxrt_cuda_device *dev) {
  if (dev->cublasLtLoading)
    pthread_join(dev->cublasLtLoader, NULL);
  dev->cublasLtLoading = false;
}

static bool setLayout(mlxrt_cuda_device *dev, const mlxrt_cublaslt *lib,
                      cublasLtMatrixLayout_t *layout, int type, int64_t rows,
                      int64_t cols, int64_t ld, int64_t batch, int64_t stride,
                      bool pointers, const char *what) {
  int32_t count = (int32_t)batch;
  uint32_t mode = CUBLASLT_BATCH_MODE_POINTER_ARRAY;
  return checkBlas(dev, lib,
                   lib->cublasLtMatrixLayoutCreate(layout, type, (uint64_t)rows,
                                                   (uint64_t)cols, ld),
                   "cublasLtMatrixLayoutCreate", what) &&
         checkBlas(dev, lib,
                   lib->cublasLtMatrixLayoutSetAttribute(
                       *layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count,
                       sizeof(count)),
                   "cublasLtMatrixLayoutSetAttribute(BATCH_COUNT)", what) &&
         checkBlas(dev, lib,
                   lib->cublasLtMatrixLayoutSetAttribute(
                       *layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                       &stride, sizeof(stride)),
                   "cublasLtMatrixLayoutSetAttribute(STRIDED_BATCH_OFFSET)",
                   what) &&
         (!pointers ||
          checkBlas(dev, lib,
                    lib->cublasLtMatrixLayoutSetAttribute(
                        *layout, CUBLASLT_MATRIX_LAYOUT_BATCH_MODE, &mode,
                        sizeof(mode)),
                    "cublasLtMatrixLayoutSetAttribute(BATCH_MODE)", what));
}

void mlxrt_matmul_lt_layout(const mlxrt_matmul_key *key,
                            mlxrt_matmul_lt_layout_t *lt) {
  bool ta = key->flags & MLXRT_MATMUL_TRANSPOSE_A;
  bool tb = key->flags & MLXRT_MATMUL_TRANSPOSE_B;
  // cuBLASLt's A is our B seen column-major: B^T (n x k) when B is stored
  // k x n, or B itself (k x n, transposed by the op) when stored n x k.
  lt->transA = tb;
  lt->rows[0] = tb ? key->k : key->n;
  lt->cols[0] = tb ? key->n : key->k;
  lt->ld[0] = key->ldb;
  lt->stride[0] = key->strideB;
  // Its B is our A: A^T (k x m) when A is stored m x k, or A itself (m x k
  // column-major, transposed by the op) when stored k x m.
  lt->transB = ta;
  lt->rows[1] = ta ? key->m : key->k;
  lt->cols[1] = ta ? key->k : key->m;
  lt->ld[1] = key->lda;
  lt->stride[1] = key->strideA;
  // C^T: n x m column-major.
  lt->rows[2] = key->n;
  lt->cols[2] = key->m;
  lt->ld[2] = key->ldc;
  lt->stride[2] = key->strideC;
}

/// Makes the plan of `key` (row-major semantics, see the top of the file).
static bool makePlan(mlxrt_cuda_device *dev, struct mlxrt_cublaslt_state *s,
                     const mlxrt_matmul_key *key, Plan *plan,
                     const char *what) {
  const mlxrt_cublaslt *lib = s->lib;
  memset(plan, 0, sizeof(*plan));
  plan->key = *key;
  mlxrt_matmul_lt_layout_t lt;
  mlxrt_matmul_lt_layout(key, &lt);
  int32_t opA = lt.transA ? CUBLAS_OP_T : CUBLAS_OP_N;
  int32_t opB = lt.transB ? CUBLAS_OP_T : CUBLAS_OP_N;
  int abType = cudaType(key->abDtype), cType = cudaType(key->cDtype);
  bool pointers = key->flags & MLXRT_MATMUL_POINTER_ARRAYS;
  if (!checkBlas(dev, lib,
                 lib->cublasLtMatmulDescCreate(&plan->desc, CUBLAS_COMPUTE_32F,
                                               CUDA_R_32F),
                 "cublasLtMatmulDescCreate", what) ||
      !checkBlas(
          dev, lib,
          lib->cublasLtMatmulDescSetAttribute(
              plan->desc, CUBLASLT_MATMUL_DESC_TRANSA, &opA, sizeof(opA)),
          "cublasLtMatmulDescSetAttribute(TRANSA)", what) ||
      !checkBlas(
          dev, lib,
          lib->cublasLtMatmulDescSetAttribute(
              plan->desc, CUBLASLT_MATMUL_DESC_TRANSB, &opB, sizeof(opB)),
          "cublasLtMatmulDescSetAttribute(TRANSB)", what) ||
      !setLayout(dev, lib, &plan->a, abType, lt.rows[0], lt.cols[0], lt.ld[0],
                 key->batch, lt.stride[0], pointers, what) ||
      !setLayout(dev, lib, &plan->b, abType, lt.rows[1], lt.cols[1], lt.ld[1],
                 key->batch, lt.stride[1], pointers, what) ||
      !setLayout(dev, lib, &plan->c, cType, lt.rows[2], lt.cols[2], lt.ld[2],
                 key->batch, lt.stride[2], pointers, what))
    return false;

  cublasLtMatmulPreference_t pref = NULL;
  uint64_t workspace = WorkspaceBytes;
  // cuBLASLt's A is our B and the other way round.
  uint32_t alignA = key->alignB, alignB = key->alignA, alignC = key->alignC;
  cublasLtMatmulHeuristicResult_t result;
  memset(&result, 0, sizeof(result));
  int found = 0;
  bool ok =
      checkBlas(dev, lib, lib->cublasLtMatmulPreferenceCreate(&pref),
                "cublasLtMatmulPreferenceCreate", what) &&
      checkBlas(dev, lib,
                lib->cublasLtMatmulPreferenceSetAttribute(
                    pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
                    sizeof(workspace)),
                "cublasLtMatmulPreferenceSetAttribute(MAX_WORKSPACE_BYTES)",
                what) &&
      checkBlas(dev, lib,
                lib->cublasLtMatmulPreferenceSetAttribute(
                    pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, &alignA,
                    sizeof(alignA)),
                "cublasLtMatmulPreferenceSetAttribute(MIN_ALIGNMENT_A_BYTES)",
                what) &&
      checkBlas(dev, lib,
                lib->cublasLtMatmulPreferenceSetAttribute(
                    pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, &alignB,
                    sizeof(alignB)),
                "cublasLtMatmulPreferenceSetAttribute(MIN_ALIGNMENT_B_BYTES)",
                what) &&
      checkBlas(dev, lib,
                lib->cublasLtMatmulPreferenceSetAttribute(
                    pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, &alignC,
                    sizeof(alignC)),
                "cublasLtMatmulPreferenceSetAttribute(MIN_ALIGNMENT_C_BYTES)",
                what) &&
      checkBlas(dev, lib,
                lib->cublasLtMatmulPreferenceSetAttribute(
                    pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, &alignC,
                    sizeof(alignC)),
                "cublasLtMatmulPreferenceSetAttribute(MIN_ALIGNMENT_D_BYTES)",
                what) &&
      checkBlas(dev, lib,
                lib->cublasLtMatmulAlgoGetHeuristic(
                    s->handle, plan->desc, plan->a, plan->b, plan->c, plan->c,
                    pref, 1, &result, &found),
                "cublasLtMatmulAlgoGetHeuristic", what);
  if (pref)
    lib->cublasLtMatmulPreferenceDestroy(pref);
  if (!ok)
    return false;
  if (found < 1 || result.state != CUBLAS_STATUS_SUCCESS) {
    mlxrt_cuda_record(dev, MLXRT_ERROR_DEVICE,
                      "cublasLtMatmulAlgoGetHeuristic found no algorithm for "
                      "%s on %s",
                      what, dev->base.description);
    return false;
  }
  plan->algo = result.algo;
  plan->workspaceSize = result.workspaceSize;
  return true;
}

/// The cached plan of `key`, made when new.
static Plan *findPlan(mlxrt_cuda_device *dev, struct mlxrt_cublaslt_state *s,
                      const mlxrt_matmul_key *key, const char *what) {
  for (size_t i = 0; i < s->numPlans; ++i)
    if (memcmp(&s->plans[i].key, key, sizeof(*key)) == 0)
      return &s->plans[i];
  if (s->numPlans == s->capPlans) {
    size_t cap = s->capPlans ? 2 * s->capPlans : 8;
    Plan *grown = realloc(s->plans, cap * sizeof(*grown));
    if (!grown) {
      mlxrt_cuda_record(dev, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
      return NULL;
    }
    s->plans = grown;
    s->capPlans = cap;
  }
  Plan *plan = &s->plans[s->numPlans];
  if (!makePlan(dev, s, key, plan, what)) {
    destroyPlan(s->lib, plan);
    return NULL;
  }
  ++s->numPlans;
  return plan;
}

/// Whether every operand of `p` (one matrix set each, with
/// MLXRT_MATMUL_POINTER_ARRAYS) lies in memory of the device: a compiler bug
/// must not become a wild write. Records the failure.
static bool checkSpans(mlxrt_cuda_device *dev, const mlxrt_matmul_args *p,
                       const char *what) {
  bool ta = p->flags & MLXRT_MATMUL_TRANSPOSE_A;
  bool tb = p->flags & MLXRT_MATMUL_TRANSPOSE_B;
  int64_t batch = (p->flags & MLXRT_MATMUL_POINTER_ARRAYS) ? 1 : p->batch;
  size_t abSize = mlxrt_dtype_size((mlxrt_dtype)p->abDtype);
  struct {
    const char *name;
    uint64_t ptr, bytes;
  } spans[3] = {
      {"A", p->a,
       spanBytes(batch, p->strideA, ta ? p->k : p->m, p->lda, ta ? p->m : p->k,
                 abSize)},
      {"B", p->b,
       spanBytes(batch, p->strideB, tb ? p->n : p->k, p->ldb, tb ? p->k : p->n,
                 abSize)},
      {"C", p->c,
       spanBytes(batch, p->strideC, p->m, p->ldc, p->n,
                 mlxrt_dtype_size((mlxrt_dtype)p->cDtype))},
  };
  for (int i = 0; i < 3; ++i) {
    if (!mlxrt_cuda_find_range(dev, (uintptr_t)spans[i].ptr,
                               (size_t)spans[i].bytes)) {
      mlxrt_cuda_record(dev, MLXRT_ERROR_DEVICE,
                        "mlxrt_matmul: operand %s of %s [0x%jx, +%ju bytes) "
                        "is not memory of %s",
                        spans[i].name, what, (uintmax_t)spans[i].ptr,
                        (uintmax_t)spans[i].bytes, dev->base.description);
      return false;
    }
  }
  return true;
}

/// Enqueues the product `p` on operands a, b, c (device addresses).
static void enqueue(mlxrt_cuda_device *dev, struct mlxrt_cublaslt_state *s,
                    const mlxrt_matmul_args *p, const void *a, const void *b,
                    void *c, const char *what) {
  mlxrt_matmul_key key;
  mlxrt_matmul_make_key(p, &key);
  Plan *plan = findPlan(dev, s, &key, what);
  if (!plan)
    return;
  float alpha = 1.0f, beta = (p->flags & MLXRT_MATMUL_ACCUMULATE) ? 1.0f : 0.0f;
  checkBlas(dev, s->lib,
            s->lib->cublasLtMatmul(s->handle, plan->desc, &alpha, b, plan->a, a,
                                   plan->b, &beta, c, plan->c, c, plan->c,
                                   &plan->algo, (void *)(uintptr_t)s->workspace,
                                   plan->workspaceSize, dev->stream),
            "cublasLtMatmul", what);
}

/// The matrices of `p` (MLXRT_MATMUL_POINTER_ARRAYS) as one cuBLASLt
/// product over arrays of their addresses in device memory: memory of this
/// run, written now, or graph memory written once the graph exists.
/// Without pointer-array products in this cuBLASLt, one product each.
static void matmulPointerArrays(mlxrt_cuda_device *dev,
                                struct mlxrt_cublaslt_state *s,
                                const mlxrt_matmul_args *p, const char *what) {
  const uint64_t *arrays[3] = {(const uint64_t *)(uintptr_t)p->a,
                               (const uint64_t *)(uintptr_t)p->b,
                               (const uint64_t *)(uintptr_t)p->c};
  uint64_t table[3 * MLXRT_MATMUL_MAX_POINTERS];
  mlxrt_matmul_args one = *p;
  one.flags &= ~MLXRT_MATMUL_POINTER_ARRAYS;
  one.batch = 1;
  // The key's alignments: each operand's least over the matrices.
  uint64_t lowBits[3] = {0, 0, 0};
  for (int64_t i = 0; i < p->batch; ++i) {
    one.a = arrays[0][i];
    one.b = arrays[1][i];
    one.c = arrays[2][i];
    if (!one.a || !one.b || !one.c) {
      mlxrt_cuda_record(dev, MLXRT_ERROR_INVALID_ARGUMENT,
                        "mlxrt_matmul: a null operand pointer in matrix %jd "
                        "of %s",
                        (intmax_t)i, what);
      return;
    }
    if (!checkSpans(dev, &one, what))
      return;
    for (int j = 0; j < 3; ++j) {
      table[j * p->batch + i] = arrays[j][i];
      lowBits[j] |= arrays[j][i] % 256;
    }
  }
  if (s->noPointerArrays) {
    for (int64_t i = 0; i < p->batch && !dev->failed; ++i) {
      one.a = arrays[0][i];
      one.b = arrays[1][i];
      one.c = arrays[2][i];
      enqueue(dev, s, &one, (const void *)(uintptr_t)one.a,
              (const void *)(uintptr_t)one.b, (void *)(uintptr_t)one.c, what);
    }
    return;
  }
  size_t bytes = 3 * (size_t)p->batch * sizeof(uint64_t);
  uint64_t *onDevice =
      mlxrt_cuda_scratch(dev, bytes, "mlxrt_matmul's pointers");
  if (!onDevice)
    return;
  // Captured, the graph uploads them before its first launch. Else a copy
  // on the stream (the memory may be a spare that enqueued kernels still
  // use), from host memory of the run, freed once the run is done.
  if (dev->graph.capturing) {
    if (!mlxrt_cuda_capture_upload_copy(dev, (CUdeviceptr)onDevice, table,
                                        bytes))
      return;
  } else {
    void *staged = mlxrt_cuda_sink(dev, bytes);
    if (!staged) {
      mlxrt_cuda_record(dev, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
      return;
    }
    memcpy(staged, table, bytes);
    if (!mlxrt_cuda_check(dev,
                          dev->drv->cuMemcpyAsync((CUdeviceptr)onDevice,
                                                  (CUdeviceptr)staged, bytes,
                                                  dev->stream),
                          "cuMemcpyAsync of %s's pointers", what))
      return;
  }
  // The addresses' low bits stand for all of them in the key.
  mlxrt_matmul_args all = *p;
  all.a = lowBits[0] ? lowBits[0] : 256;
  all.b = lowBits[1] ? lowBits[1] : 256;
  all.c = lowBits[2] ? lowBits[2] : 256;
  mlxrt_matmul_key key;
  mlxrt_matmul_make_key(&all, &key);
  Plan *plan = findPlan(dev, s, &key, what);
  if (!plan) {
    // No such product here: never again, one product each instead.
    mlxrt_cuda_clear_failure(dev);
    s->noPointerArrays = true;
    matmulPointerArrays(dev, s, p, what);
    return;
  }
  float alpha = 1.0f, beta = (p->flags & MLXRT_MATMUL_ACCUMULATE) ? 1.0f : 0.0f;
  checkBlas(dev, s->lib,
            s->lib->cublasLtMatmul(s->handle, plan->desc, &alpha,
                                   onDevice + p->batch, plan->a, onDevice,
                                   plan->b, &beta, onDevice + 2 * p->batch,
                                   plan->c, onDevice + 2 * p->batch, plan->c,
                                   &plan->algo, (void *)(uintptr_t)s->workspace,
                                   plan->workspaceSize, dev->stream),
            "cublasLtMatmul", what);
}

//===----------------------------------------------------------------------===//
// The ABI
//===----------------------------------------------------------------------===//

void mlxrt_matmul(int32_t ab_dtype, int32_t c_dtype, int32_t flags,
                  int64_t batch, int64_t m, int64_t n, int64_t k, int64_t a,
                  int64_t lda, int64_t stride_a, int64_t b, int64_t ldb,
                  int64_t stride_b, int64_t c, int64_t ldc, int64_t stride_c) {
  mlxrt_cuda_device *dev = mlxrt_cuda_active();
  if (!dev || dev->failed)
    return;
  mlxrt_matmul_args p = {ab_dtype, c_dtype,     flags,       batch,
                         m,        n,           k,           (uint64_t)a,
                         lda,      stride_a,    (uint64_t)b, ldb,
                         stride_b, (uint64_t)c, ldc,         stride_c};
  char what[256];
  if (batch > 1)
    snprintf(what, sizeof(what),
             "the product %jd x (%jd x %jd x %jd) (%s -> %s)", (intmax_t)batch,
             (intmax_t)m, (intmax_t)n, (intmax_t)k,
             mlxrt_dtype_name((mlxrt_dtype)ab_dtype),
             mlxrt_dtype_name((mlxrt_dtype)c_dtype));
  else
    snprintf(what, sizeof(what), "the product %jd x %jd x %jd (%s -> %s)",
             (intmax_t)m, (intmax_t)n, (intmax_t)k,
             mlxrt_dtype_name((mlxrt_dtype)ab_dtype),
             mlxrt_dtype_name((mlxrt_dtype)c_dtype));
  char msg[512];
  if (!mlxrt_matmul_validate(&p, msg, sizeof(msg))) {
    mlxrt_cuda_record(dev, MLXRT_ERROR_INVALID_ARGUMENT, "mlxrt_matmul: %s",
                      msg);
    return;
  }
  struct mlxrt_cublaslt_state *s = getState(dev);
  if (!s)
    return;
  if (flags & MLXRT_MATMUL_POINTER_ARRAYS)
    matmulPointerArrays(dev, s, &p, what);
  else if (checkSpans(dev, &p, what))
    enqueue(dev, s, &p, (const void *)(uintptr_t)p.a,
            (const void *)(uintptr_t)p.b, (void *)(uintptr_t)p.c, what);
}
