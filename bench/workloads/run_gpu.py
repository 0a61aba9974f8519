#!/usr/bin/env python3
"""W1-W5 on the GPU machine: mlxc's executables (median of --repeat, CUDA
events) against PyTorch eager, torch.compile and JAX (jit) on the same
inputs, measured in one run; every result checked against a float64
reference first (a wrong result is reported, not timed as a win)."""
import os
import re
import statistics
import subprocess
import sys

import numpy as np
import time

import torch
import torch.nn.functional as F

try:
    import jax
    import jax.numpy as jnp
except ImportError:
    jax = None

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(0)
R, C, N1 = 16384, 4096, 67108864


def f32(*shape):
    return rng.standard_normal(shape, dtype=np.float32)


def bf16(*shape):
    """Random bfloat16 values: (float32 values exactly representable in
    bfloat16, their bits as numpy's 2-byte void for the .npy file)."""
    x = rng.standard_normal(shape, dtype=np.float32)
    bits = (x.view(np.uint32) + 0x7FFF + ((x.view(np.uint32) >> 16) & 1)) >> 16
    rounded = (bits.astype(np.uint32) << 16).view(np.float32)
    return rounded, bits.astype(np.uint16).view("V2")


def from_bf16_bits(a):
    return (a.view(np.uint16).astype(np.uint32) << 16).view(np.float32)


def gelu_tanh(h):
    return 0.5 * h * (1 + torch.tanh(0.7978845608 * (h + 0.044715 * h * h * h)))


work = {
    "w1": ({"x": f32(N1), "a": f32(N1), "b": f32(N1)},
           lambda x, a, b: gelu_tanh(x * a + b), 4 * N1 * 4),
    "w2": ({"x": f32(R, C), "bias": f32(C)},
           lambda x, bias: F.silu(x + bias), 2 * R * C * 4),
    "w3": ({"x": f32(R, C)}, lambda x: torch.softmax(x, dim=-1), 2 * R * C * 4),
    "w3_bf16": ({"x": bf16(R, C)}, lambda x: torch.softmax(x, dim=-1), 2 * R * C * 2),
    "w3_bf16p": ({"x": bf16(R, C)}, lambda x: torch.softmax(x, dim=-1), 2 * R * C * 2),
    "w3l": ({"x": f32(256, 131072)}, lambda x: torch.softmax(x, dim=-1), 2 * 256 * 131072 * 4),
    # W3L compiled with --no-clusters: each row in one block, as on chips
    # without thread-block clusters.
    "w3l_nocluster": ({"x": f32(256, 131072)}, lambda x: torch.softmax(x, dim=-1),
                      2 * 256 * 131072 * 4),
    "w4": ({"x": f32(R, C), "w": f32(C)},
           lambda x, w: F.rms_norm(x, (C,), w, eps=1e-5), 2 * R * C * 4),
    "w5": ({"x": f32(R, C), "w": f32(C), "b": f32(C)},
           lambda x, w, b: F.layer_norm(x, (C,), w, b, eps=1e-5), 2 * R * C * 4),
}


def jax_fns():
    """The same workloads in JAX, as its users write them."""
    def rms(x, w):
        return x * jax.lax.rsqrt(jnp.mean(x * x, -1, keepdims=True) + 1e-5) * w

    def ln(x, w, b):
        m = jnp.mean(x, -1, keepdims=True)
        v = jnp.mean((x - m) ** 2, -1, keepdims=True)
        return (x - m) * jax.lax.rsqrt(v + 1e-5) * w + b
    return {
        "w1": lambda x, a, b: jax.nn.gelu(x * a + b, approximate=True),
        "w2": lambda x, bias: jax.nn.silu(x + bias),
        "w3": lambda x: jax.nn.softmax(x, axis=-1),
        "w3_bf16": lambda x: jax.nn.softmax(x, axis=-1),
        "w3_bf16p": lambda x: jax.nn.softmax(x, axis=-1),
        "w3l": lambda x: jax.nn.softmax(x, axis=-1),
        "w3l_nocluster": lambda x: jax.nn.softmax(x, axis=-1),
        "w4": rms,
        "w5": ln,
    }


def jax_time(fn, args, reps=20):
    """Median wall time of a jitted call, through block_until_ready."""
    f = jax.jit(fn)
    dev = [jax.device_put(a) for a in args]
    for _ in range(3):
        f(*dev).block_until_ready()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f(*dev).block_until_ready()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times), np.asarray(f(*dev))


def cuda_time(fn, reps=20):
    for _ in range(3):
        fn()
    times = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    return statistics.median(times)


def stream_ceiling():
    """The fastest read-once-write-once stream measured here, in bytes/s:
    a 256 MiB device-to-device copy (cudaMemcpyAsync) and torch's own
    elementwise kernel over the same bytes, median of 50 each."""
    src = torch.randn(R, C, device="cuda")
    dst = torch.empty_like(src)
    nbytes = 2 * src.numel() * 4
    copy = cuda_time(lambda: dst.copy_(src), reps=50)
    neg = cuda_time(lambda: torch.neg(src, out=dst), reps=50)
    print(f"stream ceiling: device copy {copy:.4f} ms ({nbytes / copy / 1e9:.2f} TB/s), "
          f"torch.neg {neg:.4f} ms ({nbytes / neg / 1e9:.2f} TB/s), 2 x 256 MiB")
    return nbytes / min(copy, neg) * 1e3


only = sys.argv[1:]
print(f"gpu: {torch.cuda.get_device_name()}, torch {torch.__version__}")
ceiling = stream_ceiling()
for name, (inputs, ref_fn, nbytes) in work.items():
    if only and name not in only:
        continue
    # bfloat16 workloads: the peers get bfloat16 tensors of the same values.
    half = isinstance(next(iter(inputs.values())), tuple)
    values = {k: (v[0] if half else v) for k, v in inputs.items()}
    args = []
    for k, v in inputs.items():
        path = os.path.join(here, f"{name}_{k}.npy")
        np.save(path, v[1] if half else v)
        args += ["--input", f"{k}={path}"]
    out = os.path.join(here, f"{name}_out.npy")
    def mlxc_time(copy_mode):
        env = dict(os.environ)
        if copy_mode:
            env["MLXRT_NO_UNIFIED"] = "1"
        run = subprocess.run([os.path.join(here, name), "--device=cuda", "--repeat",
                              "20", "--output", out] + args, capture_output=True,
                             text=True, env=env)
        if run.returncode != 0:
            raise RuntimeError(run.stderr.strip())
        return float(re.search(r"median ([0-9.]+) ms", run.stdout).group(1))
    try:
        # Copy mode: host<->device copies happen outside the timed region,
        # so this is the compiled program's own GPU time.
        copy_ms = mlxc_time(True)
        ms = mlxc_time(False)
    except RuntimeError as e:
        print(f"{name}: mlxc executable failed: {e}")
        continue
    tins = [torch.from_numpy(v).cuda() for v in values.values()]
    want = ref_fn(*[t.double() for t in tins]).float().cpu().numpy()
    got = np.load(out)
    if half:
        got = from_bf16_bits(got)
        tins = [t.bfloat16() for t in tins]
    # Relative to the largest value: a softmax's values are far below 1.
    err = float(np.abs(got - want).max() / np.abs(want).max())
    eager = cuda_time(lambda: ref_fn(*tins))
    compiled_fn = torch.compile(ref_fn)
    compiled = cuda_time(lambda: compiled_fn(*tins))
    jax_text = "JAX n/a"
    best = min(eager, compiled)
    if jax is not None:
        jax_in = [jnp.asarray(v, dtype=jnp.bfloat16) if half else v for v in values.values()]
        jax_ms, jax_out = jax_time(jax_fns()[name], jax_in)
        jax_out = np.asarray(jax_out, dtype=np.float32)
        jax_err = float(np.abs(jax_out - want).max() / np.abs(want).max())
        jax_text = f"JAX {jax_ms:.3f} (rel err {jax_err:.1e})"
        best = min(best, jax_ms)
    floor = nbytes / 4.47e12 * 1e3
    measured_floor = nbytes / ceiling * 1e3
    verdict = "" if err < (1e-2 if half else 1e-4) else "  WRONG RESULT"
    print(f"{name}: mlxc {copy_ms:.3f} ms (copy mode; {ms:.3f} unified) | torch eager {eager:.3f} | torch.compile "
          f"{compiled:.3f} | {jax_text} | floor at 4.47 TB/s {floor:.3f} ({floor / copy_ms * 100:.0f}% of "
          f"floor) | at the measured stream ceiling {measured_floor:.3f} "
          f"({measured_floor / copy_ms * 100:.0f}%) | mlxc/best peer {copy_ms / best:.2f}x | "
          f"rel err {err:.1e}{verdict}")
    for k in inputs:
        os.remove(os.path.join(here, f"{name}_{k}.npy"))
    os.remove(out)
