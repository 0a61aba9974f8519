//===- mlxrt_abi.h - The compiler <-> runtime ABI ----------------*- C -*-===//
//
// What mlxc emits and the runtime reads, in one place: codegen includes this
// header (C++) as the runtime does (C), so that no symbol name, layout or
// constant is copied by hand. Not installed: users see only the opaque
// `struct mlxrt_model_abi` of mlxrt_api.h.
//
//===----------------------------------------------------------------------===//

#ifndef MLXRT_ABI_H
#define MLXRT_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Bumped whenever the descriptor below or the meaning of an entry's
/// arguments changes; the runtime refuses a model of another version.
#define MLXRT_ABI_VERSION 1

/// A model named NAME (mlxc --name) exports
///   const struct mlxrt_model_abi mlxc_NAME_model;   the descriptor
///   const char mlxc_NAME_signature[];               its signature text
///   void mlxc_NAME_entry(void **buffers);           the CPU variant
///   void mlxc_NAME_entry_cuda(void **buffers);      with --target=cuda
///   void mlxc_NAME(T *in..., T *out...);            --emit=lib: typed entry
/// Executables are named "program": the command line's main links to
/// mlxc_program_signature, mlxc_program_entry and mlxc_program_entry_cuda.
#define MLXRT_SYMBOL_PREFIX "mlxc_"
#define MLXRT_MODEL_SUFFIX "_model"
#define MLXRT_SIGNATURE_SUFFIX "_signature"
#define MLXRT_ENTRY_SUFFIX "_entry"
#define MLXRT_ENTRY_CUDA_SUFFIX "_entry_cuda"
#define MLXRT_EXECUTABLE_MODEL_NAME "program"
/// A shared object (--emit=shared) also exports this pointer to its one
/// descriptor, so that a loader needs no name.
#define MLXRT_SHARED_MODEL_SYMBOL "mlxc_shared_model"

/// The descriptor of one compiled model. Layout as LLVM lays out
/// { i32, i32, ptr, ptr, ptr, ptr } on a 64-bit target (codegen checks it).
typedef struct mlxrt_model_abi {
  uint32_t abi_version; ///< MLXRT_ABI_VERSION of the compiler.
  uint32_t flags;       ///< MLXRT_MODEL_* below.
  const char *name;     ///< NUL-terminated model name.
  const char *signature;
  void (*entry)(void **buffers);      ///< The CPU variant.
  void (*entry_cuda)(void **buffers); ///< NULL when compiled for the CPU only.
} mlxrt_model_abi;

/// The descriptor's flags.
enum {
  /// The CUDA variant calls mlxrt_matmul: cuBLASLt is set up when the model
  /// opens.
  MLXRT_MODEL_USES_MATMUL = 1,
  /// The CUDA variant's host code only enqueues work (it calls
  /// mlxrt_graph_capturable): it reads no buffer, so a run on zeros is
  /// safe, and the runtime makes one when the model opens.
  MLXRT_MODEL_CAPTURABLE = 2,
};

/// Every GPU module mlxc builds defines this global: the names of its
/// kernels that wait for the kernel before them (griddepcontrol.wait,
/// sm_90+) before they read what that kernel may write or write anything,
/// each ended by a NUL, then one more NUL (just a NUL in the sm_70 PTX). The
/// runtime launches those with programmatic stream serialization, so that
/// they start (and read their weights) while the kernel before ends.
#define MLXRT_GRID_DEPENDENT_KERNELS_SYMBOL "mlxc_grid_dependent_kernels"

/// With --gpu-arch=sm_XX a GPU module's binary is mlxc's image container
/// (written by mlxc-embed-cubin, read by the runtime), little-endian:
///   MLXRT_IMAGE_MAGIC (8 bytes)  u32 count  u32 0
///   count x { u32 kind (MLXRT_IMAGE_*)  u32 sm (e.g. 90)
///             u32 flags (MLXRT_IMAGE_ARCH_SPECIFIC: sm_90a)  u32 0
///             u64 offset  u64 size }        (offsets from the start)
///   the images (the PTX NUL-terminated, its size counting the NUL).
#define MLXRT_IMAGE_MAGIC "MLXCIMG1"
#define MLXRT_IMAGE_HEADER_BYTES 16
#define MLXRT_IMAGE_ENTRY_BYTES 32
typedef enum mlxrt_image_kind {
  MLXRT_IMAGE_PTX = 0,
  MLXRT_IMAGE_CUBIN = 1,
} mlxrt_image_kind;
enum { MLXRT_IMAGE_ARCH_SPECIFIC = 1 };

/// The runtime functions compiled code calls, as codegen names them (their
/// declarations are below).
#define MLXRT_MATMUL_SYMBOL "mlxrt_matmul"
#define MLXRT_PREFETCH_SYMBOL "mlxrt_prefetch"
#define MLXRT_GRAPH_CAPTURABLE_SYMBOL "mlxrt_graph_capturable"

/// Where mlxrt_prefetch puts a buffer (mlx-memory-placement's numbers).
enum {
  MLXRT_PLACE_HOST = 0,           ///< Migrate to the host.
  MLXRT_PLACE_DEVICE = 1,         ///< Migrate to the device.
  MLXRT_PLACE_DEVICE_DISCARD = 2, ///< On the device; old contents are dead.
  MLXRT_PLACE_STREAM = 3,         ///< Stay in host memory, mapped for the GPU.
};

/// mlxrt_matmul's flags.
enum {
  MLXRT_MATMUL_TRANSPOSE_A = 1,
  MLXRT_MATMUL_TRANSPOSE_B = 2,
  MLXRT_MATMUL_ACCUMULATE = 4,
  /// a, b and c are host addresses of arrays of `batch` device addresses,
  /// one matrix each (products that share an operand, each in its own
  /// buffer); the batch strides must be 0.
  MLXRT_MATMUL_POINTER_ARRAYS = 8,
};

/// The most matrices of a product with MLXRT_MATMUL_POINTER_ARRAYS.
#define MLXRT_MATMUL_MAX_POINTERS 16

//===----------------------------------------------------------------------===//
// ABI of compiled CUDA code
//===----------------------------------------------------------------------===//
//
// The CUDA variant of a program (from MLIR 22's gpu-to-llvm lowering) calls
// these; they act on the device that runs it (mlxrt_device_run). Outside a
// run they do nothing: the module calls only record or forget the PTX (they
// run from global constructors and destructors), the others return NULL.
// A failing driver call is recorded in the device, later calls of the run
// become no-ops, and mlxrt_device_run reports the failure.

/// Registers a module's NUL-terminated PTX; the driver compiles it on the
/// first mgpuModuleGetFunction on each device. Touches no driver.
void *mgpuModuleLoadJIT(void *ptx, int opt_level);
/// Registers an image of `size` bytes: mlxc's container of PTX and cubins
/// (--gpu-arch), or a cubin/fatbin; the runtime picks the cubin that fits
/// the device and JITs the PTX otherwise. Touches no driver.
void *mgpuModuleLoad(void *data, size_t size);
/// Forgets a module, unloading it where it was loaded.
void mgpuModuleUnload(void *module);
/// A kernel of the module, loaded into the running device (cached).
void *mgpuModuleGetFunction(void *module, const char *name);
/// The running device's stream (one per device; destroy does nothing).
void *mgpuStreamCreate(void);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamDestroy(void *stream);
void mgpuLaunchKernel(void *function, intptr_t grid_x, intptr_t grid_y,
                      intptr_t grid_z, intptr_t block_x, intptr_t block_y,
                      intptr_t block_z, int32_t shared_mem_bytes, void *stream,
                      void **params, void **extra, size_t params_count);
/// An intermediate buffer that host code may touch (memref.alloc): managed
/// memory wherever the GPU has it (in copy mode too); NULL outside a run.
/// Intermediates left over are freed when the run ends. Never more than the
/// GPU has free: a larger request fails the run as out of memory.
void *_mlir_memref_to_llvm_alloc(size_t bytes);
void _mlir_memref_to_llvm_free(void *ptr);
/// gpu.alloc: plain device memory, or managed memory when host_shared.
void *mgpuMemAlloc(uint64_t bytes, void *stream, int8_t host_shared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream);
/// Places [ptr, ptr + bytes) of a unified buffer (an input, an output or a
/// managed intermediate) as `placement` says, on the stream; back to the
/// host, it also waits, as host code touches the buffer next. Nothing moves
/// in copy mode or where the GPU has no concurrent managed access. A range
/// in no buffer of the device fails the run.
void mlxrt_prefetch(int64_t ptr, int64_t bytes, int32_t placement);
/// Called first by a program whose host code only enqueues work on the
/// stream: runs of it on the same buffers after the first are captured into
/// a CUDA graph and replayed (unless MLXRT_NO_GRAPH=1).
void mlxrt_graph_capturable(void);
/// C[b] = A[b] B[b] (or C[b] += A[b] B[b] when `flags` has
/// MLXRT_MATMUL_ACCUMULATE) for b < batch, through cuBLASLt on the stream.
/// Row-major: element (i, j) of C[b] is at c + b * stride_c + i * ldc + j
/// (elements); A is m x k and B k x n, likewise, or stored transposed
/// (MLXRT_MATMUL_TRANSPOSE_A/B: element (i, l) of A at a + l * lda + i). A
/// and B are of `ab_dtype` (float32, float16 or bfloat16), C of `c_dtype`
/// (float32, or ab_dtype); products accumulate in float32. Pointers are
/// device addresses as integers; a batch stride may be 0 (broadcast). With
/// MLXRT_MATMUL_POINTER_ARRAYS, a, b and c point to host arrays of the
/// batch's device addresses instead (read during the call).
void mlxrt_matmul(int32_t ab_dtype, int32_t c_dtype, int32_t flags,
                  int64_t batch, int64_t m, int64_t n, int64_t k, int64_t a,
                  int64_t lda, int64_t stride_a, int64_t b, int64_t ldb,
                  int64_t stride_b, int64_t c, int64_t ldc, int64_t stride_c);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // MLXRT_ABI_H
