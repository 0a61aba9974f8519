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

namespace mlir::mlx {

/// Rows of x up to which the CUDA kernel that reads the packed words once
/// takes a product (a decode step, batched decode of up to 16 sequences,
/// speculative verification). Each lane keeps a sum per row and column it
/// owns; past 16 rows the weight is better dequantized once for a product
/// on the tensor cores.
constexpr int64_t kMaxQuantizedRows = 16;

/// Whether `target` lowers `op` as one kernel over its packed words;
/// otherwise it is dequantized into a matrix first.
bool canLowerQuantizedProduct(kernel::QuantizedMatmulOp op,
                              kernel::TargetAttr target);

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_KERNELS_QUANTIZEDPRODUCTS_H
