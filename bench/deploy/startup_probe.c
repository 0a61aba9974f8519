/* Where a process's CUDA start-up goes, step by step, on the GPU machine:
   the driver's cuInit, the primary context, a stream, then cuBLASLt's
   load, handle, first plan and first and second product (a 64x64 f32
   product). Built there against the toolkit (see startup.sh); each line is
   milliseconds since main() began. Not part of mlxc: a measurement of the
   floor under mlxrt's own start-up. */
#include <cublasLt.h>
#include <cuda.h>

#include "../common/cuda_checks.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double T0;
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}
static void mark(const char *what) {
  printf("%8.3f ms  %s\n", now() - T0, what);
}
/* argv[1]: "heuristic" (the default), "save FILE" (also saves the chosen
   algorithm's bytes) or "load FILE" (no heuristic query: the saved bytes). */
int main(int argc, char **argv) {
  T0 = now();
  const char *mode = argc > 1 ? argv[1] : "heuristic";
  const char *file = argc > 2 ? argv[2] : NULL;
  struct timespec rt;
  clock_gettime(CLOCK_REALTIME, &rt);
  printf("main at %.3f (realtime ms)\n",
         (double)rt.tv_sec * 1e3 + (double)rt.tv_nsec * 1e-6);
  CU(cuInit(0));
  mark("cuInit");
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  mark("cuDevicePrimaryCtxRetain");
  CU(cuCtxSetCurrent(ctx));
  CUstream stream;
  CU(cuStreamCreate(&stream, CU_STREAM_DEFAULT));
  mark("cuCtxSetCurrent + cuStreamCreate");
  CUdeviceptr a, b, c, ws;
  const int n = 64;
  CU(cuMemAlloc(&a, n * n * 4));
  CU(cuMemAlloc(&b, n * n * 4));
  CU(cuMemAlloc(&c, n * n * 4));
  CU(cuMemAlloc(&ws, 32 << 20));
  CU(cuMemsetD32(a, 0x3f800000, n * n));
  CU(cuMemsetD32(b, 0x3f800000, n * n));
  CU(cuCtxSynchronize());
  mark("4 cuMemAlloc + 2 cuMemsetD32");
  cublasLtHandle_t lt;
  LT(cublasLtCreate(&lt));
  mark("cublasLtCreate (library linked, loaded at start)");
  cublasLtMatmulDesc_t op;
  LT(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  cublasLtMatrixLayout_t la, lb, lc;
  LT(cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, n, n, n));
  LT(cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, n, n, n));
  LT(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, n, n, n));
  cublasLtMatmulPreference_t pref;
  LT(cublasLtMatmulPreferenceCreate(&pref));
  size_t wsBytes = 32 << 20;
  LT(cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsBytes,
      sizeof(wsBytes)));
  cublasLtMatmulHeuristicResult_t heur;
  int found = 0;
  if (strcmp(mode, "load") == 0) {
    FILE *f = fopen(file, "rb");
    if (!f || fread(&heur.algo, sizeof(heur.algo), 1, f) != 1)
      return 1;
    fclose(f);
    mark("descriptors + algorithm read from a file (no heuristic)");
  } else {
    LT(cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, 1, &heur,
                                      &found));
    mark("descriptors + cublasLtMatmulAlgoGetHeuristic");
    cublasLtMatrixLayout_t lb2;
    LT(cublasLtMatrixLayoutCreate(&lb2, CUDA_R_32F, n, n / 2, n));
    LT(cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb2, lb2, lb2, pref, 1, &heur,
                                      &found));
    mark("a second cublasLtMatmulAlgoGetHeuristic (other shape)");
    cublasLtHandle_t lt2;
    LT(cublasLtCreate(&lt2));
    LT(cublasLtMatmulAlgoGetHeuristic(lt2, op, la, lb, lc, lc, pref, 1, &heur,
                                      &found));
    mark("cublasLtCreate + heuristic on a second handle");
    if (strcmp(mode, "save") == 0) {
      FILE *f = fopen(file, "wb");
      if (!f || fwrite(&heur.algo, sizeof(heur.algo), 1, f) != 1)
        return 1;
      fclose(f);
    }
  }
  float one = 1, zero = 0;
  for (int i = 0; i < 3; ++i) {
    LT(cublasLtMatmul(lt, op, &one, (void *)a, la, (void *)b, lb, &zero,
                      (void *)c, lc, (void *)c, lc, &heur.algo, (void *)ws,
                      wsBytes, stream));
    CU(cuStreamSynchronize(stream));
    mark(i == 0 ? "first cublasLtMatmul + sync" : "next cublasLtMatmul + sync");
  }
  float host[4];
  CU(cuMemcpyDtoH(host, c, sizeof(host)));
  printf("c[0] = %g (expect %d)\n", host[0], n);
  return host[0] == n ? 0 : 1;
}
