"""W6-W9 (shared/BENCHMARKS.md) written as an MLX user writes them.

mx.fast.rms_norm, mx.fast.rope (base 10000, non-traditional), mx.fast.
scaled_dot_product_attention, every weight a function input passed by keyword
(its name is the executable's input name). Weights are [in, out] (`h @ w`).
Adapted from the project's shared mlx_workloads.py; the decode steps (W8, W9)
use the fixed-length KV cache of docs/Guides/FromMlx.md: the position is an
int32 input `offset`, the new key/value are written with mx.slice_update at
that offset, a mask hides the slots after it, and the updated caches are
returned, so that the exported step is the one a decode loop runs.

export(wl, path, tiny) writes wl's .mlxfn; FUNCS[wl](z) gives the function.
"""
import functools

import mlx.core as mx
import mlx.nn as nn

from specs import EPS, ROPE_BASE, input_specs, sizes


def _heads(t, nh):
    b, l, _ = t.shape
    return t.reshape(b, l, nh, -1).transpose(0, 2, 1, 3)  # [B, H, L, Dh]


def _rope(t, dh, offset):
    return mx.fast.rope(t, dh, traditional=False, base=ROPE_BASE, scale=1.0, offset=offset)


def mlp(x, wg, wu, wd):
    return (nn.silu(x @ wg) * (x @ wu)) @ wd


def w6(x, wg, wu, wd):
    """llama MLP."""
    return mlp(x, wg, wu, wd)


def w7(x, wn1, wq, wk, wv, wo, wn2, wg, wu, wd, *, nh):
    """llama decoder layer, prefill from position 0, causal; nh heads."""
    b, s, d = x.shape
    dh = wq.shape[1] // nh
    h = mx.fast.rms_norm(x, wn1, EPS)
    q = _rope(_heads(h @ wq, nh), dh, 0)
    k = _rope(_heads(h @ wk, nh), dh, 0)
    v = _heads(h @ wv, nh)
    o = mx.fast.scaled_dot_product_attention(q, k, v, scale=dh ** -0.5, mask="causal")
    x = x + o.transpose(0, 2, 1, 3).reshape(b, s, nh * dh) @ wo
    return x + mlp(mx.fast.rms_norm(x, wn2, EPS), wg, wu, wd)


def attend_step(h, offset, kc, vc, wq, wk, wv, wo, nh):
    """One token's attention against a fixed-length cache: returns (o @ wo, kc, vc)
    with the new key/value written at `offset` (FromMlx.md's decode step)."""
    b = h.shape[0]
    nkv, dh = kc.shape[1], kc.shape[3]
    q = _rope(_heads(h @ wq, nh), dh, offset)
    k = _rope(_heads(h @ wk, nkv), dh, offset)
    v = _heads(h @ wv, nkv)
    start = offset.reshape(1)
    kc = mx.slice_update(kc, k, start, axes=(2,))
    vc = mx.slice_update(vc, v, start, axes=(2,))
    mask = mx.arange(kc.shape[2]) <= offset  # the keys written so far
    o = mx.fast.scaled_dot_product_attention(q, kc, vc, scale=dh ** -0.5, mask=mask)
    return o.transpose(0, 2, 1, 3).reshape(b, 1, nh * dh) @ wo, kc, vc


def w8(x, offset, k_cache, v_cache, wn1, wq, wk, wv, wo, wn2, wg, wu, wd):
    """One decode step of the W7 layer: token x [1, 1, d] at position `offset`
    (int32 scalar) against caches [1, H, T+1, Dh] holding `offset` entries.
    Returns (x_out, k_cache, v_cache), the caches with the new entry written."""
    nh = k_cache.shape[1]
    a, k_cache, v_cache = attend_step(mx.fast.rms_norm(x, wn1, EPS), offset, k_cache,
                                      v_cache, wq, wk, wv, wo, nh)
    x = x + a
    return x + mlp(mx.fast.rms_norm(x, wn2, EPS), wg, wu, wd), k_cache, v_cache


def w9(tokens, offset, embed, norm, head, *, nh, **kw):
    """One decode step of an L-layer llama (GQA): tokens [1, 1] int32 at position
    `offset`; per layer i the weights l{i}_wn1 ... l{i}_wd and the caches l{i}_k,
    l{i}_v [1, kv_heads, T+1, Dh]. Returns (logits [1, 1, vocab], l0_k, l0_v,
    l1_k, ...): the caches with the new entries written."""
    layers = sum(1 for n in kw if n.endswith("_wq"))
    h = mx.take(embed, tokens, axis=0)  # [1, 1, d]
    caches = []
    for i in range(layers):
        p = lambda n: kw[f"l{i}_{n}"]  # noqa: E731
        a, kc, vc = attend_step(mx.fast.rms_norm(h, p("wn1"), EPS), offset, p("k"), p("v"),
                                p("wq"), p("wk"), p("wv"), p("wo"), nh)
        caches += [kc, vc]
        h = h + a
        h = h + mlp(mx.fast.rms_norm(h, p("wn2"), EPS), p("wg"), p("wu"), p("wd"))
    return (mx.fast.rms_norm(h, norm, EPS) @ head, *caches)


def function(wl, z):
    if wl == "W6":
        return w6
    if wl == "W7":
        return functools.partial(w7, nh=z["heads"])
    if wl == "W8":
        return w8
    if wl == "W9":
        return functools.partial(w9, nh=z["heads"])
    raise KeyError(wl)


MX_DTYPE = {"bfloat16": mx.bfloat16, "int32": mx.int32, "float32": mx.float32}


def to_mx(a, dtype):
    """A specs.generate array (bfloat16 as uint16 bits) as an MLX array."""
    if dtype == "bfloat16":
        return mx.array(a.view("uint16")).view(mx.bfloat16)
    return mx.array(a)


def export(wl, path, tiny=False):
    """Exports wl with zeros of the right shapes as example inputs (every tensor
    is an input, so the file holds no data)."""
    z = sizes(tiny)[wl]
    args = {n: mx.zeros(shape, MX_DTYPE[dt]) for n, (shape, dt, _, _) in
            input_specs(wl, z).items()}
    mx.eval(args)
    mx.export_function(path, function(wl, z), **args)
