/* Loads a CUDA model made by --emit=shared (PATH) on "cuda" with the driver
   and cuBLASLt at LIB: its CUDA code calls the runtime, which this program
   links statically. Usage: load_cuda_shared PATH LIB */
#include "runtime/mlxrt_api.h"

#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  mlxrt_error err;
  mlxrt_instance_options opts;
  mlxrt_instance_options_init(&opts);
  opts.device = "cuda";
  opts.libcuda = opts.libcublaslt = argv[2];
  mlxrt_instance *inst;
  mlxrt_model *m;
  if (mlxrt_instance_create(&opts, &inst, &err) ||
      mlxrt_model_load(inst, argv[1], &m, &err)) {
    printf("error: %s\n", err.message);
    return 1;
  }
  printf("loaded %s\n", mlxrt_model_name(m));
  mlxrt_model_close(m);
  mlxrt_instance_destroy(inst);
  return 0;
}
