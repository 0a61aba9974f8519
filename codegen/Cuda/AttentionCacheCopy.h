//===- AttentionCacheCopy.h - a KV cache's copy made by attention ---------===//
//
// A decode step that returns its KV cache updated at one row, called with
// an output buffer of its own (not donated), copies the whole input cache
// into the output, writes the new rows, then attends over the output: the
// cache crosses memory three times. The split-key attention kernel reads
// every row of the cache anyway; it can read them from the input and store
// them into the output as it goes, and the copy goes.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_CODEGEN_CUDA_ATTENTIONCACHECOPY_H
#define MLXC_CODEGEN_CUDA_ATTENTIONCACHECOPY_H

#include "Kernel/KernelOps.h"

#include <optional>

namespace mlir::mlx {

/// A whole-buffer copy of `source` into a buffer that an attention op reads
/// as its keys or values, after which only the key rows [start, start +
/// size) of that buffer were written (whole rows: every head, every
/// column), and nothing else touched it.
struct CacheCopy {
  Value source;
  Value start; ///< index, defined before the attention op
  int64_t size;
};

/// Finds such a copy into `cache` (`op`'s key or value buffer, itself, not
/// a view) and takes it out of the IR (out of a copy kernel of several
/// caches, the others stay); the caller must then make it. Returns nullopt
/// and changes nothing when there is none or it cannot move.
std::optional<CacheCopy> takeCacheCopy(kernel::AttentionOp op, Value cache);

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_CUDA_ATTENTIONCACHECOPY_H
