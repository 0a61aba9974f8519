#!/usr/bin/env python3
"""Exports W6-W9 with MLX, compiles them with mlxc for the H200, and stores what
the GPU machine needs to check them: fingerprints of the generated inputs and
MLX's own CPU outputs (prepare.sh calls this; see README.md).

  prepare.py MLXC DEST [--tiny] [W6 W7 ...]

DEST gets, per workload: WL (the executable), WL.mlxfn, mlx_WL.npz (MLX's
output: W6 the first MLX_ROWS rows, W7 the first MLX_ROWS positions, W8/W9 the
whole first output and the cache entries written at `offset`; with --tiny
every output whole) and an entry in manifest.json (input fingerprints, compile
time, kernel regions). Weights are not stored: run_gpu.py regenerates them.
"""
import hashlib
import json
import os
import re
import subprocess
import sys
import time

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import specs  # noqa: E402
import mlx.core as mx  # noqa: E402
import workloads  # noqa: E402


def log(msg):
    print(f"prepare: {msg}", flush=True)


def bits(a):
    """An MLX bfloat16 array as numpy uint16 bits (other dtypes as they are)."""
    if a.dtype == mx.bfloat16:
        return np.array(a.view(mx.uint16))
    return np.array(a)


def kernel_regions(mlxc, mlxfn):
    """Kernel regions of the CUDA variant (mlxc --emit=kernels), by strategy."""
    r = subprocess.run([mlxc, mlxfn, "--target=cuda", "--gpu-arch=sm_90", "--emit=kernels", "-o", "-", "--quiet"],
                       capture_output=True, text=True)
    if r.returncode:
        return {"error": r.stderr.strip()[-2000:]}
    strat = re.findall(r"kernel\.region (\w+)", r.stdout)
    counts = {}
    for s in strat:
        counts[s] = counts.get(s, 0) + 1
    return {"total": len(strat), "by_strategy": counts}


def mlx_reference(wl, z, ins, tiny):
    """MLX's own output on the CPU for the generated inputs (see module doc)."""
    sp = specs.input_specs(wl, z)
    args = {n: workloads.to_mx(a, sp[n][1]) for n, a in ins.items()}
    if not tiny and wl == "W6":
        args["x"] = args["x"][: specs.MLX_ROWS]
    if not tiny and wl == "W7":
        args["x"] = args["x"][:, : specs.MLX_ROWS]
    out = workloads.function(wl, z)(**args)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    mx.eval(outs)
    ref = {"out0": bits(outs[0])}
    off = int(ins["offset"]) if "offset" in ins else None
    for c, o in zip(specs.cache_names(wl, z), outs[1:]):
        ref[c] = bits(o) if tiny else bits(o[:, :, off])
    return ref


def main():
    argv = [a for a in sys.argv[1:] if not a.startswith("--")]
    tiny = "--tiny" in sys.argv
    mlxc, dest = os.path.abspath(argv[0]), argv[1]
    wls = argv[2:] or list(specs.WORKLOADS)
    os.makedirs(dest, exist_ok=True)
    man_path = os.path.join(dest, "manifest.json")
    manifest = {}
    if os.path.exists(man_path):
        with open(man_path) as f:
            manifest = json.load(f)
    manifest["_meta"] = dict(seed=specs.SEED, tiny=tiny, mlx=mx.__version__,
                             numpy=np.__version__, mlx_rows=specs.MLX_ROWS,
                             date=time.strftime("%Y-%m-%d %H:%M:%S %Z"))
    try:
        v = subprocess.run([mlxc, "--version"], capture_output=True, text=True).stdout
        manifest["_meta"]["mlxc"] = v.strip().splitlines()[0] if v.strip() else "?"
        with open(mlxc, "rb") as f:  # which build: the binary's hash and time
            manifest["_meta"]["mlxc_sha256"] = hashlib.sha256(f.read()).hexdigest()[:16]
        manifest["_meta"]["mlxc_mtime"] = time.strftime(
            "%Y-%m-%d %H:%M:%S UTC", time.gmtime(os.path.getmtime(mlxc)))
        src = os.path.dirname(os.path.dirname(os.path.dirname(mlxc)))
        g = subprocess.run(["git", "-C", src, "describe", "--always", "--dirty"],
                           capture_output=True, text=True)
        if g.returncode == 0:
            manifest["_meta"]["mlxc_source"] = f"{src} {g.stdout.strip()}"
    except OSError:
        pass
    ok = True
    shared = {}  # W7 and W8 share the layer's weights
    for wl in wls:
        z = specs.sizes(tiny)[wl]
        ent = {"sizes": z}
        manifest[wl] = ent
        mlxfn = os.path.join(dest, wl + ".mlxfn")
        exe = os.path.join(dest, wl)
        try:
            t = time.perf_counter()
            workloads.export(wl, mlxfn, tiny)
            ent["export_s"] = round(time.perf_counter() - t, 2)
            t = time.perf_counter()
            r = subprocess.run([mlxc, mlxfn, "--target=cuda", "--gpu-arch=sm_90", "--quiet",
                                "-o", exe], capture_output=True, text=True)
            ent["compile_s"] = round(time.perf_counter() - t, 2)
            ent["compile_log"] = (r.stdout + r.stderr).strip()[-3000:]
            if r.returncode:
                raise RuntimeError(f"mlxc failed (exit {r.returncode}): {ent['compile_log']}")
            if wl in ("W8", "W9"):
                # The decode steps again with each kernel launched only once
                # the one before ends: what grid-dependent launch gains.
                r = subprocess.run([mlxc, mlxfn, "--target=cuda", "--gpu-arch=sm_90",
                                    "--no-grid-dependent-launch", "--quiet",
                                    "-o", exe + ".serial"], capture_output=True, text=True)
                if r.returncode:
                    raise RuntimeError(f"mlxc --no-grid-dependent-launch failed: "
                                       f"{(r.stdout + r.stderr).strip()[-3000:]}")
            ent["kernel_regions"] = kernel_regions(mlxc, mlxfn)
            log(f"{wl}: exported in {ent['export_s']} s, compiled in {ent['compile_s']} s, "
                f"{ent['kernel_regions'].get('total')} kernel regions "
                f"{ent['kernel_regions'].get('by_strategy')}")
            t = time.perf_counter()
            ins = specs.generate_all(wl, z, shared)
            ent["fingerprints"] = {n: specs.fingerprint(a) for n, a in ins.items()}
            ent["gen_s"] = round(time.perf_counter() - t, 2)
            t = time.perf_counter()
            ref = mlx_reference(wl, z, ins, tiny)
            np.savez(os.path.join(dest, f"mlx_{wl}.npz"), **ref)
            ent["mlx_s"] = round(time.perf_counter() - t, 2)
            ent["mlx_ref"] = {k: list(v.shape) for k, v in ref.items()}
            log(f"{wl}: inputs generated in {ent['gen_s']} s, MLX CPU reference in "
                f"{ent['mlx_s']} s")
        except Exception as e:  # one failing workload does not stop the others
            ok = False
            ent["error"] = f"{type(e).__name__}: {e}"
            log(f"{wl}: FAILED: {ent['error']}")
        if wl == "W8" or "W8" not in wls[wls.index(wl):]:
            shared.clear()
        with open(man_path, "w") as f:
            json.dump(manifest, f, indent=1)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
