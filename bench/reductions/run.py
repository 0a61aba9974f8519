"""Column and whole-tensor sums of a 4096x4096 f32 tensor on the GPU:
mlxc (copy mode, CUDA-graph replay) against torch in the same run, results
checked against float64."""
import os, re, subprocess, sys
import numpy as np
import torch
here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(0)
x = rng.standard_normal((4096, 4096)).astype(np.float32)
np.save(os.path.join(here, "x.npy"), x)
floor_ms = 4096 * 4096 * 4 / 4.47e12 * 1e3
for name, axes in (("colsum", (0,)), ("allsum", (0, 1))):
    for build in ("",):
        exe = os.path.join(here, name + build)
        out = os.path.join(here, name + build + ".npy")
        run = subprocess.run([exe, "--device=cuda", "--input", "x.npy", "--output", out, "--repeat", "50"],
                             cwd=here, capture_output=True, text=True,
                             env={**os.environ, "MLXRT_NO_UNIFIED": "1"})
        m = re.search(r"median ([0-9.]+) ms", run.stdout + run.stderr)
        got = np.load(out)
        want = x.astype(np.float64).sum(axis=axes)
        err = float(np.abs(got - want).max() / (np.abs(want).max() + 1e-30))
        print(f"{name}{build}: mlxc {m.group(1) if m else run.stderr[-200:]} ms, rel err {err:.1e}")
    t = torch.from_numpy(x).cuda()
    dims = list(axes)
    for _ in range(5):
        torch.sum(t, dim=dims)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(50):
        start.record(); torch.sum(t, dim=dims); end.record(); torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    print(f"{name}: torch eager {sorted(times)[25]:.3f} ms; floor {floor_ms:.3f} ms")
