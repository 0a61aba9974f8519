"""Checks the output of use_mlp_lib.c against numpy on the same inputs."""
import sys

import numpy as np

i = np.arange(8 * 64)
x = ((i % 7) * 0.1).astype(np.float32).reshape(8, 64)
w1 = (((np.arange(256 * 64) % 5) - 2) * 0.01).astype(np.float32).reshape(256, 64)
b1 = np.full(256, 0.1, np.float32)
w2 = (((np.arange(10 * 256) % 3) - 1) * 0.01).astype(np.float32).reshape(10, 256)
b2 = np.arange(10, dtype=np.float32)
h = x.astype(np.float64) @ w1.T + b1
g = 0.5 * h * (1 + np.tanh(0.7978845608 * (h + 0.044715 * h ** 3)))
want = (g @ w2.T + b2).reshape(-1)
got = np.array([float(v) for v in sys.stdin.read().split()])
assert got.shape == want.shape, (got.shape, want.shape)
err = np.abs(got - want).max()
assert err < 1e-4, f"max error {err}"
print("ok", err)
