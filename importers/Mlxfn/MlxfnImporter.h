//===- MlxfnImporter.h - .mlxfn files into the mlx dialect ------*- C++ -*-===//
//
// Turns a decoded `.mlxfn` file (MlxfnReader.h) into a module of `mlx` ops:
// one public func.func per traced function, inputs named `arg<i>` (positional)
// or by keyword, outputs named `out<i>`. Constants are `mlx.constant`s whose
// large payloads reference the file's bytes (a `dense_resource` blob over the
// mapped buffer), so weights are not copied.
//
// Every op carries the location `"<Primitive>"("file.mlxfn":F:T)`: F is the
// traced function (1-based), T the tape entry (1-based).
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_IMPORTERS_MLXFN_MLXFNIMPORTER_H
#define MLXC_IMPORTERS_MLXFN_MLXFNIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlxc {

/// True when `buffer` starts like an .mlxfn file (a short length-prefixed
/// MLX version string), whatever its name.
bool isMlxfn(llvm::MemoryBufferRef buffer);

/// Imports the `.mlxfn` file in `buffer` (named `filename` in locations and
/// diagnostics). The buffer must outlive the returned module and anything
/// derived from it. Functions are named after the file's stem, with a
/// `_<i>` suffix when the file holds several traces. Errors are reported
/// through the context's diagnostic handler; the result is then null.
mlir::OwningOpRef<mlir::ModuleOp> importMlxfn(mlir::MLIRContext *context,
                                              llvm::MemoryBufferRef buffer);

} // namespace mlxc

#endif // MLXC_IMPORTERS_MLXFN_MLXFNIMPORTER_H
