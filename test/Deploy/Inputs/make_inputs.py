"""Writes the inputs of two_models.c (and of the Python test) into DIR."""
import sys

import numpy as np

d = sys.argv[1]
w1 = (((np.arange(256 * 64) % 5) - 2) * 0.01).astype(np.float32).reshape(256, 64)
b1 = np.full(256, 0.1, np.float32)
w2 = (((np.arange(10 * 256) % 3) - 1) * 0.01).astype(np.float32).reshape(10, 256)
b2 = np.arange(10, dtype=np.float32)
rng = np.random.default_rng(0)
q = rng.standard_normal((4, 8)).astype(np.float32)
k = rng.standard_normal((6, 8)).astype(np.float32)
np.save(f"{d}/q.npy", q)
np.save(f"{d}/x.npy", ((np.arange(8 * 64) % 7) * 0.1).astype(np.float32)
        .reshape(8, 64))
np.savez(f"{d}/kv.npz", k=k)
# As mx.save_safetensors writes a model's weights: one file, by name.
try:
    import mlx.core as mx
    mx.save_safetensors(f"{d}/weights.safetensors",
                        {"arg1": mx.array(w1), "arg2": mx.array(b1),
                         "arg3": mx.array(w2), "arg4": mx.array(b2),
                         "unused": mx.zeros((3,))})
except ImportError:
    sys.exit("mlx is needed (pip install mlx[cpu])")
