#!/usr/bin/env python3
"""Compile time against model size, on this machine (issue: compile time).

Three tables, every compile a cold process timed by wall clock with its
peak resident memory (GNU time):
1. The workloads W1-W6 (bench/workloads, bench/compile_time/w6.mlir),
   `--target=cuda --gpu-arch=sm_90`, cold object cache.
2. One llama decode step of L layers for each L in LAYERS (d 2048, 16 heads
   / 4 KV heads, hidden 5632, vocab 32000, KV cache 1024, bf16, written as an
   MLX user writes it: mx.fast.rms_norm, mx.fast.rope,
   mx.fast.scaled_dot_product_attention; the weights are inputs, so the
   export holds the graph only), exported by MLX itself and compiled with
   `--target=cuda --gpu-arch=sm_90`: with a cold cache, then warm (the same
   model again), and the kernels (PTX entries) it has.
3. A 2000-op graph of which 500 are matrix products, CPU target, cold.

  run.py MLXC WORKDIR [LAYERS...]        (default layers: 1 2 4 8 16)
"""
import os
import re
import shutil
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


def timed(cmd):
    """Runs `cmd`; returns (wall seconds, peak MB, stderr) or raises."""
    start = time.time()
    run = subprocess.run(["/usr/bin/time", "-v"] + cmd, capture_output=True,
                         text=True)
    wall = time.time() - start
    if run.returncode != 0:
        raise RuntimeError(run.stderr.strip()[-400:])
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)",
                        run.stderr).group(1)) / 1024
    return wall, rss, run.stderr


def big_graph(blocks=500, n=64):
    """`blocks` x (matmul, add, tanh, multiply): 4 * blocks mlx ops."""
    lines = [f"func.func @big(%x: tensor<{n}x{n}xf32> {{mlx.name = \"x\"}}, "
             f"%w: tensor<{n}x{n}xf32> {{mlx.name = \"w\"}}) -> "
             f"tensor<{n}x{n}xf32> {{"]
    t = f"tensor<{n}x{n}xf32>"
    h = "%x"
    for i in range(blocks):
        lines += [f"  %m{i} = mlx.matmul {h}, %w : {t}, {t}",
                  f"  %a{i} = mlx.add %m{i}, {h} : {t}, {t}",
                  f"  %t{i} = mlx.tanh %a{i} : {t}",
                  f"  %h{i} = mlx.multiply %t{i}, %x : {t}, {t}"]
        h = f"%h{i}"
    lines += [f"  return {h} : {t}", "}"]
    return "\n".join(lines) + "\n"


def main():
    mlxc, work = sys.argv[1], sys.argv[2]
    layers = [int(a) for a in sys.argv[3:]] or [1, 2, 4, 8, 16]
    os.makedirs(work, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    cuda = ["--target=cuda", "--gpu-arch=sm_90"]
    print(f"# {os.cpu_count()} cores; every compile a cold process; "
          f"'cold': empty object cache, 'warm': the same model again")
    print()
    print("| workload | compile s (cold) | peak MB |")
    print("|---|---|---|")
    graphs = [os.path.join(here, "..", "workloads", f"{w}.mlir")
              for w in ("w1", "w2", "w3", "w3_bf16", "w4", "w5")]
    graphs.append(os.path.join(here, "w6.mlir"))
    for graph in graphs:
        name = os.path.basename(graph)[:-5]
        cache = os.path.join(work, "cache-" + name)
        shutil.rmtree(cache, ignore_errors=True)
        wall, rss, _ = timed([mlxc, graph, *cuda, "--cache-dir", cache, "-o",
                              os.path.join(work, name)])
        print(f"| {name} | {wall:.2f} | {rss:.0f} |", flush=True)
    print()
    print("| layers | ops in the export | compile s (cold) | peak MB | "
          "compile s (warm) | kernels |")
    print("|---|---|---|---|---|---|")
    for n in layers:
        step, tokens, offset, params = decode_step(n)
        path = os.path.join(work, f"decode_{n}.mlxfn")
        mx.export_function(path, step, tokens=tokens, offset=offset, **params)
        mlir = subprocess.run([mlxc, path, "--emit=mlir"], capture_output=True,
                              text=True, check=True).stdout
        ops = len(re.findall(r"= mlx\.", mlir))
        exe = os.path.join(work, f"decode_{n}")
        cache = os.path.join(work, f"cache-decode-{n}")
        shutil.rmtree(cache, ignore_errors=True)
        try:
            cold, rss, _ = timed([mlxc, path, *cuda, "--cache-dir", cache,
                                  "-o", exe])
            warm, _, _ = timed([mlxc, path, *cuda, "--cache-dir", cache,
                                "-o", exe])
        except RuntimeError as e:
            print(f"| {n} | {ops} | failed: {e} | | | |")
            continue
        ptx = subprocess.run([mlxc, path, "--emit=ptx", "--no-cache"],
                             capture_output=True, text=True).stdout
        kernels = ptx.count(".entry ")
        print(f"| {n} | {ops} | {cold:.1f} | {rss:.0f} | {warm:.2f} | "
              f"{kernels} |", flush=True)
    print()
    big = os.path.join(work, "big.mlir")
    with open(big, "w") as f:
        f.write(big_graph())
    cache = os.path.join(work, "cache-big")
    shutil.rmtree(cache, ignore_errors=True)
    wall, rss, _ = timed([mlxc, big, "--cache-dir", cache, "-o",
                          os.path.join(work, "big")])
    print("| graph | target | compile s (cold) | peak MB |")
    print("|---|---|---|---|")
    print(f"| 2000 ops, 500 matmuls (64x64 f32) | cpu | {wall:.1f} | "
          f"{rss:.0f} |")


if __name__ == "__main__":
    main()
