//===- TestEnv.cpp - Devices configured by the environment -----*- C++ -*-===//

#include "TestEnv.h"

#include <cstdlib>
#include <cstring>

using namespace mlxrt_test;

namespace {
bool flagSet(const char *name) {
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0;
}

const char *pathOrNull(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : nullptr;
}
} // namespace

mlxrt_device_config mlxrt_test::envDeviceConfig() {
  mlxrt_device_config config;
  memset(&config, 0, sizeof(config));
  config.memory =
      flagSet("MLXRT_NO_UNIFIED") ? MLXRT_MEMORY_COPY : MLXRT_MEMORY_AUTO;
  config.noGraphs = flagSet("MLXRT_NO_GRAPH");
  config.libcuda = pathOrNull("MLXRT_LIBCUDA");
  config.libcublaslt = pathOrNull("MLXRT_LIBCUBLASLT");
  config.cudaHome = pathOrNull("CUDA_HOME");
  return config;
}

mlxrt_status mlxrt_test::envDeviceOpen(const char *name, mlxrt_device **out,
                                       mlxrt_error *err) {
  mlxrt_device_config config = envDeviceConfig();
  return mlxrt_device_open_config(name, &config, out, err);
}

int mlxrt_test::envCudaDeviceCount(char *reason, size_t size) {
  return mlxrt_cuda_device_count_with(pathOrNull("MLXRT_LIBCUDA"), reason,
                                      size);
}

bool mlxrt_test::envCudaAvailable(char *reason, size_t size) {
  return envCudaDeviceCount(reason, size) > 0;
}

mlxrt_status mlxrt_test::envCudaDeviceName(int ordinal, char *name, size_t size,
                                           mlxrt_error *err) {
  return mlxrt_cuda_device_name_with(pathOrNull("MLXRT_LIBCUDA"), ordinal, name,
                                     size, err);
}

const struct mlxrt_cublaslt *mlxrt_test::envCublasltLoad(char *reason,
                                                         size_t size) {
  return mlxrt_cublaslt_load_from(pathOrNull("MLXRT_LIBCUBLASLT"),
                                  pathOrNull("CUDA_HOME"), reason, size);
}
