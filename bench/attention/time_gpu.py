# Times the executables bench/attention/prepare.sh made, on the GPU machine:
# copy mode (MLXRT_NO_UNIFIED=1), CUDA-graph replay, the executable's median
# of 50, two rounds; then the masked output against the decomposed one.
#   python3 build-gpu/attention/time_gpu.py
import os, re, subprocess, tempfile
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(0)
tmp = tempfile.mkdtemp()
for name in "qkv":
    np.save(f"{tmp}/{name}.npy",
            rng.standard_normal((1, 32, 2048, 128)).astype(np.float32))
np.save(f"{tmp}/mb.npy", rng.integers(0, 2, (2048, 2048)).astype(bool))
np.save(f"{tmp}/ma.npy", rng.standard_normal((2048, 2048)).astype(np.float32))
runs = [("none", []), ("bool", ["--input", f"m={tmp}/mb.npy"]),
        ("add", ["--input", f"m={tmp}/ma.npy"]),
        ("bool-sm70", ["--input", f"m={tmp}/mb.npy"])]
for _ in range(2):
    for name, extra in runs:
        args = [f"{here}/model-{name}", "--device=cuda", "--repeat", "50"]
        for n in "qkv":
            args += ["--input", f"{n}={tmp}/{n}.npy"]
        args += extra + ["--output", f"{tmp}/out-{name}.npy"]
        run = subprocess.run(args, capture_output=True, text=True,
                             env={**os.environ, "MLXRT_NO_UNIFIED": "1"})
        found = re.search(r"median ([0-9.]+) ms", run.stdout + run.stderr)
        print(f"{name}: " + (f"{found.group(1)} ms" if found else
                             "failed: " + (run.stdout + run.stderr)[-400:]),
              flush=True)


def as_float(x):
    """float32 values of a bfloat16 array (numpy's 2-byte void)."""
    if x.dtype.kind == "V" and x.dtype.itemsize == 2:
        return (x.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    return x.astype(np.float32)


out = {name: as_float(np.load(f"{tmp}/out-{name}.npy")).astype(np.float64)
       for name, _ in runs}
ref = out["bool-sm70"]
print("bool against bool-sm70 (decomposed): max |a - b| / max |b| =",
      float(np.abs(out["bool"] - ref).max() / np.abs(ref).max()))
