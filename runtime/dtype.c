//===- dtype.c - MLX dtypes: names, sizes, float conversions -----*- C -*-===//

#include "internal.h"

#include <string.h>

static const struct {
  const char *name;
  size_t size;
} DtypeInfo[MLXRT_DTYPE_COUNT] = {
    [MLXRT_DTYPE_BOOL] = {"bool", 1},
    [MLXRT_DTYPE_UINT8] = {"uint8", 1},
    [MLXRT_DTYPE_UINT16] = {"uint16", 2},
    [MLXRT_DTYPE_UINT32] = {"uint32", 4},
    [MLXRT_DTYPE_UINT64] = {"uint64", 8},
    [MLXRT_DTYPE_INT8] = {"int8", 1},
    [MLXRT_DTYPE_INT16] = {"int16", 2},
    [MLXRT_DTYPE_INT32] = {"int32", 4},
    [MLXRT_DTYPE_INT64] = {"int64", 8},
    [MLXRT_DTYPE_FLOAT16] = {"float16", 2},
    [MLXRT_DTYPE_BFLOAT16] = {"bfloat16", 2},
    [MLXRT_DTYPE_FLOAT32] = {"float32", 4},
    [MLXRT_DTYPE_FLOAT64] = {"float64", 8},
    [MLXRT_DTYPE_COMPLEX64] = {"complex64", 8},
};

static bool isValid(mlxrt_dtype dtype) {
  return (unsigned)dtype < (unsigned)MLXRT_DTYPE_COUNT;
}

const char *mlxrt_dtype_name(mlxrt_dtype dtype) {
  return isValid(dtype) ? DtypeInfo[dtype].name : "?";
}

size_t mlxrt_dtype_size(mlxrt_dtype dtype) {
  return isValid(dtype) ? DtypeInfo[dtype].size : 0;
}

int mlxrt_dtype_from_name(const char *name, mlxrt_dtype *out) {
  if (!name)
    return 0;
  for (int i = 0; i < MLXRT_DTYPE_COUNT; ++i) {
    if (strcmp(name, DtypeInfo[i].name) == 0) {
      *out = (mlxrt_dtype)i;
      return 1;
    }
  }
  return 0;
}

uint16_t mlxrt_float_to_bfloat16(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof(bits));
  // Truncating a NaN could clear every mantissa bit left and make it an
  // infinity, so keep the sign and set the quiet bit instead.
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return (uint16_t)((bits >> 16) | 0x0040u);
  // Round to nearest, ties to even: add just under half an ulp, plus one when
  // the bit that stays lowest is odd. Overflow carries into the exponent and
  // correctly yields infinity.
  uint32_t lsb = (bits >> 16) & 1u;
  bits += 0x7fffu + lsb;
  return (uint16_t)(bits >> 16);
}

float mlxrt_bfloat16_to_float(uint16_t bits) {
  uint32_t wide = (uint32_t)bits << 16;
  float value;
  memcpy(&value, &wide, sizeof(value));
  return value;
}

float mlxrt_float16_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13); // Inf or NaN (payload kept).
  } else if (exp != 0) {
    bits = sign | ((exp + 112u) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign; // +-0
  } else {
    // Subnormal half: normalize the mantissa into a normal float.
    exp = 113;
    while (!(mant & 0x400u)) {
      mant <<= 1;
      --exp;
    }
    bits = sign | (exp << 23) | ((mant & 0x3ffu) << 13);
  }
  float value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}
