//===- MlxToLinalg.h - lowering of mlx ops to linalg ------------*- C++ -*-===//
//
// mlx ops on tensors become linalg/tensor/arith/math ops on tensors of
// signless storage types. Patterns are grouped by op family, one file each.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_CODEGEN_MLXTOLINALG_MLXTOLINALG_H
#define MLXC_CODEGEN_MLXTOLINALG_MLXTOLINALG_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::kernel {
class QuantizedMatmulOp;
} // namespace mlir::kernel

namespace mlir::mlx {

/// Maps MLX dtypes to their storage types: unsigned integers become signless
/// (the signedness lives on in the ops that were generated for them).
class MlxStorageTypeConverter : public TypeConverter {
public:
  MlxStorageTypeConverter();
};

void populateMlxElementwiseToLinalgPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns);
void populateMlxReductionToLinalgPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns);
void populateMlxDataMovementToLinalgPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns);
void populateMlxLinearToLinalgPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns);
void populateMlxConvolutionToLinalgPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns);
void populateMlxQuantizedToLinalgPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns);
void populateMlxScatterToLinalgPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns);
void populateMlxHadamardToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns);
void populateMlxLinearAlgebraToLinalgPatterns(const TypeConverter &converter,
                                              RewritePatternSet &patterns);
void populateMlxSortToLinalgPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns);
void populateMlxRopeToLinalgPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns);
void populateMlxRandomToLinalgPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns);

/// All of the above.
void populateMlxToLinalgConversionPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns);

/// Shared helpers of the pattern files.
namespace lowering {
/// The indexing map that reads an operand of `operandShape` broadcast to a
/// result of `resultShape` (NumPy rules, trailing alignment).
AffineMap getBroadcastMap(MLIRContext *ctx, ArrayRef<int64_t> operandShape,
                          ArrayRef<int64_t> resultShape);
/// A linalg.generic over `resultType` (storage) whose body computes
/// `body(builder, loc, operand elements)` from broadcast `inputs`.
Value buildElementwiseGeneric(
    OpBuilder &b, Location loc, RankedTensorType resultType, ValueRange inputs,
    ArrayRef<RankedTensorType> inputTypes,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body);
/// The tensor type of storage elements (ui32 -> i32) for an mlx tensor type.
RankedTensorType getStorageType(Type tensorType);
/// `lhs @ rhs` for static operands of (mlx) types `aType` [..., M, K] and
/// `bType` [..., K, N], both at least 2-D: batches broadcast to that of
/// `type`, operands are cast to its dtype, half types accumulate in f32.
Value buildMatmul(OpBuilder &b, Location loc, Value lhs, RankedTensorType aType,
                  Value rhs, RankedTensorType bType, RankedTensorType type);
/// Converts an index element `raw` of MLX dtype `indexDtype` to `index`,
/// wrapping negative indices once and clamping into [0, size - extent].
Value normalizeIndex(OpBuilder &b, Location loc, Value raw, Type indexDtype,
                     int64_t size, int64_t extent);
/// For gather_mm/gather_qmm: the matrices of `value` (storage of mlx type
/// `type`, [batch..., R, C]) picked for each position of `outBatch`, as a
/// [outBatch..., R, C] tensor. `indices` (mlx type `indicesType`, broadcast
/// to `outBatch`) index the flattened batch; without them the position
/// itself, broadcast to the operand's batch, picks the matrix.
Value gatherMatrices(OpBuilder &b, Location loc, Value value,
                     RankedTensorType type, Value indices,
                     RankedTensorType indicesType, ArrayRef<int64_t> outBatch);
/// `op` (on tensors) as the dequantized matrix and a product: the lowering
/// of targets that have no kernel for it.
Value buildQuantizedMatmul(OpBuilder &b, kernel::QuantizedMatmulOp op);
/// Reshapes a static tensor to `shape` through collapse/expand_shape.
Value reshapeTensor(OpBuilder &b, Location loc, Value input,
                    ArrayRef<int64_t> shape);
} // namespace lowering

} // namespace mlir::mlx

#endif // MLXC_CODEGEN_MLXTOLINALG_MLXTOLINALG_H
