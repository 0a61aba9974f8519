#!/usr/bin/env python3
"""Compile time against model size, on this machine (issue: compile time).

Exports, with MLX itself, one llama decode step of L layers for each L in
LAYERS (d 2048, 16 heads / 4 KV heads, hidden 5632, vocab 32000, KV cache
1024, bf16, written as an MLX user writes it: mx.fast.rms_norm, mx.fast.rope,
mx.fast.scaled_dot_product_attention; the weights are inputs, so the export
holds the graph only), compiles each with
`mlxc --target=cuda --gpu-arch=sm_90`, and prints wall seconds and peak
resident memory of the compiler (GNU time), cold process, no kernel cache.

  run.py MLXC WORKDIR [LAYERS...]        (default layers: 1 2 4 8)
"""
import os
import re
import subprocess
import sys
import time

import mlx.core as mx

D, HEADS, KV_HEADS, HIDDEN, VOCAB, CACHE = 2048, 16, 4, 5632, 32000, 1024
HD = D // HEADS


def decode_step(layers):
    """The step and its example inputs (keyword: the weights by name)."""
    def step(tokens, offset, **p):
        h = p["embed"][tokens]                          # [1, 1, D]
        outs = []
        for i in range(layers):
            w = lambda n: p[f"l{i}_{n}"]
            x = mx.fast.rms_norm(h, w("in_norm"), 1e-5)
            q = (x @ w("q").T).reshape(1, 1, HEADS, HD).transpose(0, 2, 1, 3)
            k = (x @ w("k").T).reshape(1, 1, KV_HEADS, HD).transpose(0, 2, 1, 3)
            v = (x @ w("v").T).reshape(1, 1, KV_HEADS, HD).transpose(0, 2, 1, 3)
            q = mx.fast.rope(q, HD, traditional=False, base=10000.0, scale=1.0,
                             offset=offset)
            k = mx.fast.rope(k, HD, traditional=False, base=10000.0, scale=1.0,
                             offset=offset)
            start = offset.reshape(1)
            kc = mx.slice_update(w("k_cache"), k, start, axes=(2,))
            vc = mx.slice_update(w("v_cache"), v, start, axes=(2,))
            mask = mx.arange(CACHE) <= offset
            o = mx.fast.scaled_dot_product_attention(q, kc, vc, scale=HD ** -0.5,
                                                     mask=mask)
            h = h + o.transpose(0, 2, 1, 3).reshape(1, 1, D) @ w("o").T
            x = mx.fast.rms_norm(h, w("post_norm"), 1e-5)
            g = x @ w("gate").T
            h = h + ((g * mx.sigmoid(g)) * (x @ w("up").T)) @ w("down").T
            outs += [kc, vc]
        logits = mx.fast.rms_norm(h, p["norm"], 1e-5) @ p["embed"].T
        return (logits, *outs)

    bf = mx.bfloat16
    z = lambda *s: mx.zeros(s, bf)
    params = {"embed": z(VOCAB, D), "norm": z(D)}
    for i in range(layers):
        params.update({f"l{i}_in_norm": z(D), f"l{i}_post_norm": z(D),
                       f"l{i}_q": z(D, D), f"l{i}_k": z(KV_HEADS * HD, D),
                       f"l{i}_v": z(KV_HEADS * HD, D), f"l{i}_o": z(D, D),
                       f"l{i}_gate": z(HIDDEN, D), f"l{i}_up": z(HIDDEN, D),
                       f"l{i}_down": z(D, HIDDEN),
                       f"l{i}_k_cache": z(1, KV_HEADS, CACHE, HD),
                       f"l{i}_v_cache": z(1, KV_HEADS, CACHE, HD)})
    tokens = mx.zeros((1, 1), mx.int32)
    offset = mx.array(5, mx.int32)
    return step, tokens, offset, params


def main():
    mlxc, work = sys.argv[1], sys.argv[2]
    layers = [int(a) for a in sys.argv[3:]] or [1, 2, 4, 8]
    os.makedirs(work, exist_ok=True)
    print(f"# mlxc --target=cuda --gpu-arch=sm_90, cold process, "
          f"{os.cpu_count()} cores")
    print("| layers | ops in the export | compile s | peak MB | kernels |")
    print("|---|---|---|---|---|")
    for n in layers:
        step, tokens, offset, params = decode_step(n)
        path = os.path.join(work, f"decode_{n}.mlxfn")
        mx.export_function(path, step, tokens=tokens, offset=offset, **params)
        mlir = subprocess.run([mlxc, path, "--emit=mlir"], capture_output=True,
                              text=True, check=True).stdout
        ops = len(re.findall(r"= mlx\.", mlir))
        exe = os.path.join(work, f"decode_{n}")
        start = time.time()
        run = subprocess.run(["/usr/bin/time", "-v", mlxc, path,
                              "--target=cuda", "--gpu-arch=sm_90", "-o", exe],
                             capture_output=True, text=True)
        wall = time.time() - start
        if run.returncode != 0:
            print(f"| {n} | {ops} | failed: {run.stderr.strip()[-300:]} | | |")
            continue
        rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)",
                            run.stderr).group(1)) / 1024
        ptx = subprocess.run([mlxc, path, "--emit=ptx"], capture_output=True,
                             text=True).stdout
        kernels = ptx.count(".entry ")
        print(f"| {n} | {ops} | {wall:.1f} | {rss:.0f} | {kernels} |",
              flush=True)


if __name__ == "__main__":
    main()
