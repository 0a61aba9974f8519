#!/usr/bin/env python3
"""Checks on the CPU that run_gpu.py's torch and JAX workloads compute the same
functions as workloads.py's MLX ones (RoPE convention, GQA head mapping, masks,
eps, cache update), in float32 against float64, where bf16's tolerance would
hide a small mistake. Needs mlx, torch and jax (CPU builds are enough; this is a
developer's check, not a dependency of the benchmark).

  python3 bench/transformer/check_equivalence.py

The decode steps are run at offsets below the last cache slot too (the slots
after `offset` hold random values the mask must hide). Prints one line per case
and exits 1 if any relative error exceeds 1e-5.
"""
import os
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import specs  # noqa: E402
import mlx.core as mx  # noqa: E402
import workloads  # noqa: E402
import run_gpu as rg  # noqa: E402
import torch  # noqa: E402

rg.DEV = "cpu"
jax, jnp = rg.jax, rg.jnp
if jax is not None:
    jax.config.update("jax_default_matmul_precision", "highest")
TOL = 1e-5


def f32_inputs(wl, z, offset=None):
    ins = {}
    for n, (shape, dt, init, key) in specs.input_specs(wl, z).items():
        a = specs.generate(shape, dt, init, key)
        ins[n] = specs.bf16_bits_to_f32(a).reshape(shape) if dt == "bfloat16" else a
    if offset is not None:
        ins["offset"] = np.array(offset, np.int32)
    return ins


def run_mlx(wl, z, ins):
    out = workloads.function(wl, z)(**{n: mx.array(a) for n, a in ins.items()})
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    mx.eval(outs)
    return [np.array(o) for o in outs]


def run_torch(wl, z, ins, dtype):
    t = {n: torch.from_numpy(np.ascontiguousarray(a)) for n, a in ins.items()}
    t = {n: (v.to(dtype) if v.is_floating_point() else v) for n, v in t.items()}
    if wl == "W6":
        return [rg.t_mlp(t["x"], t["wg"], t["wu"], t["wd"]).double().numpy()]
    if wl == "W7":
        pos = torch.arange(z["seq"])
        inv = rg.t_inv_freq(z["hd"], "cpu", torch.float64 if dtype == torch.float64
                            else torch.float32)
        return [rg.t_prefill(*[t[n] for n in ("x",) + specs.LAYER], pos, inv,
                             z["heads"]).double().numpy()]
    mod = rg.DecodeStep(wl, z, t)
    pos = t["offset"].reshape(1).long()
    out = mod(t["x"] if wl == "W8" else t["tokens"].long(), pos)
    return [out.double().numpy()] + [getattr(mod, c).double().numpy()
                                      for c in mod.cache_names]


def run_jax(wl, z, ins):
    j = {n: jnp.asarray(a) for n, a in ins.items()}
    if wl == "W6":
        return [np.asarray(rg.j_w6(j["x"], j["wg"], j["wu"], j["wd"]))]
    if wl == "W7":
        return [np.asarray(rg.j_prefill(*[j[n] for n in ("x",) + specs.LAYER],
                                        nh=z["heads"]))]
    names = specs.cache_names(wl, z)
    w = {n: v for n, v in j.items() if n not in names and n not in ("x", "tokens", "offset")}
    caches = [j[c] for c in names]
    if wl == "W8":
        out, cs = rg.j_w8(w, caches, j["x"], j["offset"], z["heads"])
    else:
        out, cs = rg.j_w9(w, caches, j["tokens"], j["offset"], z["heads"], z["layers"])
    return [np.asarray(out)] + [np.asarray(c) for c in cs]


def main():
    bad = 0
    cases = [("W6", None), ("W7", None), ("W8", None), ("W8", 7), ("W9", None), ("W9", 3)]
    for wl, off in cases:
        z = specs.TINY[wl]
        ins = f32_inputs(wl, z, off)
        ref = run_torch(wl, z, ins, torch.float64)
        systems = {"MLX f32": run_mlx(wl, z, ins), "torch f32": run_torch(wl, z, ins,
                                                                          torch.float32)}
        if jax is not None:
            systems["JAX f32"] = run_jax(wl, z, ins)
        for name, outs in systems.items():
            errs = [specs.rel_err(o, r) for o, r in zip(outs, ref)]
            worst = max(errs)
            bad += not worst <= TOL
            print(f"{wl} offset {ins.get('offset', '-')}: {name} vs torch float64: outputs "
                  f"{len(outs)}, max rel err {worst:.1e}" + ("" if worst <= TOL else "  FAIL"))
        # A sanity check that the check can fail: traditional RoPE differs.
        if wl == "W7":
            save = mx.fast.rope
            mx.fast.rope = lambda *a, **k: save(*a, **dict(k, traditional=True))
            try:
                e = specs.rel_err(run_mlx(wl, z, ins)[0], ref[0])
            finally:
                mx.fast.rope = save
            print(f"  (control: MLX with traditional RoPE differs by {e:.1e})")
            bad += not e > 1e-3
    print(f"{'FAILED' if bad else 'all equal'} ({bad} over {TOL})")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
