//===- LinearAlgebra.cpp - inverse and cholesky to loops on tensors -------===//
//
// MLX computes these with LAPACK on the CPU, one matrix at a time. Here each
// is a nest of scf.for loops over scalars that carries its tensors, as
// scatter's lowering does: one-shot bufferization updates them in place, and
// on the GPU the nest runs as a one-thread kernel (mlxc-offload-host-loops).
// The algorithms are the textbook ones (Cholesky-Banachiewicz; LU with
// partial pivoting then two triangular solves per column; substitution for
// a triangular inverse), so results agree with LAPACK's to rounding, not
// bit for bit. An upper triangle is handled as the lower triangle of the
// transpose: the accessors swap the indices.
//
//===----------------------------------------------------------------------===//

#include "codegen/MlxToLinalg/MlxToLinalg.h"
#include "codegen/MlxToLinalg/ScalarOps.h"

#include "Mlx/MlxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mlx;

namespace {
/// Builds scalar loop nests over [matrices, N, N] tensors.
class MatrixLoops {
public:
  MatrixLoops(OpBuilder &b, Location loc, Type dtype)
      : b(b), loc(loc), dtype(dtype) {}

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value scalar(double v) { return scalarConstant(b, loc, dtype, v); }

  /// `for iv in [lb, ub): carried = body(iv, carried)`; the final values.
  SmallVector<Value>
  loop(Value lb, Value ub, ValueRange carried,
       function_ref<SmallVector<Value>(Value, ValueRange)> body) {
    auto forOp = scf::ForOp::create(b, loc, lb, ub, index(1), carried);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forOp.getBody());
    SmallVector<Value> next =
        body(forOp.getInductionVar(), forOp.getRegionIterArgs());
    scf::YieldOp::create(b, loc, next);
    return forOp.getResults();
  }
  /// A loop that carries one value.
  Value loop1(Value lb, Value ub, Value carried,
              function_ref<Value(Value, Value)> body) {
    return loop(lb, ub, carried, [&](Value iv, ValueRange c) {
      return SmallVector<Value>{body(iv, c[0])};
    })[0];
  }

  Value get(Value t, ValueRange at) {
    return tensor::ExtractOp::create(b, loc, t, at);
  }
  Value set(Value t, ValueRange at, Value v) {
    return tensor::InsertOp::create(b, loc, v, t, at);
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value plus1(Value i) { return arith::AddIOp::create(b, loc, i, index(1)); }

  /// `s - sum over k in [lb, ub) of x(k) * y(k)`, in order.
  Value subtractDot(Value s, Value lb, Value ub, function_ref<Value(Value)> x,
                    function_ref<Value(Value)> y) {
    return loop1(lb, ub, s,
                 [&](Value k, Value acc) { return sub(acc, mul(x(k), y(k))); });
  }

  /// A [matrices, N, N] tensor of zeros.
  Value zeros(ArrayRef<int64_t> shape) {
    Value empty = tensor::EmptyOp::create(b, loc, shape, dtype);
    return linalg::FillOp::create(b, loc, scalar(0.0), empty).getResult(0);
  }

  OpBuilder &b;
  Location loc;
  Type dtype;
};

/// The operand as [matrices, N, N], and the way back to the result's shape.
struct Batched {
  Value matrices;
  SmallVector<int64_t> shape; // [matrices, N, N]
};

Batched batch(OpBuilder &b, Location loc, Value a) {
  auto type = cast<RankedTensorType>(a.getType());
  int64_t n = type.getShape().back();
  // Arrays without elements never get here (they lower to tensor.empty).
  int64_t count = type.getNumElements() / (n * n);
  SmallVector<int64_t> shape = {count, n, n};
  return {lowering::reshapeTensor(b, loc, a, shape), shape};
}

/// Element (i, j) of matrix m, or (j, i) when `transposed`.
SmallVector<Value> at(Value m, Value i, Value j, bool transposed) {
  if (transposed)
    return {m, j, i};
  return {m, i, j};
}

/// Cholesky-Banachiewicz, row by row of L: L[j][j] = sqrt(A[j][j] -
/// sum L[j][k]^2), L[i][j] = (A[i][j] - sum L[i][k] L[j][k]) / L[j][j].
Value emitCholesky(MatrixLoops &g, const Batched &in, bool upper) {
  Value a = in.matrices;
  int64_t n = in.shape[1];
  Value zero = g.index(0), size = g.index(n);
  auto body = [&](Value m, Value out) {
    auto l = [&](Value t, Value i, Value j) {
      return g.get(t, at(m, i, j, upper));
    };
    return g.loop1(zero, size, out, [&](Value j, Value out) {
      Value diag = g.subtractDot(
          l(a, j, j), zero, j, [&](Value k) { return l(out, j, k); },
          [&](Value k) { return l(out, j, k); });
      Value d = math::SqrtOp::create(g.b, g.loc, diag);
      out = g.set(out, at(m, j, j, upper), d);
      return g.loop1(g.plus1(j), size, out, [&](Value i, Value out) {
        Value s = g.subtractDot(
            l(a, i, j), zero, j, [&](Value k) { return l(out, i, k); },
            [&](Value k) { return l(out, j, k); });
        return g.set(out, at(m, i, j, upper), g.div(s, d));
      });
    });
  };
  return g.loop1(zero, g.index(in.shape[0]), g.zeros(in.shape), body);
}

/// The inverse of a lower triangular L, column by column: X[c][c] =
/// 1 / L[c][c], X[i][c] = -(sum over k in [c, i) of L[i][k] X[k][c]) /
/// L[i][i]. An upper U is the transpose's (U^-1 = ((U^T)^-1)^T).
Value emitTriangularInverse(MatrixLoops &g, const Batched &in, bool upper) {
  Value a = in.matrices;
  int64_t n = in.shape[1];
  Value zero = g.index(0), size = g.index(n);
  auto body = [&](Value m, Value out) {
    auto l = [&](Value t, Value i, Value j) {
      return g.get(t, at(m, i, j, upper));
    };
    return g.loop1(zero, size, out, [&](Value c, Value out) {
      out = g.set(out, at(m, c, c, upper), g.div(g.scalar(1.0), l(a, c, c)));
      return g.loop1(g.plus1(c), size, out, [&](Value i, Value out) {
        Value s = g.subtractDot(
            g.scalar(0.0), c, i, [&](Value k) { return l(a, i, k); },
            [&](Value k) { return l(out, k, c); });
        return g.set(out, at(m, i, c, upper), g.div(s, l(a, i, i)));
      });
    });
  };
  return g.loop1(zero, g.index(in.shape[0]), g.zeros(in.shape), body);
}

/// LU with partial pivoting (the first row of largest magnitude, as
/// LAPACK's getrf), in place in W with the row order in `perm`; then each
/// column c of the inverse solves L y = P e_c and U x = y.
Value emitGeneralInverse(MatrixLoops &g, const Batched &in) {
  OpBuilder &b = g.b;
  Location loc = g.loc;
  int64_t n = in.shape[1];
  Value zero = g.index(0), size = g.index(n);
  Value perm0 =
      tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{n}, b.getIndexType());
  Value out0 = tensor::EmptyOp::create(b, loc, in.shape, g.dtype);
  auto body = [&](Value m, ValueRange carried) -> SmallVector<Value> {
    Value w = carried[0], perm = carried[1], out = carried[2];
    auto e = [&](Value t, Value i, Value j) { return g.get(t, {m, i, j}); };
    perm = g.loop1(zero, size, perm,
                   [&](Value i, Value p) { return g.set(p, {i}, i); });
    SmallVector<Value> lu =
        g.loop(zero, size, {w, perm}, [&](Value k, ValueRange c) {
          Value w = c[0], perm = c[1];
          // The pivot: the first row of largest |W[i][k]|, i >= k.
          SmallVector<Value> best =
              g.loop(k, size, {g.scalar(-1.0), k}, [&](Value i, ValueRange c) {
                Value v = math::AbsFOp::create(b, loc, e(w, i, k));
                Value larger = arith::CmpFOp::create(
                    b, loc, arith::CmpFPredicate::OGT, v, c[0]);
                return SmallVector<Value>{
                    arith::SelectOp::create(b, loc, larger, v, c[0]),
                    arith::SelectOp::create(b, loc, larger, i, c[1])};
              });
          Value r = best[1];
          w = g.loop1(zero, size, w, [&](Value j, Value w) {
            Value top = e(w, k, j), other = e(w, r, j);
            w = g.set(w, {m, k, j}, other);
            return g.set(w, {m, r, j}, top);
          });
          Value pk = g.get(perm, {k}), pr = g.get(perm, {r});
          perm = g.set(g.set(perm, {k}, pr), {r}, pk);
          Value pivot = e(w, k, k);
          w = g.loop1(g.plus1(k), size, w, [&](Value i, Value w) {
            Value factor = g.div(e(w, i, k), pivot);
            w = g.set(w, {m, i, k}, factor);
            return g.loop1(g.plus1(k), size, w, [&](Value j, Value w) {
              return g.set(w, {m, i, j},
                           g.sub(e(w, i, j), g.mul(factor, e(w, k, j))));
            });
          });
          return SmallVector<Value>{w, perm};
        });
    w = lu[0];
    perm = lu[1];
    out = g.loop1(zero, size, out, [&](Value c, Value out) {
      // Forward: y[i] = [perm[i] == c] - sum over k < i of L[i][k] y[k].
      out = g.loop1(zero, size, out, [&](Value i, Value out) {
        Value hit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          g.get(perm, {i}), c);
        Value unit =
            arith::SelectOp::create(b, loc, hit, g.scalar(1.0), g.scalar(0.0));
        Value y = g.subtractDot(
            unit, zero, i, [&](Value k) { return e(w, i, k); },
            [&](Value k) { return e(out, k, c); });
        return g.set(out, {m, i, c}, y);
      });
      // Backward, from the last row: x[i] = (y[i] - sum over k > i of
      // U[i][k] x[k]) / U[i][i].
      return g.loop1(zero, size, out, [&](Value t, Value out) {
        Value i = arith::SubIOp::create(b, loc, g.index(n - 1), t);
        Value x = g.subtractDot(
            e(out, i, c), g.plus1(i), size, [&](Value k) { return e(w, i, k); },
            [&](Value k) { return e(out, k, c); });
        return g.set(out, {m, i, c}, g.div(x, e(w, i, i)));
      });
    });
    return {w, perm, out};
  };
  return g.loop(zero, g.index(in.shape[0]), {in.matrices, perm0, out0},
                body)[2];
}

template <typename OpTy>
struct MatrixOpLowering final : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    if (!type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs a static shape");
    MatrixLoops g(rewriter, loc, type.getElementType());
    Batched in = batch(rewriter, loc, adaptor.getA());
    Value result;
    if constexpr (std::is_same_v<OpTy, CholeskyOp>)
      result = emitCholesky(g, in, op.getUpper());
    else if (op.getTri())
      result = emitTriangularInverse(g, in, op.getUpper());
    else
      result = emitGeneralInverse(g, in);
    rewriter.replaceOp(
        op, lowering::reshapeTensor(rewriter, loc, result, type.getShape()));
    return success();
  }
};
} // namespace

void mlx::populateMlxLinearAlgebraToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MatrixOpLowering<InverseOp>, MatrixOpLowering<CholeskyOp>>(
      converter, patterns.getContext());
}
