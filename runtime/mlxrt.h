//===- mlxrt.h - The mlxc runtime: public C API ------------------*- C -*-===//
//
// mlxrt is the thin runtime that every program mlxc builds links against.
// This header has what its API (mlxrt_api.h: instances, models, arrays,
// calls) builds on: the tensor dtypes of MLX, the signature that the
// compiler embeds in each model, and the files that hold arrays (.npy,
// .npz, .safetensors). Models run on the CPU, or on an NVIDIA GPU through
// the CUDA driver API, loaded with dlopen so that every program also runs
// on machines without a GPU or a driver.
//
// Conventions:
//  - Every fallible function returns an mlxrt_status and, when it is not
//    MLXRT_OK, fills the caller's mlxrt_error (which may be NULL) with one
//    line of text. The library never prints and never reads the
//    environment; the command line of executables (libmlxrt_main.a, over
//    mlxrt_api.h) does both.
//  - The library has no global mutable state that a second device or a
//    second program in one process would notice. The exceptions serve the
//    compiled code's fixed ABI (mlxrt_abi.h, private), which passes no
//    handle: the loaded CUDA driver (process-wide, set once), the list of
//    the program's kernel modules, and, during a call, a thread-local
//    pointer to the running device. An instance is used by one thread at a
//    time.
//  - Host byte order is little-endian (checked at compile time), as in every
//    file format read here.
//
//===----------------------------------------------------------------------===//

#ifndef MLXRT_H
#define MLXRT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Status and errors
//===----------------------------------------------------------------------===//

typedef enum mlxrt_status {
  MLXRT_OK = 0,
  MLXRT_ERROR_INVALID_ARGUMENT, ///< A bad argument or a malformed signature.
  MLXRT_ERROR_IO,               ///< A file cannot be opened, read or written.
  MLXRT_ERROR_FORMAT,        ///< A file is truncated, corrupt or unsupported.
  MLXRT_ERROR_NOT_FOUND,     ///< An archive has no entry of that name.
  MLXRT_ERROR_MISMATCH,      ///< The data has another dtype or shape.
  MLXRT_ERROR_OUT_OF_MEMORY, ///< An allocation failed.
  MLXRT_ERROR_DEVICE,        ///< No such device, or the device failed.
} mlxrt_status;

/// One line of text that says what went wrong, filled by a failing call.
typedef struct mlxrt_error {
  char message[2048];
} mlxrt_error;

/// A short name of a status ("io error", ...), for logs.
const char *mlxrt_status_name(mlxrt_status status);

/// The runtime's version ("0.1.0"), the project's, as executables' --version
/// prints it.
const char *mlxrt_version(void);

//===----------------------------------------------------------------------===//
// Dtypes
//===----------------------------------------------------------------------===//

typedef enum mlxrt_dtype {
  MLXRT_DTYPE_BOOL,
  MLXRT_DTYPE_UINT8,
  MLXRT_DTYPE_UINT16,
  MLXRT_DTYPE_UINT32,
  MLXRT_DTYPE_UINT64,
  MLXRT_DTYPE_INT8,
  MLXRT_DTYPE_INT16,
  MLXRT_DTYPE_INT32,
  MLXRT_DTYPE_INT64,
  MLXRT_DTYPE_FLOAT16,
  MLXRT_DTYPE_BFLOAT16,
  MLXRT_DTYPE_FLOAT32,
  MLXRT_DTYPE_FLOAT64,
  MLXRT_DTYPE_COMPLEX64, /* (real, imaginary) float32 pairs */
  MLXRT_DTYPE_COUNT
} mlxrt_dtype;

/// MLX's name of a dtype ("float32"), or "?" for a value out of range.
const char *mlxrt_dtype_name(mlxrt_dtype dtype);
/// Looks up MLX's dtype name; returns 1 and sets *out when known, else 0.
int mlxrt_dtype_from_name(const char *name, mlxrt_dtype *out);
/// Bytes per element (bool takes one byte); 0 for a value out of range.
size_t mlxrt_dtype_size(mlxrt_dtype dtype);

/// float32 -> bfloat16 with round-to-nearest-even; NaN stays a (quiet) NaN.
uint16_t mlxrt_float_to_bfloat16(float value);
float mlxrt_bfloat16_to_float(uint16_t bits);
/// IEEE binary16 -> float32, exact (subnormals, infinities, NaN included).
float mlxrt_float16_to_float(uint16_t bits);

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

#define MLXRT_MAX_RANK 8

/// A dense, row-major, contiguous tensor. `data` is NULL in a descriptor that
/// only states a type (as in a signature); `nbytes` is always the size of the
/// data that dtype and dims describe.
typedef struct mlxrt_tensor {
  mlxrt_dtype dtype;
  int rank;
  int64_t dims[MLXRT_MAX_RANK];
  void *data;
  size_t nbytes;
} mlxrt_tensor;

/// Fills *t with dtype and dims (data = NULL) and computes nbytes; fails on a
/// rank above MLXRT_MAX_RANK, a negative size, or a byte count that overflows.
mlxrt_status mlxrt_tensor_init(mlxrt_tensor *t, mlxrt_dtype dtype, int rank,
                               const int64_t *dims, mlxrt_error *err);
/// The number of elements (1 for a scalar).
uint64_t mlxrt_tensor_numel(const mlxrt_tensor *t);
/// Whether a and b have the same dtype and shape (data is not compared).
int mlxrt_tensor_same_type(const mlxrt_tensor *a, const mlxrt_tensor *b);
/// Writes "float32 [8, 64]" (or "float32 scalar") into buf, always
/// NUL-terminated; returns buf.
char *mlxrt_tensor_type_str(const mlxrt_tensor *t, char *buf, size_t size);

/// 64-byte aligned host memory (never NULL on success, even for 0 bytes);
/// the message of a failure names the byte count.
mlxrt_status mlxrt_host_alloc(size_t nbytes, void **out, mlxrt_error *err);
void mlxrt_host_free(void *p);

//===----------------------------------------------------------------------===//
// Program signature
//===----------------------------------------------------------------------===//

/// One input or output of the program.
typedef struct mlxrt_param {
  char *name;
  mlxrt_tensor type; ///< data is NULL.
  /// Outputs: the index of the input whose buffer the CPU / the CUDA
  /// variant may write this output into (the caller donates it), or -1.
  long cpu_in_place_of;
  long cuda_in_place_of;
} mlxrt_param;

/// The parsed form of `mlxc_program_signature`:
///   entry <function-name>
///   input <name> <dtype> <dims>      (dims: "8,64" or "scalar")
///   output <name> <dtype> <dims>
///   cpu-in-place <output> <input>    (after both; also cuda-in-place)
typedef struct mlxrt_signature {
  char *entry;
  size_t num_inputs;
  size_t num_outputs;
  mlxrt_param *inputs;
  mlxrt_param *outputs;
} mlxrt_signature;

/// Parses a signature text. On failure *sig is left empty (safe to free) and
/// the message names the line. Names must be unique among inputs and outputs.
mlxrt_status mlxrt_signature_parse(const char *text, mlxrt_signature *sig,
                                   mlxrt_error *err);
void mlxrt_signature_free(mlxrt_signature *sig);

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

/// Reads the tensor named by `spec` into `dst`, a buffer of expected->nbytes
/// bytes allocated by the caller (host or unified memory).
///
/// `spec` is "FILE" or, for an archive, "FILE.npz:ENTRY" /
/// "FILE.safetensors:TENSOR" (the name follows the last ':'); an archive
/// without a name reads `default_entry` (for a .npz, "NAME" finds "NAME.npy").
/// The format is recognized by content, not by extension.
///
/// The file must hold exactly expected's dtype and shape; the one conversion
/// is float32 data for a bfloat16 tensor (rounded to nearest even), as numpy
/// has no bfloat16 (a .npy holds bfloat16 itself as mx.save writes it: descr
/// '<V2' or '|V2'). Bool data is normalized to 0/1. Fortran-order .npy data
/// is reordered into row-major order.
mlxrt_status mlxrt_load_tensor(const char *spec, const char *default_entry,
                               const mlxrt_tensor *expected, void *dst,
                               mlxrt_error *err);

/// Reads whatever tensor `spec` names, with the dtype and shape the file
/// gives, into new host memory (*out; free out->data with mlxrt_host_free).
mlxrt_status mlxrt_read_tensor(const char *spec, const char *default_entry,
                               mlxrt_tensor *out, mlxrt_error *err);

/// Writes t as a version 1.0 .npy to an open stream; `what` names the stream
/// in messages. bfloat16 data is written as mx.save writes it: descr '<V2'
/// (a 2-byte void, as numpy has no bfloat16) and the raw bits, which
/// mx.load reads back as bfloat16.
mlxrt_status mlxrt_npy_write(FILE *f, const char *what, const mlxrt_tensor *t,
                             mlxrt_error *err);

/// Writes t as .npy to `path`, completely or not at all: into a new
/// temporary file beside PATH (created exclusively, mode 0666 less the
/// umask), renamed over PATH when complete; through a symbolic link, beside
/// and over its target (the link stays). A path that is neither a regular
/// file nor a link to one (/dev/null, a FIFO) is written in place. After a
/// failure no temporary is left behind and an old PATH is untouched.
mlxrt_status mlxrt_npy_save(const char *path, const mlxrt_tensor *t,
                            mlxrt_error *err);

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

typedef enum mlxrt_device_kind {
  MLXRT_DEVICE_CPU,
  MLXRT_DEVICE_CUDA,
} mlxrt_device_kind;

/// Parses a device name, "cpu", "cuda" (device 0) or "cuda:N", without
/// opening anything; an unknown name is MLXRT_ERROR_INVALID_ARGUMENT.
mlxrt_status mlxrt_device_parse_name(const char *name, mlxrt_device_kind *kind,
                                     int *ordinal, mlxrt_error *err);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // MLXRT_H
