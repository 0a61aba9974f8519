//===- DeviceTest.cpp - Device selection and the CPU device ----*- C++ -*-===//

#include "TestEnv.h"
#include "TestUtil.h"

using namespace mlxrt_test;

namespace {

void scaleByTwo(void **args) {
  const float *in = static_cast<const float *>(args[0]);
  float *out = static_cast<float *>(args[1]);
  for (int i = 0; i < 3; ++i)
    out[i] = 2 * in[i];
}

TEST(Device, CpuRunsTheEntry) {
  mlxrt_device *dev = nullptr;
  mlxrt_error err;
  ASSERT_EQ(envDeviceOpen("cpu", &dev, &err), MLXRT_OK) << err.message;
  EXPECT_EQ(mlxrt_device_get_kind(dev), MLXRT_DEVICE_CPU);
  EXPECT_STREQ(mlxrt_device_description(dev), "cpu");
  void *in = nullptr, *out = nullptr;
  ASSERT_EQ(mlxrt_device_alloc(dev, 12, &in, &err), MLXRT_OK);
  ASSERT_EQ(mlxrt_device_alloc(dev, 12, &out, &err), MLXRT_OK);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(in) % 64, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(out) % 64, 0u);
  float values[3] = {1, -2, 3.5};
  std::memcpy(in, values, sizeof(values));
  void *args[2] = {in, out};
  double ms = -1;
  ASSERT_EQ(mlxrt_device_run(dev, scaleByTwo, args, 1, 1, &ms, &err), MLXRT_OK);
  EXPECT_GE(ms, 0.0);
  EXPECT_EQ(static_cast<float *>(out)[1], -4.0f);
  ASSERT_EQ(mlxrt_device_run(dev, scaleByTwo, args, 1, 1, nullptr, &err),
            MLXRT_OK);
  EXPECT_EQ(mlxrt_device_run(dev, nullptr, args, 1, 1, nullptr, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err.message, "no program to run on cpu");
  mlxrt_device_free(dev, in);
  mlxrt_device_free(dev, out);
  mlxrt_device_free(dev, nullptr);
  mlxrt_device_close(dev);
  mlxrt_device_close(nullptr);
}

TEST(Device, NullNameIsTheCpu) {
  mlxrt_device *dev = nullptr;
  ASSERT_EQ(envDeviceOpen(nullptr, &dev, nullptr), MLXRT_OK);
  EXPECT_EQ(mlxrt_device_get_kind(dev), MLXRT_DEVICE_CPU);
  mlxrt_device_close(dev);
}

TEST(Device, AllocationFailureNamesTheBytes) {
  mlxrt_device *dev = nullptr;
  ASSERT_EQ(envDeviceOpen("cpu", &dev, nullptr), MLXRT_OK);
  void *p = nullptr;
  mlxrt_error err;
  EXPECT_EQ(mlxrt_device_alloc(dev, size_t(1) << 60, &p, &err),
            MLXRT_ERROR_OUT_OF_MEMORY);
  EXPECT_TRUE(
      contains(err.message, "cannot allocate 1152921504606846976 bytes"))
      << err.message;
  mlxrt_device_close(dev);
}

TEST(Device, BadNames) {
  for (const char *name : {"gpu", "CPU", "cuda:", "cuda:x", "cuda:-1",
                           "cuda:99999999999", "cuda0", ""}) {
    SCOPED_TRACE(name);
    mlxrt_device *dev = reinterpret_cast<mlxrt_device *>(1);
    mlxrt_error err;
    EXPECT_EQ(envDeviceOpen(name, &dev, &err), MLXRT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(dev, nullptr);
    EXPECT_EQ(std::string(err.message), std::string("unknown device '") + name +
                                            "' (expected cpu, cuda or cuda:N)");
  }
}

TEST(Device, ParseName) {
  mlxrt_device_kind kind;
  int ordinal = -1;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_device_parse_name("cpu", &kind, &ordinal, &err), MLXRT_OK);
  EXPECT_EQ(kind, MLXRT_DEVICE_CPU);
  ASSERT_EQ(mlxrt_device_parse_name("cuda", &kind, &ordinal, &err), MLXRT_OK);
  EXPECT_EQ(kind, MLXRT_DEVICE_CUDA);
  EXPECT_EQ(ordinal, 0);
  ASSERT_EQ(mlxrt_device_parse_name("cuda:12", &kind, &ordinal, &err),
            MLXRT_OK);
  EXPECT_EQ(kind, MLXRT_DEVICE_CUDA);
  EXPECT_EQ(ordinal, 12);
  EXPECT_EQ(mlxrt_device_parse_name("cuda:", &kind, &ordinal, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err.message,
               "unknown device 'cuda:' (expected cpu, cuda or cuda:N)");
}

TEST(Device, CudaUnavailableSaysWhy) {
  // The CUDA device itself is tested in CudaTest.cpp; here, a machine
  // without one (as CI is).
  char reason[256] = "";
  if (envCudaAvailable(reason, sizeof(reason)))
    GTEST_SKIP() << "a CUDA device is present";
  EXPECT_NE(reason[0], '\0');
  EXPECT_EQ(envCudaDeviceCount(nullptr, 0), 0);
  // Without a driver, dlopen's own words; with one but no GPU, the driver's.
  if (!getenv("MLXRT_LIBCUDA") && contains(reason, "libcuda.so.1")) {
    EXPECT_TRUE(contains(reason, "libcuda.so.1: cannot open shared object "
                                 "file"))
        << reason;
  }
  char tiny[8] = "xxxxxxx";
  envCudaAvailable(tiny, sizeof(tiny));
  EXPECT_EQ(std::strlen(tiny), 7u);
  for (const char *name : {"cuda", "cuda:0", "cuda:3"}) {
    mlxrt_device *dev = nullptr;
    mlxrt_error err;
    EXPECT_EQ(envDeviceOpen(name, &dev, &err), MLXRT_ERROR_DEVICE);
    EXPECT_EQ(dev, nullptr);
    EXPECT_EQ(std::string(err.message),
              std::string("no CUDA device: ") + reason);
  }
  char name[64] = "x";
  mlxrt_error err;
  EXPECT_EQ(envCudaDeviceName(0, name, sizeof(name), &err), MLXRT_ERROR_DEVICE);
  EXPECT_STREQ(name, "");
  EXPECT_EQ(std::string(err.message), std::string("no CUDA device: ") + reason);
}

} // namespace
