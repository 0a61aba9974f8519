//===- DtypeTest.cpp - Dtypes, conversions, tensor descriptors -*- C++ -*-===//

#include "TestUtil.h"

#include <cmath>
#include <limits>

using namespace mlxrt_test;

namespace {

TEST(Dtype, NamesRoundTrip) {
  const char *names[] = {"bool",    "uint8",    "uint16",   "uint32",
                         "uint64",  "int8",     "int16",    "int32",
                         "int64",   "float16",  "bfloat16", "float32",
                         "float64", "complex64"};
  ASSERT_EQ(sizeof(names) / sizeof(names[0]), size_t(MLXRT_DTYPE_COUNT));
  for (int i = 0; i < MLXRT_DTYPE_COUNT; ++i) {
    auto dtype = static_cast<mlxrt_dtype>(i);
    EXPECT_STREQ(mlxrt_dtype_name(dtype), names[i]);
    mlxrt_dtype parsed;
    ASSERT_TRUE(mlxrt_dtype_from_name(names[i], &parsed)) << names[i];
    EXPECT_EQ(parsed, dtype);
  }
}

TEST(Dtype, UnknownNames) {
  mlxrt_dtype parsed = MLXRT_DTYPE_INT8;
  for (const char *bad :
       {"", "float", "f32", "Float32", "float32 ", "complex128"})
    EXPECT_FALSE(mlxrt_dtype_from_name(bad, &parsed)) << bad;
  EXPECT_FALSE(mlxrt_dtype_from_name(nullptr, &parsed));
  EXPECT_EQ(parsed, MLXRT_DTYPE_INT8);
  EXPECT_STREQ(mlxrt_dtype_name(MLXRT_DTYPE_COUNT), "?");
  EXPECT_EQ(mlxrt_dtype_size(static_cast<mlxrt_dtype>(-1)), 0u);
}

TEST(Dtype, Sizes) {
  EXPECT_EQ(mlxrt_dtype_size(MLXRT_DTYPE_BOOL), 1u);
  EXPECT_EQ(mlxrt_dtype_size(MLXRT_DTYPE_UINT8), 1u);
  EXPECT_EQ(mlxrt_dtype_size(MLXRT_DTYPE_INT16), 2u);
  EXPECT_EQ(mlxrt_dtype_size(MLXRT_DTYPE_FLOAT16), 2u);
  EXPECT_EQ(mlxrt_dtype_size(MLXRT_DTYPE_BFLOAT16), 2u);
  EXPECT_EQ(mlxrt_dtype_size(MLXRT_DTYPE_UINT32), 4u);
  EXPECT_EQ(mlxrt_dtype_size(MLXRT_DTYPE_FLOAT32), 4u);
  EXPECT_EQ(mlxrt_dtype_size(MLXRT_DTYPE_INT64), 8u);
  EXPECT_EQ(mlxrt_dtype_size(MLXRT_DTYPE_FLOAT64), 8u);
}

float fromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

TEST(Bfloat16, RoundsToNearestEven) {
  // Exactly representable.
  EXPECT_EQ(mlxrt_float_to_bfloat16(1.0f), 0x3f80);
  EXPECT_EQ(mlxrt_float_to_bfloat16(-2.0f), 0xc000);
  // Below half an ulp: down; above: up.
  EXPECT_EQ(mlxrt_float_to_bfloat16(fromBits(0x3f807fff)), 0x3f80);
  EXPECT_EQ(mlxrt_float_to_bfloat16(fromBits(0x3f808001)), 0x3f81);
  // Exactly half: to the even neighbour, in both directions.
  EXPECT_EQ(mlxrt_float_to_bfloat16(fromBits(0x3f808000)), 0x3f80);
  EXPECT_EQ(mlxrt_float_to_bfloat16(fromBits(0x3f818000)), 0x3f82);
  EXPECT_EQ(mlxrt_float_to_bfloat16(fromBits(0xbf818000)), 0xbf82);
  // Rounding carries into the exponent.
  EXPECT_EQ(mlxrt_float_to_bfloat16(fromBits(0x3fffffff)), 0x4000);
}

TEST(Bfloat16, SpecialValues) {
  float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(mlxrt_float_to_bfloat16(inf), 0x7f80);
  EXPECT_EQ(mlxrt_float_to_bfloat16(-inf), 0xff80);
  EXPECT_EQ(mlxrt_float_to_bfloat16(0.0f), 0x0000);
  EXPECT_EQ(mlxrt_float_to_bfloat16(-0.0f), 0x8000);
  // The largest float rounds to infinity, as in every RNE implementation.
  EXPECT_EQ(mlxrt_float_to_bfloat16(std::numeric_limits<float>::max()), 0x7f80);
  // A NaN whose payload sits only in the low bits must stay a NaN.
  uint16_t nan = mlxrt_float_to_bfloat16(fromBits(0x7f800001));
  EXPECT_TRUE(std::isnan(mlxrt_bfloat16_to_float(nan)));
  uint16_t negNan = mlxrt_float_to_bfloat16(fromBits(0xffc00000));
  EXPECT_TRUE(std::isnan(mlxrt_bfloat16_to_float(negNan)));
  EXPECT_EQ(negNan & 0x8000, 0x8000);
  // Subnormals round like everything else.
  EXPECT_EQ(mlxrt_float_to_bfloat16(fromBits(0x00018000)), 0x0002);
}

TEST(Bfloat16, ToFloatIsExact) {
  EXPECT_EQ(mlxrt_bfloat16_to_float(0x3f80), 1.0f);
  EXPECT_EQ(mlxrt_bfloat16_to_float(0x4049), 3.140625f);
  for (uint32_t b = 0; b < 0x10000; b += 7) {
    float f = mlxrt_bfloat16_to_float(static_cast<uint16_t>(b));
    if (!std::isnan(f)) {
      EXPECT_EQ(mlxrt_float_to_bfloat16(f), b);
    }
  }
}

TEST(Float16, ToFloat) {
  EXPECT_EQ(mlxrt_float16_to_float(0x3c00), 1.0f);
  EXPECT_EQ(mlxrt_float16_to_float(0xb800), -0.5f);
  EXPECT_EQ(mlxrt_float16_to_float(0x7bff), 65504.0f);
  EXPECT_EQ(mlxrt_float16_to_float(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(mlxrt_float16_to_float(0x03ff), std::ldexp(1023.0f, -24));
  EXPECT_EQ(mlxrt_float16_to_float(0x7c00),
            std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(mlxrt_float16_to_float(0x7e00)));
  EXPECT_TRUE(std::signbit(mlxrt_float16_to_float(0x8000)));
}

TEST(Tensor, InitComputesBytes) {
  mlxrt_tensor t = tensorType(MLXRT_DTYPE_FLOAT32, {8, 64});
  EXPECT_EQ(t.rank, 2);
  EXPECT_EQ(t.nbytes, 8u * 64u * 4u);
  EXPECT_EQ(t.data, nullptr);
  EXPECT_EQ(mlxrt_tensor_numel(&t), 512u);
  mlxrt_tensor s = tensorType(MLXRT_DTYPE_INT64, {});
  EXPECT_EQ(s.nbytes, 8u);
  EXPECT_EQ(mlxrt_tensor_numel(&s), 1u);
  mlxrt_tensor e = tensorType(MLXRT_DTYPE_FLOAT64, {3, 0, 5});
  EXPECT_EQ(e.nbytes, 0u);
}

TEST(Tensor, InitRejectsBadShapes) {
  mlxrt_tensor t;
  mlxrt_error err;
  int64_t dims[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  EXPECT_EQ(mlxrt_tensor_init(&t, MLXRT_DTYPE_FLOAT32, 9, dims, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err.message, "rank 9 is not supported (at most 8 dimensions)");
  int64_t negative[2] = {4, -1};
  EXPECT_EQ(mlxrt_tensor_init(&t, MLXRT_DTYPE_FLOAT32, 2, negative, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err.message, "negative size -1 in dimension 1");
  int64_t huge[2] = {INT64_MAX, 4};
  EXPECT_EQ(mlxrt_tensor_init(&t, MLXRT_DTYPE_FLOAT32, 2, huge, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err.message,
               "tensor of float32 is too large (byte count overflows)");
  // A zero dimension makes any other size harmless.
  int64_t empty[2] = {INT64_MAX, 0};
  EXPECT_EQ(mlxrt_tensor_init(&t, MLXRT_DTYPE_FLOAT32, 2, empty, &err),
            MLXRT_OK);
  EXPECT_EQ(t.nbytes, 0u);
  // A NULL error is allowed.
  EXPECT_EQ(mlxrt_tensor_init(&t, MLXRT_DTYPE_FLOAT32, 2, negative, nullptr),
            MLXRT_ERROR_INVALID_ARGUMENT);
}

TEST(Tensor, TypeString) {
  char buf[64];
  mlxrt_tensor t = tensorType(MLXRT_DTYPE_FLOAT32, {8, 64});
  EXPECT_STREQ(mlxrt_tensor_type_str(&t, buf, sizeof(buf)), "float32 [8, 64]");
  t = tensorType(MLXRT_DTYPE_BFLOAT16, {3});
  EXPECT_STREQ(mlxrt_tensor_type_str(&t, buf, sizeof(buf)), "bfloat16 [3]");
  t = tensorType(MLXRT_DTYPE_BOOL, {});
  EXPECT_STREQ(mlxrt_tensor_type_str(&t, buf, sizeof(buf)), "bool scalar");
  // Truncation keeps the string terminated.
  t = tensorType(MLXRT_DTYPE_FLOAT32, {123456, 7890});
  EXPECT_STREQ(mlxrt_tensor_type_str(&t, buf, 12), "float32 [12");
}

TEST(Tensor, SameType) {
  mlxrt_tensor a = tensorType(MLXRT_DTYPE_FLOAT32, {2, 3});
  mlxrt_tensor b = tensorType(MLXRT_DTYPE_FLOAT32, {2, 3});
  EXPECT_TRUE(mlxrt_tensor_same_type(&a, &b));
  b = tensorType(MLXRT_DTYPE_FLOAT32, {3, 2});
  EXPECT_FALSE(mlxrt_tensor_same_type(&a, &b));
  b = tensorType(MLXRT_DTYPE_INT32, {2, 3});
  EXPECT_FALSE(mlxrt_tensor_same_type(&a, &b));
  b = tensorType(MLXRT_DTYPE_FLOAT32, {2, 3, 1});
  EXPECT_FALSE(mlxrt_tensor_same_type(&a, &b));
}

TEST(HostAlloc, AlignedAndNonNull) {
  for (size_t n :
       {size_t(0), size_t(1), size_t(63), size_t(64), size_t(1000)}) {
    void *p = nullptr;
    mlxrt_error err;
    ASSERT_EQ(mlxrt_host_alloc(n, &p, &err), MLXRT_OK);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    std::memset(p, 1, n);
    mlxrt_host_free(p);
  }
}

TEST(HostAlloc, FailureNamesTheByteCount) {
  void *p = reinterpret_cast<void *>(1);
  mlxrt_error err;
  size_t huge = size_t(1) << 62;
  EXPECT_EQ(mlxrt_host_alloc(huge, &p, &err), MLXRT_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(p, nullptr);
  EXPECT_STREQ(err.message, "out of memory: cannot allocate "
                            "4611686018427387904 bytes (4398046511104.0 MiB)");
  EXPECT_EQ(mlxrt_host_alloc(SIZE_MAX, &p, &err), MLXRT_ERROR_OUT_OF_MEMORY);
}

TEST(Status, Names) {
  EXPECT_STREQ(mlxrt_status_name(MLXRT_OK), "ok");
  EXPECT_STREQ(mlxrt_status_name(MLXRT_ERROR_FORMAT), "bad file format");
  EXPECT_STREQ(mlxrt_status_name(static_cast<mlxrt_status>(99)),
               "unknown status");
}

} // namespace
