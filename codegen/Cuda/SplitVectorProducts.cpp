//===- SplitVectorProducts.cpp - the mlxc-split-vector-products pass ------===//
//
// A product of at most 4 rows per batch whose right-hand side is stored
// with its columns innermost (h @ w with w [in, out]; a decode step's
// probabilities times the values) is bound by reading that operand once.
// cuBLASLt runs such shapes with small-N kernels (nvjet 64x8, gemmSN) that
// reach under half of the memory floor on the H200. Here it becomes two
// kernels:
//   1. partials[s, b, m, n] = sum over chunk s of k of a[b, m, k] w[b, k, n]:
//      a thread owns V neighbouring columns (one 16-byte load per row of w,
//      every load of its L rows issued at once) for every row m; the KY
//      threads of a block that share those columns merge their sums in
//      shared memory;
//   2. in the same kernel, the last block to finish a column tile (an
//      atomic count per tile, in a zero-initialized device global that
//      block resets) adds the chunks' sums in order into `out`; a zero fill
//      of `out` before the product is folded in. No second launch.
// The summation order depends on the shapes alone: results are the same
// from run to run. The counts assume the program's kernels run one after
// another on one stream, as mlxrt runs them.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/ProductOperands.h"
#include "codegen/ShapeUtils.h"

#include "Kernel/KernelOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCSPLITVECTORPRODUCTS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

namespace {

constexpr int64_t kMaxRows = 4;
constexpr int64_t kThreads = 256;
/// Column groups per block (a warp's worth reads 512 contiguous bytes).
constexpr int64_t kMaxGroupsPerBlock = 32;
/// Rows of w per thread: its loads in flight at once.
constexpr int64_t kMaxRowsPerThread = 8;
/// Blocks below which the rows per thread halve (more, smaller chunks).
constexpr int64_t kMinBlocks = 512;

/// The shapes of one product, and how it is split.
struct Plan {
  int64_t batch, m, n, k;
  int64_t width;      ///< V: columns per thread, one vector access.
  int64_t groups;     ///< ceil(n / width)
  int64_t tx, ky;     ///< column groups and k slices per block
  int64_t rows;       ///< L: rows of w per thread
  int64_t tiles;      ///< blocks along the columns
  int64_t chunks;     ///< S: blocks along k
};

bool isZeroFillOf(Operation *op, Value buffer) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op);
  return fill && fill.hasPureBufferSemantics() &&
         fill.getDpsInits()[0] == buffer &&
         matchPattern(fill.getDpsInputs()[0], m_AnyZeroFloat());
}

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
  plan.batch = batched ? cType.getDimSize(0) : 1;
  plan.m = cType.getDimSize(cType.getRank() - 2);
  plan.n = cType.getDimSize(cType.getRank() - 1);
  plan.k = aType.getDimSize(aType.getRank() - 1);
  if (plan.m < 1 || plan.m > kMaxRows || plan.n < 1 || plan.k < 1 ||
      plan.batch < 1)
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
  plan.width = std::max<int64_t>(1, 16 / std::max<int64_t>(bytes, 1));
  while (plan.width > 1 &&
         !allowsVectorAccess(op.getDpsInputs()[1], plan.width))
    plan.width /= 2;
  plan.groups = llvm::divideCeil(plan.n, plan.width);
  plan.tx = std::min(kMaxGroupsPerBlock, plan.groups);
  plan.ky = kThreads / plan.tx;
  plan.tiles = llvm::divideCeil(plan.groups, plan.tx);
  plan.rows = kMaxRowsPerThread;
  auto chunksFor = [&](int64_t rows) {
    return llvm::divideCeil(plan.k, plan.ky * rows);
  };
  while (plan.rows > 1 &&
         plan.tiles * chunksFor(plan.rows) * plan.batch < kMinBlocks)
    plan.rows /= 2;
  plan.chunks = chunksFor(plan.rows);
  return plan;
}

class ProductSplitter {
public:
  ProductSplitter(linalg::LinalgOp op, const Plan &plan,
                  memref::GlobalOp counters)
      : op(op), plan(plan), counters(counters), b(op), loc(op.getLoc()) {}
  void run();

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
  void emitKernel(Value partials, bool accumulate);

  Value getCounters() {
    return memref::GetGlobalOp::create(b, loc, counters.getType(),
                                       counters.getSymName());
  }

  linalg::LinalgOp op;
  const Plan &plan;
  memref::GlobalOp counters;
  OpBuilder b;
  Location loc;
};

void ProductSplitter::emitKernel(Value partials, bool accumulate) {
  Value a = op.getDpsInputs()[0], w = op.getDpsInputs()[1];
  Value out = op.getDpsInits()[0];
  Type f32Type = b.getF32Type();
  auto space =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto sharedType = MemRefType::get({plan.ky, plan.m, plan.tx * plan.width},
                                    f32Type, nullptr, space);
  auto flagType = MemRefType::get({1}, b.getI32Type(), nullptr, space);
  auto launch = gpu::LaunchOp::create(
      b, loc, cst(plan.tiles), cst(plan.chunks), cst(plan.batch), cst(plan.tx),
      cst(plan.ky), cst(1), /*dynamicSharedMemorySize=*/nullptr,
      /*asyncTokenType=*/nullptr, ValueRange(),
      TypeRange{sharedType, flagType});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value shared = launch.getWorkgroupAttributions()[0];
  Value flag = launch.getWorkgroupAttributions()[1];
  // Taken inside the kernel: the counts live in the GPU module (outlining
  // copies the global there).
  Value counters = getCounters();
  Value tx = launch.getThreadIds().x, ky = launch.getThreadIds().y;
  Value tile = launch.getBlockIds().x, chunk = launch.getBlockIds().y;
  Value bt = launch.getBlockIds().z;

  // This thread's columns (clamped: a thread past the last group reads the
  // last one and stores nothing).
  Value group = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, tile, cst(plan.tx)), tx);
  Value readGroup =
      arith::MinUIOp::create(b, loc, group, cst(plan.groups - 1));
  Value column = arith::MulIOp::create(b, loc, readGroup, cst(plan.width));
  Value firstRow = arith::MulIOp::create(
      b, loc,
      arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, chunk, cst(plan.ky)), ky),
      cst(plan.rows));
  bool ragged = plan.k % (plan.ky * plan.rows) != 0;
  auto vectorType = VectorType::get({plan.width}, f32Type);
  auto wVectorType = VectorType::get(
      {plan.width}, cast<MemRefType>(w.getType()).getElementType());
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(vectorType));
  SmallVector<Value> sums(plan.m, zero);
  int64_t wBytes = mlx::getElementBytes(wVectorType.getElementType());
  for (int64_t r = 0; r < plan.rows; ++r) {
    Value row = arith::AddIOp::create(b, loc, firstRow, cst(r));
    Value readRow =
        ragged ? arith::MinUIOp::create(b, loc, row, cst(plan.k - 1)).getResult()
               : row;
    Value wRow = vector::LoadOp::create(
        b, loc, wVectorType, w, at(w, bt, readRow, column),
        /*nontemporal=*/false, llvm::MaybeAlign(wBytes * plan.width));
    if (wVectorType.getElementType() != f32Type)
      wRow = arith::ExtFOp::create(b, loc, vectorType, wRow);
    if (ragged) {
      Value inside =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row,
                                cst(plan.k));
      wRow = arith::SelectOp::create(b, loc, inside, wRow, zero);
    }
    for (int64_t m = 0; m < plan.m; ++m) {
      Value aValue =
          f32(memref::LoadOp::create(b, loc, a, at(a, bt, cst(m), readRow)));
      Value splat = vector::BroadcastOp::create(b, loc, vectorType, aValue);
      sums[m] = arith::AddFOp::create(
          b, loc, sums[m], arith::MulFOp::create(b, loc, splat, wRow));
    }
  }
  // The block's k slices merge in shared memory.
  Value slot = arith::MulIOp::create(b, loc, tx, cst(plan.width));
  for (int64_t m = 0; m < plan.m; ++m)
    vector::StoreOp::create(b, loc, sums[m], shared,
                            ValueRange{ky, cst(m), slot});
  gpu::BarrierOp::create(b, loc);
  Value thread = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, ky, cst(plan.tx)), tx);
  int64_t blockColumns = plan.tx * plan.width;
  int64_t outputs = plan.m * blockColumns;
  // tx * ky may fall short of kThreads (25 groups: 250 threads).
  for (int64_t first = 0; first < outputs; first += plan.tx * plan.ky) {
    Value o = arith::AddIOp::create(b, loc, thread, cst(first));
    Value m = arith::DivUIOp::create(b, loc, o, cst(blockColumns));
    Value c = arith::RemUIOp::create(b, loc, o, cst(blockColumns));
    Value outColumn = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, tile, cst(blockColumns)), c);
    Value valid = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, o,
                              cst(outputs)),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, outColumn,
                              cst(plan.n)));
    scf::IfOp::create(b, loc, valid, [&](OpBuilder &then, Location l) {
      Value total = arith::ConstantOp::create(then, l, then.getF32FloatAttr(0));
      auto loop = scf::ForOp::create(
          then, l, cst(0), cst(plan.ky), cst(1), ValueRange{total},
          [&](OpBuilder &body, Location bl, Value y, ValueRange acc) {
            Value part = memref::LoadOp::create(body, bl, shared,
                                                ValueRange{y, m, c});
            scf::YieldOp::create(
                body, bl,
                ValueRange{arith::AddFOp::create(body, bl, acc[0], part)});
          });
      memref::StoreOp::create(then, l, loop.getResult(0), partials,
                              ValueRange{chunk, bt, m, outColumn});
      scf::YieldOp::create(then, l);
    });
  }

  // The block's sums are visible device-wide before it is counted; the
  // block that counts last for its tile adds up all chunks.
  NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
  gpu::BarrierOp::create(b, loc);
  Value isThread0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread, cst(0));
  scf::IfOp::create(b, loc, isThread0, [&](OpBuilder &then, Location l) {
    Value slotIndex = arith::AddIOp::create(
        then, l, arith::MulIOp::create(then, l, bt, cst(plan.tiles)), tile);
    Value one = arith::ConstantIntOp::create(then, l, 1, 32);
    Value before = memref::AtomicRMWOp::create(
        then, l, arith::AtomicRMWKind::addi, one, counters,
        ValueRange{slotIndex});
    Value last = arith::CmpIOp::create(
        then, l, arith::CmpIPredicate::eq, before,
        arith::ConstantIntOp::create(then, l, plan.chunks - 1, 32));
    Value lastBits = arith::ExtUIOp::create(then, l, then.getI32Type(), last);
    memref::StoreOp::create(then, l, lastBits, flag, ValueRange{cst(0)});
    // Every chunk has counted: the count starts over for the next launch.
    scf::IfOp::create(then, l, last, [&](OpBuilder &reset, Location rl) {
      memref::StoreOp::create(
          reset, rl, arith::ConstantIntOp::create(reset, rl, 0, 32), counters,
          ValueRange{slotIndex});
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
    for (int64_t first = 0; first < outputs; first += plan.tx * plan.ky) {
      Value o = arith::AddIOp::create(b, l, thread, cst(first));
      Value m = arith::DivUIOp::create(b, l, o, cst(blockColumns));
      Value c = arith::RemUIOp::create(b, l, o, cst(blockColumns));
      Value outColumn = arith::AddIOp::create(
          b, l, arith::MulIOp::create(b, l, tile, cst(blockColumns)), c);
      Value valid = arith::AndIOp::create(
          b, l,
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, o,
                                cst(outputs)),
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, outColumn,
                                cst(plan.n)));
      scf::IfOp::create(b, l, valid, [&](OpBuilder &store, Location sl) {
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPoint(store.getInsertionBlock(),
                            store.getInsertionPoint());
        // The chunks' sums in chunk order, with independent loads.
        Value total;
        for (int64_t s = 0; s < plan.chunks; ++s) {
          Value part = memref::LoadOp::create(
              b, sl, partials, ValueRange{cst(s), bt, m, outColumn});
          total = total ? arith::AddFOp::create(b, sl, total, part).getResult()
                        : part;
        }
        SmallVector<Value> indices = at(out, bt, m, outColumn);
        if (accumulate)
          total = arith::AddFOp::create(
              b, sl, f32(memref::LoadOp::create(b, sl, out, indices)), total);
        if (element != b.getF32Type())
          total = arith::TruncFOp::create(b, sl, element, total);
        memref::StoreOp::create(b, sl, total, out, indices);
        scf::YieldOp::create(b, sl);
      });
    }
    scf::YieldOp::create(b, l);
  });
  gpu::TerminatorOp::create(b, loc);
}

void ProductSplitter::run() {
  Value c = op.getDpsInits()[0];
  // A zero fill right before the product (views and constants between)
  // is what the combine does without reading the output.
  Operation *prev = op->getPrevNode();
  while (prev && isPure(prev))
    prev = prev->getPrevNode();
  bool dropFill = isZeroFillOf(prev, c);
  auto partialsType = MemRefType::get(
      {plan.chunks, plan.batch, plan.m, plan.n}, b.getF32Type());
  Value partials = memref::AllocOp::create(b, loc, partialsType);
  emitKernel(partials, /*accumulate=*/!dropFill);
  memref::DeallocOp::create(b, loc, partials);
  if (dropFill)
    prev->erase();
  op->erase();
}

struct MlxcSplitVectorProductsPass final
    : mlx::impl::MlxcSplitVectorProductsBase<MlxcSplitVectorProductsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, Plan>> products;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
        return;
      if (std::optional<Plan> plan = planProduct(op))
        products.push_back({op, *plan});
    });
    if (products.empty())
      return;
    // One count per column tile and batch, shared by all the products (they
    // run one after another, and each leaves its counts at zero).
    int64_t slots = 1;
    for (auto &[op, plan] : products)
      slots = std::max(slots, plan.batch * plan.tiles);
    ModuleOp module = getOperation();
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    auto type = MemRefType::get({slots}, builder.getI32Type());
    auto counters = memref::GlobalOp::create(
        builder, module.getLoc(), "mlxc_split_product_counts",
        builder.getStringAttr("private"), type,
        DenseElementsAttr::get(RankedTensorType::get({slots},
                                                     builder.getI32Type()),
                               builder.getI32IntegerAttr(0)),
        /*constant=*/false, /*alignment=*/nullptr);
    SymbolTable(module).insert(counters);
    for (auto &[op, plan] : products)
      ProductSplitter(op, plan, counters).run();
  }
};

} // namespace
