"""Graphs in the form a GPU export of MLX has: fused RMSNorm, LayerNorm,
RoPE, ScaledDotProductAttention and Quantize (dequantize) nodes, and the
layouts of older MLX releases. MLX's CPU build cannot write these, so
mlxfn_writer.py writes them; MLX computes every reference output.

Each entry of SYNTHESIZED(dir) writes NAME.mlxfn and returns
(inputs {name: array}, outputs [mx.array]).
"""

import numpy as np
import mlx.core as mx

from mlxfn_writer import Function, boolean, f32, i32, write

SYNTHESIZED = {}


def synthesized(fn):
    SYNTHESIZED[fn.__name__] = fn
    return fn


def np32(a):
    return np.array(a.astype(mx.float32) if a.dtype == mx.bfloat16 else a)


def sdpa_state(version, scale, causal):
    # [nullptr] scale, do_causal, has_sinks (0.29.1), output_logsumexp
    # (0.30.0), force_fused (0.32.2).
    v = tuple(int("".join(c for c in p if c.isdigit())) for p in
              version.split(".")[:3])
    state = f32(scale) + boolean(causal)
    if v >= (0, 29, 1):
        state += boolean(False)
    if v >= (0, 30, 0):
        state += boolean(False)
    if v >= (0, 32, 2):
        state += boolean(False)
    return state


def rms_norm(path, dt):
    x = mx.random.normal((2, 8, 64)).astype(dt)
    w = (mx.random.normal((64,)) * 0.5 + 1).astype(dt)
    name = str(dt).split(".")[-1]
    fn = Function()
    xi = fn.input(x.shape, name)
    wi = fn.constant(np32(w).astype(np.float32), "float32") if dt == mx.float32 \
        else fn.input(w.shape, name)
    fn.outputs = [fn.op("RMSNorm", [xi, wi], f32(1e-5), x.shape, name)]
    write(path, [fn])
    inputs = {"arg0": np32(x)}
    if dt != mx.float32:
        inputs["arg1"] = np32(w)
    return inputs, [mx.fast.rms_norm(x, w, 1e-5)]


@synthesized
def fused_rms_norm_f32(path):
    return rms_norm(path, mx.float32)


@synthesized
def fused_rms_norm_bf16(path):
    return rms_norm(path, mx.bfloat16)


@synthesized
def fused_layer_norm(path):
    x = mx.random.normal((3, 5, 48))
    w, b = mx.random.normal((48,)), mx.random.normal((48,))
    fn = Function()
    xi, wi, bi = (fn.input(a.shape, "float32") for a in (x, w, b))
    fn.outputs = [fn.op("LayerNorm", [xi, wi, bi], f32(1e-5), x.shape,
                        "float32")]
    write(path, [fn])
    return {"arg0": np32(x), "arg1": np32(w), "arg2": np32(b)}, \
        [mx.fast.layer_norm(x, w, b, 1e-5)]


@synthesized
def fused_rope(path):
    """Both RoPE layouts, a partial rotation, and the offset as an input."""
    x = mx.random.normal((1, 4, 6, 32))
    off = mx.array(7, dtype=mx.int32)
    fn = Function()
    xi = fn.input(x.shape, "float32")
    oi = fn.input((), "int32")
    state = lambda dims, trad: (i32(dims) + boolean(trad) + f32(10000.0) +
                                f32(1.0) + boolean(True))
    fn.outputs = [fn.op("RoPE", [xi, oi], state(32, False), x.shape, "float32"),
                  fn.op("RoPE", [xi, oi], state(16, True), x.shape, "float32")]
    write(path, [fn])
    return {"arg0": np32(x), "arg1": np.array(7, np.int32)}, [
        mx.fast.rope(x, 32, traditional=False, base=10000, scale=1.0,
                     offset=off),
        mx.fast.rope(x, 16, traditional=True, base=10000, scale=1.0,
                     offset=off)]


def sdpa(path, version, masked):
    q = mx.random.normal((1, 4, 8, 16))
    k, v = mx.random.normal((1, 2, 8, 16)), mx.random.normal((1, 2, 8, 16))
    mask = mx.random.uniform(shape=(8, 8)) > 0.3
    mask = mask | mx.eye(8, dtype=mx.bool_)
    scale = 16 ** -0.5
    fn = Function()
    ids = [fn.input(a.shape, "float32") for a in (q, k, v)]
    if masked:
        ids.append(fn.input(mask.shape, "bool"))
    fn.outputs = [fn.op("ScaledDotProductAttention", ids,
                        sdpa_state(version, scale, not masked), q.shape,
                        "float32")]
    write(path, [fn], version=version)
    inputs = {"arg0": np32(q), "arg1": np32(k), "arg2": np32(v)}
    if masked:
        inputs["arg3"] = np.array(mask)
    ref = mx.fast.scaled_dot_product_attention(
        q, k, v, scale=scale, mask=mask if masked else "causal")
    return inputs, [ref]


@synthesized
def fused_sdpa_causal(path):
    return sdpa(path, "0.32.4", False)


@synthesized
def fused_sdpa_mask(path):
    return sdpa(path, "0.32.4", True)


@synthesized
def fused_dequantize(path):
    w = mx.random.normal((32, 128))
    wq, scales, biases = mx.quantize(w, group_size=64, bits=4)
    fn = Function()
    ids = [fn.input(wq.shape, "uint32"), fn.input(scales.shape, "float32"),
           fn.input(biases.shape, "float32")]
    # [nullptr] group_size, bits, mode (0 affine), dequantize
    state = i32(64) + i32(4) + i32(0) + boolean(True)
    fn.outputs = [fn.op("Quantize", ids, state, w.shape, "float32")]
    write(path, [fn])
    return {"arg0": np.array(wq), "arg1": np.array(scales),
            "arg2": np.array(biases)}, \
        [mx.dequantize(wq, scales, biases, group_size=64, bits=4)]


def versioned(path, version):
    """Primitives whose state changed between releases: SDPA, SliceUpdate,
    plus the header's metadata string (0.32.1 on)."""
    q = mx.random.normal((1, 2, 4, 8))
    cache = mx.random.normal((1, 2, 6, 8))
    fn = Function()
    qi, ci = fn.input(q.shape, "float32"), fn.input(cache.shape, "float32")
    # cache[:, :, 1:5, :] = q  (SliceUpdate gained a reduce field in 0.31.2)
    v = tuple(int(p) for p in version.split(".")[:3])
    state = i32(4) if v >= (0, 31, 2) else b""
    from mlxfn_writer import vec_i32
    state += vec_i32([0, 0, 1, 0]) + vec_i32([1, 2, 5, 8]) + vec_i32([1] * 4)
    upd = fn.op("SliceUpdate", [ci, qi], state, cache.shape, "float32")
    out = fn.op("ScaledDotProductAttention", [qi, upd, upd],
                sdpa_state(version, 0.35, True), q.shape, "float32")
    fn.outputs = [out, upd]
    write(path, [fn], version=version, metadata='{"model": "test"}')
    new = mx.array(cache)
    new[:, :, 1:5, :] = q
    ref = mx.fast.scaled_dot_product_attention(q, new, new, scale=0.35,
                                               mask="causal")
    return {"arg0": np32(q), "arg1": np32(cache)}, [ref, new]


for _version in ("0.29.0", "0.29.1", "0.30.0", "0.31.1", "0.31.2", "0.32.0",
                 "0.32.1", "0.32.2.dev20260822+846d176"):
    _name = "layout_v" + "_".join(_version.split("+")[0].split(".")[:3])
    SYNTHESIZED[_name] = (lambda v: lambda path: versioned(path, v))(_version)


@synthesized
def random_bits(path):
    """MLX's RandomBits for 1-, 2- and 4-byte elements, with even and odd
    word counts; MLX evaluates the same file for the reference."""
    from mlxfn_writer import vec_i32
    fn = Function()
    key = fn.input((2,), "uint32")
    outs = []
    for shape, width, dt in (((3, 3), 4, "uint32"), ((4, 2), 4, "uint32"),
                             ((7,), 1, "uint8"), ((5, 3), 2, "uint16"),
                             ((13,), 1, "uint8")):
        outs.append(fn.op("RandomBits", [key], vec_i32(shape) + i32(width),
                          shape, dt))
    fn.outputs = outs
    write(path, [fn])
    k = mx.array([7, 123456789], dtype=mx.uint32)
    return {"arg0": np.array(k)}, list(mx.import_function(path)(k))
