//===- Passes.td - code generation passes -------------------*- tablegen -*-===//

#ifndef MLXC_CODEGEN_PASSES_TD
#define MLXC_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

def ConvertMlxToLinalg : Pass<"convert-mlx-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower mlx ops to linalg, tensor, arith and math on tensors";
  let description = [{
    Elementwise ops, broadcast_to, full, arange become linalg.generic ops with
    broadcasting indexing maps (ready for elementwise fusion); reductions
    become linalg.reduce (argmax/argmin a two-result linalg.generic); layout
    ops become tensor reshapes, slices and linalg.transpose; gather and
    take_along_axis a linalg.generic reading with tensor.extract; matmul a
    linalg.batch_matmul. Unsigned dtypes become signless storage types; the
    generated arith ops carry the signedness. Composite ops (softmax, norms,
    attention, ...) must have been decomposed by `mlx-decompose`.

    An op without a lowering stops the pass with an error at the op.

    Before:
    ```mlir
    %z = mlx.add %x, %b : tensor<2x3xf32>, tensor<3xf32>
    ```
    After:
    ```mlir
    %e = tensor.empty() : tensor<2x3xf32>
    %z = linalg.generic {indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d1), (d0, d1) -> (d0, d1)], ...}
         ins(%x, %b : tensor<2x3xf32>, tensor<3xf32>) outs(%e : tensor<2x3xf32>) { arith.addf ... }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

#endif // MLXC_CODEGEN_PASSES_TD
