#!/usr/bin/env python3
"""W10 on the GPU machine: a 4-bit affine quantized 8-layer llama decode step (w10_mlx.py),
mlxc's executable against torch's int4 tinygemm (gpt-fast's path) and torch's dense bf16 step,
all on the same weights, every output checked against a float64 numpy reference.

  python3 w10_gpu.py EXE OUT_DIR [--tiny] [--no-torch] [--repeat 200]
EXE: mlxc's executable of W10.mlxfn (or 'none'). Writes OUT_DIR/w10.json.
"""
import json
import os
import struct
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import w10_mlx_shapes as S  # noqa: E402  (shapes only; no mlx needed here)

T0 = time.perf_counter()


def log(m):
    print(f"[w10 {time.perf_counter() - T0:6.1f}s] {m}", flush=True)


def bf16_round(a):
    u = np.ascontiguousarray(a, np.float32).view(np.uint32)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_f32(u16):
    return (u16.astype(np.uint32) << 16).view(np.float32)


def make_weights(z, seed=20261207):
    """name -> numpy array (uint32 packed codes, uint16 bf16 bits, int32 tokens), plus the
    dequantized float64 linears [out, in] for the reference."""
    rng = np.random.default_rng(seed)
    T, deq = {}, {}
    T["tokens"] = np.array([[min(1234, z["vocab"] - 1)]], np.int32)
    T["embed"] = bf16_round(rng.standard_normal((z["vocab"], z["d"]), np.float32))
    T["norm"] = bf16_round(1 + 0.1 * rng.standard_normal(z["d"], np.float32))

    def q(name, o, i):
        codes = rng.integers(0, 16, size=(o, i), dtype=np.uint8)
        s = (i ** -0.5 / 4.6) * (0.75 + 0.5 * rng.random((o, i // S.GROUP), np.float32))
        s16 = bf16_round(s)
        b16 = bf16_round(-7.5 * bf16_f32(s16) + 0.01 * i ** -0.5 *
                         rng.standard_normal((o, i // S.GROUP), np.float32))
        c = codes.reshape(o, i // 8, 8).astype(np.uint32)
        words = np.zeros((o, i // 8), np.uint32)
        for t in range(8):
            words |= c[:, :, t] << np.uint32(4 * t)
        T[name + "_q"], T[name + "_s"], T[name + "_b"] = words, s16, b16
        sf = np.repeat(bf16_f32(s16).astype(np.float64), S.GROUP, axis=1)
        bf = np.repeat(bf16_f32(b16).astype(np.float64), S.GROUP, axis=1)
        deq[name] = codes * sf + bf
        T[name + "__codes"] = codes  # for torch's packing; not an mlxc input

    q("head", z["vocab"], z["d"])
    for l in range(z["layers"]):
        T[f"l{l}_wn1"] = bf16_round(1 + 0.1 * rng.standard_normal(z["d"], np.float32))
        T[f"l{l}_wn2"] = bf16_round(1 + 0.1 * rng.standard_normal(z["d"], np.float32))
        for n, (o, i) in S.lin_shapes(z).items():
            q(f"l{l}_{n}", o, i)
        for n in ("k", "v"):
            T[f"l{l}_{n}"] = bf16_round(rng.standard_normal(
                (1, z["kv_heads"], z["cache"], z["hd"]), np.float32))
    return T, deq


def write_safetensors(path, T, names):
    DT = {np.dtype(np.uint16): "BF16", np.dtype(np.uint32): "U32", np.dtype(np.int32): "I32"}
    header, off = {}, 0
    for n in names:
        a = T[n]
        header[n] = {"dtype": DT[a.dtype], "shape": list(a.shape), "data_offsets": [off, off + a.nbytes]}
        off += a.nbytes
    h = json.dumps(header).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for n in names:
            f.write(np.ascontiguousarray(T[n]).tobytes())


def rope_tables(dh, pos):
    inv = S.ROPE_BASE ** (-np.arange(0, dh, 2, dtype=np.float64) / dh)
    ang = pos * inv
    return np.cos(ang), np.sin(ang)


def rope(x, cos, sin):  # x [..., dh], non-traditional: halves
    h = x.shape[-1] // 2
    a, b = x[..., :h], x[..., h:]
    return np.concatenate([a * cos - b * sin, a * sin + b * cos], -1)


def reference(z, T, deq):
    """float64 numpy forward of w10 (dequantized weights)."""
    rms = lambda x, w: x / np.sqrt(np.mean(x * x, -1, keepdims=True) + S.EPS) * w  # noqa
    f = lambda n: bf16_f32(T[n]).astype(np.float64)  # noqa
    h = f("embed")[T["tokens"][0, 0]][None, :]  # [1, d]
    dh, nh, nkv = z["hd"], z["heads"], z["kv_heads"]
    cos, sin = rope_tables(dh, z["cache"])
    for l in range(z["layers"]):
        p = lambda n: f"l{l}_{n}"  # noqa
        x = rms(h, f(p("wn1")))
        q = rope((x @ deq[p("wq")].T).reshape(nh, dh), cos, sin)
        k = rope((x @ deq[p("wk")].T).reshape(nkv, dh), cos, sin)
        v = (x @ deq[p("wv")].T).reshape(nkv, dh)
        K = np.concatenate([f(p("k"))[0], k[:, None, :]], 1)  # [nkv, T+1, dh]
        V = np.concatenate([f(p("v"))[0], v[:, None, :]], 1)
        g = nh // nkv
        o = np.empty((nh, dh))
        for hh in range(nh):
            sc = K[hh // g] @ q[hh] * dh ** -0.5
            e = np.exp(sc - sc.max())
            o[hh] = (e / e.sum()) @ V[hh // g]
        h = h + o.reshape(1, nh * dh) @ deq[p("wo")].T
        x = rms(h, f(p("wn2")))
        gt = x @ deq[p("wg")].T
        h = h + ((gt / (1 + np.exp(-gt))) * (x @ deq[p("wu")].T)) @ deq[p("wd")].T
    return (rms(h, f("norm")) @ deq["head"].T).reshape(1, 1, -1)


def relerr(a, ref):
    a = np.asarray(a, np.float64).reshape(ref.shape)
    return float(np.linalg.norm(a - ref) / np.linalg.norm(ref)), bool(np.isnan(a).any())


def run_mlxc(exe, z, T, work, repeat, res):
    names = list(S.inputs(z))
    st = os.path.join(work, "w10.safetensors")
    write_safetensors(st, T, names)
    out = os.path.join(work, "mlxc_out.npy")
    args = [exe, "--device=cuda"] + sum((["--input", f"{n}={st}:{n}"] for n in names), [])
    args += ["--output", out, "--repeat", str(repeat)]
    env = dict(os.environ, MLXRT_NO_UNIFIED="1")
    t = time.perf_counter()
    p = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
    res["mlxc_wall_s"] = time.perf_counter() - t
    res["mlxc_rc"] = p.returncode
    res["mlxc_tail"] = (p.stdout + p.stderr)[-1500:]
    log(f"mlxc rc {p.returncode}: {(p.stdout + p.stderr)[-400:]}")
    import re
    m = re.search(r"median ([0-9.]+) ms", p.stdout + p.stderr)
    res["mlxc_median_ms"] = float(m.group(1)) if m else None
    if p.returncode == 0 and os.path.exists(out):
        o = np.load(out)
        if o.dtype.kind == "V":
            o = bf16_f32(o.view(np.uint16))
        res["mlxc_out"] = o
    return args


def torch_peers(z, T, deq, ref, repeat, res):
    import torch
    import torch.nn.functional as F
    dev = "cuda"
    bf = lambda n: torch.from_numpy(bf16_f32(T[n])).to(dev).to(torch.bfloat16)  # noqa
    dh, nh, nkv = z["hd"], z["heads"], z["kv_heads"]
    cos, sin = rope_tables(dh, z["cache"])
    cos = torch.tensor(cos, dtype=torch.float32, device=dev)
    sin = torch.tensor(sin, dtype=torch.float32, device=dev)
    lins = ["head"] + [f"l{l}_{n}" for l in range(z["layers"]) for n in S.LIN]

    def fwd(lin, tok, P):
        def rms(x, w):
            xf = x.float()
            return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + S.EPS)).to(x.dtype) * w

        def rp(x):
            xf = x.float()
            h = xf.shape[-1] // 2
            a, b = xf[..., :h], xf[..., h:]
            return torch.cat([a * cos - b * sin, a * sin + b * cos], -1).to(x.dtype)
        h = P["embed"][tok.long()].view(1, -1)
        for l in range(z["layers"]):
            p = lambda n: f"l{l}_{n}"  # noqa
            x = rms(h, P[p("wn1")])
            q = rp(lin(x, p("wq")).view(1, nh, 1, dh))
            k = rp(lin(x, p("wk")).view(1, nkv, 1, dh))
            v = lin(x, p("wv")).view(1, nkv, 1, dh)
            K = torch.cat([P[p("k")], k], 2)
            V = torch.cat([P[p("v")], v], 2)
            o = F.scaled_dot_product_attention(q, K, V, enable_gqa=True, scale=dh ** -0.5)
            h = h + lin(o.reshape(1, nh * dh), p("wo"))
            x = rms(h, P[p("wn2")])
            h = h + lin(F.silu(lin(x, p("wg"))) * lin(x, p("wu")), p("wd"))
        return lin(rms(h, P["norm"]), "head").view(1, 1, -1)

    P = {n: bf(n) for n in ["embed", "norm"] + [f"l{l}_{s}" for l in range(z["layers"])
                                                 for s in ("wn1", "wn2", "k", "v")]}
    tok = torch.from_numpy(T["tokens"]).to(dev)

    def timeit(name, fn):
        try:
            out = fn()  # warm
            torch.cuda.synchronize()
            e = relerr(out.float().cpu().numpy(), ref)
            g = torch.cuda.CUDAGraph()
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                for _ in range(3):
                    fn()
            torch.cuda.current_stream().wait_stream(s)
            with torch.cuda.graph(g):
                gout = fn()
            for _ in range(20):
                g.replay()
            torch.cuda.synchronize()
            ts = []
            for _ in range(repeat):
                a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                a.record()
                g.replay()
                b.record()
                b.synchronize()
                ts.append(a.elapsed_time(b))
            e2 = relerr(gout.float().cpu().numpy(), ref)
            res[name] = dict(median_ms=float(np.median(ts)), min_ms=float(np.min(ts)),
                             max_ms=float(np.max(ts)), rel_err=e, rel_err_graph=e2)
            log(f"{name}: median {np.median(ts):.4f} ms (min {np.min(ts):.4f}) rel err {e}")
        except Exception as ex:  # noqa
            res[name] = dict(error=f"{type(ex).__name__}: {ex}"[:800])
            log(f"{name}: FAILED {type(ex).__name__}: {ex}"[:800])

    # 1. dense bf16 (the model unquantized, as a user could also deploy it): twice the bytes
    W = {n: torch.from_numpy(deq[n]).to(dev).to(torch.bfloat16) for n in lins}
    timeit("torch_dense_bf16_graph", lambda: fwd(lambda x, n: x @ W[n].t(), tok, {**P, **W}))
    del W
    torch.cuda.empty_cache()
    # 2. tinygemm int4 (torch.ops.aten._weight_int4pack_mm), gpt-fast's int4 path
    gs = S.GROUP
    packed, sz = {}, {}
    for n in lins:
        c = torch.from_numpy(T[n + "__codes"]).to(dev)
        o, i = c.shape
        u8 = ((c[:, ::2] << 4) | c[:, 1::2]).to(torch.uint8)
        packed[n] = torch.ops.aten._convert_weight_to_int4pack(u8.contiguous(), 8)
        s = torch.from_numpy(bf16_f32(T[n + "_s"])).to(dev)
        b = torch.from_numpy(bf16_f32(T[n + "_b"])).to(dev)
        zero = b + 8 * s  # tinygemm: w = (q - 8) * scale + zero
        sz[n] = torch.stack([s, zero], -1).transpose(0, 1).contiguous().to(torch.bfloat16)
    tg = lambda x, n: torch.ops.aten._weight_int4pack_mm(  # noqa
        x.reshape(-1, x.shape[-1]).contiguous(), packed[n], gs, sz[n])
    timeit("torch_tinygemm_int4_graph", lambda: fwd(tg, tok, P))
    # 3. torch.compile of the same (Inductor around tinygemm), CUDA graph of the result
    try:
        cf = torch.compile(lambda t: fwd(tg, t, P), mode="max-autotune-no-cudagraphs",
                           fullgraph=False)
        t = time.perf_counter()
        cf(tok)
        torch.cuda.synchronize()
        res["torch_compile_s"] = time.perf_counter() - t
        timeit("torch_compile_tinygemm_int4_graph", lambda: cf(tok))
    except Exception as ex:  # noqa
        res["torch_compile_tinygemm_int4_graph"] = dict(error=f"{type(ex).__name__}: {ex}"[:800])
        log(f"torch.compile FAILED {ex}"[:600])


def main():
    exe, outd = sys.argv[1], sys.argv[2]
    tiny = "--tiny" in sys.argv
    repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 200
    z = S.TINY if tiny else S.FULL
    os.makedirs(outd, exist_ok=True)
    work = os.environ.get("W10_WORK", "/tmp/w10work")
    os.makedirs(work, exist_ok=True)
    res = {"z": z}
    T, deq = make_weights(z)
    log("weights made")
    ref = reference(z, T, deq)
    log("reference made")
    wbytes = sum(T[n].nbytes for n in S.inputs(z) if not n.endswith(("_k", "_v")) and n != "embed")
    cbytes = sum(T[n].nbytes for n in S.inputs(z) if n.endswith(("_k", "_v")))
    res["weight_bytes"], res["cache_bytes"] = wbytes, cbytes
    res["floor_ms_h200"] = (wbytes + cbytes) / 4.8e12 * 1e3
    res["floor_ms_h100"] = (wbytes + cbytes) / 3.35e12 * 1e3
    log(f"bytes: weights {wbytes / 1e6:.1f} MB caches {cbytes / 1e6:.1f} MB")
    if exe != "none":
        res["mlxc_args"] = run_mlxc(exe, z, T, work, repeat, res)
        if "mlxc_out" in res:
            res["mlxc_rel_err"] = relerr(res.pop("mlxc_out"), ref)
            log(f"mlxc rel err {res['mlxc_rel_err']}")
    if "--no-torch" not in sys.argv:
        torch_peers(z, T, deq, ref, repeat, res)
    json.dump(res, open(os.path.join(outd, "w10.json"), "w"), indent=1, default=str)
    log("done")


if __name__ == "__main__":
    main()
