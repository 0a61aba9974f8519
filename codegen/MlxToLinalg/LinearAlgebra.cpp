//===- LinearAlgebra.cpp - MLX's CPU linear algebra to loops on tensors --===//
//
// MLX computes these with LAPACK on the CPU, one matrix at a time. Here each
// is a nest of scf.for loops over scalars that carries its tensors, as
// scatter's lowering does: one-shot bufferization updates them in place, and
// on the GPU the nest runs as a one-thread kernel (mlxc-offload-host-loops).
// The algorithms are the textbook ones (Cholesky-Banachiewicz; LU with
// partial pivoting then two triangular solves per column; substitution for
// a triangular inverse; Householder QR with LAPACK's signs; cyclic Jacobi
// rotations for eigenvalues and singular values), so results agree with
// LAPACK's to rounding, not bit for bit. An upper triangle is
// handled as the lower triangle of the transpose: the accessors swap the
// indices.
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
/// Builds scalar loop nests over [matrices, M, N] tensors.
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

  /// `s + sum over k in [lb, ub) of x(k) * y(k)`, in order.
  Value addDot(Value s, Value lb, Value ub, function_ref<Value(Value)> x,
               function_ref<Value(Value)> y) {
    return loop1(lb, ub, s,
                 [&](Value k, Value acc) { return add(acc, mul(x(k), y(k))); });
  }

  /// A tensor of zeros.
  Value zeros(ArrayRef<int64_t> shape) {
    Value empty = tensor::EmptyOp::create(b, loc, shape, dtype);
    return linalg::FillOp::create(b, loc, scalar(0.0), empty).getResult(0);
  }

  OpBuilder &b;
  Location loc;
  Type dtype;
};

/// The operand as [matrices, M, N].
struct Batched {
  Value matrices;
  SmallVector<int64_t> shape; // [matrices, M, N]
};

Batched batch(OpBuilder &b, Location loc, Value a) {
  auto type = cast<RankedTensorType>(a.getType());
  ArrayRef<int64_t> dims = type.getShape();
  int64_t rows = dims[dims.size() - 2], cols = dims.back();
  // Arrays without elements never get here (they lower to tensor.empty).
  SmallVector<int64_t> shape = {type.getNumElements() / (rows * cols), rows,
                                cols};
  return {lowering::reshapeTensor(b, loc, a, shape), shape};
}

/// Element (i, j) of matrix m, or (j, i) when `transposed`.
SmallVector<Value> at(Value m, Value i, Value j, bool transposed) {
  if (transposed)
    return {m, j, i};
  return {m, i, j};
}

/// Reads element (i, j) of a matrix of a tensor, or (j, i) for an upper
/// triangle (the lower one of the transpose).
using ElementReader = function_ref<Value(Value, Value, Value)>;

/// `out = step(m, read, out)` over each matrix m, `out` starting as zeros:
/// the frame of the triangular results (cholesky, the triangular inverse).
Value forEachTriangle(MatrixLoops &g, const Batched &in, bool upper,
                      function_ref<Value(Value, ElementReader, Value)> step) {
  auto body = [&](Value m, Value out) {
    auto read = [&](Value t, Value i, Value j) {
      return g.get(t, at(m, i, j, upper));
    };
    return step(m, read, out);
  };
  return g.loop1(g.index(0), g.index(in.shape[0]), g.zeros(in.shape), body);
}

/// Cholesky-Banachiewicz, row by row of L: L[j][j] = sqrt(A[j][j] -
/// sum L[j][k]^2), L[i][j] = (A[i][j] - sum L[i][k] L[j][k]) / L[j][j].
Value emitCholesky(MatrixLoops &g, const Batched &in, bool upper) {
  Value a = in.matrices;
  Value zero = g.index(0), size = g.index(in.shape[1]);
  return forEachTriangle(
      g, in, upper, [&](Value m, ElementReader l, Value out) {
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
      });
}

/// The inverse of a lower triangular L, column by column: X[c][c] =
/// 1 / L[c][c], X[i][c] = -(sum over k in [c, i) of L[i][k] X[k][c]) /
/// L[i][i]. An upper U is the transpose's (U^-1 = ((U^T)^-1)^T).
Value emitTriangularInverse(MatrixLoops &g, const Batched &in, bool upper) {
  Value a = in.matrices;
  Value zero = g.index(0), size = g.index(in.shape[1]);
  return forEachTriangle(
      g, in, upper, [&](Value m, ElementReader l, Value out) {
        return g.loop1(zero, size, out, [&](Value c, Value out) {
          out =
              g.set(out, at(m, c, c, upper), g.div(g.scalar(1.0), l(a, c, c)));
          return g.loop1(g.plus1(c), size, out, [&](Value i, Value out) {
            Value s = g.subtractDot(
                g.scalar(0.0), c, i, [&](Value k) { return l(a, i, k); },
                [&](Value k) { return l(out, k, c); });
            return g.set(out, at(m, i, c, upper), g.div(s, l(a, i, i)));
          });
        });
      });
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

/// Householder QR as LAPACK's geqrf and orgqr compute it. Step j reflects
/// column j's rows j.. onto beta e_j, beta = -sign(alpha) |x| (alpha its
/// leading entry; no reflection, tau = 0, when the rest is zero), keeps v
/// (v_j = 1) below the diagonal and tau = (beta - alpha) / beta, and
/// applies H = I - tau v v^T to the later columns. Q applies the
/// reflections in reverse order to the first k columns of the identity.
std::pair<Value, Value> emitQr(MatrixLoops &g, const Batched &in) {
  Value a = in.matrices;
  ArrayRef<int64_t> shape = in.shape;
  OpBuilder &b = g.b;
  Location loc = g.loc;
  int64_t rows = shape[1], cols = shape[2], k = std::min(rows, cols);
  Value zero = g.index(0), m_ = g.index(rows), n_ = g.index(cols),
        k_ = g.index(k);
  Value tau0 = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{k}, g.dtype);
  Value q0 = g.zeros({shape[0], rows, k});
  Value r0 = g.zeros({shape[0], k, cols});
  auto body = [&](Value m, ValueRange carried) -> SmallVector<Value> {
    Value w = carried[0], tau = carried[1], q = carried[2], r = carried[3];
    auto e = [&](Value t, Value i, Value j) { return g.get(t, {m, i, j}); };
    // `t - tau_j * (v^T t[j.., c]) * v` on column c of rows j.. of `t`, v
    // read from column j of `w`, or of `t` itself while factoring (always
    // from the newest value: a read of an older one would need a copy).
    auto reflect = [&](Value t, Value w, Value j, Value c, Value tauJ) {
      Value below = g.plus1(j);
      auto v = [&](Value t, Value i) { return e(w ? w : t, i, j); };
      Value dot = g.addDot(
          e(t, j, c), below, m_, [&](Value i) { return v(t, i); },
          [&](Value i) { return e(t, i, c); });
      Value step = g.mul(tauJ, dot);
      t = g.set(t, {m, j, c}, g.sub(e(t, j, c), step));
      return g.loop1(below, m_, t, [&](Value i, Value t) {
        return g.set(t, {m, i, c}, g.sub(e(t, i, c), g.mul(step, v(t, i))));
      });
    };
    SmallVector<Value> factored =
        g.loop(zero, k_, {w, tau}, [&](Value j, ValueRange c) {
          Value w = c[0], tau = c[1];
          Value below = g.plus1(j);
          Value alpha = e(w, j, j);
          auto x = [&](Value i) { return e(w, i, j); };
          Value norm2 = g.addDot(g.scalar(0.0), below, m_, x, x);
          Value none = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                             norm2, g.scalar(0.0));
          Value length =
              math::SqrtOp::create(b, loc, g.add(g.mul(alpha, alpha), norm2));
          Value beta = arith::NegFOp::create(
              b, loc, math::CopySignOp::create(b, loc, length, alpha));
          beta = arith::SelectOp::create(b, loc, none, alpha, beta);
          Value tauJ = arith::SelectOp::create(b, loc, none, g.scalar(0.0),
                                               g.div(g.sub(beta, alpha), beta));
          Value scale =
              arith::SelectOp::create(b, loc, none, g.scalar(1.0),
                                      g.div(g.scalar(1.0), g.sub(alpha, beta)));
          w = g.loop1(below, m_, w, [&](Value i, Value w) {
            return g.set(w, {m, i, j}, g.mul(e(w, i, j), scale));
          });
          w = g.set(w, {m, j, j}, beta);
          w = g.loop1(below, n_, w, [&](Value c, Value w) {
            return reflect(w, Value(), j, c, tauJ);
          });
          return SmallVector<Value>{w, g.set(tau, {j}, tauJ)};
        });
    w = factored[0];
    tau = factored[1];
    r = g.loop1(zero, k_, r, [&](Value j, Value r) {
      return g.loop1(j, n_, r, [&](Value c, Value r) {
        return g.set(r, {m, j, c}, e(w, j, c));
      });
    });
    q = g.loop1(zero, k_, q, [&](Value c, Value q) {
      return g.set(q, {m, c, c}, g.scalar(1.0));
    });
    q = g.loop1(zero, k_, q, [&](Value t, Value q) {
      Value j = arith::SubIOp::create(b, loc, g.index(k - 1), t);
      Value tauJ = g.get(tau, {j});
      return g.loop1(j, k_, q, [&](Value c, Value q) {
        return reflect(q, w, j, c, tauJ);
      });
    });
    return {w, tau, q, r};
  };
  SmallVector<Value> results =
      g.loop(zero, g.index(shape[0]), {a, tau0, q0, r0}, body);
  return {results[2], results[3]};
}

/// The Jacobi rotation (c, s) that zeroes `gamma` between two axes with
/// squared norms (or diagonal entries) `alpha` and `beta`: t = sign(zeta) /
/// (|zeta| + sqrt(1 + zeta^2)), zeta = (beta - alpha) / (2 gamma); none
/// when gamma is 0.
std::pair<Value, Value> jacobiRotation(MatrixLoops &g, Value alpha, Value beta,
                                       Value gamma) {
  OpBuilder &b = g.b;
  Location loc = g.loc;
  Value one = g.scalar(1.0);
  Value zeta = g.div(g.sub(beta, alpha), g.add(gamma, gamma));
  Value root = math::SqrtOp::create(b, loc, g.add(one, g.mul(zeta, zeta)));
  Value t = g.div(math::CopySignOp::create(b, loc, one, zeta),
                  g.add(math::AbsFOp::create(b, loc, zeta), root));
  // A huge zeta: zeta^2 overflows and t is 0, as it should be.
  Value none = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, gamma,
                                     g.scalar(0.0));
  t = arith::SelectOp::create(b, loc, none, g.scalar(0.0), t);
  Value c = g.div(one, math::SqrtOp::create(b, loc, g.add(one, g.mul(t, t))));
  return {c, g.mul(c, t)};
}

/// Sorts row m of a [matrices, N] tensor (insertion sort by adjacent
/// exchanges), ascending or descending.
Value sortRow(MatrixLoops &g, Value v, Value m, int64_t n, bool descending) {
  OpBuilder &b = g.b;
  Location loc = g.loc;
  return g.loop1(g.index(1), g.index(n), v, [&](Value i, Value v) {
    return g.loop1(g.index(0), i, v, [&](Value t, Value v) {
      Value j = arith::SubIOp::create(b, loc, i, t);
      Value prev = arith::SubIOp::create(b, loc, j, g.index(1));
      Value x = g.get(v, {m, prev}), y = g.get(v, {m, j});
      Value swap = arith::CmpFOp::create(b, loc,
                                         descending ? arith::CmpFPredicate::OLT
                                                    : arith::CmpFPredicate::OGT,
                                         x, y);
      v = g.set(v, {m, prev}, arith::SelectOp::create(b, loc, swap, y, x));
      return g.set(v, {m, j}, arith::SelectOp::create(b, loc, swap, x, y));
    });
  });
}

/// Enough cyclic sweeps for the off-diagonal part to reach the dtype's
/// rounding (convergence is quadratic once rotations are small).
int64_t jacobiSweeps(Type dtype, int64_t n) {
  return (dtype.isF64() ? 12 : 8) + llvm::Log2_64_Ceil(std::max<int64_t>(n, 1));
}

/// eigvalsh: the symmetric matrix from one triangle, cyclic two-sided
/// Jacobi rotations, then its diagonal sorted ascending.
Value emitEigvalsh(MatrixLoops &g, const Batched &in, bool upper) {
  OpBuilder &b = g.b;
  int64_t n = in.shape[1];
  Value zero = g.index(0), size = g.index(n);
  Value values0 = tensor::EmptyOp::create(
      b, g.loc, ArrayRef<int64_t>{in.shape[0], n}, g.dtype);
  Value work0 = tensor::EmptyOp::create(b, g.loc, in.shape, g.dtype);
  auto body = [&](Value m, ValueRange carried) -> SmallVector<Value> {
    Value w = carried[0], values = carried[1];
    auto e = [&](Value t, Value i, Value j) { return g.get(t, {m, i, j}); };
    // S[i][j] from the triangle: row >= column in the lower one.
    w = g.loop1(zero, size, w, [&](Value i, Value w) {
      return g.loop1(zero, size, w, [&](Value j, Value w) {
        Value inLower =
            arith::CmpIOp::create(b, g.loc, arith::CmpIPredicate::uge, i, j);
        Value r = arith::SelectOp::create(b, g.loc, inLower, i, j);
        Value c = arith::SelectOp::create(b, g.loc, inLower, j, i);
        return g.set(w, {m, i, j}, g.get(in.matrices, at(m, r, c, upper)));
      });
    });
    w = g.loop1(
        zero, g.index(jacobiSweeps(g.dtype, n)), w, [&](Value, Value w) {
          return g.loop1(zero, size, w, [&](Value p, Value w) {
            return g.loop1(g.plus1(p), size, w, [&](Value q, Value w) {
              auto [c, s] =
                  jacobiRotation(g, e(w, p, p), e(w, q, q), e(w, p, q));
              auto rotate = [&](Value w, bool rows) {
                return g.loop1(zero, size, w, [&](Value k, Value w) {
                  SmallVector<Value> kp = rows ? SmallVector<Value>{m, p, k}
                                               : SmallVector<Value>{m, k, p};
                  SmallVector<Value> kq = rows ? SmallVector<Value>{m, q, k}
                                               : SmallVector<Value>{m, k, q};
                  Value x = g.get(w, kp), y = g.get(w, kq);
                  w = g.set(w, kp, g.sub(g.mul(c, x), g.mul(s, y)));
                  return g.set(w, kq, g.add(g.mul(s, x), g.mul(c, y)));
                });
              };
              return rotate(rotate(w, /*rows=*/false), /*rows=*/true);
            });
          });
        });
    values = g.loop1(zero, size, values, [&](Value i, Value v) {
      return g.set(v, {m, i}, e(w, i, i));
    });
    return {w, sortRow(g, values, m, n, /*descending=*/false)};
  };
  return g.loop(zero, g.index(in.shape[0]), {work0, values0}, body)[1];
}

/// svdvals: one-sided Jacobi on the columns of A (of A^T when it has more
/// columns than rows), then the columns' norms sorted descending.
Value emitSvdvals(MatrixLoops &g, const Batched &in) {
  Value a = in.matrices;
  ArrayRef<int64_t> shape = in.shape;
  OpBuilder &b = g.b;
  bool transposed = shape[1] < shape[2];
  int64_t rows = std::max(shape[1], shape[2]),
          cols = std::min(shape[1], shape[2]);
  Value zero = g.index(0), r_ = g.index(rows), c_ = g.index(cols);
  Value values0 = tensor::EmptyOp::create(
      b, g.loc, ArrayRef<int64_t>{shape[0], cols}, g.dtype);
  Value work0 = tensor::EmptyOp::create(
      b, g.loc, ArrayRef<int64_t>{shape[0], rows, cols}, g.dtype);
  auto body = [&](Value m, ValueRange carried) -> SmallVector<Value> {
    Value w = carried[0], values = carried[1];
    auto e = [&](Value t, Value i, Value j) { return g.get(t, {m, i, j}); };
    w = g.loop1(zero, r_, w, [&](Value i, Value w) {
      return g.loop1(zero, c_, w, [&](Value j, Value w) {
        return g.set(w, {m, i, j}, g.get(a, at(m, i, j, transposed)));
      });
    });
    w = g.loop1(
        zero, g.index(jacobiSweeps(g.dtype, cols)), w, [&](Value, Value w) {
          return g.loop1(zero, c_, w, [&](Value p, Value w) {
            return g.loop1(g.plus1(p), c_, w, [&](Value q, Value w) {
              auto col = [&](Value j) {
                return [&, j](Value i) { return e(w, i, j); };
              };
              Value alpha = g.addDot(g.scalar(0.0), zero, r_, col(p), col(p));
              Value beta = g.addDot(g.scalar(0.0), zero, r_, col(q), col(q));
              Value gamma = g.addDot(g.scalar(0.0), zero, r_, col(p), col(q));
              auto [c, s] = jacobiRotation(g, alpha, beta, gamma);
              return g.loop1(zero, r_, w, [&](Value i, Value w) {
                Value x = e(w, i, p), y = e(w, i, q);
                w = g.set(w, {m, i, p}, g.sub(g.mul(c, x), g.mul(s, y)));
                return g.set(w, {m, i, q}, g.add(g.mul(s, x), g.mul(c, y)));
              });
            });
          });
        });
    values = g.loop1(zero, c_, values, [&](Value j, Value v) {
      auto x = [&](Value i) { return e(w, i, j); };
      Value norm2 = g.addDot(g.scalar(0.0), zero, r_, x, x);
      return g.set(v, {m, j}, math::SqrtOp::create(b, g.loc, norm2));
    });
    return {w, sortRow(g, values, m, cols, /*descending=*/true)};
  };
  return g.loop(zero, g.index(shape[0]), {work0, values0}, body)[1];
}

/// eigvalsh and svdvals: [matrices, M, N] in, [matrices, K] out.
template <typename OpTy>
struct ValuesOpLowering final : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getA().getType());
    if (!type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs a static shape");
    MatrixLoops g(rewriter, loc, type.getElementType());
    Batched in = batch(rewriter, loc, adaptor.getA());
    Value values;
    if constexpr (std::is_same_v<OpTy, EigvalshOp>)
      values = emitEigvalsh(g, in, op.getUpper());
    else
      values = emitSvdvals(g, in);
    rewriter.replaceOp(op,
                       lowering::reshapeTensor(
                           rewriter, loc, values,
                           cast<RankedTensorType>(op.getType()).getShape()));
    return success();
  }
};

struct QrOpLowering final : OpConversionPattern<QrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getA().getType());
    if (!type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs a static shape");
    MatrixLoops g(rewriter, loc, type.getElementType());
    auto [q, r] = emitQr(g, batch(rewriter, loc, adaptor.getA()));
    auto shapeOf = [](Value v) {
      return cast<RankedTensorType>(v.getType()).getShape();
    };
    rewriter.replaceOp(
        op, {lowering::reshapeTensor(rewriter, loc, q, shapeOf(op.getQ())),
             lowering::reshapeTensor(rewriter, loc, r, shapeOf(op.getR()))});
    return success();
  }
};

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
  patterns.add<MatrixOpLowering<InverseOp>, MatrixOpLowering<CholeskyOp>,
               QrOpLowering, ValuesOpLowering<EigvalshOp>,
               ValuesOpLowering<SvdvalsOp>>(converter, patterns.getContext());
}
