/* Loads two compiled models into one process through the runtime's C API
   and calls them on the CPU: `mlp` and `scores`, linked in (mlxc --emit=lib
   --name=...), and `step`, a shared object loaded at run time (mlxc
   --emit=shared), whose state is donated from call to call. Prints every
   output for check_two_models.py. Usage: two_models DIR (with libstep.so
   and weights.safetensors). */
#include "attention.h" /* libattention.a, --name=scores */
#include "mlp.h"
#include "runtime/mlxrt_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(mlxrt_status st, const mlxrt_error *err, const char *what) {
  if (st != MLXRT_OK) {
    fprintf(stderr, "%s: %s: %s\n", what, mlxrt_status_name(st), err->message);
    exit(1);
  }
}

static void print(const char *label, mlxrt_array *a) {
  const mlxrt_tensor *t = mlxrt_array_type(a);
  float *v = malloc(t->nbytes);
  mlxrt_error err;
  check(mlxrt_array_read(a, v, t->nbytes, &err), &err, "read");
  printf("%s", label);
  for (size_t i = 0; i < t->nbytes / sizeof(float); ++i)
    printf(" %.7g", v[i]);
  printf("\n");
  free(v);
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  char path[4096];
  mlxrt_error err;
  mlxrt_instance_options opts;
  mlxrt_instance_options_init(&opts);
  opts.device = "cpu";
  mlxrt_instance *inst;
  check(mlxrt_instance_create(&opts, &inst, &err), &err, "instance");

  mlxrt_model *mlp, *scores, *step;
  check(mlxrt_model_open(inst, MLXRT_LINKED_MODEL(mlp), &mlp, &err), &err,
        "mlp");
  /* By name: the program is linked with -rdynamic. */
  check(mlxrt_model_open_linked(inst, "scores", &scores, &err), &err, "scores");
  mlxrt_model *none = NULL;
  if (mlxrt_model_open_linked(inst, "nosuch", &none, &err) == MLXRT_OK)
    return 1;
  printf("error %s\n", err.message);
  snprintf(path, sizeof(path), "%s/libstep.so", argv[1]);
  check(mlxrt_model_load(inst, path, &step, &err), &err, "step");
  printf("models %s %s %s\n", mlxrt_model_name(mlp), mlxrt_model_name(scores),
         mlxrt_model_name(step));

  /* mlp: x from memory, the weights bound by name from one file. */
  float x[8 * 64];
  for (int i = 0; i < 8 * 64; ++i)
    x[i] = (float)(i % 7) * 0.1f;
  int64_t xdims[2] = {8, 64};
  mlxrt_array *in[5] = {NULL};
  check(mlxrt_array_create(inst, MLXRT_DTYPE_FLOAT32, 2, xdims, x, sizeof(x),
                           &in[0], &err),
        &err, "x");
  snprintf(path, sizeof(path), "%s/weights.safetensors", argv[1]);
  size_t bound = 0;
  check(mlxrt_model_bind_file(mlp, path, in, 5, &bound, &err), &err, "bind");
  printf("bound %zu\n", bound);
  mlxrt_array *out[1] = {NULL};
  check(mlxrt_model_call(mlp, in, 5, out, 1, &err), &err, "call mlp");
  print("mlp", out[0]);
  mlxrt_array_release(out[0]);
  for (int i = 0; i < 5; ++i)
    mlxrt_array_release(in[i]);

  /* scores: arrays from .npy files. */
  mlxrt_array *qk[2];
  snprintf(path, sizeof(path), "%s/q.npy", argv[1]);
  check(mlxrt_array_load(inst, path, &qk[0], &err), &err, "q");
  snprintf(path, sizeof(path), "%s/kv.npz:k", argv[1]);
  check(mlxrt_array_load(inst, path, &qk[1], &err), &err, "k");
  mlxrt_array *p = NULL;
  check(mlxrt_model_call(scores, qk, 2, &p, 1, &err), &err, "call scores");
  print("scores", p);
  mlxrt_array_release(p);
  mlxrt_array_release(qk[0]);
  mlxrt_array_release(qk[1]);

  /* step: three calls; the state is donated each time. */
  float xs[4] = {1, 2, 3, 4};
  int64_t sdims[2] = {3, 4}, xd[1] = {4};
  mlxrt_array *sx, *state;
  check(mlxrt_array_create(inst, MLXRT_DTYPE_FLOAT32, 1, xd, xs, sizeof(xs),
                           &sx, &err),
        &err, "sx");
  check(mlxrt_array_create(inst, MLXRT_DTYPE_FLOAT32, 2, sdims, NULL, 0, &state,
                           &err),
        &err, "state");
  for (int t = 0; t < 3; ++t) {
    mlxrt_array *sin[2] = {sx, state};
    mlxrt_array *sout[2] = {NULL, state};
    check(mlxrt_model_call(step, sin, 2, sout, 2, &err), &err, "call step");
    print("step y", sout[0]);
    mlxrt_array_release(sout[0]);
  }
  print("step state", state);
  mlxrt_array_release(sx);
  mlxrt_array_release(state);

  /* The typed entry of a library still works beside the API. */
  float q[4 * 8], k[6 * 8], pp[4 * 6];
  for (int i = 0; i < 32; ++i)
    q[i] = 1.0f;
  for (int i = 0; i < 48; ++i)
    k[i] = (float)(i % 6);
  mlxc_scores(q, k, pp);
  printf("typed %.7g %.7g\n", pp[0], pp[5]);

  mlxrt_model_close(step);
  mlxrt_model_close(scores);
  mlxrt_model_close(mlp);
  mlxrt_instance_destroy(inst);
  return 0;
}
