/* Checks for the standalone CUDA probes of bench/ (built on the GPU machine
   against the toolkit): a failing driver or cuBLASLt call prints itself and
   its status and ends the probe. */
#ifndef MLXC_BENCH_COMMON_CUDA_CHECKS_H
#define MLXC_BENCH_COMMON_CUDA_CHECKS_H

#include <stdio.h>
#include <stdlib.h>

#define CU(x)                                                                  \
  do {                                                                         \
    CUresult r_ = (x);                                                         \
    if (r_ != CUDA_SUCCESS) {                                                  \
      fprintf(stderr, "%s failed: %d\n", #x, (int)r_);                         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)
#define LT(x)                                                                  \
  do {                                                                         \
    cublasStatus_t s_ = (x);                                                   \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                         \
      fprintf(stderr, "%s failed: %d\n", #x, (int)s_);                         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

#endif
