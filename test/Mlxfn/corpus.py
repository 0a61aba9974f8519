#!/usr/bin/env python3
"""Models written with MLX and exported by MLX itself (`mx.export_function`).

Each model function returns (fn, args, kwargs), or (fn, args, kwargs,
earlier) with `earlier` a list of positional argument lists that MLX traces
first into the same file (`mx.exporter`): MLX traces fn on the example
arrays. `export(name, dir)` writes, into dir:
  NAME.mlxfn          the export
  NAME.inputs.npz     the example inputs, keyed by the names mlxc gives them
                      (arg0, arg1, ... for positional inputs, the keyword)
  NAME.expected.npz   MLX's outputs on those inputs (out0, out1, ...)
bfloat16 arrays are stored as float32 (numpy has no bfloat16); the values are
exact bfloat16 values.
"""

import os
import sys

import numpy as np
import mlx.core as mx
import mlx.nn as nn

import fused

MODELS = {}


def model(fn):
    MODELS[fn.__name__] = fn
    return fn


def normal(*shape, dtype=mx.float32, scale=1.0):
    return (mx.random.normal(shape) * scale).astype(dtype)


def init(module, dtype=mx.float32):
    """Evaluated weights: unevaluated ones would export their random init."""
    module.set_dtype(dtype)
    mx.eval(module.parameters())
    return module


# --- Small networks ----------------------------------------------------------

@model
def mlp():
    net = init(nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64),
                             nn.GELU(), nn.Linear(64, 10)))
    return lambda x: net(x), [normal(8, 32)], {}


@model
def cnn():
    conv1 = init(nn.Conv2d(3, 8, kernel_size=3, padding=1))
    conv2 = init(nn.Conv2d(8, 16, kernel_size=3, stride=1, padding=1))
    head = init(nn.Linear(16 * 4 * 4, 10))

    def pool(x):  # 2x2 max pooling written as reshape + max
        n, h, w, c = x.shape
        return x.reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))

    def fn(x):
        x = pool(nn.relu(conv1(x)))
        x = pool(nn.relu(conv2(x)))
        return head(x.reshape(x.shape[0], -1))
    return fn, [normal(2, 16, 16, 3)], {}


# --- Llama ---------------------------------------------------------------------

class Attention(nn.Module):
    def __init__(self, dim, heads, kv_heads):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = heads, kv_heads, dim // heads
        self.scale = self.head_dim ** -0.5
        self.q_proj = nn.Linear(dim, heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(dim, kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(dim, kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(heads * self.head_dim, dim, bias=False)
        self.rope = nn.RoPE(self.head_dim, traditional=False, base=10000)

    def split(self, x, heads):
        b, l, _ = x.shape
        return x.reshape(b, l, heads, -1).transpose(0, 2, 1, 3)

    def __call__(self, x):
        b, l, _ = x.shape
        q = self.rope(self.split(self.q_proj(x), self.heads))
        k = self.rope(self.split(self.k_proj(x), self.kv_heads))
        v = self.split(self.v_proj(x), self.kv_heads)
        o = mx.fast.scaled_dot_product_attention(q, k, v, scale=self.scale,
                                                 mask="causal")
        return self.o_proj(o.transpose(0, 2, 1, 3).reshape(b, l, -1))


class MLP(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.gate_proj = nn.Linear(dim, hidden, bias=False)
        self.up_proj = nn.Linear(dim, hidden, bias=False)
        self.down_proj = nn.Linear(hidden, dim, bias=False)

    def __call__(self, x):
        return self.down_proj(nn.silu(self.gate_proj(x)) * self.up_proj(x))


class DecoderLayer(nn.Module):
    def __init__(self, dim=64, heads=4, kv_heads=2, hidden=128):
        super().__init__()
        self.self_attn = Attention(dim, heads, kv_heads)
        self.mlp = MLP(dim, hidden)
        self.input_layernorm = nn.RMSNorm(dim, eps=1e-5)
        self.post_attention_layernorm = nn.RMSNorm(dim, eps=1e-5)

    def __call__(self, x):
        h = x + self.self_attn(self.input_layernorm(x))
        return h + self.mlp(self.post_attention_layernorm(h))


@model
def llama_layer_f32():
    layer = init(DecoderLayer())
    return lambda x: layer(x), [normal(1, 8, 64)], {}


@model
def llama_layer_bf16():
    layer = init(DecoderLayer(), mx.bfloat16)
    return lambda x: layer(x), [normal(1, 8, 64, dtype=mx.bfloat16)], {}


class Llama(nn.Module):
    def __init__(self, vocab=256, dim=64, layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layers = [DecoderLayer(dim) for _ in range(layers)]
        self.norm = nn.RMSNorm(dim, eps=1e-5)

    def __call__(self, tokens):
        h = self.embed_tokens(tokens)
        for layer in self.layers:
            h = layer(h)
        return self.embed_tokens.as_linear(self.norm(h))  # tied head


@model
def llama_two_layers():
    net = init(Llama())
    tokens = mx.random.randint(0, 256, (1, 12)).astype(mx.int32)
    return lambda t: net(t), [tokens], {}


def decode_step(dtype):
    """One token with a KV cache whose write position is an input array."""
    dim, heads, kv_heads, max_len = 64, 4, 2, 16
    attn = init(Attention(dim, heads, kv_heads), dtype)
    hd = dim // heads

    def step(x, k_cache, v_cache, offset):
        b = x.shape[0]
        q = attn.split(attn.q_proj(x), heads)
        k = attn.split(attn.k_proj(x), kv_heads)
        v = attn.split(attn.v_proj(x), kv_heads)
        q = mx.fast.rope(q, hd, traditional=False, base=10000, scale=1.0,
                         offset=offset)
        k = mx.fast.rope(k, hd, traditional=False, base=10000, scale=1.0,
                         offset=offset)
        start = offset.reshape(1)
        k_cache = mx.slice_update(k_cache, k, start, axes=(2,))
        v_cache = mx.slice_update(v_cache, v, start, axes=(2,))
        mask = mx.arange(max_len) <= offset  # keys written so far
        o = mx.fast.scaled_dot_product_attention(q, k_cache, v_cache,
                                                 scale=attn.scale, mask=mask)
        out = attn.o_proj(o.transpose(0, 2, 1, 3).reshape(b, 1, -1))
        return out, k_cache, v_cache

    offset = mx.array(5, dtype=mx.int32)
    cache = lambda: (normal(1, kv_heads, max_len, hd) *
                     (mx.arange(max_len) < 5)[:, None]).astype(dtype)
    return step, [normal(1, 1, dim, dtype=dtype), cache(), cache(), offset], {}


@model
def llama_decode_step():
    """The decode step of docs/Guides/FromMlx.md, exported by keyword as
    there (inputs k_cache, offset, v_cache, x)."""
    step, (x, k_cache, v_cache, offset), _ = decode_step(mx.float32)
    return step, [], {"x": x, "k_cache": k_cache, "v_cache": v_cache,
                      "offset": offset}


@model
def llama_decode_step_bf16():
    """The bf16 KV-cache write at an array offset (a bf16 slice_update)."""
    return decode_step(mx.bfloat16)


@model
def llama_prefill_and_decode():
    """Two traces of one layer in one file (`mx.exporter`): a prefill of 8
    tokens, then one decode token; the decode trace (the file's second entry)
    is the one compiled and checked."""
    layer = init(DecoderLayer())
    fn = lambda x: layer(x)
    return fn, [normal(1, 1, 64)], {}, [[normal(1, 8, 64)]]


@model
def zero_size():
    """An MLX export whose input has a trailing zero dimension."""
    return lambda x: mx.exp(x), [mx.zeros((4, 0))], {}


def quantized_linear(bits):
    lin = init(nn.Linear(128, 32))
    qlin = nn.QuantizedLinear.from_linear(lin, group_size=64, bits=bits)
    mx.eval(qlin.parameters())
    return lambda x: qlin(x), [normal(4, 128)], {}


@model
def quantized_linear_4bit():
    return quantized_linear(4)


@model
def quantized_linear_8bit():
    return quantized_linear(8)


@model
def quantized_microscaling():
    """Products with weights in MLX's microscaling modes (nn.QuantizedLinear
    and quantized experts with mode="mxfp4", "mxfp8", "nvfp4"): fp4/fp8
    codes times per-group uint8 scales, float32 and bfloat16 inputs, the
    weights transposed or not, gathered experts."""
    w = normal(64, 128, scale=0.1)
    modes = ("mxfp4", "mxfp8", "nvfp4")
    packed = {m: mx.quantize(w, mode=m) for m in modes}
    mx.eval(packed)
    idx = mx.array([[1], [0], [1], [1]], dtype=mx.uint32)

    def fn(x, xb):
        outs = []
        for m in modes:
            wq, scales = packed[m]
            outs.append(mx.quantized_matmul(x, wq, scales, mode=m))
            outs.append(mx.quantized_matmul(xb, wq, scales, mode=m))
            outs.append(mx.gather_qmm(
                x[:, None], mx.stack([wq, wq * 0 + wq[::-1]]),
                mx.stack([scales, scales[::-1]]), rhs_indices=idx, mode=m))
        wq, scales = packed["mxfp4"]
        outs.append(mx.quantized_matmul(x[:, :64], wq, scales,
                                        transpose=False, mode="mxfp4"))
        return tuple(outs)
    return fn, [normal(4, 128), normal(4, 128, dtype=mx.bfloat16)], {}


# --- One graph per op family ---------------------------------------------------

@model
def ops_elementwise():
    def fn(a, b):
        return (mx.exp(a) * mx.sin(b) - mx.tanh(a) / (mx.abs(b) + 1),
                mx.sqrt(mx.abs(a)) + mx.rsqrt(mx.abs(b) + 1) + mx.erf(a),
                mx.log1p(mx.abs(a)) + mx.expm1(b * 0.1) + mx.log2(mx.abs(b) + 1),
                mx.where(a > b, a, b), mx.maximum(a, 0) + mx.minimum(b, 0),
                mx.sigmoid(a) ** 2 + mx.arctan2(a, b) + mx.floor(b) + mx.round(a),
                (a.astype(mx.int32) * 3 + 1) % 5, mx.logical_and(a > 0, b < 0),
                mx.logaddexp(a, b), mx.square(a) - mx.negative(b) + mx.sign(b))
    return fn, [normal(4, 16), normal(4, 16)], {}


@model
def ops_floor_divide():
    # MLX 0.32.4 exports `//` as its own primitive, FloorDivide: floored for
    # signed integers (-7 // 2 == -4), floor(x / y) for floats with the
    # quotient rounded to the dtype first (bfloat16 and float16 here: 4096
    # pairs each, some of whose quotients round up to an integer). Integer
    # division by 0 gives 0 and the remainder x; int8 -128 // -1 wraps to
    # -128 (int32 INT_MIN // -1 traps in MLX itself).
    def fn(i, j, u, v, x, y, hx, hy, p, q, fx, fy):
        # The half-precision quotients as int32, compared exactly.
        return (i // j, i % j, i // 3, u // v, u % v, x // y,
                (hx // hy).astype(mx.int32), (fx // fy).astype(mx.int32),
                7 // (mx.abs(j) + 1), p // q, p % q,
                i.astype(mx.int8) // j.astype(mx.int8),
                i.astype(mx.int8) % j.astype(mx.int8))
    ints = mx.random.randint(-40, 40, (6, 8), mx.int32)
    ints = mx.concatenate([ints[:5], mx.array([[-128, -2147483647, 0, -1, 127,
                                                5, -5, 9]], mx.int32)])
    divisors = mx.random.randint(-9, 9, (6, 8), mx.int32)
    divisors = mx.concatenate([divisors[:5], mx.array(
        [[-1, -1, 0, -1, 0, 0, -1, 1]], mx.int32)])
    bools = mx.array([True, True, False, False])
    return fn, [ints, divisors, mx.random.randint(0, 255, (6, 8), mx.uint8),
                mx.array([0, 1, 2, 3, 4, 5, 6, 255], mx.uint8),
                normal(6, 8, scale=9), normal(6, 8) + 3,
                normal(64, 64).astype(mx.bfloat16),
                normal(64, 64, scale=0.2).astype(mx.bfloat16),
                bools, mx.array([False, True, False, True]),
                normal(64, 64, dtype=mx.float16),
                normal(64, 64, scale=0.2, dtype=mx.float16)], {}


@model
def ops_logaddexp_half():
    # MLX computes a half-precision logaddexp in its dtype, rounding
    # min - max, its exp and log1p of that before the sum (rounded once,
    # bfloat16 agrees on about 74 % of these pairs): the bits compared
    # exactly, as int16, for 4096 pairs each, and -inf and inf operands.
    def fn(bx, by, hx, hy, fx, fy):
        return (mx.logaddexp(bx, by).view(mx.int16),
                mx.logaddexp(hx, hy).view(mx.int16), mx.logaddexp(fx, fy))
    edges = mx.array([[-float("inf"), 0.5, float("inf"), -float("inf")]])
    return fn, [normal(64, 64, dtype=mx.bfloat16),
                normal(64, 64, dtype=mx.bfloat16, scale=3.0),
                mx.concatenate([normal(1023, 4, dtype=mx.float16),
                                edges.astype(mx.float16)]),
                mx.concatenate([normal(1023, 4, dtype=mx.float16, scale=2.0),
                                edges[:, ::-1].astype(mx.float16)]),
                normal(8, 8), normal(8, 8)], {}


@model
def ops_unary_half_bits():
    # MLX's CPU kernels round some steps of these ops to the half dtype
    # (rsqrt's square root, sigmoid's exp) or use their own polynomial
    # (erfinv). rsqrt and erfinv: the bits compared exactly, as int16, for
    # bfloat16 and float16 (rounding once, rsqrt agreed on about 72 % of
    # them, erfinv on 91-97 %), with 0, -0 and +-inf operands, and +-1 for
    # erfinv. sigmoid by value: its exp is math.exp (a GPU turns it into
    # ex2.approx), not MLX's own polynomial, so a few in 4096 differ in the
    # last bit.
    def fn(b, h, bu, hu):
        out = []
        for x, u in ((b, bu), (h, hu)):
            out += [mx.sigmoid(x), mx.rsqrt(mx.abs(x)).view(mx.int16),
                    mx.erfinv(u).view(mx.int16)]
        return tuple(out)
    edges = mx.array([[0.0, -0.0, float("inf"), -float("inf")]])
    units = mx.array([[1.0, -1.0, 0.0, 0.5]])
    def inputs(dtype):
        x = mx.concatenate([normal(1023, 4, dtype=dtype, scale=3.0),
                            edges.astype(dtype)])
        u = mx.concatenate([mx.tanh(normal(1023, 4, scale=1.5)).astype(dtype),
                            units.astype(dtype)])
        return x, u
    bx, bu = inputs(mx.bfloat16)
    hx, hu = inputs(mx.float16)
    return fn, [bx, hx, bu, hu], {}


@model
def ops_searchsorted():
    # Left and right insertion points, duplicates in the sequence, NaN at its
    # end and among the values (NaN sorts last), promotion of an int32
    # sequence to the values' float32, and unsigned and half dtypes.
    def fn(seq, v, ints, iv, u, bseq, bv):
        return (mx.searchsorted(seq, v), mx.searchsorted(seq, v, side="right"),
                mx.searchsorted(ints, iv), mx.searchsorted(ints, v, side="right"),
                mx.searchsorted(u, mx.array(7, mx.uint8)),
                mx.searchsorted(bseq, bv, side="right"))
    seq = mx.array([-2.0, -0.5, 0.0, 0.0, 0.5, 1.5, 1.5, 1.5, 3.0, float("nan")])
    v = mx.concatenate([normal(3, 5) * 2, mx.array(
        [[0.0, 1.5, float("nan"), -3.0, 4.0]])])
    ints = mx.sort(mx.random.randint(-20, 20, (33,), mx.int32))
    return fn, [seq, v, ints, mx.random.randint(-25, 25, (2, 3, 7), mx.int32),
                mx.array([0, 3, 7, 7, 200], mx.uint8),
                mx.sort(normal(16)).astype(mx.bfloat16),
                normal(4, 4).astype(mx.bfloat16)], {}


@model
def ops_hadamard():
    # Sizes 2^k and m * 2^k (m = 12, 20, 28), the default and given scales,
    # float32, bfloat16 and float16 (MLX rounds after each butterfly stage).
    def fn(a, b, c, d, e):
        return (mx.hadamard_transform(a), mx.hadamard_transform(b),
                mx.hadamard_transform(c, scale=0.5),
                mx.hadamard_transform(d, scale=1.0),
                mx.hadamard_transform(e), mx.hadamard_transform(a.T))
    return fn, [normal(4, 64), normal(2, 3, 48, dtype=mx.bfloat16),
                normal(5, 20, dtype=mx.float16), normal(2, 112),
                normal(3, 256, dtype=mx.bfloat16)], {}


@model
def ops_block_masked_mm():
    # Boolean masks (zero a block, even one holding inf) and float masks
    # (scale it), block sizes 32 and 64 with partial last blocks, the
    # output's mask alone, the operands' alone and all three, batch axes
    # that broadcast, and 1-D operands.
    def fn(a, b, c, d, mo, ml, mr, bo, bl, br, v):
        return (mx.block_masked_mm(a, b, 32, bo[0, :2, :3]),
                mx.block_masked_mm(a / 0.0, b, 32, None, bl[0, :2, :2],
                                   br[0]),
                mx.block_masked_mm(c, d, 64, mo, ml, mr),
                mx.block_masked_mm(c[:, :, :64], d[:64], 32, bo, bl, br),
                mx.block_masked_mm(v, b, 32, bo[0, 0, :3]))
    return fn, [normal(50, 40), normal(40, 70), normal(3, 70, 130),
                normal(130, 65), normal(2, 2), normal(3, 2, 3), normal(3, 2),
                normal(3, 3, 3) > 0, normal(3, 3, 2) > 0,
                normal(3, 2, 3) > 0, normal(40)], {}


@model
def ops_linalg():
    # MLX's CPU linear algebra: inverses (general with row exchanges, of a
    # batch, float64; triangular, reading one triangle only), Cholesky
    # factors (lower and upper), QR (tall, wide, a column with nothing
    # below its diagonal: LAPACK's signs), eigenvalues of symmetric matrices
    # (from either triangle), singular values (tall, wide, rank 1), and the
    # ops built on them.
    def fn(a, spd, t, b, d, z):
        c = mx.cpu
        return (mx.linalg.eigvalsh(spd, stream=c),
                mx.linalg.eigvalsh(t, UPLO="U", stream=c),
                mx.linalg.eigvalsh(d + d.T, stream=c),
                mx.linalg.svd(b, compute_uv=False, stream=c),
                mx.linalg.svd(a[:, :4], compute_uv=False, stream=c),
                mx.linalg.svd(b[:, :1] @ b[:1, :], compute_uv=False, stream=c),
                mx.linalg.norm(a, ord=2, axis=(-2, -1), stream=c),
                *mx.linalg.qr(b, stream=c), *mx.linalg.qr(b.T, stream=c),
                *mx.linalg.qr(z, stream=c), *mx.linalg.qr(d, stream=c),
                mx.linalg.inv(a, stream=c), mx.linalg.inv(d, stream=c),
                mx.linalg.cholesky(spd, stream=c),
                mx.linalg.cholesky(spd, upper=True, stream=c),
                mx.linalg.tri_inv(t, upper=True, stream=c),
                mx.linalg.tri_inv(t, stream=c),
                mx.linalg.solve_triangular(t[0], b, upper=True, stream=c),
                mx.linalg.cholesky_inv(mx.linalg.cholesky(spd, stream=c),
                                       stream=c))
    x = normal(3, 6, 6)
    eye = mx.eye(6)
    pivot = mx.array([[0.0, 1.0, 2.0], [1.0, 0.0, 3.0], [4.0, -3.0, 8.0]])
    return fn, [mx.concatenate([normal(1, 6, 6), mx.pad(pivot, [(0, 3), (0, 3)])[None] + eye]) ,
                x @ mx.swapaxes(x, -1, -2) + 6 * eye, normal(2, 6, 6) + 5 * eye,
                normal(6, 4), normal(5, 5).astype(mx.float64),
                mx.array([[1.0, 2.0, 0.0], [0.0, -3.0, 0.0], [0.0, 4.0, 5.0],
                          [0.0, 0.0, 1.0]])], {}


@model
def ops_empty_and_unit_axes():
    # Empty operands where slices land at the end of an axis (MLIR refuses
    # an offset equal to the size), graphs with empty results, and scans
    # along an axis of size 1 beside other unit axes.
    def fn(a, z, u, w):
        e = z[:, 3:]                                  # [4, 0]
        h = e[0].astype(mx.float16)                   # [0]
        p = mx.maximum(mx.softmax(h * h, axis=0), h) @ w  # [0] @ [0, 3]
        return (mx.concatenate([a, z[:, :0]], axis=1),
                mx.pad(z[:, :0], [(0, 0), (1, 2)], constant_values=1.5),
                a[:, 3:], mx.cumsum(e, axis=0), mx.concatenate([e, e], axis=0),
                mx.split(a, [1, 1], axis=1)[1], mx.exp(e) + 1,
                mx.cumsum(u, axis=2), mx.cumprod(u, axis=0, reverse=True),
                mx.cummax(u.transpose(2, 0, 1), axis=1, inclusive=False), p)
    return fn, [normal(4, 3), normal(4, 3), normal(1, 5, 1),
                mx.zeros((0, 3), mx.float16)], {}


@model
def ops_reductions():
    def fn(x):
        return (x.sum(axis=1), x.mean(axis=(0, 2)), x.max(axis=-1), x.min(),
                x.prod(axis=0), mx.var(x, axis=1), mx.argmax(x, axis=2),
                mx.argmin(x, axis=0), mx.logsumexp(x, axis=-1),
                mx.softmax(x, axis=-1), mx.all(x > -3, axis=1),
                mx.any(x > 2, axis=2))
    return fn, [normal(3, 5, 7)], {}


@model
def ops_scans():
    def fn(x):
        return (mx.cumsum(x, axis=1), mx.cumprod(x * 0.5, axis=0),
                mx.cummax(x, axis=1, reverse=True),
                mx.cummin(x, axis=0),
                mx.cumsum(x, axis=1, inclusive=False))
    return fn, [normal(6, 9)], {}


@model
def ops_layout():
    def fn(x, y):
        t = x.transpose(2, 0, 1)
        return (t.reshape(4, -1), x[:, 1:3, ::2], mx.concatenate([x, y], axis=1),
                mx.pad(x, [(0, 0), (1, 2), (0, 1)], constant_values=0.5),
                *mx.split(y, 2, axis=2), mx.expand_dims(x, 1).squeeze(1) + 1,
                mx.broadcast_to(x[:, :1, :], (2, 3, 4)), x.flatten(),
                mx.swapaxes(y, 0, 2), x[..., ::-1])
    return fn, [normal(2, 3, 4), normal(2, 5, 4)], {}


@model
def ops_indexing():
    table = normal(10, 6)
    mx.eval(table)

    def fn(x, idx):
        return (table[idx], mx.take(x, idx, axis=1),
                mx.take_along_axis(x, (idx[None, :] + 1) % 5, axis=1),
                x[idx % 4], table[idx[:, None], idx[None, :]])
    return fn, [normal(4, 5), mx.array([3, 0, 4, 2, 1], dtype=mx.int32)], {}


@model
def ops_scatter():
    def fn(x, idx, v):
        y = mx.array(x)
        y[idx] = v  # Scatter (assignment, repeated index: the last wins)
        return (y, x.at[idx].add(v), x.at[idx].maximum(v),
                mx.put_along_axis(x, mx.argmax(x, axis=1, keepdims=True),
                                  mx.zeros((6, 1)), axis=1))
    return fn, [normal(6, 4), mx.array([4, 1, 4, 0], dtype=mx.int32),
                normal(4, 4)], {}


@model
def ops_masked_scatter():
    """Boolean-mask assignment `y[mask] = v` (MaskedScatter): a full mask
    taking a flat array, a row mask taking rows or one broadcast row, a
    scalar, integers, bfloat16, and a mask with fewer true elements than
    values (the first ones are taken)."""
    def assign(x, mask, v):
        y = x * 1
        y[mask] = v
        return y

    def fn(x, m, v, rows, row, i, b, bm, bv):
        return (assign(x, m, v), assign(x, rows, v.reshape(-1, 8)[:3]),
                assign(x, rows, row), assign(x, m, 0.5),
                assign(i, i % 3 == 0, mx.arange(100, 104, dtype=mx.int32)),
                assign(b, bm, bv), assign(x, x > 1.0, v))
    return fn, [normal(6, 8), normal(6, 8) > 0, normal(48),
                mx.array([True, False, True, False, False, True]), normal(8),
                mx.arange(12, dtype=mx.int32).reshape(3, 4),
                normal(2, 3, 4, dtype=mx.bfloat16), normal(2, 3) > 0,
                normal(6, 4, dtype=mx.bfloat16)], {}


@model
def ops_slice_update_reduce():
    """`x.at[slice].add/multiply/maximum/minimum(v)` (SliceUpdate with a
    reduction), as YaRN's RoPE scales the rotated part of a head: strided,
    reversed and scalar updates, integers."""
    def fn(x, v, i):
        return (x.at[..., :8].multiply(1.5), x.at[1:3, ::2].add(v),
                x.at[::-2, 6:].maximum(v), x.at[:2].minimum(0.0),
                i.at[1:, :2].add(mx.array(7, dtype=mx.int32)),
                i.at[:, 1].multiply(i[:, 0]))
    return fn, [normal(4, 12), normal(2, 6),
                mx.arange(12, dtype=mx.int32).reshape(3, 4)], {}


def complex_normal(*shape):
    return (mx.random.normal(shape) + 1j * mx.random.normal(shape)).astype(
        mx.complex64)


@model
def ops_fft():
    """mx.fft on real and complex64 arrays (mlxc computes a DFT per axis as
    products): forward and inverse, real (rfft/irfft, odd and even lengths,
    a length n that pads or cuts), over several axes, and a power
    spectrogram of Hann-windowed frames as audio models compute it."""
    window = mx.array(np.hanning(64).astype(np.float32))

    def fn(x, z, frames, long):
        return (mx.fft.rfft(x), mx.fft.rfft(x[:, :15]), mx.fft.fft(z),
                mx.fft.ifft(z, n=10), mx.fft.irfft(z), mx.fft.irfft(z, n=15),
                mx.fft.fft2(z[None].astype(mx.complex64) * 2),
                mx.fft.rfftn(x.reshape(2, 4, 8)), mx.fft.irfft2(z[:, :5]),
                mx.fft.fft(z, axis=0, n=5),
                mx.abs(mx.fft.rfft(frames * window)) ** 2,
                # Long axes split in four steps: 400 = 20 * 20, 1000, a
                # prime factor (514 = 2 * 257), odd real lengths.
                mx.fft.rfft(long[:, :400]), mx.fft.ifft(long.astype(
                    mx.complex64) * (1 + 2j)), mx.fft.fft(long[:, :514]),
                mx.fft.irfft(mx.fft.rfft(long[:, :401]), n=401),
                mx.fft.irfft(z, n=333))
    return fn, [normal(4, 16), complex_normal(4, 12), normal(6, 64),
                normal(2, 1000)], {}


@model
def ops_complex():
    """complex64 inputs and outputs through arithmetic, parts, casts,
    comparisons, layout ops, sums, padding and where."""
    def fn(a, b, x, i):
        return (a * b, a / b, a + b, a - b, -a, mx.conj(a), mx.real(a),
                mx.imag(a), mx.abs(a), mx.square(a), mx.exp(a * 0.5),
                a == b, a != a, a.T, a.reshape(15), a[1:, ::2],
                mx.concatenate([a, b], axis=1), mx.expand_dims(a, 0),
                mx.broadcast_to(a[:1], (4, 5)), a.sum(axis=1),
                mx.where(mx.real(a) > 0, a, b),
                mx.pad(a, [(1, 0), (0, 2)]), x.astype(mx.complex64) * a,
                i.astype(mx.complex64), (a * 2).astype(mx.float32))
    return fn, [complex_normal(3, 5), complex_normal(3, 5), normal(3, 5),
                mx.arange(15, dtype=mx.int32).reshape(3, 5)], {}


@model
def ops_complex_functions():
    """complex64 through products (batched), running sums, rolls and
    fftshift (splits), gathers, and sqrt, log, sin and cos."""
    def fn(a, b, c):
        return (c @ b, mx.cumsum(a, axis=1), mx.roll(a, 2, axis=1),
                mx.fft.fftshift(mx.fft.fft(a)), mx.take(a, mx.array([4, 0]), axis=1),
                mx.take_along_axis(a, mx.array([[1], [0], [3]]), axis=1),
                mx.sqrt(a), mx.log(a), mx.sin(a), mx.cos(a))
    return fn, [complex_normal(3, 5), complex_normal(2, 5, 4),
                complex_normal(2, 3, 5)], {}


@model
def ops_sort():
    def fn(x):
        top = mx.argsort(-x, axis=-1)[:, :3]  # top-3 as in sampling
        return mx.sort(x, axis=-1), top, mx.take_along_axis(x, top, axis=-1)
    return fn, [normal(4, 50)], {}


@model
def ops_linear():
    def fn(a, b, c):
        return a @ b, mx.addmm(c, a, b, alpha=0.5, beta=2.0), \
            mx.matmul(a[None], mx.stack([b, b * 2]))
    return fn, [normal(6, 16), normal(16, 8), normal(8)], {}


@model
def ops_creation():
    def fn(x):
        return (x + mx.arange(8, dtype=mx.float32), mx.full((3, 8), 2.5) * x,
                mx.zeros_like(x) + mx.ones((8,)), mx.arange(2, 20, 3) * 2)
    return fn, [normal(3, 8)], {}


@model
def ops_kwargs():
    """Keyword inputs (exported sorted by name after the positional ones)."""
    def fn(x, *, scale, bias):
        return x * scale + bias,
    return fn, [normal(4, 4)], {"scale": normal(4), "bias": normal(4, 4)}


def to_numpy(a):
    if a.size == 0:
        # np.array() of an empty mx array can spin forever (MLX 0.32.4).
        return np.zeros(a.shape, np.float32 if a.dtype == mx.bfloat16 else
                        np.dtype(str(a.dtype).split(".")[-1]))
    if a.dtype == mx.bfloat16:
        a = a.astype(mx.float32)
    return np.array(a)


def export(name, out_dir):
    mx.random.seed(sum(map(ord, name)))
    path = os.path.join(out_dir, name + ".mlxfn")
    if name in fused.SYNTHESIZED:
        inputs, outs = fused.SYNTHESIZED[name](path)
        mx.eval(outs)
        np.savez(os.path.join(out_dir, name + ".inputs.npz"), **inputs)
        np.savez(os.path.join(out_dir, name + ".expected.npz"),
                 **{f"out{i}": to_numpy(o) for i, o in enumerate(outs)})
        return list(inputs), [str(o.dtype).split(".")[-1] for o in outs], None
    fn, args, kwargs, *earlier = MODELS[name]()
    mx.eval(args, kwargs)
    if earlier:
        # Several traces: the earlier ones first, the checked one last.
        with mx.exporter(path, fn) as ex:
            for trace_args in earlier[0]:
                mx.eval(trace_args)
                ex(*trace_args)
            ex(*args, **kwargs)
    else:
        mx.export_function(path, fn, *args, **kwargs)
    outs = fn(*args, **kwargs)
    outs = outs if isinstance(outs, (tuple, list)) else (outs,)
    inputs = {f"arg{i}": to_numpy(a) for i, a in enumerate(args)}
    inputs.update({k: to_numpy(v) for k, v in kwargs.items()})
    np.savez(os.path.join(out_dir, name + ".inputs.npz"), **inputs)
    np.savez(os.path.join(out_dir, name + ".expected.npz"),
             **{f"out{i}": to_numpy(o) for i, o in enumerate(outs)})
    # Input order as mlxc sees it: positional, then keywords sorted. The
    # checked trace of a file of several is its last entry.
    entry = f"{name}_{len(earlier[0])}" if earlier else None
    return [f"arg{i}" for i in range(len(args))] + sorted(kwargs), \
        [str(o.dtype).split(".")[-1] for o in outs], entry


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "list":
        print("\n".join(list(MODELS) + list(fused.SYNTHESIZED)))
    elif len(sys.argv) == 3:
        print(export(sys.argv[1], sys.argv[2]))
    else:
        sys.exit("usage: corpus.py list | corpus.py NAME OUT_DIR")
