#!/usr/bin/env python3
"""GEMM 4096^3 on the GPU machine: mlxc's executables (cuBLASLt, median of
--repeat, CUDA events; CUDA graph replay and, with MLXRT_NO_GRAPH=1, direct
launches) against torch.matmul on the same inputs; each result checked
against a float64 reference on a few rows first."""
import os
import re
import statistics
import subprocess

import numpy as np
import torch

here = os.path.dirname(os.path.abspath(__file__))
N = 4096
FLOP = 2 * N ** 3
rng = np.random.default_rng(0)
# bf16 travels as float32 .npy (the runtime rounds it); f16 as float16.
DTYPES = {"bf16": (np.float32, torch.bfloat16, 2e-2),
          "f16": (np.float16, torch.float16, 2e-3),
          "f32": (np.float32, torch.float32, 1e-4)}


def bf16_round(x):
    u = x.astype(np.float32).view(np.uint32)
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    return u.view(np.float32)


print(f"gpu: {torch.cuda.get_device_name()}, torch {torch.__version__}")
for name, (npdt, tdt, rtol) in DTYPES.items():
    a = rng.standard_normal((N, N)).astype(np.float32)
    b = rng.standard_normal((N, N)).astype(np.float32)
    if name == "bf16":
        a, b = bf16_round(a), bf16_round(b)
    a, b = a.astype(npdt), b.astype(npdt)
    pa, pb, pc = (os.path.join(here, f"{name}_{x}.npy") for x in "abc")
    np.save(pa, a)
    np.save(pb, b)
    exe = os.path.join(here, f"gemm-{name}")
    times, worst = {}, 0.0
    for mode, env in (("graph", {}), ("no graph", {"MLXRT_NO_GRAPH": "1"})):
        run = subprocess.run([exe, "--device=cuda", "--input", f"a={pa}",
                              "--input", f"b={pb}", "--output", pc,
                              "--repeat", "20"], capture_output=True,
                             text=True, env={**os.environ, **env})
        if run.returncode != 0:
            print(f"{name}: {mode}: FAILED: {run.stderr.strip()}")
            continue
        times[mode] = float(re.search(r"median ([0-9.]+) ms", run.stdout)
                            .group(1))
        got = np.load(pc).astype(np.float64)[:4]
        want = a[:4].astype(np.float64) @ b.astype(np.float64)
        err = np.max(np.abs(got - want)) / np.max(np.abs(want))
        worst = max(worst, err)
        if err > rtol:
            print(f"{name}: {mode}: WRONG: max rel err {err:.3g}")
    ta = torch.from_numpy(a.astype(np.float32)).to("cuda", tdt)
    tb = torch.from_numpy(b.astype(np.float32)).to("cuda", tdt)
    for _ in range(3):
        torch.matmul(ta, tb)
    samples = []
    for _ in range(20):
        s, e = (torch.cuda.Event(enable_timing=True) for _ in range(2))
        s.record()
        torch.matmul(ta, tb)
        e.record()
        torch.cuda.synchronize()
        samples.append(s.elapsed_time(e))
    torch_ms = statistics.median(samples)
    parts = [f"{m} {t:.3f} ms ({FLOP / t / 1e9:.0f} TFLOP/s)"
             for m, t in times.items()]
    print(f"{name}: mlxc " + ", ".join(parts) +
          f" | torch.matmul {torch_ms:.3f} ms ({FLOP / torch_ms / 1e9:.0f} "
          f"TFLOP/s) | max rel err {worst:.2g} (tolerance {rtol:g})")
    for p in (pa, pb, pc):
        os.remove(p)
