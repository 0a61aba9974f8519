#!/usr/bin/env python3
"""Writes random inputs for examples/mlp.mlir (and MLX's answer) to a folder:
x.npy, w1.npy, b1.npy, w2.npy, b2.npy (in the order of the graph's inputs),
weights.safetensors (w1, b1, w2, b2 under the inputs' names arg1..arg4, for
bind_file) and expected.npy."""
import json
import os
import struct
import sys

import numpy as np

out = sys.argv[1] if len(sys.argv) > 1 else "build/demo"
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(0)
shapes = {"x": (8, 64), "w1": (256, 64), "b1": (256,), "w2": (10, 256),
          "b2": (10,)}
arrays = {k: (rng.standard_normal(s) * 0.2).astype(np.float32)
          for k, s in shapes.items()}
for name, value in arrays.items():
    np.save(os.path.join(out, f"{name}.npy"), value)

# The weights by the names of the inputs they feed (mlp.mlir's parameters
# have no mlx.name, so they are arg0..arg4), as one .safetensors file.
header, data = {}, b""
for k, name in enumerate(["w1", "b1", "w2", "b2"], start=1):
    a = arrays[name]
    header[f"arg{k}"] = {"dtype": "F32", "shape": list(a.shape),
                         "data_offsets": [len(data), len(data) + a.nbytes]}
    data += a.tobytes()
text = json.dumps(header).encode()
with open(os.path.join(out, "weights.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", len(text)) + text + data)

# The reference, as MLX's nn.Linear + nn.gelu_approx compute it.
x, w1, b1, w2, b2 = (arrays[k].astype(np.float64) for k in shapes)
h = x @ w1.T + b1
g = 0.5 * h * (1 + np.tanh(0.7978845608 * (h + 0.044715 * h ** 3)))
np.save(os.path.join(out, "expected.npy"), (g @ w2.T + b2).astype(np.float32))
