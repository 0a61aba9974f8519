/* A CUDA + CPU library (mlxc --target=cuda --emit=lib) linked into a C
   program and called through the C API on DEVICE, with the CUDA driver and
   cuBLASLt named in the options (LIB; the test passes the host stand-in).
   Reads x, w, v, b from DIR/*.npy, writes DIR/y.npy and DIR/z.npy.
   Usage: products_lib DEVICE DIR [LIB] */
#include "products.h"
#include "runtime/mlxrt_api.h"

#include <stdio.h>
#include <string.h>

static int fail(const mlxrt_error *err) {
  fprintf(stderr, "error: %s\n", err->message);
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  mlxrt_error err;
  mlxrt_instance_options opts;
  mlxrt_instance_options_init(&opts);
  opts.device = argv[1];
  if (argc > 3)
    opts.libcuda = opts.libcublaslt = argv[3];
  mlxrt_instance *inst;
  mlxrt_model *m;
  if (mlxrt_instance_create(&opts, &inst, &err) ||
      mlxrt_model_open(inst, MLXRT_LINKED_MODEL(products), &m, &err))
    return fail(&err);
  printf("%s on %s, cuda code %s\n", mlxrt_model_name(m),
         mlxrt_instance_device_name(inst),
         mlxrt_model_has_cuda(m) ? "yes" : "no");
  mlxrt_array *in[4];
  const char *names[4] = {"x", "w", "v", "b"};
  char path[4096];
  for (int i = 0; i < 4; ++i) {
    snprintf(path, sizeof(path), "%s/%s.npy", argv[2], names[i]);
    if (mlxrt_array_load(inst, path, &in[i], &err))
      return fail(&err);
  }
  mlxrt_array *out[2] = {NULL, NULL};
  for (int call = 0; call < 3; ++call) {
    mlxrt_array_release(out[0]);
    mlxrt_array_release(out[1]);
    out[0] = out[1] = NULL;
    if (mlxrt_model_call(m, in, 4, out, 2, &err))
      return fail(&err);
  }
  snprintf(path, sizeof(path), "%s/y.npy", argv[2]);
  if (mlxrt_array_save(out[0], path, &err))
    return fail(&err);
  snprintf(path, sizeof(path), "%s/z.npy", argv[2]);
  if (mlxrt_array_save(out[1], path, &err))
    return fail(&err);
  for (int i = 0; i < 4; ++i)
    mlxrt_array_release(in[i]);
  mlxrt_array_release(out[0]);
  mlxrt_array_release(out[1]);
  mlxrt_model_close(m);
  mlxrt_instance_destroy(inst);
  return 0;
}
