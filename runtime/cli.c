//===- cli.c - The command line of a compiled executable ---------*- C -*-===//
//
//   ./model --input a.npy --input w=weights.safetensors --output out.npy
//
// Parses the options, binds input files to the model's inputs, loads them
// into arrays, calls the model, and writes or prints the outputs: a user of
// the instance API (mlxrt_api.h) like any other program, kept in
// libmlxrt_main.a with main() so that the library itself never prints and
// never reads the environment. Exit codes: 0 success, 1 runtime error
// (files, memory, device), 2 usage error.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L // clock_gettime

#include "mlxrt_api.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { ExitOk = 0, ExitRuntime = 1, ExitUsage = 2 };

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

typedef struct {
  const char *name; ///< NULL: bound by position.
  const char *spec; ///< FILE, FILE.npz:ENTRY or FILE.safetensors:TENSOR.
} InputArg;

typedef struct {
  InputArg *inputs;
  size_t numInputs;
  const char **outputs;
  size_t numOutputs;
  const char *device; ///< NULL: CUDA when available, else the CPU.
  long repeat;        ///< 0: run once, untimed.
  bool cold;          ///< --cold: the host rewrites inputs before each run.
  /// --in-place: outputs the program may write into their inputs'
  /// buffers (a KV cache) are.
  bool inPlace;
  bool help;
  bool version;
} Options;

/// Matches "--opt VALUE" and "--opt=VALUE" at argv[*i]; returns 1 with
/// *value set, 0 if argv[*i] is another option, -1 if the value is missing.
static int matchOption(int argc, char **argv, int *i, const char *opt,
                       const char **value) {
  size_t n = strlen(opt);
  if (strncmp(argv[*i], opt, n) != 0)
    return 0;
  if (argv[*i][n] == '=') {
    *value = argv[*i] + n + 1;
    return 1;
  }
  if (argv[*i][n] != '\0')
    return 0;
  if (*i + 1 >= argc)
    return -1;
  *value = argv[++*i];
  return 1;
}

/// An input argument binds by name when the text before its first '=' is a
/// name: non-empty and not a path (no '/'). "./a=b.npy" stays a path.
static void splitInput(const char *arg, InputArg *input) {
  const char *eq = strchr(arg, '=');
  input->name = NULL;
  input->spec = arg;
  if (eq && eq != arg && !memchr(arg, '/', (size_t)(eq - arg))) {
    input->name = arg; // The caller copies the name out.
    input->spec = eq + 1;
  }
}

static int parseOptions(int argc, char **argv, Options *opts, char **nameBuf,
                        FILE *errs) {
  for (int i = 1; i < argc; ++i) {
    const char *value = NULL;
    const char *arg = argv[i];
    int m;
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      opts->help = true;
    } else if (strcmp(arg, "--version") == 0) {
      opts->version = true;
    } else if ((m = matchOption(argc, argv, &i, "--input", &value)) != 0) {
      if (m < 0)
        goto missing;
      InputArg *in = &opts->inputs[opts->numInputs];
      splitInput(value, in);
      if (in->name) {
        // Keep the name as its own string; argv stays untouched.
        size_t len = (size_t)(in->spec - 1 - in->name);
        char *name = malloc(len + 1);
        if (!name) {
          fprintf(errs, "error: out of memory\n");
          return ExitRuntime;
        }
        memcpy(name, in->name, len);
        name[len] = '\0';
        nameBuf[opts->numInputs] = name;
        in->name = name;
      }
      if (!*in->spec) {
        fprintf(errs, "error: --input%s%s: empty file name\n",
                *value ? " " : "", value);
        return ExitUsage;
      }
      ++opts->numInputs;
    } else if ((m = matchOption(argc, argv, &i, "--output", &value)) != 0) {
      if (m < 0)
        goto missing;
      if (!*value) {
        fprintf(errs, "error: --output: empty file name\n");
        return ExitUsage;
      }
      opts->outputs[opts->numOutputs++] = value;
    } else if ((m = matchOption(argc, argv, &i, "--device", &value)) != 0) {
      if (m < 0)
        goto missing;
      opts->device = value;
    } else if ((m = matchOption(argc, argv, &i, "--repeat", &value)) != 0) {
      if (m < 0)
        goto missing;
      char *end;
      errno = 0;
      long n = strtol(value, &end, 10);
      // The bound keeps the array of times small.
      if (errno || end == value || *end || n < 1 || n > 10000000) {
        fprintf(errs,
                "error: --repeat needs an integer from 1 to 10000000, got "
                "'%s'\n",
                value);
        return ExitUsage;
      }
      opts->repeat = n;
    } else if (strcmp(arg, "--cold") == 0) {
      opts->cold = true;
    } else if (strcmp(arg, "--in-place") == 0) {
      opts->inPlace = true;
    } else if (arg[0] == '-') {
      fprintf(errs, "error: unknown option '%s' (see --help)\n", arg);
      return ExitUsage;
    } else {
      fprintf(errs,
              "error: unexpected argument '%s' (give input files with "
              "--input; see --help)\n",
              arg);
      return ExitUsage;
    }
    continue;
  missing:
    fprintf(errs, "error: option '%s' needs a value\n", arg);
    return ExitUsage;
  }
  return ExitOk;
}

//===----------------------------------------------------------------------===//
// Help
//===----------------------------------------------------------------------===//

static void printParams(FILE *out, const char *title, const mlxrt_param *ps,
                        size_t n, int width) {
  fprintf(out, "%s:\n", title);
  if (n == 0)
    fprintf(out, "  (none)\n");
  for (size_t i = 0; i < n; ++i) {
    char type[256];
    fprintf(out, "  %-*s  %s\n", width, ps[i].name,
            mlxrt_tensor_type_str(&ps[i].type, type, sizeof(type)));
  }
}

static const char NoCudaCode[] =
    "this program was compiled without CUDA code; recompile with mlxc "
    "--target=cuda";

/// The devices the program can run on: the CPU, and the GPUs that are
/// present if it has CUDA code.
static void printDevices(FILE *out, bool hasCuda,
                         const mlxrt_instance_options *options) {
  fprintf(out, "devices:\n  cpu\n");
  if (!hasCuda) {
    fprintf(out, "  (no cuda: %s)\n", NoCudaCode);
    return;
  }
  char reason[512];
  int count = mlxrt_cuda_device_count(options, reason, sizeof(reason));
  if (count == 0) {
    fprintf(out, "  cuda    (not available here: %s)\n", reason);
    return;
  }
  for (int i = 0; i < count; ++i) {
    char name[256];
    mlxrt_error err;
    const char *shown = name;
    if (mlxrt_cuda_device_name(options, i, name, sizeof(name), &err) !=
        MLXRT_OK)
      shown = err.message;
    fprintf(out, "  cuda:%-3d %s%s\n", i, shown, i == 0 ? " (= cuda)" : "");
  }
}

static void printHelp(FILE *out, const char *prog, const mlxrt_signature *sig,
                      bool hasCuda, const mlxrt_instance_options *options) {
  int width = 4;
  for (size_t i = 0; i < sig->num_inputs; ++i)
    if ((int)strlen(sig->inputs[i].name) > width)
      width = (int)strlen(sig->inputs[i].name);
  for (size_t i = 0; i < sig->num_outputs; ++i)
    if ((int)strlen(sig->outputs[i].name) > width)
      width = (int)strlen(sig->outputs[i].name);

  fprintf(
      out,
      "usage: %s [--input [NAME=]FILE]... [--output FILE]...\n"
      "       [--device=cpu|cuda|cuda:N] [--repeat N] [--in-place] [--help] "
      "[--version]\n\n"
      "Runs '%s', compiled by mlxc.\n\n",
      prog, sig->entry);
  printParams(out, "inputs", sig->inputs, sig->num_inputs, width);
  printParams(out, "outputs", sig->outputs, sig->num_outputs, width);
  printDevices(out, hasCuda, options);
  fputs(
      "\noptions:\n"
      "  --input FILE         the next input not bound by name\n"
      "  --input NAME=FILE    the input called NAME\n"
      "                       FILE is a .npy file, FILE.npz[:ENTRY] or\n"
      "                       FILE.safetensors[:TENSOR]; ENTRY and TENSOR\n"
      "                       default to the input's name\n"
      "  --output FILE        write the next output to FILE as .npy; outputs\n"
      "                       after the last --output are not written, and\n"
      "                       with no --output all are summarized on stdout\n"
      "  --device=DEVICE      cpu, cuda or cuda:N (default: cuda when a CUDA\n"
      "                       device is present and the program has CUDA\n"
      "                       code, else cpu)\n"
      "  --cold               with --repeat: before each run the host writes\n"
      "                       every input page, and each timed run ends when\n"
      "                       the host has read every output page (wall\n"
      "                       clock; measures unified-memory traffic)\n"
      "  --repeat N           after one warm-up run, run N times and print\n"
      "                       the median time\n"
      "  --in-place           an output the program updates from an input\n"
      "                       (a KV cache) is written into that input's\n"
      "                       buffer: only the update moves\n"
      "  --help               show this text\n"
      "  --version            show the runtime's version\n"
      "\n"
      "Each input file must hold exactly the dtype and shape shown above,\n"
      "and be a regular file (not a FIFO or a device). Fortran-order .npy\n"
      "files (as mx.save writes 1-D arrays) are read like C-order ones.\n"
      "bfloat16 .npy files are as mx.save writes them: descr '<V2' (numpy\n"
      "has no bfloat16) and the raw bits. mx.load reads them as bfloat16;\n"
      "numpy loads them as 2-byte voids: view them as ml_dtypes.bfloat16, or\n"
      "as float32 with (a.view('<u2').astype('<u4') << 16).view('<f4').\n"
      "A bfloat16 input also accepts float32 data (rounded to nearest\n"
      "even). float16 is .npy's '<f2'.\n"
      "Output files are written completely or not at all: each to a new\n"
      "file beside it, renamed over it once every output is written\n"
      "(through a symbolic link, over the link's target). Devices and FIFOs\n"
      "(/dev/null, /dev/stdout) are written in place.\n"
      "On a GPU, inputs and outputs live in unified memory; set\n"
      "MLXRT_NO_UNIFIED=1 to copy them to and from the device instead.\n"
      "\n"
      "Needs at run time: Linux on an x86-64 CPU with AVX2, FMA, BMI2 and\n"
      "F16C (x86-64-v3, mlxc's default --cpu; a program compiled with\n"
      "another --cpu needs what that names), glibc 2.34 or newer, and\n"
      "zlib (libz.so.1).\n",
      out);
  if (hasCuda)
    fputs("For the GPU: an NVIDIA driver (libcuda.so.1, or the library\n"
          "MLXRT_LIBCUDA names) and a GPU from Volta (sm_70) on; a graph\n"
          "with matrix products also needs cuBLASLt (libcublasLt.so.13 or\n"
          ".12, or the library MLXRT_LIBCUBLASLT names). Without a driver\n"
          "or a GPU the program runs on the CPU.\n",
          out);
}

/// --version: the runtime, and the program it runs (sig: NULL when its
/// signature does not parse).
static void printVersion(FILE *out, const mlxrt_signature *sig, bool hasCuda) {
  fprintf(out, "mlxrt %s\n", mlxrt_version());
  if (sig)
    fprintf(out, "program '%s', compiled by mlxc (%s)\n", sig->entry,
            hasCuda ? "CPU and CUDA code" : "CPU code only");
}

//===----------------------------------------------------------------------===//
// Binding inputs
//===----------------------------------------------------------------------===//

/// Appends "'a', 'b'" (at most 8 names, then ", ...") to a message.
static void appendName(char *buf, size_t size, size_t *count,
                       const char *name) {
  enum { MaxListed = 8 };
  size_t used = strlen(buf);
  if (*count < MaxListed)
    snprintf(buf + used, size - used, "%s'%s'", *count ? ", " : "", name);
  else if (*count == MaxListed)
    snprintf(buf + used, size - used, ", ...");
  ++*count;
}

/// Fills bound[k] with the index of the argument that feeds input k.
static int bindInputs(const mlxrt_signature *sig, const Options *opts,
                      size_t *bound, FILE *errs) {
  const size_t unbound = (size_t)-1;
  for (size_t k = 0; k < sig->num_inputs; ++k)
    bound[k] = unbound;
  for (size_t a = 0; a < opts->numInputs; ++a) {
    if (!opts->inputs[a].name)
      continue;
    size_t k = 0;
    while (k < sig->num_inputs &&
           strcmp(sig->inputs[k].name, opts->inputs[a].name) != 0)
      ++k;
    if (k == sig->num_inputs) {
      char names[512] = "";
      size_t count = 0;
      for (size_t i = 0; i < sig->num_inputs; ++i)
        appendName(names, sizeof(names), &count, sig->inputs[i].name);
      fprintf(errs, "error: no input named '%s' (inputs: %s)\n",
              opts->inputs[a].name, count ? names : "none");
      return ExitUsage;
    }
    if (bound[k] != unbound) {
      fprintf(errs, "error: input '%s' given twice\n", sig->inputs[k].name);
      return ExitUsage;
    }
    bound[k] = a;
  }
  size_t next = 0;
  for (size_t a = 0; a < opts->numInputs; ++a) {
    if (opts->inputs[a].name)
      continue;
    while (next < sig->num_inputs && bound[next] != unbound)
      ++next;
    if (next == sig->num_inputs) {
      fprintf(errs, "error: expected %zu input%s, got %zu\n", sig->num_inputs,
              sig->num_inputs == 1 ? "" : "s", opts->numInputs);
      return ExitUsage;
    }
    bound[next] = a;
  }
  char missing[512] = "";
  size_t count = 0;
  for (size_t k = 0; k < sig->num_inputs; ++k)
    if (bound[k] == unbound)
      appendName(missing, sizeof(missing), &count, sig->inputs[k].name);
  if (count) {
    fprintf(errs, "error: expected %zu input%s, got %zu (missing: %s)\n",
            sig->num_inputs, sig->num_inputs == 1 ? "" : "s", opts->numInputs,
            missing);
    return ExitUsage;
  }
  return ExitOk;
}

//===----------------------------------------------------------------------===//
// Printing outputs
//===----------------------------------------------------------------------===//

static void printValue(FILE *out, mlxrt_dtype dtype, const void *data,
                       uint64_t i) {
  const unsigned char *p =
      (const unsigned char *)data + i * mlxrt_dtype_size(dtype);
  union {
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    float f32;
    double f64;
    float c64[2];
  } v;
  memcpy(&v, p, mlxrt_dtype_size(dtype));
  switch (dtype) {
  case MLXRT_DTYPE_BOOL:
    fputs(v.u8 ? "True" : "False", out);
    break;
  case MLXRT_DTYPE_UINT8:
    fprintf(out, "%" PRIu8, v.u8);
    break;
  case MLXRT_DTYPE_UINT16:
    fprintf(out, "%" PRIu16, v.u16);
    break;
  case MLXRT_DTYPE_UINT32:
    fprintf(out, "%" PRIu32, v.u32);
    break;
  case MLXRT_DTYPE_UINT64:
    fprintf(out, "%" PRIu64, v.u64);
    break;
  case MLXRT_DTYPE_INT8:
    fprintf(out, "%" PRId8, v.i8);
    break;
  case MLXRT_DTYPE_INT16:
    fprintf(out, "%" PRId16, v.i16);
    break;
  case MLXRT_DTYPE_INT32:
    fprintf(out, "%" PRId32, v.i32);
    break;
  case MLXRT_DTYPE_INT64:
    fprintf(out, "%" PRId64, v.i64);
    break;
  case MLXRT_DTYPE_FLOAT16:
    fprintf(out, "%.6g", (double)mlxrt_float16_to_float(v.u16));
    break;
  case MLXRT_DTYPE_BFLOAT16:
    fprintf(out, "%.6g", (double)mlxrt_bfloat16_to_float(v.u16));
    break;
  case MLXRT_DTYPE_FLOAT32:
    fprintf(out, "%.6g", (double)v.f32);
    break;
  case MLXRT_DTYPE_FLOAT64:
    fprintf(out, "%.6g", v.f64);
    break;
  case MLXRT_DTYPE_COMPLEX64:
    fprintf(out, "%.6g%+.6gj", (double)v.c64[0], (double)v.c64[1]);
    break;
  case MLXRT_DTYPE_COUNT:
    break;
  }
}

/// "out0: float32 [2, 3] = [1, 2, 3, 4, 5, 6]", at most 8 values.
static void printSummary(FILE *out, const mlxrt_param *p, const void *data) {
  char type[256];
  fprintf(out, "%s: %s = ", p->name,
          mlxrt_tensor_type_str(&p->type, type, sizeof(type)));
  uint64_t n = mlxrt_tensor_numel(&p->type);
  if (p->type.rank == 0) {
    printValue(out, p->type.dtype, data, 0);
    fputc('\n', out);
    return;
  }
  fputc('[', out);
  for (uint64_t i = 0; i < n && i < 8; ++i) {
    if (i)
      fputs(", ", out);
    printValue(out, p->type.dtype, data, i);
  }
  if (n > 8)
    fprintf(out, ", ...] (%" PRIu64 " values)\n", n);
  else
    fputs("]\n", out);
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

//===----------------------------------------------------------------------===//
// The environment
//===----------------------------------------------------------------------===//

/// Whether a flag variable is set to anything but "" or "0".
static bool flagSet(const char *name) {
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0;
}

static const char *pathOrNull(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : NULL;
}

/// The instance's options as the environment sets them (see --help).
static void optionsFromEnv(mlxrt_instance_options *options) {
  mlxrt_instance_options_init(options);
  options->memory =
      flagSet("MLXRT_NO_UNIFIED") ? MLXRT_MEMORY_COPY : MLXRT_MEMORY_AUTO;
  options->no_cuda_graphs = flagSet("MLXRT_NO_GRAPH");
  // One call per process (or --repeat's own warm-up call): a run on zeros
  // at opening would only add to it.
  options->no_warm_up = 1;
  options->libcuda = pathOrNull("MLXRT_LIBCUDA");
  options->libcublaslt = pathOrNull("MLXRT_LIBCUBLASLT");
  options->cuda_home = pathOrNull("CUDA_HOME");
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

/// An error of the API without the "model 'NAME': " (or "model 'NAME', ")
/// it starts with: an executable runs one model.
static const char *withoutModel(const char *name, const mlxrt_error *err) {
  const char *m = err->message;
  size_t n = strlen(name);
  if (strncmp(m, "model '", 7) == 0 && strncmp(m + 7, name, n) == 0 &&
      m[7 + n] == '\'' && (m[8 + n] == ':' || m[8 + n] == ',') &&
      m[9 + n] == ' ')
    return m + 10 + n;
  return m;
}

/// What the trace callback keeps: the program's time of the last call (for
/// --repeat), and whether to print the trace (MLXRT_TRACE=1).
typedef struct {
  FILE *errs;
  bool print;
  bool onCuda;
  double programMs;
} Trace;

static void onTrace(void *user, const mlxrt_trace_event *event) {
  Trace *trace = user;
  if (event->kind == MLXRT_TRACE_PROGRAM)
    trace->programMs = event->ms;
  // The lines of a GPU's run; the CPU has no transfers to report.
  if (!trace->print || !trace->onCuda)
    return;
  switch (event->kind) {
  case MLXRT_TRACE_INPUTS_PLACED:
    fprintf(trace->errs, "mlxrt trace: inputs placed in %.3f ms\n", event->ms);
    break;
  case MLXRT_TRACE_PROGRAM:
    fprintf(trace->errs, "mlxrt trace: program %.3f ms (events), ", event->ms);
    break;
  case MLXRT_TRACE_OUTPUTS_PLACED:
    fprintf(trace->errs, "outputs placed in %.3f ms\n", event->ms);
    break;
  case MLXRT_TRACE_NOTE:
    fprintf(trace->errs, "mlxrt trace: %s\n", event->text);
    break;
  case MLXRT_TRACE_TO_DEVICE:
  case MLXRT_TRACE_TO_HOST:
    break;
  }
}

/// What one invocation holds; released by releaseRun.
typedef struct {
  const struct mlxrt_model_abi *linked;
  mlxrt_model_info info;
  mlxrt_signature sig;
  Options opts;
  char **names; ///< Copies of NAME in --input NAME=FILE, by argument.
  int argc;
  size_t *bound;
  mlxrt_instance_options options;
  Trace trace;
  mlxrt_instance *inst;
  mlxrt_model *model;
  mlxrt_array **inputs;
  /// The outputs' arrays: a donated input's (--in-place), else the model's.
  mlxrt_array **outputs;
  mlxrt_npy_files *files; ///< The --output files, open from before the run.
  double *times;
} Run;

static bool isInput(const Run *run, const mlxrt_array *a) {
  for (size_t k = 0; k < run->sig.num_inputs; ++k)
    if (run->inputs[k] == a)
      return true;
  return false;
}

static void releaseRun(Run *run) {
  // Removes the temporaries of outputs not (all) written.
  mlxrt_npy_files_close(run->files);
  for (size_t k = 0; run->outputs && k < run->sig.num_outputs; ++k)
    if (run->outputs[k] && !isInput(run, run->outputs[k]))
      mlxrt_array_release(run->outputs[k]);
  for (size_t k = 0; run->inputs && k < run->sig.num_inputs; ++k)
    mlxrt_array_release(run->inputs[k]);
  mlxrt_model_close(run->model);
  mlxrt_instance_destroy(run->inst);
  if (run->names)
    for (int i = 0; i < run->argc; ++i)
      free(run->names[i]);
  free(run->names);
  free(run->opts.inputs);
  free(run->opts.outputs);
  free(run->bound);
  free(run->inputs);
  free(run->outputs);
  free(run->times);
  mlxrt_signature_free(&run->sig);
}

/// The instance: the --device, else CUDA when the program has CUDA code and
/// a GPU is there, else the CPU, with a note that says why only when the
/// program could have used a GPU (a CPU-only program has nothing to say on
/// every run).
static int createInstance(Run *run, FILE *errs) {
  mlxrt_instance_options *options = &run->options;
  mlxrt_error err;
  mlxrt_status st;
  bool hasCuda = run->info.has_cuda;
  if (run->opts.device) {
    mlxrt_device_kind kind;
    int ordinal;
    st = mlxrt_device_parse_name(run->opts.device, &kind, &ordinal, &err);
    if (st == MLXRT_OK && kind == MLXRT_DEVICE_CUDA && !hasCuda) {
      st = MLXRT_ERROR_DEVICE;
      snprintf(err.message, sizeof(err.message), "no CUDA device: %s",
               NoCudaCode);
    }
    options->device = run->opts.device;
    if (st == MLXRT_OK)
      st = mlxrt_instance_create(options, &run->inst, &err);
  } else if (!hasCuda) {
    options->device = "cpu";
    st = mlxrt_instance_create(options, &run->inst, &err);
  } else {
    char reason[sizeof(err.message)];
    st = MLXRT_ERROR_DEVICE;
    options->device = "cuda";
    if (mlxrt_cuda_device_count(options, reason, sizeof(reason)) > 0 &&
        (st = mlxrt_instance_create(options, &run->inst, &err)) != MLXRT_OK) {
      const char *why = err.message;
      if (strncmp(why, "no CUDA device: ", 16) == 0)
        why += 16;
      snprintf(reason, sizeof(reason), "%s", why);
    }
    if (st != MLXRT_OK) {
      fprintf(errs, "note: no CUDA device (%s); running on the CPU\n", reason);
      options->device = "cpu";
      st = mlxrt_instance_create(options, &run->inst, &err);
    }
  }
  if (st != MLXRT_OK) {
    fprintf(errs, "error: %s\n", err.message);
    return st == MLXRT_ERROR_INVALID_ARGUMENT ? ExitUsage : ExitRuntime;
  }
  run->trace.onCuda =
      mlxrt_instance_device_kind(run->inst) == MLXRT_DEVICE_CUDA && hasCuda;
  return ExitOk;
}

/// Opens the model, reads the inputs, and with --in-place donates to each
/// output the program updates from an input (a KV cache) that input.
static int prepareArrays(Run *run, FILE *errs) {
  const mlxrt_signature *sig = &run->sig;
  mlxrt_error err;
  if (mlxrt_model_open(run->inst, run->linked, &run->model, &err) != MLXRT_OK) {
    fprintf(errs, "error: %s\n", withoutModel(run->info.name, &err));
    return ExitRuntime;
  }
  for (size_t k = 0; k < sig->num_inputs; ++k) {
    if (mlxrt_model_load_input(run->model, k,
                               run->opts.inputs[run->bound[k]].spec,
                               &run->inputs[k], &err) != MLXRT_OK) {
      fprintf(errs, "error: %s\n", err.message);
      return ExitRuntime;
    }
  }
  for (size_t k = 0; run->opts.inPlace && k < sig->num_outputs; ++k) {
    const mlxrt_param *p = &sig->outputs[k];
    long j = run->trace.onCuda ? p->cuda_in_place_of : p->cpu_in_place_of;
    if (j >= 0)
      run->outputs[k] = run->inputs[j];
  }
  return ExitOk;
}

/// The host writes every page of the inputs, as a producer would (--cold).
static mlxrt_status touchInputs(Run *run, size_t *bytes, mlxrt_error *err) {
  for (size_t k = 0; k < run->sig.num_inputs; ++k) {
    void *data;
    mlxrt_status st =
        mlxrt_array_map(run->inputs[k], MLXRT_ACCESS_WRITE, &data, err);
    if (st != MLXRT_OK)
      return st;
    volatile unsigned char *p = data;
    size_t n = run->sig.inputs[k].type.nbytes;
    for (size_t off = 0; off < n; off += 4096)
      p[off] = p[off];
    *bytes += n;
  }
  return MLXRT_OK;
}

/// ... and reads every page of the outputs.
static mlxrt_status touchOutputs(Run *run, size_t *bytes, mlxrt_error *err) {
  unsigned sum = 0;
  for (size_t k = 0; k < run->sig.num_outputs; ++k) {
    void *data;
    mlxrt_status st =
        mlxrt_array_map(run->outputs[k], MLXRT_ACCESS_READ, &data, err);
    if (st != MLXRT_OK)
      return st;
    const volatile unsigned char *p = data;
    size_t n = run->sig.outputs[k].type.nbytes;
    for (size_t off = 0; off < n; off += 4096)
      sum += p[off];
    *bytes += n;
  }
  (void)sum;
  return MLXRT_OK;
}

static double millisecondsSince(const struct timespec *t0) {
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (double)(t1.tv_sec - t0->tv_sec) * 1e3 +
         (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

static int execute(Run *run, FILE *out, FILE *errs) {
  const mlxrt_signature *sig = &run->sig;
  mlxrt_error err;
  mlxrt_status st = MLXRT_OK;
  // With --repeat, a warm-up call first (page faults, caches, the CUDA
  // graph's capture), then the timed calls, each given the arrays of the
  // one before; the outputs are those of the last call.
  long calls = run->opts.repeat ? run->opts.repeat + 1 : 1;
  size_t movedBytes = 0;
  for (long r = 0; r < calls && st == MLXRT_OK; ++r) {
    struct timespec t0;
    if (run->opts.cold) {
      movedBytes = 0;
      st = touchInputs(run, &movedBytes, &err);
      clock_gettime(CLOCK_MONOTONIC, &t0);
    }
    if (st == MLXRT_OK)
      st = mlxrt_model_call(run->model, run->inputs, sig->num_inputs,
                            run->outputs, sig->num_outputs, &err);
    // Each call's own time, and its failure, before the next.
    if (st == MLXRT_OK)
      st = mlxrt_instance_synchronize(run->inst, &err);
    double ms = run->trace.programMs;
    if (run->opts.cold && st == MLXRT_OK) {
      st = touchOutputs(run, &movedBytes, &err);
      ms = millisecondsSince(&t0);
    }
    if (r > 0)
      run->times[r - 1] = ms;
  }
  if (st != MLXRT_OK) {
    fprintf(errs, "error: %s\n", withoutModel(run->info.name, &err));
    return ExitRuntime;
  }

  if (run->opts.numOutputs == 0) {
    for (size_t k = 0; k < sig->num_outputs; ++k) {
      void *data;
      if (mlxrt_array_map(run->outputs[k], MLXRT_ACCESS_READ, &data, &err) !=
          MLXRT_OK) {
        fprintf(errs, "error: output '%s': %s\n", sig->outputs[k].name,
                err.message);
        return ExitRuntime;
      }
      printSummary(out, &sig->outputs[k], data);
    }
  }
  size_t failed;
  if (run->opts.numOutputs &&
      mlxrt_npy_files_save(run->files, run->outputs, run->opts.numOutputs,
                           &failed, &err) != MLXRT_OK) {
    fprintf(errs, "error: output '%s': %s\n", sig->outputs[failed].name,
            err.message);
    return ExitRuntime;
  }

  if (run->opts.repeat) {
    size_t n = (size_t)run->opts.repeat;
    qsort(run->times, n, sizeof(double), compareDoubles);
    double median = n % 2 ? run->times[n / 2]
                          : (run->times[n / 2 - 1] + run->times[n / 2]) / 2;
    fprintf(out, "median %.3f ms over %zu run%s\n", median, n,
            n == 1 ? "" : "s");
    if (run->opts.cold && median > 0)
      fprintf(out, "cold: %zu bytes in and out, %.1f GB/s\n", movedBytes,
              (double)movedBytes / (median * 1e6));
  }
  return ExitOk;
}

/// Opens every --output file (creates the temporaries) before anything
/// runs, so that a bad output path fails before a long computation rather
/// than after it.
static int openOutputs(Run *run, FILE *errs) {
  const mlxrt_signature *sig = &run->sig;
  mlxrt_error err;
  size_t failed = 0;
  mlxrt_status st = MLXRT_OK;
  if (run->opts.numOutputs)
    st = mlxrt_npy_files_open(run->opts.outputs, run->opts.numOutputs,
                              &run->files, &failed, &err);
  if (st == MLXRT_ERROR_INVALID_ARGUMENT) { // Two paths name one file.
    fprintf(errs, "error: %s\n", err.message);
    return ExitUsage;
  }
  if (st != MLXRT_OK && failed < sig->num_outputs) {
    fprintf(errs, "error: output '%s': %s\n", sig->outputs[failed].name,
            err.message);
    return ExitRuntime;
  }
  if (run->opts.numOutputs > sig->num_outputs) {
    fprintf(errs,
            "error: %zu --output files given, but the program has %zu "
            "output%s\n",
            run->opts.numOutputs, sig->num_outputs,
            sig->num_outputs == 1 ? "" : "s");
    return ExitUsage;
  }
  return ExitOk;
}

static int runProgram(Run *run, const struct mlxrt_model_abi *linked, int argc,
                      char **argv, FILE *out, FILE *errs) {
  const char *prog = argc > 0 && argv[0] ? argv[0] : "model";
  mlxrt_error err;
  run->linked = linked;
  bool sigOk =
      mlxrt_model_describe(linked, &run->info, &err) == MLXRT_OK &&
      mlxrt_signature_parse(run->info.signature, &run->sig, &err) == MLXRT_OK;
  size_t slots = argc > 0 ? (size_t)argc : 1;
  run->argc = argc;
  run->opts.inputs = calloc(slots, sizeof(InputArg));
  run->opts.outputs = calloc(slots, sizeof(char *));
  run->names = calloc(slots, sizeof(char *));
  if (!run->opts.inputs || !run->opts.outputs || !run->names) {
    fprintf(errs, "error: out of memory\n");
    return ExitRuntime;
  }
  int rc = parseOptions(argc, argv, &run->opts, run->names, errs);
  if (rc != ExitOk)
    return rc;
  optionsFromEnv(&run->options);
  // The version is known even when the signature is broken.
  if (run->opts.version && !run->opts.help) {
    printVersion(out, sigOk ? &run->sig : NULL, run->info.has_cuda);
    return ExitOk;
  }
  if (!sigOk) {
    fprintf(errs, "error: internal error: %s\n", err.message);
    return ExitRuntime;
  }
  if (run->opts.help) {
    printHelp(out, prog, &run->sig, run->info.has_cuda, &run->options);
    return ExitOk;
  }

  const mlxrt_signature *sig = &run->sig;
  if ((rc = openOutputs(run, errs)) != ExitOk)
    return rc;
  run->bound = calloc(sig->num_inputs + 1, sizeof(size_t));
  run->inputs = calloc(sig->num_inputs + 1, sizeof(mlxrt_array *));
  run->outputs = calloc(sig->num_outputs + 1, sizeof(mlxrt_array *));
  run->times = calloc((size_t)run->opts.repeat + 1, sizeof(double));
  if (!run->bound || !run->inputs || !run->outputs || !run->times) {
    fprintf(errs, "error: out of memory\n");
    return ExitRuntime;
  }
  if ((rc = bindInputs(sig, &run->opts, run->bound, errs)) != ExitOk)
    return rc;
  // The trace gives the program's time; a plain run needs none.
  run->trace.errs = errs;
  run->trace.print = flagSet("MLXRT_TRACE");
  if (run->trace.print || (run->opts.repeat && !run->opts.cold)) {
    run->options.trace = onTrace;
    run->options.trace_user = &run->trace;
  }
  if ((rc = createInstance(run, errs)) != ExitOk)
    return rc;
  if ((rc = prepareArrays(run, errs)) != ExitOk)
    return rc;
  return execute(run, out, errs);
}

int mlxrt_cli_run(const struct mlxrt_model_abi *linked, int argc, char **argv,
                  FILE *out, FILE *errs) {
  Run run;
  memset(&run, 0, sizeof(run));
  int rc = runProgram(&run, linked, argc, argv, out, errs);
  releaseRun(&run);
  fflush(out);
  fflush(errs);
  return rc;
}

//===----------------------------------------------------------------------===//
// The model mlxc links in
//===----------------------------------------------------------------------===//

MLXRT_DECLARE_MODEL(program);

int mlxrt_main(int argc, char **argv) {
  return mlxrt_cli_run(MLXRT_LINKED_MODEL(program), argc, argv, stdout, stderr);
}
