//===- SplitVectorProducts.cpp - the mlxc-split-vector-products pass ------===//
//
// A product of at most 4 rows per batch whose right-hand side is stored
// with its columns innermost (h @ w with w [in, out]; a decode step's
// probabilities times the values) is bound by reading that operand once.
// cuBLASLt runs such shapes with small-N kernels (nvjet 64x8, gemmSN) that
// reach under half of the memory floor on the H200. Here it becomes two
// kernels:
//   1. partials[s, b, m, n] = sum over chunk s of k of a[b, m, k] w[b, k, n]:
//      a thread owns V neighbouring columns (one 16-byte load per row of w)
//      for every row m and takes its L rows in steps of up to 8, the next
//      step's loads issued before the current step's rows are added; the
//      KY threads of a block that share those columns merge their sums in
//      shared memory;
//   2. in the same kernel, the last block to finish a column tile (an
//      atomic count per tile, in a zero-initialized device global that
//      block resets) adds the chunks' sums in order into `out`; a zero fill
//      of `out` before the product is folded in. No second launch.
// An elementwise op that reads only the product of the float32 product
// element by element and comes right after it (its epilogue: the rounding
// to bf16, a residual add) is computed in that last block too: the float32
// product never reaches memory, and the epilogue is no kernel of its own.
// A row kernel that only makes the launch's left-hand side (a decode step's
// rms_norm of the residual row before q/k/v or gate/up) is its prologue:
// each block reduces the row itself (it is a few KB, read from L2 by every
// block while the block's first weight rows are in flight) and computes
// a[m, k] where it reads it. The norm is then no launch of its own; so is
// a lone elementwise map that only makes the left-hand side (SwiGLU's
// silu(gate) * up before the down product).
// The summation order depends on the shapes alone: results are the same
// from run to run. The counts assume the program's kernels run one after
// another on one stream, as mlxrt runs them.
//
//===----------------------------------------------------------------------===//

#include "codegen/Cuda/Arch.h"
#include "codegen/Cuda/RowChain.h"
#include "codegen/Passes.h"
#include "codegen/ProductOperands.h"
#include "codegen/ShapeUtils.h"

#include "Kernel/KernelOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCSPLITVECTORPRODUCTS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;
using mlx::kWarpSize;

namespace {
constexpr int64_t kMaxRows = 4;
constexpr int64_t kThreads = 256;
constexpr int64_t kMaxGridZ = 65535;
/// Column groups per block (a warp's worth reads 512 contiguous bytes).
constexpr int64_t kMaxGroupsPerBlock = 32;
/// Rows of w a thread loads at once (an unrolled step).
constexpr int64_t kMaxRowsPerStep = 8;
/// One wave: two blocks per SM of the H200. Below it the rows per step
/// halve (more, smaller chunks); above it threads take more steps (see
/// planChunks). W8's four products (32-86 MiB of weights), H200,
/// 2026-12-03, Nsight Compute: 2.3-3.2 TB/s in blocks of one step (32 KB),
/// 2.0-3.7 in blocks of four steps (128 KB; up to 2.9 waves), 2.6-4.0 in
/// one wave of 240-258 blocks; W8 0.186 ms with them in cuBLASLt, 0.160 in
/// one wave. The wave is the target's getFullGridBlocks (264 on 132 SMs).
/// Chunks above which a thread takes more steps (each tile's last block
/// adds up every chunk).
constexpr int64_t kMaxChunks = 64;
/// Bytes of w a block reads, below which rows per thread stop halving: a
/// small product (a decode step's probabilities times 1 MB of values) is
/// bound by latency, and more, thinner chunks only lengthen the last
/// block's sum (256 blocks of one row per thread took 8.8 us for 1 MB on
/// the H200, 2026-12-02).
constexpr int64_t kMinBlockBytes = 16 << 10;
/// A prologue's strided pass over the row is unrolled up to this many
/// elements a thread (their loads in flight at once), else a loop.
constexpr int64_t kMaxUnrolledPrologue = 16;
/// Bytes of a prologue's elements a block computes once into shared memory
/// (the threads over a block's columns read the same ones); above it, each
/// thread computes its own. W9's down product with SwiGLU's map computed
/// per thread took 13.4 us a layer against 10.7 for the product alone
/// (H200, 2026-12-04, Nsight Compute).
constexpr int64_t kMaxStagedBytes = 16 << 10;

/// The shapes of one product, and how it is split.
struct Plan {
  int64_t batch, m, n, k;
  int64_t width;        ///< V: columns per thread, one vector access.
  int64_t elementBytes; ///< of w
  int64_t groups;       ///< ceil(n / width)
  int64_t tx, ky;       ///< column groups and k slices per block
  int64_t rows;         ///< L: rows of w per thread (= unroll x steps)
  int64_t unroll;       ///< rows per step, loaded at once
  int64_t steps;
  int64_t tiles;  ///< blocks along the columns
  int64_t chunks; ///< S: blocks along k
  int64_t wave;   ///< blocks that fill the GPU (the target's)
};

/// Whether `w` (rank >= 2) can be read `width` columns at a time with one
/// aligned vector access: unit innermost stride, and every row and the
/// view's start at a multiple of `width` elements of a buffer the runtime
/// aligns (an argument or an allocation).
bool allowsVectorAccess(Value w, int64_t width) {
  auto type = cast<MemRefType>(w.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1 || ShapedType::isDynamic(offset) ||
      offset % width != 0 || type.getShape().back() % width != 0)
    return false;
  for (int64_t stride : ArrayRef(strides).drop_back())
    if (ShapedType::isDynamic(stride) || stride % width != 0)
      return false;
  Value root = w;
  while (Operation *def = root.getDefiningOp()) {
    if (!isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(def))
      break;
    root = def->getOperand(0);
  }
  return isa<BlockArgument>(root) || root.getDefiningOp<memref::AllocOp>();
}

/// Rows per thread and chunks of k for `plan` in a launch of `tiles` column
/// tiles (those of products that share the launch, see below).
void planChunks(Plan &plan, int64_t tiles) {
  auto chunksFor = [&](int64_t rows) {
    return llvm::divideCeil(plan.k, plan.ky * rows);
  };
  plan.unroll = kMaxRowsPerStep;
  // Fewer rows per thread for more blocks, but not past kMaxChunks: a
  // thread's rows are better loaded at once than in more steps.
  int64_t blockBytesPerRow = kThreads * plan.width * plan.elementBytes;
  while (plan.unroll > 1 &&
         tiles * chunksFor(plan.unroll) * plan.batch < plan.wave &&
         chunksFor(plan.unroll / 2) <= kMaxChunks &&
         blockBytesPerRow * (plan.unroll / 2) >= kMinBlockBytes)
    plan.unroll /= 2;
  plan.steps = 1;
  while (chunksFor(plan.unroll * plan.steps) > kMaxChunks)
    ++plan.steps;
  // A grid of more than one wave takes more steps until it is
  // one: the blocks then end together rather than in a partial last wave,
  // and each thread's next step loads while its current one adds.
  while (tiles * chunksFor(plan.unroll * plan.steps) * plan.batch >
             plan.wave &&
         chunksFor(plan.unroll * plan.steps) > 1)
    ++plan.steps;
  plan.rows = plan.unroll * plan.steps;
  plan.chunks = chunksFor(plan.rows);
}

std::optional<Plan> planProduct(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.hasUserDefinedMaps() ||
      op.hasDynamicShape())
    return std::nullopt;
  bool batched = isa<linalg::BatchMatmulOp>(op);
  auto aType = cast<MemRefType>(op.getDpsInputs()[0].getType());
  auto wType = cast<MemRefType>(op.getDpsInputs()[1].getType());
  auto cType = cast<MemRefType>(op.getDpsInits()[0].getType());
  Type acc = cType.getElementType();
  if (!isa<FloatType>(aType.getElementType()) ||
      !isa<FloatType>(wType.getElementType()) || !isa<FloatType>(acc) ||
      cast<FloatType>(acc).getWidth() > 32)
    return std::nullopt;
  Plan plan;
  plan.wave =
      kernel::getTargetOr(op, kernel::Backend::Cuda).getFullGridBlocks();
  plan.batch = batched ? cType.getDimSize(0) : 1;
  plan.m = cType.getDimSize(cType.getRank() - 2);
  plan.n = cType.getDimSize(cType.getRank() - 1);
  plan.k = aType.getDimSize(aType.getRank() - 1);
  // The batch is the grid's z (at most 65535 blocks).
  if (plan.m < 1 || plan.m > kMaxRows || plan.n < 1 || plan.k < 1 ||
      plan.batch < 1 || plan.batch > kMaxGridZ)
    return std::nullopt;
  // w's columns innermost (else: a transposed weight, which
  // mlxc-vector-products made a row kernel, or the library's case).
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(wType.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1 ||
      isa_and_nonnull<linalg::TransposeOp>(
          mlx::getFoldableCopy(op.getDpsInputs()[1], op).getOperation()))
    return std::nullopt;
  int64_t bytes = mlx::getElementBytes(wType.getElementType());
  plan.elementBytes = std::max<int64_t>(bytes, 1);
  plan.width = std::max<int64_t>(1, 16 / plan.elementBytes);
  while (plan.width > 1 &&
         !allowsVectorAccess(op.getDpsInputs()[1], plan.width))
    plan.width /= 2;
  plan.groups = llvm::divideCeil(plan.n, plan.width);
  plan.tx = std::min(kMaxGroupsPerBlock, plan.groups);
  plan.ky = kThreads / plan.tx;
  plan.tiles = llvm::divideCeil(plan.groups, plan.tx);
  planChunks(plan, plan.tiles);
  return plan;
}

/// A launch that computes split products: its ids, its workgroup buffers
/// and the counts (one per column tile of the launch and batch).
struct SplitLaunch {
  Value tx, ky, tile, chunk, bt, shared, flag, counters;
  /// The prologue's warp totals (null without a prologue).
  Value prologueShared;
  /// The block's rows of the left-hand side as the prologue computes them
  /// (null: each thread computes its own where it reads them).
  Value staged;
  int64_t tiles;
};

/// A row chain (mlxc-fuse-row-kernels' matcher), or a lone elementwise map,
/// whose last op writes the left-hand side of a launch's products and whose
/// other results stay in the chain: every block of the launch computes it.
struct RowPrologue {
  mlx::Chain chain;
  int64_t rows; ///< The product's m.
  /// Reductions of the chain, in order: their slots in the shared buffer.
  SmallVector<int> reductions;
  /// Root buffers the chain reads from memory.
  SmallVector<Value> reads;

  /// The chain's row `m` as loop indices of its non-unit row dims.
  SmallVector<Value> rowIvs(OpBuilder &b, Location loc, int64_t m) const {
    SmallVector<Value> ivs(chain.rows.size());
    for (int i = static_cast<int>(chain.rows.size()) - 1; i >= 0; --i) {
      ivs[i] = arith::ConstantIndexOp::create(b, loc, m % chain.rows[i]);
      m /= chain.rows[i];
    }
    return ivs;
  }
  /// Emits, in every thread (`thread` of `threads`, a whole number of
  /// warps), the per-row values of each row: a strided pass over the row,
  /// a warp butterfly and the warps' merge through `shared`.
  SmallVector<DenseMap<int, Value>> emitScalars(OpBuilder &b, Location loc,
                                                Value thread, int64_t threads,
                                                Value shared) const;
  /// The left-hand side's element (m, k) with the per-row values `scalars`.
  Value emitElement(OpBuilder &b, Location loc,
                    const DenseMap<int, Value> &scalars, int64_t m,
                    Value k) const {
    DenseMap<int, Value> cache;
    return mlx::emitChainValue(
        b, loc, chain, chain.ops.size() - 1, rowIvs(b, loc, m), k, scalars,
        cache, [&](const mlx::ChainOp &c, OpOperand &operand, ValueRange ivs) {
          return memref::LoadOp::create(
                     b, loc, operand.get(),
                     mlx::getChainIndicesAt(b, loc, c, operand, ivs))
              .getResult();
        });
  }
};

SmallVector<DenseMap<int, Value>>
RowPrologue::emitScalars(OpBuilder &b, Location loc, Value thread,
                         int64_t threads, Value shared) const {
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  auto load = [&](const mlx::ChainOp &c, OpOperand &operand, ValueRange ivs) {
    return memref::LoadOp::create(
               b, loc, operand.get(),
               mlx::getChainIndicesAt(b, loc, c, operand, ivs))
        .getResult();
  };
  int64_t columns = chain.columns;
  int64_t trips = llvm::divideCeil(columns, threads);
  bool ragged = columns % threads != 0;
  int64_t warps = llvm::divideCeil(std::min(columns, threads), kWarpSize);
  SmallVector<DenseMap<int, Value>> scalars(rows);
  for (int64_t m = 0; m < rows; ++m) {
    SmallVector<Value> ivs = rowIvs(b, loc, m);
    for (auto [index, c] : llvm::enumerate(chain.ops)) {
      if (c.kind == mlx::ChainOp::RowScalar) {
        DenseMap<int, Value> cache;
        scalars[m][index] = mlx::emitChainValue(
            b, loc, chain, index, ivs, cst(0), scalars[m], cache, load);
        continue;
      }
      if (c.kind != mlx::ChainOp::Reduce)
        continue;
      const mlx::RowReduction &r = *c.reduction;
      // Element `column` (clamped to the row) and whether it is in it.
      auto valueAt = [&](Value column) {
        Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                             column, cst(columns));
        Value read =
            ragged ? arith::MinUIOp::create(b, loc, column, cst(columns - 1))
                         .getResult()
                   : column;
        DenseMap<int, Value> cache;
        Value v = mlx::emitChainValue(b, loc, chain, index, ivs, read,
                                      scalars[m], cache, load);
        return std::make_pair(v, inside);
      };
      auto addColumn = [&](Value partial, Value column) {
        auto [v, inside] = valueAt(column);
        Value merged = mlx::emitCombine(b, r, partial, v);
        return ragged ? arith::SelectOp::create(b, loc, inside, merged, partial)
                            .getResult()
                      : merged;
      };
      auto [partial, has] = valueAt(thread);
      if (trips <= kMaxUnrolledPrologue) {
        for (int64_t t = 1; t < trips; ++t)
          partial = addColumn(
              partial, arith::AddIOp::create(b, loc, thread, cst(t * threads)));
      } else {
        auto loop = scf::ForOp::create(
            b, loc, cst(1), cst(trips), cst(1), ValueRange{partial},
            [&](OpBuilder &body, Location l, Value t, ValueRange acc) {
              OpBuilder::InsertionGuard guard(b);
              b.setInsertionPoint(body.getInsertionBlock(),
                                  body.getInsertionPoint());
              Value column = arith::AddIOp::create(
                  b, l, thread, arith::MulIOp::create(b, l, t, cst(threads)));
              scf::YieldOp::create(b, l, addColumn(acc[0], column));
            });
        partial = loop.getResult(0);
      }
      Value hasBits =
          columns >= threads
              ? arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1)
                    .getResult()
              : arith::ExtUIOp::create(b, loc, b.getI32Type(), has).getResult();
      partial = mlx::emitWarpButterfly(b, loc, r, partial, hasBits);
      // Each reduction and row has its own warps' slots: no barrier
      // before the next one writes.
      int64_t slot = (m * reductions.size() +
                      (llvm::find(reductions, index) - reductions.begin())) *
                     warps;
      Value total = mlx::emitWarpsTotal(b, loc, r, partial, thread, warps,
                                        shared, slot, threads / kWarpSize);
      // The starting value of the reduction's element.
      OpOperand *init = cast<linalg::GenericOp>(c.op).getDpsInitOperand(0);
      int producer = c.producers[init->getOperandNumber()];
      Value initial;
      if (producer < 0)
        initial =
            load(c, *init, mlx::getChainLoopIndices(b, loc, c, ivs, cst(0)));
      else if (chain.ops[producer].kind == mlx::ChainOp::Fill)
        initial = cast<linalg::FillOp>(chain.ops[producer].op).getInputs()[0];
      else
        initial = scalars[m].lookup(producer);
      scalars[m][index] = mlx::emitCombine(b, r, initial, total);
    }
  }
  return scalars;
}

class ProductSplitter {
public:
  ProductSplitter(linalg::LinalgOp op, const Plan &plan, bool prefetchesWeights)
      : op(op), plan(plan), b(op), loc(op.getLoc()),
        prefetchesWeights(prefetchesWeights) {}
  /// Before the launch: folds the zero fill, finds the epilogue and
  /// allocates the partial sums.
  void prepare();
  /// In `launch`, for its blocks of x ids [firstTile, firstTile + tiles):
  /// this product.
  void emitBody(const SplitLaunch &launch, int64_t firstTile);
  /// After the launch: frees the partial sums, erases the product, its fill
  /// and its epilogue.
  void finish(Operation *launch);
  /// The elementwise op that only consumes the product (see above), or null.
  linalg::GenericOp findEpilogue();
  /// The zero fill of the product's output right before it (views and
  /// constants between), or null: the combine then starts from zero.
  Operation *findZeroFill();
  /// The product's last op as prepare() will see it: its epilogue when it
  /// has one (only after a zero fill), else the product.
  Operation *getUnitEnd() {
    if (findZeroFill())
      if (linalg::GenericOp epilogue = findEpilogue())
        return epilogue;
    return op;
  }

  linalg::LinalgOp op;
  Plan plan;
  /// False when the epilogue must stay an op of its own (it reads what
  /// another product of the launch writes).
  bool fusesEpilogue = true;
  /// The row chain that makes the left-hand side, computed in the blocks,
  /// or null: the left-hand side is read from memory.
  const RowPrologue *prologue = nullptr;

private:
  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value f32(Value v) {
    if (v.getType() == b.getF32Type())
      return v;
    return arith::ExtFOp::create(b, loc, b.getF32Type(), v);
  }
  /// The indices of `buffer` (rank 2, or 3 with batch) at (bt, row, col).
  SmallVector<Value> at(Value buffer, Value bt, Value row, Value col) {
    if (cast<MemRefType>(buffer.getType()).getRank() == 3)
      return {bt, row, col};
    return {row, col};
  }
  /// Stores output element `indices` (of the product's output), `total`:
  /// through the epilogue when there is one.
  void storeOutput(Location loc, Value total, ValueRange indices);

  /// Merges the block's k slices: each thread's `sums` (a vector of its
  /// columns per row) go to shared memory; then for each of the block's
  /// outputs (row m, column < n) one thread adds the KY slices in order and
  /// calls `use(m, column, total)` there.
  void mergeSlices(Location l, ArrayRef<Value> sums,
                   function_ref<void(Value, Value, Value)> use);

  linalg::GenericOp epilogue;
  Operation *fill = nullptr; ///< The zero fill folded in, or null.
  Value partials;
  /// In the kernel: the thread's ids, the product's column tile, its column
  /// slot in shared memory and the shared buffer of the k slices' sums.
  Value tx, ky, tile, thread, slot, shared;

public:
  OpBuilder b;
  Location loc;
  /// w is a graph input that the program never writes.
  bool prefetchesWeights;
};

void ProductSplitter::mergeSlices(Location l, ArrayRef<Value> sums,
                                  function_ref<void(Value, Value, Value)> use) {
  for (int64_t m = 0; m < plan.m; ++m)
    vector::StoreOp::create(b, l, sums[m], shared,
                            ValueRange{ky, cst(m), slot});
  gpu::BarrierOp::create(b, l);
  int64_t blockColumns = plan.tx * plan.width;
  int64_t outputs = plan.m * blockColumns;
  // tx * ky may fall short of kThreads (25 groups: 250 threads).
  for (int64_t first = 0; first < outputs; first += plan.tx * plan.ky) {
    Value o = arith::AddIOp::create(b, l, thread, cst(first));
    Value m = arith::DivUIOp::create(b, l, o, cst(blockColumns));
    Value c = arith::RemUIOp::create(b, l, o, cst(blockColumns));
    Value column = arith::AddIOp::create(
        b, l, arith::MulIOp::create(b, l, tile, cst(blockColumns)), c);
    Value valid = arith::AndIOp::create(
        b, l,
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, o, cst(outputs)),
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, column,
                              cst(plan.n)));
    scf::IfOp::create(b, l, valid, [&](OpBuilder &then, Location il) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(then.getInsertionBlock(), then.getInsertionPoint());
      Value total = arith::ConstantOp::create(b, il, b.getF32FloatAttr(0));
      auto loop = scf::ForOp::create(
          b, il, cst(0), cst(plan.ky), cst(1), ValueRange{total},
          [&](OpBuilder &body, Location bl, Value y, ValueRange acc) {
            Value part =
                memref::LoadOp::create(body, bl, shared, ValueRange{y, m, c});
            scf::YieldOp::create(
                body, bl,
                ValueRange{arith::AddFOp::create(body, bl, acc[0], part)});
          });
      use(m, column, loop.getResult(0));
      scf::YieldOp::create(b, il);
    });
  }
}

void ProductSplitter::emitBody(const SplitLaunch &launch, int64_t firstTile) {
  Value a = op.getDpsInputs()[0], w = op.getDpsInputs()[1];
  Value out = op.getDpsInits()[0];
  bool accumulate = !fill;
  Type f32Type = b.getF32Type();
  shared = launch.shared;
  Value flag = launch.flag;
  Value counters = launch.counters;
  tx = launch.tx;
  ky = launch.ky;
  tile = firstTile ? arith::SubIOp::create(b, loc, launch.tile, cst(firstTile))
                         .getResult()
                   : launch.tile;
  Value chunk = launch.chunk;
  Value bt = launch.bt;

  // This thread's columns (clamped: a thread past the last group reads the
  // last one and stores nothing).
  Value group = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, tile, cst(plan.tx)), tx);
  Value readGroup = arith::MinUIOp::create(b, loc, group, cst(plan.groups - 1));
  Value column = arith::MulIOp::create(b, loc, readGroup, cst(plan.width));
  Value firstRow = arith::MulIOp::create(
      b, loc,
      arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, chunk, cst(plan.ky)), ky),
      cst(plan.rows));
  bool ragged = plan.k % (plan.ky * plan.rows) != 0;
  int64_t blockRows = plan.ky * plan.rows;
  Value blockFirstRow = arith::MulIOp::create(b, loc, chunk, cst(blockRows));
  Value linear = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, ky, cst(plan.tx)), tx);
  int64_t threads = plan.tx * plan.ky;
  auto vectorType = VectorType::get({plan.width}, f32Type);
  auto wVectorType = VectorType::get(
      {plan.width}, cast<MemRefType>(w.getType()).getElementType());
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(vectorType));
  SmallVector<Value> sums(plan.m, zero);
  int64_t wBytes = mlx::getElementBytes(wVectorType.getElementType());
  /// The prologue's per-row values (set after the first loads).
  SmallVector<DenseMap<int, Value>> rowScalars;
  // One step's `unroll` rows of w from `stepRow`, all loads issued at once.
  auto loadRows = [&](Value stepRow) {
    SmallVector<Value> rows;
    for (int64_t r = 0; r < plan.unroll; ++r) {
      Value row = arith::AddIOp::create(b, loc, stepRow, cst(r));
      Value readRow =
          ragged
              ? arith::MinUIOp::create(b, loc, row, cst(plan.k - 1)).getResult()
              : row;
      rows.push_back(vector::LoadOp::create(
          b, loc, wVectorType, w, at(w, bt, readRow, column),
          /*nontemporal=*/false, llvm::MaybeAlign(wBytes * plan.width)));
    }
    return rows;
  };
  // Adds the step's rows times a's elements to the sums.
  auto addRows = [&](Value stepRow, ArrayRef<Value> rows) {
    for (auto [r, loaded] : llvm::enumerate(rows)) {
      Value row = arith::AddIOp::create(b, loc, stepRow, cst(r));
      Value readRow =
          ragged
              ? arith::MinUIOp::create(b, loc, row, cst(plan.k - 1)).getResult()
              : row;
      Value wRow = loaded;
      if (wVectorType.getElementType() != f32Type)
        wRow = arith::ExtFOp::create(b, loc, vectorType, wRow);
      if (ragged) {
        Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                             row, cst(plan.k));
        wRow = arith::SelectOp::create(b, loc, inside, wRow, zero);
      }
      for (int64_t m = 0; m < plan.m; ++m) {
        Value aValue;
        if (launch.staged)
          aValue = memref::LoadOp::create(
              b, loc, launch.staged,
              ValueRange{cst(m),
                         arith::SubIOp::create(b, loc, row, blockFirstRow)});
        else if (prologue)
          aValue = prologue->emitElement(b, loc, rowScalars[m], m, readRow);
        else
          aValue =
              memref::LoadOp::create(b, loc, a, at(a, bt, cst(m), readRow));
        aValue = f32(aValue);
        Value splat = vector::BroadcastOp::create(b, loc, vectorType, aValue);
        sums[m] = arith::AddFOp::create(
            b, loc, sums[m], arith::MulFOp::create(b, loc, splat, wRow));
      }
    }
  };
  // Where the kernel may start before the one before it ends (sm_90+, see
  // mlxc-grid-dependent-launch), it first loads w's rows of its first step
  // when the program writes w nowhere (a weight), then waits for that
  // kernel: the weights stream while it ends.
  SmallVector<Value> firstRows;
  if (prefetchesWeights)
    firstRows = loadRows(firstRow);
  NVVM::GriddepcontrolOp::create(b, loc, NVVM::GridDepActionKind::wait);
  if (!prefetchesWeights)
    firstRows = loadRows(firstRow);
  // The prologue's per-row values, while the first rows load.
  if (prologue)
    rowScalars =
        prologue->emitScalars(b, loc, linear, threads, launch.prologueShared);
  if (launch.staged) {
    // The block's rows, each computed by one thread.
    for (int64_t m = 0; m < plan.m; ++m)
      scf::ForOp::create(
          b, loc, linear, cst(blockRows), cst(threads), ValueRange(),
          [&](OpBuilder &body, Location l, Value r, ValueRange) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(body.getInsertionBlock(),
                                body.getInsertionPoint());
            Value row = arith::AddIOp::create(b, l, blockFirstRow, r);
            if (ragged)
              row = arith::MinUIOp::create(b, l, row, cst(plan.k - 1));
            Value element = prologue->emitElement(b, l, rowScalars[m], m, row);
            memref::StoreOp::create(b, l, element, launch.staged,
                                    ValueRange{cst(m), r});
            scf::YieldOp::create(b, l);
          });
    gpu::BarrierOp::create(b, loc);
  }
  if (plan.steps > 1) {
    // The next step's rows are loaded before this step's are added: a
    // thread keeps two steps of loads in flight.
    SmallVector<Value> carried(sums);
    carried.append(firstRows);
    auto loop = scf::ForOp::create(
        b, loc, cst(1), cst(plan.steps), cst(1), carried,
        [&](OpBuilder &body, Location l, Value step, ValueRange values) {
          OpBuilder::InsertionGuard inner(b);
          b.setInsertionPoint(body.getInsertionBlock(),
                              body.getInsertionPoint());
          sums.assign(values.begin(), values.begin() + plan.m);
          Value stepRow = arith::AddIOp::create(
              b, l, firstRow,
              arith::MulIOp::create(b, l, step, cst(plan.unroll)));
          SmallVector<Value> next = loadRows(stepRow);
          Value previousRow =
              arith::SubIOp::create(b, l, stepRow, cst(plan.unroll));
          SmallVector<Value> current(values.drop_front(plan.m));
          addRows(previousRow, current);
          SmallVector<Value> yielded(sums);
          yielded.append(next);
          scf::YieldOp::create(b, l, yielded);
        });
    sums.assign(loop.getResults().begin(), loop.getResults().begin() + plan.m);
    Value lastRow = arith::AddIOp::create(b, loc, firstRow,
                                          cst((plan.steps - 1) * plan.unroll));
    SmallVector<Value> lastRows(loop.getResults().drop_front(plan.m));
    addRows(lastRow, lastRows);
  } else {
    addRows(firstRow, firstRows);
  }
  // The block's k slices merge; its chunk's sums go to `partials`.
  slot = arith::MulIOp::create(b, loc, tx, cst(plan.width));
  thread = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, ky, cst(plan.tx)), tx);
  mergeSlices(loc, sums, [&](Value m, Value column, Value total) {
    memref::StoreOp::create(b, loc, total, partials,
                            ValueRange{chunk, bt, m, column});
  });

  // The block's sums are visible device-wide before it is counted; the
  // block that counts last for its tile adds up all chunks.
  NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
  gpu::BarrierOp::create(b, loc);
  Value isThread0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread, cst(0));
  scf::IfOp::create(b, loc, isThread0, [&](OpBuilder &then, Location l) {
    Value slotIndex = arith::AddIOp::create(
        then, l, arith::MulIOp::create(then, l, bt, cst(launch.tiles)),
        launch.tile);
    Value one = arith::ConstantIntOp::create(then, l, 1, 32);
    Value before =
        memref::AtomicRMWOp::create(then, l, arith::AtomicRMWKind::addi, one,
                                    counters, ValueRange{slotIndex});
    Value last = arith::CmpIOp::create(
        then, l, arith::CmpIPredicate::eq, before,
        arith::ConstantIntOp::create(then, l, plan.chunks - 1, 32));
    Value lastBits = arith::ExtUIOp::create(then, l, then.getI32Type(), last);
    memref::StoreOp::create(then, l, lastBits, flag, ValueRange{cst(0)});
    // Every chunk has counted: the count starts over for the next launch.
    scf::IfOp::create(then, l, last, [&](OpBuilder &reset, Location rl) {
      memref::StoreOp::create(reset, rl,
                              arith::ConstantIntOp::create(reset, rl, 0, 32),
                              counters, ValueRange{slotIndex});
      scf::YieldOp::create(reset, rl);
    });
    scf::YieldOp::create(then, l);
  });
  gpu::BarrierOp::create(b, loc);
  Value isLast = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      memref::LoadOp::create(b, loc, flag, ValueRange{cst(0)}),
      arith::ConstantIntOp::create(b, loc, 0, 32));
  scf::IfOp::create(b, loc, isLast, [&](OpBuilder &then, Location l) {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPoint(then.getInsertionBlock(), then.getInsertionPoint());
    Type element = cast<MemRefType>(out.getType()).getElementType();
    // Thread (tx, ky) adds chunks ky, ky + KY, ... of its columns (in
    // order), then the block merges the KY sums as above.
    int64_t perThread = llvm::divideCeil(plan.chunks, plan.ky);
    SmallVector<Value> totals(plan.m, zero);
    int64_t partialAlignment = plan.n % plan.width == 0 ? 4 * plan.width : 4;
    for (int64_t j = 0; j < perThread; ++j) {
      Value s = arith::AddIOp::create(b, l, ky, cst(j * plan.ky));
      bool mayPass = (j + 1) * plan.ky > plan.chunks;
      Value readChunk =
          mayPass ? arith::MinUIOp::create(b, l, s, cst(plan.chunks - 1))
                        .getResult()
                  : s;
      for (int64_t m = 0; m < plan.m; ++m) {
        Value part = vector::LoadOp::create(
            b, l, vectorType, partials,
            ValueRange{readChunk, bt, cst(m), column},
            /*nontemporal=*/false, llvm::MaybeAlign(partialAlignment));
        if (mayPass)
          part = arith::SelectOp::create(
              b, l,
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, s,
                                    cst(plan.chunks)),
              part, zero);
        totals[m] = arith::AddFOp::create(b, l, totals[m], part);
      }
    }
    mergeSlices(l, totals, [&](Value m, Value column, Value total) {
      SmallVector<Value> indices = at(out, bt, m, column);
      if (accumulate)
        total = arith::AddFOp::create(
            b, l, f32(memref::LoadOp::create(b, l, out, indices)), total);
      if (element != b.getF32Type())
        total = arith::TruncFOp::create(b, l, element, total);
      storeOutput(l, total, indices);
    });
    scf::YieldOp::create(b, l);
  });
}

linalg::GenericOp ProductSplitter::findEpilogue() {
  if (!fusesEpilogue)
    return {};
  Value acc = op.getDpsInits()[0];
  auto alloc = acc.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return {};
  // The next op after the product that is not pure or an allocation.
  Operation *next = op->getNextNode();
  while (next && (isPure(next) || isa<memref::AllocOp>(next)))
    next = next->getNextNode();
  auto generic = dyn_cast_or_null<linalg::GenericOp>(next);
  if (!generic || !generic.hasPureBufferSemantics() ||
      generic.getNumReductionLoops() != 0 || generic.getNumDpsInits() != 1)
    return {};
  // Every other use of the product's buffer: the product, its fill (folded
  // in) and its dealloc.
  for (Operation *user : acc.getUsers())
    if (user != op && user != generic && !isa<memref::DeallocOp>(user) &&
        !isa<linalg::FillOp>(user))
      return {};
  auto accType = cast<MemRefType>(acc.getType());
  if (generic.getNumLoops() != static_cast<unsigned>(accType.getRank()) ||
      generic.getStaticLoopRanges() != SmallVector<int64_t>(accType.getShape()))
    return {};
  bool readsAcc = false;
  for (OpOperand &operand : generic->getOpOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(&operand);
    if (operand.get() == acc) {
      // Read element by element, never written.
      if (generic.isDpsInit(&operand) || !map.isIdentity())
        return {};
      readsAcc = true;
    }
    if (generic.isDpsInit(&operand) &&
        (!map.isIdentity() ||
         !generic.getMatchingBlockArgument(&operand).use_empty()))
      return {};
    // Operands made after the product: allocations, and reshapes of what
    // comes before it (an output's view), that can move up.
    Operation *def = operand.get().getDefiningOp();
    auto isBefore = [&](Value value) {
      Operation *source = value.getDefiningOp();
      return !source || source->getBlock() != op->getBlock() ||
             source->isBeforeInBlock(op);
    };
    if (def && def->getBlock() == op->getBlock() && op->isBeforeInBlock(def) &&
        !(isa<memref::AllocOp>(def) && def->getNumOperands() == 0) &&
        !(isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(def) &&
          isBefore(def->getOperand(0))))
      return {};
  }
  if (!readsAcc)
    return {};
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(generic.getRegion(), captured);
  for (Value value : captured)
    if (Operation *def = value.getDefiningOp();
        def && def->getBlock() == op->getBlock() && op->isBeforeInBlock(def))
      return {};
  return generic;
}

void ProductSplitter::storeOutput(Location l, Value total, ValueRange indices) {
  if (!epilogue) {
    memref::StoreOp::create(b, l, total, op.getDpsInits()[0], indices);
    return;
  }
  // The product's output is the epilogue's iteration space (identity).
  Value acc = op.getDpsInits()[0];
  Block &body = epilogue.getRegion().front();
  IRMapping mapping;
  auto indicesOf = [&](OpOperand &operand) {
    AffineMap map = epilogue.getMatchingIndexingMap(&operand);
    SmallVector<Value> result;
    for (AffineExpr expr : map.getResults())
      result.push_back(affine::AffineApplyOp::create(
          b, l, AffineMap::get(map.getNumDims(), 0, expr), indices));
    return result;
  };
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    Value element =
        input->get() == acc
            ? total
            : memref::LoadOp::create(b, l, input->get(), indicesOf(*input))
                  .getResult();
    mapping.map(epilogue.getMatchingBlockArgument(input), element);
  }
  for (Operation &inner : body.without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), indices[index.getDim()]);
      continue;
    }
    b.clone(inner, mapping);
  }
  OpOperand *init = epilogue.getDpsInitOperand(0);
  memref::StoreOp::create(
      b, l, mapping.lookupOrDefault(body.getTerminator()->getOperand(0)),
      init->get(), indicesOf(*init));
}

Operation *ProductSplitter::findZeroFill() {
  Operation *prev = op->getPrevNode();
  while (prev && isPure(prev))
    prev = prev->getPrevNode();
  return mlx::isZeroFillOf(prev, op.getDpsInits()[0]) ? prev : nullptr;
}

void ProductSplitter::prepare() {
  fill = findZeroFill();
  // The epilogue replaces the product's own store: only when the product
  // starts from zero (it never reads its output).
  if (fill)
    epilogue = findEpilogue();
  if (epilogue)
    for (Value operand : epilogue->getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && def->getBlock() == op->getBlock() && op->isBeforeInBlock(def))
        def->moveBefore(op);
  auto partialsType = MemRefType::get({plan.chunks, plan.batch, plan.m, plan.n},
                                      b.getF32Type());
  partials = memref::AllocOp::create(b, loc, partialsType);
}

void ProductSplitter::finish(Operation *launch) {
  OpBuilder after(launch->getContext());
  after.setInsertionPointAfter(launch);
  memref::DeallocOp::create(after, loc, partials);
  Value c = op.getDpsInits()[0];
  if (fill)
    fill->erase();
  op->erase();
  if (epilogue) {
    epilogue->erase();
    // The float32 product's buffer is left with its dealloc.
    auto alloc = c.getDefiningOp<memref::AllocOp>();
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      user->erase();
    alloc->erase();
  }
}

/// Erases `root` (an allocation) with its views and deallocation when
/// nothing else uses them.
void eraseIfDead(Value root) {
  auto alloc = root.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return;
  SmallVector<Operation *> users;
  std::function<bool(Value)> collect = [&](Value value) {
    for (Operation *user : value.getUsers()) {
      if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(user)) {
        if (!collect(user->getResult(0)))
          return false;
      } else if (!isa<memref::DeallocOp>(user)) {
        return false;
      }
      users.push_back(user);
    }
    return true;
  };
  if (!collect(root))
    return;
  // Users of a view were collected before the view.
  for (Operation *user : users)
    user->erase();
  alloc->erase();
}

/// Erases the ops of a chain computed as a prologue, and the buffers only
/// it used.
void eraseChain(const mlx::Chain &chain) {
  SetVector<Value> roots;
  for (const mlx::ChainOp &c : llvm::reverse(chain.ops)) {
    roots.insert(c.root);
    c.op->erase();
  }
  for (Value root : roots)
    eraseIfDead(root);
}

/// One launch for `group` (products that share their left-hand side and
/// their plan's block shape and chunks, see below), placed where the last
/// of them was: the blocks of each product's column tiles follow those of
/// the one before.
Operation *splitGroup(ArrayRef<ProductSplitter *> group,
                      memref::GlobalOp counters, const RowPrologue *prologue) {
  for (ProductSplitter *splitter : group) {
    splitter->prepare();
    splitter->prologue = prologue;
  }
  const Plan &plan = group.front()->plan;
  int64_t tiles = 0;
  for (ProductSplitter *splitter : group)
    tiles += splitter->plan.tiles;
  OpBuilder b(group.back()->op);
  Location loc = group.back()->op.getLoc();
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto space =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto sharedType = MemRefType::get({plan.ky, plan.m, plan.tx * plan.width},
                                    b.getF32Type(), nullptr, space);
  auto flagType = MemRefType::get({1}, b.getI32Type(), nullptr, space);
  SmallVector<Type> workgroupTypes = {sharedType, flagType};
  if (prologue && !prologue->reductions.empty()) {
    // A slot per warp, reduction and row.
    int64_t warps = llvm::divideCeil(
        std::min(prologue->chain.columns, plan.tx * plan.ky), kWarpSize);
    workgroupTypes.push_back(MemRefType::get(
        {prologue->rows * static_cast<int64_t>(prologue->reductions.size()) *
         warps},
        b.getF32Type(), nullptr, space));
  }
  // The prologue's elements of a block, once, when they fit.
  Type stagedElement =
      getElementTypeOrSelf(group.front()->op.getDpsInputs()[0]);
  int64_t blockRows = plan.ky * plan.rows;
  bool stages =
      prologue && plan.m * blockRows * mlx::getElementBytes(stagedElement) <=
                      kMaxStagedBytes;
  if (stages)
    workgroupTypes.push_back(
        MemRefType::get({plan.m, blockRows}, stagedElement, nullptr, space));
  auto launch = gpu::LaunchOp::create(
      b, loc, cst(tiles), cst(plan.chunks), cst(plan.batch), cst(plan.tx),
      cst(plan.ky), cst(1), /*dynamicSharedMemorySize=*/nullptr,
      /*asyncTokenType=*/nullptr, ValueRange(), workgroupTypes);
  b.setInsertionPointToStart(&launch.getBody().front());
  SplitLaunch ids;
  ArrayRef<BlockArgument> workgroup = launch.getWorkgroupAttributions();
  ids.shared = workgroup[0];
  ids.flag = workgroup[1];
  if (prologue && !prologue->reductions.empty())
    ids.prologueShared = workgroup[2];
  if (stages)
    ids.staged = workgroup.back();
  // Taken inside the kernel: the counts live in the GPU module (outlining
  // copies the global there).
  ids.counters = memref::GetGlobalOp::create(b, loc, counters.getType(),
                                             counters.getSymName());
  ids.tx = launch.getThreadIds().x;
  ids.ky = launch.getThreadIds().y;
  ids.tile = launch.getBlockIds().x;
  ids.chunk = launch.getBlockIds().y;
  ids.bt = launch.getBlockIds().z;
  ids.tiles = tiles;
  int64_t firstTile = 0;
  for (ProductSplitter *splitter : group) {
    if (group.size() == 1) {
      splitter->b.setInsertionPoint(b.getInsertionBlock(),
                                    b.getInsertionPoint());
      splitter->emitBody(ids, 0);
      break;
    }
    // Block-uniform: each block computes one product's tile.
    Value local = arith::SubIOp::create(b, loc, ids.tile, cst(firstTile));
    Value mine = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, local,
                                       cst(splitter->plan.tiles));
    scf::IfOp::create(b, loc, mine, [&](OpBuilder &then, Location l) {
      splitter->b.setInsertionPoint(then.getInsertionBlock(),
                                    then.getInsertionPoint());
      splitter->emitBody(ids, firstTile);
      scf::YieldOp::create(then, l);
    });
    firstTile += splitter->plan.tiles;
  }
  gpu::TerminatorOp::create(b, loc);
  for (ProductSplitter *splitter : group)
    splitter->finish(launch);
  if (prologue)
    eraseChain(prologue->chain);
  return launch;
}

/// Whether `a` and `b` are the same buffer: one value, or the same view op
/// of the same operands.
bool isSameBuffer(Value a, Value b) {
  if (a == b)
    return true;
  Operation *defA = a.getDefiningOp(), *defB = b.getDefiningOp();
  return defA && defB && isa<ViewLikeOpInterface>(defA) &&
         OperationEquivalence::isEquivalentTo(
             defA, defB, OperationEquivalence::IgnoreLocations) &&
         cast<OpResult>(a).getResultNumber() ==
             cast<OpResult>(b).getResultNumber();
}

/// Moves `next`'s product (with its zero fill, its epilogue, and the views,
/// constants and allocations they use) up to right after `after`, when no
/// op in between touches what they read or write; false (nothing moved)
/// otherwise. A layer's k and v products then follow its q product, past
/// q's RoPE.
bool hoistAfter(Operation *after, ProductSplitter &next) {
  Operation *product = next.op;
  if (product->getBlock() != after->getBlock() ||
      !after->isBeforeInBlock(product))
    return false;
  SmallVector<Operation *> unit;
  linalg::GenericOp epilogue;
  if (Operation *fill = next.findZeroFill()) {
    unit.push_back(fill);
    epilogue = next.findEpilogue();
  }
  unit.push_back(product);
  if (epilogue)
    unit.push_back(epilogue);
  // What the unit reads and writes, by root buffer.
  SetVector<Value> reads, writes;
  for (Operation *op : unit)
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<MemRefType>(operand.get().getType()))
        continue;
      auto dps = dyn_cast<DestinationStyleOpInterface>(op);
      (dps && dps.isDpsInit(&operand) ? writes : reads)
          .insert(mlx::getRootBuffer(operand.get()));
    }
  // The unit takes along the views, constants and allocations after
  // `after` that it uses (`moved`); anything else it uses must come before.
  llvm::SmallPtrSet<Operation *, 16> taken(unit.begin(), unit.end());
  SetVector<Operation *> moved;
  auto isMovable = [&](Operation *def) {
    return def && def->getBlock() == after->getBlock() &&
           after->isBeforeInBlock(def) && !taken.contains(def);
  };
  std::function<bool(Operation *)> take = [&](Operation *op) -> bool {
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!isMovable(def))
        continue;
      if (!isPure(def) &&
          !(isa<memref::AllocOp>(def) && def->getNumOperands() == 0))
        return false;
      if (!take(def))
        return false;
      taken.insert(def);
      moved.insert(def);
    }
    // A region (an epilogue's body) may only use what is defined before.
    for (Region &region : op->getRegions()) {
      WalkResult result = region.walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (isMovable(operand.getDefiningOp()) &&
              !op->isAncestor(operand.getDefiningOp()))
            return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (result.wasInterrupted())
        return false;
    }
    return true;
  };
  for (Operation *op : unit)
    if (!take(op))
      return false;
  // Nothing between touches what the unit writes or writes what it reads.
  for (Operation *op = after->getNextNode(); op != unit.back();
       op = op->getNextNode()) {
    if (taken.contains(op) || isPure(op))
      continue;
    for (Value root : writes)
      if (!isa<memref::AllocOp>(op) && mlx::mayAccess(op, root, false))
        return false;
    for (Value root : reads)
      if (mlx::mayWrite(op, root))
        return false;
  }
  // Dependencies first (in block order), then the unit.
  SmallVector<Operation *> order(moved.begin(), moved.end());
  llvm::sort(order,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  Operation *point = after;
  for (Operation *op : llvm::concat<Operation *>(order, unit)) {
    op->moveAfter(point);
    point = op;
  }
  return true;
}

/// Whether `a` and `b` (in one block) read the same left-hand side with the
/// same block shape and k: one launch can hold both.
bool canShareLaunch(ProductSplitter &a, ProductSplitter &b) {
  const Plan &p = a.plan, &q = b.plan;
  return a.op->getBlock() == b.op->getBlock() &&
         isSameBuffer(a.op.getDpsInputs()[0], b.op.getDpsInputs()[0]) &&
         p.batch == q.batch && p.m == q.m && p.k == q.k && p.width == q.width &&
         p.tx == q.tx && p.ky == q.ky;
}

/// Whether `next` can share the launch of `group`: the same left-hand side
/// and block shape, and between the group's last product and `next` only
/// ops that touch no memory, allocations, `next`'s zero fill and the last
/// product's epilogue (which the launch computes). The launch then takes
/// the place of `next`: nothing in between reads what it writes.
bool joinsGroup(ArrayRef<ProductSplitter *> group, ProductSplitter &next) {
  ProductSplitter &last = *group.back();
  if (!last.op->isBeforeInBlock(next.op) || !canShareLaunch(last, next))
    return false;
  Value nextA = mlx::getRootBuffer(next.op.getDpsInputs()[0]);
  Value nextW = mlx::getRootBuffer(next.op.getDpsInputs()[1]);
  for (Operation *op = last.op->getNextNode(); op != next.op.getOperation();
       op = op->getNextNode()) {
    if (isPure(op) || isa<memref::AllocOp>(op) ||
        mlx::isZeroFillOf(op, next.op.getDpsInits()[0]))
      continue;
    // The last product's epilogue, fused only after its zero fill.
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic || last.getUnitEnd() != generic.getOperation())
      return false;
    Value written = mlx::getRootBuffer(generic.getDpsInits()[0]);
    if (written == nextA || written == nextW)
      return false;
  }
  return true;
}

/// Whether `next`'s epilogue reads what a product of `group` (or that
/// product's epilogue) writes. In one launch, the blocks that write it may
/// not have finished when `next`'s last block computes the epilogue: SwiGLU's
/// silu(gate) * up, with the gate and up products sharing a launch.
bool epilogueReadsGroup(ArrayRef<ProductSplitter *> group,
                        ProductSplitter &next) {
  linalg::GenericOp epilogue = next.findEpilogue();
  if (!epilogue)
    return false;
  llvm::SmallPtrSet<Value, 8> written;
  for (ProductSplitter *member : group) {
    written.insert(mlx::getRootBuffer(member->op.getDpsInits()[0]));
    if (linalg::GenericOp other = member->findEpilogue())
      written.insert(mlx::getRootBuffer(other.getDpsInits()[0]));
  }
  return llvm::any_of(epilogue.getDpsInputs(), [&](Value input) {
    return written.contains(mlx::getRootBuffer(input));
  });
}

/// Whether `root` (an allocation) is, after the ops `in` from `first` on,
/// next accessed by a fill of all of it or its deallocation, or never: what
/// those ops leave in it is read by no one.
bool isRefilledBeforeRead(Value root, Operation *first,
                          const llvm::SmallPtrSetImpl<Operation *> &in) {
  if (!root.getDefiningOp<memref::AllocOp>())
    return false;
  int64_t elements = cast<MemRefType>(root.getType()).getNumElements();
  for (Operation *op = first; op; op = op->getNextNode()) {
    if (in.contains(op) || isPure(op) || !mlx::mayAccess(op, root, false))
      continue;
    if (isa<memref::DeallocOp>(op))
      return true;
    auto fill = dyn_cast<linalg::FillOp>(op);
    return fill && fill.hasPureBufferSemantics() &&
           mlx::getChainRoot(fill.getOutputs()[0]) == root &&
           cast<MemRefType>(fill.getOutputs()[0].getType()).getNumElements() ==
               elements;
  }
  return true;
}

/// A chain of one op: the elementwise map that writes `root` (an
/// allocation) last before `before`, over rows x columns with `root` its
/// row-major output (SwiGLU's silu(gate) * up before the down product), or
/// nullopt.
std::optional<mlx::Chain> matchLoneMap(Value root, Operation *before) {
  Operation *writer = nullptr;
  for (Operation *op = before->getPrevNode(); op && !writer;
       op = op->getPrevNode())
    if (!isPure(op) && mlx::mayAccess(op, root, /*writesOnly=*/true))
      writer = op;
  auto generic = dyn_cast_or_null<linalg::GenericOp>(writer);
  if (!generic || !generic.hasPureBufferSemantics() ||
      generic.getNumReductionLoops() != 0 || generic.getNumDpsInits() != 1 ||
      generic.hasDynamicShape() ||
      mlx::getChainRoot(generic.getDpsInits()[0]) != root ||
      !generic.getRegion().front().getArguments().back().use_empty())
    return std::nullopt;
  for (Operation &inner : generic.getRegion().front().without_terminator())
    if (inner.getNumRegions() || !isMemoryEffectFree(&inner))
      return std::nullopt;
  mlx::Chain chain;
  mlx::ChainOp c;
  c.kind = mlx::ChainOp::Elementwise;
  c.op = generic;
  c.root = root;
  SmallVector<int64_t, 4> sizes = generic.getStaticLoopRanges();
  if (sizes.empty()) // A scalar map (then reshaped): no row to read.
    return std::nullopt;
  c.loopSizes.assign(sizes.begin(), sizes.end());
  chain.rows = mlx::dropUnitDims(ArrayRef(c.loopSizes).drop_back());
  chain.columns = c.loopSizes.back();
  OpOperand *init = generic.getDpsInitOperand(0);
  if (!mlx::accessesRow(generic.getMatchingIndexingMap(init),
                        cast<MemRefType>(init->get().getType()), c.loopSizes,
                        /*hasColumnLoop=*/true, /*full=*/true, chain.columns))
    return std::nullopt;
  c.producers.assign(generic->getNumOperands(), -1);
  c.isFinal = c.escapes = true;
  chain.ops.push_back(std::move(c));
  return chain;
}

/// The chain of `chains` (analyzed) that can be `group`'s prologue, or
/// null: its last op writes the products' left-hand side (an allocation
/// read by them alone), its other results stay in the chain, its rows are
/// the products' and its columns their k, and nothing between the chain and
/// the launch writes what the chain reads.
std::unique_ptr<RowPrologue>
matchPrologue(ArrayRef<ProductSplitter *> group,
              std::vector<mlx::Chain> &chains,
              const llvm::SmallPtrSetImpl<Operation *> &epilogues) {
  const Plan &plan = group.front()->plan;
  if (plan.batch != 1)
    return nullptr;
  Value a = group.front()->op.getDpsInputs()[0];
  Value root = mlx::getChainRoot(a);
  if (!root || !root.getDefiningOp<memref::AllocOp>() ||
      cast<MemRefType>(a.getType()).getNumElements() != plan.m * plan.k)
    return nullptr;
  Block *block = group.front()->op->getBlock();
  mlx::Chain *found = nullptr;
  for (mlx::Chain &chain : chains)
    if (!chain.ops.empty() && chain.ops.back().root == root)
      found = &chain;
  std::optional<mlx::Chain> lone;
  if (!found) {
    lone = matchLoneMap(root, group.front()->op);
    if (!lone)
      return nullptr;
    found = &*lone;
  }
  mlx::Chain &chain = *found;
  const mlx::ChainOp &output = chain.ops.back();
  Operation *first = chain.ops.front().op;
  if (output.kind != mlx::ChainOp::Elementwise || !output.isFinal ||
      first->getBlock() != block ||
      !output.op->isBeforeInBlock(group.front()->op) ||
      llvm::product_of(chain.rows) != plan.m || chain.columns != plan.k)
    return nullptr;
  auto prologue = std::make_unique<RowPrologue>();
  llvm::SmallPtrSet<Operation *, 16> in;
  for (const mlx::ChainOp &c : chain.ops)
    in.insert(c.op);
  // An op another launch computes as its epilogue (a residual add that
  // kernel formation put at the head of the norm's row kernel).
  if (llvm::any_of(in, [&](Operation *op) { return epilogues.contains(op); }))
    return nullptr;
  for (auto [index, c] : llvm::enumerate(chain.ops)) {
    // Another result leaving the chain: only a scratch buffer that
    // bufferization reuses (the next norm's sum of squares), filled anew
    // before anything reads it.
    if (c.escapes && index + 1 != chain.ops.size() &&
        !isRefilledBeforeRead(c.root, first, in))
      return nullptr;
    if (c.kind == mlx::ChainOp::Reduce) {
      // The warp butterflies need whole warps.
      if (!c.reduction->combined.getType().isF32() ||
          (plan.tx * plan.ky) % kWarpSize != 0)
        return nullptr;
      prologue->reductions.push_back(index);
    }
    auto generic = dyn_cast<linalg::GenericOp>(c.op);
    if (!generic)
      continue;
    for (OpOperand &operand : generic->getOpOperands()) {
      if (c.producers[operand.getOperandNumber()] >= 0 ||
          (generic.isDpsInit(&operand) && c.kind != mlx::ChainOp::Reduce))
        continue;
      Value read = mlx::getRootBuffer(operand.get());
      if (!read)
        return nullptr;
      prologue->reads.push_back(read);
    }
  }
  // The left-hand side is read by the group's products alone.
  llvm::SmallPtrSet<Operation *, 4> products;
  for (ProductSplitter *splitter : group)
    products.insert(splitter->op);
  std::function<bool(Value)> onlyGroupReads = [&](Value value) {
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(user)) {
        if (!onlyGroupReads(user->getResult(0)))
          return false;
        continue;
      }
      if (in.contains(user) || isa<memref::DeallocOp>(user) ||
          (products.contains(user) && use.getOperandNumber() == 0))
        continue;
      return false;
    }
    return true;
  };
  if (!onlyGroupReads(root))
    return nullptr;
  // The launch reads the chain's inputs where its last product is.
  Operation *end = group.back()->getUnitEnd();
  for (Operation *op = first; op != end->getNextNode();
       op = op->getNextNode()) {
    if (in.contains(op) || isPure(op))
      continue;
    for (Value read : prologue->reads)
      if (mlx::mayWrite(op, read))
        return nullptr;
  }
  prologue->chain = std::move(chain);
  prologue->rows = plan.m;
  chain.ops.clear();
  return prologue;
}

struct MlxcSplitVectorProductsPass final
    : mlx::impl::MlxcSplitVectorProductsBase<MlxcSplitVectorProductsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<std::tuple<linalg::LinalgOp, Plan, bool>> products;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
        return;
      std::optional<Plan> plan = planProduct(op);
      if (!plan)
        return;
      // Decided before any product becomes a kernel.
      Value root = mlx::getRootBuffer(op.getDpsInputs()[1]);
      bool weights =
          mlx::isGraphInput(root) &&
          !mlx::mayWrite(cast<BlockArgument>(root).getOwner()->getParentOp(),
                         root);
      products.push_back({op, *plan, weights});
    });
    if (products.empty())
      return;
    // Products next to each other that read the same left-hand side (a
    // layer's q, k and v of one normed row; gate and up) share one launch.
    std::vector<std::unique_ptr<ProductSplitter>> splitters;
    SmallVector<SmallVector<ProductSplitter *>> groups;
    for (auto &[op, plan, weights] : products) {
      splitters.push_back(std::make_unique<ProductSplitter>(op, plan, weights));
      ProductSplitter *splitter = splitters.back().get();
      // The latest group this product can join, moved up to its end.
      bool joined = false;
      for (SmallVector<ProductSplitter *> &group : llvm::reverse(groups)) {
        ProductSplitter &last = *group.back();
        if (last.op->getBlock() != splitter->op->getBlock())
          break;
        if (!canShareLaunch(last, *splitter))
          continue;
        if (joinsGroup(group, *splitter) ||
            (hoistAfter(last.getUnitEnd(), *splitter) &&
             joinsGroup(group, *splitter))) {
          // Its epilogue then runs after the launch, as an op of its own.
          if (epilogueReadsGroup(group, *splitter))
            splitter->fusesEpilogue = false;
          group.push_back(splitter);
          joined = true;
        }
        break;
      }
      if (!joined)
        groups.push_back({splitter});
    }
    // One count per column tile of a launch and batch, shared by all the
    // launches (they run one after another, and each leaves its counts at
    // zero).
    int64_t slots = 1;
    for (SmallVector<ProductSplitter *> &group : groups) {
      int64_t tiles = 0;
      for (ProductSplitter *splitter : group)
        tiles += splitter->plan.tiles;
      if (group.size() > 1)
        for (ProductSplitter *splitter : group)
          planChunks(splitter->plan, tiles);
      slots = std::max(slots, group.front()->plan.batch * tiles);
    }
    ModuleOp module = getOperation();
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    auto type = MemRefType::get({slots}, builder.getI32Type());
    auto counters = memref::GlobalOp::create(
        builder, module.getLoc(), "mlxc_split_product_counts",
        builder.getStringAttr("private"), type,
        DenseElementsAttr::get(
            RankedTensorType::get({slots}, builder.getI32Type()),
            builder.getI32IntegerAttr(0)),
        /*constant=*/false, /*alignment=*/nullptr);
    SymbolTable(module).insert(counters);
    // Row chains (a decode step's norms) that may become prologues; found
    // before any product becomes a kernel.
    std::vector<mlx::Chain> chains;
    getOperation()->walk([&](func::FuncOp func) {
      for (mlx::Chain &chain : mlx::collectRowChains(func))
        if (mlx::analyzeChain(chain))
          chains.push_back(std::move(chain));
    });
    llvm::SmallPtrSet<Operation *, 16> epilogues;
    for (auto &splitter : splitters)
      if (splitter->getUnitEnd() != splitter->op.getOperation())
        epilogues.insert(splitter->getUnitEnd());
    SmallVector<std::unique_ptr<RowPrologue>> prologues;
    for (SmallVector<ProductSplitter *> &group : groups)
      prologues.push_back(matchPrologue(group, chains, epilogues));
    for (auto [group, prologue] : llvm::zip(groups, prologues))
      splitGroup(group, counters, prologue.get());
  }
};

} // namespace
