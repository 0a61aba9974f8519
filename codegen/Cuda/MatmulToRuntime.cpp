//===- MatmulToRuntime.cpp - the mlxc-matmul-to-runtime pass --------------===//
//
// On CUDA, bufferized linalg.batch_matmul / linalg.matmul ops become calls of
// the runtime's mlxrt_matmul (cuBLASLt). Each operand must be a statically
// shaped memref of static strides with one unit-stride matrix dimension
// (row-major, or transposed); anything else keeps the generated kernel, so
// the decision is made here, at compile time.
// A half-precision product added to a residual that dies there (a decoder
// layer's residual connection) accumulates into the residual's buffer,
// which becomes the sum's output: cuBLASLt computes D = A B + C with C = D.
// Products of one input into buffers of their own (q, k and v's
// projections, SwiGLU's gate and up) become one call over arrays of their
// addresses: one cuBLASLt product over all of their tiles, which fills the
// GPU better than each alone.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "Mlx/MlxAttributes.h"
#include "codegen/ProductOperands.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

// The dtype codes and flags of mlxrt_matmul.
#include "runtime/mlxrt.h"
#include "runtime/mlxrt_abi.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCMATMULTORUNTIME
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

static constexpr StringLiteral kMatmulFn = MLXRT_MATMUL_SYMBOL;

// mlxrt_dtype codes and mlxrt_matmul's flags, as the runtime defines them.
enum : int32_t {
  kFloat16 = MLXRT_DTYPE_FLOAT16,
  kBFloat16 = MLXRT_DTYPE_BFLOAT16,
  kFloat32 = MLXRT_DTYPE_FLOAT32,
};
enum : int32_t {
  kTransposeA = MLXRT_MATMUL_TRANSPOSE_A,
  kTransposeB = MLXRT_MATMUL_TRANSPOSE_B,
  kAccumulate = MLXRT_MATMUL_ACCUMULATE,
  kPointerArrays = MLXRT_MATMUL_POINTER_ARRAYS,
};

static std::optional<int32_t> getDtypeCode(Type type) {
  if (type.isF32())
    return kFloat32;
  if (type.isF16())
    return kFloat16;
  if (type.isBF16())
    return kBFloat16;
  return std::nullopt;
}

namespace {
/// One operand as cuBLASLt sees it: rows x cols matrices `batchStride`
/// elements apart, `ld` elements between rows (or between columns when
/// transposed), starting `offset` elements into the buffer.
struct MatrixOperand {
  Value buffer;
  int64_t batchStride = 0, ld = 0, offset = 0;
  bool transposed = false;
};
} // namespace

/// Reads the layout of `value` (batch dims first when `batched`); nullopt
/// when cuBLASLt cannot express it.
static std::optional<MatrixOperand> getOperand(Value value, bool batched,
                                               bool allowTranspose) {
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type || !type.hasStaticShape() || type.getRank() != (batched ? 3 : 2))
    return std::nullopt;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rows = shape[shape.size() - 2], cols = shape.back();
  int64_t rowStride = strides[strides.size() - 2], colStride = strides.back();
  MatrixOperand operand;
  operand.buffer = value;
  operand.offset = offset;
  // A dimension of size one may have any stride (a padded one keeps the
  // row stride: aligned for the library).
  if (colStride == 1 || cols == 1) {
    operand.ld = rows == 1 ? std::max(cols, rowStride) : rowStride;
    if (operand.ld < cols)
      return std::nullopt;
  } else if (allowTranspose && (rowStride == 1 || rows == 1)) {
    operand.transposed = true;
    operand.ld = cols == 1 ? std::max(rows, colStride) : colStride;
    if (operand.ld < rows)
      return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (batched && shape[0] > 1) {
    operand.batchStride = strides[0];
    if (operand.batchStride < 0)
      return std::nullopt;
  }
  return operand;
}

/// cuBLASLt runs its fast kernels only on operands whose start, leading
/// dimension and batch stride are multiples of 16 bytes; otherwise it falls
/// back to slow generic ones (a decode step's attention over 1025 cached
/// keys: gemmSN, 36 us for a 1 MB product on the H200).
static constexpr int64_t kLibraryAlignment = 16;

static bool isLibraryAligned(const MatrixOperand &operand, Type element) {
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  return (operand.ld * bytes) % kLibraryAlignment == 0 &&
         (operand.batchStride * bytes) % kLibraryAlignment == 0 &&
         (operand.offset * bytes) % kLibraryAlignment == 0;
}

/// Pads the innermost dimension of the allocation behind `operand` (through
/// reshapes) to a multiple of 16 bytes, so that rows start aligned: the
/// allocation becomes a larger one seen through a subview, and every reshape
/// and every op using it is rebuilt on that view. Only for a local buffer
/// that linalg ops alone read and write (no address taken, no copy), and
/// only when `accept` takes the operand's new value; returns that value, or
/// null with nothing changed.
static Value padAllocation(Value operand, function_ref<bool(Value)> accept) {
  memref::AllocOp alloc = mlx::getAllocUnderReshapes(operand);
  if (!alloc)
    return {};
  Value root = alloc.getResult();
  MemRefType type = alloc.getType();
  Type element = type.getElementType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getRank() < 2 || alloc->getNumOperands() != 0 ||
      !element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return {};
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  if (kLibraryAlignment % bytes != 0)
    return {};
  int64_t last = type.getShape().back();
  int64_t padded = llvm::alignTo(last, kLibraryAlignment / bytes);
  if (padded == last)
    return {};

  // Every user, through the reshapes: only linalg ops and the dealloc.
  SmallVector<Value> worklist = {root};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(user)) {
        worklist.push_back(user->getResult(0));
        continue;
      }
      auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
      if ((isa<memref::DeallocOp>(user) && value == root) ||
          (linalgOp && linalgOp.hasPureBufferSemantics()))
        continue;
      return {};
    }
  }

  // The padded buffer and the views, built beside the old ones.
  OpBuilder b(alloc);
  Location loc = alloc.getLoc();
  SmallVector<int64_t> shape(type.getShape());
  shape.back() = padded;
  auto newAlloc = memref::AllocOp::create(
      b, loc,
      MemRefType::get(shape, element, MemRefLayoutAttrInterface(),
                      type.getMemorySpace()),
      alloc.getAlignmentAttr());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)),
      strides(rank, b.getIndexAttr(1)), sizes;
  for (int64_t size : type.getShape())
    sizes.push_back(b.getIndexAttr(size));
  Value view =
      memref::SubViewOp::create(b, loc, newAlloc, offsets, sizes, strides);
  SmallVector<Operation *> created = {newAlloc.getOperation(),
                                      view.getDefiningOp()};
  SmallVector<Operation *> oldViews;
  IRMapping mapping;
  mapping.map(root, view);
  bool ok = true;
  worklist = {root};
  while (ok && !worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (!isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(user))
        continue;
      Value source = mapping.lookup(value);
      auto sourceType = cast<MemRefType>(source.getType());
      b.setInsertionPoint(user);
      Value newView;
      if (auto collapse = dyn_cast<memref::CollapseShapeOp>(user)) {
        if (!memref::CollapseShapeOp::isGuaranteedCollapsible(
                sourceType, collapse.getReassociationIndices())) {
          ok = false;
          break;
        }
        newView = memref::CollapseShapeOp::create(
            b, user->getLoc(), source, collapse.getReassociationIndices());
      } else {
        auto expand = cast<memref::ExpandShapeOp>(user);
        if (failed(memref::ExpandShapeOp::computeExpandedType(
                sourceType, expand.getResultType().getShape(),
                expand.getReassociationIndices()))) {
          ok = false;
          break;
        }
        newView = memref::ExpandShapeOp::create(
            b, user->getLoc(), expand.getResultType().getShape(), source,
            expand.getReassociationIndices());
      }
      created.push_back(newView.getDefiningOp());
      oldViews.push_back(user);
      mapping.map(user->getResult(0), newView);
      worklist.push_back(user->getResult(0));
    }
  }
  Value newOperand = ok ? mapping.lookupOrNull(operand) : Value();
  if (!newOperand || !accept(newOperand)) {
    for (Operation *op : llvm::reverse(created))
      op->erase();
    return {};
  }

  // Commit: the linalg ops use the new views, the dealloc frees the new
  // buffer, and the old views and buffer go.
  auto isView = [](Operation *op) {
    return isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(op);
  };
  SmallVector<Value> olds = {root};
  for (Operation *op : oldViews)
    olds.push_back(op->getResult(0));
  for (Value old : olds) {
    for (OpOperand &use : llvm::make_early_inc_range(old.getUses())) {
      if (isView(use.getOwner()))
        continue;
      use.set(isa<memref::DeallocOp>(use.getOwner()) ? newAlloc.getResult()
                                                     : mapping.lookup(old));
    }
  }
  for (Operation *op : llvm::reverse(oldViews))
    op->erase();
  alloc->erase();
  return newOperand;
}

/// Declares `void mlxrt_matmul(i32 x3, i64 x13)`.
static func::FuncOp getMatmulFunction(ModuleOp module) {
  if (auto fn = module.lookupSymbol<func::FuncOp>(kMatmulFn))
    return fn;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  SmallVector<Type> inputs(3, b.getI32Type());
  inputs.append(13, b.getI64Type());
  auto fn = func::FuncOp::create(b, module.getLoc(), kMatmulFn,
                                 b.getFunctionType(inputs, {}));
  fn.setPrivate();
  return fn;
}

/// Whether `op` is a linalg.fill of zero into exactly `buffer`.
/// The linalg.generic that only rounds the float32 accumulator `acc` (or a
/// reshape of it, `view`) into an output of `dtype` of the same shape, when
/// nothing else (but its zero `fill`) uses `acc` and nothing between the
/// product and it touches either buffer.
static linalg::GenericOp getRoundingCopy(Value acc, Operation *product,
                                         Operation *fill, Type dtype,
                                         Operation *&view) {
  linalg::GenericOp rounding;
  view = nullptr;
  for (Operation *user : acc.getUsers()) {
    if (user == product || user == fill || isa<memref::DeallocOp>(user))
      continue;
    if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(user) && !view &&
        !rounding && user->getResult(0).hasOneUse()) {
      view = user;
      user = *user->getResult(0).getUsers().begin();
    }
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (!generic || rounding)
      return {};
    rounding = generic;
  }
  Value read = view ? view->getResult(0) : acc;
  if (!rounding || !rounding.hasPureBufferSemantics() ||
      rounding->getBlock() != product->getBlock() ||
      !product->isBeforeInBlock(rounding) || rounding.getNumDpsInputs() != 1 ||
      rounding.getNumDpsInits() != 1 || rounding.getDpsInputs()[0] != read ||
      !llvm::all_of(rounding.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }) ||
      rounding.getNumReductionLoops() != 0)
    return {};
  Value out = rounding.getDpsInits()[0];
  auto outType = dyn_cast<MemRefType>(out.getType());
  if (!outType || outType.getElementType() != dtype ||
      outType.getShape() != cast<MemRefType>(read.getType()).getShape())
    return {};
  // The product writes `out` through the inverse reshape: it must exist.
  if (auto expand = dyn_cast_or_null<memref::ExpandShapeOp>(view);
      expand && !memref::CollapseShapeOp::isGuaranteedCollapsible(
                    outType, expand.getReassociationIndices()))
    return {};
  // The body: %r = arith.truncf %in; linalg.yield %r.
  Block &body = rounding.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto trunc = yield.getNumOperands() == 1
                   ? yield.getOperand(0).getDefiningOp<arith::TruncFOp>()
                   : arith::TruncFOp();
  if (body.getOperations().size() != 2 || !trunc ||
      trunc.getIn() != body.getArgument(0))
    return {};
  // The output buffer must exist at the product: an allocation (through
  // reshapes) after it moves up.
  Value v = out;
  while (Operation *def = v.getDefiningOp()) {
    if ((def->getBlock() == product->getBlock() &&
         def->isBeforeInBlock(product)) ||
        (isa<memref::AllocOp>(def) && def->getNumOperands() == 0))
      break;
    if (!isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(def))
      return {};
    v = def->getOperand(0);
  }
  // The output is written earlier now: nothing in between may touch it.
  Value root = mlx::getRootBuffer(out);
  for (Operation *it = product->getNextNode(); it != rounding;
       it = it->getNextNode()) {
    if (isPure(it) || isa<memref::AllocOp>(it))
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(it);
    if (!linalgOp || !linalgOp.hasPureBufferSemantics() ||
        llvm::any_of(linalgOp->getOperands(),
                     [&](Value v) { return mlx::getRootBuffer(v) == root; }))
      return {};
  }
  return rounding;
}

/// Whether `value` is `arith.extf(arith.truncf(x))` (a rounding to half
/// precision and back) or `x` itself, for x = `acc`.
static bool isAccumulator(Value value, Value acc) {
  if (value == acc)
    return true;
  auto ext = value.getDefiningOp<arith::ExtFOp>();
  auto trunc =
      ext ? ext.getIn().getDefiningOp<arith::TruncFOp>() : arith::TruncFOp();
  return trunc && trunc.getIn() == acc;
}

/// The linalg.generic that adds the float32 accumulator `acc` (rounded or
/// not) to a residual of `dtype` and rounds the sum into an output of
/// `dtype`: `out = residual + product`, a decoder layer's residual
/// connection. cuBLASLt computes it as D = A B + C with C = D = out when
/// `out` holds the residual at the product: this returns the generic with
/// `residual` set when the residual's allocation can be `out` itself (it
/// dies at the generic, and nothing touches `out` before), or is already.
/// The sum is then rounded once, where MLX rounds the product first.
static linalg::GenericOp getResidualAdd(Value acc, Operation *product,
                                        Operation *fill, Type dtype,
                                        Value &residual) {
  linalg::GenericOp add;
  for (Operation *user : acc.getUsers()) {
    if (user == product || user == fill || isa<memref::DeallocOp>(user))
      continue;
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (!generic || add)
      return {};
    add = generic;
  }
  auto accType = cast<MemRefType>(acc.getType());
  if (!add || !add.hasPureBufferSemantics() ||
      add->getBlock() != product->getBlock() ||
      !product->isBeforeInBlock(add) || add.getNumDpsInputs() != 2 ||
      add.getNumDpsInits() != 1 || add.getNumReductionLoops() != 0 ||
      !llvm::all_of(add.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return {};
  unsigned accIndex = add.getDpsInputs()[0] == acc ? 0 : 1;
  Value res = add.getDpsInputs()[1 - accIndex];
  Value out = add.getDpsInits()[0];
  auto resType = dyn_cast<MemRefType>(res.getType());
  auto outType = dyn_cast<MemRefType>(out.getType());
  if (add.getDpsInputs()[accIndex] != acc || !resType || !outType ||
      resType != outType || outType.getElementType() != dtype ||
      outType.getShape() != accType.getShape() ||
      !outType.getLayout().isIdentity())
    return {};
  // The body: truncf(addf(extf(residual), accumulator)).
  Block &body = add.getRegion().front();
  BlockArgument accArg = body.getArgument(accIndex),
                resArg = body.getArgument(1 - accIndex);
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto round = yield.getNumOperands() == 1
                   ? yield.getOperand(0).getDefiningOp<arith::TruncFOp>()
                   : arith::TruncFOp();
  auto sum =
      round ? round.getIn().getDefiningOp<arith::AddFOp>() : arith::AddFOp();
  if (!sum || !sum.getType().isF32())
    return {};
  auto isResidual = [&](Value v) {
    auto ext = v.getDefiningOp<arith::ExtFOp>();
    return ext && ext.getIn() == resArg;
  };
  bool matches =
      (isResidual(sum.getLhs()) && isAccumulator(sum.getRhs(), accArg)) ||
      (isResidual(sum.getRhs()) && isAccumulator(sum.getLhs(), accArg));
  if (!matches)
    return {};
  for (Operation &op : body.without_terminator())
    if (!isa<arith::ExtFOp, arith::TruncFOp, arith::AddFOp>(op))
      return {};

  // Nothing between the product and the sum touches the output or the
  // residual: the product now writes the sum there.
  Block *block = product->getBlock();
  Value outRoot = mlx::getRootBuffer(out), resRoot = mlx::getRootBuffer(res);
  for (Operation *it = product->getNextNode(); it != add;
       it = it->getNextNode())
    if (!isMemoryEffectFree(it) && (mlx::mayAccess(it, outRoot, false) ||
                                    mlx::mayAccess(it, resRoot, false)))
      return {};
  for (Value operand : cast<linalg::LinalgOp>(product).getDpsInputs())
    if (mlx::getRootBuffer(operand) == outRoot ||
        mlx::getRootBuffer(operand) == resRoot)
      return {};
  if (res == out) {
    residual = out;
    return add;
  }
  // The residual's allocation becomes the output: it dies at the sum (only
  // its dealloc after), and nothing reads or writes the output before.
  auto alloc = res.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != block || alloc->getNumOperands() != 0)
    return {};
  SmallVector<Operation *> deallocs;
  for (Operation *user : alloc->getUsers()) {
    if (isa<memref::DeallocOp>(user)) {
      deallocs.push_back(user);
      continue;
    }
    Operation *top = block->findAncestorOpInBlock(*user);
    if (!top || (top != add && !top->isBeforeInBlock(add)))
      return {};
  }
  // The output: an argument or an allocation, maybe reshaped (moved up
  // above the residual's allocation if need be).
  SmallVector<Operation *> outChain;
  for (Value v = out; Operation *def = v.getDefiningOp();
       v = def->getNumOperands() ? def->getOperand(0) : Value()) {
    if (def->getBlock() != block ||
        !(isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(def) ||
          (isa<memref::AllocOp>(def) && def->getNumOperands() == 0)))
      return {};
    outChain.push_back(def);
    if (isa<memref::AllocOp>(def))
      break;
  }
  for (Operation *it = alloc->getNextNode(); it != add; it = it->getNextNode())
    if (!llvm::is_contained(outChain, it) && !isMemoryEffectFree(it) &&
        mlx::mayAccess(it, outRoot, false))
      return {};
  for (Operation *def : llvm::reverse(outChain))
    if (alloc->isBeforeInBlock(def))
      def->moveBefore(alloc);
  for (Operation *dealloc : deallocs)
    dealloc->erase();
  alloc.replaceAllUsesWith(out);
  alloc->erase();
  residual = out;
  return add;
}

/// Collects the inputs of linalg.generic ops after `product` that read the
/// float32 accumulator `value` (directly or through reshapes), when each
/// only rounds it (arith.truncf) to `dtype`; false for any other use.
static bool collectRoundedReads(Value value, Value acc, Operation *product,
                                Operation *fill, Type dtype,
                                SmallVectorImpl<OpOperand *> &reads) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (value == acc &&
        (user == product || user == fill || isa<memref::DeallocOp>(user)))
      continue;
    if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(user)) {
      if (!collectRoundedReads(user->getResult(0), acc, product, fill, dtype,
                               reads))
        return false;
      continue;
    }
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (!generic || !generic.hasPureBufferSemantics() ||
        !generic.isDpsInput(&use) ||
        generic->getBlock() != product->getBlock() ||
        !product->isBeforeInBlock(generic))
      return false;
    BlockArgument arg = generic.getMatchingBlockArgument(&use);
    if (arg.use_empty() || !llvm::all_of(arg.getUsers(), [&](Operation *op) {
          auto trunc = dyn_cast<arith::TruncFOp>(op);
          return trunc && trunc.getType() == dtype;
        }))
      return false;
    reads.push_back(&use);
  }
  return true;
}

/// When every reader of the float32 accumulator `acc` (an allocation) of a
/// half-precision product first rounds it to `dtype` (SwiGLU's silu(gate) *
/// up of two products, a residual added after the rounding), the product
/// can round it: this makes a `dtype` buffer for cuBLASLt to write, and the
/// readers read it without their arith.truncf, so half the bytes cross
/// memory twice. Returns the new buffer, or null (nothing changed).
static Value roundForReaders(Value acc, Operation *product, Operation *fill,
                             Type dtype) {
  auto alloc = acc.getDefiningOp<memref::AllocOp>();
  auto accType = cast<MemRefType>(acc.getType());
  SmallVector<OpOperand *> reads;
  if (!alloc || alloc->getNumOperands() != 0 ||
      !accType.getLayout().isIdentity() ||
      !collectRoundedReads(acc, acc, product, fill, dtype, reads) ||
      reads.empty())
    return {};
  OpBuilder b(product);
  auto type = MemRefType::get(accType.getShape(), dtype);
  Value rounded = memref::AllocOp::create(b, alloc.getLoc(), type);
  // The same reshapes of the new buffer for the readers.
  IRMapping views;
  views.map(acc, rounded);
  std::function<Value(Value)> viewOf = [&](Value v) -> Value {
    if (Value mapped = views.lookupOrNull(v))
      return mapped;
    Operation *def = v.getDefiningOp();
    Value source = viewOf(def->getOperand(0));
    OpBuilder vb(def);
    Value view;
    if (auto expand = dyn_cast<memref::ExpandShapeOp>(def))
      view = memref::ExpandShapeOp::create(
          vb, def->getLoc(), expand.getResultType().getShape(), source,
          expand.getReassociationIndices());
    else
      view = memref::CollapseShapeOp::create(
          vb, def->getLoc(), source,
          cast<memref::CollapseShapeOp>(def).getReassociationIndices());
    views.map(v, view);
    return view;
  };
  for (OpOperand *read : reads) {
    auto generic = cast<linalg::GenericOp>(read->getOwner());
    BlockArgument arg = generic.getMatchingBlockArgument(read);
    read->set(viewOf(read->get()));
    arg.setType(dtype);
    for (Operation *trunc : llvm::make_early_inc_range(arg.getUsers())) {
      trunc->getResult(0).replaceAllUsesWith(arg);
      trunc->erase();
    }
  }
  for (Operation *user : llvm::make_early_inc_range(acc.getUsers()))
    if (isa<memref::DeallocOp>(user)) {
      OpBuilder db(user);
      memref::DeallocOp::create(db, user->getLoc(), rounded);
    }
  return rounded;
}

/// Products over larger right-hand sides keep beta = 0 and their sum kernel:
/// with beta = 1 cuBLASLt chose a slower split-K kernel for W8's 90 MB down
/// projection (24.7 us against 18 us, Nsight Compute on the H200,
/// 2026-12-02), more than the launch it saves; for W9's 23 MB one it cost
/// 0.25 us. W7's (2048 rows) took 232.5 us against 218.9 plus a 12.2 us sum
/// kernel (2026-12-04): no gain, and the sum would be rounded once.
static constexpr int64_t kMaxResidualWeightBytes = 32 << 20;

/// Rewrites one product; false when it keeps its generated kernel.
static Value convert(linalg::LinalgOp op, func::FuncOp &matmulFn,
                     ModuleOp module) {
  if (!op.hasPureBufferSemantics() || op.hasUserDefinedMaps())
    return {};
  bool batched = isa<linalg::BatchMatmulOp>(op);
  Value a = op.getDpsInputs()[0], b = op.getDpsInputs()[1],
        c = op.getDpsInits()[0];
  auto aType = cast<MemRefType>(a.getType());
  auto bType = cast<MemRefType>(b.getType());
  auto cType = cast<MemRefType>(c.getType());
  std::optional<int32_t> abCode = getDtypeCode(aType.getElementType());
  std::optional<int32_t> cCode = getDtypeCode(cType.getElementType());
  if (!abCode || !cCode || aType.getElementType() != bType.getElementType() ||
      (*cCode != kFloat32 && *cCode != *abCode))
    return {};
  std::optional<MatrixOperand> opA = getOperand(a, batched, true);
  std::optional<MatrixOperand> opB = getOperand(b, batched, true);
  std::optional<MatrixOperand> opC = getOperand(c, batched, false);
  if (!opA || !opB || !opC)
    return {};
  int64_t batch = batched ? cType.getDimSize(0) : 1;
  int64_t m = cType.getDimSize(cType.getRank() - 2);
  int64_t n = cType.getDimSize(cType.getRank() - 1);
  int64_t k = aType.getDimSize(aType.getRank() - 1);
  // Empty products (and their zero fill) stay with the kernels.
  if (batch < 1 || m < 1 || n < 1 || k < 1 ||
      (batched &&
       (aType.getDimSize(0) != batch || bType.getDimSize(0) != batch)) ||
      (batch > 1 && opC->batchStride < m * n))
    return {};

  // A zero fill right before the product (views and constants may come
  // between) is what beta = 0 does.
  Operation *prev = op->getPrevNode();
  while (prev && isPure(prev))
    prev = prev->getPrevNode();
  bool dropFill = mlx::isZeroFillOf(prev, c);

  // Operands that a transpose or a batch broadcast copied: read the source
  // (through a transposed view, or with batch stride 0).
  SmallVector<Operation *> deadCopies;
  for (auto [value, operand] : {std::pair(a, &opA), std::pair(b, &opB)}) {
    linalg::LinalgOp copy = mlx::getFoldableCopy(value, op);
    if (!copy)
      continue;
    std::optional<MatrixOperand> folded;
    if (auto transpose = dyn_cast<linalg::TransposeOp>(copy.getOperation())) {
      OpBuilder builder(op);
      SmallVector<Operation *> created;
      Value view = mlx::buildTransposedView(builder, transpose, value, created);
      bool ok = static_cast<bool>(view);
      if (ok)
        folded = getOperand(view, batched, true);
      if (!folded)
        for (Operation *dead : llvm::reverse(created))
          dead->erase();
    } else if (batched) {
      folded = getOperand(copy.getDpsInputs()[0], /*batched=*/false, true);
      if (folded)
        folded->batchStride = 0;
    }
    if (!folded)
      continue;
    **operand = *folded;
    deadCopies.push_back(copy);
  }

  // Operands computed into buffers of unaligned rows (a softmax over 1025
  // keys) get padded buffers.
  Type abElement = aType.getElementType();
  for (std::optional<MatrixOperand> *operand : {&opA, &opB}) {
    if (isLibraryAligned(**operand, abElement))
      continue;
    std::optional<MatrixOperand> padded;
    if (padAllocation((*operand)->buffer, [&](Value v) {
          padded = getOperand(v, batched, true);
          return padded && isLibraryAligned(*padded, abElement);
        }))
      *operand = padded;
  }

  int32_t flags =
      (opA->transposed ? kTransposeA : 0) | (opB->transposed ? kTransposeB : 0);
  if (!dropFill)
    flags |= kAccumulate;

  // A half-precision product accumulates in a float32 buffer that a kernel
  // only rounds into the output: cuBLASLt writes the output directly.
  linalg::GenericOp rounding;
  Operation *view = nullptr;
  if (dropFill && *cCode == kFloat32 && *abCode != kFloat32)
    rounding = getRoundingCopy(c, op, prev, aType.getElementType(), view);
  // Or it adds it to a residual: cuBLASLt adds the product to the residual
  // in the output (beta = 1).
  linalg::GenericOp residualAdd;
  Value residual;
  if (!rounding && dropFill && *cCode == kFloat32 && *abCode != kFloat32 &&
      bType.getNumElements() *
              (aType.getElementType().getIntOrFloatBitWidth() / 8) <=
          kMaxResidualWeightBytes)
    residualAdd = getResidualAdd(c, op, prev, aType.getElementType(), residual);
  if (residualAdd) {
    std::optional<MatrixOperand> out = getOperand(residual, batched, false);
    if (out && (batch == 1 || out->batchStride >= m * n) &&
        isLibraryAligned(*out, aType.getElementType())) {
      opC = out;
      cCode = abCode;
      flags |= kAccumulate;
    } else {
      residualAdd = {};
    }
  }
  // Or every reader rounds it first: the product does.
  if (!rounding && !residualAdd && dropFill && *cCode == kFloat32 &&
      *abCode != kFloat32) {
    if (Value rounded = roundForReaders(c, op, prev, aType.getElementType())) {
      opC = getOperand(rounded, batched, false);
      cCode = abCode;
      assert(opC && "an identity buffer of the accumulator's shape");
    }
  }
  if (rounding) {
    Value outBuffer = rounding.getDpsInits()[0];
    // Its allocation and reshapes (checked by getRoundingCopy) go first.
    SmallVector<Operation *> chain;
    Value v = outBuffer;
    while (Operation *def = v.getDefiningOp()) {
      if (def->getBlock() == op->getBlock() && def->isBeforeInBlock(op))
        break;
      chain.push_back(def);
      if (def->getNumOperands() == 0)
        break;
      v = def->getOperand(0);
    }
    for (Operation *def : llvm::reverse(chain))
      def->moveBefore(op);
    // The output seen in the accumulator's shape: the inverse reshape.
    if (view) {
      OpBuilder b(op);
      if (auto expand = dyn_cast<memref::ExpandShapeOp>(view))
        outBuffer = memref::CollapseShapeOp::create(
            b, view->getLoc(), outBuffer, expand.getReassociationIndices());
      else
        outBuffer = memref::ExpandShapeOp::create(
            b, view->getLoc(), cast<MemRefType>(c.getType()).getShape(),
            outBuffer,
            cast<memref::CollapseShapeOp>(view).getReassociationIndices());
    }
    std::optional<MatrixOperand> out = getOperand(outBuffer, batched, false);
    if (out && (batch == 1 || out->batchStride >= m * n)) {
      opC = out;
      cCode = abCode;
    } else {
      rounding = {};
    }
  }

  Type cElement = cast<MemRefType>(opC->buffer.getType()).getElementType();
  if (!isLibraryAligned(*opC, cElement)) {
    std::optional<MatrixOperand> padded;
    if (padAllocation(opC->buffer, [&](Value v) {
          padded = getOperand(v, batched, false);
          return padded && isLibraryAligned(*padded, cElement) &&
                 (batch == 1 || padded->batchStride >= m * n);
        }))
      opC = padded;
  }

  if (!matmulFn)
    matmulFn = getMatmulFunction(module);
  OpBuilder builder(op);
  Location loc = op.getLoc();
  auto i64 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(builder, loc, v, 64);
  };
  auto i32 = [&](int32_t v) -> Value {
    return arith::ConstantIntOp::create(builder, loc, v, 32);
  };
  // The address of the first element, as the runtime's i64. The marker
  // tells mlx-memory-placement that the device reads this buffer.
  auto address = [&](const MatrixOperand &operand) -> Value {
    auto base = memref::ExtractAlignedPointerAsIndexOp::create(builder, loc,
                                                               operand.buffer);
    base->setAttr(mlx::attrs::kDeviceAccess, builder.getUnitAttr());
    Value ptr =
        arith::IndexCastOp::create(builder, loc, builder.getI64Type(), base);
    if (operand.offset == 0)
      return ptr;
    auto type = cast<MemRefType>(operand.buffer.getType());
    int64_t bytes =
        operand.offset * (type.getElementType().getIntOrFloatBitWidth() / 8);
    return arith::AddIOp::create(builder, loc, ptr, i64(bytes));
  };
  SmallVector<Value> args = {i32(*abCode),
                             i32(*cCode),
                             i32(flags),
                             i64(batch),
                             i64(m),
                             i64(n),
                             i64(k),
                             address(*opA),
                             i64(opA->ld),
                             i64(opA->batchStride),
                             address(*opB),
                             i64(opB->ld),
                             i64(opB->batchStride),
                             address(*opC),
                             i64(opC->ld),
                             i64(opC->batchStride)};
  func::CallOp::create(builder, loc, matmulFn, args);
  op->erase();
  if (dropFill)
    prev->erase();
  if (residualAdd)
    residualAdd->erase();
  if (rounding) {
    rounding->erase();
    if (view)
      view->erase();
  }
  // The copy's buffer is left with its views and dealloc; canonicalization
  // removes them.
  for (Operation *copy : deadCopies)
    copy->erase();
  return opC->buffer;
}

/// When the product's result buffer (an allocation, maybe reshaped) is only
/// copied into an output argument at the end, the product writes that
/// argument directly: the copy kernel and the buffer go.
static void elideOutputCopy(Value c) {
  memref::AllocOp alloc = mlx::getAllocUnderReshapes(c);
  Value root = alloc ? alloc.getResult() : Value();
  if (!alloc || !alloc.getType().hasStaticShape() ||
      !alloc.getType().getLayout().isIdentity() || alloc->getNumOperands() != 0)
    return;
  // Every use of the buffer and of its reshapes.
  memref::CopyOp copy;
  SmallVector<Operation *> deallocs, others;
  SmallVector<Value> worklist = {root};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isa<memref::DeallocOp>(user)) {
        deallocs.push_back(user);
      } else if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(user)) {
        worklist.push_back(user->getResult(0));
      } else if (auto c = dyn_cast<memref::CopyOp>(user);
                 c && c.getSource() == value && !copy) {
        copy = c;
      } else {
        others.push_back(user);
      }
    }
  }
  if (!copy)
    return;
  // The target: an output argument of the function that nothing else uses,
  // of the same elements.
  auto arg = dyn_cast<BlockArgument>(copy.getTarget());
  auto func = dyn_cast_or_null<func::FuncOp>(arg ? arg.getOwner()->getParentOp()
                                                 : nullptr);
  auto argType = arg ? dyn_cast<MemRefType>(arg.getType()) : MemRefType();
  MemRefType type = alloc.getType();
  if (!func || !argType || !arg.hasOneUse() ||
      !func.getArgAttr(arg.getArgNumber(), "bufferize.result") ||
      !argType.getLayout().isIdentity() || !argType.hasStaticShape() ||
      argType.getRank() == 0 || type.getRank() == 0 ||
      argType.getElementType() != type.getElementType() ||
      argType.getNumElements() != type.getNumElements() ||
      copy->getBlock() != alloc->getBlock())
    return;
  // Whatever else reads or writes the buffer does so before the copy.
  Block *block = alloc->getBlock();
  for (Operation *user : others) {
    Operation *top = block->findAncestorOpInBlock(*user);
    if (!top || !top->isBeforeInBlock(copy))
      return;
  }
  // The argument, reshaped to the buffer's shape: the same elements in the
  // same row-major order (every view on the way was a reshape).
  OpBuilder b = OpBuilder::atBlockBegin(block);
  Location loc = alloc.getLoc();
  Value view = arg;
  if (argType.getShape() != type.getShape()) {
    if (argType.getRank() > 1) {
      ReassociationIndices all =
          llvm::to_vector(llvm::seq<int64_t>(0, argType.getRank()));
      view = memref::CollapseShapeOp::create(
          b, loc, view, ArrayRef<ReassociationIndices>{all});
    }
    if (type.getRank() > 1) {
      ReassociationIndices all =
          llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
      view = memref::ExpandShapeOp::create(b, loc, type.getShape(), view,
                                           ArrayRef<ReassociationIndices>{all});
    }
  }
  if (view.getType() != type)
    return;
  copy->erase();
  for (Operation *dealloc : deallocs)
    dealloc->erase();
  alloc.replaceAllUsesWith(view);
  alloc->erase();
}

//===----------------------------------------------------------------------===//
// Products that share an input
//===----------------------------------------------------------------------===//

namespace {
/// An address operand of an mlxrt_matmul call: the buffer it points into
/// and the byte offset, as `convert` builds it.
struct CallOperand {
  Value buffer;
  int64_t bytes = 0;
  bool operator==(const CallOperand &other) const {
    return buffer == other.buffer && bytes == other.bytes;
  }
};

/// One mlxrt_matmul call of a single product, read back.
struct MatmulCall {
  func::CallOp call;
  SmallVector<int64_t> constants; ///< Everything but the addresses.
  CallOperand a, b, c;
};
} // namespace

// mlxrt_matmul's operands (see getMatmulFunction).
enum : unsigned { kFlagsArg = 2, kBatchArg = 3, kAArg = 7, kBArg = 10 };
enum : unsigned { kCArg = 13, kNumMatmulArgs = 16 };

static std::optional<CallOperand> getCallOperand(Value address) {
  CallOperand operand;
  if (auto add = address.getDefiningOp<arith::AddIOp>()) {
    APInt bytes;
    if (!matchPattern(add.getRhs(), m_ConstantInt(&bytes)))
      return std::nullopt;
    operand.bytes = bytes.getSExtValue();
    address = add.getLhs();
  }
  auto cast = address.getDefiningOp<arith::IndexCastOp>();
  auto base =
      cast
          ? cast.getIn().getDefiningOp<memref::ExtractAlignedPointerAsIndexOp>()
          : memref::ExtractAlignedPointerAsIndexOp();
  if (!base)
    return std::nullopt;
  operand.buffer = base.getSource();
  return operand;
}

/// `call` as a MatmulCall, for a single product (batch 1) whose operands
/// other than the addresses are constants.
static std::optional<MatmulCall> readMatmulCall(func::CallOp call) {
  if (call.getCallee() != kMatmulFn || call.getNumOperands() != kNumMatmulArgs)
    return std::nullopt;
  MatmulCall m{call, {}, {}, {}, {}};
  for (unsigned i = 0; i < kNumMatmulArgs; ++i) {
    if (i == kAArg || i == kBArg || i == kCArg)
      continue;
    APInt value;
    if (!matchPattern(call.getOperand(i), m_ConstantInt(&value)))
      return std::nullopt;
    m.constants.push_back(value.getSExtValue());
  }
  std::optional<CallOperand> a = getCallOperand(call.getOperand(kAArg)),
                             b = getCallOperand(call.getOperand(kBArg)),
                             c = getCallOperand(call.getOperand(kCArg));
  if (!a || !b || !c || m.constants[kBatchArg] != 1 ||
      (m.constants[kFlagsArg] & kPointerArrays))
    return std::nullopt;
  m.a = *a;
  m.b = *b;
  m.c = *c;
  return m;
}

/// Whether `value` is available before `point`, or can be by moving the
/// allocation and reshapes that make it (collected in `moves`, defs first).
static bool collectHoist(Value value, Operation *point,
                         SmallVectorImpl<Operation *> &moves) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return cast<BlockArgument>(value).getOwner()->findAncestorOpInBlock(
               *point) != nullptr;
  if (def->getBlock() != point->getBlock())
    return def->getBlock()->findAncestorOpInBlock(*point) != nullptr;
  if (def->isBeforeInBlock(point) || llvm::is_contained(moves, def))
    return true;
  if (!(isa<memref::AllocOp>(def) && def->getNumOperands() == 0) &&
      !isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(def))
    return false;
  for (Value operand : def->getOperands())
    if (!collectHoist(operand, point, moves))
      return false;
  moves.push_back(def);
  return true;
}

/// Whether the product of `later` can run where `first` runs, at the same
/// time: nothing from `first` on (the products already grouped included)
/// reads or writes its result buffer or writes its inputs (other products
/// by the buffers of their addresses; any other call may).
static bool canRunAt(const MatmulCall &later, func::CallOp first) {
  Value a = mlx::getRootBuffer(later.a.buffer),
        b = mlx::getRootBuffer(later.b.buffer),
        c = mlx::getRootBuffer(later.c.buffer);
  for (Operation *it = first; it != later.call; it = it->getNextNode()) {
    if (isPure(it) || isa<memref::AllocOp>(it))
      continue;
    if (auto call = dyn_cast<func::CallOp>(it)) {
      if (call.getCallee() != kMatmulFn ||
          call.getNumOperands() != kNumMatmulArgs)
        return false;
      std::optional<CallOperand> ia = getCallOperand(call.getOperand(kAArg)),
                                 ib = getCallOperand(call.getOperand(kBArg)),
                                 ic = getCallOperand(call.getOperand(kCArg));
      if (!ia || !ib || !ic)
        return false;
      Value reads[2] = {mlx::getRootBuffer(ia->buffer),
                        mlx::getRootBuffer(ib->buffer)};
      Value writes = mlx::getRootBuffer(ic->buffer);
      if (writes == a || writes == b || writes == c || reads[0] == c ||
          reads[1] == c)
        return false;
      continue;
    }
    if (mlx::mayAccess(it, c, /*writesOnly=*/false) ||
        mlx::mayAccess(it, a, /*writesOnly=*/true) ||
        mlx::mayAccess(it, b, /*writesOnly=*/true))
      return false;
  }
  return true;
}

/// Erases `value`'s address computation once nothing uses it.
static void eraseDeadAddress(Value value) {
  while (value && value.use_empty()) {
    Operation *def = value.getDefiningOp();
    if (!def || !isPure(def) || def->getNumResults() != 1)
      return;
    Value next = def->getNumOperands() ? def->getOperand(0) : Value();
    def->erase();
    if (!next || isa<MemRefType>(next.getType()))
      return;
    value = next;
  }
}

/// Replaces `group` (same constants, same A) by one call over pointer
/// arrays at the first call, after moving up what the others need.
static void emitGroup(ArrayRef<MatmulCall> group, ArrayRef<Operation *> moves) {
  func::CallOp first = group.front().call;
  for (Operation *op : moves)
    op->moveBefore(first);
  OpBuilder b(first);
  Location loc = first.getLoc();
  int64_t count = static_cast<int64_t>(group.size());
  auto arrayType = MemRefType::get({count}, b.getI64Type());
  auto i64 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 64);
  };
  // Host arrays of the addresses; the runtime reads them during the call.
  auto array = [&](auto operandOf) -> Value {
    Value arr = memref::AllocaOp::create(b, loc, arrayType);
    for (auto [i, m] : llvm::enumerate(group)) {
      const CallOperand &operand = operandOf(m);
      auto base = memref::ExtractAlignedPointerAsIndexOp::create(
          b, loc, operand.buffer);
      base->setAttr(mlx::attrs::kDeviceAccess, b.getUnitAttr());
      Value ptr = arith::IndexCastOp::create(b, loc, b.getI64Type(), base);
      if (operand.bytes)
        ptr = arith::AddIOp::create(b, loc, ptr, i64(operand.bytes));
      memref::StoreOp::create(
          b, loc, ptr, arr,
          ValueRange{arith::ConstantIndexOp::create(b, loc, i)});
    }
    Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, arr);
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  };
  SmallVector<Value> args(first.getOperands());
  args[kAArg] = array([](const MatmulCall &m) { return m.a; });
  args[kBArg] = array([](const MatmulCall &m) { return m.b; });
  args[kCArg] = array([](const MatmulCall &m) { return m.c; });
  const SmallVector<int64_t> &constants = group.front().constants;
  args[kFlagsArg] = arith::ConstantIntOp::create(
      b, loc, constants[kFlagsArg] | kPointerArrays, 32);
  args[kBatchArg] = i64(count);
  // No batch strides: the arrays say where each matrix is.
  for (unsigned stride : {kAArg + 2, kBArg + 2, kCArg + 2})
    args[stride] = i64(0);
  func::CallOp::create(b, loc, first.getCallee(), TypeRange(), args);
  for (const MatmulCall &m : group) {
    func::CallOp call = m.call;
    SmallVector<Value> operands(call.getOperands());
    call->erase();
    for (Value operand : operands)
      eraseDeadAddress(operand);
  }
}

/// Groups the single products of `block` that read the same A (same shapes,
/// dtypes and flags) into pointer-array calls, up to the runtime's limit.
static void groupSharedOperandCalls(Block &block) {
  SmallVector<MatmulCall> calls;
  for (auto call : block.getOps<func::CallOp>())
    if (std::optional<MatmulCall> m = readMatmulCall(call))
      calls.push_back(*m);
  DenseSet<Operation *> grouped;
  for (size_t i = 0; i < calls.size(); ++i) {
    if (grouped.contains(calls[i].call))
      continue;
    SmallVector<MatmulCall> group = {calls[i]};
    SmallVector<Operation *> moves;
    for (size_t j = i + 1;
         j < calls.size() && group.size() < MLXRT_MATMUL_MAX_POINTERS; ++j) {
      const MatmulCall &other = calls[j];
      if (grouped.contains(other.call) ||
          other.constants != calls[i].constants || !(other.a == calls[i].a) ||
          !canRunAt(other, calls[i].call))
        continue;
      SmallVector<Operation *> otherMoves(moves);
      if (!collectHoist(other.b.buffer, calls[i].call, otherMoves) ||
          !collectHoist(other.c.buffer, calls[i].call, otherMoves))
        continue;
      moves = std::move(otherMoves);
      group.push_back(other);
    }
    if (group.size() < 2)
      continue;
    for (const MatmulCall &m : group)
      grouped.insert(m.call);
    emitGroup(group, moves);
  }
}

namespace {
struct MlxcMatmulToRuntimePass final
    : mlx::impl::MlxcMatmulToRuntimeBase<MlxcMatmulToRuntimePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::LinalgOp> products;
    module.walk([&](Operation *op) {
      if (isa<linalg::BatchMatmulOp, linalg::MatmulOp>(op) &&
          !op->getParentOfType<gpu::GPUModuleOp>())
        products.push_back(cast<linalg::LinalgOp>(op));
    });
    func::FuncOp matmulFn;
    for (linalg::LinalgOp op : products)
      if (Value c = convert(op, matmulFn, module))
        elideOutputCopy(c);
    if (!groupSharedOperands || !matmulFn)
      return;
    SmallVector<Block *> blocks;
    module.walk([&](func::CallOp call) {
      if (call.getCallee() == kMatmulFn &&
          !llvm::is_contained(blocks, call->getBlock()))
        blocks.push_back(call->getBlock());
    });
    for (Block *block : blocks)
      groupSharedOperandCalls(*block);
  }
};
} // namespace
