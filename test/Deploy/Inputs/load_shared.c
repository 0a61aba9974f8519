/* Loads the `step` model (mlxc --emit=shared) with the installed runtime and
   runs three steps on the CPU, donating its state: prints the state. */
#include <mlxrt/mlxrt_api.h>

#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  mlxrt_error err;
  mlxrt_instance_options opts;
  mlxrt_instance_options_init(&opts);
  opts.device = "cpu";
  mlxrt_instance *inst;
  mlxrt_model *step;
  float xs[4] = {1, 2, 3, 4}, out[12];
  int64_t xd[1] = {4}, sd[2] = {3, 4};
  mlxrt_array *x, *state;
  if (mlxrt_instance_create(&opts, &inst, &err) ||
      mlxrt_model_load(inst, argv[1], &step, &err) ||
      mlxrt_array_create(inst, MLXRT_DTYPE_FLOAT32, 1, xd, xs, sizeof(xs), &x,
                         &err) ||
      mlxrt_array_create(inst, MLXRT_DTYPE_FLOAT32, 2, sd, NULL, 0, &state,
                         &err)) {
    fprintf(stderr, "error: %s\n", err.message);
    return 1;
  }
  for (int t = 0; t < 3; ++t) {
    mlxrt_array *in[2] = {x, state}, *outs[2] = {NULL, state};
    if (mlxrt_model_call(step, in, 2, outs, 2, &err)) {
      fprintf(stderr, "error: %s\n", err.message);
      return 1;
    }
    mlxrt_array_release(outs[0]);
  }
  if (mlxrt_array_read(state, out, sizeof(out), &err))
    return 1;
  for (int i = 0; i < 12; ++i)
    printf("%g%s", out[i], i == 11 ? "\n" : " ");
  mlxrt_array_release(x);
  mlxrt_array_release(state);
  mlxrt_model_close(step);
  mlxrt_instance_destroy(inst);
  return 0;
}
