//===- LowerQuantizedProducts.cpp - the mlxc-lower-quantized-products pass ===//
//
// kernel.quantized_matmul on buffers (a few rows of x times an affine
// quantized matrix, x @ w.T) becomes one kernel bound by reading the
// packed words once:
//   - blocks of eight warps; warp w of block i owns output columns
//     (i * 8 + w) * C .. + C - 1, rows of the packed matrix;
//   - a lane takes 32 consecutive values of a row at a time (a "pack": `bits`
//     words, one 16-byte load at 4 bits), lane l packs l, l + 32, ...; the
//     32 values lie in one group (groups are 32, 64 or 128), so one scale
//     and one bias go with them; it loads the packs of up to four steps
//     (over its columns) before it computes, to keep loads in flight;
//   - for each row of x it sums x * q over the pack, q the raw value read as
//     a float with the 2^23 trick (or the word with 0x4b000000, minus 2^23:
//     no conversion instruction), and adds scale * sum + bias * sum(x), all
//     in float32: the dequantized weight is never formed;
//   - the lanes' sums meet in a warp butterfly, lane 0 rounds and stores.
// x is read 16 bytes at a time from L1/L2 (it is a few KB, the same for
// every warp); the columns a warp owns share its loads.
//
//===----------------------------------------------------------------------===//

#include "codegen/Cuda/Arch.h"
#include "codegen/Cuda/RowReduction.h"
#include "codegen/Cuda/SplitKeyAttention.h"
#include "codegen/Kernels/QuantizedProducts.h"
#include "codegen/Passes.h"

#include "Kernel/KernelOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCLOWERQUANTIZEDPRODUCTS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;
using mlx::kWarpSize;

namespace {
constexpr int64_t kWarpsPerBlock = 8;
/// Values a lane takes at once: 32 of `bits` bits end on a word boundary
/// for every bit width.
constexpr int64_t kPack = 32;
/// Values of x loaded and multiplied at a time (16 bytes of bf16), per row;
/// half as many past kRowsOfFullSegments rows (registers).
constexpr int64_t kSegment = 8, kRowsOfFullSegments = 8;
/// Sums a lane keeps at most (rows x columns it owns).
constexpr int64_t kMaxSumsPerLane = 16;

/// Arithmetic on index and float values at one location.
struct Builder {
  OpBuilder &b;
  Location loc;
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value i32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  }
  Value f32(double v) {
    return arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                          APFloat(static_cast<float>(v)));
  }
  Value add(Value x, Value y) {
    return isa<FloatType>(x.getType())
               ? Value(arith::AddFOp::create(b, loc, x, y))
               : Value(arith::AddIOp::create(b, loc, x, y));
  }
  Value mul(Value x, Value y) {
    return isa<FloatType>(x.getType())
               ? Value(arith::MulFOp::create(b, loc, x, y))
               : Value(arith::MulIOp::create(b, loc, x, y));
  }
  Value mul(Value x, int64_t y) { return mul(x, index(y)); }
  Value fma(Value x, Value y, Value acc) {
    return math::FmaOp::create(b, loc, x, y, acc);
  }
  Value toF32(Value v) {
    return v.getType().isF32()
               ? v
               : Value(arith::ExtFOp::create(b, loc, b.getF32Type(), v));
  }
};

/// Value `e` (0..31) of a pack held in `words` (`bits` i32 values) as an
/// f32 equal to the raw integer: bits [e * bits, (e + 1) * bits) of the
/// pack's little-endian bit stream, joined across a word boundary where it
/// straddles one.
Value decodeValue(Builder &k, ArrayRef<Value> words, int64_t e, int64_t bits) {
  int64_t first = e * bits, word = first / 32, shift = first % 32;
  Value v = words[word];
  if (shift)
    v = arith::ShRUIOp::create(k.b, k.loc, v, k.i32(shift));
  if (shift + bits > 32) {
    Value high = arith::ShLIOp::create(k.b, k.loc, words[word + 1],
                                       k.i32(32 - shift));
    v = arith::OrIOp::create(k.b, k.loc, v, high);
  }
  if (shift + bits != 32)
    v = arith::AndIOp::create(k.b, k.loc, v, k.i32((1 << bits) - 1));
  // 0x4b000000 is 2^23: with q in the low mantissa bits it is 2^23 + q.
  Value biased = arith::OrIOp::create(k.b, k.loc, v, k.i32(0x4b000000));
  Value asFloat =
      arith::BitcastOp::create(k.b, k.loc, k.b.getF32Type(), biased);
  return arith::SubFOp::create(k.b, k.loc, asFloat, k.f32(0x1p23));
}

/// The static coordinates of row `row` of x's (or the output's) leading
/// axes `shape`.
SmallVector<int64_t> delinearize(int64_t row, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> coords(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    coords[d] = row % shape[d];
    row /= shape[d];
  }
  return coords;
}

LogicalResult lower(kernel::QuantizedMatmulOp op) {
  Location loc = op.getLoc();
  OpBuilder b(op);
  auto memrefType = [](Value v) { return cast<MemRefType>(v.getType()); };
  const int64_t rows = op.getRows(), k = op.getReducedSize(),
                n = op.getColumns(), bits = op.getBits(),
                group = op.getGroupSize();
  if (rows < 1 || rows > mlx::kMaxQuantizedRows)
    return op.emitOpError() << "has " << rows << " rows; the kernel takes 1 to "
                            << mlx::kMaxQuantizedRows;
  Type xElement = memrefType(op.getX()).getElementType();
  Type outElement = memrefType(op.getInit()).getElementType();
  // Rows of x and of the packed words are read a vector at a time.
  int64_t xWidth = 16 / (xElement.getIntOrFloatBitWidth() / 8);
  // A pack's words: one aligned vector when `bits` is a power of two.
  bool powerOfTwo = llvm::isPowerOf2_64(bits);
  Value x = mlx::alignedForVectors(b, loc, op.getX(), std::min(xWidth, k));
  Value packed = mlx::alignedForVectors(b, loc, op.getPacked(),
                                        powerOfTwo ? std::min<int64_t>(bits, 4)
                                                   : 1);
  Value scales = op.getScales(), biases = op.getBiases(), out = op.getInit();
  ArrayRef<int64_t> leading = memrefType(x).getShape().drop_back();
  const int64_t packs = k / kPack;

  // Columns a warp owns: as many as keep two blocks per SM (the loads of a
  // wave hide each other's latency).
  const int64_t minBlocks =
      kernel::getTargetOr(op, kernel::Backend::Cuda).getFullGridBlocks();
  int64_t columnsPerWarp = 4;
  while (columnsPerWarp > 1 &&
         (rows * columnsPerWarp > kMaxSumsPerLane ||
          llvm::divideCeil(n, kWarpsPerBlock * columnsPerWarp) < minBlocks))
    columnsPerWarp /= 2;
  int64_t blocks = llvm::divideCeil(n, kWarpsPerBlock * columnsPerWarp);
  if (blocks > std::numeric_limits<int32_t>::max())
    return op.emitOpError() << "needs " << blocks
                            << " blocks, more than a CUDA grid holds";

  Builder kb{b, loc};
  auto launch = gpu::LaunchOp::create(
      b, loc, kb.index(blocks), kb.index(1), kb.index(1),
      kb.index(kWarpsPerBlock * kWarpSize), kb.index(1), kb.index(1));
  b.setInsertionPointToStart(&launch.getBody().front());
  Value tid = launch.getThreadIds().x;
  Value warp = arith::DivUIOp::create(b, loc, tid, kb.index(kWarpSize));
  Value lane = arith::RemUIOp::create(b, loc, tid, kb.index(kWarpSize));
  Value firstColumn =
      kb.mul(kb.add(kb.mul(launch.getBlockIds().x, kWarpsPerBlock), warp),
             columnsPerWarp);
  // Columns past the end read the last one again and are not stored.
  SmallVector<Value> columns;
  for (int64_t c = 0; c < columnsPerWarp; ++c)
    columns.push_back(arith::MinUIOp::create(
        b, loc, kb.add(firstColumn, kb.index(c)), kb.index(n - 1)));

  // Packs a lane loads before it computes: four 16-byte loads in flight
  // over its columns (a warp alone must keep enough bytes in flight to hide
  // the memory's latency), no more than the row has.
  const int64_t segmentSize =
      rows > kRowsOfFullSegments ? kSegment / 2 : kSegment;
  const int64_t unroll = std::max<int64_t>(
      1, std::min<int64_t>(4 / columnsPerWarp,
                           llvm::divideCeil(packs, kWarpSize)));

  // Sums: row-major over (row, column).
  SmallVector<Value> zeros(rows * columnsPerWarp, kb.f32(0.0));
  auto loop = scf::ForOp::create(b, loc, lane, kb.index(packs),
                                 kb.index(kWarpSize * unroll), zeros);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    // Pack u of this step is loop index + 32 u; past the row's last pack
    // it reads that pack again and adds nothing.
    SmallVector<Value> packIndex, valid;
    for (int64_t u = 0; u < unroll; ++u) {
      Value pack = kb.add(loop.getInductionVar(), kb.index(u * kWarpSize));
      valid.push_back(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            pack, kb.index(packs)));
      packIndex.push_back(
          arith::MinUIOp::create(b, loc, pack, kb.index(packs - 1)));
    }
    // Every column's words, scale and bias of every pack, loaded before
    // any arithmetic.
    struct Loaded {
      SmallVector<Value> words;
      Value scale, bias;
    };
    SmallVector<SmallVector<Loaded>> loaded(unroll);
    for (int64_t u = 0; u < unroll; ++u) {
      Value groupIndex = arith::DivUIOp::create(
          b, loc, kb.mul(packIndex[u], kPack), kb.index(group));
      Value firstWord = kb.mul(packIndex[u], bits);
      for (int64_t c = 0; c < columnsPerWarp; ++c) {
        Loaded l;
        auto vectorType = VectorType::get({bits}, b.getI32Type());
        auto load = vector::LoadOp::create(b, loc, vectorType, packed,
                                           ValueRange{columns[c], firstWord});
        load.setAlignment(powerOfTwo ? 4 * std::min<int64_t>(bits, 4) : 4);
        for (int64_t w = 0; w < bits; ++w)
          l.words.push_back(vector::ExtractOp::create(b, loc, load, w));
        l.scale = kb.toF32(memref::LoadOp::create(
            b, loc, scales, ValueRange{columns[c], groupIndex}));
        l.bias = kb.toF32(memref::LoadOp::create(
            b, loc, biases, ValueRange{columns[c], groupIndex}));
        loaded[u].push_back(l);
      }
    }
    SmallVector<Value> next(loop.getRegionIterArgs());
    for (int64_t u = 0; u < unroll; ++u) {
      Value firstValue = kb.mul(packIndex[u], kPack);
      SmallVector<Value> dots(rows * columnsPerWarp, kb.f32(0.0));
      SmallVector<Value> xSums(rows, kb.f32(0.0));
      for (int64_t segment = 0; segment < kPack / segmentSize; ++segment) {
        Value offset = kb.add(firstValue, kb.index(segment * segmentSize));
        // This segment of every row of x, as f32.
        SmallVector<SmallVector<Value>> xs(rows);
        for (int64_t r = 0; r < rows; ++r) {
          SmallVector<Value> coords;
          for (int64_t c : delinearize(r, leading))
            coords.push_back(kb.index(c));
          coords.push_back(offset);
          int64_t width = std::min(xWidth, segmentSize);
          for (int64_t part = 0; part < segmentSize; part += width) {
            coords.back() = kb.add(offset, kb.index(part));
            auto load = vector::LoadOp::create(
                b, loc, VectorType::get({width}, xElement), x, coords);
            load.setAlignment(width * (xElement.getIntOrFloatBitWidth() / 8));
            for (int64_t i = 0; i < width; ++i) {
              Value v = kb.toF32(vector::ExtractOp::create(b, loc, load, i));
              xs[r].push_back(v);
              xSums[r] = kb.add(xSums[r], v);
            }
          }
        }
        for (int64_t c = 0; c < columnsPerWarp; ++c)
          for (int64_t i = 0; i < segmentSize; ++i) {
            Value q = decodeValue(kb, loaded[u][c].words,
                                  segment * segmentSize + i, bits);
            for (int64_t r = 0; r < rows; ++r) {
              Value &dot = dots[r * columnsPerWarp + c];
              dot = kb.fma(xs[r][i], q, dot);
            }
          }
      }
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < columnsPerWarp; ++c) {
          Value &acc = next[r * columnsPerWarp + c];
          Value term = kb.mul(loaded[u][c].scale, dots[r * columnsPerWarp + c]);
          term = kb.fma(loaded[u][c].bias, xSums[r], term);
          // A select, not a product by zero: an infinite x of the pack
          // read again must not turn the sum into NaN.
          acc = kb.add(acc, arith::SelectOp::create(b, loc, valid[u], term,
                                                    kb.f32(0.0)));
        }
    }
    scf::YieldOp::create(b, loc, next);
  }

  // The warp's sums, then lane 0 stores its columns.
  SmallVector<Value> sums(loop.getResults());
  for (int64_t offset = kWarpSize / 2; offset >= 1; offset /= 2)
    for (Value &sum : sums)
      sum = kb.add(sum, mlx::emitShuffleXor(b, loc, sum, offset));
  Value isFirstLane = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            lane, kb.index(0));
  auto store = scf::IfOp::create(b, loc, isFirstLane, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&store.getThenRegion().front());
    for (int64_t c = 0; c < columnsPerWarp; ++c) {
      Value column = kb.add(firstColumn, kb.index(c));
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           column, kb.index(n));
      auto guarded = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(&guarded.getThenRegion().front());
      for (int64_t r = 0; r < rows; ++r) {
        SmallVector<Value> coords;
        for (int64_t i : delinearize(r, leading))
          coords.push_back(kb.index(i));
        coords.push_back(column);
        Value v = sums[r * columnsPerWarp + c];
        if (!outElement.isF32())
          v = arith::TruncFOp::create(b, loc, outElement, v);
        memref::StoreOp::create(b, loc, v, out, coords);
      }
    }
  }
  gpu::TerminatorOp::create(b, loc);
  op.erase();
  return success();
}

struct MlxcLowerQuantizedProductsPass final
    : mlx::impl::MlxcLowerQuantizedProductsBase<
          MlxcLowerQuantizedProductsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<kernel::QuantizedMatmulOp> ops;
    getOperation().walk([&](kernel::QuantizedMatmulOp op) { ops.push_back(op); });
    for (kernel::QuantizedMatmulOp op : ops) {
      if (op.getNumResults() != 0) {
        op.emitOpError()
            << "must be bufferized before mlxc-lower-quantized-products";
        return signalPassFailure();
      }
      if (failed(lower(op)))
        return signalPassFailure();
    }
  }
};
} // namespace
