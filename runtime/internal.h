//===- internal.h - Shared internals of the mlxc runtime ---------*- C -*-===//
//
// Included first by every runtime source file: it selects the POSIX API the
// sources use (fseeko, getpid, clock_gettime, dlopen, realpath) before any
// system header. Nothing here is part of the public API.
//
//===----------------------------------------------------------------------===//

#ifndef MLXRT_INTERNAL_H
#define MLXRT_INTERNAL_H

#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 // realpath
#endif
#ifndef _FILE_OFFSET_BITS
#define _FILE_OFFSET_BITS 64
#endif

#include "mlxrt.h"
#include "mlxrt_abi.h"
#include "mlxrt_api.h"

#include <stdarg.h>
#include <stdbool.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "mlxrt reads little-endian files directly and needs a little-endian host"
#endif

#if defined(__GNUC__)
#define MLXRT_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define MLXRT_PRINTF(fmt, args)
#endif

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// Formats the message into err (if not NULL) and returns status, so that a
/// failure is one statement: `return mlxrt_fail(err, MLXRT_ERROR_IO, ...)`.
mlxrt_status mlxrt_fail(mlxrt_error *err, mlxrt_status status, const char *fmt,
                        ...) MLXRT_PRINTF(3, 4);

/// Puts a formatted prefix in front of err's message ("input 'x': ...").
void mlxrt_error_prefix(mlxrt_error *err, const char *fmt, ...)
    MLXRT_PRINTF(2, 3);

/// Copies src into dst of `size` bytes, truncating, always NUL-terminated.
void mlxrt_strlcpy(char *dst, const char *src, size_t size);

/// malloc'ed copy of the n bytes at s plus a NUL; NULL when out of memory.
char *mlxrt_strndup(const char *s, size_t n);

//===----------------------------------------------------------------------===//
// Readers: sequential byte sources that the format parsers share
//===----------------------------------------------------------------------===//

/// Monotonic wall clock in milliseconds.
double mlxrt_now_ms(void);

typedef struct mlxrt_reader mlxrt_reader;
struct mlxrt_reader {
  /// Reads up to n bytes into buf and sets *got; *got < n only at the end of
  /// the data. Called through mlxrt_reader_read.
  mlxrt_status (*read)(mlxrt_reader *r, void *buf, size_t n, size_t *got,
                       mlxrt_error *err);
  /// Names the data in messages: "a.npy", "a.npz entry 'x.npy'".
  const char *what;
  /// Offset of the next byte, as messages report it.
  uint64_t pos;
  /// The offset the data cannot extend past (UINT64_MAX: unknown), so that a
  /// header's shape is checked against it before memory is taken.
  uint64_t end;
};

/// Reads up to n bytes (fewer only at the end) and advances r->pos.
mlxrt_status mlxrt_reader_read(mlxrt_reader *r, void *buf, size_t n,
                               size_t *got, mlxrt_error *err);

/// Reads exactly n bytes; running out is a "truncated" format error that
/// says what was being read (`part`, e.g. "npy header").
mlxrt_status mlxrt_reader_read_exact(mlxrt_reader *r, void *buf, size_t n,
                                     const char *part, mlxrt_error *err);

/// A reader over `size` bytes of a file from its current position; `pos`
/// starts at `offset` so that messages give file offsets.
typedef struct mlxrt_file_reader {
  mlxrt_reader base;
  FILE *file;
  uint64_t remaining;
} mlxrt_file_reader;

void mlxrt_file_reader_init(mlxrt_file_reader *r, FILE *file, uint64_t offset,
                            uint64_t size, const char *what);

/// Seeks to an absolute offset, reporting failures against `what`.
mlxrt_status mlxrt_seek(FILE *f, uint64_t offset, const char *what,
                        mlxrt_error *err);

//===----------------------------------------------------------------------===//
// Loading (load.c) and the formats (npy.c, npz.c, safetensors.c)
//===----------------------------------------------------------------------===//

/// What a loader fills: with `expected`, the file must match it and the data
/// goes to `dst`; without, the file's own type is taken and the data goes to
/// new host memory. Either way `out` ends up describing the loaded tensor.
typedef struct mlxrt_load_request {
  const mlxrt_tensor *expected; ///< NULL: accept what the file holds.
  void *dst;                    ///< expected->nbytes bytes, with `expected`.
  mlxrt_tensor *out;
} mlxrt_load_request;

/// Checks that `found` (dtype and shape from a file's header) satisfies the
/// request, then reads its data from r, converting float32 to bfloat16 where
/// the request asks for that. `where` names the source in a mismatch message.
mlxrt_status mlxrt_load_payload(mlxrt_reader *r, const mlxrt_tensor *found,
                                const mlxrt_load_request *req,
                                const char *where, mlxrt_error *err);

/// Frees what a request without `expected` allocated, when loading fails
/// after mlxrt_load_payload succeeded.
void mlxrt_load_release(const mlxrt_load_request *req);

/// Reads one .npy from r (which must end where the .npy ends).
mlxrt_status mlxrt_npy_load(mlxrt_reader *r, const mlxrt_load_request *req,
                            mlxrt_error *err);

/// Reads entry `entry` ("x" or "x.npy") of the .npz open as `file`.
mlxrt_status mlxrt_npz_load(FILE *file, uint64_t file_size, const char *path,
                            const char *entry, const mlxrt_load_request *req,
                            mlxrt_error *err);

/// Reads tensor `name` of the .safetensors open as `file`.
mlxrt_status mlxrt_safetensors_load(FILE *file, uint64_t file_size,
                                    const char *path, const char *name,
                                    const mlxrt_load_request *req,
                                    mlxrt_error *err);

/// Appends "a, b, c" (at most a few names, then "...") to a message buffer;
/// used to list what an archive holds when an entry is missing.
void mlxrt_append_name(char *buf, size_t size, size_t *count, const char *name);

//===----------------------------------------------------------------------===//
// Output files (output.c)
//===----------------------------------------------------------------------===//

/// An output file being written, complete or not at all: a regular file
/// (or a new one) goes to a new temporary beside it, renamed over it by
/// mlxrt_output_commit; through a symbolic link, beside and over the link's
/// target, so that the link stays. Anything else (a device such as
/// /dev/null, a FIFO) is written in place (`direct`).
typedef struct mlxrt_output {
  const char *path; ///< As given; messages name it. Not owned.
  char *target;     ///< The file the temporary replaces; NULL if direct.
  char *tmp;        ///< The temporary while it exists; NULL if direct.
  FILE *file;       ///< Open for writing until mlxrt_output_close.
  bool direct;
} mlxrt_output;

/// Opens `path` for writing as described above; after a failure nothing is
/// left to discard.
mlxrt_status mlxrt_output_open(mlxrt_output *o, const char *path,
                               mlxrt_error *err);
/// Flushes, syncs (temporaries) and closes o->file; a failure is the
/// write's ("cannot write 'PATH': No space left on device").
mlxrt_status mlxrt_output_close(mlxrt_output *o, mlxrt_error *err);
/// Renames the closed temporary over its target; nothing for direct ones.
mlxrt_status mlxrt_output_commit(mlxrt_output *o, mlxrt_error *err);
/// Closes what is open and removes the temporary (never anything else);
/// also fine after a commit, or on a zeroed output.
void mlxrt_output_discard(mlxrt_output *o);

/// Whether writing outputs `a` and `b` would write one file twice: the same
/// file (device and inode) when one exists, else the same name in the same
/// real directory. Character devices (/dev/null) take any number of writes.
int mlxrt_outputs_collide(const char *a, const char *b);

//===----------------------------------------------------------------------===//
// Devices (device.c, device_cpu.c; CUDA: cuda_internal.h)
//===----------------------------------------------------------------------===//
//
// The layer under the instance API: an instance is a device, an array a
// buffer of it, a call a run.

/// The compiled program's entry point: one pointer per tensor, inputs first,
/// then outputs.
typedef void (*mlxrt_entry_fn)(void **args);

/// One device and everything the runtime keeps for it.
typedef struct mlxrt_device mlxrt_device;

void mlxrt_device_close(mlxrt_device *dev);
mlxrt_device_kind mlxrt_device_get_kind(const mlxrt_device *dev);
/// A human-readable description ("cpu", "cuda:0 (NVIDIA H200)").
const char *mlxrt_device_description(const mlxrt_device *dev);

/// A buffer for an input or output of a program, 64-byte aligned, that the
/// host reads and writes directly (before and after mlxrt_device_run).
/// A CUDA device's buffers are unified (CUDA managed) memory when the GPU
/// has concurrent managed access and the configuration allows it;
/// otherwise host memory with a device copy that runs keep in step.
mlxrt_status mlxrt_device_alloc(mlxrt_device *dev, size_t nbytes, void **out,
                                mlxrt_error *err);
void mlxrt_device_free(mlxrt_device *dev, void *p);

/// Runs `entry` once on `args` (num_inputs inputs, then num_outputs outputs,
/// each from mlxrt_device_alloc on `dev`) and waits for it; afterwards the
/// host sees the outputs. *elapsed_ms (if not NULL) receives the time the
/// program took as the device measures it (CUDA events on a GPU; the
/// transfers of the buffers before and after are not counted).
///
/// On a CUDA device `entry` must be the program's CUDA variant; a failure of
/// the driver inside it (a kernel that does not load or launch, memory that
/// runs out) is returned here with the call, the kernel and the CUDA error.
mlxrt_status mlxrt_device_run(mlxrt_device *dev, mlxrt_entry_fn entry,
                              void **args, size_t num_inputs,
                              size_t num_outputs, double *elapsed_ms,
                              mlxrt_error *err);

/// The operations each backend implements.
typedef struct mlxrt_device_ops {
  mlxrt_status (*alloc)(mlxrt_device *dev, size_t nbytes, void **out,
                        mlxrt_error *err);
  void (*free)(mlxrt_device *dev, void *p);
  mlxrt_status (*run)(mlxrt_device *dev, mlxrt_entry_fn entry, void **args,
                      size_t num_inputs, size_t num_outputs, double *elapsed_ms,
                      mlxrt_error *err);
  void (*destroy)(mlxrt_device *dev);
  /// For the instance API (NULL where host and device share the bytes, as
  /// on the CPU): a run that moves only the inputs the host wrote and
  /// leaves the outputs on the device; making a buffer current on the host
  /// before the host reads it; learning that the host wrote one.
  mlxrt_status (*runResident)(mlxrt_device *dev, mlxrt_entry_fn entry,
                              void **args, size_t num_inputs,
                              size_t num_outputs, mlxrt_error *err);
  mlxrt_status (*toHost)(mlxrt_device *dev, void *p, mlxrt_error *err);
  void (*hostWrote)(mlxrt_device *dev, void *p);
  /// Everything a model's first run would make, made at its opening: the
  /// kernel modules (JIT) and, for a model with matrix products, cuBLASLt.
  mlxrt_status (*prepare)(mlxrt_device *dev, bool matmul, mlxrt_error *err);
  /// Copies the first nbytes of buffer p into dst (NULL: toHost, then a
  /// copy from p). In unified mode, making a buffer current on the host
  /// migrates its pages there and the next run moves them back, two
  /// migrations for each token a decode loop reads: small buffers are
  /// copied out instead and stay where they are.
  mlxrt_status (*read)(mlxrt_device *dev, void *p, void *dst, size_t nbytes,
                       mlxrt_error *err);
  /// Runs of the instance API may still run when runResident returns (NULL:
  /// they never do): waits for the runs that use buffer p before the host
  /// writes it, and for every run. A failure of those runs is returned.
  mlxrt_status (*beforeHostWrite)(mlxrt_device *dev, void *p, mlxrt_error *err);
  mlxrt_status (*synchronize)(mlxrt_device *dev, mlxrt_error *err);
  /// Where the device reports its runs' phases and transfers (NULL: none).
  void (*setTrace)(mlxrt_device *dev, mlxrt_trace_fn trace, void *user);
  /// Forgets what the device keeps of program `entry` (its CUDA graphs),
  /// before its code is unloaded (NULL: nothing kept).
  void (*forgetProgram)(mlxrt_device *dev, mlxrt_entry_fn entry);
} mlxrt_device_ops;

/// The common head of every backend's device struct.
struct mlxrt_device {
  const mlxrt_device_ops *ops;
  mlxrt_device_kind kind;
  char description[128];
};

/// How a device is set up: the instance's options.
typedef struct mlxrt_device_config {
  mlxrt_memory_mode memory;
  bool noGraphs;
  const char *libcuda;     ///< NULL: libcuda.so.1.
  const char *libcublaslt; ///< NULL: the default search.
  const char *cudaHome;    ///< NULL: /usr/local/cuda.
  mlxrt_trace_fn trace;
  void *traceUser;
  /// Keep the intermediates a run frees for the next run (the instance API;
  /// executables free them).
  bool keepIntermediates;
} mlxrt_device_config;

/// The resident forms of the device's operations (see mlxrt_device_ops):
/// the plain ones where the device has none.
mlxrt_status mlxrt_device_run_resident(mlxrt_device *dev, mlxrt_entry_fn entry,
                                       void **args, size_t num_inputs,
                                       size_t num_outputs, mlxrt_error *err);
mlxrt_status mlxrt_device_to_host(mlxrt_device *dev, void *p, mlxrt_error *err);
void mlxrt_device_host_wrote(mlxrt_device *dev, void *p);
mlxrt_status mlxrt_device_before_host_write(mlxrt_device *dev, void *p,
                                            mlxrt_error *err);
mlxrt_status mlxrt_device_synchronize(mlxrt_device *dev, mlxrt_error *err);
void mlxrt_device_set_trace(mlxrt_device *dev, mlxrt_trace_fn trace,
                            void *user);
mlxrt_status mlxrt_device_read(mlxrt_device *dev, void *p, void *dst,
                               size_t nbytes, mlxrt_error *err);
mlxrt_status mlxrt_device_prepare(mlxrt_device *dev, bool matmul,
                                  mlxrt_error *err);
void mlxrt_device_forget_program(mlxrt_device *dev, mlxrt_entry_fn entry);

/// Opens a device by name (see mlxrt_device_parse_name; NULL is the CPU).
mlxrt_status mlxrt_device_open_config(const char *name,
                                      const mlxrt_device_config *config,
                                      mlxrt_device **out, mlxrt_error *err);

/// The number of CUDA devices with the driver at `libcuda` (NULL: the
/// default); 0 with a reason as in mlxrt_cuda_available.
int mlxrt_cuda_device_count_with(const char *libcuda, char *reason,
                                 size_t size);

/// mlxrt_cuda_device_name with the driver at `libcuda`.
mlxrt_status mlxrt_cuda_device_name_with(const char *libcuda, int ordinal,
                                         char *name, size_t size,
                                         mlxrt_error *err);

mlxrt_status mlxrt_cpu_device_create(mlxrt_device **out, mlxrt_error *err);
mlxrt_status mlxrt_cuda_device_create(int ordinal,
                                      const mlxrt_device_config *config,
                                      mlxrt_device **out, mlxrt_error *err);

#endif // MLXRT_INTERNAL_H
