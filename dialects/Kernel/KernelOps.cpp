//===- KernelOps.cpp - kernel dialect ------------------------------------===//

#include "Kernel/KernelOps.h"
#include "Kernel/Target.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::kernel;

#include "Kernel/KernelDialect.cpp.inc"
#include "Kernel/KernelEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "Kernel/KernelAttrs.cpp.inc"

namespace {
/// kernel.attention reads its query, key, value, mask and sinks and writes
/// its init (which it does not read) in place.
struct AttentionBufferization
    : bufferization::DstBufferizableOpInterfaceExternalModel<
          AttentionBufferization, AttentionOp> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const bufferization::AnalysisState &) const {
    return !cast<AttentionOp>(op).isDpsInit(&operand);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const bufferization::BufferizationOptions &options,
                          bufferization::BufferizationState &state) const {
    auto attention = cast<AttentionOp>(op);
    SmallVector<Value> buffers;
    for (Value operand : op->getOperands()) {
      FailureOr<Value> buffer =
          bufferization::getBuffer(rewriter, operand, options, state);
      if (failed(buffer))
        return failure();
      buffers.push_back(*buffer);
    }
    rewriter.setInsertionPoint(op);
    // The buffer of an optional operand (mask, sinks), or null.
    auto bufferOf = [&](MutableOperandRange operand) -> Value {
      return operand.empty() ? Value() : buffers[operand[0].getOperandNumber()];
    };
    Value init = buffers.back();
    AttentionOp::create(rewriter, op->getLoc(), TypeRange(), buffers[0],
                        buffers[1], buffers[2],
                        bufferOf(attention.getMaskMutable()),
                        bufferOf(attention.getSinksMutable()), init,
                        attention.getScaleAttr(), attention.getCausalAttr())
        ->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    bufferization::replaceOpWithBufferizedValues(rewriter, op, init);
    return success();
  }
};

/// kernel.quantized_matmul reads x, the packed words, scales and biases and
/// writes its init (which it does not read) in place.
struct QuantizedMatmulBufferization
    : bufferization::DstBufferizableOpInterfaceExternalModel<
          QuantizedMatmulBufferization, QuantizedMatmulOp> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const bufferization::AnalysisState &) const {
    return !cast<QuantizedMatmulOp>(op).isDpsInit(&operand);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const bufferization::BufferizationOptions &options,
                          bufferization::BufferizationState &state) const {
    auto product = cast<QuantizedMatmulOp>(op);
    SmallVector<Value> buffers;
    for (Value operand : op->getOperands()) {
      FailureOr<Value> buffer =
          bufferization::getBuffer(rewriter, operand, options, state);
      if (failed(buffer))
        return failure();
      buffers.push_back(*buffer);
    }
    rewriter.setInsertionPoint(op);
    QuantizedMatmulOp::create(rewriter, op->getLoc(), TypeRange(), buffers[0],
                              buffers[1], buffers[2], buffers[3], buffers[4],
                              product.getGroupSizeAttr(),
                              product.getBitsAttr())
        ->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    bufferization::replaceOpWithBufferizedValues(rewriter, op, buffers[4]);
    return success();
  }
};
} // namespace

void KernelDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Kernel/KernelAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "Kernel/KernelOps.cpp.inc"
      >();
  AttentionOp::attachInterface<AttentionBufferization>(*getContext());
  QuantizedMatmulOp::attachInterface<QuantizedMatmulBufferization>(
      *getContext());
}

LogicalResult KernelDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  // The tags of inlined regions (mlxc-inline-kernels).
  if (attr.getName() == kKernelIdAttr) {
    if (!isa<IntegerAttr>(attr.getValue()))
      return op->emitError() << "'" << kKernelIdAttr
                             << "' must be an integer";
    return success();
  }
  if (attr.getName() == kKernelStrategyAttr) {
    auto name = dyn_cast<StringAttr>(attr.getValue());
    if (!name || !symbolizeStrategy(name.getValue()))
      return op->emitError() << "'" << kKernelStrategyAttr
                             << "' must name a kernel strategy";
    return success();
  }
  if (attr.getName() != kTargetAttrName)
    return op->emitError() << "unknown kernel dialect attribute '"
                           << attr.getName() << "'";
  if (!isa<ModuleOp>(op))
    return op->emitError() << "'" << kTargetAttrName
                           << "' belongs on a builtin.module";
  if (!isa<TargetAttr>(attr.getValue()))
    return op->emitError() << "'" << kTargetAttrName
                           << "' must be a #kernel.target";
  return success();
}

#define GET_OP_CLASSES
#include "Kernel/KernelOps.cpp.inc"

void RegionOp::build(OpBuilder &builder, OperationState &state,
                     Strategy strategy, ValueRange inputs,
                     TypeRange resultTypes) {
  state.addAttribute(getStrategyAttrName(state.name),
                     StrategyAttr::get(builder.getContext(), strategy));
  state.addOperands(inputs);
  state.addTypes(resultTypes);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value input : inputs)
    block->addArgument(input.getType(), input.getLoc());
}

/// Whether every input of `op` reads its innermost loop, a reduction,
/// innermost.
static bool readsReducedInnermost(linalg::LinalgOp op) {
  if (op.getNumLoops() == 0 ||
      op.getIteratorTypesArray().back() != utils::IteratorType::reduction)
    return false;
  AffineExpr reduced = getAffineDimExpr(op.getNumLoops() - 1, op.getContext());
  return llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    AffineMap map = op.getMatchingIndexingMap(input);
    return map.getNumResults() != 0 && map.getResults().back() == reduced;
  });
}

bool kernel::isProduct(Operation *op) {
  if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
    return true;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumReductionLoops() != 0 &&
         linalg::isaContractionOpInterface(linalgOp) &&
         !(linalgOp.getNumReductionLoops() == 1 &&
           readsReducedInnermost(linalgOp));
}

/// Whether a linalg op reduces (has a reduction loop).
static bool reduces(linalg::LinalgOp op) {
  return op.getNumReductionLoops() != 0;
}

LogicalResult RegionOp::verify() {
  Block &block = getBody().front();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError() << "has " << getInputs().size() << " inputs but "
                         << block.getNumArguments() << " block arguments";
  for (auto [input, arg] : llvm::zip(getInputs(), block.getArguments()))
    if (input.getType() != arg.getType())
      return emitOpError() << "block argument " << arg.getArgNumber()
                           << " has type " << arg.getType()
                           << ", its input has " << input.getType();
  auto yield =
      dyn_cast_or_null<YieldOp>(block.empty() ? nullptr : &block.back());
  if (!yield)
    return emitOpError() << "must end with kernel.yield";
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError() << "yields " << yield.getValues().size()
                         << " values whose types differ from its results";
  // The strategy must fit the ops: the lowering relies on it.
  int products = 0, reductions = 0;
  for (Operation &op : block.without_terminator()) {
    if (isProduct(&op))
      ++products;
    else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      reductions += reduces(linalgOp);
  }
  switch (getStrategy()) {
  case Strategy::Product:
    if (products != 1)
      return emitOpError() << "of strategy 'product' holds " << products
                           << " matrix products (expected 1)";
    break;
  case Strategy::RowReduction:
  case Strategy::Reduction:
    if (products != 0 || reductions == 0)
      return emitOpError() << "of strategy '"
                           << stringifyStrategy(getStrategy())
                           << "' must hold a reduction and no product";
    break;
  case Strategy::Attention:
    if (products != 0 || reductions != 0 ||
        llvm::count_if(block.without_terminator(),
                       [](Operation &op) { return isa<AttentionOp>(op); }) != 1)
      return emitOpError() << "of strategy 'attention' must hold one "
                              "kernel.attention and no product or reduction";
    break;
  case Strategy::QuantizedProduct:
    if (products != 0 || reductions != 0 ||
        llvm::count_if(block.without_terminator(), [](Operation &op) {
          return isa<QuantizedMatmulOp>(op);
        }) != 1)
      return emitOpError() << "of strategy 'quantized_product' must hold one "
                              "kernel.quantized_matmul and no product or "
                              "reduction";
    break;
  case Strategy::Elementwise:
  case Strategy::Copy:
    if (products != 0 || reductions != 0)
      return emitOpError() << "of strategy '"
                           << stringifyStrategy(getStrategy())
                           << "' must hold no reduction or product";
    break;
  }
  return success();
}

LogicalResult AttentionOp::verify() {
  auto shaped = [](Value v) { return cast<ShapedType>(v.getType()); };
  ShapedType q = shaped(getQuery()), k = shaped(getKey()),
             v = shaped(getValue()), o = shaped(getInit());
  for (ShapedType type : {q, k, v, o})
    if (!type.hasRank() || type.getRank() != 4)
      return emitOpError() << "takes operands of rank 4, got " << type;
  bool tensors = isa<RankedTensorType>(q);
  for (ShapedType type : {k, v, o})
    if (isa<RankedTensorType>(type) != tensors)
      return emitOpError() << "mixes tensors and buffers";
  if (tensors != (getNumResults() == 1))
    return emitOpError() << (tensors ? "on tensors must have one result"
                                     : "on buffers has no result");
  if (tensors && getResult().front().getType() != o)
    return emitOpError() << "result type must be the init's, " << o;
  Type element = q.getElementType();
  if (k.getElementType() != element || v.getElementType() != element ||
      o.getElementType() != element)
    return emitOpError() << "operands must share one element type";
  ArrayRef<int64_t> qs = q.getShape(), ks = k.getShape(), vs = v.getShape(),
                    os = o.getShape();
  auto differ = [](int64_t a, int64_t b) {
    return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
  };
  if (differ(qs[0], ks[0]) || differ(qs[0], vs[0]) || differ(ks[1], vs[1]) ||
      differ(ks[2], vs[2]) || differ(qs[3], ks[3]))
    return emitOpError() << "query " << q << ", key " << k << " and value " << v
                         << " do not fit [B, Hq, L, D], [B, Hkv, S, D], "
                            "[B, Hkv, S, Dv]";
  if (differ(os[0], qs[0]) || differ(os[1], qs[1]) || differ(os[2], qs[2]) ||
      differ(os[3], vs[3]))
    return emitOpError() << "init " << o << " must be [B, Hq, L, Dv]";
  if (!ShapedType::isDynamic(qs[1]) && !ShapedType::isDynamic(ks[1]) &&
      (ks[1] == 0 || qs[1] % ks[1] != 0))
    return emitOpError() << "query heads (" << qs[1]
                         << ") must be a multiple of key heads (" << ks[1]
                         << ")";
  if (Value maskValue = getMask()) {
    ShapedType m = shaped(maskValue);
    if (isa<RankedTensorType>(m) != tensors)
      return emitOpError() << "mixes tensors and buffers";
    Type me = m.getElementType();
    if (!m.hasRank() || m.getRank() != 4 || !(me.isInteger(1) || me == element))
      return emitOpError() << "mask " << m << " must be of rank 4, boolean or "
                           << element;
    int64_t full[4] = {qs[0], qs[1], qs[2], ks[2]};
    for (auto [size, expected] : llvm::zip(m.getShape(), full))
      if (size != 1 && differ(size, expected))
        return emitOpError()
               << "mask " << m << " does not broadcast to [B, Hq, L, S] = ["
               << qs[0] << ", " << qs[1] << ", " << qs[2] << ", " << ks[2]
               << "]";
    if (getCausal())
      return emitOpError() << "takes a mask or causal, not both";
  }
  if (Value sinksValue = getSinks()) {
    ShapedType s = shaped(sinksValue);
    if (isa<RankedTensorType>(s) != tensors)
      return emitOpError() << "mixes tensors and buffers";
    if (!s.hasRank() || s.getRank() != 1 || s.getElementType() != element ||
        differ(s.getDimSize(0), qs[1]))
      return emitOpError() << "sinks " << s << " must be [Hq] = [" << qs[1]
                           << "] of " << element;
  }
  return success();
}

/// Memory effects of a destination-style kernel op on buffers: it reads its
/// inputs and writes its init.
static void addBufferEffects(
    DestinationStyleOpInterface op,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    if (op.isDpsInit(&operand))
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
    else
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

void AttentionOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addBufferEffects(*this, effects);
}

void QuantizedMatmulOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addBufferEffects(*this, effects);
}

int64_t QuantizedMatmulOp::getRows() {
  auto x = cast<ShapedType>(getX().getType());
  int64_t rows = 1;
  for (int64_t size : x.getShape().drop_back())
    rows *= size;
  return rows;
}

int64_t QuantizedMatmulOp::getReducedSize() {
  return cast<ShapedType>(getX().getType()).getShape().back();
}

int64_t QuantizedMatmulOp::getColumns() {
  return cast<ShapedType>(getPacked().getType()).getDimSize(0);
}

LogicalResult QuantizedMatmulOp::verify() {
  auto shaped = [](Value v) { return cast<ShapedType>(v.getType()); };
  ShapedType x = shaped(getX()), w = shaped(getPacked()),
             s = shaped(getScales()), b = shaped(getBiases()),
             o = shaped(getInit());
  bool tensors = isa<RankedTensorType>(x);
  for (ShapedType type : {x, w, s, b, o}) {
    if (!type.hasStaticShape())
      return emitOpError() << "takes operands of static shape, got " << type;
    if (isa<RankedTensorType>(type) != tensors)
      return emitOpError() << "mixes tensors and buffers";
  }
  if (tensors != (getNumResults() == 1))
    return emitOpError() << (tensors ? "on tensors must have one result"
                                     : "on buffers has no result");
  if (tensors && getResult().front().getType() != o)
    return emitOpError() << "result type must be the init's, " << o;
  int64_t bits = getBits(), group = getGroupSize();
  if (!llvm::is_contained({2, 3, 4, 5, 6, 8}, bits))
    return emitOpError() << "takes 2, 3, 4, 5, 6 or 8 bits, got " << bits;
  if (!llvm::is_contained({32, 64, 128}, group))
    return emitOpError() << "takes groups of 32, 64 or 128, got " << group;
  if (x.getRank() < 1 || o.getRank() != std::max<int64_t>(x.getRank(), 1) ||
      w.getRank() != 2 || s.getRank() != 2 || s != b)
    return emitOpError() << "takes x [..., M, K], packed [N, K * bits / 32], "
                            "scales and biases [N, K / group_size] of one "
                            "type, init [..., M, N]";
  if (!w.getElementType().isInteger(32))
    return emitOpError() << "packed words must be 32-bit integers, got "
                         << w.getElementType();
  if (!isa<FloatType>(x.getElementType()) ||
      !isa<FloatType>(s.getElementType()) ||
      !isa<FloatType>(o.getElementType()))
    return emitOpError() << "x, scales and init must be floats";
  int64_t k = x.getShape().back(), n = w.getDimSize(0);
  if (k % group != 0 || w.getDimSize(1) * 32 != k * bits ||
      s.getDimSize(0) != n || s.getDimSize(1) != k / group)
    return emitOpError() << "packed " << w << " and scales " << s
                         << " do not fit K = " << k << " at " << bits
                         << " bits in groups of " << group;
  if (x.getShape().drop_back() != o.getShape().drop_back() ||
      o.getShape().back() != n)
    return emitOpError() << "init " << o << " must be [..., M, N] with x " << x
                         << " and N = " << n;
  return success();
}
