//===- mlxrt_api.h - Load compiled models once, call them often --*- C -*-===//
//
// The in-process API of the mlxc runtime: open an instance on a device, open
// the models mlxc compiled (linked into the program, or shared objects
// loaded at run time), make arrays, and call the models with arrays in and
// arrays out.
//
//   mlxrt_error err;
//   mlxrt_instance_options opts;
//   mlxrt_instance_options_init(&opts);  // device "auto": a GPU, else cpu
//   mlxrt_instance *inst;
//   mlxrt_instance_create(&opts, &inst, &err);
//   // libmlp.so from mlxc --emit=shared
//   mlxrt_model *mlp;
//   mlxrt_model_load(inst, "./libmlp.so", &mlp, &err);
//   mlxrt_array *in[5] = {x};  // x: from mlxrt_array_create(...)
//   mlxrt_model_bind_file(mlp, "weights.safetensors", in, 5, NULL, &err);
//   mlxrt_array *out[1] = {NULL};  // NULL: the model provides it
//   mlxrt_model_call(mlp, in, 5, out, 1, &err);
//   mlxrt_array_read(out[0], y, sizeof(y), &err);
//   mlxrt_array_release(out[0]);
//   ...
//   mlxrt_model_close(mlp);
//   mlxrt_instance_destroy(inst);
//
// Conventions (as in mlxrt.h): every fallible call returns an mlxrt_status
// and fills the caller's mlxrt_error (may be NULL); the library never prints
// and never reads the environment (the options say everything; a trace
// callback reports timings). A failed call changes nothing the caller can
// see. Handles keep what they need alive: an array or a model holds its
// instance, so they may be released in any order. One thread at a time per
// instance.
//
//===----------------------------------------------------------------------===//

#ifndef MLXRT_API_H
#define MLXRT_API_H

#include "mlxrt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mlxrt_instance mlxrt_instance;
typedef struct mlxrt_model mlxrt_model;
typedef struct mlxrt_array mlxrt_array;
/// The descriptor mlxc emits for a model (opaque; see mlxrt_model_open).
struct mlxrt_model_abi;

//===----------------------------------------------------------------------===//
// Instances
//===----------------------------------------------------------------------===//

typedef enum mlxrt_memory_mode {
  /// Unified (CUDA managed) memory where the GPU has concurrent managed
  /// access, else a host and a device copy of each array.
  MLXRT_MEMORY_AUTO = 0,
  /// A host and a device copy, copied around each call.
  MLXRT_MEMORY_COPY,
} mlxrt_memory_mode;

typedef enum mlxrt_trace_kind {
  MLXRT_TRACE_INPUTS_PLACED,  ///< ms: moving a call's inputs to the device.
  MLXRT_TRACE_PROGRAM,        ///< ms: the program itself (device events on
                              ///< a GPU, the wall clock on the CPU).
  MLXRT_TRACE_OUTPUTS_PLACED, ///< ms: making outputs readable by the host.
  MLXRT_TRACE_NOTE,           ///< text: e.g. why "auto" chose the CPU.
  MLXRT_TRACE_TO_DEVICE,      ///< bytes: an array copied to the device.
  MLXRT_TRACE_TO_HOST,        ///< bytes: an array moved back to the host.
} mlxrt_trace_kind;

typedef struct mlxrt_trace_event {
  mlxrt_trace_kind kind;
  double ms;        ///< Milliseconds, for the timed kinds.
  const char *text; ///< NUL-terminated; valid during the callback only.
  size_t bytes;     ///< For the transfers.
} mlxrt_trace_event;

typedef void (*mlxrt_trace_fn)(void *user, const mlxrt_trace_event *event);

typedef struct mlxrt_instance_options {
  /// "auto" or NULL (CUDA device 0 when a GPU and driver are there, else the
  /// CPU; a model without CUDA code then runs on the CPU), "cpu", "cuda",
  /// "cuda:N".
  const char *device;
  mlxrt_memory_mode memory;
  /// Nonzero: never capture and replay programs as CUDA graphs.
  int no_cuda_graphs;
  /// The CUDA driver library; NULL: libcuda.so.1. The driver is loaded once
  /// per process: the first instance that loads it decides.
  const char *libcuda;
  /// cuBLASLt; NULL: libcublasLt.so.13, .so.12, .so, then the toolkit's.
  const char *libcublaslt;
  /// The CUDA toolkit searched last for cuBLASLt; NULL: /usr/local/cuda.
  const char *cuda_home;
  mlxrt_trace_fn trace; ///< NULL: no tracing.
  void *trace_user;     ///< Passed to trace.
  /// Nonzero: a model does not run on zeros when it opens (see
  /// mlxrt_model_open), e.g. in a process that calls it once.
  int no_warm_up;
} mlxrt_instance_options;

/// The defaults: device "auto", MLXRT_MEMORY_AUTO, graphs on, no trace.
void mlxrt_instance_options_init(mlxrt_instance_options *options);

/// Opens the device the options name (options may be NULL: the defaults).
mlxrt_status mlxrt_instance_create(const mlxrt_instance_options *options,
                                   mlxrt_instance **out, mlxrt_error *err);
/// The CUDA devices that the options' driver (options->libcuda; options may
/// be NULL) sees: their number, or 0 with the reason in `reason` (e.g. why
/// libcuda.so.1 did not load). Opens no device.
int mlxrt_cuda_device_count(const mlxrt_instance_options *options, char *reason,
                            size_t size);
/// The name the driver gives CUDA device `ordinal` ("NVIDIA H200").
mlxrt_status mlxrt_cuda_device_name(const mlxrt_instance_options *options,
                                    int ordinal, char *name, size_t size,
                                    mlxrt_error *err);

/// Drops the caller's handle; the device closes when no model or array of
/// the instance remains. Handles of every kind are checked: a NULL or
/// released one is MLXRT_ERROR_INVALID_ARGUMENT (the getters return NULL,
/// -1 or 0), and releasing it again does nothing.
void mlxrt_instance_destroy(mlxrt_instance *instance);
/// The kind, or (mlxrt_device_kind)-1 for an invalid handle.
mlxrt_device_kind mlxrt_instance_device_kind(const mlxrt_instance *instance);
/// "cpu", "cuda:0 (NVIDIA H200)".
const char *mlxrt_instance_device_name(const mlxrt_instance *instance);
/// Waits until every call made on the instance has ended, and reports
/// their trace events and the first failure among them (see
/// mlxrt_model_call).
mlxrt_status mlxrt_instance_synchronize(mlxrt_instance *instance,
                                        mlxrt_error *err);

//===----------------------------------------------------------------------===//
// Models
//===----------------------------------------------------------------------===//

/// What a linked model is, read without opening it or any device.
typedef struct mlxrt_model_info {
  const char *name;      ///< mlxc --name.
  const char *signature; ///< Its text, for mlxrt_signature_parse.
  int has_cuda;          ///< Compiled with --target=cuda.
} mlxrt_model_info;

/// Fills *info from a linked model's descriptor; MLXRT_ERROR_FORMAT for a
/// model compiled for another runtime ABI.
mlxrt_status mlxrt_model_describe(const struct mlxrt_model_abi *linked,
                                  mlxrt_model_info *info, mlxrt_error *err);

/// Opens a model linked into the program: mlxc --emit=lib (or obj) --name=NAME
/// declares `mlxc_NAME_model` in its header; pass its address, or write
/// MLXRT_LINKED_MODEL(NAME). What its first call would make is made here:
/// its output buffers and, on a GPU, its kernels (the driver's JIT of the
/// PTX) and cuBLASLt's handle and workspace. A model whose GPU code only
/// enqueues work (mlxc says "capturable") also runs on zeros, unless the
/// options say no_warm_up: cuBLASLt picks and loads its kernels and the
/// intermediates are allocated now, and a second run is captured as a CUDA
/// graph that the first call's own graph is made from (an update of that
/// graph's buffers), so that the first call is quick and the next ones
/// replay. The intermediates of a call are kept for the next one, which
/// allocates nothing.
mlxrt_status mlxrt_model_open(mlxrt_instance *instance,
                              const struct mlxrt_model_abi *linked,
                              mlxrt_model **out, mlxrt_error *err);
#define MLXRT_DECLARE_MODEL(name)                                              \
  extern const struct mlxrt_model_abi mlxc_##name##_model
#define MLXRT_LINKED_MODEL(name) (&mlxc_##name##_model)

/// Opens the model `name` linked into the program by its name alone, when
/// the program exports it (linked with -rdynamic, or from a shared library
/// the program links): MLXRT_ERROR_NOT_FOUND otherwise.
mlxrt_status mlxrt_model_open_linked(mlxrt_instance *instance, const char *name,
                                     mlxrt_model **out, mlxrt_error *err);

/// Loads a shared object made by mlxc --emit=shared (dlopen; a path without
/// '/' is searched as dlopen searches). A CUDA model calls the runtime: the
/// process must have it loaded globally (linked with libmlxrt.so, or a
/// static libmlxrt.a with -rdynamic). The object stays loaded until the
/// model closes. A path's file is checked first (a 64-bit ELF shared object
/// whose header tables and loaded segments lie within it): a truncated one
/// is MLXRT_ERROR_FORMAT.
mlxrt_status mlxrt_model_load(mlxrt_instance *instance, const char *path,
                              mlxrt_model **out, mlxrt_error *err);
void mlxrt_model_close(mlxrt_model *model);

/// The name the model was compiled with (mlxc --name).
const char *mlxrt_model_name(const mlxrt_model *model);
/// Inputs and outputs: names, dtypes and shapes (owned by the model).
const mlxrt_signature *mlxrt_model_signature(const mlxrt_model *model);
/// Whether the model has CUDA code (mlxc --target=cuda).
int mlxrt_model_has_cuda(const mlxrt_model *model);
/// The index of the input named `name`, or -1.
long mlxrt_model_find_input(const mlxrt_model *model, const char *name);

//===----------------------------------------------------------------------===//
// Arrays
//===----------------------------------------------------------------------===//

/// A new array on the instance's device: a copy of the `nbytes` bytes at
/// `data` (row-major; nbytes must be what dtype and dims make), or zeros
/// when data is NULL. The caller holds one reference.
mlxrt_status mlxrt_array_create(mlxrt_instance *instance, mlxrt_dtype dtype,
                                int rank, const int64_t *dims, const void *data,
                                size_t nbytes, mlxrt_array **out,
                                mlxrt_error *err);
/// An array read from "FILE.npy", "FILE.npz:ENTRY" or
/// "FILE.safetensors:TENSOR", with the dtype and shape the file gives.
mlxrt_status mlxrt_array_load(mlxrt_instance *instance, const char *spec,
                              mlxrt_array **out, mlxrt_error *err);
/// A new array for input k of the model, read from "FILE.npy",
/// "FILE.npz[:ENTRY]" or "FILE.safetensors[:TENSOR]" (ENTRY and TENSOR
/// default to the input's name), which must hold the input's dtype and
/// shape; float32 data for a bfloat16 input is rounded to nearest even.
mlxrt_status mlxrt_model_load_input(mlxrt_model *model, size_t k,
                                    const char *spec, mlxrt_array **out,
                                    mlxrt_error *err);
void mlxrt_array_retain(mlxrt_array *array);
void mlxrt_array_release(mlxrt_array *array);

/// dtype, rank, dims and nbytes (data is NULL: read with mlxrt_array_read).
const mlxrt_tensor *mlxrt_array_type(const mlxrt_array *array);
/// Copies the array to host memory: `nbytes` must be its size.
mlxrt_status mlxrt_array_read(mlxrt_array *array, void *dst, size_t nbytes,
                              mlxrt_error *err);
/// Overwrites the array from host memory: `nbytes` must be its size.
mlxrt_status mlxrt_array_write(mlxrt_array *array, const void *src,
                               size_t nbytes, mlxrt_error *err);
typedef enum mlxrt_access {
  MLXRT_ACCESS_READ = 1,
  MLXRT_ACCESS_WRITE = 2,
  MLXRT_ACCESS_READ_WRITE = 3,
} mlxrt_access;

/// The array's bytes in host memory, without a copy: with unified memory
/// its own pages (moved to the host), in copy mode its host copy (made
/// current). With write access the host may change them until the next
/// call that takes the array, which then moves them to the device. The
/// pointer is valid until the array is released or donated to a call.
mlxrt_status mlxrt_array_map(mlxrt_array *array, mlxrt_access access,
                             void **data, mlxrt_error *err);

/// Writes the array to a .npy file (completely or not at all).
mlxrt_status mlxrt_array_save(mlxrt_array *array, const char *path,
                              mlxrt_error *err);

/// Binds the inputs named as tensors of a .safetensors or .npz file (the
/// file mx.save_safetensors writes for a model's weights): for each input k
/// with inputs[k] NULL whose name the file holds, inputs[k] becomes a new
/// array of that tensor, which must have the input's dtype and shape.
/// *num_bound (may be NULL) counts them. A file that binds none of the
/// NULL slots is MLXRT_ERROR_NOT_FOUND, whose message lists the file's
/// tensors and those inputs (a file of another model, or of other names).
/// On failure no slot changes.
mlxrt_status mlxrt_model_bind_file(mlxrt_model *model, const char *path,
                                   mlxrt_array **inputs, size_t num_inputs,
                                   size_t *num_bound, mlxrt_error *err);

/// .npy files written as one, as a program's outputs are: opening them
/// creates a new temporary file beside each path that is (or will be) a
/// regular file, so that a path that cannot be written fails before any
/// computation. Saving writes arrays[k] to paths[k]: every temporary is
/// complete before any is renamed over its path (through a symbolic link,
/// over the link's target) and before anything is written to a path that
/// is not a regular file (/dev/null, a FIFO: written in place), so that a
/// failure (a full disk) leaves every old file as it was. Two paths that
/// name one file are MLXRT_ERROR_INVALID_ARGUMENT. On failure *failed (may
/// be NULL) is the index of the path at fault.
typedef struct mlxrt_npy_files mlxrt_npy_files;
mlxrt_status mlxrt_npy_files_open(const char *const *paths, size_t n,
                                  mlxrt_npy_files **out, size_t *failed,
                                  mlxrt_error *err);
/// `n` must be the number of paths; arrays are read as mlxrt_array_map.
mlxrt_status mlxrt_npy_files_save(mlxrt_npy_files *files,
                                  mlxrt_array *const *arrays, size_t n,
                                  size_t *failed, mlxrt_error *err);
/// Removes the temporaries not renamed into place (never anything else).
void mlxrt_npy_files_close(mlxrt_npy_files *files);

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

/// Runs the model once: inputs[k] must have input k's dtype and shape.
///
/// outputs[k] NULL: on return it holds a new reference to an array with
/// output k (the model's own buffer, allocated when the model opened, while
/// the caller does not hold it from an earlier call; else a new one).
/// outputs[k] an array: written in place; it must have output k's type. If
/// it is also one of the inputs, that input is *donated*: the program reads
/// the old contents and the array holds the new ones afterwards (the state
/// of a decode step, e.g. a KV cache, goes in and comes back without a
/// copy; the storage is exchanged with the model's buffer, never shared
/// during the run). Where the CUDA variant's signature pairs the output
/// with that input (`cuda-in-place`: the output is the input updated, a KV
/// cache written at one row), the program updates the array where it is
/// and only the update moves.
///
/// Wrong counts, dtypes or shapes, arrays of another instance, one array
/// given for two outputs: MLXRT_ERROR_INVALID_ARGUMENT or
/// MLXRT_ERROR_MISMATCH with a message that names the input or output, and
/// nothing changed.
///
/// On a GPU, a call whose program replays as a CUDA graph returns once it
/// is enqueued, and the host goes on while it runs (as mx.async_eval):
/// reading, mapping or saving an array waits for the calls that write it;
/// writing, mapping for writing or releasing it, for the calls that use it.
/// So a decode loop that reads the token of step n after enqueuing step
/// n + 1 (given another array for its output) keeps the GPU busy. A failure
/// on the device, and the call's trace events, come with the first of
/// those (or mlxrt_instance_synchronize) that waits for the call.
mlxrt_status mlxrt_model_call(mlxrt_model *model, mlxrt_array *const *inputs,
                              size_t num_inputs, mlxrt_array **outputs,
                              size_t num_outputs, mlxrt_error *err);

//===----------------------------------------------------------------------===//
// Command line (libmlxrt_main.a)
//===----------------------------------------------------------------------===//

/// The command line of an executable mlxc builds (see its --help), for the
/// model `linked`, written over this API: prints to `out` and `errs`, reads
/// the settings of MLXRT_NO_UNIFIED, MLXRT_NO_GRAPH, MLXRT_LIBCUDA,
/// MLXRT_LIBCUBLASLT, CUDA_HOME and MLXRT_TRACE from the environment, and
/// returns the exit code: 0, 1 (runtime error) or 2 (usage).
int mlxrt_cli_run(const struct mlxrt_model_abi *linked, int argc, char **argv,
                  FILE *out, FILE *errs);

/// mlxrt_cli_run for the model mlxc linked into this executable
/// (mlxc_program_model), on stdout and stderr.
int mlxrt_main(int argc, char **argv);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // MLXRT_API_H
