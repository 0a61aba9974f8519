"""W6-W9 sizes, input specifications and deterministic inputs (numpy only).

Imported by prepare.py (here, with MLX) and run_gpu.py (the GPU machine, no
MLX): both generate every weight and input from the same seed, so only the
compiled executables, MLX's reference outputs and a manifest of fingerprints
travel to the GPU machine (the ~1.4 GB of weights do not).

Each array comes from its own generator, numpy.random.default_rng([SEED,
crc32(key)]) with key "<namespace>/<name>", as float32 standard normals times
a scale, rounded to bfloat16 (nearest even). W7 and W8 share the namespace
"layer" (one decoder layer), so their weights are the same arrays.

Scales: activations, caches and the embedding 1; norm weights 1 + 0.1 N(0, 1);
[in, out] matrices in^-1/2 (unit-scale outputs). W9's residual projections (wo,
wd) get another (2 layers)^-1/2, GPT-2's initialisation: with unit-gain
branches a random 8-layer stack amplifies every bf16 rounding layer after
layer, and MLX, torch, JAX and mlxc all ended 1.1-1.4e-2 away from float64
(measured on the CPU at full size, 2026-12-02); scaled, a trained model's
regime, the rounding error stays far below the 1e-2 tolerance while a wrong
layer still moves the logits by far more.
"""
import hashlib
import json
import struct
import zlib

import numpy as np

SEED = 20261202
EPS = 1e-5
ROPE_BASE = 10000.0

# Sizes (shared/BENCHMARKS.md). TINY: the same graphs, small, for CPU checks.
FULL = {
    "W6": dict(m=4096, d=4096, hidden=11008),
    "W7": dict(seq=2048, d=4096, heads=32, hd=128, hidden=11008),
    # W8: one new token at position `cache` against `cache` cached entries; the
    # cache is a fixed buffer of cache + 1 slots (attention over cache + 1 keys).
    "W8": dict(cache=2048, d=4096, heads=32, hd=128, hidden=11008),
    "W9": dict(layers=8, d=2048, heads=16, kv_heads=4, hd=128, hidden=5632, vocab=32000,
               cache=1024),
}
TINY = {
    "W6": dict(m=32, d=128, hidden=192),
    "W7": dict(seq=40, d=128, heads=4, hd=32, hidden=192),
    "W8": dict(cache=40, d=128, heads=4, hd=32, hidden=192),
    "W9": dict(layers=2, d=128, heads=4, kv_heads=2, hd=32, hidden=192, vocab=300, cache=16),
}
# Rows of W6's output and positions of W7's output that MLX computes here on the
# CPU (the MLP is row-wise, causal attention makes the first P positions depend
# on the first P inputs only): the MLX reference for the full-size executables.
MLX_ROWS = 128

WORKLOADS = ("W6", "W7", "W8", "W9")
LAYER = ("wn1", "wq", "wk", "wv", "wo", "wn2", "wg", "wu", "wd")


def sizes(tiny=False):
    return TINY if tiny else FULL


def layer_specs(d, heads, kv_heads, hd, hidden, prefix="", ns="layer"):
    """name -> (shape, dtype, init, namespace key) for one decoder layer."""
    q, kv = heads * hd, kv_heads * hd
    shp = dict(wn1=(d,), wq=(d, q), wk=(d, kv), wv=(d, kv), wo=(q, d), wn2=(d,),
               wg=(d, hidden), wu=(d, hidden), wd=(hidden, d))
    out = {}
    for n in LAYER:
        init = "norm" if n in ("wn1", "wn2") else "mat"
        out[prefix + n] = (shp[n], "bfloat16", init, f"{ns}/{prefix}{n}")
    return out


def input_specs(wl, z):
    """The workload's inputs: name -> (shape, dtype, init, key), every tensor the
    exported function takes (the names are the executables' input names)."""
    bf = "bfloat16"
    if wl == "W6":
        d, h = z["d"], z["hidden"]
        return {"x": ((z["m"], d), bf, "normal", "W6/x"),
                "wg": ((d, h), bf, "mat", "W6/wg"), "wu": ((d, h), bf, "mat", "W6/wu"),
                "wd": ((h, d), bf, "mat", "W6/wd")}
    if wl == "W7":
        s = {"x": ((1, z["seq"], z["d"]), bf, "normal", "W7/x")}
        s.update(layer_specs(z["d"], z["heads"], z["heads"], z["hd"], z["hidden"]))
        return s
    if wl == "W8":
        t1 = z["cache"] + 1
        s = {"x": ((1, 1, z["d"]), bf, "normal", "W8/x"),
             "offset": ((), "int32", ("const", z["cache"]), "W8/offset"),
             "k_cache": ((1, z["heads"], t1, z["hd"]), bf, "normal", "W8/k_cache"),
             "v_cache": ((1, z["heads"], t1, z["hd"]), bf, "normal", "W8/v_cache")}
        s.update(layer_specs(z["d"], z["heads"], z["heads"], z["hd"], z["hidden"]))
        return s
    if wl == "W9":
        d, t1 = z["d"], z["cache"] + 1
        s = {"tokens": ((1, 1), "int32", ("randint", z["vocab"]), "W9/tokens"),
             "offset": ((), "int32", ("const", z["cache"]), "W9/offset"),
             "embed": ((z["vocab"], d), bf, "normal", "W9/embed"),
             "norm": ((d,), bf, "norm", "W9/norm"),
             "head": ((d, z["vocab"]), bf, "mat", "W9/head")}
        for i in range(z["layers"]):
            lay = layer_specs(d, z["heads"], z["kv_heads"], z["hd"], z["hidden"],
                              prefix=f"l{i}_", ns="W9")
            for n in ("wo", "wd"):  # residual projections scaled by (2 layers)^-1/2
                shape, dt, _, key = lay[f"l{i}_{n}"]
                lay[f"l{i}_{n}"] = (shape, dt, ("mat", (2 * z["layers"]) ** -0.5), key)
            s.update(lay)
            for n in ("k", "v"):
                s[f"l{i}_{n}"] = ((1, z["kv_heads"], t1, z["hd"]), bf, "normal",
                                  f"W9/l{i}_{n}")
        return s
    raise KeyError(wl)


def cache_names(wl, z):
    """The cache inputs, in the order the function returns them after its first output."""
    if wl == "W8":
        return ["k_cache", "v_cache"]
    if wl == "W9":
        return [f"l{i}_{n}" for i in range(z["layers"]) for n in ("k", "v")]
    return []


# ------------------------------------------------------------------------------------------
# bfloat16 as numpy's uint16 bits
# ------------------------------------------------------------------------------------------
def f32_to_bf16_bits(x):
    """Round float32 to bfloat16, nearest even (finite inputs); uint16 bits."""
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    r = (u + np.uint32(0x7FFF) + ((u >> np.uint32(16)) & np.uint32(1))) >> np.uint32(16)
    return r.astype(np.uint16)


def bf16_bits_to_f32(b):
    return (np.asarray(b).view(np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32)


def _seed(key):
    return [SEED, zlib.crc32(key.encode())]


def generate(shape, dtype, init, key):
    """One input, deterministic: bfloat16 as uint16 bits, int32 as int32."""
    if dtype == "int32":
        kind, v = init
        if kind == "const":
            return np.full(shape, v, np.int32)
        return np.random.default_rng(_seed(key)).integers(0, v, size=shape, dtype=np.int32)
    x = np.random.default_rng(_seed(key)).standard_normal(shape, dtype=np.float32)
    if init == "mat":  # [in, out] weights: keep activations at unit scale
        x *= np.float32(shape[0] ** -0.5)
    elif isinstance(init, tuple) and init[0] == "mat":  # ... times a factor
        x *= np.float32(shape[0] ** -0.5 * init[1])
    elif init == "norm":
        x *= np.float32(0.1)
        x += np.float32(1.0)
    return f32_to_bf16_bits(x)


def generate_all(wl, z, cache=None):
    """name -> array for every input of wl; `cache` (a dict keyed by key) shares
    arrays between workloads (W7/W8's layer)."""
    out = {}
    for n, (shape, dt, init, key) in input_specs(wl, z).items():
        if cache is not None and key in cache:
            out[n] = cache[key]
            continue
        a = generate(shape, dt, init, key)
        if cache is not None:
            cache[key] = a
        out[n] = a
    return out


def fingerprint(a):
    """sha256 of the array's bytes (C order), 16 hex digits."""
    return hashlib.sha256(np.ascontiguousarray(a).view(np.uint8).data).hexdigest()[:16]


# ------------------------------------------------------------------------------------------
# Files for the executables
# ------------------------------------------------------------------------------------------
def save_npy(path, a, dtype):
    """bfloat16 as '<V2' (what mx.save writes and mlxc's executables read)."""
    if dtype == "bfloat16":
        np.save(path, np.ascontiguousarray(a).view(np.uint16).view("V2"))
    else:
        np.save(path, a)


def load_npy_bf16(path):
    """An output .npy of the executables: bfloat16 ('<V2') or float32, as float32."""
    a = np.load(path)
    if a.dtype.kind == "V" and a.dtype.itemsize == 2:
        return bf16_bits_to_f32(a.view(np.uint16))
    return a.astype(np.float32)


def save_safetensors(path, arrays, dtypes):
    """A .safetensors file (name -> array; bfloat16 arrays as uint16 bits)."""
    st = {"bfloat16": "BF16", "int32": "I32", "float32": "F32"}
    header, off = {}, 0
    names = sorted(arrays)
    for n in names:
        a = arrays[n]
        header[n] = {"dtype": st[dtypes[n]], "shape": list(a.shape),
                     "data_offsets": [off, off + a.nbytes]}
        off += a.nbytes
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for n in names:
            f.write(np.ascontiguousarray(arrays[n]).view(np.uint8).data)


def rel_err(out, ref):
    """||out - ref|| / ||ref|| in float64; NaN if out has a non-finite value."""
    o = np.asarray(out, np.float64)
    r = np.asarray(ref, np.float64)
    if o.shape != r.shape:
        raise ValueError(f"shape {o.shape} != reference shape {r.shape}")
    if not np.isfinite(o).all():
        return float("nan")
    return float(np.linalg.norm(o - r) / np.linalg.norm(r))
