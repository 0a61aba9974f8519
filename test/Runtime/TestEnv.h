//===- TestEnv.h - Devices configured by the environment -------*- C++ -*-===//
//
// The unit tests point the runtime at a fake or a missing driver through the
// variables the command line reads (MLXRT_LIBCUDA, MLXRT_NO_UNIFIED, ...);
// the library itself takes every setting from its caller. These helpers
// read them as the command line does and pass them on.
//
//===----------------------------------------------------------------------===//

#ifndef MLXRT_TEST_TESTENV_H
#define MLXRT_TEST_TESTENV_H

extern "C" {
#include "runtime/cuda_internal.h"
}

namespace mlxrt_test {

/// MLXRT_NO_UNIFIED, MLXRT_NO_GRAPH, MLXRT_LIBCUDA, MLXRT_LIBCUBLASLT and
/// CUDA_HOME, as a device configuration (no trace; intermediates freed
/// after each run).
mlxrt_device_config envDeviceConfig();
/// mlxrt_device_open_config with envDeviceConfig().
mlxrt_status envDeviceOpen(const char *name, mlxrt_device **out,
                           mlxrt_error *err);
/// The CUDA devices of $MLXRT_LIBCUDA's driver (0 with a reason).
int envCudaDeviceCount(char *reason, size_t size);
bool envCudaAvailable(char *reason, size_t size);
mlxrt_status envCudaDeviceName(int ordinal, char *name, size_t size,
                               mlxrt_error *err);
/// mlxrt_cublaslt_load_from($MLXRT_LIBCUBLASLT, $CUDA_HOME).
const struct mlxrt_cublaslt *envCublasltLoad(char *reason, size_t size);

} // namespace mlxrt_test

#endif // MLXRT_TEST_TESTENV_H
