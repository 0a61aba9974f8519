//===- Hadamard.cpp - hadamard_transform to linalg ------------------------===//
//
// The last axis (size m * n, n = 2^k) as MLX transforms it:
//   - log2(n) butterfly stages, one linalg.generic each: element i and its
//     partner i ^ h become (low + high, low - high), in float32, rounded to
//     the dtype after every stage (MLX stores each stage); with m = 1 the
//     last stage is then scaled and rounded again.
//   - with m > 1, one more generic: output i + j * n sums x[i + k * n] with
//     the sign H_m[j][k] over k in order, in float32, then scales and rounds.
// A stage reads its partner with tensor.extract, which keeps stages apart
// (fusing them would recompute each earlier stage twice per read).
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

/// MLX's Hadamard matrices of orders 12, 20 and 28 (rows; '+' is 1), read
/// from mx.hadamard_transform of the unit vectors (MLX 0.32.4).
static ArrayRef<StringRef> hadamardRows(int64_t m) {
  static const StringRef h12[] = {
      "+-++++++++++", "--+-+-+-+-+-", "+++-++----++", "+---+--+-++-",
      "+++++-++----", "+-+---+--+-+", "++--+++-++--", "+--++---+--+",
      "++----+++-++", "+--+-++---+-", "++++----+++-", "+-+--+-++---"};
  static const StringRef h20[] = {
      "+----+----++--++-++-", "-+----+---+++---+-++", "--+----+---+++-+-+-+",
      "---+----+---+++++-+-", "----+----++--++-++-+", "-+++++-----+--+++--+",
      "+-+++-+---+-+--+++--", "++-++--+---+-+--+++-", "+++-+---+---+-+--+++",
      "++++-----++--+-+--++", "--++-+-++-+-----++++", "---++-+-++-+---+-+++",
      "+---++-+-+--+--++-++", "++---++-+----+-+++-+", "-++---++-+----+++++-",
      "-+--+--++-+----+----", "+-+-----++-+----+---", "-+-+-+---+--+----+--",
      "--+-+++------+----+-", "+--+--++------+----+"};
  static const StringRef h28[] = {
      "+------++----++-+--+-+--++--", "-+-----+++-----+-+--+-+--++-",
      "--+-----+++---+-+-+----+--++", "---+-----+++---+-+-+-+--+--+",
      "----+-----+++---+-+-+++--+--", "-----+-----++++--+-+--++--+-",
      "------++----++-+--+-+--++--+", "--++++-+-------++--+++-+--+-",
      "---++++-+-----+-++--+-+-+--+", "+---+++--+----++-++--+-+-+--",
      "++---++---+----++-++--+-+-+-", "+++---+----+----++-++--+-+-+",
      "++++--------+-+--++-++--+-+-", "-++++--------+++--++--+--+-+",
      "-+-++-++--++--+--------++++-", "+-+-++--+--++--+--------++++",
      "-+-+-++--+--++--+----+---+++", "+-+-+-++--+--+---+---++---++",
      "++-+-+-++--+------+--+++---+", "-++-+-+-++--+------+-++++---",
      "+-++-+---++--+------+-++++--", "-++--++-+-++-+++----++------",
      "+-++--++-+-++-+++-----+-----", "++-++---+-+-++-+++-----+----",
      "-++-++-+-+-+-+--+++-----+---", "--++-++++-+-+----+++-----+--",
      "+--++-+-++-+-+----+++-----+-", "++--++-+-++-+-+----++------+"};
  switch (m) {
  case 12:
    return h12;
  case 20:
    return h20;
  default:
    return h28;
  }
}

namespace {
struct HadamardOpLowering final : OpConversionPattern<HadamardOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(HadamardOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    if (!type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs a static shape");
    // A 0-d array is a last axis of 1: only the scale.
    int64_t rank = type.getRank(), last = rank - 1;
    auto sizes = HadamardOp::decompose(rank ? type.getDimSize(last) : 1);
    if (!sizes)
      return rewriter.notifyMatchFailure(op, "not m * 2^k");
    auto [m, n] = *sizes;
    Type dtype = type.getElementType(), f32 = rewriter.getF32Type();
    float scale = op.getScale().convertToFloat();
    MLIRContext *ctx = rewriter.getContext();
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    if (type.getNumElements() == 0) {
      rewriter.replaceOp(op, adaptor.getX());
      return success();
    }

    auto widen = [&](OpBuilder &b, Location l, Value v) -> Value {
      return dtype == f32 ? v : arith::ExtFOp::create(b, l, f32, v);
    };
    auto round = [&](OpBuilder &b, Location l, Value v) -> Value {
      return dtype == f32 ? v : arith::TruncFOp::create(b, l, dtype, v);
    };
    auto scaled = [&](OpBuilder &b, Location l, Value wide) {
      return round(b, l,
                   arith::MulFOp::create(b, l, wide,
                                         arith::ConstantOp::create(
                                             b, l, b.getF32FloatAttr(scale)))
                       .getResult());
    };
    // The coordinates of this element with the last one replaced.
    auto coordsAt = [&](OpBuilder &b, Location l, Value lastIndex) {
      SmallVector<Value> coords;
      for (int64_t d = 0; d < last; ++d)
        coords.push_back(linalg::IndexOp::create(b, l, d));
      coords.push_back(lastIndex);
      return coords;
    };

    Value x = adaptor.getX();
    for (int64_t h = 1; h < n; h *= 2) {
      bool lastStage = 2 * h == n;
      Value src = x;
      Value init =
          tensor::EmptyOp::create(rewriter, loc, type.getShape(), dtype);
      x = linalg::GenericOp::create(
              rewriter, loc, TypeRange{type}, ValueRange{src}, init,
              ArrayRef<AffineMap>{identity, identity}, parallel,
              [&](OpBuilder &b, Location l, ValueRange args) {
                Value i = linalg::IndexOp::create(b, l, last);
                Value hv = arith::ConstantIndexOp::create(b, l, h);
                Value partner = arith::XOrIOp::create(b, l, i, hv);
                Value other = tensor::ExtractOp::create(
                    b, l, src, coordsAt(b, l, partner));
                Value self = widen(b, l, args[0]);
                other = widen(b, l, other);
                Value isHigh = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::ne,
                    arith::AndIOp::create(b, l, i, hv),
                    arith::ConstantIndexOp::create(b, l, 0));
                // low + high at the low position, low - high at the high.
                Value sum = arith::AddFOp::create(b, l, self, other);
                Value difference = arith::SubFOp::create(b, l, other, self);
                Value v = round(
                    b, l,
                    arith::SelectOp::create(b, l, isHigh, difference, sum));
                if (lastStage && m == 1)
                  v = scaled(b, l, widen(b, l, v));
                linalg::YieldOp::create(b, l, v);
              })
              .getResult(0);
    }
    if (m == 1) {
      if (n == 1) // A size-1 axis: only the scale (MLX folds it the same).
        x = linalg::GenericOp::create(
                rewriter, loc, TypeRange{type}, ValueRange{x},
                ValueRange{tensor::EmptyOp::create(rewriter, loc,
                                                   type.getShape(), dtype)},
                ArrayRef<AffineMap>{identity, identity}, parallel,
                [&](OpBuilder &b, Location l, ValueRange args) {
                  linalg::YieldOp::create(b, l,
                                          scaled(b, l, widen(b, l, args[0])));
                })
                .getResult(0);
      rewriter.replaceOp(op, x);
      return success();
    }

    // The m part: signs[j][k] = H_m[j][k] as float32 +-1.
    SmallVector<float> signs;
    for (StringRef row : hadamardRows(m))
      for (char c : row)
        signs.push_back(c == '+' ? 1.0f : -1.0f);
    auto signsType = RankedTensorType::get({m, m}, f32);
    Value signTable = arith::ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(signsType, ArrayRef<float>(signs)));
    Value src = x;
    x = linalg::GenericOp::create(
            rewriter, loc, TypeRange{type}, ValueRange{},
            ValueRange{
                tensor::EmptyOp::create(rewriter, loc, type.getShape(), dtype)},
            ArrayRef<AffineMap>{identity}, parallel,
            [&](OpBuilder &b, Location l, ValueRange) {
              Value p = linalg::IndexOp::create(b, l, last);
              Value nv = arith::ConstantIndexOp::create(b, l, n);
              Value i = arith::RemUIOp::create(b, l, p, nv);
              Value j = arith::DivUIOp::create(b, l, p, nv);
              Value acc =
                  arith::ConstantOp::create(b, l, b.getF32FloatAttr(0.0f));
              for (int64_t k = 0; k < m; ++k) {
                Value kv = arith::ConstantIndexOp::create(b, l, k);
                Value at = arith::AddIOp::create(
                    b, l, i, arith::ConstantIndexOp::create(b, l, k * n));
                Value element = widen(
                    b, l,
                    tensor::ExtractOp::create(b, l, src, coordsAt(b, l, at)));
                Value sign = tensor::ExtractOp::create(b, l, signTable,
                                                       ValueRange{j, kv});
                // sign * element is exact, so this rounds once, as MLX's
                // out[j] += x or -= x.
                acc = arith::AddFOp::create(
                    b, l, acc, arith::MulFOp::create(b, l, sign, element));
              }
              linalg::YieldOp::create(b, l, scaled(b, l, acc));
            })
            .getResult(0);
    rewriter.replaceOp(op, x);
    return success();
  }
};
} // namespace

void mlx::populateMlxHadamardToLinalgPatterns(const TypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<HadamardOpLowering>(converter, patterns.getContext());
}
