#!/usr/bin/env python3
"""Runs the README's graph with the README's own run line.

  readme_commands.py README.md MLXC WORKDIR

Takes the ```mlir block under "Write a graph" and the `./model --input ...`
line of "Compile a graph", compiles the graph, writes the files the run line
names (x.npy, weights.safetensors with tensor w), runs it and compares with
MLX."""

import json
import os
import re
import shlex
import struct
import subprocess
import sys

import numpy as np
import mlx.core as mx

readme, mlxc, work = sys.argv[1:4]
text = open(readme).read()
graph = re.search(r"## Write a graph.*?```mlir\n(.*?)```", text, re.S).group(1)
run = re.search(r"^\./model (--input .*?) \[", text, re.M).group(1)
os.makedirs(work, exist_ok=True)
with open(os.path.join(work, "graph.mlir"), "w") as f:
    f.write(graph)
subprocess.run([mlxc, "graph.mlir", "-o", "model"], cwd=work, check=True)

rng = np.random.default_rng(0)
x = rng.standard_normal((2, 3)).astype(np.float32)
w = rng.integers(-5, 5, 3).astype(np.int32)
np.save(os.path.join(work, "x.npy"), x)
header = json.dumps({"w": {"dtype": "I32", "shape": [3],
                           "data_offsets": [0, w.nbytes]}}).encode()
with open(os.path.join(work, "weights.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", len(header)) + header + w.tobytes())

subprocess.run(["./model"] + shlex.split(run), cwd=work, check=True)
got = np.load(os.path.join(work, "y.npy"))
y = mx.array(x) + mx.array(w)
want = np.array(y - mx.max(y, axis=-1, keepdims=True))
if got.dtype != want.dtype or got.shape != want.shape or \
        not np.allclose(got, want, rtol=1e-6):
    sys.exit(f"README graph: got {got!r}, MLX {want!r}")
print("README run line: ok")
