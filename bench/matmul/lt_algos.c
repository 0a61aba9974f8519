/* How far cuBLASLt's first heuristic answer is from the fastest of its
   first N, for row-major bf16 products Y[M,N] = X[M,K] W[K,N] (f32 compute,
   bf16 or f32 Y), as mlxrt plans them. Built on the GPU machine against the
   toolkit:
     nvcc -O2 -o lt_algos bench/matmul/lt_algos.c -lcublasLt -lcuda
     ./lt_algos M K N [f32out] [batch=B] ...
   batch=B: B products of the same X with B weights and B outputs, each in
   its own allocation, as one pointer-array batched product (q, k and v's
   projections; SwiGLU's gate and up).
   Each line: the heuristic's rank, its median time over 20 runs (after 5),
   and its waves/workspace. Not part of mlxc: a measurement that decides
   whether timing the candidates when a plan is made, or batching products
   that share an input, pays. */
#include <cublasLt.h>
#include <cuda.h>

#include "../common/cuda_checks.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { Candidates = 16, Warm = 5, Runs = 20 };

static int cmp(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return x < y ? -1 : x > y;
}

/* Uniform bf16 values in [-1, 1) with random mantissas: the tensor cores'
   power, and so the clocks, depend on the data. */
static void fillRandom(CUdeviceptr to, size_t count) {
  unsigned short *host = malloc(count * 2);
  unsigned state = 12345;
  for (size_t i = 0; i < count; ++i) {
    state = state * 1664525u + 1013904223u;
    float f = (float)(state >> 8) / (float)(1u << 24) * 2.0f - 1.0f;
    unsigned bits;
    memcpy(&bits, &f, 4);
    host[i] = (unsigned short)(bits >> 16);
  }
  CU(cuMemcpyHtoD(to, host, count * 2));
  free(host);
}

static void probe(cublasLtHandle_t h, CUstream stream, CUdeviceptr ws,
                  size_t wsBytes, long m, long k, long n, int f32out,
                  int batch) {
  CUdeviceptr x, w[8], y[8];
  CU(cuMemAlloc(&x, (size_t)m * k * 2));
  fillRandom(x, (size_t)m * k);
  for (int i = 0; i < batch; ++i) {
    CU(cuMemAlloc(&w[i], (size_t)k * n * 2));
    CU(cuMemAlloc(&y[i], (size_t)m * n * 4));
    fillRandom(w[i], (size_t)k * n);
  }
  /* Pointer arrays (device memory) for the batched form. */
  CUdeviceptr ptrs = 0;
  if (batch > 1) {
    CUdeviceptr host[3 * 8];
    for (int i = 0; i < batch; ++i) {
      host[i] = w[i];
      host[batch + i] = x;
      host[2 * batch + i] = y[i];
    }
    CU(cuMemAlloc(&ptrs, sizeof(CUdeviceptr) * 3 * batch));
    CU(cuMemcpyHtoD(ptrs, host, sizeof(CUdeviceptr) * 3 * batch));
  }
  cudaDataType_t yType = f32out ? CUDA_R_32F : CUDA_R_16BF;
  cublasLtMatmulDesc_t desc;
  LT(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  /* Column-major: Y^T[N,M] = W^T[N,K] X^T[K,M]. */
  cublasLtMatrixLayout_t la, lb, lc;
  LT(cublasLtMatrixLayoutCreate(&la, CUDA_R_16BF, n, k, n));
  LT(cublasLtMatrixLayoutCreate(&lb, CUDA_R_16BF, k, m, k));
  LT(cublasLtMatrixLayoutCreate(&lc, yType, n, m, n));
  if (batch > 1) {
    int32_t count = batch;
    uint32_t mode = CUBLASLT_BATCH_MODE_POINTER_ARRAY;
    cublasLtMatrixLayout_t all[3] = {la, lb, lc};
    for (int i = 0; i < 3; ++i) {
      LT(cublasLtMatrixLayoutSetAttribute(
          all[i], CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof(count)));
      LT(cublasLtMatrixLayoutSetAttribute(
          all[i], CUBLASLT_MATRIX_LAYOUT_BATCH_MODE, &mode, sizeof(mode)));
    }
  }
  cublasLtMatmulPreference_t pref;
  LT(cublasLtMatmulPreferenceCreate(&pref));
  uint64_t wsLimit = wsBytes;
  LT(cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsLimit,
      sizeof(wsLimit)));
  cublasLtMatmulHeuristicResult_t results[Candidates];
  int found = 0;
  LT(cublasLtMatmulAlgoGetHeuristic(h, desc, la, lb, lc, lc, pref, Candidates,
                                    results, &found));
  printf("M %ld K %ld N %ld, %s out, batch %d: %d candidates\n", m, k, n,
         f32out ? "f32" : "bf16", batch, found);
  CUevent start, stop;
  CU(cuEventCreate(&start, 0));
  CU(cuEventCreate(&stop, 0));
  float alpha = 1, beta = 0;
  double flop = 2.0 * m * k * n * batch;
  /* Batched, the pointers are to the arrays of pointers. */
  const void *aPtr = batch > 1 ? (void *)ptrs : (void *)w[0];
  const void *bPtr =
      batch > 1 ? (void *)(ptrs + sizeof(CUdeviceptr) * batch) : (void *)x;
  void *cPtr = batch > 1 ? (void *)(ptrs + 2 * sizeof(CUdeviceptr) * batch)
                         : (void *)y[0];
  for (int i = 0; i < found; ++i) {
    float ms[Runs];
    int ok = 1;
    for (int r = 0; r < Warm + Runs && ok; ++r) {
      CU(cuEventRecord(start, stream));
      ok = cublasLtMatmul(h, desc, &alpha, aPtr, la, bPtr, lb, &beta, cPtr,
                          lc, cPtr, lc, &results[i].algo,
                          (void *)ws, results[i].workspaceSize,
                          stream) == CUBLAS_STATUS_SUCCESS;
      CU(cuEventRecord(stop, stream));
      CU(cuEventSynchronize(stop));
      if (r >= Warm)
        CU(cuEventElapsedTime(&ms[r - Warm], start, stop));
    }
    if (!ok) {
      printf("  #%2d failed\n", i);
      continue;
    }
    qsort(ms, Runs, sizeof(float), cmp);
    float med = ms[Runs / 2];
    printf("  #%2d %8.1f us  %6.1f TFLOPS  waves %.2f  workspace %zu\n", i,
           med * 1e3, flop / (med * 1e-3) / 1e12, results[i].wavesCount,
           results[i].workspaceSize);
  }
  cublasLtMatmulPreferenceDestroy(pref);
  cublasLtMatrixLayoutDestroy(la);
  cublasLtMatrixLayoutDestroy(lb);
  cublasLtMatrixLayoutDestroy(lc);
  cublasLtMatmulDescDestroy(desc);
  cuMemFree(x);
  for (int i = 0; i < batch; ++i) {
    cuMemFree(w[i]);
    cuMemFree(y[i]);
  }
  if (ptrs)
    cuMemFree(ptrs);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s M K N [f32out] ...\n", argv[0]);
    return 2;
  }
  CUdevice dev;
  CUcontext ctx;
  CUstream stream;
  CU(cuInit(0));
  CU(cuDeviceGet(&dev, 0));
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  cublasLtHandle_t h;
  LT(cublasLtCreate(&h));
  size_t wsBytes = (size_t)32 << 20;
  CUdeviceptr ws;
  CU(cuMemAlloc(&ws, wsBytes));
  for (int a = 1; a + 2 < argc;) {
    long m = atol(argv[a]), k = atol(argv[a + 1]), n = atol(argv[a + 2]);
    a += 3;
    int f32out = a < argc && strcmp(argv[a], "f32out") == 0;
    if (f32out)
      ++a;
    int batch = 1;
    if (a < argc && strncmp(argv[a], "batch=", 6) == 0) {
      batch = atoi(argv[a] + 6);
      ++a;
    }
    if (batch < 1 || batch > 8) {
      fprintf(stderr, "batch must be 1 to 8\n");
      return 2;
    }
    probe(h, stream, ws, wsBytes, m, k, n, f32out, batch);
  }
  return 0;
}
