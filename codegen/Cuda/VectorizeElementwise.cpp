//===- VectorizeElementwise.cpp - the mlxc-vectorize-elementwise pass -----===//
//
// An elementwise linalg.generic becomes one thread per element, and each
// thread moves 4 bytes per operand: NVPTX issues one 32-bit load or store per
// element, which keeps a memory-bound kernel well below the bandwidth
// floor. Here each thread takes V contiguous elements of the innermost loop
// instead (V * element size = 16 bytes for the widest operand) and the body
// runs on vector<V x T>: one `ld.global.v4` / `st.global.v4` per operand,
// with the alignment proven from the buffers' static layouts. A
// linalg.copy (a KV cache copied into the output before its new row) and a
// linalg.transpose that keeps the innermost axis take the same path as the
// generics they are.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/ShapeUtils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCVECTORIZEELEMENTWISE
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;
using mlir::mlx::getElementBytes;

/// Bytes each thread moves for its widest operand.
static constexpr int64_t kAccessBytes = 16;

/// Whether the buffer behind `value` starts at an address aligned to
/// `bytes`: graph arguments and allocations are (the runtime hands out
/// 64-byte aligned buffers, arenas align every buffer to 256), and views
/// keep it when their static offset does (checked by the caller on the final
/// type). Views with run-time byte shifts and globals are not trusted.
static bool hasAlignedBase(Value value, int64_t bytes) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(value))
      return isa<func::FuncOp>(arg.getOwner()->getParentOp());
    Operation *def = value.getDefiningOp();
    if (isa<memref::AllocOp>(def))
      return true;
    if (auto alloca = dyn_cast<memref::AllocaOp>(def))
      return alloca.getAlignment().value_or(0) >= static_cast<uint64_t>(bytes);
    if (auto view = dyn_cast<memref::ViewOp>(def)) {
      std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
      if (!shift || *shift % bytes != 0)
        return false;
      value = view.getSource();
      continue;
    }
    auto viewLike = dyn_cast_or_null<ViewLikeOpInterface>(def);
    if (!viewLike)
      return false;
    value = viewLike.getViewSource();
  }
}

namespace {

/// How the vector loop reads or writes one operand.
struct OperandAccess {
  bool vector = false; // V contiguous elements; else one broadcast scalar
  int64_t alignment = 0;
};

/// The plan for one generic: the vector width and each operand's access.
struct VectorPlan {
  int64_t width = 0;
  SmallVector<OperandAccess> operands;
};

} // namespace

/// Whether `op` can run on vectors: an elementwise arith/math op with
/// scalar operands and results, or a constant.
static bool isVectorizableBodyOp(Operation &op) {
  if (isa<linalg::YieldOp, arith::ConstantOp>(op))
    return true;
  if (op.getNumRegions() != 0 || !op.hasTrait<OpTrait::Elementwise>() ||
      !isa<arith::ArithDialect, math::MathDialect>(op.getDialect()))
    return false;
  auto scalar = [](Type type) {
    return isa<IntegerType, FloatType, IndexType>(type);
  };
  return llvm::all_of(op.getOperandTypes(), scalar) &&
         llvm::all_of(op.getResultTypes(), scalar);
}

/// Decides whether `op` gets vector loops and how each operand is accessed.
static std::optional<VectorPlan> planVectorization(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumReductionLoops() != 0 ||
      op.getNumLoops() == 0 || op.getNumDpsInits() == 0)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return std::nullopt;
  if (!llvm::all_of(op.getBody()->without_terminator(), isVectorizableBodyOp))
    return std::nullopt;

  unsigned last = op.getNumLoops() - 1;
  VectorPlan plan;
  int64_t widest = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!type || !map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return std::nullopt;
    int64_t elementBytes = getElementBytes(type.getElementType());
    if (elementBytes == 0)
      return std::nullopt;
    OperandAccess access;
    std::optional<unsigned> position =
        map.getResultPosition(getAffineDimExpr(last, op.getContext()));
    if (position) {
      // The innermost loop must walk the operand's innermost, unit-stride
      // axis.
      if (*position != map.getNumResults() - 1)
        return std::nullopt;
      access.vector = true;
      widest = std::max(widest, elementBytes);
    } else if (op.isDpsInit(&operand)) {
      return std::nullopt; // an output must be written element by element
    }
    plan.operands.push_back(access);
  }
  if (widest == 0 || kAccessBytes / widest < 2)
    return std::nullopt;
  int64_t width = kAccessBytes / widest;
  while (width > 1 && ranges[last] % width != 0)
    width /= 2;
  if (width < 2)
    return std::nullopt;

  // Every vector access must be aligned to its own size.
  for (auto [operand, access] : llvm::zip(op->getOpOperands(), plan.operands)) {
    if (!access.vector)
      continue;
    auto type = cast<MemRefType>(operand.get().getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        ShapedType::isDynamic(offset) || strides.back() != 1)
      return std::nullopt;
    for (int64_t stride : ArrayRef(strides).drop_back())
      if (ShapedType::isDynamic(stride) || stride % width != 0)
        return std::nullopt;
    int64_t bytes = width * getElementBytes(type.getElementType());
    if (offset % width != 0 || !hasAlignedBase(operand.get(), bytes))
      return std::nullopt;
    access.alignment = bytes;
  }
  plan.width = width;
  return plan;
}

/// Replaces `op` by an scf.parallel whose innermost loop steps over groups
/// of `plan.width` elements, with the body on vectors.
static void vectorize(linalg::GenericOp op, const VectorPlan &plan) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  ranges.back() /= plan.width;
  llvm::SmallDenseMap<int64_t, Value> constants;
  auto constant = [&](int64_t value) {
    Value &c = constants[value];
    if (!c)
      c = arith::ConstantIndexOp::create(b, loc, value);
    return c;
  };
  SmallVector<Value> lower, upper, steps;
  Value zero = constant(0);
  for (int64_t range : ranges) {
    lower.push_back(zero);
    upper.push_back(constant(range));
    steps.push_back(constant(1));
  }
  auto loop = scf::ParallelOp::create(b, loc, lower, upper, steps);
  b.setInsertionPoint(loop.getBody()->getTerminator());

  // Loop indices in element units: the innermost one steps by the width.
  SmallVector<Value> ivs(loop.getInductionVars());
  ivs.back() = arith::MulIOp::create(b, loc, ivs.back(), constant(plan.width));

  auto indicesOf = [&](OpOperand &operand) {
    SmallVector<Value> indices;
    for (AffineExpr expr : op.getMatchingIndexingMap(&operand).getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        indices.push_back(ivs[dim.getPosition()]);
      else
        indices.push_back(zero); // a broadcast unit axis
    }
    return indices;
  };
  auto vectorTypeOf = [&](Type scalar) {
    return VectorType::get({plan.width}, scalar);
  };

  // Body values: vectors, or uniform scalars (constants, values from above,
  // broadcast operands) that become vectors where a vector op needs them.
  IRMapping mapping;
  llvm::SmallPtrSet<Value, 16> isVector;
  auto asVector = [&](Value scalar) -> Value {
    Value mapped = mapping.lookupOrDefault(scalar);
    if (isVector.contains(mapped))
      return mapped;
    return vector::BroadcastOp::create(b, loc, vectorTypeOf(mapped.getType()),
                                       mapped);
  };

  Block *body = op.getBody();
  for (auto [index, operand] : llvm::enumerate(op->getOpOperands())) {
    BlockArgument arg = body->getArgument(index);
    if (arg.use_empty())
      continue;
    SmallVector<Value> indices = indicesOf(operand);
    const OperandAccess &access = plan.operands[index];
    Value value;
    if (access.vector) {
      value = vector::LoadOp::create(
          b, loc, vectorTypeOf(arg.getType()), operand.get(), indices,
          /*nontemporal=*/false, llvm::MaybeAlign(access.alignment));
      isVector.insert(value);
    } else {
      value = memref::LoadOp::create(b, loc, operand.get(), indices);
    }
    mapping.map(arg, value);
  }

  for (Operation &bodyOp : body->without_terminator()) {
    bool anyVector = llvm::any_of(bodyOp.getOperands(), [&](Value v) {
      return isVector.contains(mapping.lookupOrDefault(v));
    });
    if (!anyVector) {
      b.clone(bodyOp, mapping); // uniform: stays scalar
      continue;
    }
    SmallVector<Value> operands;
    for (Value operand : bodyOp.getOperands())
      operands.push_back(asVector(operand));
    Operation *vectorOp = b.clone(bodyOp);
    vectorOp->setOperands(operands);
    for (auto [result, vectorResult] :
         llvm::zip(bodyOp.getResults(), vectorOp->getResults())) {
      vectorResult.setType(vectorTypeOf(result.getType()));
      mapping.map(result, vectorResult);
      isVector.insert(vectorResult);
    }
  }

  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  for (auto [yielded, init] :
       llvm::zip(yield.getValues(), op.getDpsInitsMutable())) {
    const OperandAccess &access = plan.operands[init.getOperandNumber()];
    vector::StoreOp::create(b, loc, asVector(yielded), init.get(),
                            indicesOf(init), /*nontemporal=*/false,
                            llvm::MaybeAlign(access.alignment));
  }
  op.erase();
}

namespace {
struct MlxcVectorizeElementwisePass final
    : mlx::impl::MlxcVectorizeElementwiseBase<MlxcVectorizeElementwisePass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<linalg::CopyOp> copies;
    getOperation()->walk([&](linalg::CopyOp op) {
      if (op.hasPureBufferSemantics() &&
          getElementTypeOrSelf(op.getDpsInputs()[0].getType()) ==
              getElementTypeOrSelf(op.getDpsInits()[0].getType()))
        copies.push_back(op);
    });
    for (linalg::CopyOp copy : copies) {
      // The generic the copy is; the copy stays when that does not
      // vectorize (the same loops follow).
      OpBuilder b(copy);
      auto type = cast<MemRefType>(copy.getDpsInits()[0].getType());
      int64_t rank = type.getRank();
      auto generic = linalg::GenericOp::create(
          b, copy.getLoc(), copy.getDpsInputs()[0], copy.getDpsInits()[0],
          SmallVector<AffineMap>(2, b.getMultiDimIdentityMap(rank)),
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [](OpBuilder &body, Location loc, ValueRange args) {
            linalg::YieldOp::create(body, loc, args[0]);
          });
      if (!planVectorization(generic)) {
        generic.erase();
        continue;
      }
      generic->setDiscardableAttrs(copy->getDiscardableAttrDictionary());
      copy.erase();
    }
    // A transpose that keeps the innermost axis (MLX's [B, L, H, D] <->
    // [B, H, L, D]) moves rows of contiguous elements: as the generic it
    // is, it vectorizes like any map.
    SmallVector<linalg::TransposeOp> transposes;
    getOperation()->walk([&](linalg::TransposeOp op) {
      ArrayRef<int64_t> permutation = op.getPermutation();
      if (op.hasPureBufferSemantics() && !permutation.empty() &&
          permutation.back() == static_cast<int64_t>(permutation.size()) - 1)
        transposes.push_back(op);
    });
    for (linalg::TransposeOp transpose : transposes) {
      IRRewriter rewriter(transpose);
      DictionaryAttr attrs = transpose->getDiscardableAttrDictionary();
      FailureOr<linalg::GenericOp> generic =
          linalg::generalizeNamedOp(rewriter, transpose);
      if (succeeded(generic))
        (*generic)->setDiscardableAttrs(attrs);
    }
    SmallVector<std::pair<linalg::GenericOp, VectorPlan>> work;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (std::optional<VectorPlan> plan = planVectorization(op))
        work.push_back({op, std::move(*plan)});
    });
    for (auto &[op, plan] : work)
      vectorize(op, plan);
  }
};
} // namespace
