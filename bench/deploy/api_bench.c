/* Times the C API (runtime/mlxrt_api.h) on one device: opening models,
   first and later calls, and the per-call cost of a tiny graph called 10 000
   times (the state donated from call to call, and not), with the program's
   own time from the trace callback; counts the transfers; saves the
   outputs as .npy for comparison across devices.

   usage: api_bench DEVICE DIR OUT [auto|copy [LIBCUBLASLT]]
   DIR holds libmlp.so, libscores.so, libstep.so (mlxc --emit=shared) and
   the inputs of test/Deploy/Inputs/make_inputs.py; OUT gets mlp.npy,
   scores.npy, state.npy. See run.sh. */
#include "runtime/mlxrt_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
  double programMs;
  int programs, toDevice, toHost;
} Trace;

static void onTrace(void *user, const mlxrt_trace_event *e) {
  Trace *t = user;
  if (e->kind == MLXRT_TRACE_PROGRAM) {
    t->programMs += e->ms;
    ++t->programs;
  }
  t->toDevice += e->kind == MLXRT_TRACE_TO_DEVICE;
  t->toHost += e->kind == MLXRT_TRACE_TO_HOST;
  if (e->kind == MLXRT_TRACE_NOTE)
    printf("note: %s\n", e->text);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void check(mlxrt_status st, const mlxrt_error *err, const char *what) {
  if (st != MLXRT_OK) {
    fprintf(stderr, "%s: %s: %s\n", what, mlxrt_status_name(st), err->message);
    exit(1);
  }
}

static mlxrt_model *load(mlxrt_instance *inst, const char *dir,
                         const char *name) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  mlxrt_model *m;
  mlxrt_error err;
  double t0 = now();
  check(mlxrt_model_load(inst, path, &m, &err), &err, name);
  printf("open %-13s %8.3f ms (cuda code: %s)\n", name, now() - t0,
         mlxrt_model_has_cuda(m) ? "yes" : "no");
  return m;
}

static void save(mlxrt_array *a, const char *out, const char *name) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s", out, name);
  mlxrt_error err;
  check(mlxrt_array_save(a, path, &err), &err, name);
}

int main(int argc, char **argv) {
  if (argc < 4 || argc > 6) {
    fprintf(stderr, "usage: api_bench DEVICE DIR OUT [auto|copy "
                    "[LIBCUBLASLT]]\n");
    return 2;
  }
  const char *dir = argv[2], *out = argv[3];
  Trace trace = {0};
  mlxrt_instance_options opts;
  mlxrt_instance_options_init(&opts);
  opts.device = argv[1];
  opts.trace = onTrace;
  opts.trace_user = &trace;
  if (argc > 4 && strcmp(argv[4], "copy") == 0)
    opts.memory = MLXRT_MEMORY_COPY;
  if (argc > 5)
    opts.libcublaslt = argv[5];
  mlxrt_error err;
  mlxrt_instance *inst;
  double t0 = now();
  check(mlxrt_instance_create(&opts, &inst, &err), &err, "instance");
  printf("instance %s: %.3f ms\n", mlxrt_instance_device_name(inst),
         now() - t0);
  mlxrt_model *mlp = load(inst, dir, "libmlp.so");
  mlxrt_model *scores = load(inst, dir, "libscores.so");
  mlxrt_model *step = load(inst, dir, "libstep.so");

  /* mlp: weights bound once; x written before each call. */
  static float x[8 * 64];
  for (int i = 0; i < 8 * 64; ++i)
    x[i] = (float)(i % 7) * 0.1f;
  int64_t xd[2] = {8, 64};
  mlxrt_array *in[5] = {NULL};
  check(mlxrt_array_create(inst, MLXRT_DTYPE_FLOAT32, 2, xd, x, sizeof(x),
                           &in[0], &err),
        &err, "x");
  char path[4096];
  snprintf(path, sizeof(path), "%s/weights.safetensors", dir);
  check(mlxrt_model_bind_file(mlp, path, in, 5, NULL, &err), &err, "bind");
  mlxrt_array *y = NULL;
  for (int call = 0; call < 21; ++call) {
    mlxrt_array_release(y);
    y = NULL;
    Trace before = trace;
    t0 = now();
    check(mlxrt_model_call(mlp, in, 5, &y, 1, &err), &err, "mlp");
    /* A call may return before its program ends: time it to the end. */
    check(mlxrt_instance_synchronize(inst, &err), &err, "mlp");
    double ms = now() - t0;
    if (call < 3 || call == 20)
      printf("mlp call %2d: %8.3f ms (program %.3f ms, %d copied in)\n", call,
             ms, trace.programMs - before.programMs,
             trace.toDevice - before.toDevice);
  }
  save(y, out, "mlp.npy");
  mlxrt_array_release(y);

  mlxrt_array *qk[2], *p = NULL;
  snprintf(path, sizeof(path), "%s/q.npy", dir);
  check(mlxrt_array_load(inst, path, &qk[0], &err), &err, "q");
  snprintf(path, sizeof(path), "%s/kv.npz:k", dir);
  check(mlxrt_array_load(inst, path, &qk[1], &err), &err, "k");
  check(mlxrt_model_call(scores, qk, 2, &p, 1, &err), &err, "scores");
  save(p, out, "scores.npy");

  /* step: a tiny graph, 10 000 calls, state donated, outputs not read. */
  float xs[4] = {1, 2, 3, 4};
  int64_t sx[1] = {4}, ss[2] = {3, 4};
  mlxrt_array *sxa, *state;
  check(mlxrt_array_create(inst, MLXRT_DTYPE_FLOAT32, 1, sx, xs, sizeof(xs),
                           &sxa, &err),
        &err, "sx");
  check(mlxrt_array_create(inst, MLXRT_DTYPE_FLOAT32, 2, ss, NULL, 0, &state,
                           &err),
        &err, "state");
  for (int donate = 1; donate >= 0; --donate) {
    const int n = 10000;
    Trace before = trace;
    t0 = now();
    for (int i = 0; i < n; ++i) {
      mlxrt_array *sin[2] = {sxa, state};
      mlxrt_array *sout[2] = {NULL, donate ? state : NULL};
      check(mlxrt_model_call(step, sin, 2, sout, 2, &err), &err, "step");
      mlxrt_array_release(sout[0]);
      if (!donate)
        mlxrt_array_release(sout[1]);
    }
    check(mlxrt_instance_synchronize(inst, &err), &err, "step");
    double us = (now() - t0) * 1e3 / n;
    double programUs = (trace.programMs - before.programMs) * 1e3 / n;
    printf("step x %d (%s): %.2f us per call, program %.2f us, overhead "
           "%.2f us\n",
           n, donate ? "state donated" : "outputs not kept", us, programUs,
           us - programUs);
  }
  save(state, out, "state.npy");
  printf("transfers: %d to the device, %d to the host\n", trace.toDevice,
         trace.toHost);
  for (int i = 0; i < 5; ++i)
    mlxrt_array_release(in[i]);
  mlxrt_array_release(p);
  mlxrt_array_release(qk[0]);
  mlxrt_array_release(qk[1]);
  mlxrt_array_release(sxa);
  mlxrt_array_release(state);
  mlxrt_model_close(mlp);
  mlxrt_model_close(scores);
  mlxrt_model_close(step);
  mlxrt_instance_destroy(inst);
  return 0;
}
