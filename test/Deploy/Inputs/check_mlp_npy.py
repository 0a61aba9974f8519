"""Checks DIR/y.npy (mlp.mlir on DIR/x.npy and DIR/weights.safetensors, as
`python -m mlxc run` wrote it) against MLX."""
import sys

import mlx.core as mx
import numpy as np

d = sys.argv[1]
x = mx.array(np.load(f"{d}/x.npy"))
w = mx.load(f"{d}/weights.safetensors")
h = mx.addmm(w["arg2"], x, w["arg1"].T)
g = 0.5 * h * (1 + mx.tanh(0.7978845608 * (h + 0.044715 * h * h * h)))
want = np.array(mx.addmm(w["arg4"], g, w["arg3"].T))
got = np.load(f"{d}/y.npy")
assert got.shape == want.shape, (got.shape, want.shape)
err = float(np.abs(got - want).max())
assert err < 1e-4, f"max error {err}"
print("ok")
