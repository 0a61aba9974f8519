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

#include "codegen/Cuda/ChipFunctions.h"
#include "codegen/Cuda/ClusterOps.h"
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
using mlir::mlx::dropUnitDims;
using mlir::mlx::getElementBytes;
using mlir::mlx::RowReduction;

namespace {

constexpr int64_t kWarpSize = 32;
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

/// One op of a chain.
struct ChainOp {
  enum Kind { Fill, Copy, Elementwise, RowScalar, Reduce } kind;
  Operation *op;
  std::optional<RowReduction> reduction;
  Value root;                     ///< The buffer it writes.
  SmallVector<int64_t> loopSizes; ///< linalg.generic only.
  /// Per operand (inputs, then the init): the chain op whose version it
  /// reads (-1: memory as it was before the chain).
  SmallVector<int> producers;
  bool isFinal = false, escapes = false;
};

struct Chain {
  SmallVector<int64_t> rows; ///< Row dims, unit dims dropped.
  int64_t columns = 0;
  std::vector<ChainOp> ops;
};

/// Whether `subview` is the only window into an allocation, at its start
/// with unit strides: a buffer whose rows mlxc-matmul-to-runtime padded.
/// The window then names the buffer as well as the allocation does.
bool isOnlyWindow(memref::SubViewOp subview) {
  auto alloc = subview.getSource().getDefiningOp<memref::AllocOp>();
  return alloc && subview.hasZeroOffset() && subview.hasUnitStride() &&
         llvm::all_of(alloc->getUsers(), [&](Operation *user) {
           return user == subview || isa<memref::DeallocOp>(user);
         });
}

/// The buffer under expand/collapse views (both keep row-major order), or
/// null for anything the chain cannot reason about.
Value getRoot(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto expand = dyn_cast<memref::ExpandShapeOp>(def)) {
      value = expand.getSrc();
      continue;
    }
    if (auto collapse = dyn_cast<memref::CollapseShapeOp>(def)) {
      value = collapse.getSrc();
      continue;
    }
    if (auto subview = dyn_cast<memref::SubViewOp>(def);
        subview && isOnlyWindow(subview)) {
      value = subview.getSource();
      continue;
    }
    if (isa<memref::AllocOp, memref::GetGlobalOp>(def))
      break;
    return nullptr;
  }
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
    return nullptr;
  return value;
}

/// Classifies a linalg op as a chain op over rows x columns, or fails.
std::optional<ChainOp> classify(Operation *op, Chain &chain) {
  ChainOp c;
  c.op = op;
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    if (!fill.hasPureBufferSemantics())
      return std::nullopt;
    c.kind = ChainOp::Fill;
    c.root = getRoot(fill.getOutputs()[0]);
    if (!c.root)
      return std::nullopt;
    return c;
  }
  if (auto copy = dyn_cast<linalg::CopyOp>(op)) {
    // A whole buffer copied (a reduction's init taken from a fill): the
    // copy is the source's version under another name.
    if (!copy.hasPureBufferSemantics())
      return std::nullopt;
    c.kind = ChainOp::Copy;
    c.root = getRoot(copy.getOutputs()[0]);
    Value source = getRoot(copy.getInputs()[0]);
    if (!c.root || !source ||
        cast<MemRefType>(c.root.getType()).getNumElements() !=
            cast<MemRefType>(source.getType()).getNumElements() ||
        getElementTypeOrSelf(c.root) != getElementTypeOrSelf(source))
      return std::nullopt;
    return c;
  }
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureBufferSemantics() ||
      generic.getNumDpsInits() != 1)
    return std::nullopt;
  std::optional<SmallVector<int64_t, 4>> ranges = generic.getStaticLoopRanges();
  if (!ranges || ranges->empty() ||
      llvm::any_of(*ranges, ShapedType::isDynamic))
    return std::nullopt;
  c.loopSizes.assign(ranges->begin(), ranges->end());
  c.root = getRoot(generic.getDpsInitOperand(0)->get());
  if (!c.root)
    return std::nullopt;
  for (Operation &inner : generic.getRegion().front().without_terminator())
    if (inner.getNumRegions() || !isMemoryEffectFree(&inner))
      return std::nullopt;
  auto iterators = generic.getIteratorTypesArray();
  SmallVector<int64_t> rows, all = dropUnitDims(c.loopSizes);
  if (generic.getNumReductionLoops() == 1 &&
      iterators.back() == utils::IteratorType::reduction) {
    c.reduction = mlx::matchRowReduction(generic);
    if (!c.reduction)
      return std::nullopt;
    c.kind = ChainOp::Reduce;
    rows = dropUnitDims(ArrayRef(c.loopSizes).drop_back());
    if (chain.columns == 0) {
      chain.rows = rows;
      chain.columns = c.loopSizes.back();
    }
    if (rows != chain.rows || c.loopSizes.back() != chain.columns)
      return std::nullopt;
    return c;
  }
  if (generic.getNumReductionLoops() != 0)
    return std::nullopt;
  // The payload must not read the output element (a plain map).
  Block &body = generic.getRegion().front();
  if (!body.getArguments().back().use_empty())
    return std::nullopt;
  if (chain.columns == 0) {
    // A chain starts at a reduction, or at the elementwise prologue that
    // kernel formation put in a row kernel (attention's mask and scale).
    auto strategy = op->getAttrOfType<StringAttr>(kernel::kKernelStrategyAttr);
    if (!strategy || strategy.getValue() != "row_reduction" ||
        c.loopSizes.size() < 2)
      return std::nullopt;
    chain.rows = dropUnitDims(ArrayRef(c.loopSizes).drop_back());
    chain.columns = c.loopSizes.back();
  }
  SmallVector<int64_t> full(chain.rows);
  full.push_back(chain.columns);
  if (all == full && c.loopSizes.back() == chain.columns) {
    c.kind = ChainOp::Elementwise;
    return c;
  }
  if (all == chain.rows) {
    c.kind = ChainOp::RowScalar;
    return c;
  }
  return std::nullopt;
}

/// Whether every result of `map` is a sum of constant multiples of dims.
bool isLinear(AffineMap map) {
  for (AffineExpr expr : map.getResults()) {
    bool linear = true;
    expr.walk([&](AffineExpr e) {
      if (e.getKind() == AffineExprKind::Mod ||
          e.getKind() == AffineExprKind::FloorDiv ||
          e.getKind() == AffineExprKind::CeilDiv ||
          e.getKind() == AffineExprKind::SymbolId)
        linear = false;
    });
    if (!linear)
      return false;
  }
  return true;
}

/// The row-major offset in a buffer of `type` that `map` reads at `ivs`.
int64_t linearOffset(AffineMap map, MemRefType type, ArrayRef<int64_t> ivs) {
  int64_t offset = 0;
  for (auto [index, size] : llvm::zip(map.compose(ivs), type.getShape()))
    offset = offset * size + index;
  return offset;
}

/// Checks that `op` (loops `loopSizes`) accesses its operand of type `type`
/// through `map` at row-major offset row * columns + column (`full`) or row
/// (a per-row scalar), with row the linear index of the non-unit row loops.
bool accessesRow(AffineMap map, MemRefType type, ArrayRef<int64_t> loopSizes,
                 bool hasColumnLoop, bool full, int64_t columns) {
  if (!isLinear(map) || map.getNumDims() != loopSizes.size())
    return false;
  auto offsetAt = [&](ArrayRef<int64_t> ivs) {
    return linearOffset(map, type, ivs);
  };
  SmallVector<int64_t> ivs(loopSizes.size(), 0);
  if (offsetAt(ivs) != 0)
    return false;
  unsigned numRowLoops = loopSizes.size() - (hasColumnLoop ? 1 : 0);
  int64_t stride = full ? columns : 1;
  for (int i = static_cast<int>(loopSizes.size()) - 1; i >= 0; --i) {
    if (loopSizes[i] == 1)
      continue;
    ivs[i] = 1;
    int64_t coefficient = offsetAt(ivs);
    ivs[i] = 0;
    if (static_cast<unsigned>(i) >= numRowLoops) { // The column loop.
      if (coefficient != (full ? 1 : 0))
        return false;
      continue;
    }
    if (coefficient != stride)
      return false;
    stride *= loopSizes[i];
  }
  return true;
}

/// Whether `map` reads element `column` of a buffer, whatever the row (a
/// weight vector broadcast over the rows).
bool accessesColumn(AffineMap map, MemRefType type,
                    ArrayRef<int64_t> loopSizes) {
  if (!isLinear(map) || map.getNumDims() != loopSizes.size())
    return false;
  auto offsetAt = [&](ArrayRef<int64_t> ivs) {
    return linearOffset(map, type, ivs);
  };
  SmallVector<int64_t> ivs(loopSizes.size(), 0);
  if (offsetAt(ivs) != 0)
    return false;
  for (size_t i = 0; i < loopSizes.size(); ++i) {
    ivs[i] = 1;
    int64_t coefficient = offsetAt(ivs);
    ivs[i] = 0;
    if (loopSizes[i] != 1 && coefficient != (i + 1 == loopSizes.size()))
      return false;
  }
  return true;
}

/// Whether `user` (a use of a view of a chain buffer) stays inside the chain.
bool isChainUse(Operation *user, const llvm::SmallPtrSetImpl<Operation *> &in) {
  return in.contains(user) || isa<memref::DeallocOp>(user);
}

/// Whether `value` (a view or the buffer) has a use outside the chain.
bool escapesFrom(Value value, const llvm::SmallPtrSetImpl<Operation *> &in) {
  for (Operation *user : value.getUsers()) {
    if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(user)) {
      if (escapesFrom(user->getResult(0), in))
        return true;
      continue;
    }
    if (!isChainUse(user, in))
      return true;
  }
  return false;
}

/// Resolves versions and checks the chain; false leaves it to the per-op
/// lowering.
bool analyze(Chain &chain) {
  int numReduce = 0, numGenerics = 0;
  for (ChainOp &c : chain.ops) {
    numReduce += c.kind == ChainOp::Reduce;
    numGenerics += c.kind != ChainOp::Fill && c.kind != ChainOp::Copy;
  }
  // A lone reduction is a chain too: it gets the chain's 16-byte loads and
  // unrolled passes (mlxc-map-row-reductions, which took it before, reads
  // one element at a time: a decode step's gate projection ran at 1.6 TB/s).
  if (numReduce == 0)
    return false;
  DenseMap<Value, int> lastWriter;
  llvm::SmallPtrSet<Value, 4> aliases; ///< Buffers a copy wrote.
  llvm::SmallPtrSet<Value, 8> written;
  for (ChainOp &c : chain.ops)
    written.insert(c.root);
  llvm::SmallPtrSet<Operation *, 16> in;
  for (ChainOp &c : chain.ops)
    in.insert(c.op);
  for (auto [index, c] : llvm::enumerate(chain.ops)) {
    if (c.kind == ChainOp::Copy) {
      auto copy = cast<linalg::CopyOp>(c.op);
      auto it = lastWriter.find(getRoot(copy.getInputs()[0]));
      if (it == lastWriter.end())
        return false; // A copy of memory from before the chain.
      lastWriter[c.root] = it->second;
      aliases.insert(c.root);
      continue;
    }
    if (c.kind == ChainOp::Fill) {
      auto fill = cast<linalg::FillOp>(c.op);
      auto type = cast<MemRefType>(fill.getOutputs()[0].getType());
      if (type.getNumElements() !=
              cast<MemRefType>(c.root.getType()).getNumElements() ||
          fill.getInputs()[0].getType() != type.getElementType())
        return false;
      lastWriter[c.root] = index;
      continue;
    }
    auto generic = cast<linalg::GenericOp>(c.op);
    bool hasColumnLoop = c.kind != ChainOp::RowScalar;
    for (OpOperand &operand : generic->getOpOperands()) {
      Value root = getRoot(operand.get());
      if (!root)
        return false;
      bool isInit = generic.isDpsInit(&operand);
      auto it = lastWriter.find(root);
      int producer = it == lastWriter.end() ? -1 : it->second;
      AffineMap map = generic.getMatchingIndexingMap(&operand);
      auto type = cast<MemRefType>(operand.get().getType());
      if (producer < 0) {
        // Memory from before the chain: never a buffer the chain writes
        // (a recomputation could read it after the chain's own store).
        if (written.contains(root) && !(isInit && c.kind != ChainOp::Reduce))
          return false;
      } else {
        ChainOp &p = chain.ops[producer];
        bool full = p.kind == ChainOp::Elementwise;
        if (p.kind != ChainOp::Fill &&
            !accessesRow(map, type, c.loopSizes, hasColumnLoop, full,
                         chain.columns))
          return false;
        // A per-row value cannot read a whole row.
        if (full && c.kind == ChainOp::RowScalar)
          return false;
        // A reduction starts from a per-row value, not a row.
        if (isInit && c.kind == ChainOp::Reduce && full)
          return false;
      }
      c.producers.push_back(producer);
      if (isInit && !accessesRow(map, type, c.loopSizes, hasColumnLoop,
                                 c.kind == ChainOp::Elementwise, chain.columns))
        return false;
    }
    lastWriter[c.root] = index;
  }
  for (auto [root, index] : lastWriter) {
    ChainOp &c = chain.ops[index];
    bool escapes = isa<BlockArgument>(root) || escapesFrom(root, in);
    // The kernel stores an op's final version into that op's own buffer
    // only: not into a copy's, and not a fill's.
    if (escapes &&
        (c.kind == ChainOp::Fill || root != c.root || aliases.contains(root)))
      return false;
    if (root == c.root) {
      c.isFinal = true;
      c.escapes = escapes;
    }
  }
  return true;
}

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
  SmallVector<Value> ivs;
  bool hasColumnLoop = c.kind != ChainOp::RowScalar;
  size_t numRowLoops = c.loopSizes.size() - (hasColumnLoop ? 1 : 0);
  unsigned next = 0;
  for (size_t i = 0; i < c.loopSizes.size(); ++i) {
    if (i >= numRowLoops)
      ivs.push_back(column);
    else if (c.loopSizes[i] == 1)
      ivs.push_back(cst(0));
    else
      ivs.push_back(rowIvs[next++]);
  }
  return ivs;
}

SmallVector<Value> ChainEmitter::indicesAt(const ChainOp &c, OpOperand &operand,
                                           ValueRange ivs) {
  AffineMap map =
      cast<linalg::GenericOp>(c.op).getMatchingIndexingMap(&operand);
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults())
    indices.push_back(affine::AffineApplyOp::create(
        b, loc, AffineMap::get(map.getNumDims(), 0, expr), ivs));
  return indices;
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
    Value root = getRoot(operand.get());
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
  Value root = getRoot(operand.get());
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
  if (Value cached = cache.lookup(index))
    return cached;
  ChainOp &c = chain.ops[index];
  auto generic = cast<linalg::GenericOp>(c.op);
  Block &body = generic.getRegion().front();
  SmallVector<Value> ivs = loopIndices(c, column);
  IRMapping map;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    int producer = c.producers[input->getOperandNumber()];
    Value element;
    if (producer < 0) {
      element = load(c, *input, ivs);
    } else {
      ChainOp &p = chain.ops[producer];
      if (p.kind == ChainOp::Fill)
        element = cast<linalg::FillOp>(p.op).getInputs()[0];
      else if (p.kind == ChainOp::Elementwise)
        element = valueAt(producer, column, cache);
      else
        element = scalars.lookup(producer);
    }
    map.map(body.getArgument(input->getOperandNumber()), element);
  }
  auto clonePayload = [&](ArrayRef<Operation *> ops) {
    for (Operation *inner : ops) {
      if (auto indexOp = dyn_cast<linalg::IndexOp>(inner)) {
        map.map(indexOp.getResult(), ivs[indexOp.getDim()]);
        continue;
      }
      b.clone(*inner, map);
    }
  };
  Value result;
  if (c.kind == ChainOp::Reduce) {
    clonePayload(c.reduction->valueOps);
    result = map.lookupOrDefault(c.reduction->value);
  } else {
    SmallVector<Operation *> ops;
    for (Operation &inner : body.without_terminator())
      ops.push_back(&inner);
    clonePayload(ops);
    result = map.lookupOrDefault(body.getTerminator()->getOperand(0));
  }
  cache[index] = result;
  return result;
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
  // The block: lane 0 of each warp leaves its total in shared memory.
  Value warp = arith::DivUIOp::create(b, loc, tid, cst(kWarpSize));
  Value lane = arith::RemUIOp::create(b, loc, tid, cst(kWarpSize));
  Value isLane0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, cst(0));
  scf::IfOp::create(b, loc, isLane0, [&](OpBuilder &then, Location l) {
    memref::StoreOp::create(then, l, partial, workgroup, ValueRange{warp});
    scf::YieldOp::create(then, l);
  });
  gpu::BarrierOp::create(b, loc);
  Value total = memref::LoadOp::create(b, loc, workgroup, ValueRange{cst(0)});
  for (int64_t w = 1; w < threads / kWarpSize; ++w)
    total = mlx::emitCombine(
        b, r, total,
        memref::LoadOp::create(b, loc, workgroup, ValueRange{cst(w)}));
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
  launch->setAttr("mlxc.row_kernel", b.getUnitAttr());
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

/// Ops that may sit between a chain's ops: they neither read nor write the
/// chain's buffers.
bool isTransparent(Operation *op) {
  return isa<memref::AllocOp, memref::SubViewOp, memref::ExpandShapeOp,
             memref::CollapseShapeOp, arith::ConstantOp>(op);
}

struct MlxcFuseRowKernelsPass final
    : mlx::impl::MlxcFuseRowKernelsBase<MlxcFuseRowKernelsPass> {
  using Base::Base;
  void runOnOperation() override {
    std::vector<Chain> chains;
    getOperation()->walk([&](func::FuncOp func) {
      if (func.isExternal())
        return;
      Chain current;
      IntegerAttr currentKernel;
      auto finish = [&]() {
        if (!current.ops.empty())
          chains.push_back(std::move(current));
        current = Chain();
        currentKernel = IntegerAttr();
      };
      for (Operation &op : func.getBody().front()) {
        if (isTransparent(&op))
          continue;
        // Kernel formation decided the groups: a chain holds the ops of one
        // row_reduction kernel (ops made after it, like bufferization's
        // copies, carry no tag and may join).
        auto id = op.getAttrOfType<IntegerAttr>(kernel::kKernelIdAttr);
        if (auto strategy =
                op.getAttrOfType<StringAttr>(kernel::kKernelStrategyAttr)) {
          if (strategy.getValue() != "row_reduction") {
            finish();
            continue;
          }
          if (currentKernel && id != currentKernel)
            finish();
        }
        std::optional<ChainOp> c = classify(&op, current);
        if (!c) {
          finish();
          // The op may start the next chain.
          c = classify(&op, current);
          if (!c)
            continue;
        }
        // Fills join the chain whose reductions they initialize.
        current.ops.push_back(std::move(*c));
        if (id)
          currentKernel = id;
      }
      finish();
    });
    for (Chain &chain : chains) {
      // Leading fills with no reduction before them are fine; trailing
      // fills belong to no reduction.
      while (!chain.ops.empty() && (chain.ops.back().kind == ChainOp::Fill ||
                                    chain.ops.back().kind == ChainOp::Copy))
        chain.ops.pop_back();
      if (chain.ops.empty() || !analyze(chain))
        continue;
      ChainEmitter(chain, registers, clusters).emit();
    }
  }
};

} // namespace
