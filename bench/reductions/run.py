"""Row, column and whole-tensor reductions of a 4096x4096 f32 tensor on the
GPU: mlxc (copy mode, CUDA-graph replay) against torch eager, torch.compile
and JAX in the same run, every result checked against float64 first."""
import os, re, subprocess, time
import numpy as np
import torch

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(0)
x = rng.standard_normal((4096, 4096)).astype(np.float32)
np.save(os.path.join(here, "x.npy"), x)
floor_ms = x.nbytes / 4.47e12 * 1e3
t = torch.from_numpy(x).cuda()

def median_cuda(fn, n=50):
    for _ in range(5):
        fn()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(n):
        start.record(); fn(); end.record(); torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[n // 2]

try:
    import jax, jax.numpy as jnp
    jx = jax.device_put(x)
except Exception as e:  # JAX absent: its column stays empty
    jax = None
    print(f"JAX unavailable: {e}")

def median_jax(fn, n=50):
    fn(jx).block_until_ready()
    times = []
    for _ in range(n):
        s = time.perf_counter(); fn(jx).block_until_ready()
        times.append((time.perf_counter() - s) * 1e3)
    return sorted(times)[n // 2]

cases = (("rowsum", "sum", (1,)), ("colsum", "sum", (0,)),
         ("allsum", "sum", (0, 1)), ("allmax", "max", (0, 1)))
print(f"floor (4.47 TB/s) {floor_ms:.4f} ms")
print("| work | mlxc ms | rel err | torch eager | torch.compile | JAX | mlxc / best peer |")
print("|---|---|---|---|---|---|---|")
for name, op, axes in cases:
    exe = os.path.join(here, name)
    out = os.path.join(here, name + ".npy")
    run = subprocess.run([exe, "--device=cuda", "--input", "x.npy", "--output", out,
                          "--repeat", "50"], cwd=here, capture_output=True, text=True,
                         env={**os.environ, "MLXRT_NO_UNIFIED": "1"})
    m = re.search(r"median ([0-9.]+) ms", run.stdout + run.stderr)
    if run.returncode or not m:
        print(f"| {name} | failed: {(run.stdout + run.stderr)[-300:]} |")
        continue
    mlxc_ms = float(m.group(1))
    got = np.load(out)
    want = getattr(x.astype(np.float64), op)(axis=axes)
    err = float(np.abs(got - want).max() / (np.abs(want).max() + 1e-30))
    dims = list(axes)
    if op == "sum":
        eager = lambda: torch.sum(t, dim=dims)
    else:
        eager = lambda: torch.amax(t, dim=dims)
    compiled = torch.compile(eager)
    peers = [median_cuda(eager), median_cuda(compiled)]
    if jax:
        f = jax.jit(lambda a: getattr(jnp, op)(a, axis=axes))
        peers.append(median_jax(f))
    cols = " | ".join(f"{p:.4f}" for p in peers) + (" | –" if not jax else "")
    print(f"| {name} | {mlxc_ms:.4f} | {err:.1e} | {cols} | {mlxc_ms / min(peers):.2f}x |")
