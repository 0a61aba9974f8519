/* mlxrt_matmul computed on the host, exactly as runtime/mlxrt_abi.h specifies
 * it, linked before the runtime (-Wl,--allow-multiple-definition) into
 * executables built with mlxc --cpu-matmul-calls: the E2E graphs then check
 * the calls mlxc-matmul-to-runtime emits (pointers, leading dimensions,
 * batch strides, transposes, accumulation, output dtypes) on any machine. */
#include "runtime/mlxrt.h"
#include "runtime/mlxrt_abi.h"

#include <stdlib.h>
#include <string.h>

static float load(int32_t dtype, const void *base, int64_t i) {
  if (dtype == MLXRT_DTYPE_FLOAT32)
    return ((const float *)base)[i];
  uint16_t bits = ((const uint16_t *)base)[i];
  if (dtype == MLXRT_DTYPE_BFLOAT16)
    return mlxrt_bfloat16_to_float(bits);
  return mlxrt_float16_to_float(bits);
}

static void store(int32_t dtype, void *base, int64_t i, float v) {
  if (dtype == MLXRT_DTYPE_FLOAT32) {
    ((float *)base)[i] = v;
  } else if (dtype == MLXRT_DTYPE_BFLOAT16) {
    ((uint16_t *)base)[i] = mlxrt_float_to_bfloat16(v);
  } else {
    _Float16 h = (_Float16)v;
    memcpy((uint16_t *)base + i, &h, sizeof(h));
  }
}

void mlxrt_matmul(int32_t ab_dtype, int32_t c_dtype, int32_t flags,
                  int64_t batch, int64_t m, int64_t n, int64_t k, int64_t a,
                  int64_t lda, int64_t stride_a, int64_t b, int64_t ldb,
                  int64_t stride_b, int64_t c, int64_t ldc, int64_t stride_c) {
  if ((ab_dtype != MLXRT_DTYPE_FLOAT32 && ab_dtype != MLXRT_DTYPE_FLOAT16 &&
       ab_dtype != MLXRT_DTYPE_BFLOAT16) ||
      (c_dtype != MLXRT_DTYPE_FLOAT32 && c_dtype != ab_dtype) || batch < 1 ||
      m < 1 || n < 1 || k < 1 || (flags & ~7))
    abort(); /* mlxc emitted a call the runtime rejects */
  const void *pa = (const void *)(intptr_t)a, *pb = (const void *)(intptr_t)b;
  void *pc = (void *)(intptr_t)c;
  int ta = flags & MLXRT_MATMUL_TRANSPOSE_A,
      tb = flags & MLXRT_MATMUL_TRANSPOSE_B;
  for (int64_t bi = 0; bi < batch; ++bi)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float sum = 0; /* float32 accumulation, as cuBLASLt's COMPUTE_32F */
        for (int64_t l = 0; l < k; ++l)
          sum += load(ab_dtype, pa,
                      bi * stride_a + (ta ? l * lda + i : i * lda + l)) *
                 load(ab_dtype, pb,
                      bi * stride_b + (tb ? j * ldb + l : l * ldb + j));
        int64_t at = bi * stride_c + i * ldc + j;
        if (flags & MLXRT_MATMUL_ACCUMULATE)
          sum += load(c_dtype, pc, at);
        store(c_dtype, pc, at, sum);
      }
}
