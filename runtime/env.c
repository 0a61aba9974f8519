//===- env.c - The environment variables of the command line -----*- C -*-===//
//
// The one place the runtime reads the environment: for the command line of
// executables and the functions that predate the instance API
// (mlxrt_device_open, mlxrt_cuda_available, ...). The instance API
// (mlxrt_api.h) takes every setting from its options instead.
//
//===----------------------------------------------------------------------===//

#include "cuda_internal.h"

#include <stdlib.h>
#include <string.h>

/// Whether a flag variable is set to anything but "" or "0".
static bool flagSet(const char *name) {
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0;
}

static const char *pathOrNull(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : NULL;
}

/// MLXRT_TRACE=1: the lines executables print on stderr.
static void traceToStderr(void *user, const mlxrt_trace_event *event) {
  (void)user;
  switch (event->kind) {
  case MLXRT_TRACE_INPUTS_PLACED:
    fprintf(stderr, "mlxrt trace: inputs placed in %.3f ms\n", event->ms);
    break;
  case MLXRT_TRACE_PROGRAM:
    fprintf(stderr, "mlxrt trace: program %.3f ms (events), ", event->ms);
    break;
  case MLXRT_TRACE_OUTPUTS_PLACED:
    fprintf(stderr, "outputs placed in %.3f ms\n", event->ms);
    break;
  case MLXRT_TRACE_NOTE:
    fprintf(stderr, "mlxrt trace: %s\n", event->text);
    break;
  case MLXRT_TRACE_TO_DEVICE:
  case MLXRT_TRACE_TO_HOST:
    break; // Resident runs only (the instance API).
  }
}

void mlxrt_device_config_from_env(mlxrt_device_config *config) {
  memset(config, 0, sizeof(*config));
  config->memory =
      flagSet("MLXRT_NO_UNIFIED") ? MLXRT_MEMORY_COPY : MLXRT_MEMORY_AUTO;
  config->noGraphs = flagSet("MLXRT_NO_GRAPH");
  config->libcuda = pathOrNull("MLXRT_LIBCUDA");
  config->libcublaslt = pathOrNull("MLXRT_LIBCUBLASLT");
  config->cudaHome = pathOrNull("CUDA_HOME");
  if (flagSet("MLXRT_TRACE"))
    config->trace = traceToStderr;
}

mlxrt_status mlxrt_device_open(const char *name, mlxrt_device **out,
                               mlxrt_error *err) {
  mlxrt_device_config config;
  mlxrt_device_config_from_env(&config);
  return mlxrt_device_open_config(name, &config, out, err);
}

int mlxrt_cuda_device_count(char *reason, size_t size) {
  return mlxrt_cuda_device_count_with(pathOrNull("MLXRT_LIBCUDA"), reason,
                                      size);
}

mlxrt_status mlxrt_cuda_device_name(int ordinal, char *name, size_t size,
                                    mlxrt_error *err) {
  return mlxrt_cuda_device_name_with(pathOrNull("MLXRT_LIBCUDA"), ordinal, name,
                                     size, err);
}

int mlxrt_cuda_available(char *reason, size_t size) {
  return mlxrt_cuda_device_count(reason, size) > 0;
}

const mlxrt_cuda_driver *mlxrt_cuda_driver_get(char *reason, size_t size) {
  return mlxrt_cuda_driver_load(pathOrNull("MLXRT_LIBCUDA"), reason, size);
}

const struct mlxrt_cublaslt *mlxrt_cublaslt_load(char *reason, size_t size) {
  return mlxrt_cublaslt_load_from(pathOrNull("MLXRT_LIBCUBLASLT"),
                                  pathOrNull("CUDA_HOME"), reason, size);
}

bool mlxrt_cuda_graphs_disabled(void) { return flagSet("MLXRT_NO_GRAPH"); }
