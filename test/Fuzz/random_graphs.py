#!/usr/bin/env python3
"""Random MLX graphs, exported by MLX and compiled by mlxc, against MLX.

Each seed builds one function of a few random ops (elementwise with
broadcasting, reductions, scans, layout changes, indexing, products, the
fast ops) over random inputs of random dtypes, exports it with
`mx.export_function`, compiles it with mlxc and runs it on MLX's inputs. The
outputs must have MLX's dtypes and shapes and its values (exactly for
integers and booleans, within a tolerance for floats).

  random_graphs.py --mlxc build/bin/mlxc --workdir /tmp/rg --seeds 0:200
  random_graphs.py ... --seeds 17 --keep      # one seed, its files kept
  random_graphs.py ... --target=cuda          # also compile the CUDA variant
                                                (the CPU variant runs here)
  random_graphs.py ... --target=cuda --prepare DIR   # and keep GPU suite cases

A failing seed prints its graph (the ops in order) and the first mismatch.
Read a mismatch before calling it a bug: a comparison, floor, remainder or
sin of a value computed in half precision turns a last-bit difference (MLX
rounds partial results of some half-precision kernels; its float16
quantized product is up to 5 ulps off a float32 one) into a large one. The
lit tests' seeds have none of those.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import traceback

import numpy as np
import mlx.core as mx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "E2E"))
import check  # noqa: E402  (tolerances and the comparison of outputs)

FLOATS = [mx.float32, mx.float16, mx.bfloat16]
INTS = [mx.int32, mx.uint8, mx.int64, mx.int8, mx.uint32, mx.int16]


def is_float(a):
    return mx.issubdtype(a.dtype, mx.floating)


def is_int(a):
    return mx.issubdtype(a.dtype, mx.integer)


class Graph:
    """A random function: `ops` are (description, builder) with builders
    that map the values made so far to a new one."""

    def __init__(self, rng):
        self.rng = rng
        self.inputs = []     # (np data, mx dtype)
        self.steps = []      # (text, fn(values) -> value)
        self.kinds = []      # the dtype and shape each value will have
        self.outputs = []

    def choice(self, seq):
        return seq[self.rng.integers(len(seq))]

    # -- inputs ---------------------------------------------------------
    def random_shape(self, rank=None):
        rank = self.rng.integers(0, 5) if rank is None else rank
        dims = [int(self.choice([1, 1, 2, 3, 4, 5, 7, 8, 16, 33]))
                for _ in range(rank)]
        if dims and self.rng.random() < 0.05:  # an empty array
            dims[self.rng.integers(rank)] = 0
        return tuple(dims)

    def add_input(self, shape, dtype):
        rng = self.rng
        if dtype == mx.bool_:
            data = rng.integers(0, 2, shape).astype(np.bool_)
        elif dtype in INTS:
            lo = 0 if dtype in (mx.uint8, mx.uint32) else -20
            data = rng.integers(lo, 20, shape).astype(
                np.dtype(str(dtype).split(".")[-1]))
        else:
            data = rng.standard_normal(shape).astype(np.float32)
            if dtype == mx.bfloat16:
                data = check.bf16_round(data)
            elif dtype == mx.float16:
                data = data.astype(np.float16)
        self.inputs.append((data, dtype))
        return len(self.inputs) - 1


def mx_input(data, dtype):
    a = mx.array(data)
    return a.astype(dtype) if a.dtype != dtype else a


# Each op takes (rng, graph values made so far as mx arrays) and returns
# (text, fn) where fn builds the new value from the traced arrays, or None
# when the values at hand do not fit it. Ops are tried on real arrays first
# (eagerly), so that only valid graphs are exported.

UNARY_FLOAT = {
    "exp": lambda x: mx.exp(mx.clip(x, -10, 10)),
    "log": lambda x: mx.log(mx.abs(x) + 1),
    "sqrt": lambda x: mx.sqrt(mx.abs(x)),
    "rsqrt": lambda x: mx.rsqrt(mx.abs(x) + 0.5),
    "sin": mx.sin, "cos": mx.cos, "tanh": mx.tanh, "sigmoid": mx.sigmoid,
    "abs": mx.abs, "negative": mx.negative, "square": mx.square,
    "floor": mx.floor, "ceil": mx.ceil, "round": mx.round, "erf": mx.erf,
    "log1p": lambda x: mx.log1p(mx.abs(x)), "expm1": lambda x: mx.expm1(
        mx.clip(x, -5, 5)), "sign": mx.sign,
    "reciprocal": lambda x: mx.reciprocal(mx.abs(x) + 1),
    "silu": lambda x: x * mx.sigmoid(x),
    "gelu": lambda x: x * (1 + mx.erf(x / 1.4142135)) / 2,
    "arctan": mx.arctan, "sinh": lambda x: mx.sinh(mx.clip(x, -4, 4)),
    "erfinv": lambda x: mx.erfinv(mx.tanh(x) * 0.9),
    "log2": lambda x: mx.log2(mx.abs(x) + 1),
    "isnan": lambda x: mx.isnan(x / x),
    "stop_gradient": mx.stop_gradient,
}
UNARY_INT = {
    "abs": mx.abs, "negative": mx.negative, "square": mx.square,
    "sign": mx.sign, "bitwise_invert": lambda x: mx.bitwise_invert(x)
    if not x.dtype == mx.bool_ else mx.logical_not(x),
}
BINARY = {
    "add": mx.add, "subtract": mx.subtract, "multiply": mx.multiply,
    "maximum": mx.maximum, "minimum": mx.minimum,
    "equal": mx.equal, "less": mx.less, "greater_equal": mx.greater_equal,
    "not_equal": mx.not_equal,
}
BINARY_FLOAT = {
    "divide": mx.divide, "arctan2": mx.arctan2,
    "power": lambda a, b: mx.power(mx.abs(a) + 0.5, mx.clip(b, -2, 2)),
    "remainder": lambda a, b: mx.remainder(a, mx.abs(b) + 0.5),
    "logaddexp": mx.logaddexp,
    "floor_divide": lambda a, b: mx.floor_divide(a, mx.abs(b) + 0.5),
}
BINARY_INT = {
    "floor_divide": lambda a, b: mx.floor_divide(a, mx.abs(b) + 1),
    "remainder": lambda a, b: mx.remainder(a, mx.abs(b) + 1),
    "bitwise_and": mx.bitwise_and, "bitwise_xor": mx.bitwise_xor,
    "left_shift": lambda a, b: mx.left_shift(a, mx.remainder(
        mx.abs(b), 4).astype(a.dtype)),
}


def op_unary(rng, g, vals):
    x = g.choice(vals)
    if is_float(x):
        name = g.choice(sorted(UNARY_FLOAT))
        return f"{name}", UNARY_FLOAT[name], [x]
    if x.dtype == mx.bool_:
        return "logical_not", mx.logical_not, [x]
    name = g.choice(sorted(UNARY_INT))
    if name == "negative" and x.dtype in (mx.uint8, mx.uint32):
        return None
    return f"{name}", UNARY_INT[name], [x]


def broadcast_partner(rng, g, x):
    """A new input whose shape broadcasts with x's (some axes 1, fewer
    leading axes, or a larger shape that x broadcasts to)."""
    shape = list(x.shape)
    r = rng.integers(4)
    if r == 0:
        shape = [1 if rng.random() < 0.5 else d for d in shape]
    elif r == 1 and shape:
        shape = shape[rng.integers(len(shape) + 1):]
    elif r == 2 and len(shape) < 4:
        shape = [int(g.choice([2, 3]))] + shape
    return tuple(shape)


def op_binary(rng, g, vals):
    x = g.choice(vals)
    others = [v for v in vals if v is not x and v.dtype == x.dtype]
    try_pair = [v for v in others if _broadcasts(x.shape, v.shape)]
    if try_pair and rng.random() < 0.6:
        y = g.choice(try_pair)
    else:
        y = ("input", broadcast_partner(rng, g, x), x.dtype)
    if x.dtype == mx.bool_:
        name = g.choice(["logical_and", "logical_or", "equal", "not_equal"])
        fn = {"logical_and": mx.logical_and, "logical_or": mx.logical_or,
              "equal": mx.equal, "not_equal": mx.not_equal}[name]
        return name, fn, [x, y]
    table = dict(BINARY)
    table.update(BINARY_FLOAT if is_float(x) else BINARY_INT)
    name = g.choice(sorted(table))
    fn = table[name]
    if rng.random() < 0.15:  # a Python scalar on one side
        s = float(g.choice([0.5, 2, -3, 1])) if is_float(x) else int(
            g.choice([1, 2, 3]))
        return f"{name}(x, {s})", (lambda a, f=fn, s=s: f(a, s)), [x]
    return name, fn, [x, y]


def _broadcasts(a, b):
    try:
        np.broadcast_shapes(a, b)
        return True
    except ValueError:
        return False


def op_where(rng, g, vals):
    x = g.choice(vals)
    cond = ("input", broadcast_partner(rng, g, x), mx.bool_)
    y = ("input", broadcast_partner(rng, g, x), x.dtype)
    return "where", mx.where, [cond, x, y]


def op_astype(rng, g, vals):
    x = g.choice(vals)
    to = g.choice(FLOATS + INTS + [mx.bool_])
    if is_float(x) and to in INTS + [mx.bool_]:
        # Out-of-range float->int casts differ between C and MLX's kernels,
        # and a last-bit difference in a computed float can cross an
        # integer: cast a fresh input, clipped.
        x = ("input", x.shape, x.dtype)
        return f"astype({to})", (lambda a, t=to: mx.clip(a, -50, 50).astype(t)
                                 if t not in (mx.uint8, mx.uint32)
                                 else mx.clip(a, 0, 50).astype(t)), [x]
    return f"astype({to})", (lambda a, t=to: a.astype(t)), [x]


def op_reduce(rng, g, vals):
    x = g.choice(vals)
    if x.ndim == 0:
        return None
    n = rng.integers(1, x.ndim + 1)
    axes = sorted(rng.choice(x.ndim, n, replace=False).tolist())
    if rng.random() < 0.2:
        axes = None
    keep = bool(rng.random() < 0.5)
    names = ["sum", "max", "min", "prod", "any", "all"]
    if is_float(x):
        names += ["mean", "logsumexp", "var", "std", "argmax", "argmin"]
    else:
        names += ["argmax", "argmin"]
    name = g.choice(names)
    if name in ("argmax", "argmin"):
        # On a computed float, a last-bit difference moves the index: take
        # a fresh input instead.
        ax = int(rng.integers(x.ndim))
        fn = getattr(mx, name)
        operand = ("input", x.shape, x.dtype) if is_float(x) else x
        return f"{name}(axis={ax})", (
            lambda a: fn(a, axis=ax, keepdims=keep)), [operand]
    fn = getattr(mx, name)
    if name == "prod" and is_float(x):
        return f"prod({axes})", (lambda a: mx.prod(mx.clip(a, -1.5, 1.5),
                                                   axis=axes, keepdims=keep)), [x]
    if name == "sum" and x.dtype == mx.float16:
        # MLX accumulates float16 sums in float32; keep the sizes modest.
        pass
    return f"{name}({axes}, keepdims={keep})", (
        lambda a: fn(a, axis=axes, keepdims=keep)), [x]


def op_scan(rng, g, vals):
    x = g.choice(vals)
    if x.ndim == 0 or x.dtype == mx.bool_:
        return None
    ax = int(rng.integers(x.ndim))
    rev, incl = bool(rng.random() < 0.3), bool(rng.random() < 0.8)
    name = g.choice(["cumsum", "cummax", "cummin", "cumprod"])
    fn = getattr(mx, name)
    if name == "cumprod" and is_float(x):
        return f"cumprod({ax})", (lambda a: mx.cumprod(
            mx.clip(a, -1.2, 1.2), axis=ax, reverse=rev, inclusive=incl)), [x]
    if name == "cumprod":
        return None
    return f"{name}(axis={ax}, reverse={rev}, inclusive={incl})", (
        lambda a: fn(a, axis=ax, reverse=rev, inclusive=incl)), [x]


def op_softmax(rng, g, vals):
    x = g.choice([v for v in vals if is_float(v) and v.ndim] or [None])
    if x is None:
        return None
    ax = int(rng.integers(x.ndim))
    prec = bool(rng.random() < 0.3)
    return f"softmax(axis={ax}, precise={prec})", (
        lambda a: mx.softmax(a, axis=ax, precise=prec)), [x]


def op_layout(rng, g, vals):
    x = g.choice(vals)
    k = rng.integers(9)
    if k == 0 and x.ndim >= 2:
        perm = rng.permutation(x.ndim).tolist()
        return f"transpose({perm})", (lambda a: mx.transpose(a, perm)), [x]
    if k == 1:
        size = x.size
        dims = []
        for f in (2, 3, 5, 7, 11):
            while size % f == 0 and rng.random() < 0.6:
                dims.append(f)
                size //= f
        dims.append(size)
        rng.shuffle(dims)
        dims = [int(d) for d in dims]
        return f"reshape({dims})", (lambda a: mx.reshape(a, dims)), [x]
    if k == 2 and x.ndim:
        idx = []
        for d in x.shape:
            start = int(rng.integers(0, max(d, 1)))
            step = int(g.choice([1, 1, 2, -1, -2, 3]))
            if step < 0:
                idx.append(slice(start, None, step))
            else:
                idx.append(slice(int(rng.integers(0, max(d, 1)))
                                 if rng.random() < 0.5
                                 else None, None, step))
        idx = tuple(idx)
        return f"slice{idx}", (lambda a: a[idx]), [x]
    if k == 3:
        ax = int(rng.integers(0, x.ndim + 1))
        return f"expand_dims({ax})", (lambda a: mx.expand_dims(a, ax)), [x]
    if k == 4 and 1 in x.shape:
        return "squeeze", mx.squeeze, [x]
    if k == 5 and x.ndim:
        ax = int(rng.integers(x.ndim))
        y = ("input", tuple(int(rng.integers(1, 4)) if i == ax else d
                            for i, d in enumerate(x.shape)), x.dtype)
        first = bool(rng.random() < 0.5)
        return f"concatenate(axis={ax}, first={first})", (
            lambda a, b: mx.concatenate([a, b] if first else [b, a],
                                        axis=ax)), [x, y]
    if k == 6 and x.ndim:
        widths = [(int(rng.integers(0, 3)), int(rng.integers(0, 3)))
                  for _ in x.shape]
        val = 0 if not is_float(x) else float(g.choice([0.0, 1.5]))
        return f"pad({widths}, {val})", (
            lambda a: mx.pad(a, widths, constant_values=val)), [x]
    if k == 7 and x.ndim and x.ndim < 4:
        ax = int(rng.integers(x.ndim))
        reps = int(rng.integers(1, 4))
        if rng.random() < 0.5:
            return f"repeat({reps}, {ax})", (
                lambda a: mx.repeat(a, reps, axis=ax)), [x]
        tiles = [int(rng.integers(1, 3)) for _ in range(x.ndim)]
        return f"tile({tiles})", (lambda a: mx.tile(a, tiles)), [x]
    if k == 8:
        target = tuple([int(g.choice([2, 3]))] + [
            int(g.choice([d, 3])) if d == 1 else d for d in x.shape])
        return f"broadcast_to({target})", (
            lambda a: mx.broadcast_to(a, target)), [x]
    return None


def op_index(rng, g, vals):
    x = g.choice(vals)
    if x.ndim == 0 or x.size == 0:
        return None
    ax = int(rng.integers(x.ndim))
    d = x.shape[ax]
    k = rng.integers(4)
    if k == 3:  # y[mask] = v with a computed mask (MaskedScatter)
        if x.dtype == mx.bool_:
            return None
        upd = ("input", (x.size,), x.dtype)

        def assign(a, u):
            y = a * 1
            y[a > 0] = u
            return y
        return "y[y > 0] = v", assign, [x, upd]
    if k == 0:
        n = int(rng.integers(1, 6))
        idx = rng.integers(-d, d, (n,) if rng.random() < 0.7 else (2, n))
        ind = mx.array(idx.astype(np.int32))
        return f"take({idx.tolist()}, axis={ax})", (
            lambda a: mx.take(a, ind, axis=ax)), [x]
    if k == 1:
        shape = list(x.shape)
        shape[ax] = int(rng.integers(1, 5))
        idx = rng.integers(0, d, shape).astype(np.int32)
        ind = mx.array(idx)
        return f"take_along_axis(axis={ax})", (
            lambda a: mx.take_along_axis(a, ind, axis=ax)), [x]
    if x.dtype == mx.bool_:
        return None
    shape = list(x.shape)
    shape[ax] = int(rng.integers(1, 4))
    idx = rng.integers(0, d, shape).astype(np.int32)
    ind = mx.array(idx)
    upd = ("input", tuple(shape), x.dtype)
    return f"put_along_axis(axis={ax})", (
        lambda a, u: mx.put_along_axis(a, ind, u, axis=ax)), [x, upd]


def op_sort(rng, g, vals):
    x = g.choice(vals)
    if x.ndim == 0 or x.dtype == mx.bool_:
        return None
    ax = int(rng.integers(x.ndim))
    name = g.choice(["sort", "argsort", "topk"])
    if name == "topk":
        if x.shape[ax] == 0:
            return None
        kk = int(rng.integers(1, x.shape[ax] + 1))
        # topk's order within the k is unspecified: sort it.
        return f"sort(topk({kk}, {ax}))", (lambda a: mx.sort(
            mx.topk(a, kk, axis=ax), axis=ax)), [x]
    if name == "argsort":
        # Ties make argsort's order unspecified, and a last-bit difference
        # moves computed values: sort a fresh input made distinct.
        if x.size >= 1000:
            return None
        return f"argsort({ax})", (lambda a: mx.argsort(
            a.astype(mx.float32) + mx.arange(a.size).reshape(a.shape) * 1e-3,
            axis=ax)), [("input", x.shape, x.dtype)]
    return f"sort({ax})", (lambda a: mx.sort(a, axis=ax)), [x]


def op_matmul(rng, g, vals):
    x = g.choice([v for v in vals if is_float(v) and v.ndim >= 1] or [None])
    if x is None:
        return None
    k = x.shape[-1]
    n = int(g.choice([1, 3, 8, 17]))
    if x.ndim == 1:
        shape = (k, n)
    else:
        batch = list(x.shape[:-2])
        if batch and rng.random() < 0.5:
            batch = [1 if rng.random() < 0.5 else b for b in batch]
        shape = tuple(batch + [k, n])
    w = ("input", shape, x.dtype)
    if rng.random() < 0.3 and x.ndim >= 2:
        c = ("input", (n,), x.dtype)
        return "addmm", (lambda a, b, c: mx.addmm(c, a, b, alpha=0.5,
                                                  beta=2.0)), [x, w, c]
    return "matmul", mx.matmul, [x, w]


def op_fast(rng, g, vals):
    x = g.choice([v for v in vals if is_float(v) and v.ndim >= 1] or [None])
    if x is None:
        return None
    d = x.shape[-1]
    k = rng.integers(3)
    if k == 0:
        w = ("input", (d,), x.dtype)
        return "rms_norm", (lambda a, w: mx.fast.rms_norm(a, w, 1e-5)), [x, w]
    if k == 1:
        w = ("input", (d,), x.dtype)
        b = ("input", (d,), x.dtype)
        return "layer_norm", (lambda a, w, b: mx.fast.layer_norm(
            a, w, b, 1e-5)), [x, w, b]
    if x.ndim < 2 or d % 2:
        return None
    dims = int(g.choice([d, d // 2 * 2 if d >= 4 else d]))
    dims -= dims % 2
    trad = bool(rng.random() < 0.5)
    off = int(rng.integers(0, 5))
    return f"rope(dims={dims}, traditional={trad}, offset={off})", (
        lambda a: mx.fast.rope(a, dims, traditional=trad, base=10000.0,
                               scale=1.0, offset=off)), [x]


def op_attention(rng, g, vals):
    dtype = g.choice(FLOATS)
    b, h = int(g.choice([1, 2])), int(g.choice([1, 2, 4]))
    kvh = int(g.choice([hh for hh in (1, 2, 4) if h % hh == 0]))
    lq, lk = int(g.choice([1, 3, 8, 16])), int(g.choice([1, 5, 16, 33]))
    dim = int(g.choice([8, 16, 64]))
    q = ("input", (b, h, lq, dim), dtype)
    kk = ("input", (b, kvh, lk, dim), dtype)
    v = ("input", (b, kvh, lk, dim), dtype)
    mask = g.choice([None, "causal", "bool", "add"])
    if mask == "causal" and lq > lk:
        mask = None
    scale = dim ** -0.5
    if mask is None or mask == "causal":
        m = mask
        return f"sdpa({mask})", (lambda q, k, v: mx.fast.
                                 scaled_dot_product_attention(
                                     q, k, v, scale=scale, mask=m)), [q, kk, v]
    mshape = (1, 1, lq, lk) if rng.random() < 0.5 else (b, h, lq, lk)
    mk = ("input", mshape, mx.bool_ if mask == "bool" else dtype)
    return f"sdpa({mask} mask {mshape})", (
        lambda q, k, v, m: mx.fast.scaled_dot_product_attention(
            q, k, v, scale=scale, mask=m)), [q, kk, v, mk]


def op_misc(rng, g, vals):
    x = g.choice(vals)
    k = rng.integers(8)
    if k == 0 and x.ndim >= 2:
        kk = int(rng.integers(-2, 3))
        name = g.choice(["tril", "triu"])
        fn = getattr(mx, name)
        return f"{name}({kk})", (lambda a: fn(a, kk)), [x]
    if k == 1 and is_float(x):
        lo, hi = sorted(rng.standard_normal(2).tolist())
        return f"clip({lo:.2f}, {hi:.2f})", (lambda a: mx.clip(a, lo, hi)), [x]
    if k == 2 and x.ndim:
        seq = ("input", (int(rng.integers(1, 9)),), x.dtype)
        side = g.choice(["left", "right"])
        # The sequence must be sorted: sort it in the graph.
        return f"searchsorted({side})", (lambda a, s: mx.searchsorted(
            mx.sort(s), a, side=side)), [("input", x.shape, x.dtype), seq]
    if k == 3 and x.ndim:
        ax = int(rng.integers(x.ndim))
        n = int(g.choice([1, 2, 3]))
        if x.shape[ax] % n:
            return None
        part = int(rng.integers(n))
        return f"split({n}, {ax})[{part}]", (
            lambda a: mx.split(a, n, axis=ax)[part]), [x]
    if k == 4 and x.ndim:
        ax = int(rng.integers(x.ndim))
        return f"stack/unstack({ax})", (lambda a, b: mx.stack(
            [a, b], axis=ax)), [x, ("input", x.shape, x.dtype)]
    if k == 5 and x.ndim >= 1 and x.shape[-1] > 0:
        upd = ("input", (1,) + x.shape[1:], x.dtype) if x.ndim > 1 and \
            x.shape[0] > 0 else None
        if upd is None:
            return None
        at = int(rng.integers(x.shape[0]))
        return f"slice_update(at={at})", (
            lambda a, u: mx.slice_update(a, u, mx.array([at]), axes=(0,))
        ), [x, upd]
    if k == 6 and x.ndim and is_float(x):
        ax = int(rng.integers(x.ndim))
        return f"logsumexp-softmax({ax})", (
            lambda a: a - mx.logsumexp(a, axis=ax, keepdims=True)), [x]
    if k == 7 and x.ndim >= 2:
        a1, a2 = rng.choice(x.ndim, 2, replace=False).tolist()
        return f"swapaxes({a1},{a2})", (lambda a: mx.swapaxes(a, a1, a2)), [x]
    return None


def op_conv(rng, g, vals):
    dtype = g.choice(FLOATS)
    nd = int(rng.integers(1, 3))
    b, cin, cout = int(g.choice([1, 2])), int(g.choice([1, 3, 4])), \
        int(g.choice([1, 2, 5]))
    groups = int(g.choice([gg for gg in (1, cin) if cin % gg == 0 and
                           cout % gg == 0]))
    k = int(g.choice([1, 2, 3]))
    spatial = [int(g.choice([3, 5, 8])) for _ in range(nd)]
    stride, pad, dil = int(g.choice([1, 2])), int(g.choice([0, 1])), \
        int(g.choice([1, 2]))
    if any(sz + 2 * pad < dil * (k - 1) + 1 for sz in spatial):
        return None
    x = ("input", tuple([b] + spatial + [cin]), dtype)
    w = ("input", tuple([cout] + [k] * nd + [cin // groups]), dtype)
    fn = mx.conv1d if nd == 1 else mx.conv2d
    return f"conv{nd}d(stride={stride}, pad={pad}, dil={dil}, groups={groups})", (
        lambda a, ww: fn(a, ww, stride=stride, padding=pad, dilation=dil,
                         groups=groups)), [x, w]


def op_quantized(rng, g, vals):
    dtype = g.choice(FLOATS)
    gs, bits = int(g.choice([32, 64])), int(g.choice([4, 8]))
    n, kdim = int(g.choice([3, 8, 16])), int(g.choice([64, 128]))
    w = mx.array(rng.standard_normal((n, kdim)).astype(np.float32)).astype(dtype)
    wq, sc, bi = mx.quantize(w, group_size=gs, bits=bits)
    x = ("input", (int(g.choice([1, 2, 5])), kdim), dtype)
    if rng.random() < 0.5:
        return f"quantized_matmul(gs={gs}, bits={bits})", (
            lambda a: mx.quantized_matmul(a, wq, sc, bi, transpose=True,
                                          group_size=gs, bits=bits)), [x]
    return f"dequantize(gs={gs}, bits={bits})", (
        lambda a: a @ mx.dequantize(wq, sc, bi, group_size=gs,
                                    bits=bits).T), [x]


def op_identity(rng, g, vals):
    # A graph that hands back a value it was given, or one value twice.
    x = g.choice(vals)
    if rng.random() < 0.5:
        return "identity", (lambda a: a), [x]
    return "stop_gradient", mx.stop_gradient, [x]


OPS = [(op_unary, 4), (op_binary, 5), (op_where, 1), (op_astype, 1),
       (op_reduce, 2), (op_scan, 1), (op_softmax, 1), (op_layout, 4),
       (op_index, 1), (op_sort, 1), (op_matmul, 1), (op_fast, 1),
       (op_attention, 1), (op_misc, 2), (op_conv, 1), (op_quantized, 1),
       (op_identity, 1)]


def build(seed, max_ops):
    """The graph of `seed`: inputs, steps and a callable for export."""
    rng = np.random.default_rng(seed)
    g = Graph(rng)
    dtype = g.choice(FLOATS + FLOATS + INTS[:2] + [mx.bool_])
    g.add_input(g.random_shape(), dtype)
    values = [mx_input(*g.inputs[0])]
    # steps: (text, fn, operand refs) with refs ("v", i) or ("i", j)
    steps = []
    weights = np.array([w for _, w in OPS], float)
    tries = 0
    while len(steps) < max_ops and tries < 200:
        tries += 1
        op = OPS[rng.choice(len(OPS), p=weights / weights.sum())][0]
        made = op(rng, g, values)
        if made is None:
            continue
        text, fn, operands = made
        refs, args, fresh = [], [], []
        for o in operands:
            if isinstance(o, tuple):
                _, shape, dt = o
                j = g.add_input(shape, dt)
                fresh.append(j)
                refs.append(("i", j))
                args.append(mx_input(*g.inputs[j]))
            else:
                refs.append(("v", next(i for i, v in enumerate(values)
                                       if v is o)))
                args.append(o)
        try:
            out = fn(*args)
            mx.eval(out)
        except Exception:
            for j in fresh:  # an op MLX refuses: drop it and its inputs
                g.inputs[j] = None
            continue
        if out.size > 200000 or out.ndim > 6:
            for j in fresh:
                g.inputs[j] = None
            continue
        steps.append((text, fn, refs))
        values.append(out)
    # Input ids as they will be numbered, dropping the refused ones.
    live = [j for j, inp in enumerate(g.inputs) if inp is not None]
    renumber = {j: n for n, j in enumerate(live)}
    inputs = [g.inputs[j] for j in live]
    n_out = min(len(steps), int(rng.integers(1, 4)))
    outputs = sorted(set([len(steps)] + rng.choice(
        np.arange(1, len(steps) + 1), n_out - 1, replace=False).tolist())) \
        if steps else [0]

    def fn(*xs):
        vals = [xs[0]]
        for _, f, refs in steps:
            vals.append(f(*[vals[i] if kind == "v" else xs[renumber[i]]
                            for kind, i in refs]))
        return tuple(vals[i] for i in outputs)

    desc = [f"in0: {inputs[0][1]} {inputs[0][0].shape}"]
    for n, (text, _, refs) in enumerate(steps):
        names = [f"v{i}" if kind == "v" else f"in{renumber[i]}"
                 for kind, i in refs]
        desc.append(f"v{n + 1} = {text}({', '.join(names)})")
    for n, (data, dt) in enumerate(inputs[1:], 1):
        desc.append(f"in{n}: {dt} {data.shape}")
    desc.append(f"outputs: {['v%d' % i for i in outputs]}")
    return inputs, fn, desc


def closer_to_float32(fn, xs, n, got, rtol):
    """Whether output n, which differs from MLX's, is what MLX gives for the
    same graph on float32 inputs (as much as for MLX's own output): MLX's
    half-precision kernels round partial results (its float16 quantized
    product differs from a float32 one by up to 5 ulps) and some graphs
    amplify that (a product of such values, a log near 0)."""
    try:
        up = [x.astype(mx.float32) if x.dtype in (mx.float16, mx.bfloat16)
              else x for x in xs]
        ref = fn(*up)[n].astype(mx.float32)
        mx.eval(ref)
    except Exception:
        return False
    if ref.size == 0 or tuple(ref.shape) != got.shape:
        return False
    ref = np.array(ref).astype(np.float64)
    g = check.as_float(got).astype(np.float64)
    scale = max(1.0, float(np.nanmax(np.abs(ref))))
    with np.errstate(invalid="ignore"):
        return bool(np.all((np.abs(g - ref) <= rtol * (np.abs(ref) + scale))
                           | (np.isnan(g) & np.isnan(ref))))


def run_seed(seed, args):
    inputs, fn, desc = build(seed, args.max_ops)
    work = os.path.join(args.workdir, f"s{seed}")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    xs = [mx_input(d, t) for d, t in inputs]
    try:
        want = fn(*xs)
        mx.eval(want)
        mx.export_function(os.path.join(work, "g.mlxfn"), fn, *xs)
    except Exception as e:  # MLX itself refuses (export of this graph)
        return "skip", f"MLX: {type(e).__name__}: {str(e)[:200]}", desc
    exe = os.path.join(work, "g")
    cmd = [args.mlxc, os.path.join(work, "g.mlxfn"), "-o", exe] + args.extra
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        kind = "crash" if r.returncode < 0 or "Assertion" in r.stderr or \
            "LLVM ERROR" in r.stderr or "Stack dump" in r.stderr else "refused"
        return kind, r.stderr.strip()[-1500:], desc
    run = [exe, "--device=cpu"]
    for n, (data, dt) in enumerate(inputs):
        path = os.path.join(work, f"arg{n}.npy")
        np.save(path, data)
        run += ["--input", f"arg{n}={path}"]
    for n in range(len(want)):
        run += ["--output", os.path.join(work, f"out{n}.npy")]
    r = subprocess.run(run, capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        return "run-failed", r.stderr.strip()[-1500:], desc
    # Floats computed in half precision anywhere in the graph carry its
    # error into every later value, whatever their dtype.
    half = any(t in (mx.float16, mx.bfloat16) for _, t in inputs) or any(
        "float16" in line or "bfloat16" in line for line in desc)
    case_outputs, exact = [], True
    for n, w in enumerate(want):
        dtype = str(w.dtype).split(".")[-1]
        if w.size == 0:  # np.array() of an empty mx array can spin forever
            wf = np.zeros(w.shape, np.float32 if w.dtype == mx.bfloat16 else
                          check.DTYPES[dtype])
        else:
            wf = np.array(w.astype(mx.float32) if w.dtype == mx.bfloat16
                          else w)
        got = np.load(os.path.join(work, f"out{n}.npy"))
        rtol = check.RTOL.get(dtype, 0) * (4 if dtype in ("float16",
                                                           "bfloat16") else 10)
        if half and dtype in ("float32", "float64"):
            rtol = 4 * check.RTOL["bfloat16"]
        err = check.compare(f"out{n}", dtype, got, wf, rtol, dtype)
        if err and half and dtype in ("float16", "bfloat16") and \
                closer_to_float32(fn, xs, n, got, rtol):
            err, exact = None, False
        if err:
            return "mismatch", err, desc
        np.save(os.path.join(work, f"out{n}.expected.npy"), wf)
        case_outputs.append({"name": f"out{n}", "dtype": dtype,
                             "ref_dtype": dtype, "rtol": rtol,
                             "out": f"out{n}.npy",
                             "expected": f"out{n}.expected.npy"})
    if args.prepare and exact:
        # A case for the GPU suite (check.py --verify runs `model` there).
        case = os.path.join(args.prepare, f"random-{seed}")
        shutil.rmtree(case, ignore_errors=True)
        os.makedirs(case)
        shutil.copy(exe, os.path.join(case, "model"))
        case_args = []
        for n in range(len(inputs)):
            shutil.copy(os.path.join(work, f"arg{n}.npy"), case)
            case_args += ["--input", f"arg{n}=arg{n}.npy"]
        for out in case_outputs:
            shutil.copy(os.path.join(work, out["expected"]), case)
            case_args += ["--output", out["out"]]
        with open(os.path.join(case, "case.json"), "w") as f:
            json.dump({"graph": f"random graph {seed}", "args": case_args,
                       "outputs": case_outputs}, f, indent=1)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return "ok", "", desc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mlxc", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--seeds", default="0:50")
    ap.add_argument("--max-ops", type=int, default=6)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--prepare", metavar="DIR",
                    help="also write each seed that passes as a GPU suite "
                    "case DIR/random-SEED (test/gpu/run.sh runs them)")
    args, extra = ap.parse_known_args()
    args.extra = extra
    if ":" in args.seeds:
        lo, hi = map(int, args.seeds.split(":"))
        seeds = range(lo, hi)
    else:
        seeds = [int(s) for s in args.seeds.split(",")]
    os.makedirs(args.workdir, exist_ok=True)
    counts = {}
    def timeout(*_):
        raise TimeoutError("the seed took more than 300 s")
    signal.signal(signal.SIGALRM, timeout)
    for seed in seeds:
        signal.alarm(300)
        try:
            kind, msg, desc = run_seed(seed, args)
        except Exception:
            kind, msg, desc = "error", traceback.format_exc()[-1500:], []
        signal.alarm(0)
        counts[kind] = counts.get(kind, 0) + 1
        if kind not in ("ok",) and not (args.quiet and kind == "skip"):
            print(f"--- seed {seed}: {kind}\n  " + "\n  ".join(desc) +
                  f"\n  {msg}", flush=True)
    print(" ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    bad = sum(v for k, v in counts.items() if k not in ("ok", "skip"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
