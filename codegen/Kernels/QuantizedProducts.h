//===- QuantizedProducts.h - which quantized products a target lowers ---===//
//
// The query kernel formation asks before it keeps a kernel.quantized_matmul
// as one kernel (mlxc-quantized-products), and the limits the CUDA lowering
// (mlxc-lower-quantized-products) is built for.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_CODEGEN_KERNELS_QUANTIZEDPRODUCTS_H
#define MLXC_CODEGEN_KERNELS_QUANTIZEDPRODUCTS_H

#include "Kernel/KernelOps.h"

#include "llvm/ADT/StringRef.h"

namespace mlir::mlx {

/// Rows of x up to which the CUDA kernel that reads the packed words once
/// takes a product (a decode step, a batch of a few sequences). Each lane
/// keeps a sum per row and column it owns.
constexpr int64_t kMaxQuantizedRows = 8;

/// Whether `target` ("cpu" or "cuda") lowers `op` as one kernel over its
/// packed words; otherwise it is dequantized into a matrix first.
bool canLowerQuantizedProduct(kernel::QuantizedMatmulOp op,
                              llvm::StringRef target);

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_KERNELS_QUANTIZEDPRODUCTS_H
