//===- FuseRowKernels.cpp - the mlxc-fuse-row-kernels pass ----------------===//
//
// softmax, rms_norm, layer_norm and logsumexp reach the CUDA path as a chain
// of linalg ops over the same rows: row reductions (max, sum), per-row
// scalar arithmetic (rsqrt(mean + eps)) and elementwise ops that broadcast
// those scalars along the row. Lowered one by one they are 3 to 6 kernels,
// and every intermediate row crosses device memory. Here such a chain
// becomes one kernel with one block per row:
//   - a reduction: each thread folds the elements tid, tid + T, ... of the
//     row, the warps merge with xor shuffles, the block through shared
//     memory; every thread ends with the row's total in a register;
//   - per-row scalar ops run in every thread, on those registers;
//   - elementwise results are recomputed where they are read, never
//     stored, unless they leave the chain (an output, or a buffer read
//     later): those are written in one final pass over the row.
// The row is read once per reduction and once for the final pass, from L1
// once the first pass brought it in.
//
// Bufferization reuses buffers (the sum lands in the max's buffer, exp in
// the output it is later divided in place), so values are tracked as
// versions: a read of a buffer means the chain op that last wrote it.
//
//===----------------------------------------------------------------------===//

#include "codegen/Cuda/Arch.h"
#include "Mlx/MlxAttributes.h"
#include "codegen/Cuda/ChipFunctions.h"
#include "codegen/Cuda/ClusterOps.h"
#include "codegen/Cuda/RowChain.h"
#include "codegen/Cuda/RowReduction.h"
#include "codegen/Passes.h"
#include "codegen/ShapeUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

#include <map>
#include <tuple>
#include <vector>

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCFUSEROWKERNELS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;
using mlx::kWarpSize;
using mlir::mlx::accessesColumn;
using mlir::mlx::accessesRow;
using mlir::mlx::Chain;
using mlir::mlx::ChainOp;
using mlir::mlx::dropUnitDims;
using mlir::mlx::getElementBytes;
using mlir::mlx::RowReduction;

namespace {

constexpr int64_t kMaxThreads = 512;
/// Threads per row for rows of at least kLongRowGroups groups of columns.
constexpr int64_t kMaxStridedThreads = 1024;
constexpr int64_t kLongRowGroups = 8192;
/// Row elements a thread keeps in registers (more: strided loops that read
/// the row again per pass): at most kMaxRowBytesPerThread bytes of the
/// widest buffer, four 16-byte loads, and at most kMaxRegistersPerThread.
/// A bfloat16 softmax over rows of 4096 (W3 bf16, H200, 2026-12-04, Nsight
/// Compute): 256 threads of 16 elements 82.2 us, 128 of 32 68.3 us, 64 of
/// 64 71.9 us (80 registers); float32 rows of 4096 gain nothing from 32
/// (129-131 us either way), so the cap is in bytes.
constexpr int64_t kMaxRowBytesPerThread = 64;
constexpr int64_t kMaxRegistersPerThread = 32;
/// Rows from which a row kernel's blocks fill the GPU (the H200: 132 SMs of
/// up to 16 blocks) whatever threads a row takes.
constexpr int64_t kManyRows = 4096;
/// Many short rows (a decode step's matrix-vector products, attention
/// scores) take a warp per row, kRowsPerBlock rows per block: no shared
/// memory or barrier, and each lane keeps several 16-byte loads in flight.
/// Short: at most kMaxWarpGroups 16-byte groups per lane.
constexpr int64_t kMinWarpRows = 256;
constexpr int64_t kMaxWarpGroups = 8;
constexpr int64_t kRowsPerBlock = 8;
/// A strided pass of at most this many groups per thread, the same number
/// in every thread, is unrolled: the loads of all its groups are in flight
/// at once.
constexpr int64_t kMaxUnrolledGroups = 16;
/// A row spread over a cluster: blocks of kClusterThreads threads keeping at
/// most kMaxClusterRegisters elements each. Few threads with many loads in
/// flight each read best: W3L's 131072 f32 columns as 8 blocks of 256 x 64
/// (80 registers, 3 blocks an SM) took 90 us on the H200, 8 of 512 x 32
/// 104 us, 8 of 1024 x 16 138 us (Nsight Compute, 2026-12-03).
constexpr int64_t kClusterThreads = 256;
constexpr int64_t kMaxClusterRegisters = 64;

/// Emits the chain's kernel in place of its ops.
class ChainEmitter {
public:
  ChainEmitter(Chain &chain, bool keepInRegisters, int64_t maxClusterSize)
      : chain(chain), keepInRegisters(keepInRegisters),
        maxClusterSize(maxClusterSize), b(chain.ops.back().op),
        loc(chain.ops.back().op->getLoc()) {}
  void emit();

private:
  /// The reductions, the per-row values and the stores of one row, once
  /// the row's indices, `threads`, `unroll` and `width` are set.
  void emitRow(const DenseMap<int, Value> &workgroupOf);
  /// The fewest blocks (2 to maxClusterSize) that hold the row in their
  /// registers as a cluster, each thread `clusterWidth`-column groups; 0
  /// when none does.
  int64_t chooseClusterSize(int64_t &clusterWidth) const;
  /// The row's total of reduction `index` from this block's: thread 0
  /// leaves it in the reduction's cluster slot, the cluster synchronizes,
  /// and every thread merges the blocks' slots in rank order (the same
  /// total in every block).
  Value emitClusterCombine(int index, Value blockTotal);
  /// The cluster's barrier (mlxc_cluster_sync).
  void emitClusterSync();
  /// `slot` (a shared one-element buffer) as block `rank` of the cluster
  /// holds it.
  Value emitClusterLoad(Value slot, int64_t rank);
  /// Bytes of the widest element the chain's generics access.
  /// The widest element of the buffers accessed along the row (per-row
  /// values, a reduction's accumulator, are not).
  int64_t getWidestElementBytes() const {
    int64_t widest = 1;
    for (const ChainOp &c : chain.ops) {
      auto generic = dyn_cast<linalg::GenericOp>(c.op);
      if (!generic || c.kind == ChainOp::RowScalar)
        continue;
      for (OpOperand &operand : generic->getOpOperands())
        if (generic.getMatchingIndexingMap(&operand).isFunctionOfDim(
                generic.getNumLoops() - 1))
          widest = std::max(
              widest, getElementBytes(getElementTypeOrSelf(operand.get())));
    }
    return widest;
  }
  Value cst(int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  }
  /// The loop indices of `c` at the current row and column `column`.
  SmallVector<Value> loopIndices(const ChainOp &c, Value column);
  /// The indices of `operand` of `c` at loop indices `ivs`.
  SmallVector<Value> indicesAt(const ChainOp &c, OpOperand &operand,
                               ValueRange ivs);
  Value load(const ChainOp &c, OpOperand &operand, ValueRange ivs);
  /// The column of this thread's unrolled element `k` (in a strided group
  /// loop: of element `k` of the group).
  Value columnOf(int64_t k);
  /// Calls `body(column)` for each element of the group at column `base`,
  /// the group's loads shared (scoped to the group).
  void forEachInGroup(Value base, function_ref<void(Value)> body);
  /// Whether this thread has a group of columns (strided: a first one).
  /// The groups per thread of a strided pass when every thread has the
  /// same number, at most kMaxUnrolledGroups (the pass is unrolled), else 0.
  int64_t getUnrolledTrips() const {
    int64_t groups = chain.columns / width;
    if (groups % threads != 0 || groups / threads > kMaxUnrolledGroups)
      return 0;
    return groups / threads;
  }
  Value hasGroup() {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid,
                                 cst(chain.columns / width));
  }
  /// The byte alignment of a `width`-element access to `operand` at a
  /// multiple of `width` columns, or 0 where it must stay scalar.
  int64_t vectorAlignment(const ChainOp &c, OpOperand &operand) const;
  /// Stores the unrolled elements first .. first + width - 1 of the
  /// escaping rows, as one vector per row where the buffer allows.
  void storeRowOutputGroup(ArrayRef<int> rowOutputs, int64_t first);
  /// The value `c` computes (its yield, or a reduction's v) at `column`.
  Value valueAt(int index, Value column, DenseMap<int, Value> &cache);
  void emitReduction(int index, Value workgroup);
  /// Whether reduction `sum` adds exp(h - m) over the row, with m the
  /// result of reduction `max` (a maximum) and h independent of it:
  /// softmax's two reductions, which then run as one online pass.
  bool isOnlinePair(int max, int sum) const;
  /// Both reductions of an online pair in one strided pass: each thread
  /// keeps a running maximum m and the sum relative to it, rescaled by
  /// exp(m_old - m_new) when m grows; the block merges (m, sum) pairs.
  void emitOnlineReduction(int max, int sum, Value maxWorkgroup,
                           Value sumWorkgroup);
  /// exp(from - to), exactly 1 where the two are equal.
  Value rescale(Value from, Value to);
  /// The reference the running sum is kept relative to: the running max,
  /// or 0 while that is -inf (exp(-inf - -inf) would poison the sum of a
  /// row whose first elements are -inf, e.g. a causal mask).
  Value reference(Value max);
  /// Merges the pair (m, s) with (otherM, otherS) of the online pair.
  std::pair<Value, Value> mergeOnline(int max, Value m, Value s, Value otherM,
                                      Value otherS);
  /// Whether chain op `index` reads, directly or through others, the
  /// result of chain op `of`.
  bool dependsOn(int index, int of) const;
  /// A thread's partial by a loop over its elements.
  Value emitStridedPartial(int index, Value has);
  /// Merges the threads' partials; every thread gets the row's total.
  void emitBlockReduce(int index, Value partial, Value has, Value workgroup);
  /// The starting value of reduction `index`'s output element (its fill,
  /// a per-row value of the chain, or memory).
  Value initialValue(int index);

  Chain &chain;
  bool keepInRegisters;
  int64_t maxClusterSize;
  OpBuilder b;
  Location loc;
  int64_t threads = 0;
  /// Rows per block: 1 (a block per row), or kRowsPerBlock with a warp per
  /// row (threads = 32; thread y of the block is the row).
  int64_t rowsPerBlock = 1;
  /// When every thread owns exactly `unroll` elements of the row (columns
  /// = unroll x threads), the passes are unrolled and each element read
  /// from memory once, at its first use, then kept in a register:
  /// `currentK` is the element being computed (-1: a per-row value).
  int64_t unroll = 0, currentK = -1;
  /// In the unrolled form each thread owns groups of `width` neighbouring
  /// columns (one 16-byte access per group where the buffer allows):
  /// element k of thread t is column (k / width) * width * threads
  /// + t * width + k % width.
  int64_t width = 1;
  /// The strided form walks groups of `width` columns too: the first
  /// column of the group being computed (null outside such a loop).
  Value groupBase;
  std::map<std::tuple<void *, int, int64_t>, Value> registers;
  /// A row spread over a cluster of clusterSize blocks (0: one block per
  /// row): the block's rank in it, and, on the path that runs as a
  /// cluster, the first column of the block's slice (null elsewhere).
  int64_t clusterSize = 0;
  Value clusterRank, sliceStart;
  /// Per reduction: a one-element shared buffer other blocks of the
  /// cluster read the block's total from.
  DenseMap<int, Value> clusterSlotOf;
  Value tid, rowIndexValue;
  SmallVector<Value> rowIvs;    ///< The row's index per non-unit row dim.
  DenseMap<int, Value> scalars; ///< Per-row values of reductions etc.
};

SmallVector<Value> ChainEmitter::loopIndices(const ChainOp &c, Value column) {
  return mlx::getChainLoopIndices(b, loc, c, rowIvs, column);
}

SmallVector<Value> ChainEmitter::indicesAt(const ChainOp &c, OpOperand &operand,
                                           ValueRange ivs) {
  return mlx::getChainIndicesAt(b, loc, c, operand, ivs);
}

void ChainEmitter::storeRowOutputGroup(ArrayRef<int> rowOutputs,
                                       int64_t first) {
  // values[o][i]: output o at element first + i.
  SmallVector<SmallVector<Value>> values(rowOutputs.size());
  for (int64_t i = 0; i < width; ++i) {
    currentK = first + i;
    DenseMap<int, Value> cache;
    for (auto [o, index] : llvm::enumerate(rowOutputs))
      values[o].push_back(valueAt(index, columnOf(first + i), cache));
  }
  for (auto [o, index] : llvm::enumerate(rowOutputs)) {
    ChainOp &c = chain.ops[index];
    OpOperand *init = cast<linalg::GenericOp>(c.op).getDpsInitOperand(0);
    if (int64_t alignment = vectorAlignment(c, *init)) {
      auto type = VectorType::get({width}, values[o][0].getType());
      Value group = vector::FromElementsOp::create(b, loc, type, values[o]);
      vector::StoreOp::create(
          b, loc, group, init->get(),
          indicesAt(c, *init, loopIndices(c, columnOf(first))),
          /*nontemporal=*/false, llvm::MaybeAlign(alignment));
      continue;
    }
    for (int64_t i = 0; i < width; ++i)
      memref::StoreOp::create(
          b, loc, values[o][i], init->get(),
          indicesAt(c, *init, loopIndices(c, columnOf(first + i))));
  }
}

Value ChainEmitter::load(const ChainOp &c, OpOperand &operand, ValueRange ivs) {
  auto generic = cast<linalg::GenericOp>(c.op);
  AffineMap map = generic.getMatchingIndexingMap(&operand);
  std::tuple<void *, int, int64_t> key;
  if ((unroll || groupBase) && currentK >= 0 && c.kind != ChainOp::RowScalar) {
    // The same element through another view or op: one register.
    Value root = mlx::getChainRoot(operand.get());
    auto type = cast<MemRefType>(operand.get().getType());
    int kind = 0;
    if (root && accessesRow(map, type, c.loopSizes, true, true, chain.columns))
      kind = 1;
    else if (root && accessesColumn(map, type, c.loopSizes))
      kind = 2;
    if (kind) {
      key = {root.getAsOpaquePointer(), kind, currentK};
      if (auto it = registers.find(key); it != registers.end())
        return it->second;
      if (int64_t alignment = vectorAlignment(c, operand)) {
        // The whole group at once; its other elements wait in registers.
        int64_t first = currentK - currentK % width;
        SmallVector<Value> groupIvs(ivs);
        groupIvs.back() = columnOf(first);
        auto type =
            VectorType::get({width}, getElementTypeOrSelf(operand.get()));
        Value group = vector::LoadOp::create(
            b, loc, type, operand.get(), indicesAt(c, operand, groupIvs),
            /*nontemporal=*/false, llvm::MaybeAlign(alignment));
        for (int64_t i = 0; i < width; ++i)
          registers[{root.getAsOpaquePointer(), kind, first + i}] =
              vector::ExtractOp::create(b, loc, group, i);
        return registers[key];
      }
    }
  }
  Value loaded =
      memref::LoadOp::create(b, loc, operand.get(), indicesAt(c, operand, ivs));
  if (std::get<0>(key))
    registers[key] = loaded;
  return loaded;
}

void ChainEmitter::forEachInGroup(Value base, function_ref<void(Value)> body) {
  auto savedRegisters = registers;
  Value savedBase = groupBase;
  groupBase = base;
  for (int64_t k = 0; k < width; ++k) {
    currentK = k;
    body(columnOf(k));
  }
  currentK = -1;
  groupBase = savedBase;
  registers = std::move(savedRegisters);
}

Value ChainEmitter::columnOf(int64_t k) {
  if (groupBase)
    return k ? arith::AddIOp::create(b, loc, groupBase, cst(k)).getResult()
             : groupBase;
  Value base = arith::MulIOp::create(b, loc, tid, cst(width));
  if (sliceStart)
    base = arith::AddIOp::create(b, loc, base, sliceStart);
  return arith::AddIOp::create(b, loc, base,
                               cst((k / width) * width * threads + k % width));
}

int64_t ChainEmitter::vectorAlignment(const ChainOp &c,
                                      OpOperand &operand) const {
  if (width == 1 || c.kind == ChainOp::RowScalar)
    return 0;
  auto type = cast<MemRefType>(operand.get().getType());
  Value root = mlx::getChainRoot(operand.get());
  int64_t bytes = getElementBytes(type.getElementType());
  // Graph arguments and allocations are aligned by the runtime (globals
  // are not known to be); groups start at multiples of `width` columns and
  // rows at multiples of `columns`, and a group never crosses the view's
  // innermost axis.
  if (!root || bytes == 0 || type.getShape().back() % width != 0 ||
      chain.columns % width != 0 ||
      !(isa<BlockArgument>(root) || root.getDefiningOp<memref::AllocOp>()))
    return 0;
  return bytes * width;
}

Value ChainEmitter::valueAt(int index, Value column,
                            DenseMap<int, Value> &cache) {
  return mlx::emitChainValue(
      b, loc, chain, index, rowIvs, column, scalars, cache,
      [&](const ChainOp &c, OpOperand &operand, ValueRange ivs) {
        return load(c, operand, ivs);
      });
}

void ChainEmitter::emitReduction(int index, Value workgroup) {
  const RowReduction &r = *chain.ops[index].reduction;
  // This thread's partial: its unrolled elements, or groups tid, tid + T,
  // ... of the strided form.
  Value has = hasGroup();
  Value partial;
  if (unroll) {
    for (int64_t k = 0; k < unroll; ++k) {
      currentK = k;
      DenseMap<int, Value> cache;
      Value v = valueAt(index, columnOf(k), cache);
      partial = k ? mlx::emitCombine(b, r, partial, v) : v;
    }
    currentK = -1;
  } else {
    partial = emitStridedPartial(index, has);
  }
  emitBlockReduce(index, partial, has, workgroup);
}

bool ChainEmitter::dependsOn(int index, int of) const {
  if (index == of)
    return true;
  if (index < 0)
    return false;
  return llvm::any_of(chain.ops[index].producers,
                      [&](int producer) { return dependsOn(producer, of); });
}

/// Whether the combiner of `r` keeps the larger value: MLX's max (a select
/// on `in > out`, NaN-propagating) or arith's maximum.
static bool isMaxCombiner(const RowReduction &r) {
  for (Operation *op : r.combineOps) {
    if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op))
      return true;
    auto cmp = dyn_cast<arith::CmpFOp>(op);
    if (!cmp || !llvm::is_contained(
                    {arith::CmpFPredicate::OGT, arith::CmpFPredicate::OGE,
                     arith::CmpFPredicate::UGT, arith::CmpFPredicate::UGE},
                    cmp.getPredicate()))
      continue;
    for (Operation *other : r.combineOps)
      if (auto select = dyn_cast<arith::SelectOp>(other))
        if (select.getTrueValue() == cmp.getLhs() &&
            select.getFalseValue() == cmp.getRhs())
          return true;
  }
  return false;
}

bool ChainEmitter::isOnlinePair(int max, int sum) const {
  const ChainOp &m = chain.ops[max], &s = chain.ops[sum];
  if (m.kind != ChainOp::Reduce || s.kind != ChainOp::Reduce)
    return false;
  const RowReduction &rm = *m.reduction, &rs = *s.reduction;
  Type type = rs.value.getType();
  if (!isa<FloatType>(type) || rm.value.getType() != type ||
      !isMaxCombiner(rm) || rs.combineOps.size() != 1 ||
      !isa<arith::AddFOp>(rs.combineOps.front()))
    return false;
  // The sum's init must not come from the max.
  auto sumGeneric = cast<linalg::GenericOp>(s.op);
  if (dependsOn(
          s.producers[sumGeneric.getDpsInitOperand(0)->getOperandNumber()],
          max))
    return false;
  // Follow the summed value through elementwise producers to its exp.
  const ChainOp *owner = &s;
  Value v = rs.value;
  while (auto arg = dyn_cast<BlockArgument>(v)) {
    int producer = owner->producers[arg.getArgNumber()];
    if (producer < 0 || chain.ops[producer].kind != ChainOp::Elementwise)
      return false;
    owner = &chain.ops[producer];
    v = cast<linalg::GenericOp>(owner->op)
            .getBody()
            ->getTerminator()
            ->getOperand(0);
  }
  auto exp = v.getDefiningOp<math::ExpOp>();
  auto sub = exp ? exp.getOperand().getDefiningOp<arith::SubFOp>() : nullptr;
  auto shift = sub ? dyn_cast<BlockArgument>(sub.getRhs()) : nullptr;
  if (!shift || owner->producers[shift.getArgNumber()] != max)
    return false;
  // h, the left side, must not see the max (a block-argument walk).
  SmallVector<Value> work = {sub.getLhs()};
  llvm::SmallPtrSet<Value, 8> seen;
  while (!work.empty()) {
    Value value = work.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == cast<linalg::GenericOp>(owner->op).getBody() &&
          dependsOn(owner->producers[arg.getArgNumber()], max))
        return false;
      continue;
    }
    if (Operation *def = value.getDefiningOp())
      llvm::append_range(work, def->getOperands());
  }
  return true;
}

Value ChainEmitter::rescale(Value from, Value to) {
  Type type = from.getType();
  Value same =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, from, to);
  Value one = arith::ConstantOp::create(b, loc, b.getFloatAttr(type, 1.0));
  Value factor =
      math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, from, to));
  return arith::SelectOp::create(b, loc, same, one, factor);
}

Value ChainEmitter::reference(Value max) {
  Type type = max.getType();
  Value negInf = arith::ConstantOp::create(
      b, loc,
      b.getFloatAttr(type,
                     APFloat::getInf(cast<FloatType>(type).getFloatSemantics(),
                                     /*Negative=*/true)));
  Value isNegInf =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, max, negInf);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  return arith::SelectOp::create(b, loc, isNegInf, zero, max);
}

std::pair<Value, Value> ChainEmitter::mergeOnline(int max, Value m, Value s,
                                                  Value otherM, Value otherS) {
  Value merged = mlx::emitCombine(b, *chain.ops[max].reduction, m, otherM);
  Value to = reference(merged);
  Value sum = arith::AddFOp::create(
      b, loc, arith::MulFOp::create(b, loc, s, rescale(reference(m), to)),
      arith::MulFOp::create(b, loc, otherS, rescale(reference(otherM), to)));
  return {merged, sum};
}

void ChainEmitter::emitOnlineReduction(int max, int sum, Value maxWorkgroup,
                                       Value sumWorkgroup) {
  ChainOp &cm = chain.ops[max];
  Type type = cm.reduction->value.getType();
  Value has = hasGroup();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  // The sum's value at `column` with the max taken as `m`: exp(h - m).
  auto sumTermAt = [&](Value column, Value m) {
    Value saved = scalars.lookup(max);
    scalars[max] = m;
    DenseMap<int, Value> cache;
    Value term = valueAt(sum, column, cache);
    scalars[max] = saved;
    return term;
  };
  // Folds the group at `group` into the running (m, s) (null: the first).
  auto foldGroup = [&](Value group, Value m, Value s) {
    Value base = arith::MulIOp::create(b, loc, group, cst(width));
    forEachInGroup(base, [&](Value column) {
      DenseMap<int, Value> cache;
      Value v = valueAt(max, column, cache);
      if (!m) {
        m = v;
        s = sumTermAt(column, reference(m));
        return;
      }
      Value grown = mlx::emitCombine(b, *cm.reduction, m, v);
      Value to = reference(grown);
      s = arith::AddFOp::create(
          b, loc, arith::MulFOp::create(b, loc, s, rescale(reference(m), to)),
          sumTermAt(column, to));
      m = grown;
    });
    return SmallVector<Value>{m, s};
  };
  Value m, s;
  if (int64_t trips = getUnrolledTrips()) {
    for (int64_t t = 0; t < trips; ++t) {
      Value group =
          t ? arith::AddIOp::create(b, loc, tid, cst(t * threads)).getResult()
            : tid;
      SmallVector<Value> folded = foldGroup(group, m, s);
      m = folded[0];
      s = folded[1];
    }
  } else {
    auto first = scf::IfOp::create(b, loc, TypeRange{type, type}, has,
                                   /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(first.thenBlock());
      scf::YieldOp::create(b, loc, foldGroup(tid, Value(), Value()));
      b.setInsertionPointToStart(first.elseBlock());
      scf::YieldOp::create(b, loc, ValueRange{zero, zero});
    }
    Value start = arith::AddIOp::create(b, loc, tid, cst(threads));
    auto loop = scf::ForOp::create(
        b, loc, start, cst(chain.columns / width), cst(threads),
        ValueRange(first.getResults()),
        [&](OpBuilder &nested, Location l, Value g, ValueRange acc) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
          scf::YieldOp::create(b, l, foldGroup(g, acc[0], acc[1]));
        });
    m = loop.getResult(0);
    s = loop.getResult(1);
  }

  // The warp's butterfly on (m, s) pairs; lanes without elements take none
  // (no flags travel when every lane has a group).
  bool everyLaneHas = threads <= chain.columns / width;
  Value hasBits = arith::ExtUIOp::create(b, loc, b.getI32Type(), has);
  for (int64_t offset = kWarpSize / 2; offset >= 1; offset /= 2) {
    Value otherM = mlx::emitShuffleXor(b, loc, m, offset);
    Value otherS = mlx::emitShuffleXor(b, loc, s, offset);
    if (everyLaneHas) {
      std::tie(m, s) = mergeOnline(max, m, s, otherM, otherS);
      continue;
    }
    Value otherBits = mlx::emitShuffleXor(b, loc, hasBits, offset);
    Value mine = arith::TruncIOp::create(b, loc, b.getI1Type(), hasBits);
    Value theirs = arith::TruncIOp::create(b, loc, b.getI1Type(), otherBits);
    auto [mergedM, mergedS] = mergeOnline(max, m, s, otherM, otherS);
    Value both = arith::AndIOp::create(b, loc, mine, theirs);
    m = arith::SelectOp::create(
        b, loc, both, mergedM,
        arith::SelectOp::create(b, loc, mine, m, otherM));
    s = arith::SelectOp::create(
        b, loc, both, mergedS,
        arith::SelectOp::create(b, loc, mine, s, otherS));
    hasBits = arith::OrIOp::create(b, loc, hasBits, otherBits);
  }
  if (rowsPerBlock == 1) {
    // The block: every warp has elements (threads <= columns rounded up).
    Value warp = arith::DivUIOp::create(b, loc, tid, cst(kWarpSize));
    Value lane = arith::RemUIOp::create(b, loc, tid, cst(kWarpSize));
    Value isLane0 =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, cst(0));
    scf::IfOp::create(b, loc, isLane0, [&](OpBuilder &then, Location l) {
      memref::StoreOp::create(then, l, m, maxWorkgroup, ValueRange{warp});
      memref::StoreOp::create(then, l, s, sumWorkgroup, ValueRange{warp});
      scf::YieldOp::create(then, l);
    });
    gpu::BarrierOp::create(b, loc);
    m = memref::LoadOp::create(b, loc, maxWorkgroup, ValueRange{cst(0)});
    s = memref::LoadOp::create(b, loc, sumWorkgroup, ValueRange{cst(0)});
    for (int64_t w = 1; w < threads / kWarpSize; ++w)
      std::tie(m, s) = mergeOnline(
          max, m, s,
          memref::LoadOp::create(b, loc, maxWorkgroup, ValueRange{cst(w)}),
          memref::LoadOp::create(b, loc, sumWorkgroup, ValueRange{cst(w)}));
  }
  // The starting values: the max's joins m, the sum's adds to the sum at
  // the final m.
  Value finalM = mlx::emitCombine(b, *cm.reduction, initialValue(max), m);
  scalars[max] = finalM;
  Value total = mlx::emitCombine(
      b, *chain.ops[sum].reduction, initialValue(sum),
      arith::MulFOp::create(b, loc, s,
                            rescale(reference(m), reference(finalM))));
  // A row whose max is -inf: the two-pass sum of exp(h - -inf) is NaN (or
  // inf), and so is every result computed from it.
  Value nan = arith::ConstantOp::create(
      b, loc,
      b.getFloatAttr(
          type, APFloat::getNaN(cast<FloatType>(type).getFloatSemantics())));
  auto semantics = &cast<FloatType>(type).getFloatSemantics();
  Value negInf = arith::ConstantOp::create(
      b, loc,
      b.getFloatAttr(type, APFloat::getInf(*semantics, /*Negative=*/true)));
  Value negInfMax =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, finalM, negInf);
  scalars[sum] = arith::SelectOp::create(b, loc, negInfMax, nan, total);
}

Value ChainEmitter::emitStridedPartial(int index, Value has) {
  ChainOp &c = chain.ops[index];
  const RowReduction &r = *c.reduction;
  auto generic = cast<linalg::GenericOp>(c.op);
  Type element = getElementTypeOrSelf(generic.getDpsInitOperand(0)->get());
  int64_t groups = chain.columns / width;
  // Folds the group at `group` into `partial` (null: the first one).
  auto foldGroup = [&](Value group, Value partial) {
    Value base = arith::MulIOp::create(b, loc, group, cst(width));
    forEachInGroup(base, [&](Value column) {
      DenseMap<int, Value> cache;
      Value v = valueAt(index, column, cache);
      partial = partial ? mlx::emitCombine(b, r, partial, v) : v;
    });
    return partial;
  };
  if (int64_t trips = getUnrolledTrips()) {
    Value partial;
    for (int64_t t = 0; t < trips; ++t)
      partial = foldGroup(
          t ? arith::AddIOp::create(b, loc, tid, cst(t * threads)).getResult()
            : tid,
          partial);
    return partial;
  }
  Value zeroValue = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  auto first = scf::IfOp::create(b, loc, TypeRange{element}, has,
                                 /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(first.thenBlock());
    scf::YieldOp::create(b, loc, foldGroup(tid, Value()));
    b.setInsertionPointToStart(first.elseBlock());
    scf::YieldOp::create(b, loc, zeroValue);
  }
  Value start = arith::AddIOp::create(b, loc, tid, cst(threads));
  auto loop = scf::ForOp::create(
      b, loc, start, cst(groups), cst(threads), ValueRange(first.getResults()),
      [&](OpBuilder &nested, Location l, Value g, ValueRange acc) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        scf::YieldOp::create(b, l, foldGroup(g, acc[0]));
      });
  return loop.getResult(0);
}

void ChainEmitter::emitBlockReduce(int index, Value partial, Value has,
                                   Value workgroup) {
  const RowReduction &r = *chain.ops[index].reduction;
  // The warp's butterfly; lanes without elements contribute nothing. Every
  // warp has an element (threads <= columns rounded up to a warp), and
  // every lane one when the threads do not outnumber the groups.
  Value hasBits =
      threads <= chain.columns / width
          ? arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1).getResult()
          : arith::ExtUIOp::create(b, loc, b.getI32Type(), has).getResult();
  partial = mlx::emitWarpButterfly(b, loc, r, partial, hasBits);
  if (rowsPerBlock > 1) {
    // A warp per row: the warp's total is the row's.
    scalars[index] = mlx::emitCombine(b, r, initialValue(index), partial);
    return;
  }
  Value total = mlx::emitWarpsTotal(b, loc, r, partial, tid,
                                    threads / kWarpSize, workgroup);
  if (sliceStart)
    total = emitClusterCombine(index, total);
  // Fold in the starting value of the output element.
  scalars[index] = mlx::emitCombine(b, r, initialValue(index), total);
}

Value ChainEmitter::initialValue(int index) {
  ChainOp &c = chain.ops[index];
  OpOperand *init = cast<linalg::GenericOp>(c.op).getDpsInitOperand(0);
  int producer = c.producers[init->getOperandNumber()];
  if (producer < 0)
    return load(c, *init, loopIndices(c, cst(0)));
  if (chain.ops[producer].kind == ChainOp::Fill)
    return cast<linalg::FillOp>(chain.ops[producer].op).getInputs()[0];
  return scalars.lookup(producer);
}

void ChainEmitter::emit() {
  int64_t rows = 1;
  for (int64_t size : chain.rows)
    rows *= size;
  int64_t widestWidth = std::max<int64_t>(1, 16 / getWidestElementBytes());
  int64_t maxKept = std::min(kMaxRegistersPerThread,
                             kMaxRowBytesPerThread / getWidestElementBytes());
  if (rows >= kMinWarpRows &&
      chain.columns <= kWarpSize * widestWidth * kMaxWarpGroups) {
    // The largest power of two up to kRowsPerBlock that divides the rows:
    // no block has a partial warp of rows.
    rowsPerBlock = kRowsPerBlock;
    while (rows % rowsPerBlock != 0)
      rowsPerBlock /= 2;
  }
  // A warp per row: lanes past the row's groups hold none.
  int64_t maxThreads = rowsPerBlock > 1 ? kWarpSize : kMaxThreads;
  threads =
      std::min<int64_t>(maxThreads, llvm::alignTo(chain.columns, kWarpSize));
  if (keepInRegisters) {
    // Groups of `width` columns, 16 bytes of the widest buffer element,
    // when the row splits into whole groups per thread of a full warp.
    int64_t vectorWidth = widestWidth;
    while (vectorWidth > 1 && chain.columns % (vectorWidth * kWarpSize) != 0)
      vectorWidth /= 2;
    int64_t vectorThreads =
        std::min<int64_t>(maxThreads, chain.columns / vectorWidth);
    int64_t groups = chain.columns / vectorWidth;
    if (vectorWidth > 1 && rows >= kManyRows) {
      // Enough rows to fill the GPU with blocks of any size: the fewest
      // whole warps whose threads keep at most maxKept elements each, so
      // that more elements share each reduction's shuffles and
      // shared-memory partials.
      for (int64_t t = kWarpSize; t < vectorThreads; t += kWarpSize)
        if (groups % t == 0 && chain.columns / t <= maxKept) {
          vectorThreads = t;
          break;
        }
    }
    // Else the most whole warps that split the groups evenly (a row of 704
    // groups: 352 threads of 2 groups, not 512 threads of single elements).
    if (vectorWidth > 1 && groups % vectorThreads != 0) {
      for (int64_t t = vectorThreads / kWarpSize * kWarpSize; t >= kWarpSize;
           t -= kWarpSize)
        if (groups % t == 0) {
          vectorThreads = t;
          break;
        }
    }
    if (vectorWidth > 1 && chain.columns % (vectorThreads * vectorWidth) == 0 &&
        chain.columns / vectorThreads <= maxKept) {
      width = vectorWidth;
      threads = vectorThreads;
      unroll = chain.columns / threads;
    } else if (chain.columns % threads == 0 &&
               chain.columns / threads <= maxKept) {
      unroll = chain.columns / threads;
    }
  }
  int64_t clusterWidth = 1;
  if (!unroll) {
    // Strided: groups of up to 16 bytes of the widest element, and twice
    // the threads for long rows (few rows would leave SMs half empty).
    width = std::max<int64_t>(1, 16 / getWidestElementBytes());
    while (width > 1 && chain.columns % width != 0)
      width /= 2;
    int64_t groups = chain.columns / width;
    int64_t maxStrided = rowsPerBlock > 1           ? kWarpSize
                         : groups >= kLongRowGroups ? kMaxStridedThreads
                                                    : kMaxThreads;
    threads = std::min<int64_t>(maxStrided, llvm::alignTo(groups, kWarpSize));
    // A row too long for a block's registers may fit a cluster's: the
    // strided form is then the path of modules without clusters, run by
    // the cluster's first block with the cluster's threads.
    clusterSize = chooseClusterSize(clusterWidth);
    if (clusterSize)
      threads = kClusterThreads;
  }
  // One shared buffer per reduction: a reduction's slots may still be read
  // when a fast warp writes the next one's. With clusters, one more per
  // reduction for the block's total.
  SmallVector<Type> workgroupTypes;
  auto space =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  SmallVector<int> reductions;
  for (auto [index, c] : llvm::enumerate(chain.ops))
    if (c.kind == ChainOp::Reduce) {
      reductions.push_back(index);
      if (rowsPerBlock > 1)
        continue; // warps reduce alone
      Type element = getElementTypeOrSelf(
          cast<linalg::GenericOp>(c.op).getDpsInitOperand(0)->get());
      workgroupTypes.push_back(
          MemRefType::get({threads / kWarpSize}, element, nullptr, space));
    }
  if (clusterSize)
    for (int index : reductions)
      workgroupTypes.push_back(MemRefType::get(
          {1},
          getElementTypeOrSelf(cast<linalg::GenericOp>(chain.ops[index].op)
                                   .getDpsInitOperand(0)
                                   ->get()),
          nullptr, space));
  Value one = cst(1);
  int64_t blocks = rows / rowsPerBlock * std::max<int64_t>(clusterSize, 1);
  auto launch = gpu::LaunchOp::create(
      b, loc, cst(blocks), one, one, cst(threads), cst(rowsPerBlock), one,
      /*dynamicSharedMemorySize=*/nullptr,
      /*asyncTokenType=*/nullptr, ValueRange(), workgroupTypes);
  launch->setAttr(mlx::attrs::kRowKernel, b.getUnitAttr());
  b.setInsertionPointToStart(&launch.getBody().front());
  tid = launch.getThreadIds().x;
  // The row's index per non-unit row dim (row-major).
  Value rest = launch.getBlockIds().x;
  if (clusterSize) {
    // Clusters are consecutive blocks along x.
    clusterRank = arith::RemUIOp::create(b, loc, rest, cst(clusterSize));
    rest = arith::DivUIOp::create(b, loc, rest, cst(clusterSize));
  }
  if (rowsPerBlock > 1)
    rest = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, rest, cst(rowsPerBlock)),
        launch.getThreadIds().y);
  rowIvs.assign(chain.rows.size(), Value());
  for (int i = static_cast<int>(chain.rows.size()) - 1; i >= 0; --i) {
    rowIvs[i] = arith::RemUIOp::create(b, loc, rest, cst(chain.rows[i]));
    rest = arith::DivUIOp::create(b, loc, rest, cst(chain.rows[i]));
  }
  DenseMap<int, Value> workgroupOf;
  if (rowsPerBlock == 1)
    for (auto [slot, index] : llvm::enumerate(reductions)) {
      workgroupOf[index] = launch.getWorkgroupAttributions()[slot];
      if (clusterSize)
        clusterSlotOf[index] =
            launch.getWorkgroupAttributions()[reductions.size() + slot];
    }
  if (!clusterSize) {
    emitRow(workgroupOf);
  } else {
    auto module = launch->getParentOfType<ModuleOp>();
    Type i1 = b.getI1Type(), i32 = b.getI32Type();
    FlatSymbolRefAttr rowsFn =
        mlx::declareChipFunction(module, mlx::kClusterRowsName, i1, {i32});
    Value size = arith::ConstantIntOp::create(b, loc, i32, clusterSize);
    Value clustered =
        LLVM::CallOp::create(b, loc, TypeRange{i1}, rowsFn, ValueRange{size})
            .getResult();
    auto paths = scf::IfOp::create(b, loc, TypeRange(), clustered,
                                   /*withElseRegion=*/true);
    int64_t stridedWidth = width;
    {
      // Each block holds its slice of the row in registers.
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(paths.thenBlock()->getTerminator());
      width = clusterWidth;
      unroll = chain.columns / (clusterSize * threads);
      sliceStart = arith::MulIOp::create(b, loc, clusterRank,
                                         cst(chain.columns / clusterSize));
      emitRow(workgroupOf);
      // No block leaves while another may still read its slots.
      emitClusterSync();
      sliceStart = Value();
    }
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(paths.elseBlock()->getTerminator());
      width = stridedWidth;
      unroll = 0;
      Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            clusterRank, cst(0));
      auto first = scf::IfOp::create(b, loc, TypeRange(), isFirst,
                                     /*withElseRegion=*/false);
      b.setInsertionPoint(first.thenBlock()->getTerminator());
      emitRow(workgroupOf);
    }
  }
  gpu::TerminatorOp::create(b, loc);
  for (ChainOp &c : llvm::reverse(chain.ops))
    c.op->erase();
}

void ChainEmitter::emitRow(const DenseMap<int, Value> &workgroupOf) {
  scalars.clear();
  registers.clear();
  SmallVector<int> reductions;
  for (auto [index, c] : llvm::enumerate(chain.ops))
    if (c.kind == ChainOp::Reduce)
      reductions.push_back(index);
  // In the strided form a max followed by a sum of exp(h - max) is one
  // online pass (the row is read once less).
  llvm::SmallDenseSet<int> done;
  for (auto [index, c] : llvm::enumerate(chain.ops)) {
    if (done.contains(index))
      continue;
    if (c.kind == ChainOp::Reduce) {
      auto next = llvm::find_if(
          reductions, [&](int r) { return r > static_cast<int>(index); });
      if (!unroll && next != reductions.end() && isOnlinePair(index, *next)) {
        emitOnlineReduction(index, *next, workgroupOf.lookup(index),
                            workgroupOf.lookup(*next));
        done.insert(*next);
        continue;
      }
      emitReduction(index, workgroupOf.lookup(index));
    } else if (c.kind == ChainOp::RowScalar) {
      DenseMap<int, Value> cache;
      scalars[index] = valueAt(index, cst(0), cache);
    }
  }
  // Per-row results that leave the chain: one thread stores them (of a
  // cluster, the first block's).
  Value isThread0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, cst(0));
  if (sliceStart)
    isThread0 = arith::AndIOp::create(
        b, loc, isThread0,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, clusterRank,
                              cst(0)));
  for (auto [index, c] : llvm::enumerate(chain.ops)) {
    if (!c.isFinal || !c.escapes ||
        (c.kind != ChainOp::Reduce && c.kind != ChainOp::RowScalar))
      continue;
    auto generic = cast<linalg::GenericOp>(c.op);
    scf::IfOp::create(b, loc, isThread0, [&](OpBuilder &then, Location l) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(then.getInsertionBlock(), then.getInsertionPoint());
      OpOperand *init = generic.getDpsInitOperand(0);
      memref::StoreOp::create(b, l, scalars.lookup(index), init->get(),
                              indicesAt(c, *init, loopIndices(c, cst(0))));
      scf::YieldOp::create(b, l);
    });
  }
  // Rows that leave the chain: one pass over the row writes them all.
  SmallVector<int> rowOutputs;
  for (auto [index, c] : llvm::enumerate(chain.ops))
    if (c.isFinal && c.escapes && c.kind == ChainOp::Elementwise)
      rowOutputs.push_back(index);
  if (!rowOutputs.empty() && unroll) {
    for (int64_t first = 0; first < unroll; first += width)
      storeRowOutputGroup(rowOutputs, first);
    currentK = -1;
  } else if (!rowOutputs.empty()) {
    scf::ForOp::create(b, loc, tid, cst(chain.columns / width), cst(threads),
                       ValueRange(),
                       [&](OpBuilder &nested, Location l, Value g, ValueRange) {
                         OpBuilder::InsertionGuard guard(b);
                         b.setInsertionPoint(nested.getInsertionBlock(),
                                             nested.getInsertionPoint());
                         auto savedRegisters = registers;
                         groupBase = arith::MulIOp::create(b, l, g, cst(width));
                         storeRowOutputGroup(rowOutputs, 0);
                         groupBase = Value();
                         registers = std::move(savedRegisters);
                         scf::YieldOp::create(b, l);
                       });
  }
}

int64_t ChainEmitter::chooseClusterSize(int64_t &clusterWidth) const {
  if (maxClusterSize < 2 || rowsPerBlock != 1 || !keepInRegisters)
    return 0;
  int64_t vectorWidth = std::max<int64_t>(1, 16 / getWidestElementBytes());
  while (vectorWidth > 1 && chain.columns % (vectorWidth * kWarpSize) != 0)
    vectorWidth /= 2;
  for (int64_t size = 2;
       size <= std::min(maxClusterSize, mlx::kMaxPortableClusterSize);
       size *= 2) {
    if (chain.columns % (size * kClusterThreads * vectorWidth) != 0 ||
        chain.columns / (size * kClusterThreads) > kMaxClusterRegisters)
      continue;
    clusterWidth = vectorWidth;
    return size;
  }
  return 0;
}

void ChainEmitter::emitClusterSync() {
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  FlatSymbolRefAttr syncFn =
      mlx::declareChipFunction(module, mlx::kClusterSyncName,
                               LLVM::LLVMVoidType::get(b.getContext()), {});
  LLVM::CallOp::create(b, loc, TypeRange(), syncFn, ValueRange());
}

Value ChainEmitter::emitClusterLoad(Value slot, int64_t rank) {
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  Type type = cast<MemRefType>(slot.getType()).getElementType();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  std::string name = mlx::kClusterLoadPrefix.str();
  llvm::raw_string_ostream(name) << type;
  FlatSymbolRefAttr loadFn =
      mlx::declareChipFunction(module, name, type, {i64, i32});
  Value address = arith::IndexCastOp::create(
      b, loc, i64,
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, slot));
  Value rankValue = arith::ConstantIntOp::create(b, loc, i32, rank);
  return LLVM::CallOp::create(b, loc, TypeRange{type}, loadFn,
                              ValueRange{address, rankValue})
      .getResult();
}

Value ChainEmitter::emitClusterCombine(int index, Value blockTotal) {
  const RowReduction &r = *chain.ops[index].reduction;
  Value slot = clusterSlotOf.lookup(index);
  Value isThread0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, cst(0));
  scf::IfOp::create(b, loc, isThread0, [&](OpBuilder &then, Location l) {
    memref::StoreOp::create(then, l, blockTotal, slot, ValueRange{cst(0)});
    scf::YieldOp::create(then, l);
  });
  emitClusterSync();
  Value total;
  for (int64_t rank = 0; rank < clusterSize; ++rank) {
    Value v = emitClusterLoad(slot, rank);
    total = rank ? mlx::emitCombine(b, r, total, v) : v;
  }
  return total;
}

struct MlxcFuseRowKernelsPass final
    : mlx::impl::MlxcFuseRowKernelsBase<MlxcFuseRowKernelsPass> {
  using Base::Base;
  void runOnOperation() override {
    std::vector<Chain> chains;
    getOperation()->walk([&](func::FuncOp func) {
      for (Chain &chain : mlx::collectRowChains(func))
        chains.push_back(std::move(chain));
    });
    int64_t clusters =
        kernel::getTargetOr(getOperation(), kernel::Backend::Cuda)
            .getMaxCluster();
    for (Chain &chain : chains)
      if (mlx::analyzeChain(chain))
        ChainEmitter(chain, registers, clusters).emit();
  }
};

} // namespace
