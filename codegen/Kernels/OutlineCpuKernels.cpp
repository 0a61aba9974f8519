//===- OutlineCpuKernels.cpp - the mlxc-outline-cpu-kernels pass ----------===//
//
// On the CPU a kernel region becomes a function of its own, called from the
// graph: LLVM then optimizes many small functions instead of one function
// that holds every loop nest of the model (its optimization time grows
// faster than linearly with the function), and `mlxc-dedup-kernels` can
// share one function among the model's equal layers.
//
// Runs on memrefs, before the linalg ops become loops. The ops of one
// kernel (`kernel.id`, set by mlxc-inline-kernels; an untagged linalg op is
// a kernel of its own) move into a private function at the place of the
// last of them. Its parameters are the buffers the ops use, each traced back
// through its views to the allocation or argument it views (the views are
// rebuilt inside, so layers that view different buffers the same way get
// equal functions), and the scalars defined outside; constants are cloned.
// The ops of a kernel move past the ops between them only when those touch
// no memory; otherwise the kernel is split there. A kernel whose buffers
// have no static layout stays where it is.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "Mlx/MlxAttributes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCOUTLINECPUKERNELS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

/// The kernel an op belongs to: its `kernel.id`, or a fresh one for an
/// untagged linalg op; nullopt for ops that stay in the graph.
static std::optional<int64_t> kernelOf(Operation *op, int64_t &nextUntagged) {
  if (op->getNumResults() != 0)
    return std::nullopt;
  if (auto id = op->getAttrOfType<IntegerAttr>(kernel::kKernelIdAttr))
    return id.getInt();
  if (isa<linalg::LinalgOp>(op))
    return nextUntagged--;
  return std::nullopt;
}

/// Whether `op` may stay in front of a kernel whose ops move past it.
static bool touchesNoMemory(Operation *op) {
  if (isa<memref::AllocOp, memref::AllocaOp>(op))
    return true;
  return isMemoryEffectFree(op);
}

/// A layout the bare-pointer calling convention can pass.
static bool hasStaticLayout(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape())
    return false;
  int64_t offset;
  SmallVector<int64_t> strides;
  if (failed(memref.getStridesAndOffset(strides, offset)))
    return false;
  return ShapedType::isStatic(offset) &&
         llvm::all_of(strides, ShapedType::isStatic);
}

/// The word for one op of a kernel in its name, or "" for ops that say
/// nothing of what it computes (casts, constants, views, terminators).
static std::string wordFor(Operation *op) {
  StringRef dialect = op->getName().getDialectNamespace();
  StringRef name = op->getName().stripDialect();
  if (dialect == "linalg") {
    // A generic op is its body (and a reduction); other named ops are
    // their names. Fills and copies only set up the others.
    if (isa<linalg::YieldOp, linalg::IndexOp, linalg::FillOp, linalg::CopyOp,
            linalg::GenericOp>(op))
      return "";
    return name.str();
  }
  if (dialect != "arith" && dialect != "math")
    return "";
  if (op->hasTrait<OpTrait::ConstantLike>() || isa<CastOpInterface>(op))
    return "";
  // arith's type suffixes (addf, addi, divsi, maximumf) and signedness say
  // nothing of what is computed.
  static const std::pair<StringRef, StringRef> Renamed[] = {
      {"addf", "add"},    {"addi", "add"},     {"subf", "sub"},
      {"subi", "sub"},    {"mulf", "mul"},     {"muli", "mul"},
      {"divf", "div"},    {"divsi", "div"},    {"divui", "div"},
      {"remf", "rem"},    {"remsi", "rem"},    {"remui", "rem"},
      {"negf", "neg"},    {"maximumf", "max"}, {"maxnumf", "max"},
      {"maxsi", "max"},   {"maxui", "max"},    {"minimumf", "min"},
      {"minnumf", "min"}, {"minsi", "min"},    {"minui", "min"},
      {"cmpf", "cmp"},    {"cmpi", "cmp"},     {"andi", "and"},
      {"ori", "or"},      {"xori", "xor"},     {"shli", "shl"},
      {"shrsi", "shr"},   {"shrui", "shr"},    {"absf", "abs"},
      {"absi", "abs"}};
  for (auto [from, to] : Renamed)
    if (name == from)
      return to.str();
  return name.str();
}

/// A short name for what `ops` compute, for the kernel's symbol (a profile
/// then says `mlxc_k_matmul_add_tanh_<hash>`, not a bare hash): the
/// distinct words of its ops in order, at most four, `reduce` for a
/// reduction; a kernel of fills or copies alone is `fill` or `copy`.
static std::string describeKernel(ArrayRef<Operation *> ops) {
  enum { MaxWords = 4 };
  SmallVector<std::string> words;
  std::string fallback = "kernel";
  auto add = [&](std::string word) {
    if (!word.empty() && words.size() < MaxWords &&
        !llvm::is_contained(words, word))
      words.push_back(std::move(word));
  };
  for (Operation *root : ops)
    root->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
        if (generic.getNumReductionLoops())
          add("reduce");
        return WalkResult::advance();
      }
      if (isa<linalg::FillOp, linalg::CopyOp>(op) && fallback == "kernel")
        fallback = op->getName().stripDialect().str();
      add(wordFor(op));
      // A named op's body (a product's multiply-add) is its name.
      return isa<linalg::LinalgOp>(op) ? WalkResult::skip()
                                       : WalkResult::advance();
    });
  if (words.empty())
    return fallback;
  std::string text = llvm::join(words, "_");
  for (char &c : text)
    if (!llvm::isAlnum(c))
      c = '_';
  return text;
}

namespace {
/// What a kernel's function takes and rebuilds.
struct Interface {
  llvm::SetVector<Value> params;
  llvm::SetVector<Operation *> cloned; // constants and views, in def order
};
} // namespace

/// Adds the value `v`, used by the kernel, to `iface`; false when it cannot
/// be passed.
static bool addUse(Value v, Interface &iface) {
  Operation *def = v.getDefiningOp();
  if (def && def->hasTrait<OpTrait::ConstantLike>() &&
      def->getNumOperands() == 0) {
    iface.cloned.insert(def);
    return true;
  }
  if (isa<BaseMemRefType>(v.getType())) {
    if (auto view = dyn_cast_if_present<ViewLikeOpInterface>(def);
        view && def->getNumResults() == 1 && def->getNumRegions() == 0) {
      for (Value operand : def->getOperands())
        if (!addUse(operand, iface))
          return false;
      iface.cloned.insert(def);
      return true;
    }
    if (!hasStaticLayout(v.getType()))
      return false;
  }
  iface.params.insert(v);
  return true;
}

/// Moves `ops` (one kernel, in order, in one block) into a new private
/// function called where the last of them was. Leaves them alone when a
/// buffer cannot be passed.
static void outline(ArrayRef<Operation *> ops, func::FuncOp parent,
                    SymbolTable &symbols) {
  Interface iface;
  llvm::SmallPtrSet<Operation *, 8> inKernel(ops.begin(), ops.end());
  for (Operation *op : ops) {
    for (Value operand : op->getOperands())
      if (!addUse(operand, iface))
        return;
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    for (Value v : captured) {
      Operation *def = v.getDefiningOp();
      if (def && inKernel.contains(def))
        continue;
      if (!addUse(v, iface))
        return;
    }
  }
  Builder b(parent.getContext());
  SmallVector<Type> types;
  for (Value v : iface.params)
    types.push_back(v.getType());
  auto func = func::FuncOp::create(ops.back()->getLoc(),
                                   (parent.getSymName() + "_kernel").str(),
                                   b.getFunctionType(types, {}));
  func.setPrivate();
  func->setAttr(mlx::attrs::kCpuKernel, b.getUnitAttr());
  // What it computes: named in its symbol once it is compiled apart.
  func->setAttr(mlx::attrs::kKernelName, b.getStringAttr(describeKernel(ops)));
  // Local to its object (func-to-llvm makes every function external).
  func->setAttr("llvm.linkage", LLVM::LinkageAttr::get(
                                    b.getContext(), LLVM::Linkage::Internal));
  // Many small functions keep LLVM's work linear: none is inlined back.
  func->setAttr("passthrough", b.getArrayAttr({b.getStringAttr("noinline")}));
  symbols.insert(func, parent->getIterator());

  Block *body = func.addEntryBlock();
  IRMapping mapping;
  for (auto [param, arg] : llvm::zip(iface.params, body->getArguments()))
    mapping.map(param, arg);
  OpBuilder inside = OpBuilder::atBlockBegin(body);
  // Defining ops in program order (they were inserted operands-first).
  for (Operation *op : iface.cloned)
    inside.clone(*op, mapping);
  for (Operation *op : ops) {
    Operation *copy = inside.clone(*op, mapping);
    // The kernel's number differs between equal layers.
    copy->removeAttr(kernel::kKernelIdAttr);
    copy->walk(
        [](Operation *nested) { nested->removeAttr(kernel::kKernelIdAttr); });
  }
  func::ReturnOp::create(inside, ops.back()->getLoc());

  OpBuilder at(ops.back());
  func::CallOp::create(at, ops.back()->getLoc(), func,
                       llvm::to_vector(iface.params));
  for (Operation *op : llvm::reverse(ops))
    op->erase();
}

namespace {
struct MlxcOutlineCpuKernelsPass final
    : mlx::impl::MlxcOutlineCpuKernelsBase<MlxcOutlineCpuKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> graphs;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && !func->hasAttr(mlx::attrs::kCpuKernel))
        graphs.push_back(func);
    for (func::FuncOp graph : graphs)
      for (Block &block : graph.getBody())
        outlineBlock(block, graph, symbols);
  }

  /// One linear walk: the open kernel collects its ops until an op of
  /// another kernel, or one that touches memory, closes it.
  void outlineBlock(Block &block, func::FuncOp graph, SymbolTable &symbols) {
    std::optional<int64_t> open;
    SmallVector<Operation *> ops;
    SmallVector<SmallVector<Operation *>> kernels;
    auto close = [&] {
      if (!ops.empty())
        kernels.push_back(std::move(ops));
      ops.clear();
      open.reset();
    };
    int64_t nextUntagged = -1;
    for (Operation &op : block) {
      std::optional<int64_t> id = kernelOf(&op, nextUntagged);
      if (id && id == open) {
        ops.push_back(&op);
        continue;
      }
      if (!id && touchesNoMemory(&op))
        continue;
      close();
      if (id) {
        open = id;
        ops.push_back(&op);
      }
    }
    close();
    for (ArrayRef<Operation *> kernel : kernels)
      outline(kernel, graph, symbols);
  }
};
} // namespace
