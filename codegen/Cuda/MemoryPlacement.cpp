//===- MemoryPlacement.cpp - the mlx-memory-placement pass ----------------===//
//
// Decides where each buffer of a GPU graph lives, packs buffers with
// disjoint lifetimes into static arenas, and inserts the prefetches that keep
// kernels from faulting on unified memory. See codegen/Passes.td for the
// contract.
//
//===----------------------------------------------------------------------===//

#include "Mlx/MlxAttributes.h"
#include "codegen/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"

// mlxrt_prefetch's placements.
#include "runtime/mlxrt_abi.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXMEMORYPLACEMENT
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

static constexpr StringLiteral kPrefetchFn = MLXRT_PREFETCH_SYMBOL;

namespace {

enum class Access { None = 0, Device = 1, Host = 2, Both = 3 };

Access operator|(Access a, Access b) {
  return static_cast<Access>(static_cast<int>(a) | static_cast<int>(b));
}

/// How a buffer is used: the top-level ops that touch it (directly or
/// through views) and whether each touch is a kernel or host code.
struct BufferUses {
  llvm::MapVector<Operation *, Access> byOp;
  Access all = Access::None;
  unsigned first = ~0u, last = 0;
};

/// A buffer that goes into an arena.
struct ArenaBuffer {
  memref::AllocOp alloc;
  int64_t bytes;
  unsigned first, last;
  bool device;
  int64_t offset = 0;
};

struct MlxMemoryPlacementPass final
    : mlx::impl::MlxMemoryPlacementBase<MlxMemoryPlacementPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// Bytes of a statically shaped buffer (bool is stored as one byte).
static std::optional<int64_t> getByteSize(MemRefType type) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return std::nullopt;
  Type element = type.getElementType();
  if (!element.isIntOrFloat())
    return std::nullopt;
  int64_t bytes = std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
  return bytes * type.getNumElements();
}

/// The call that consumes the address `op` extracts (through integer
/// arithmetic on it, or a host array of addresses that the call is given:
/// mlxrt_matmul's grouped products), or `op` itself.
static Operation *getPointerConsumer(Operation *op) {
  Operation *current = op;
  while (current->getNumResults() == 1) {
    Operation *next = nullptr;
    for (Operation *user : current->getResult(0).getUsers())
      if (user->getBlock() == current->getBlock() &&
          (!next || user->isBeforeInBlock(next)))
        next = user;
    if (!next)
      break;
    current = next;
    if (isa<func::CallOp>(current))
      return current;
  }
  auto store = dyn_cast<memref::StoreOp>(current);
  if (store && store.getValue() != store.getMemRef() &&
      store.getMemRef().getDefiningOp<memref::AllocaOp>())
    for (Operation *user : store.getMemRef().getUsers())
      if (isa<memref::ExtractAlignedPointerAsIndexOp>(user))
        if (Operation *call = getPointerConsumer(user); isa<func::CallOp>(call))
          return call;
  return op;
}

/// Collects the uses of `root` in `body`, following view-like ops.
static BufferUses collectUses(Value root, Block &body,
                              const DenseMap<Operation *, unsigned> &order) {
  BufferUses uses;
  SmallVector<Value> worklist = {root};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (isa<memref::DeallocOp, gpu::DeallocOp>(user) ||
          user->hasAttr(mlx::attrs::kAddressOnly))
        continue;
      // memref.transpose is a view too (of a matrix a product reads).
      if (isa<memref::TransposeOp>(user)) {
        worklist.push_back(user->getResult(0));
        continue;
      }
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == value) {
        for (Value result : user->getResults())
          worklist.push_back(result);
        continue;
      }
      // Runtime calls that enqueue GPU work (mlxrt_matmul) take pointers
      // that mlxc-matmul-to-runtime marks; the buffer is in use until the
      // call, not just where its address is taken.
      bool deviceCall = user->hasAttr(mlx::attrs::kDeviceAccess);
      if (deviceCall)
        user = getPointerConsumer(user);
      Operation *top = body.findAncestorOpInBlock(*user);
      if (!top)
        continue;
      Access kind = isa<gpu::LaunchFuncOp>(user) || deviceCall ? Access::Device
                                                               : Access::Host;
      uses.byOp[top] = uses.byOp.lookup(top) | kind;
      uses.all = uses.all | kind;
      unsigned position = order.lookup(top);
      uses.first = std::min(uses.first, position);
      uses.last = std::max(uses.last, position);
    }
  }
  return uses;
}

/// Packs buffers into an arena: largest first, each at the lowest aligned
/// offset clear of every placed buffer whose lifetime overlaps. Returns the
/// arena size.
static int64_t packArena(MutableArrayRef<ArenaBuffer *> buffers,
                         int64_t alignment) {
  llvm::stable_sort(buffers, [](ArenaBuffer *a, ArenaBuffer *b) {
    return a->bytes > b->bytes;
  });
  int64_t size = 0;
  SmallVector<ArenaBuffer *> placed;
  for (ArenaBuffer *buffer : buffers) {
    SmallVector<std::pair<int64_t, int64_t>> taken;
    for (ArenaBuffer *other : placed)
      if (other->first <= buffer->last && buffer->first <= other->last)
        taken.push_back({other->offset, other->offset + other->bytes});
    llvm::sort(taken);
    int64_t offset = 0;
    for (auto [lo, hi] : taken) {
      if (offset + buffer->bytes <= lo)
        break;
      offset = std::max<int64_t>(offset, llvm::alignTo(hi, alignment));
    }
    buffer->offset = offset;
    size = std::max<int64_t>(size, offset + buffer->bytes);
    placed.push_back(buffer);
  }
  return llvm::alignTo(size, alignment);
}

/// Where `mlxrt_prefetch` puts a unified buffer (the runtime's numbers).
enum class Placement : int32_t {
  Host = MLXRT_PLACE_HOST,     ///< Migrate to the host.
  Device = MLXRT_PLACE_DEVICE, ///< Migrate to the device.
  /// Place on the device; the old contents are dead.
  DeviceDiscard = MLXRT_PLACE_DEVICE_DISCARD,
  Stream = MLXRT_PLACE_STREAM, ///< Keep in host memory, mapped for the device.
};

/// Declares `void mlxrt_prefetch(i64 ptr, i64 bytes, i32 placement)`.
static func::FuncOp getPrefetchFunction(ModuleOp module) {
  if (auto fn = module.lookupSymbol<func::FuncOp>(kPrefetchFn))
    return fn;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto type =
      b.getFunctionType({b.getI64Type(), b.getI64Type(), b.getI32Type()}, {});
  auto fn = func::FuncOp::create(b, module.getLoc(), kPrefetchFn, type);
  fn.setPrivate();
  return fn;
}

static void emitPrefetch(OpBuilder &b, Location loc, func::FuncOp fn,
                         Value buffer, int64_t bytes, Placement placement) {
  Value pointer =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  Value pointer64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), pointer);
  Value size = arith::ConstantIntOp::create(b, loc, bytes, 64);
  Value where =
      arith::ConstantIntOp::create(b, loc, static_cast<int32_t>(placement), 32);
  func::CallOp::create(b, loc, fn, ValueRange{pointer64, size, where});
}

/// Whether every thread of the launched kernel makes a bounded number of
/// accesses: no loop in its body (elementwise and layout kernels). Data such
/// a kernel alone touches is streamed once, so reaching it in host memory
/// costs one transfer, the same as migrating it first.
static bool isLoopFreeKernel(gpu::LaunchFuncOp launch) {
  auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
      launch, launch.getKernel());
  if (!kernel)
    return false;
  return !kernel
              .walk([](LoopLikeOpInterface) { return WalkResult::interrupt(); })
              .wasInterrupted();
}

void MlxMemoryPlacementPass::runOnOperation() {
  func::FuncOp func = getOperation();
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return;
  if (alignment < 1 || !llvm::isPowerOf2_64(alignment)) {
    func.emitError() << "alignment must be a power of two, got "
                     << static_cast<int64_t>(alignment);
    return signalPassFailure();
  }
  Block &body = func.getBody().front();
  DenseMap<Operation *, unsigned> order;
  for (auto [i, op] : llvm::enumerate(body))
    order[&op] = i;

  // Placement and lifetimes of the allocations.
  SmallVector<ArenaBuffer> buffers;
  bool otherAllocs = false; // Buffers this pass cannot follow.
  for (auto alloc : body.getOps<memref::AllocOp>()) {
    std::optional<int64_t> bytes = getByteSize(alloc.getType());
    if (!bytes) {
      otherAllocs = true;
      continue;
    }
    BufferUses uses = collectUses(alloc, body, order);
    // Bufferization hoists allocations; a lifetime starts at the first use.
    unsigned first = uses.byOp.empty() ? order.lookup(alloc) : uses.first;
    unsigned last = uses.byOp.empty() ? first : uses.last;
    bool device = uses.all == Access::Device || uses.all == Access::None;
    buffers.push_back({alloc, *bytes, first, last, device});
  }
  // Constants that kernels read are host globals: each gets a device copy,
  // made at the start of the function.
  SmallVector<std::pair<memref::GetGlobalOp, size_t>> deviceConstants;
  for (auto global : body.getOps<memref::GetGlobalOp>()) {
    std::optional<int64_t> bytes = getByteSize(global.getType());
    BufferUses uses = collectUses(global, body, order);
    if (!bytes || uses.all != Access::Device)
      continue;
    deviceConstants.push_back({global, buffers.size()});
    buffers.push_back({memref::AllocOp(), *bytes, 0,
                       static_cast<unsigned>(body.getOperations().size()),
                       /*device=*/true});
  }
  // Capturable into a CUDA graph: host code reads or writes no buffer, so
  // replaying the device work alone reproduces the program.
  bool capturable = !otherAllocs;
  for (ArenaBuffer &buffer : buffers)
    capturable &= buffer.device;
  for (BlockArgument arg : func.getArguments())
    if (isa<MemRefType>(arg.getType()))
      capturable &= !(static_cast<int>(collectUses(arg, body, order).all) &
                      static_cast<int>(Access::Host));
  int64_t unreused = 0;
  SmallVector<ArenaBuffer *> deviceBuffers, unifiedBuffers;
  for (ArenaBuffer &buffer : buffers) {
    unreused += llvm::alignTo(buffer.bytes, alignment);
    (buffer.device ? deviceBuffers : unifiedBuffers).push_back(&buffer);
  }
  int64_t deviceBytes = packArena(deviceBuffers, alignment);
  int64_t unifiedBytes = packArena(unifiedBuffers, alignment);

  OpBuilder b(&getContext());
  Location loc = func.getLoc();
  b.setInsertionPointToStart(&body);
  auto arenaType = [&](int64_t bytes) {
    return MemRefType::get({bytes}, b.getI8Type());
  };
  Value deviceArena, unifiedArena;
  // gpu-to-llvm lowers only the async forms of gpu.alloc/dealloc; each is
  // waited for at once.
  auto tokenType = gpu::AsyncTokenType::get(&getContext());
  if (deviceBytes > 0) {
    Value ready =
        gpu::WaitOp::create(b, loc, tokenType, ValueRange{}).getAsyncToken();
    auto alloc =
        gpu::AllocOp::create(b, loc, arenaType(deviceBytes), tokenType,
                             ValueRange{ready}, ValueRange{}, ValueRange{});
    gpu::WaitOp::create(b, loc, Type(), ValueRange{alloc.getAsyncToken()});
    deviceArena = alloc.getMemref();
  }
  if (unifiedBytes > 0)
    unifiedArena = memref::AllocOp::create(b, loc, arenaType(unifiedBytes));

  // Constants: a view of the device arena filled from the global; kernels
  // read the copy, host code keeps reading the global.
  for (auto [global, index] : deviceConstants) {
    // The arena is allocated at the top of the function, before any global.
    b.setInsertionPointAfter(global);
    Value offset =
        arith::ConstantIndexOp::create(b, loc, buffers[index].offset);
    Value view = memref::ViewOp::create(b, global.getLoc(), global.getType(),
                                        deviceArena, offset, ValueRange{});
    Value ready =
        gpu::WaitOp::create(b, loc, tokenType, ValueRange{}).getAsyncToken();
    auto copy = gpu::MemcpyOp::create(b, loc, tokenType, ValueRange{ready},
                                      view, global);
    gpu::WaitOp::create(b, loc, Type(), ValueRange{copy.getAsyncToken()});
    global.getResult().replaceAllUsesExcept(view, copy);
  }

  // Every buffer becomes a view of its arena.
  for (ArenaBuffer &buffer : buffers) {
    if (!buffer.alloc)
      continue;
    b.setInsertionPoint(buffer.alloc);
    Value offset = arith::ConstantIndexOp::create(b, loc, buffer.offset);
    Value view = memref::ViewOp::create(
        b, buffer.alloc.getLoc(), buffer.alloc.getType(),
        buffer.device ? deviceArena : unifiedArena, offset, ValueRange{});
    for (Operation *user : llvm::make_early_inc_range(buffer.alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        user->erase();
    buffer.alloc.replaceAllUsesWith(view);
    buffer.alloc.erase();
  }

  // Prefetches of unified buffers: the arguments and the unified arena.
  func::FuncOp prefetchFn;
  auto getPrefetch = [&] {
    if (!prefetchFn)
      prefetchFn = getPrefetchFunction(func->getParentOfType<ModuleOp>());
    return prefetchFn;
  };
  DenseMap<Operation *, unsigned> newOrder;
  for (auto [i, op] : llvm::enumerate(body))
    newOrder[&op] = i;
  struct Tracked {
    Value buffer;
    int64_t bytes;
    bool isOutput;
  };
  SmallVector<Tracked> tracked;
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    std::optional<int64_t> bytes = type ? getByteSize(type) : std::nullopt;
    if (!bytes)
      continue;
    bool isOutput = static_cast<bool>(
        func.getArgAttr(arg.getArgNumber(), "bufferize.result"));
    tracked.push_back({arg, *bytes, isOutput});
  }
  if (unifiedArena)
    tracked.push_back({unifiedArena, unifiedBytes, false});
  if (!prefetch)
    tracked.clear();
  int prefetches = 0, streamed = 0;
  for (const Tracked &t : tracked) {
    BufferUses uses = collectUses(t.buffer, body, newOrder);
    // Walk the uses in program order (use lists are in no particular order).
    SmallVector<std::pair<Operation *, Access>> inOrder(uses.byOp.begin(),
                                                        uses.byOp.end());
    llvm::sort(inOrder, [&](const auto &a, const auto &b) {
      return newOrder.lookup(a.first) < newOrder.lookup(b.first);
    });
    // An argument only one loop-free kernel touches stays in host memory.
    if (streamIO && isa<BlockArgument>(t.buffer) && inOrder.size() == 1 &&
        inOrder.front().second == Access::Device) {
      auto launch = dyn_cast<gpu::LaunchFuncOp>(inOrder.front().first);
      if (launch && isLoopFreeKernel(launch)) {
        b.setInsertionPoint(launch);
        emitPrefetch(b, launch.getLoc(), getPrefetch(), t.buffer, t.bytes,
                     Placement::Stream);
        ++prefetches;
        ++streamed;
        continue;
      }
    }
    bool onDevice = false;      // the host wrote inputs; outputs start anywhere
    bool written = !t.isOutput; // an output's contents are dead at first
    for (auto [op, access] : inOrder) {
      bool wantsDevice = access == Access::Device;
      if (wantsDevice != onDevice) {
        b.setInsertionPoint(op);
        emitPrefetch(b, op->getLoc(), getPrefetch(), t.buffer, t.bytes,
                     !wantsDevice ? Placement::Host
                     : written    ? Placement::Device
                                  : Placement::DeviceDiscard);
        ++prefetches;
        onDevice = wantsDevice;
      }
      written = true;
    }
    if (t.isOutput && onDevice) {
      for (auto ret : llvm::to_vector(body.getOps<func::ReturnOp>())) {
        b.setInsertionPoint(ret);
        emitPrefetch(b, ret.getLoc(), getPrefetch(), t.buffer, t.bytes,
                     Placement::Host);
        ++prefetches;
      }
    }
  }

  // The arenas end with the function.
  for (auto ret : llvm::to_vector(body.getOps<func::ReturnOp>())) {
    b.setInsertionPoint(ret);
    if (deviceArena) {
      Value ready =
          gpu::WaitOp::create(b, loc, tokenType, ValueRange{}).getAsyncToken();
      auto dealloc = gpu::DeallocOp::create(b, loc, tokenType,
                                            ValueRange{ready}, deviceArena);
      gpu::WaitOp::create(b, loc, Type(), ValueRange{dealloc.getAsyncToken()});
    }
    if (unifiedArena)
      memref::DeallocOp::create(b, loc, unifiedArena);
  }
  // The out-parameter marks were only for this pass.
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    func.removeArgAttr(i, "bufferize.result");
  func->setAttr(mlx::attrs::kDeviceArenaBytes, b.getI64IntegerAttr(deviceBytes));
  func->setAttr(mlx::attrs::kUnifiedArenaBytes, b.getI64IntegerAttr(unifiedBytes));
  func->setAttr(mlx::attrs::kUnreusedBytes, b.getI64IntegerAttr(unreused));
  func->setAttr(mlx::attrs::kPrefetches, b.getI64IntegerAttr(prefetches));
  func->setAttr(mlx::attrs::kStreamedBuffers, b.getI64IntegerAttr(streamed));
  if (capturable)
    func->setAttr(mlx::attrs::kCapturable, b.getUnitAttr());
}
