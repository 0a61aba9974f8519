//===- Random.cpp - random_bits to linalg ---------------------------------===//
//
// MLX's RandomBits: the output's bytes are `w = ceil(bytes / 4)` 32-bit
// words of the Threefry-2x32 hash (20 rounds) of the key and a counter
// pair. Word m < h = w / 2 is the first half of hash(m, m + h + odd), word
// m >= h + odd the second half of hash(m - h - odd, m), and for odd w the
// middle word is the first half of hash(h, 0). Elements narrower than a
// word are its bytes, little-endian. Every word is independent, so the
// lowering is one data-parallel linalg.generic over the elements.
//
//===----------------------------------------------------------------------===//

#include "codegen/MlxToLinalg/MlxToLinalg.h"
#include "codegen/MlxToLinalg/ScalarOps.h"

#include "Mlx/MlxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mlx;

/// Threefry-2x32 with 20 rounds, as in JAX and MLX.
static std::pair<Value, Value> emitThreefry(OpBuilder &b, Location loc,
                                            Value k0, Value k1, Value c0,
                                            Value c1) {
  Type i32 = b.getI32Type();
  auto cst = [&](uint32_t v) {
    return arith::ConstantIntOp::create(b, loc, i32, static_cast<int64_t>(v))
        .getResult();
  };
  Value ks[3] = {k0, k1,
                 arith::XOrIOp::create(b, loc,
                                       arith::XOrIOp::create(b, loc, k0, k1),
                                       cst(0x1BD11BDA))};
  static const uint32_t rotations[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  Value x = arith::AddIOp::create(b, loc, c0, ks[0]);
  Value y = arith::AddIOp::create(b, loc, c1, ks[1]);
  for (int i = 0; i < 5; ++i) {
    for (uint32_t r : rotations[i % 2]) {
      x = arith::AddIOp::create(b, loc, x, y);
      Value rotated =
          arith::OrIOp::create(b, loc, arith::ShLIOp::create(b, loc, y, cst(r)),
                               arith::ShRUIOp::create(b, loc, y, cst(32 - r)));
      y = arith::XOrIOp::create(b, loc, rotated, x);
    }
    x = arith::AddIOp::create(b, loc, x, ks[(i + 1) % 3]);
    y = arith::AddIOp::create(
        b, loc, arith::AddIOp::create(b, loc, y, ks[(i + 2) % 3]), cst(i + 1));
  }
  return {x, y};
}

namespace {
struct RandomBitsOpLowering final : OpConversionPattern<RandomBitsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RandomBitsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto keyType = cast<RankedTensorType>(op.getKey().getType());
    auto type = cast<RankedTensorType>(op.getType());
    if (!type.hasStaticShape() || keyType.getShape() != ArrayRef<int64_t>{2})
      return rewriter.notifyMatchFailure(op, "one key of shape [2]");
    int64_t width = static_cast<int64_t>(op.getWidth());
    int64_t bytes = type.getNumElements() * width;
    int64_t words = (bytes + 3) / 4, half = words / 2, odd = words % 2;
    int64_t rank = type.getRank();
    auto storage = lowering::getStorageType(type);
    Value init = tensor::EmptyOp::create(rewriter, loc, storage.getShape(),
                                         storage.getElementType());
    Value key = adaptor.getKey();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{storage}, ValueRange{}, init,
        AffineMap::getMultiDimIdentityMap(rank, rewriter.getContext()),
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange) {
          Type i32 = b.getI32Type();
          auto idx = [&](int64_t v) {
            return arith::ConstantIndexOp::create(b, l, v).getResult();
          };
          auto toI32 = [&](Value v) {
            return arith::IndexCastOp::create(b, l, i32, v).getResult();
          };
          // Linear element index, its byte and its word.
          Value e = idx(0);
          for (int64_t d = 0; d < rank; ++d)
            e = arith::AddIOp::create(
                b, l, arith::MulIOp::create(b, l, e, idx(type.getDimSize(d))),
                linalg::IndexOp::create(b, l, d));
          Value byte = arith::MulIOp::create(b, l, e, idx(width));
          Value m = arith::DivUIOp::create(b, l, byte, idx(4));
          Value k0 = tensor::ExtractOp::create(b, l, key, ValueRange{idx(0)});
          Value k1 = tensor::ExtractOp::create(b, l, key, ValueRange{idx(1)});
          // The counter pair and which half of the hash this word is.
          Value low = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, m,
                                            idx(half));
          Value middle = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::eq, m,
              idx(odd ? half : words)); // Never true for even w.
          Value partner = arith::AddIOp::create(b, l, m, idx(half + odd));
          Value back = arith::SubIOp::create(
              b, l, arith::MaxUIOp::create(b, l, m, idx(half + odd)),
              idx(half + odd));
          Value c0 = arith::SelectOp::create(
              b, l, low, m, arith::SelectOp::create(b, l, middle, m, back));
          Value c1 = arith::SelectOp::create(
              b, l, low, partner,
              arith::SelectOp::create(b, l, middle, idx(0), m));
          auto [h0, h1] = emitThreefry(b, l, k0, k1, toI32(c0), toI32(c1));
          Value first = arith::OrIOp::create(b, l, low, middle);
          Value word = arith::SelectOp::create(b, l, first, h0, h1);
          Value result = word;
          if (width < 4) {
            Value shift = arith::MulIOp::create(
                b, l, toI32(arith::RemUIOp::create(b, l, byte, idx(4))),
                arith::ConstantIntOp::create(b, l, i32, 8));
            result = arith::TruncIOp::create(
                b, l, storage.getElementType(),
                arith::ShRUIOp::create(b, l, word, shift));
          }
          linalg::YieldOp::create(b, l, result);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};
} // namespace

void mlx::populateMlxRandomToLinalgPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<RandomBitsOpLowering>(converter, patterns.getContext());
}
