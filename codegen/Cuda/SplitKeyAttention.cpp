//===- SplitKeyAttention.cpp - the decode-step attention kernel -----------===//
//
// A decode step's attention reads the whole KV cache for one query per
// head: one block per head would leave most SMs idle. Here the keys split
// into chunks, one block per chunk and row group (a batch's key head and up
// to four of its query rows: grouped heads and queries), 128 threads:
//   1. scores: the lanes that share a key row load 16 bytes each, U keys a
//      thread at once; each query row's dot product is a butterfly over
//      those lanes. The scores (base 2, scaled, masked) go to shared memory.
//   2. a warp per query row turns its chunk's scores into probabilities in
//      place: the chunk's max, then exp2 and the sum.
//   3. P.V: the lanes that share a value row load 16 bytes each (with the
//      key rows, when the chunk is one step) and add the rows weighted by
//      the probabilities; the block adds the threads' sums in shared
//      memory.
//   4. the chunk's max, sum and weighted rows go to a float32 buffer; the
//      last block of a row group to arrive (an atomic count per row group in
//      a zero-initialized global, which that block resets) rescales and adds
//      the chunks in order and writes the output. With one chunk the block
//      writes the output itself. A row's sink (if any) joins here, as a
//      chunk of its own with sum 1 and no value rows.
// When the keys (or values) are a copy of an input cache with only a window
// of new rows written since (a decode step's cache, not donated:
// AttentionCacheCopy.h) and the chunks take several steps, the kernel reads
// the rows from the input and the row groups of a key head's first query
// rows store them into the cache as they go, except the window's, which it
// reads from the cache; the copy kernel goes. Called with the input's
// buffer as the cache (donated), it loads as without a copy (one uniform
// branch a step).
// The summation order depends on the shapes alone: results are the same
// from run to run. The counts assume one launch at a time, as mlxrt runs
// the program's kernels.
//
//===----------------------------------------------------------------------===//

#include "codegen/Cuda/SplitKeyAttention.h"
#include "Mlx/MlxAttributes.h"
#include "codegen/Cuda/AttentionCacheCopy.h"

#include "Kernel/AttentionShapes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;

namespace {
constexpr int64_t kThreads = 128, kWarps = kThreads / 32;
/// Keys a thread loads at once: 16 KiB in flight per block.
constexpr int64_t kUnroll = 8;
/// Blocks to aim for: four per SM of the H200, all resident at once (a
/// block waits on its loads in each step; the SM runs the others then).
constexpr int64_t kTargetBlocks = 528;
/// Keys of one chunk at most (its scores stay in shared memory).
constexpr int64_t kMaxChunk = 1024;
constexpr int64_t kMaxBlockRows = 4;
constexpr double kLog2e = 1.4426950408889634;

struct Plan {
  int64_t batch, heads, queries, dim, kvHeads, keys, vdim;
  int64_t groupRows; ///< query rows per key head: G * L
  int64_t blockRows; ///< Rb, a divisor of groupRows
  int64_t rowGroups; ///< blocks per chunk: B * Hkv * groupRows / Rb
  int64_t width;     ///< elements of one 16-byte access
  int64_t lanesK;    ///< lanes that share a key row: D / width
  int64_t lanesV;    ///< lanes that share a value row: Dv / width
  int64_t stepK;     ///< keys of one scores step: kThreads / lanesK * U
  int64_t stepV;     ///< keys of one P.V step
  int64_t chunk;     ///< keys per block, a multiple of both steps
  int64_t splits;    ///< chunks
};

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<MemRefType>(v.getType()).getShape();
}

Plan makePlan(kernel::AttentionOp op) {
  ArrayRef<int64_t> qs = shapeOf(op.getQuery()), ks = shapeOf(op.getKey()),
                    vs = shapeOf(op.getValue());
  Plan p;
  p.batch = qs[0];
  p.heads = qs[1];
  p.queries = qs[2];
  p.dim = qs[3];
  p.kvHeads = ks[1];
  p.keys = ks[2];
  p.vdim = vs[3];
  p.groupRows = p.queries * (p.heads / p.kvHeads);
  p.blockRows = 1;
  for (int64_t r = kMaxBlockRows; r > 1; --r)
    if (p.groupRows % r == 0) {
      p.blockRows = r;
      break;
    }
  p.rowGroups = p.batch * p.kvHeads * (p.groupRows / p.blockRows);
  p.width = kernel::splitKeyVectorWidth(
      cast<MemRefType>(op.getQuery().getType()).getElementType());
  p.lanesK = p.dim / p.width;
  p.lanesV = p.vdim / p.width;
  p.stepK = kThreads / p.lanesK * kUnroll;
  p.stepV = kThreads / p.lanesV * kUnroll;
  int64_t step = std::max(p.stepK, p.stepV);
  int64_t splits =
      std::max<int64_t>(1, llvm::divideCeil(kTargetBlocks, p.rowGroups));
  int64_t chunk = static_cast<int64_t>(
      llvm::alignTo(llvm::divideCeil(p.keys, splits), step));
  p.chunk = std::min<int64_t>(chunk, llvm::alignTo(kMaxChunk, step));
  p.splits = llvm::divideCeil(p.keys, p.chunk);
  return p;
}

/// Index and float arithmetic for the kernel body.
struct Emitter {
  OpBuilder &b;
  Location loc;

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value f32(double v) {
    return arith::ConstantOp::create(b, loc,
                                     b.getF32FloatAttr(static_cast<float>(v)));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t y) { return y ? add(x, index(y)) : x; }
  Value mul(Value x, int64_t y) {
    return y == 1 ? x : arith::MulIOp::create(b, loc, x, index(y)).getResult();
  }
  Value div(Value x, int64_t y) {
    return y == 1 ? x : arith::DivUIOp::create(b, loc, x, index(y)).getResult();
  }
  Value rem(Value x, int64_t y) {
    return y == 1 ? index(0)
                  : arith::RemUIOp::create(b, loc, x, index(y)).getResult();
  }
  Value cmp(arith::CmpIPredicate predicate, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, predicate, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value fadd(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value fsub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value fmul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value fmax(Value x, Value y) {
    return arith::MaxNumFOp::create(b, loc, x, y);
  }
  Value exp2(Value x) { return math::Exp2Op::create(b, loc, x); }
  /// A running max as the shift of exp2(s - shift): -inf (every score so
  /// far -inf, as an additive mask can make them) shifts by 0, so that the
  /// probabilities are 0 and not NaN.
  Value finiteOrZero(Value max) {
    Value isNegInf = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                           max, f32(-INFINITY));
    return select(isNegInf, f32(0.0), max);
  }
  /// A float (or a vector of them) widened to f32.
  Value toF32(Value x) {
    Type f32 = b.getF32Type();
    if (getElementTypeOrSelf(x.getType()).isF32())
      return x;
    Type type = f32;
    if (auto vector = dyn_cast<VectorType>(x.getType()))
      type = vector.clone(f32);
    return arith::ExtFOp::create(b, loc, type, x);
  }
  /// `value` combined over the `lanes` lanes (a power of two, aligned) that
  /// share it: every one of them gets the result.
  Value butterfly(Value value, int64_t lanes, bool isMax) {
    for (int64_t offset = lanes / 2; offset >= 1; offset /= 2) {
      Value other = gpu::ShuffleOp::create(b, loc, value, offset, 32,
                                           gpu::ShuffleMode::XOR)
                        .getShuffleResult();
      value = isMax ? fmax(value, other) : fadd(value, other);
    }
    return value;
  }
  /// An scf.for from `lb` to `ub` by `step` with `init` carried.
  scf::ForOp loop(Value lb, Value ub, int64_t step, ValueRange init,
                  function_ref<SmallVector<Value>(Value, ValueRange)> body) {
    auto forOp = scf::ForOp::create(
        b, loc, lb, ub, index(step), init,
        [&](OpBuilder &nested, Location, Value iv, ValueRange args) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
          scf::YieldOp::create(b, loc, body(iv, args));
        });
    return forOp;
  }
  void ifThen(Value condition, function_ref<void()> body) {
    scf::IfOp::create(b, loc, condition, [&](OpBuilder &nested, Location) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(nested.getInsertionBlock(),
                          nested.getInsertionPoint());
      body();
      scf::YieldOp::create(b, loc);
    });
  }
};
} // namespace

bool mlx::isVectorAligned(MemRefType type, int64_t width) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1 || ShapedType::isDynamic(offset) ||
      offset % width != 0)
    return false;
  return llvm::all_of(ArrayRef(strides).drop_back(), [&](int64_t s) {
    return !ShapedType::isDynamic(s) && s % width == 0;
  });
}

Value mlx::alignedForVectors(OpBuilder &b, Location loc, Value buffer,
                             int64_t width) {
  auto type = cast<MemRefType>(buffer.getType());
  if (isVectorAligned(type, width))
    return buffer;
  Value copy = memref::AllocOp::create(
      b, loc, MemRefType::get(type.getShape(), type.getElementType()));
  memref::CopyOp::create(b, loc, buffer, copy);
  return copy;
}

mlx::SplitKeyGrid mlx::getSplitKeyGrid(kernel::AttentionOp op) {
  Plan p = makePlan(op);
  return {p.splits, p.rowGroups};
}

LogicalResult mlx::lowerSplitKeyAttention(kernel::AttentionOp op,
                                          memref::GlobalOp counters) {
  Location loc = op.getLoc();
  auto typeOf = [](Value v) { return cast<MemRefType>(v.getType()); };
  MemRefType qType = typeOf(op.getQuery());
  Type element = qType.getElementType();
  if (!kernel::isSplitKeyAttentionShape(qType, typeOf(op.getKey()),
                                        typeOf(op.getValue())))
    return op.emitOpError()
           << "has no split-key kernel for query " << qType << ", key "
           << op.getKey().getType() << ", value " << op.getValue().getType();
  const Plan p = makePlan(op);
  OpBuilder b(op);
  Emitter e{b, loc};
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type(), i32 = b.getI32Type();

  // Keys and values are read 16 bytes at a time: unaligned ones are copied.
  Value q = op.getQuery(),
        k = mlx::alignedForVectors(b, loc, op.getKey(), p.width),
        v = mlx::alignedForVectors(b, loc, op.getValue(), p.width);
  Value mask = op.getMask(), out = op.getInit();
  // Only where the blocks stream their chunks in several steps: a block of
  // one step waits on its loads once, and a copy's stores and branches
  // lengthen that wait more than the copy kernel costs (bench/transformer's
  // W9, 8 layers of 4 key heads and 1025 keys in chunks of 64 keys:
  // 0.454-0.459 against 0.437-0.441 ms on the H200).
  std::optional<CacheCopy> copyK, copyV;
  if (k == op.getKey() && p.chunk > p.stepK)
    copyK = takeCacheCopy(op, k);
  if (v == op.getValue() && v != k && p.chunk > p.stepV)
    copyV = takeCacheCopy(op, v);
  // Whether a copy runs: the caller gave the cache a buffer of its own
  // (only the addresses are read: mlx-memory-placement).
  auto copies = [&](const std::optional<CacheCopy> &copy, Value cache) {
    if (!copy)
      return Value();
    auto address = [&](Value buffer) -> Value {
      auto op = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
      op->setAttr(mlx::attrs::kAddressOnly, b.getUnitAttr());
      return op;
    };
    Value from = address(copy->source), to = address(cache);
    Value differ = e.cmp(arith::CmpIPredicate::ne, from, to);
    return e.select(differ, e.index(1), e.index(0));
  };
  Value copiesK = copies(copyK, k), copiesV = copies(copyV, v);

  // The chunks' maxima and sums, and their weighted value rows.
  int64_t totalRows = p.rowGroups * p.blockRows;
  Value partialStats, partialRows;
  if (p.splits > 1) {
    partialStats = memref::AllocOp::create(
        b, loc, MemRefType::get({totalRows, p.splits, 2}, f32));
    partialRows = memref::AllocOp::create(
        b, loc, MemRefType::get({totalRows, p.splits, p.vdim}, f32));
  }

  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto shared = [&](ArrayRef<int64_t> shape, Type type) {
    return MemRefType::get(shape, type, MemRefLayoutAttrInterface(), workgroup);
  };
  const int64_t rowsV = kThreads / p.lanesV; // value rows a step reads at once
  auto launch = gpu::LaunchOp::create(
      b, loc, e.index(p.splits), e.index(p.rowGroups), e.index(1),
      e.index(kThreads), e.index(1), e.index(1),
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      ValueRange(),
      TypeRange{shared({p.blockRows, p.chunk}, f32),
                shared({rowsV, p.blockRows, p.vdim}, f32),
                shared({p.blockRows, 2}, f32), shared({1}, i32)});
  if (p.splits > 1) {
    b.setInsertionPointAfter(launch);
    memref::DeallocOp::create(b, loc, partialStats);
    memref::DeallocOp::create(b, loc, partialRows);
  }
  b.setInsertionPointToStart(&launch.getBody().front());
  Value scores = launch.getWorkgroupAttributions()[0];
  Value sums = launch.getWorkgroupAttributions()[1];
  Value stats = launch.getWorkgroupAttributions()[2];
  Value flag = launch.getWorkgroupAttributions()[3];

  // Block coordinates: the chunk, and the batch, key head and query rows.
  Value tid = launch.getThreadIds().x;
  Value split = launch.getBlockIds().x;
  Value group = launch.getBlockIds().y;
  const int64_t groupsPerHead = p.groupRows / p.blockRows;
  Value batch = e.div(group, p.kvHeads * groupsPerHead);
  Value kvHead = e.rem(e.div(group, groupsPerHead), p.kvHeads);
  Value firstRow = e.mul(e.rem(group, groupsPerHead), p.blockRows);
  const int64_t perKvHead = p.heads / p.kvHeads;
  // Query row r of the block: query head and query index.
  auto queryOf = [&](Value r) {
    Value row = e.add(firstRow, r);
    return std::make_pair(
        e.add(e.mul(kvHead, perKvHead), e.div(row, p.queries)),
        e.rem(row, p.queries));
  };
  SmallVector<Value> qHead, qIndex;
  for (int64_t r = 0; r < p.blockRows; ++r) {
    auto [head, index] = queryOf(e.index(r));
    qHead.push_back(head);
    qIndex.push_back(index);
  }
  Value chunkStart = e.mul(split, p.chunk);
  Value lastKey = e.index(p.keys - 1);
  auto vectorType = VectorType::get({p.width}, element);
  auto vectorF32 = VectorType::get({p.width}, f32);

  // Whether a copy runs (the caller gave the cache a buffer of its own),
  // and whether this block stores the rows: it takes the key head's first
  // query rows.
  auto running = [&](Value copies) -> Value {
    return copies ? e.cmp(arith::CmpIPredicate::ne, copies, e.index(0))
                  : Value();
  };
  Value runsK = running(copiesK), runsV = running(copiesV);
  Value firstGroup =
      e.cmp(arith::CmpIPredicate::eq, e.rem(group, groupsPerHead), e.index(0));

  // One step's rows of `cache` (keys or values) for this thread, all
  // loaded before any is used: row `rowLane + u * rowsPerPass` of the step
  // (chunk positions, clamped to the last key), 16 bytes at `lane`. With a
  // copy to make (`runs`, uniform), the rows come from its source but the
  // window's; without, the loads are those of a cache of its own.
  struct Rows {
    SmallVector<Value> local, loaded;
  };
  auto loadRows = [&](Value cache, const std::optional<CacheCopy> &copy,
                      Value runs, Value step, Value rowLane,
                      int64_t rowsPerPass, Value lane) {
    Rows rows;
    SmallVector<SmallVector<Value>> at;
    Value column = e.mul(lane, p.width);
    for (int64_t u = 0; u < kUnroll; ++u) {
      rows.local.push_back(e.add(e.add(step, rowLane), u * rowsPerPass));
      Value key = arith::MinUIOp::create(
          b, loc, e.add(chunkStart, rows.local.back()), lastKey);
      at.push_back({batch, kvHead, key, column});
    }
    auto loadRow = [&](Value from, int64_t u) -> Value {
      auto load = vector::LoadOp::create(b, loc, vectorType, from, at[u]);
      load.setAlignment(16);
      return load;
    };
    auto loadAll = [&](Value from) {
      SmallVector<Value> loaded;
      for (int64_t u = 0; u < kUnroll; ++u)
        loaded.push_back(loadRow(from, u));
      return loaded;
    };
    if (!copy) {
      rows.loaded = loadAll(cache);
      return rows;
    }
    // Builds one branch of an scf.if with `b`.
    auto branch = [&](function_ref<SmallVector<Value>()> body) {
      return [&, body](OpBuilder &nested, Location) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        scf::YieldOp::create(b, loc, body());
      };
    };
    SmallVector<Value> inWindow;
    for (int64_t u = 0; u < kUnroll; ++u)
      inWindow.push_back(
          e.cmp(arith::CmpIPredicate::ult,
                arith::SubIOp::create(b, loc, at[u][2], copy->start),
                e.index(copy->size)));
    auto copying = [&]() {
      SmallVector<Value> loaded = loadAll(copy->source);
      for (int64_t u = 0; u < kUnroll; ++u)
        loaded[u] =
            scf::IfOp::create(
                b, loc, inWindow[u],
                branch([&] { return SmallVector<Value>{loadRow(cache, u)}; }),
                branch([&] { return SmallVector<Value>{loaded[u]}; }))
                .getResult(0);
      return loaded;
    };
    rows.loaded = scf::IfOp::create(b, loc, runs, branch(copying),
                                    branch([&] { return loadAll(cache); }))
                      .getResults();
    // The first row group stores the rows into the cache but the window's,
    // none past the last key.
    e.ifThen(arith::AndIOp::create(b, loc, runs, firstGroup), [&] {
      for (int64_t u = 0; u < kUnroll; ++u) {
        Value exists = e.cmp(arith::CmpIPredicate::ult,
                             e.add(chunkStart, rows.local[u]), e.index(p.keys));
        Value outside = arith::XOrIOp::create(
            b, loc, inWindow[u], arith::ConstantIntOp::create(b, loc, 1, 1));
        e.ifThen(arith::AndIOp::create(b, loc, exists, outside), [&] {
          auto row =
              vector::StoreOp::create(b, loc, rows.loaded[u], cache, at[u]);
          row.setAlignment(16);
        });
      }
    });
    return rows;
  };

  // 1. Scores. The query slice of this lane, as MLX rounds q * scale, in
  // base 2.
  Value laneK = e.rem(tid, p.lanesK);
  Value keyLane = e.div(tid, p.lanesK);
  llvm::APFloat scale(op.getScale().convertToDouble());
  bool lost;
  scale.convert(cast<FloatType>(element).getFloatSemantics(),
                llvm::APFloat::rmNearestTiesToEven, &lost);
  Value scaleF32 = e.f32(scale.convertToDouble());
  Value log2e = e.f32(kLog2e);
  SmallVector<Value> qSlice;
  for (int64_t r = 0; r < p.blockRows; ++r) {
    SmallVector<Value> lanes;
    for (int64_t i = 0; i < p.width; ++i) {
      Value x =
          memref::LoadOp::create(b, loc, q,
                                 ValueRange{batch, qHead[r], qIndex[r],
                                            e.add(e.mul(laneK, p.width), i)});
      Value scaled = e.fmul(e.toF32(x), scaleF32);
      if (!element.isF32())
        scaled = e.toF32(arith::TruncFOp::create(b, loc, element, scaled));
      lanes.push_back(e.fmul(scaled, log2e));
    }
    qSlice.push_back(vector::FromElementsOp::create(b, loc, vectorF32, lanes));
  }
  ArrayRef<int64_t> maskShape =
      mask ? typeOf(mask).getShape() : ArrayRef<int64_t>();
  Value negInf = e.f32(-INFINITY), masked = e.f32(mlx::kMaskedAttentionScore);
  // Key `key`'s score for row r (base 2), from the lanes' dot product.
  auto finishScore = [&](Value dot, Value key, int64_t r) {
    Value score = dot;
    if (mask) {
      // The last chunk's tail reads the last key's mask (and drops it).
      Value at[4] = {batch, qHead[r], qIndex[r],
                     arith::MinUIOp::create(b, loc, key, lastKey)};
      SmallVector<Value> indices;
      for (int64_t d = 0; d < 4; ++d)
        indices.push_back(maskShape[d] == 1 ? e.index(0) : at[d]);
      Value m = memref::LoadOp::create(b, loc, mask, indices);
      score = m.getType().isInteger(1)
                  ? e.select(m, score, masked)
                  : e.fadd(score, e.fmul(e.toF32(m), log2e));
    }
    if (op.getCausal()) {
      // Query i sees keys j <= i + S - L.
      Value visible = e.cmp(arith::CmpIPredicate::ule, key,
                            e.add(qIndex[r], e.index(p.keys - p.queries)));
      score = e.select(visible, score, masked);
    }
    // Keys past the last (the last chunk's tail) do not exist.
    return e.select(e.cmp(arith::CmpIPredicate::ult, key, e.index(p.keys)),
                    score, negInf);
  };
  const int64_t rowsK = kThreads / p.lanesK;
  // A chunk of one value step (few keys a chunk: a short cache, or many
  // row groups to spread) loads its value rows with its key rows: the
  // values then arrive while the scores are made, not after.
  Value laneV = e.rem(tid, p.lanesV);
  Value valueLane = e.div(tid, p.lanesV);
  std::optional<Rows> early;
  if (p.chunk <= p.stepV)
    early = loadRows(v, copyV, runsV, e.index(0), valueLane, rowsV, laneV);
  e.loop(
      e.index(0), e.index(p.chunk), p.stepK, ValueRange(),
      [&](Value step, ValueRange) -> SmallVector<Value> {
        Rows rows = loadRows(k, copyK, runsK, step, keyLane, rowsK, laneK);
        SmallVector<Value> &local = rows.local, &loaded = rows.loaded;
        SmallVector<Value> results;
        for (int64_t u = 0; u < kUnroll; ++u) {
          Value keyRow = e.toF32(loaded[u]);
          for (int64_t r = 0; r < p.blockRows; ++r) {
            Value products = e.fmul(qSlice[r], keyRow);
            Value dot = vector::ReductionOp::create(
                b, loc, vector::CombiningKind::ADD, products);
            dot = e.butterfly(dot, p.lanesK, /*isMax=*/false);
            results.push_back(finishScore(dot, e.add(chunkStart, local[u]), r));
          }
        }
        e.ifThen(e.cmp(arith::CmpIPredicate::eq, laneK, e.index(0)), [&] {
          for (int64_t u = 0; u < kUnroll; ++u)
            for (int64_t r = 0; r < p.blockRows; ++r)
              memref::StoreOp::create(b, loc, results[u * p.blockRows + r],
                                      scores, ValueRange{e.index(r), local[u]});
        });
        return {};
      });
  gpu::BarrierOp::create(b, loc);

  // 2. A warp per row: the chunk's max, the probabilities and their sum.
  Value warp = e.div(tid, 32), lane = e.rem(tid, 32);
  for (int64_t r = 0; r < p.blockRows; ++r) {
    e.ifThen(e.cmp(arith::CmpIPredicate::eq, warp, e.index(r % kWarps)), [&] {
      Value row = e.index(r);
      Value max = e.loop(lane, e.index(p.chunk), 32, ValueRange{negInf},
                         [&](Value i, ValueRange args) -> SmallVector<Value> {
                           Value s = memref::LoadOp::create(b, loc, scores,
                                                            ValueRange{row, i});
                           return {e.fmax(args[0], s)};
                         })
                      .getResult(0);
      max = e.butterfly(max, 32, /*isMax=*/true);
      Value shift = e.finiteOrZero(max);
      Value sum = e.loop(lane, e.index(p.chunk), 32, ValueRange{e.f32(0.0)},
                         [&](Value i, ValueRange args) -> SmallVector<Value> {
                           Value s = memref::LoadOp::create(b, loc, scores,
                                                            ValueRange{row, i});
                           Value prob = e.exp2(e.fsub(s, shift));
                           memref::StoreOp::create(b, loc, prob, scores,
                                                   ValueRange{row, i});
                           return {e.fadd(args[0], prob)};
                         })
                      .getResult(0);
      sum = e.butterfly(sum, 32, /*isMax=*/false);
      e.ifThen(e.cmp(arith::CmpIPredicate::eq, lane, e.index(0)), [&] {
        memref::StoreOp::create(b, loc, max, stats,
                                ValueRange{row, e.index(0)});
        memref::StoreOp::create(b, loc, sum, stats,
                                ValueRange{row, e.index(1)});
      });
    });
  }
  gpu::BarrierOp::create(b, loc);

  // 3. P.V: each thread's value rows, weighted, then the block's sum.
  Value zeros = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(vectorF32, 0.0f));
  SmallVector<Value> accInit(p.blockRows, zeros);
  scf::ForOp pv = e.loop(
      e.index(0), e.index(p.chunk), p.stepV, accInit,
      [&](Value step, ValueRange acc) -> SmallVector<Value> {
        Rows rows =
            early ? *early
                  : loadRows(v, copyV, runsV, step, valueLane, rowsV, laneV);
        SmallVector<Value> &local = rows.local, &loaded = rows.loaded;
        SmallVector<Value> next(acc);
        for (int64_t u = 0; u < kUnroll; ++u) {
          Value valueRow = e.toF32(loaded[u]);
          for (int64_t r = 0; r < p.blockRows; ++r) {
            Value prob = memref::LoadOp::create(
                b, loc, scores, ValueRange{e.index(r), local[u]});
            Value probs = vector::BroadcastOp::create(b, loc, vectorF32, prob);
            next[r] = vector::FMAOp::create(b, loc, probs, valueRow, next[r]);
          }
        }
        return next;
      });
  for (int64_t r = 0; r < p.blockRows; ++r)
    vector::StoreOp::create(
        b, loc, pv.getResult(r), sums,
        ValueRange{valueLane, e.index(r), e.mul(laneV, p.width)});
  gpu::BarrierOp::create(b, loc);

  // 4. The block's rows: into the output, or the partial buffers.
  auto writeOutput = [&](Value r, Value d, Value value) {
    auto [head, index] = queryOf(r);
    Value rounded =
        element.isF32()
            ? value
            : arith::TruncFOp::create(b, loc, element, value).getResult();
    memref::StoreOp::create(b, loc, rounded, out,
                            ValueRange{batch, head, index, d});
  };
  // Row r's sink logit (base 2), from its query head.
  Value sinks = op.getSinks();
  auto sinkOf = [&](Value r) {
    Value sink =
        memref::LoadOp::create(b, loc, sinks, ValueRange{queryOf(r).first});
    return e.fmul(e.toF32(sink), log2e);
  };
  auto forEachOutput = [&](function_ref<void(Value, Value)> body) {
    e.loop(tid, e.index(p.blockRows * p.vdim), kThreads, ValueRange(),
           [&](Value i, ValueRange) -> SmallVector<Value> {
             body(e.div(i, p.vdim), e.rem(i, p.vdim));
             return {};
           });
  };
  forEachOutput([&](Value r, Value d) {
    Value total = e.loop(e.index(0), e.index(rowsV), 1, ValueRange{e.f32(0.0)},
                         [&](Value t, ValueRange args) -> SmallVector<Value> {
                           Value x = memref::LoadOp::create(
                               b, loc, sums, ValueRange{t, r, d});
                           return {e.fadd(args[0], x)};
                         })
                      .getResult(0);
    Value max =
        memref::LoadOp::create(b, loc, stats, ValueRange{r, e.index(0)});
    Value sum =
        memref::LoadOp::create(b, loc, stats, ValueRange{r, e.index(1)});
    if (p.splits == 1) {
      if (sinks) {
        // The sink joins the row's softmax: both rescaled to the larger max.
        Value sink = sinkOf(r);
        Value top = e.fmax(max, sink);
        Value weight = e.exp2(e.fsub(max, top));
        total = e.fmul(total, weight);
        sum = e.fadd(e.fmul(sum, weight), e.exp2(e.fsub(sink, top)));
      }
      writeOutput(r, d, arith::DivFOp::create(b, loc, total, sum));
      return;
    }
    Value row = e.add(e.mul(group, p.blockRows), r);
    memref::StoreOp::create(b, loc, total, partialRows,
                            ValueRange{row, split, d});
    e.ifThen(e.cmp(arith::CmpIPredicate::eq, d, e.index(0)), [&] {
      memref::StoreOp::create(b, loc, max, partialStats,
                              ValueRange{row, split, e.index(0)});
      memref::StoreOp::create(b, loc, sum, partialStats,
                              ValueRange{row, split, e.index(1)});
    });
  });

  if (p.splits > 1) {
    // The block's partials are visible device-wide before it is counted;
    // the row group's last block adds up every chunk.
    NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
    gpu::BarrierOp::create(b, loc);
    Value counts = memref::GetGlobalOp::create(b, loc, counters.getType(),
                                               counters.getSymName());
    e.ifThen(e.cmp(arith::CmpIPredicate::eq, tid, e.index(0)), [&] {
      Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
      Value before = memref::AtomicRMWOp::create(
          b, loc, arith::AtomicRMWKind::addi, one, counts, ValueRange{group});
      Value last = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, before,
          arith::ConstantIntOp::create(b, loc, p.splits - 1, 32));
      memref::StoreOp::create(b, loc, arith::ExtUIOp::create(b, loc, i32, last),
                              flag, ValueRange{e.index(0)});
      // Every chunk has counted: the count starts over for the next launch.
      e.ifThen(last, [&] {
        memref::StoreOp::create(b, loc,
                                arith::ConstantIntOp::create(b, loc, 0, 32),
                                counts, ValueRange{group});
      });
    });
    gpu::BarrierOp::create(b, loc);
    Value isLast = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        memref::LoadOp::create(b, loc, flag, ValueRange{e.index(0)}),
        arith::ConstantIntOp::create(b, loc, 0, 32));
    e.ifThen(isLast, [&] {
      forEachOutput([&](Value r, Value d) {
        Value row = e.add(e.mul(group, p.blockRows), r);
        auto stat = [&](Value s, int64_t which) -> Value {
          return memref::LoadOp::create(b, loc, partialStats,
                                        ValueRange{row, s, e.index(which)});
        };
        // The sink joins as one more chunk, of sum 1 and no rows.
        Value sink = sinks ? sinkOf(r) : Value();
        Value max = e.loop(e.index(0), e.index(p.splits), 1,
                           ValueRange{sink ? sink : negInf},
                           [&](Value s, ValueRange args) -> SmallVector<Value> {
                             return {e.fmax(args[0], stat(s, 0))};
                           })
                        .getResult(0);
        Value shift = e.finiteOrZero(max);
        Value sinkSum = sink ? e.exp2(e.fsub(sink, shift)) : e.f32(0.0);
        scf::ForOp totals = e.loop(
            e.index(0), e.index(p.splits), 1, ValueRange{sinkSum, e.f32(0.0)},
            [&](Value s, ValueRange args) -> SmallVector<Value> {
              Value weight = e.exp2(e.fsub(stat(s, 0), shift));
              Value x = memref::LoadOp::create(b, loc, partialRows,
                                               ValueRange{row, s, d});
              return {e.fadd(args[0], e.fmul(stat(s, 1), weight)),
                      e.fadd(args[1], e.fmul(x, weight))};
            });
        writeOutput(r, d,
                    arith::DivFOp::create(b, loc, totals.getResult(1),
                                          totals.getResult(0)));
      });
    });
  }
  gpu::TerminatorOp::create(b, loc);
  op.erase();
  return success();
}
