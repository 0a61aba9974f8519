//===- HostBFloat.cpp - bfloat values of host code as 16-bit integers -----===//
//
// x86 without AVX512-BF16 has no bfloat registers: LLVM's backend keeps a
// bfloat value as a float and, to get the 16 bits back (a vectorized select,
// a spill, a value live across blocks), calls libgcc's __truncsfbf2, which a
// compiled program must not need. Host code only moves bfloat bits around
// (arithmetic was emulated in f32 before LLVM), so every bfloat value here
// becomes the i16 holding its bits, and the conversions to and from float
// become integer operations.
//
//===----------------------------------------------------------------------===//

#include "codegen/Target/ObjectFile.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

/// The integer type of the same shape as a bfloat type, or null.
static Type *getBitsType(Type *type) {
  if (type->isBFloatTy())
    return Type::getInt16Ty(type->getContext());
  if (auto *vector = dyn_cast<VectorType>(type))
    if (vector->getElementType()->isBFloatTy())
      return VectorType::get(Type::getInt16Ty(type->getContext()),
                             vector->getElementCount());
  return nullptr;
}

static bool isBFloatLike(Type *type) { return getBitsType(type) != nullptr; }

namespace {
class BFloatRewriter {
public:
  explicit BFloatRewriter(Function &func) : func(func) {}

  /// Rewrites the function; an error names an instruction that computes in
  /// bfloat (nothing upstream of this rewrite should produce one).
  Error run();

private:
  /// The i16 form of a bfloat value.
  Value *bits(Value *value);
  Error rewrite(Instruction &inst);

  Function &func;
  DenseMap<Value *, Value *> map;
  SmallVector<std::pair<PHINode *, PHINode *>> phis;
  SmallVector<Instruction *> dead;
};
} // namespace

Value *BFloatRewriter::bits(Value *value) {
  if (Value *mapped = map.lookup(value))
    return mapped;
  Type *type = getBitsType(value->getType());
  if (auto *constant = dyn_cast<Constant>(value))
    return map[value] = ConstantExpr::getBitCast(constant, type);
  // An argument (the rewritten code never passes bfloat values itself).
  IRBuilder<> b(&*func.getEntryBlock().getFirstInsertionPt());
  return map[value] = b.CreateBitCast(value, type);
}

Error BFloatRewriter::rewrite(Instruction &inst) {
  IRBuilder<> b(&inst);
  Type *type = inst.getType();
  auto done = [&](Value *replacement) {
    if (isBFloatLike(type))
      map[&inst] = replacement;
    else
      inst.replaceAllUsesWith(replacement);
    dead.push_back(&inst);
    return Error::success();
  };
  if (auto *load = dyn_cast<LoadInst>(&inst); load && isBFloatLike(type)) {
    LoadInst *replacement =
        b.CreateAlignedLoad(getBitsType(type), load->getPointerOperand(),
                            load->getAlign(), load->isVolatile());
    replacement->copyMetadata(*load);
    return done(replacement);
  }
  if (auto *store = dyn_cast<StoreInst>(&inst);
      store && isBFloatLike(store->getValueOperand()->getType())) {
    StoreInst *replacement =
        b.CreateAlignedStore(bits(store->getValueOperand()),
                             store->getPointerOperand(), store->getAlign(),
                             store->isVolatile());
    replacement->copyMetadata(*store);
    dead.push_back(store);
    return Error::success();
  }
  if (auto *cast = dyn_cast<BitCastInst>(&inst)) {
    Value *source = cast->getOperand(0);
    if (isBFloatLike(type) && getBitsType(type) == source->getType())
      return done(source);
    if (isBFloatLike(source->getType()))
      return done(b.CreateBitCast(bits(source), type));
    return Error::success();
  }
  if (auto *phi = dyn_cast<PHINode>(&inst); phi && isBFloatLike(type)) {
    PHINode *replacement =
        b.CreatePHI(getBitsType(type), phi->getNumIncomingValues());
    phis.push_back({phi, replacement});
    return done(replacement);
  }
  if (auto *select = dyn_cast<SelectInst>(&inst); select && isBFloatLike(type))
    return done(b.CreateSelect(select->getCondition(),
                               bits(select->getTrueValue()),
                               bits(select->getFalseValue())));
  if (auto *insert = dyn_cast<InsertElementInst>(&inst);
      insert && isBFloatLike(type))
    return done(b.CreateInsertElement(bits(insert->getOperand(0)),
                                      bits(insert->getOperand(1)),
                                      insert->getOperand(2)));
  if (auto *extract = dyn_cast<ExtractElementInst>(&inst);
      extract && isBFloatLike(type))
    return done(b.CreateExtractElement(bits(extract->getVectorOperand()),
                                       extract->getIndexOperand()));
  if (auto *shuffle = dyn_cast<ShuffleVectorInst>(&inst);
      shuffle && isBFloatLike(type))
    return done(b.CreateShuffleVector(bits(shuffle->getOperand(0)),
                                      bits(shuffle->getOperand(1)),
                                      shuffle->getShuffleMask()));
  if (auto *ext = dyn_cast<FPExtInst>(&inst);
      ext && isBFloatLike(ext->getOperand(0)->getType())) {
    // bfloat -> float: the bits are the float's upper half.
    Type *wide = type->getWithNewBitWidth(32);
    Value *word = b.CreateShl(b.CreateZExt(bits(ext->getOperand(0)), wide), 16);
    Value *single = b.CreateBitCast(word, type->getWithNewType(
                                              b.getFloatTy()));
    return done(type->getScalarType()->isFloatTy()
                    ? single
                    : b.CreateFPExt(single, type));
  }
  if (auto *trunc = dyn_cast<FPTruncInst>(&inst); trunc && isBFloatLike(type)) {
    // float -> bfloat, rounding to nearest even; NaN stays a quiet NaN.
    Value *single = trunc->getOperand(0);
    if (!single->getType()->getScalarType()->isFloatTy())
      single = b.CreateFPTrunc(single, single->getType()->getWithNewType(
                                           b.getFloatTy()));
    Type *wordType = single->getType()->getWithNewBitWidth(32);
    Value *word = b.CreateBitCast(single, wordType);
    Value *lsb = b.CreateAnd(b.CreateLShr(word, 16),
                             ConstantInt::get(wordType, 1));
    Value *rounded = b.CreateAdd(
        word, b.CreateAdd(ConstantInt::get(wordType, 0x7FFF), lsb));
    Value *high = b.CreateTrunc(b.CreateLShr(rounded, 16), getBitsType(type));
    Value *isNan = b.CreateFCmpUNO(single, single);
    Value *nan = ConstantInt::get(getBitsType(type), 0x7FC0);
    return done(b.CreateSelect(isNan, nan, high));
  }
  bool touches = isBFloatLike(type);
  for (Value *operand : inst.operands())
    touches |= isBFloatLike(operand->getType());
  if (!touches || isa<GetElementPtrInst>(inst))
    return Error::success();
  std::string text;
  raw_string_ostream os(text);
  inst.print(os);
  return createStringError(inconvertibleErrorCode(),
                           "host code computes in bfloat, which the CPU "
                           "back end would lower to libgcc calls:" +
                               text);
}

Error BFloatRewriter::run() {
  // Definitions before uses, but for the phis' incoming values.
  ReversePostOrderTraversal<Function *> order(&func);
  for (BasicBlock *block : order)
    for (Instruction &inst : *block)
      if (Error e = rewrite(inst))
        return e;
  for (auto [old, replacement] : phis)
    for (unsigned i = 0, e = old->getNumIncomingValues(); i < e; ++i)
      replacement->addIncoming(bits(old->getIncomingValue(i)),
                               old->getIncomingBlock(i));
  for (Instruction *inst : dead)
    inst->dropAllReferences();
  for (Instruction *inst : dead) {
    if (!inst->use_empty())
      inst->replaceAllUsesWith(PoisonValue::get(inst->getType()));
    inst->eraseFromParent();
  }
  return Error::success();
}

Error mlir::mlx::lowerHostBFloat(llvm::Module &module) {
  for (Function &func : module)
    if (!func.isDeclaration())
      if (Error e = BFloatRewriter(func).run())
        return e;
  return Error::success();
}
