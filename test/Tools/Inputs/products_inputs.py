"""Inputs of products.mlir into DIR, or (--check) its outputs against numpy."""
import os
import sys

import numpy as np

d = sys.argv[1]
rng = np.random.default_rng(0)
x = rng.integers(-4, 5, (2, 5, 8)).astype(np.float32)
w = rng.integers(-4, 5, (5, 8)).astype(np.float32)
v = rng.integers(-4, 5, (5, 8)).astype(np.float32)
b = rng.integers(-4, 5, (3, 8, 6)).astype(np.float32)
if "--check" not in sys.argv:
    for name, value in (("x", x), ("w", w), ("v", v), ("b", b)):
        np.save(os.path.join(d, f"{name}.npy"), value)
    sys.exit(0)
# Small integers: every product is exact.
for name, want in (("y", x @ w.T), ("z", v @ b)):
    got = np.load(os.path.join(d, f"{name}.npy"))
    if got.shape != want.shape or not np.array_equal(got, want):
        sys.exit(f"{name}: got\n{got}\nwant\n{want}")
print("ok")
