//===- AttentionShapes.h - the shapes kernel.attention's kernels take -----===//
//
// kernel.attention lowers to one of two CUDA kernels (mlxc-lower-attention):
// the flash-attention kernel of a prefill (64-query tiles on tensor cores)
// and the split-key kernel of a decode step (few query rows per key head,
// the keys spread over blocks). Kernel formation (canFormAttentionKernel)
// and the lowering decide with these predicates, so the two agree.
// Header-only: the mlx passes use it without linking the kernel dialect.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_DIALECTS_KERNEL_ATTENTIONSHAPES_H
#define MLXC_DIALECTS_KERNEL_ATTENTIONSHAPES_H

#include "mlir/IR/BuiltinTypes.h"

namespace mlir::kernel {

/// The split-key kernel's limits: query rows per key head (queries times
/// query heads per key head), and queries.
constexpr int64_t kSplitKeyMaxRows = 64, kSplitKeyMaxQueries = 16;

/// q [B, Hq, L, D], k [B, Hkv, S, D], v [B, Hkv, S, Dv], static, with Hq a
/// multiple of Hkv and one element type.
inline bool isAttentionShape(ShapedType q, ShapedType k, ShapedType v) {
  if (!q || !k || !v || !q.hasStaticShape() || !k.hasStaticShape() ||
      !v.hasStaticShape() || q.getRank() != 4 || k.getRank() != 4 ||
      v.getRank() != 4)
    return false;
  Type element = q.getElementType();
  if (k.getElementType() != element || v.getElementType() != element)
    return false;
  ArrayRef<int64_t> qs = q.getShape(), ks = k.getShape(), vs = v.getShape();
  return qs[0] == ks[0] && qs[0] == vs[0] && ks[1] == vs[1] && ks[1] > 0 &&
         qs[1] % ks[1] == 0 && ks[2] == vs[2] && qs[3] == ks[3] && qs[2] > 0 &&
         ks[2] > 0 && qs[3] > 0 && vs[3] > 0 && qs[0] > 0;
}

/// The flash-attention kernel: bf16 or f16, head dims 64 or 128, more
/// queries or query rows than a decode step's split-key kernel takes (any
/// number of queries and keys: the last 64-row tiles may be partial), any
/// mask, or a causal one with at least as many keys as queries.
inline bool isFlashAttentionShape(ShapedType q, ShapedType k, ShapedType v,
                                  bool causal) {
  if (!isAttentionShape(q, k, v))
    return false;
  Type element = q.getElementType();
  ArrayRef<int64_t> qs = q.getShape(), ks = k.getShape(), vs = v.getShape();
  auto headDim = [](int64_t d) { return d == 64 || d == 128; };
  bool splitKey = qs[2] <= kSplitKeyMaxQueries &&
                  qs[2] * (qs[1] / ks[1]) <= kSplitKeyMaxRows;
  return (element.isBF16() || element.isF16()) && headDim(qs[3]) &&
         headDim(vs[3]) && !splitKey && (!causal || ks[2] >= qs[2]);
}

/// Elements of a 16-byte access for the split-key kernel's element types
/// (bf16, f16, f32); 0 for others.
inline int64_t splitKeyVectorWidth(Type element) {
  if (element.isBF16() || element.isF16())
    return 8;
  return element.isF32() ? 4 : 0;
}

/// Whether a head dim `d` splits into a power-of-two number (at most 32) of
/// 16-byte groups: the lanes that share one key row.
inline bool isSplitKeyHeadDim(int64_t d, int64_t width) {
  if (width == 0 || d % width != 0)
    return false;
  int64_t lanes = d / width;
  return lanes <= 32 && (lanes & (lanes - 1)) == 0;
}

/// The split-key kernel: bf16, f16 or f32, head dims of whole 16-byte
/// groups (a power of two of them, at most 32), at most 16 queries and 64
/// query rows per key head, any mask or a causal one.
inline bool isSplitKeyAttentionShape(ShapedType q, ShapedType k, ShapedType v) {
  if (!isAttentionShape(q, k, v))
    return false;
  int64_t width = splitKeyVectorWidth(q.getElementType());
  ArrayRef<int64_t> qs = q.getShape(), ks = k.getShape(), vs = v.getShape();
  return isSplitKeyHeadDim(qs[3], width) && isSplitKeyHeadDim(vs[3], width) &&
         qs[2] <= kSplitKeyMaxQueries &&
         qs[2] * (qs[1] / ks[1]) <= kSplitKeyMaxRows;
}

} // namespace mlir::kernel

#endif // MLXC_DIALECTS_KERNEL_ATTENTIONSHAPES_H
