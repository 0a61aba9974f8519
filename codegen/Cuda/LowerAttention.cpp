//===- LowerAttention.cpp - the mlxc-lower-attention pass -----------------===//
//
// kernel.attention on buffers becomes a flash-attention kernel (the
// FlashAttention-2 forward pass): a block of four warps takes 64 queries of
// one head, each warp 16 of them, and walks the keys in tiles of 64 that
// the block stages in shared memory. A warp computes its scores with
// m16n8k16 tensor-core products (WarpMatrix.h), keeps the running row max
// and sum in registers (online softmax in base 2, log2 e folded into one
// FMA), turns the probabilities into the next product's A fragments without
// leaving registers and accumulates P.V in float32. The scores never reach
// memory. A causal kernel stops at the block's last visible key tile; a
// mask (boolean or additive, broadcast) is read for each score, and a
// query head's sink starts its rows' online softmax. Lengths need not be
// multiples of the tiles: the last query tile reads the last query again
// for its rows past the end and does not store them, the last key tile
// reads the last key again and gives those scores -inf.
//
// Shared memory holds one key and one value tile, each row's 16-byte chunks
// swizzled (chunk ^ row % 8) so that the fragment reads of a warp fall in
// distinct banks. The tiles are copied asynchronously (cp.async): the
// values while the scores are computed, the next keys while P.V is.
//
// Shapes the flash-attention kernel does not take (a decode step's few
// query rows, f32) go to the split-key kernel of
// SplitKeyAttention.cpp.
//
//===----------------------------------------------------------------------===//

#include "codegen/Cuda/ChipFunctions.h"
#include "codegen/Cuda/SplitKeyAttention.h"
#include "codegen/Cuda/WarpMatrix.h"
#include "codegen/Passes.h"

#include "Kernel/AttentionShapes.h"
#include "Kernel/KernelOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCLOWERATTENTION
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

namespace {
constexpr int64_t kWarps = 4, kRowsPerWarp = 16;
constexpr int64_t kBlockRows = kWarps * kRowsPerWarp, kKeyTile = 64;
/// Blocks start a section of (batch, head) pairs at a time, as many pairs as
/// keep their keys and values within this many bytes (a third of a large
/// GPU's L2): the blocks that run together share their keys through L2.
constexpr int64_t kL2SectionBytes = 16 << 20;

/// Whether `op` touches `value` (uses it, or a view of it).
bool touches(Operation *op, Value value) {
  for (Operation *user : value.getUsers())
    if (op == user || op->isAncestor(user))
      return true;
  return false;
}

/// Whether any op strictly between `from` and `to` (one block) uses
/// `value`.
bool usedBetween(Operation *from, Operation *to, Value value) {
  for (Operation *op = from->getNextNode(); op && op != to;
       op = op->getNextNode())
    if (touches(op, value))
      return true;
  return false;
}

/// A transpose that keeps the innermost axis, as a view: the kernel reads
/// or writes through strides where a copy kernel would move the tensor.
Value transposedView(OpBuilder &b, Location loc, Value source,
                     ArrayRef<int64_t> permutation) {
  auto map = AffineMap::getPermutationMap(permutation, b.getContext());
  return memref::TransposeOp::create(b, loc, source, AffineMapAttr::get(map));
}

/// Folds the layout copies around `op` (MLX's [B, L, H, D] <-> [B, H, L, D]
/// transposes of q, k, v and the output) into strided views: an operand
/// buffer written only by a linalg.transpose just before and read only by
/// `op` is read through the transpose's source, and an output buffer read
/// only by a linalg.transpose after `op` becomes a view of its destination.
void foldLayoutCopies(kernel::AttentionOp op) {
  auto onlyUsers = [](Value buffer, Operation *a, Operation *b) {
    return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
      return user == a || user == b || isa<memref::DeallocOp>(user);
    });
  };
  auto keepsInnermost = [](linalg::TransposeOp t) {
    return t.getPermutation().back() ==
           static_cast<int64_t>(t.getPermutation().size()) - 1;
  };
  auto transposeOf = [](Value buffer) {
    for (Operation *user : buffer.getUsers())
      if (auto transpose = dyn_cast<linalg::TransposeOp>(user))
        return transpose;
    return linalg::TransposeOp();
  };
  for (OpOperand &operand : op->getOpOperands()) {
    Value buffer = operand.get();
    if (!buffer.getDefiningOp<memref::AllocOp>())
      continue;
    if (op.isDpsInit(&operand)) {
      linalg::TransposeOp copy = transposeOf(buffer);
      if (!copy || copy.getInput() != buffer || !keepsInnermost(copy) ||
          copy->getBlock() != op->getBlock() || copy->isBeforeInBlock(op) ||
          !onlyUsers(buffer, op, copy) || usedBetween(op, copy, buffer))
        continue;
      Value dest = copy.getInit();
      Operation *def = dest.getDefiningOp();
      if (usedBetween(op, copy, dest) ||
          (def &&
           (def->getBlock() != op->getBlock() || !def->isBeforeInBlock(op))) ||
          (!def && cast<BlockArgument>(dest).getOwner() != op->getBlock()))
        continue;
      // dest[perm[i]] = out[i]: out is dest seen through the inverse.
      SmallVector<int64_t> inverse(copy.getPermutation().size());
      for (auto [i, p] : llvm::enumerate(copy.getPermutation()))
        inverse[p] = i;
      OpBuilder b(op);
      operand.set(transposedView(b, op.getLoc(), dest, inverse));
      copy.erase();
      continue;
    }
    linalg::TransposeOp copy = transposeOf(buffer);
    if (!copy || copy.getInit() != buffer || !keepsInnermost(copy) ||
        copy->getBlock() != op->getBlock() || !copy->isBeforeInBlock(op) ||
        !onlyUsers(buffer, op, copy) || usedBetween(copy, op, copy.getInput()))
      continue;
    // buffer[i] = input[perm[i]]: a view of the input.
    OpBuilder b(op);
    operand.set(
        transposedView(b, op.getLoc(), copy.getInput(), copy.getPermutation()));
    copy.erase();
  }
}

/// Builds one kernel's body; every helper emits at the builder's point.
class AttentionKernelBuilder {
public:
  AttentionKernelBuilder(OpBuilder &b, Location loc, Type element,
                         FlatSymbolRefAttr mma)
      : b(b), loc(loc), element(element), mma(mma), f32(b.getF32Type()),
        i32(b.getI32Type()), resultType(LLVM::LLVMStructType::getLiteral(
                                 b.getContext(), {f32, f32, f32, f32})) {}

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value f32Const(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t y) { return y ? add(x, index(y)) : x; }
  Value mul(Value x, int64_t y) { return mul(x, index(y)); }

  /// Two 16-bit values as the i32 a fragment holds.
  Value pack(Value pair) {
    Value word =
        vector::BitCastOp::create(b, loc, VectorType::get({1}, i32), pair);
    return vector::ExtractOp::create(b, loc, word, ArrayRef<int64_t>{0});
  }
  Value packFloats(Value lo, Value hi) {
    Value l = arith::TruncFOp::create(b, loc, element, lo);
    Value h = arith::TruncFOp::create(b, loc, element, hi);
    return pack(vector::FromElementsOp::create(
        b, loc, VectorType::get({2}, element), ValueRange{l, h}));
  }

  /// D = A.B + C for one m16n8k16 fragment set.
  void mmaInto(ArrayRef<Value> a, ArrayRef<Value> bFrag,
               MutableArrayRef<Value> c) {
    SmallVector<Value> operands(a);
    llvm::append_range(operands, bFrag);
    llvm::append_range(operands, c);
    auto call = LLVM::CallOp::create(b, loc, resultType, mma, operands);
    for (int64_t i = 0; i < 4; ++i)
      c[i] = LLVM::ExtractValueOp::create(b, loc, call.getResult(), i);
  }

  /// Four 8x8 matrices from shared memory, one i32 of each per lane.
  std::array<Value, 4> ldmatrix(FlatSymbolRefAttr function, Value address) {
    Type i32t = i32;
    auto type = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                 {i32t, i32t, i32t, i32t});
    Value at = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
    auto call = LLVM::CallOp::create(b, loc, type, function, ValueRange{at});
    std::array<Value, 4> words;
    for (int64_t i = 0; i < 4; ++i)
      words[i] = LLVM::ExtractValueOp::create(b, loc, call.getResult(), i);
    return words;
  }

  /// The max or sum of `values` as a balanced tree: a chain as long as
  /// the log of their count.
  Value treeReduce(SmallVector<Value> values, bool isMax) {
    while (values.size() > 1) {
      SmallVector<Value> next;
      for (size_t i = 0; i + 1 < values.size(); i += 2)
        next.push_back(
            isMax ? arith::MaxNumFOp::create(b, loc, values[i], values[i + 1])
                        .getResult()
                  : arith::AddFOp::create(b, loc, values[i], values[i + 1])
                        .getResult());
      if (values.size() % 2)
        next.push_back(values.back());
      values = std::move(next);
    }
    return values.front();
  }

  /// `value` combined with the lanes `1` and `2` apart (a row's quad).
  Value quadReduce(Value value, bool isMax) {
    for (int offset : {1, 2}) {
      Value other = gpu::ShuffleOp::create(b, loc, value, offset, 32,
                                           gpu::ShuffleMode::XOR)
                        .getShuffleResult();
      value = isMax ? arith::MaxNumFOp::create(b, loc, value, other).getResult()
                    : arith::AddFOp::create(b, loc, value, other).getResult();
    }
    return value;
  }

  OpBuilder &b;
  Location loc;
  Type element;
  FlatSymbolRefAttr mma;
  Type f32, i32, resultType;
};

/// An ldmatrix function (WarpMatrix.h): four i32 from one i64 address.
FlatSymbolRefAttr declareLdMatrix(ModuleOp module, StringRef name) {
  Builder b(module.getContext());
  Type i32 = b.getI32Type();
  return mlx::declareChipFunction(
      module, name,
      LLVM::LLVMStructType::getLiteral(b.getContext(), {i32, i32, i32, i32}),
      {b.getI64Type()});
}

/// The warp MMA function for `element` (WarpMatrix.h).
FlatSymbolRefAttr declareWarpMma(ModuleOp module, Type element) {
  Builder b(module.getContext());
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  return mlx::declareChipFunction(
      module, mlx::warpMmaName(element),
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32}),
      {i32, i32, i32, i32, i32, i32, f32, f32, f32, f32});
}

/// The chip's 16-byte copy into shared memory and its wait (WarpMatrix.h).
FlatSymbolRefAttr declareAsyncCopy(ModuleOp module, StringRef name,
                                   unsigned addresses) {
  Builder b(module.getContext());
  return mlx::declareChipFunction(module, name,
                                  LLVM::LLVMVoidType::get(b.getContext()),
                                  SmallVector<Type>(addresses, b.getI64Type()));
}

LogicalResult lower(kernel::AttentionOp op, FlatSymbolRefAttr mma,
                    FlatSymbolRefAttr ldmatrix, FlatSymbolRefAttr ldmatrixTrans,
                    FlatSymbolRefAttr asyncCopy, FlatSymbolRefAttr asyncWait,
                    FlatSymbolRefAttr minBlocksPerSm) {
  Location loc = op.getLoc();
  OpBuilder b(op);
  MLIRContext *ctx = b.getContext();
  auto memrefType = [](Value v) { return cast<MemRefType>(v.getType()); };
  Type element = memrefType(op.getQuery()).getElementType();
  if (!element.isBF16() && !element.isF16())
    return op.emitOpError() << "lowers for bf16 and f16 only, got " << element;
  for (Value v : op->getOperands())
    if (!memrefType(v).hasStaticShape())
      return op.emitOpError() << "needs static shapes, got " << v.getType();
  ArrayRef<int64_t> qs = memrefType(op.getQuery()).getShape(),
                    ks = memrefType(op.getKey()).getShape(),
                    vs = memrefType(op.getValue()).getShape();
  const int64_t batch = qs[0], heads = qs[1], queries = qs[2], dim = qs[3];
  const int64_t kvHeads = ks[1], keys = ks[2], vdim = vs[3];
  const bool causal = op.getCausal();
  if ((dim != 64 && dim != 128) || (vdim != 64 && vdim != 128) ||
      heads % kvHeads || (causal && keys < queries))
    return op.emitOpError()
           << "has no flash-attention kernel for query "
           << op.getQuery().getType() << ", key " << op.getKey().getType()
           << ", value " << op.getValue().getType()
           << (causal ? " (causal)" : "");

  // Operands the kernel cannot read 16 bytes at a time are copied first.
  Value q = mlx::alignedForVectors(b, loc, op.getQuery(), 8),
        k = mlx::alignedForVectors(b, loc, op.getKey(), 8),
        v = mlx::alignedForVectors(b, loc, op.getValue(), 8),
        out = op.getInit();
  if (!mlx::isVectorAligned(memrefType(out), 8))
    return op.emitOpError() << "writes a buffer whose rows are not 16-byte "
                               "aligned: "
                            << out.getType();

  AttentionKernelBuilder kb(b, loc, element, mma);
  Type f32 = kb.f32;
  int64_t keyTileBytes = kKeyTile * dim * 2,
          valueTileBytes = kKeyTile * vdim * 2;
  Value smemBytes = arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                                 keyTileBytes + valueTileBytes);
  // One block per query tile of a (batch, head) pair, in a 1-D grid. The
  // last tile of a length that is no multiple of the tile reads its last
  // query again for the rows past the end and does not store them; the last
  // key tile reads its last key again and masks those past the end.
  const bool raggedQueries = queries % kBlockRows != 0,
             raggedKeys = keys % kKeyTile != 0;
  int64_t queryTiles = llvm::divideCeil(queries, kBlockRows),
          keyTiles = llvm::divideCeil(keys, kKeyTile), pairs = batch * heads;
  if (pairs * queryTiles > std::numeric_limits<int32_t>::max())
    return op.emitOpError() << "needs " << pairs * queryTiles
                            << " blocks, more than a CUDA grid holds";
  int64_t sectionPairs = std::clamp<int64_t>(
      kL2SectionBytes / (keys * (dim + vdim) * 2), 1, pairs);
  auto launch = gpu::LaunchOp::create(
      b, loc, kb.index(pairs * queryTiles), kb.index(1), kb.index(1),
      kb.index(kWarps * 32), kb.index(1), kb.index(1), smemBytes);
  Block &body = launch.getBody().front();
  b.setInsertionPointToStart(&body);
  // Without the next tile in registers, three blocks' share (168 registers
  // a thread at head dim 128) holds the kernel without spills: 12 warps a
  // SM hide more of the fragment loads' and MMAs' latency than 8.
  LLVM::CallOp::create(
      b, loc, TypeRange(), minBlocksPerSm,
      ValueRange{arith::ConstantIntOp::create(b, loc, b.getI32Type(), 3)});

  // Lane coordinates: warp w, fragment row g, fragment column pair t.
  Value tid = launch.getThreadIds().x;
  Value warp = arith::DivUIOp::create(b, loc, tid, kb.index(32));
  Value lane = arith::RemUIOp::create(b, loc, tid, kb.index(32));
  Value g = arith::DivUIOp::create(b, loc, lane, kb.index(4));
  Value t = arith::RemUIOp::create(b, loc, lane, kb.index(4));
  Value t2 = kb.mul(t, 2);
  // Within a section, blocks go query tile by query tile, a block per pair:
  // with the causal order below, the longest blocks of every head start
  // first and the short ones fill the last wave (heads one after another
  // started the last head's longest block near the end and left SMs idle
  // a fifth of the kernel).
  Value sectionBlocks = kb.index(sectionPairs * queryTiles);
  Value blockId = launch.getBlockIds().x;
  Value firstPair = kb.mul(
      arith::DivUIOp::create(b, loc, blockId, sectionBlocks), sectionPairs);
  Value inSection = arith::RemUIOp::create(b, loc, blockId, sectionBlocks);
  Value sectionWidth = arith::MinUIOp::create(
      b, loc, kb.index(sectionPairs),
      arith::SubIOp::create(b, loc, kb.index(pairs), firstPair));
  Value bh = kb.add(firstPair,
                    arith::RemUIOp::create(b, loc, inSection, sectionWidth));
  Value bIdx = arith::DivUIOp::create(b, loc, bh, kb.index(heads));
  Value head = arith::RemUIOp::create(b, loc, bh, kb.index(heads));
  Value kvHead =
      arith::DivUIOp::create(b, loc, head, kb.index(heads / kvHeads));
  // Causal blocks of the last queries visit the most key tiles: they start
  // first, so that the short ones fill the tail.
  Value queryTile = arith::DivUIOp::create(b, loc, inSection, sectionWidth);
  if (causal)
    queryTile =
        arith::SubIOp::create(b, loc, kb.index(queryTiles - 1), queryTile);
  Value blockRow = kb.mul(queryTile, kBlockRows);
  Value row0 = kb.add(blockRow, kb.mul(warp, kRowsPerWarp));
  Value rows[2] = {kb.add(row0, g), kb.add(kb.add(row0, g), 8)};
  // The rows this lane reads: past the last query, the last query.
  Value readRows[2] = {rows[0], rows[1]};
  if (raggedQueries)
    for (Value &row : readRows)
      row = arith::MinUIOp::create(b, loc, row, kb.index(queries - 1));

  // The query's A fragments, scaled and rounded as MLX rounds q * scale.
  llvm::APFloat scale(op.getScale().convertToDouble());
  bool lost;
  scale.convert(cast<FloatType>(element).getFloatSemantics(),
                llvm::APFloat::rmNearestTiesToEven, &lost);
  auto pairF32 = VectorType::get({2}, f32);
  auto pair = VectorType::get({2}, element);
  Value scaleSplat = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(pairF32,
                             static_cast<float>(scale.convertToDouble())));
  int64_t kSteps = dim / 16;
  SmallVector<std::array<Value, 4>> qFrag(kSteps);
  for (int64_t kk = 0; kk < kSteps; ++kk)
    for (int half = 0; half < 2; ++half)
      for (int r = 0; r < 2; ++r) {
        Value col = kb.add(t2, 16 * kk + 8 * half);
        auto load = vector::LoadOp::create(
            b, loc, pair, q, ValueRange{bIdx, head, readRows[r], col});
        load.setAlignment(4);
        Value wide = arith::ExtFOp::create(b, loc, pairF32, load.getResult());
        wide = arith::MulFOp::create(b, loc, wide, scaleSplat);
        qFrag[kk][r + 2 * half] =
            kb.pack(arith::TruncFOp::create(b, loc, pair, wide));
      }

  // The key tile, then the value tile, in shared memory.
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  Value smem = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                      MemRefLayoutAttrInterface(), workgroup));

  // ldmatrix row addresses: lane 8i + j gives row j of matrix i.
  Value smemBase = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, smem);
  Value matrix = arith::DivUIOp::create(b, loc, lane, kb.index(8));
  Value matrixRow = arith::RemUIOp::create(b, loc, lane, kb.index(8));

  // Key tiles to visit: all, or up to the block's last row's last key.
  Value tiles = kb.index(keyTiles);
  if (causal) {
    Value visible =
        kb.add(arith::DivUIOp::create(
                   b, loc, kb.add(blockRow, kBlockRows - 1 + keys - queries),
                   kb.index(kKeyTile)),
               1);
    // The rows past the last query see no more than the last one.
    tiles = raggedQueries
                ? arith::MinUIOp::create(b, loc, visible, tiles).getResult()
                : visible;
  }

  int64_t vTiles = vdim / 8;
  SmallVector<Value> init;
  Value zero = kb.f32Const(0.0);
  for (int64_t i = 0; i < vTiles * 4; ++i)
    init.push_back(zero);
  Value negInf = kb.f32Const(-INFINITY);
  // Row max and sum, rows g and g + 8. A sink starts each row as a score of
  // its own: the max is the sink, the sum 1 (in one lane of the quad, which
  // adds its lanes' sums at the end).
  if (Value sinks = op.getSinks()) {
    Value sink = arith::ExtFOp::create(
        b, loc, f32,
        memref::LoadOp::create(b, loc, sinks, ValueRange{head}).getResult());
    Value firstLane =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, t, kb.index(0));
    Value sum =
        arith::SelectOp::create(b, loc, firstLane, kb.f32Const(1.0), zero);
    init.append({sink, sink, sum, sum});
  } else {
    init.append({negInf, negInf, zero, zero});
  }
  const double log2e = 1.4426950408889634;
  // An additive mask can make every score of a row so far -inf: such a row
  // max shifts the exponentials by 0, so that they are 0 and not NaN.
  Value mask = op.getMask();
  bool additiveMask = mask && !memrefType(mask).getElementType().isInteger(1);
  auto shiftOf = [&](Value max) -> Value {
    if (!additiveMask || op.getSinks())
      return max;
    Value isNegInf =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, max, negInf);
    return arith::SelectOp::create(b, loc, isNegInf, zero, max);
  };

  // A key or value tile moves 16 bytes a thread at a time, straight from
  // global into shared memory (cp.async, WarpMatrix.h) with the row's chunks
  // swizzled (chunk ^ row % 8).
  auto tileChunk = [&](int64_t i, int64_t width) {
    int64_t chunks = width / 8;
    Value c = kb.add(tid, i * kWarps * 32);
    return std::make_pair(arith::DivUIOp::create(b, loc, c, kb.index(chunks)),
                          arith::RemUIOp::create(b, loc, c, kb.index(chunks)));
  };
  auto chunksPerThread = [&](int64_t width) {
    return kKeyTile * (width / 8) / (kWarps * 32);
  };
  // The address of this block's head's first key or value row, and the
  // bytes between rows (static strides: isVectorAligned).
  auto headRows = [&](Value source) {
    SmallVector<int64_t> strides;
    int64_t offset;
    (void)memrefType(source).getStridesAndOffset(strides, offset);
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, source);
    Value first = kb.add(
        kb.add(kb.mul(bIdx, strides[0]), kb.mul(kvHead, strides[1])), offset);
    return std::make_pair(kb.add(base, kb.mul(first, 2)), strides[2] * 2);
  };
  auto [kRows, kRowBytes] = headRows(k);
  auto [vRows, vRowBytes] = headRows(v);
  auto i64 = b.getI64Type();
  auto copyTile = [&](Value rows, int64_t rowBytes, Value tileIndex,
                      Value tileBase, int64_t width) {
    // Past the last key, the last key again (masked in the scores; its
    // values are finite, so that 0 * value adds 0).
    Value firstKey = raggedKeys ? kb.mul(tileIndex, kKeyTile) : Value();
    Value firstRow = raggedKeys
                         ? Value()
                         : kb.add(rows, kb.mul(tileIndex, kKeyTile * rowBytes));
    for (int64_t i = 0; i < chunksPerThread(width); ++i) {
      auto [r, ch] = tileChunk(i, width);
      Value row = raggedKeys
                      ? kb.add(rows, kb.mul(arith::MinUIOp::create(
                                                b, loc, kb.add(firstKey, r),
                                                kb.index(keys - 1)),
                                            rowBytes))
                      : kb.add(firstRow, kb.mul(r, rowBytes));
      Value from = kb.add(row, kb.mul(ch, 16));
      Value swizzled = arith::XOrIOp::create(
          b, loc, ch, arith::AndIOp::create(b, loc, r, kb.index(7)));
      Value to =
          kb.add(kb.add(tileBase, kb.mul(r, width * 2)), kb.mul(swizzled, 16));
      LLVM::CallOp::create(
          b, loc, TypeRange(), asyncCopy,
          ValueRange{arith::IndexCastOp::create(b, loc, i64, to),
                     arith::IndexCastOp::create(b, loc, i64, from)});
    }
  };
  auto waitCopies = [&] {
    LLVM::CallOp::create(b, loc, TypeRange(), asyncWait, ValueRange());
    gpu::BarrierOp::create(b, loc);
  };
  Value vBase = kb.add(smemBase, keyTileBytes);
  copyTile(kRows, kRowBytes, kb.index(0), smemBase, dim);

  // The fragment reads' addresses as a few bases a lane plus constants:
  // the swizzle (chunk ^ row % 8) only changes a chunk's low three bits, so
  // chunk c + 8 lies 128 bytes past chunk c in every row.
  auto swizzled = [&](Value rowStart, Value lowChunk) {
    return kb.add(
        rowStart,
        kb.mul(arith::XOrIOp::create(b, loc, lowChunk, matrixRow), 16));
  };
  // Keys: chunk 4kp + matrix of row nt * 8 + matrixRow.
  Value keyRow = kb.add(smemBase, kb.mul(matrixRow, dim * 2));
  Value keyBases[2] = {swizzled(keyRow, matrix),
                       swizzled(keyRow, kb.add(matrix, 4))};
  // Values: chunk 2dp + matrix / 2 of row ks * 16 + (matrix % 2) * 8 +
  // matrixRow.
  Value half = arith::DivUIOp::create(b, loc, matrix, kb.index(2));
  Value valueRow = kb.add(
      vBase,
      kb.mul(
          kb.add(kb.mul(arith::RemUIOp::create(b, loc, matrix, kb.index(2)), 8),
                 matrixRow),
          vdim * 2));
  SmallVector<Value> valueBases;
  for (int64_t x = 0; x < std::min<int64_t>(4, vTiles / 2); ++x)
    valueBases.push_back(swizzled(valueRow, kb.add(half, 2 * x)));

  // Each tile: its keys have landed and every warp is done with the last
  // values, so the values start their copy while the scores are computed;
  // then the values have landed and every warp is done with the keys, so
  // the next keys start theirs while P.V is computed.
  auto loop = scf::ForOp::create(
      b, loc, kb.index(0), tiles, kb.index(1), init,
      [&](OpBuilder &nested, Location, Value tile, ValueRange carried) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        SmallVector<Value> acc(carried.take_front(vTiles * 4));
        Value rowMax[2] = {carried[vTiles * 4], carried[vTiles * 4 + 1]};
        Value rowSum[2] = {carried[vTiles * 4 + 2], carried[vTiles * 4 + 3]};
        Value firstKey = kb.mul(tile, kKeyTile);

        waitCopies();
        copyTile(vRows, vRowBytes, tile, vBase, vdim);

        // Scores: 8 fragments of 8 keys. One ldmatrix gives the B fragments
        // of two k-steps: matrices i = 0..3 are the 16-byte chunks 4kp + i
        // of key rows nt * 8 + j (swizzle j). k-steps outside, fragments
        // inside: consecutive MMAs add into different fragments.
        SmallVector<std::array<Value, 4>> s(kKeyTile / 8,
                                            {zero, zero, zero, zero});
        for (int64_t kp = 0; kp < kSteps / 2; ++kp)
          for (int64_t nt = 0; nt < kKeyTile / 8; ++nt) {
            std::array<Value, 4> words = kb.ldmatrix(
                ldmatrix,
                kb.add(keyBases[kp % 2], (kp / 2) * 128 + nt * 8 * dim * 2));
            kb.mmaInto(qFrag[2 * kp], {words[0], words[1]}, s[nt]);
            kb.mmaInto(qFrag[2 * kp + 1], {words[2], words[3]}, s[nt]);
          }

        // Scores whose key `visible(r, key)` rejects become -inf, in the
        // tiles where `needed` holds.
        Value lastKey = kb.add(firstKey, kKeyTile - 1);
        auto maskScores = [&](Value needed,
                              function_ref<Value(int, Value)> visible) {
          SmallVector<Value> flat;
          for (auto &fragment : s)
            llvm::append_range(flat, fragment);
          auto masked =
              scf::IfOp::create(b, loc, TypeRange(ValueRange(flat)), needed,
                                /*withElseRegion=*/true);
          {
            OpBuilder::InsertionGuard thenGuard(b);
            b.setInsertionPointToStart(&masked.getThenRegion().front());
            SmallVector<Value> kept;
            for (int64_t nt = 0; nt < kKeyTile / 8; ++nt)
              for (int i = 0; i < 4; ++i) {
                Value key = kb.add(kb.add(firstKey, t2), nt * 8 + i % 2);
                kept.push_back(arith::SelectOp::create(
                    b, loc, visible(i / 2, key), s[nt][i], negInf));
              }
            scf::YieldOp::create(b, loc, kept);
            b.setInsertionPointToStart(&masked.getElseRegion().front());
            scf::YieldOp::create(b, loc, flat);
          }
          for (int64_t nt = 0; nt < kKeyTile / 8; ++nt)
            for (int i = 0; i < 4; ++i)
              s[nt][i] = masked.getResult(nt * 4 + i);
        };

        // Causal mask: key j is visible from row i when j <= i + S - L. Only
        // the tiles that reach past the block's first row need it.
        if (causal)
          maskScores(
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, lastKey,
                                    kb.add(blockRow, keys - queries)),
              [&](int r, Value key) {
                return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                             key,
                                             kb.add(rows[r], keys - queries));
              });

        // A mask (broadcast to [B, Hq, L, S]): boolean keeps a key or gives
        // it a score below any kept one by far, yet finite (a row with every
        // key masked averages them, as MLX's fallback does); else added.
        if (mask) {
          ArrayRef<int64_t> maskShape = memrefType(mask).getShape();
          Value low = kb.f32Const(mlx::kMaskedAttentionScore);
          for (int64_t nt = 0; nt < kKeyTile / 8; ++nt)
            for (int i = 0; i < 4; ++i) {
              Value key = kb.add(kb.add(firstKey, t2), nt * 8 + i % 2);
              if (raggedKeys) // Masked below.
                key = arith::MinUIOp::create(b, loc, key, kb.index(keys - 1));
              Value at[4] = {bIdx, head, readRows[i / 2], key};
              SmallVector<Value> indices;
              for (int64_t d = 0; d < 4; ++d)
                indices.push_back(maskShape[d] == 1 ? kb.index(0) : at[d]);
              Value m = memref::LoadOp::create(b, loc, mask, indices);
              s[nt][i] = m.getType().isInteger(1)
                             ? arith::SelectOp::create(b, loc, m, s[nt][i], low)
                                   .getResult()
                             : arith::AddFOp::create(
                                   b, loc, s[nt][i],
                                   arith::ExtFOp::create(b, loc, f32, m))
                                   .getResult();
            }
        }

        // Keys past the last one (the last tile's, which read the last key
        // again) have no score at all: -inf after the mask, which would
        // make them a masked key's finite score.
        if (raggedKeys)
          maskScores(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                           lastKey, kb.index(keys)),
                     [&](int, Value key) {
                       return arith::CmpIOp::create(b, loc,
                                                    arith::CmpIPredicate::ult,
                                                    key, kb.index(keys));
                     });

        // Online softmax, base 2: p = 2^(s log2 e - m log2 e).
        Value l2e = kb.f32Const(log2e);
        SmallVector<Value> alpha(2);
        for (int r = 0; r < 2; ++r) {
          SmallVector<Value> row;
          for (int64_t nt = 0; nt < kKeyTile / 8; ++nt)
            for (int e = 0; e < 2; ++e)
              row.push_back(s[nt][2 * r + e]);
          Value m = kb.quadReduce(kb.treeReduce(row, /*isMax=*/true),
                                  /*isMax=*/true);
          Value newMax = arith::MaxNumFOp::create(b, loc, rowMax[r], m);
          Value shiftMax = shiftOf(newMax);
          Value shift = arith::MulFOp::create(
              b, loc, arith::NegFOp::create(b, loc, shiftMax), l2e);
          alpha[r] = math::Exp2Op::create(
              b, loc,
              arith::MulFOp::create(
                  b, loc, arith::SubFOp::create(b, loc, rowMax[r], shiftMax),
                  l2e));
          SmallVector<Value> exps;
          for (int64_t nt = 0; nt < kKeyTile / 8; ++nt)
            for (int e = 0; e < 2; ++e) {
              Value &score = s[nt][2 * r + e];
              score = math::Exp2Op::create(
                  b, loc, math::FmaOp::create(b, loc, score, l2e, shift));
              exps.push_back(score);
            }
          Value sum = kb.treeReduce(exps, /*isMax=*/false);
          rowSum[r] = math::FmaOp::create(b, loc, rowSum[r], alpha[r], sum);
          rowMax[r] = newMax;
        }
        for (int64_t dn = 0; dn < vTiles; ++dn)
          for (int i = 0; i < 4; ++i)
            acc[dn * 4 + i] =
                arith::MulFOp::create(b, loc, acc[dn * 4 + i], alpha[i / 2]);

        // The probabilities as A fragments of 16 keys each.
        SmallVector<std::array<Value, 4>> pFrag(kKeyTile / 16);
        for (int64_t ks = 0; ks < kKeyTile / 16; ++ks)
          pFrag[ks] = {kb.packFloats(s[2 * ks][0], s[2 * ks][1]),
                       kb.packFloats(s[2 * ks][2], s[2 * ks][3]),
                       kb.packFloats(s[2 * ks + 1][0], s[2 * ks + 1][1]),
                       kb.packFloats(s[2 * ks + 1][2], s[2 * ks + 1][3])};

        waitCopies();
        Value next = kb.add(tile, 1);
        auto more = scf::IfOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, next,
                                  tiles),
            /*withElseRegion=*/false);
        {
          OpBuilder::InsertionGuard thenGuard(b);
          b.setInsertionPoint(more.thenBlock()->getTerminator());
          copyTile(kRows, kRowBytes, next, smemBase, dim);
        }

        // acc += P.V: B[k][n] = V[k][n], transposed by ldmatrix: matrices
        // i = 0..3 are rows ks * 16 + (i % 2) * 8 + j of chunk 2dp + i / 2
        // (swizzle j), the B fragments of dims 2dp and 2dp + 1.
        for (int64_t ks = 0; ks < kKeyTile / 16; ++ks)
          for (int64_t dp = 0; dp < vTiles / 2; ++dp) {
            std::array<Value, 4> words = kb.ldmatrix(
                ldmatrixTrans, kb.add(valueBases[dp % 4],
                                      (dp / 4) * 128 + ks * 16 * vdim * 2));
            kb.mmaInto(pFrag[ks], {words[0], words[1]},
                       MutableArrayRef<Value>(acc).slice(2 * dp * 4, 4));
            kb.mmaInto(pFrag[ks], {words[2], words[3]},
                       MutableArrayRef<Value>(acc).slice((2 * dp + 1) * 4, 4));
          }
        SmallVector<Value> results(acc);
        results.append({rowMax[0], rowMax[1], rowSum[0], rowSum[1]});
        scf::YieldOp::create(b, loc, results);
      });

  // O = acc / l, each row's sum gathered from its quad.
  ValueRange result = loop.getResults();
  Value inverse[2];
  for (int r = 0; r < 2; ++r)
    inverse[r] = arith::DivFOp::create(
        b, loc, kb.f32Const(1.0),
        kb.quadReduce(result[vTiles * 4 + 2 + r], /*isMax=*/false));
  for (int64_t dn = 0; dn < vTiles; ++dn)
    for (int r = 0; r < 2; ++r) {
      Value lo =
          arith::MulFOp::create(b, loc, result[dn * 4 + 2 * r], inverse[r]);
      Value hi =
          arith::MulFOp::create(b, loc, result[dn * 4 + 2 * r + 1], inverse[r]);
      Value values = vector::FromElementsOp::create(
          b, loc, pair,
          ValueRange{arith::TruncFOp::create(b, loc, element, lo),
                     arith::TruncFOp::create(b, loc, element, hi)});
      // Rows past the last query are not stored.
      OpBuilder::InsertionGuard guard(b);
      if (raggedQueries) {
        auto inside = scf::IfOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, rows[r],
                                  kb.index(queries)),
            /*withElseRegion=*/false);
        b.setInsertionPoint(inside.thenBlock()->getTerminator());
      }
      auto store = vector::StoreOp::create(
          b, loc, values, out,
          ValueRange{bIdx, head, rows[r], kb.add(t2, dn * 8)});
      store.setAlignment(4);
    }
  gpu::TerminatorOp::create(b, loc);
  op.erase();
  return success();
}

struct MlxcLowerAttentionPass final
    : mlx::impl::MlxcLowerAttentionBase<MlxcLowerAttentionPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<kernel::AttentionOp> ops;
    module.walk([&](kernel::AttentionOp op) { ops.push_back(op); });
    SmallVector<kernel::AttentionOp> splitKey;
    int64_t counts = 0;
    for (kernel::AttentionOp op : ops) {
      if (op.getNumResults() != 0) {
        op.emitOpError() << "must be bufferized before mlxc-lower-attention";
        return signalPassFailure();
      }
      foldLayoutCopies(op);
      auto type = [](Value v) { return cast<ShapedType>(v.getType()); };
      if (kernel::isFlashAttentionShape(type(op.getQuery()), type(op.getKey()),
                                        type(op.getValue()), op.getCausal())) {
        Type element = type(op.getQuery()).getElementType();
        if (failed(lower(op, declareWarpMma(module, element),
                         declareLdMatrix(module, mlx::kLdMatrixName),
                         declareLdMatrix(module, mlx::kLdMatrixTransName),
                         declareAsyncCopy(module, mlx::kAsyncCopyName, 2),
                         declareAsyncCopy(module, mlx::kAsyncWaitName, 0),
                         mlx::declareChipFunction(
                             module, mlx::kMinBlocksPerSmName,
                             LLVM::LLVMVoidType::get(module.getContext()),
                             {IntegerType::get(module.getContext(), 32)}))))
          return signalPassFailure();
        continue;
      }
      if (!kernel::isSplitKeyAttentionShape(
              type(op.getQuery()), type(op.getKey()), type(op.getValue()))) {
        op.emitOpError() << "has no flash-attention or split-key kernel for "
                            "query "
                         << op.getQuery().getType() << ", key "
                         << op.getKey().getType() << ", value "
                         << op.getValue().getType()
                         << (op.getCausal() ? " (causal)" : "");
        return signalPassFailure();
      }
      splitKey.push_back(op);
      mlx::SplitKeyGrid grid = mlx::getSplitKeyGrid(op);
      if (grid.splits > 1)
        counts = std::max(counts, grid.rowGroups);
    }
    if (splitKey.empty())
      return;
    // One arrival count per row group, shared by the kernels (they run one
    // after another, and each leaves its counts at zero).
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    auto countsType =
        MemRefType::get({std::max<int64_t>(counts, 1)}, builder.getI32Type());
    auto counters = memref::GlobalOp::create(
        builder, module.getLoc(), "mlxc_attention_counts",
        builder.getStringAttr("private"), countsType,
        DenseElementsAttr::get(
            RankedTensorType::get(countsType.getShape(), builder.getI32Type()),
            builder.getI32IntegerAttr(0)),
        /*constant=*/false, /*alignment=*/nullptr);
    SymbolTable(module).insert(counters);
    for (kernel::AttentionOp op : splitKey)
      if (failed(mlx::lowerSplitKeyAttention(op, counters)))
        return signalPassFailure();
  }
};
} // namespace
