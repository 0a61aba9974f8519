//===- RowChain.cpp - chains of row ops on the CUDA path ------------------===//

#include "codegen/Cuda/Arch.h"
#include "codegen/Cuda/RowChain.h"
#include "codegen/ShapeUtils.h"

#include "Kernel/KernelOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using mlx::kWarpSize;
using mlir::mlx::Chain;
using mlir::mlx::ChainOp;
using mlir::mlx::dropUnitDims;

/// Whether `subview` is the only window into an allocation, at its start
/// with unit strides: a buffer whose rows mlxc-matmul-to-runtime padded.
/// The window then names the buffer as well as the allocation does.
static bool isOnlyWindow(memref::SubViewOp subview) {
  auto alloc = subview.getSource().getDefiningOp<memref::AllocOp>();
  return alloc && subview.hasZeroOffset() && subview.hasUnitStride() &&
         llvm::all_of(alloc->getUsers(), [&](Operation *user) {
           return user == subview || isa<memref::DeallocOp>(user);
         });
}

Value mlx::getChainRoot(Value value) {
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

std::optional<ChainOp> mlx::classifyChainOp(Operation *op, Chain &chain) {
  ChainOp c;
  c.op = op;
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    if (!fill.hasPureBufferSemantics())
      return std::nullopt;
    c.kind = ChainOp::Fill;
    c.root = getChainRoot(fill.getOutputs()[0]);
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
    c.root = getChainRoot(copy.getOutputs()[0]);
    Value source = getChainRoot(copy.getInputs()[0]);
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
  c.root = getChainRoot(generic.getDpsInitOperand(0)->get());
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
static bool isLinear(AffineMap map) {
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
static int64_t linearOffset(AffineMap map, MemRefType type,
                            ArrayRef<int64_t> ivs) {
  int64_t offset = 0;
  for (auto [index, size] : llvm::zip(map.compose(ivs), type.getShape()))
    offset = offset * size + index;
  return offset;
}

/// The row-major offset in a buffer of `type` that `map` (over loops of
/// `loopSizes`) adds per step of each loop, or nullopt unless it is linear
/// and starts at offset 0.
static std::optional<SmallVector<int64_t>>
getLoopStrides(AffineMap map, MemRefType type, ArrayRef<int64_t> loopSizes) {
  if (!isLinear(map) || map.getNumDims() != loopSizes.size())
    return std::nullopt;
  SmallVector<int64_t> ivs(loopSizes.size(), 0);
  if (linearOffset(map, type, ivs) != 0)
    return std::nullopt;
  SmallVector<int64_t> strides;
  for (size_t i = 0; i < loopSizes.size(); ++i) {
    ivs[i] = 1;
    strides.push_back(linearOffset(map, type, ivs));
    ivs[i] = 0;
  }
  return strides;
}

bool mlx::accessesRow(AffineMap map, MemRefType type,
                      ArrayRef<int64_t> loopSizes, bool hasColumnLoop,
                      bool full, int64_t columns) {
  std::optional<SmallVector<int64_t>> strides =
      getLoopStrides(map, type, loopSizes);
  if (!strides)
    return false;
  unsigned numRowLoops = loopSizes.size() - (hasColumnLoop ? 1 : 0);
  int64_t stride = full ? columns : 1;
  for (int i = static_cast<int>(loopSizes.size()) - 1; i >= 0; --i) {
    if (loopSizes[i] == 1)
      continue;
    int64_t coefficient = (*strides)[i];
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

bool mlx::accessesColumn(AffineMap map, MemRefType type,
                         ArrayRef<int64_t> loopSizes) {
  std::optional<SmallVector<int64_t>> strides =
      getLoopStrides(map, type, loopSizes);
  if (!strides)
    return false;
  for (size_t i = 0; i < loopSizes.size(); ++i)
    if (loopSizes[i] != 1 && (*strides)[i] != (i + 1 == loopSizes.size()))
      return false;
  return true;
}

/// Whether `user` (a use of a view of a chain buffer) stays inside the chain.
static bool isChainUse(Operation *user,
                       const llvm::SmallPtrSetImpl<Operation *> &in) {
  return in.contains(user) || isa<memref::DeallocOp>(user);
}

/// Whether `value` (a view or the buffer) has a use outside the chain.
static bool escapesFrom(Value value,
                        const llvm::SmallPtrSetImpl<Operation *> &in) {
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

bool mlx::analyzeChain(Chain &chain) {
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
      auto it = lastWriter.find(getChainRoot(copy.getInputs()[0]));
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
      Value root = getChainRoot(operand.get());
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

/// Ops that may sit between a chain's ops: they neither read nor write the
/// chain's buffers.
static bool isTransparent(Operation *op) {
  return isa<memref::AllocOp, memref::SubViewOp, memref::ExpandShapeOp,
             memref::CollapseShapeOp, arith::ConstantOp>(op);
}

std::vector<Chain> mlx::collectRowChains(func::FuncOp func) {
  std::vector<Chain> chains;
  if (func.isExternal())
    return chains;
  Chain current;
  IntegerAttr currentKernel;
  auto finish = [&]() {
    // Leading fills with no reduction before them are fine; trailing fills
    // belong to no reduction.
    while (!current.ops.empty() && (current.ops.back().kind == ChainOp::Fill ||
                                    current.ops.back().kind == ChainOp::Copy))
      current.ops.pop_back();
    if (!current.ops.empty())
      chains.push_back(std::move(current));
    current = Chain();
    currentKernel = IntegerAttr();
  };
  for (Operation &op : func.getBody().front()) {
    if (isTransparent(&op))
      continue;
    // Kernel formation decided the groups: a chain holds the ops of one
    // row_reduction kernel (ops made after it, like bufferization's copies,
    // carry no tag and may join).
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
    std::optional<ChainOp> c = classifyChainOp(&op, current);
    if (!c) {
      finish();
      // The op may start the next chain.
      c = classifyChainOp(&op, current);
      if (!c)
        continue;
    }
    // Fills join the chain whose reductions they initialize.
    current.ops.push_back(std::move(*c));
    if (id)
      currentKernel = id;
  }
  finish();
  return chains;
}

SmallVector<Value> mlx::getChainLoopIndices(OpBuilder &b, Location loc,
                                            const ChainOp &c,
                                            ArrayRef<Value> rowIvs,
                                            Value column) {
  SmallVector<Value> ivs;
  bool hasColumnLoop = c.kind != ChainOp::RowScalar;
  size_t numRowLoops = c.loopSizes.size() - (hasColumnLoop ? 1 : 0);
  unsigned next = 0;
  for (size_t i = 0; i < c.loopSizes.size(); ++i) {
    if (i >= numRowLoops)
      ivs.push_back(column);
    else if (c.loopSizes[i] == 1)
      ivs.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    else
      ivs.push_back(rowIvs[next++]);
  }
  return ivs;
}

SmallVector<Value> mlx::getChainIndicesAt(OpBuilder &b, Location loc,
                                          const ChainOp &c, OpOperand &operand,
                                          ValueRange ivs) {
  AffineMap map =
      cast<linalg::GenericOp>(c.op).getMatchingIndexingMap(&operand);
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults())
    indices.push_back(affine::AffineApplyOp::create(
        b, loc, AffineMap::get(map.getNumDims(), 0, expr), ivs));
  return indices;
}

Value mlx::emitChainValue(
    OpBuilder &b, Location loc, const Chain &chain, int index,
    ArrayRef<Value> rowIvs, Value column, const DenseMap<int, Value> &scalars,
    DenseMap<int, Value> &cache,
    function_ref<Value(const ChainOp &, OpOperand &, ValueRange)> load) {
  if (Value cached = cache.lookup(index))
    return cached;
  const ChainOp &c = chain.ops[index];
  auto generic = cast<linalg::GenericOp>(c.op);
  Block &body = generic.getRegion().front();
  SmallVector<Value> ivs = getChainLoopIndices(b, loc, c, rowIvs, column);
  IRMapping map;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    int producer = c.producers[input->getOperandNumber()];
    Value element;
    if (producer < 0) {
      element = load(c, *input, ivs);
    } else {
      const ChainOp &p = chain.ops[producer];
      if (p.kind == ChainOp::Fill)
        element = cast<linalg::FillOp>(p.op).getInputs()[0];
      else if (p.kind == ChainOp::Elementwise)
        element = emitChainValue(b, loc, chain, producer, rowIvs, column,
                                 scalars, cache, load);
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

Value mlx::emitWarpsTotal(OpBuilder &b, Location loc, const RowReduction &r,
                          Value warpTotal, Value tid, int64_t warps,
                          Value workgroup, int64_t firstSlot,
                          int64_t blockWarps) {
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value warp = arith::DivUIOp::create(b, loc, tid, cst(kWarpSize));
  if (firstSlot)
    warp = arith::AddIOp::create(b, loc, warp, cst(firstSlot));
  Value lane = arith::RemUIOp::create(b, loc, tid, cst(kWarpSize));
  Value isLane0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, cst(0));
  if (blockWarps > warps)
    isLane0 = arith::AndIOp::create(
        b, loc, isLane0,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, warp,
                              cst(firstSlot + warps)));
  scf::IfOp::create(b, loc, isLane0, [&](OpBuilder &then, Location l) {
    memref::StoreOp::create(then, l, warpTotal, workgroup, ValueRange{warp});
    scf::YieldOp::create(then, l);
  });
  gpu::BarrierOp::create(b, loc);
  Value total =
      memref::LoadOp::create(b, loc, workgroup, ValueRange{cst(firstSlot)});
  for (int64_t w = 1; w < warps; ++w)
    total = emitCombine(b, r, total,
                        memref::LoadOp::create(b, loc, workgroup,
                                               ValueRange{cst(firstSlot + w)}));
  return total;
}
