//===- MergeLaunches.cpp - the mlxc-merge-launches pass -------------------===//
//
// A decode step runs many small kernels that do not depend on each other
// (its mask, the rotation of q, the writes of k and v into their caches):
// each costs a launch and a ramp of its own, longer than its work. Here
// such launches become one: the merged grid is the members' grids side by
// side, and each block runs the member its index falls in, with its block
// index and grid size as that member saw them. A block takes one member
// whole, so a member's barriers stay among its own threads.
//
// A member is a gpu.launch with a static one-dimensional grid of at most
// kMaxMemberBlocks blocks, the block shape of the others, no shared
// memory, async tokens or gpu.block_id-style ops of its own, and memory
// effects that are all known. The earlier members move down to the last
// one, past the ops between them, when none of those touches what the
// member touches (one writes, and the buffers may alias); the members
// touch nothing in common either, since they run at once.
//
// Buffers alias when they view the same allocation or global, or are
// function arguments of one type: the runtime passes one buffer for two
// arguments only for a donated input and the output that updates it.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/ProductOperands.h"
#include "runtime/mlxrt_abi.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCMERGELAUNCHES
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

namespace {
/// Grids above this stay launches of their own: merging saves a launch,
/// which matters for small kernels only.
constexpr int64_t kMaxMemberBlocks = 1024;

/// A size known at compile time: a constant, or an affine.apply of
/// constants (as convert-parallel-loops-to-gpu leaves grid sizes).
std::optional<int64_t> staticSize(Value value) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return constant;
  auto apply = value.getDefiningOp<affine::AffineApplyOp>();
  if (!apply)
    return std::nullopt;
  SmallVector<Attribute> operands;
  for (Value operand : apply.getMapOperands()) {
    std::optional<int64_t> constant = staticSize(operand);
    if (!constant)
      return std::nullopt;
    operands.push_back(IntegerAttr::get(operand.getType(), *constant));
  }
  SmallVector<Attribute> results;
  if (failed(apply.getAffineMap().constantFold(operands, results)) ||
      results.size() != 1)
    return std::nullopt;
  auto folded = dyn_cast_or_null<IntegerAttr>(results.front());
  if (!folded)
    return std::nullopt;
  return folded.getInt();
}

/// What a buffer views: an allocation, a function argument, a global (by
/// name), or something else (which may alias anything).
struct Root {
  Value value;
  StringAttr global;
};

Root getRoot(Value buffer) {
  Value root = mlx::getRootBuffer(buffer);
  if (auto global = root.getDefiningOp<memref::GetGlobalOp>())
    return {root, global.getNameAttr().getAttr()};
  return {root, nullptr};
}

/// Whether two arguments of a graph function may be one buffer. An input
/// may be passed twice; outputs (out-parameters) are buffers of their own,
/// but an input that an output updates in place (mlxc-plan-in-place-outputs)
/// may be the output's buffer.
bool argumentsMayAlias(BlockArgument a, BlockArgument b) {
  auto func = cast<FunctionOpInterface>(a.getOwner()->getParentOp());
  auto isOutput = [&](BlockArgument arg) {
    return static_cast<bool>(
        func.getArgAttr(arg.getArgNumber(), "bufferize.result"));
  };
  if (isOutput(a) && isOutput(b))
    return false;
  if (!isOutput(a) && !isOutput(b))
    return a.getType() == b.getType();
  return !mlx::isGraphInput(isOutput(a) ? b : a);
}

bool mayAlias(const Root &a, const Root &b) {
  if (a.global || b.global)
    return a.global == b.global;
  if (a.value == b.value)
    return true;
  auto isAllocation = [](Value v) {
    return v.getDefiningOp<memref::AllocOp>() ||
           v.getDefiningOp<memref::AllocaOp>();
  };
  if (isAllocation(a.value) || isAllocation(b.value))
    return false;
  auto argA = dyn_cast<BlockArgument>(a.value);
  auto argB = dyn_cast<BlockArgument>(b.value);
  if (argA && argB && argA.getOwner() == argB.getOwner() &&
      argA.getOwner()->isEntryBlock() &&
      isa<func::FuncOp>(argA.getOwner()->getParentOp()))
    return argumentsMayAlias(argA, argB);
  return true;
}

/// The buffers an op reads and writes (frees and allocations count as
/// writes), traced to their roots; `unknown` when some effect is not
/// known, and then the op conflicts with everything.
struct Effects {
  SmallVector<Root> reads, writes;
  bool unknown = false;
};

Effects getEffects(Operation *op) {
  Effects effects;
  op->walk([&](Operation *nested) {
    // Calls of the runtime's prefetch are hints: they touch no data.
    if (auto call = dyn_cast<func::CallOp>(nested);
        call && call.getCallee() == MLXRT_PREFETCH_SYMBOL)
      return;
    // Barriers, fences and the dependent-launch controls order accesses
    // within the program's stream; they touch no data of their own.
    if (isa<gpu::BarrierOp, NVVM::MembarOp, NVVM::GriddepcontrolOp>(nested))
      return;
    auto iface = dyn_cast<MemoryEffectOpInterface>(nested);
    if (!iface) {
      if (!nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        effects.unknown = true;
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> instances;
    iface.getEffects(instances);
    for (const MemoryEffects::EffectInstance &instance : instances) {
      Value value = instance.getValue();
      if (!value) {
        if (!isa<SideEffects::AutomaticAllocationScopeResource>(
                instance.getResource()))
          effects.unknown = true;
        continue;
      }
      Root root = getRoot(value);
      // Buffers of the op's own (a kernel's shared memory) are no one
      // else's.
      if (!root.global &&
          op->isAncestor(root.value.getParentRegion()->getParentOp()))
        continue;
      if (isa<MemoryEffects::Read>(instance.getEffect()))
        effects.reads.push_back(root);
      else
        effects.writes.push_back(root);
    }
  });
  return effects;
}

bool conflict(const Effects &a, const Effects &b) {
  if (a.unknown || b.unknown)
    return true;
  auto any = [](ArrayRef<Root> xs, ArrayRef<Root> ys) {
    for (const Root &x : xs)
      for (const Root &y : ys)
        if (mayAlias(x, y))
          return true;
    return false;
  };
  return any(a.writes, b.writes) || any(a.writes, b.reads) ||
         any(a.reads, b.writes);
}

/// A launch that may join a merged one, with its grid and effects.
struct Member {
  gpu::LaunchOp launch;
  int64_t blocks;
  Effects effects;
};

std::optional<Member> asMember(gpu::LaunchOp launch) {
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
      launch.getDynamicSharedMemorySize() ||
      !launch.getWorkgroupAttributions().empty() ||
      !launch.getPrivateAttributions().empty() ||
      !launch.getBody().hasOneBlock() || launch.getClusterSizeX())
    return std::nullopt;
  std::optional<int64_t> x = staticSize(launch.getGridSizeX()),
                         y = staticSize(launch.getGridSizeY()),
                         z = staticSize(launch.getGridSizeZ());
  if (!x || *x < 1 || *x > kMaxMemberBlocks || y != 1 || z != 1)
    return std::nullopt;
  for (Value size :
       {launch.getBlockSizeX(), launch.getBlockSizeY(), launch.getBlockSizeZ()})
    if (!staticSize(size))
      return std::nullopt;
  // Ops that read the launch's own indices would see the merged grid.
  bool readsGrid = false;
  launch.getBody().walk([&](Operation *op) {
    if (isa<gpu::BlockIdOp, gpu::GridDimOp, gpu::GlobalIdOp, gpu::ClusterIdOp,
            gpu::ClusterDimOp, gpu::ClusterBlockIdOp>(op))
      readsGrid = true;
  });
  if (readsGrid)
    return std::nullopt;
  Effects effects = getEffects(launch);
  if (effects.unknown)
    return std::nullopt;
  return Member{launch, *x, std::move(effects)};
}

bool sameBlockShape(gpu::LaunchOp a, gpu::LaunchOp b) {
  return staticSize(a.getBlockSizeX()) == staticSize(b.getBlockSizeX()) &&
         staticSize(a.getBlockSizeY()) == staticSize(b.getBlockSizeY()) &&
         staticSize(a.getBlockSizeZ()) == staticSize(b.getBlockSizeZ());
}

/// The effects of the ops of a block, computed once each.
class EffectsCache {
public:
  const Effects &get(Operation *op) {
    auto [it, inserted] = cache.try_emplace(op);
    if (inserted)
      it->second = getEffects(op);
    return it->second;
  }

private:
  DenseMap<Operation *, Effects> cache;
};

/// Whether `member` may move down to `to` (later in its block): nothing
/// between them touches what it touches.
bool canSink(const Member &member, Operation *to,
             const DenseSet<Operation *> &group, EffectsCache &effects) {
  for (Operation *op = member.launch->getNextNode(); op && op != to;
       op = op->getNextNode()) {
    if (group.contains(op) || isMemoryEffectFree(op))
      continue;
    if (conflict(member.effects, effects.get(op)))
      return false;
  }
  return true;
}

/// One launch for `members` (in order), where the last one was.
void merge(ArrayRef<Member> members) {
  gpu::LaunchOp last = members.back().launch;
  OpBuilder b(last);
  SmallVector<Location> locations;
  int64_t total = 0;
  for (const Member &member : members) {
    locations.push_back(member.launch->getLoc());
    total += member.blocks;
  }
  Location loc = b.getFusedLoc(locations);
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value one = index(1);
  auto merged = gpu::LaunchOp::create(b, loc, index(total), one, one,
                                      index(*staticSize(last.getBlockSizeX())),
                                      index(*staticSize(last.getBlockSizeY())),
                                      index(*staticSize(last.getBlockSizeZ())));
  Block &body = merged.getBody().front();
  b.setInsertionPointToStart(&body);
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&body);
  Value blockId = merged.getBlockIds().x;

  // The member's body, with its own block index and grid size.
  auto inlineMember = [&](const Member &member, int64_t offset) {
    gpu::LaunchOp launch = member.launch;
    IRMapping map;
    Value local =
        offset
            ? arith::SubIOp::create(b, loc, blockId, index(offset)).getResult()
            : blockId;
    map.map(launch.getBlockIds().x, local);
    map.map(launch.getGridSize().x, index(member.blocks));
    for (auto [from, to] :
         llvm::zip(launch.getBody().getArguments(), body.getArguments()))
      if (!map.contains(from))
        map.map(from, to);
    for (Operation &op : launch.getBody().front().without_terminator())
      b.clone(op, map);
  };
  // Member i runs in blocks [offset, offset + blocks): an if per member
  // but the last, the next ones in its else.
  int64_t offset = 0;
  for (const Member &member : members.drop_back()) {
    Value inside =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, blockId,
                              index(offset + member.blocks));
    auto branch = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/true);
    b.setInsertionPoint(branch.thenBlock()->getTerminator());
    inlineMember(member, offset);
    b.setInsertionPoint(branch.elseBlock()->getTerminator());
    offset += member.blocks;
  }
  inlineMember(members.back(), offset);
  for (const Member &member : members)
    member.launch->erase();
}

struct MlxcMergeLaunchesPass final
    : mlx::impl::MlxcMergeLaunchesBase<MlxcMergeLaunchesPass> {
  using Base::Base;
  void runOnOperation() override {
    // The blocks that hold launches, each merged on its own.
    SetVector<Block *> blocks;
    getOperation()->walk(
        [&](gpu::LaunchOp launch) { blocks.insert(launch->getBlock()); });
    for (Block *block : blocks)
      mergeIn(*block);
  }

  void mergeIn(Block &block) {
    // Groups are formed in program order: a launch joins the latest group
    // it can (same block shape; every earlier member can move down to it
    // and touches nothing it touches), or starts one.
    SmallVector<SmallVector<Member>> groups;
    EffectsCache effects;
    for (Operation &op : block) {
      auto launch = dyn_cast<gpu::LaunchOp>(&op);
      if (!launch)
        continue;
      std::optional<Member> member = asMember(launch);
      if (!member)
        continue;
      bool joined = false;
      for (SmallVector<Member> &group : llvm::reverse(groups)) {
        if (!sameBlockShape(group.front().launch, launch))
          continue;
        DenseSet<Operation *> members;
        for (const Member &m : group)
          members.insert(m.launch);
        bool fits = llvm::all_of(group, [&](const Member &m) {
          return !conflict(m.effects, member->effects) &&
                 canSink(m, launch, members, effects);
        });
        if (fits) {
          group.push_back(std::move(*member));
          joined = true;
          break;
        }
      }
      if (!joined)
        groups.push_back({std::move(*member)});
    }
    for (SmallVector<Member> &group : groups)
      if (group.size() > 1)
        merge(group);
  }
};
} // namespace
