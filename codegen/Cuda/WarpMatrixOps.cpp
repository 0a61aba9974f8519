//===- WarpMatrixOps.cpp - the mlxc-warp-matrix-ops pass ------------------===//
//
// Defines the warp matrix functions that kernels declare (WarpMatrix.h) in
// each lowered gpu.module, for the module's own chip: one `mma.sync.m16n8k16`
// from sm_80 on; shuffles and FMAs in float32 for older chips, so that the
// sm_70 PTX, which every GPU can run, computes the same products. The same
// for ldmatrix and the asynchronous copies into shared memory. It runs after
// mlxc-chip-variants, which clones the modules per chip.
//
//===----------------------------------------------------------------------===//

#include "codegen/Cuda/Arch.h"
#include "codegen/Cuda/ChipFunctions.h"
#include "codegen/Cuda/WarpMatrix.h"
#include "codegen/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::mlx {
#define GEN_PASS_DEF_MLXCWARPMATRIXOPS
#include "codegen/Passes.h.inc"
} // namespace mlir::mlx

using namespace mlir;

namespace {
/// The body of an mma.sync for sm_80 and newer.
Value buildTensorCoreMma(OpBuilder &b, Location loc, bool bf16, ValueRange args,
                         Type resultType) {
  SmallVector<Value> a(args.take_front(4)), bFrag(args.slice(4, 2));
  if (!bf16) {
    // f16 fragments are f16x2 vectors.
    auto pair = VectorType::get({2}, b.getF16Type());
    for (Value &v : a)
      v = LLVM::BitcastOp::create(b, loc, pair, v);
    for (Value &v : bFrag)
      v = LLVM::BitcastOp::create(b, loc, pair, v);
  }
  NVVM::MMATypes type = bf16 ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
  return NVVM::MmaOp::create(b, loc, resultType, a, bFrag, args.take_back(4),
                             ArrayRef<int64_t>{16, 8, 16}, std::nullopt,
                             std::nullopt,
                             std::array<NVVM::MMATypes, 2>{type, type},
                             std::array<NVVM::MMALayout, 2>{
                                 NVVM::MMALayout::row, NVVM::MMALayout::col});
}

/// The same product from shuffles and FMAs: lane (g, t) gathers row g's
/// and row g+8's A values from its quad and B columns 2t, 2t+1 from the
/// lanes that hold them, 4 k-pairs at a time.
Value buildEmulatedMma(OpBuilder &b, Location loc, bool bf16, ValueRange args,
                       Type resultType) {
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  auto c = [&](int32_t v) {
    return LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(v));
  };
  Value lane = NVVM::LaneIdOp::create(b, loc, i32);
  Value g = LLVM::LShrOp::create(b, loc, lane, c(2));
  Value t = LLVM::AndOp::create(b, loc, lane, c(3));
  Value all = c(-1), clamp = c(0x1f);
  auto shuffle = [&](Value value, Value source) -> Value {
    return NVVM::ShflOp::create(b, loc, i32, all, value, source, clamp,
                                NVVM::ShflKind::idx, UnitAttr());
  };
  // The two 16-bit floats of a packed word, widened.
  auto unpack = [&](Value word) -> std::pair<Value, Value> {
    if (bf16) {
      Value lo = LLVM::ShlOp::create(b, loc, word, c(16));
      Value hi = LLVM::AndOp::create(b, loc, word, c(int32_t(0xffff0000u)));
      return {LLVM::BitcastOp::create(b, loc, f32, lo),
              LLVM::BitcastOp::create(b, loc, f32, hi)};
    }
    auto pair = VectorType::get({2}, b.getF16Type());
    Value halves = LLVM::BitcastOp::create(b, loc, pair, word);
    Value wide =
        LLVM::FPExtOp::create(b, loc, VectorType::get({2}, f32), halves);
    return {LLVM::ExtractElementOp::create(b, loc, wide, c(0)),
            LLVM::ExtractElementOp::create(b, loc, wide, c(1))};
  };
  // acc[r][j]: row g + 8r, column 2t + j.
  Value acc[2][2] = {{args[6], args[7]}, {args[8], args[9]}};
  Value quad = LLVM::ShlOp::create(b, loc, g, c(2));
  Value columns[2] = {
      LLVM::ShlOp::create(b, loc, t, c(3)),
      LLVM::AddOp::create(b, loc, LLVM::ShlOp::create(b, loc, t, c(3)), c(4))};
  for (int32_t s = 0; s < 4; ++s) {
    Value fromRow = LLVM::OrOp::create(b, loc, quad, c(s));
    // a0/a2 hold row g at k = 2s.. and 8 + 2s..; a1/a3 row g + 8.
    std::pair<Value, Value> a[4];
    for (int i = 0; i < 4; ++i)
      a[i] = unpack(shuffle(args[i], fromRow));
    for (int j = 0; j < 2; ++j) {
      Value fromColumn = LLVM::OrOp::create(b, loc, columns[j], c(s));
      std::pair<Value, Value> lowK = unpack(shuffle(args[4], fromColumn));
      std::pair<Value, Value> highK = unpack(shuffle(args[5], fromColumn));
      for (int r = 0; r < 2; ++r) {
        auto fma = [&](Value x, Value y, Value z) -> Value {
          return LLVM::FMAOp::create(b, loc, x, y, z);
        };
        Value &sum = acc[r][j];
        sum = fma(a[r].first, lowK.first, sum);
        sum = fma(a[r].second, lowK.second, sum);
        sum = fma(a[r + 2].first, highK.first, sum);
        sum = fma(a[r + 2].second, highK.second, sum);
      }
    }
  }
  Value result = LLVM::UndefOp::create(b, loc, resultType);
  int64_t position = 0;
  for (int r = 0; r < 2; ++r)
    for (int j = 0; j < 2; ++j)
      result = LLVM::InsertValueOp::create(b, loc, result, acc[r][j],
                                           ArrayRef<int64_t>{position++});
  return result;
}

/// ldmatrix .x4 (transposed or not) from sm_75 on.
Value buildLdMatrix(OpBuilder &b, Location loc, Value address, bool transpose,
                    Type resultType) {
  Value ptr = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3), address);
  return NVVM::LdMatrixOp::create(
      b, loc, resultType, ptr, /*num=*/4,
      transpose ? NVVM::MMALayout::col : NVVM::MMALayout::row,
      NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
      NVVM::LdStMatrixEltType::B16);
}

/// The same from shuffled row addresses: lane (g, t) takes row g of each
/// matrix at column pair t, or, transposed, column g of rows 2t and 2t + 1.
Value buildEmulatedLdMatrix(OpBuilder &b, Location loc, Value address,
                            bool transpose, Type resultType) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type(), i16 = b.getI16Type();
  auto c = [&](int32_t v) {
    return LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(v));
  };
  auto ptr3 = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value lane = NVVM::LaneIdOp::create(b, loc, i32);
  Value g = LLVM::LShrOp::create(b, loc, lane, c(2));
  Value t = LLVM::AndOp::create(b, loc, lane, c(3));
  // Shared-memory addresses fit in 32 bits.
  Value low = LLVM::TruncOp::create(b, loc, i32, address);
  auto rowAddress = [&](Value sourceLane) -> Value {
    Value a = NVVM::ShflOp::create(b, loc, i32, c(-1), low, sourceLane, c(0x1f),
                                   NVVM::ShflKind::idx, UnitAttr());
    return LLVM::ZExtOp::create(b, loc, i64, a);
  };
  auto load = [&](Type type, Value at) -> Value {
    return LLVM::LoadOp::create(b, loc, type,
                                LLVM::IntToPtrOp::create(b, loc, ptr3, at));
  };
  Value result = LLVM::UndefOp::create(b, loc, resultType);
  for (int32_t i = 0; i < 4; ++i) {
    Value word;
    if (!transpose) {
      Value row = rowAddress(LLVM::AddOp::create(b, loc, g, c(8 * i)));
      Value offset = LLVM::ZExtOp::create(b, loc, i64,
                                          LLVM::ShlOp::create(b, loc, t, c(2)));
      word = load(i32, LLVM::AddOp::create(b, loc, row, offset));
    } else {
      Value column = LLVM::ZExtOp::create(b, loc, i64,
                                          LLVM::ShlOp::create(b, loc, g, c(1)));
      Value first = LLVM::AddOp::create(
          b, loc, LLVM::ShlOp::create(b, loc, t, c(1)), c(8 * i));
      Value halves[2];
      for (int e = 0; e < 2; ++e) {
        Value row =
            rowAddress(e ? LLVM::AddOp::create(b, loc, first, c(1)) : first);
        halves[e] = LLVM::ZExtOp::create(
            b, loc, i32, load(i16, LLVM::AddOp::create(b, loc, row, column)));
      }
      word = LLVM::OrOp::create(b, loc, halves[0],
                                LLVM::ShlOp::create(b, loc, halves[1], c(16)));
    }
    result =
        LLVM::InsertValueOp::create(b, loc, result, word, ArrayRef<int64_t>{i});
  }
  return result;
}

/// One 16-byte copy from global into shared memory: `cp.async.cg` from
/// sm_80 on (it bypasses L1, which a tile read once does not need), else a
/// load and a store.
void buildAsyncCopy(OpBuilder &b, Location loc, int64_t chip, Value shared,
                    Value global) {
  MLIRContext *ctx = b.getContext();
  Value to = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, 3), shared);
  Value from = LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, 1),
      LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(ctx),
                               global));
  if (chip >= 80) {
    NVVM::CpAsyncOp::create(b, loc, to, from, /*size=*/16u,
                            NVVM::LoadCacheModifierKind::CG, Value());
    return;
  }
  Type chunk = VectorType::get({4}, b.getI32Type());
  Value value = LLVM::LoadOp::create(b, loc, chunk, from, /*alignment=*/16);
  LLVM::StoreOp::create(b, loc, value, to, /*alignment=*/16);
}

/// Gives each kernel of `module` that calls mlxc_min_blocks_per_sm its
/// occupancy target and drops the calls and the declaration; failure for a
/// count that is not one constant of 1 to 32.
LogicalResult setMinBlocksPerSm(gpu::GPUModuleOp module) {
  SmallVector<LLVM::CallOp> calls;
  for (auto kernel : module.getOps<LLVM::LLVMFuncOp>()) {
    FailureOr<std::optional<int64_t>> count = mlx::getConstantCallArgument(
        kernel, mlx::kMinBlocksPerSmName, 1, 32,
        "asks for other than one constant count of 1 to 32 blocks a SM",
        &calls);
    if (failed(count))
      return failure();
    if (*count)
      kernel->setAttr(
          NVVM::NVVMDialect::getMinctasmAttrName(),
          IntegerAttr::get(IntegerType::get(module.getContext(), 32), **count));
  }
  for (LLVM::CallOp call : calls)
    call.erase();
  if (Operation *declaration =
          SymbolTable::lookupSymbolIn(module, mlx::kMinBlocksPerSmName))
    declaration->erase();
  return success();
}

struct MlxcWarpMatrixOpsPass final
    : mlx::impl::MlxcWarpMatrixOpsBase<MlxcWarpMatrixOpsPass> {
  using Base::Base;
  void runOnOperation() override {
    WalkResult walk = getOperation()->walk([&](gpu::GPUModuleOp module) {
      if (failed(setMinBlocksPerSm(module)))
        return WalkResult::interrupt();
      int64_t chip = mlx::getModuleChip(module);
      for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
        if (!func.isExternal())
          continue;
        StringRef name = func.getName();
        bool isMma = name.starts_with(mlx::kWarpMmaPrefix);
        bool isLoad =
            name == mlx::kLdMatrixName || name == mlx::kLdMatrixTransName;
        bool isCopy = name == mlx::kAsyncCopyName;
        bool isWait = name == mlx::kAsyncWaitName;
        if (!isMma && !isLoad && !isCopy && !isWait)
          continue;
        StringRef type =
            isMma ? name.drop_front(mlx::kWarpMmaPrefix.size()) : "";
        auto fnType = func.getFunctionType();
        auto allI64 = [&](unsigned count) {
          return fnType.getNumParams() == count &&
                 llvm::all_of(fnType.getParams(),
                              [](Type t) { return t.isInteger(64); });
        };
        bool returnsVoid = isa<LLVM::LLVMVoidType>(fnType.getReturnType());
        if (((isMma || isLoad) &&
             !isa<LLVM::LLVMStructType>(fnType.getReturnType())) ||
            (isMma && ((type != "bf16" && type != "f16") ||
                       fnType.getNumParams() != 10)) ||
            (isLoad && !allI64(1)) || (isCopy && !(returnsVoid && allI64(2))) ||
            (isWait && !(returnsVoid && allI64(0)))) {
          func.emitOpError() << "is not a warp matrix function mlxc defines";
          return WalkResult::interrupt();
        }
        if (chip == 0) {
          module.emitError() << "mlxc-warp-matrix-ops: the module has no "
                                "NVVM target chip";
          return WalkResult::interrupt();
        }
        OpBuilder b(func.getContext());
        Block *entry = func.addEntryBlock(b);
        b.setInsertionPointToStart(entry);
        Location loc = func.getLoc();
        Type resultType = fnType.getReturnType();
        Value result;
        if (isCopy || isWait) {
          if (isCopy)
            buildAsyncCopy(b, loc, chip, entry->getArgument(0),
                           entry->getArgument(1));
          else if (chip >= 80) {
            NVVM::CpAsyncCommitGroupOp::create(b, loc);
            NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
          }
        } else if (isMma) {
          bool bf16 = type == "bf16";
          result = chip >= 80
                       ? buildTensorCoreMma(b, loc, bf16, entry->getArguments(),
                                            resultType)
                       : buildEmulatedMma(b, loc, bf16, entry->getArguments(),
                                          resultType);
        } else {
          bool transpose = name == mlx::kLdMatrixTransName;
          result = chip >= 75
                       ? buildLdMatrix(b, loc, entry->getArgument(0), transpose,
                                       resultType)
                       : buildEmulatedLdMatrix(b, loc, entry->getArgument(0),
                                               transpose, resultType);
        }
        LLVM::ReturnOp::create(b, loc,
                               result ? ValueRange(result) : ValueRange());
        func.setLinkage(LLVM::Linkage::Internal);
        func.setPassthroughAttr(
            b.getArrayAttr({b.getStringAttr("alwaysinline")}));
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
