"""Inputs of two-layers.mlir / three-layers.mlir, and (--check) their
results against numpy in float64."""
import os
import sys

import numpy as np

folder = sys.argv[1]
rng = np.random.default_rng(7)
x = rng.standard_normal((8, 16)).astype(np.float32)
w1 = rng.standard_normal((16, 16)).astype(np.float32)
w2 = rng.standard_normal((16, 16)).astype(np.float32)


def softmax(a):
    e = np.exp(a - a.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


if "--check" not in sys.argv:
    for name, value in (("x", x), ("w1", w1), ("w2", w2)):
        np.save(os.path.join(folder, name + ".npy"), value)
    sys.exit(0)
h2 = softmax(softmax(x.astype(np.float64) @ w1) @ w2)
h3 = softmax(h2 @ w1)
for name, want in (("cold", h2), ("edited", h3)):
    got = np.load(os.path.join(folder, name + ".npy"))
    assert got.shape == want.shape and got.dtype == np.float32, name
    err = float(np.abs(got - want).max())
    assert err < 1e-5, f"{name}: max abs error {err}"
print("ok")
