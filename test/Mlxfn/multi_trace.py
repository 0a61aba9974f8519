#!/usr/bin/env python3
"""Several traces in one file (`mx.exporter`): the weights are stored once and
shared; each trace becomes its own entry function, and each compiles and
matches MLX.   multi_trace.py MLXC WORKDIR"""

import os
import subprocess
import sys

import numpy as np
import mlx.core as mx

mlxc, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
mx.random.seed(7)
w = mx.random.normal((64, 32))  # 8 KiB: kept as a view of the file
mx.eval(w)
fn = lambda x: mx.tanh(x @ w)
path = os.path.join(work, "multi.mlxfn")
shapes = [(2, 64), (5, 64), (1, 64)]
xs = [mx.random.normal(s) for s in shapes]
with mx.exporter(path, fn) as ex:
    for x in xs:
        ex(x)
size = os.path.getsize(path)
if size > w.nbytes * 1.5:
    sys.exit(f"{path}: {size} bytes, the weights seem stored more than once")

mlir = subprocess.run([mlxc, path, "--emit=mlir"], check=True,
                      capture_output=True, text=True).stdout
for i, s in enumerate(shapes):
    if f"func.func @multi_{i}(%arg0: tensor<{s[0]}x{s[1]}xf32>" not in mlir:
        sys.exit(f"no entry multi_{i} for shape {s} in:\n{mlir[:2000]}")
if mlir.count("dense_resource<") < len(shapes):
    sys.exit("the shared weight is not a resource of the file in every trace")
# The weight's 8 KiB are not printed as hex, unless asked for.
if '"0x' in mlir:
    sys.exit("--emit=mlir printed a resource's bytes")
kept = subprocess.run([mlxc, path, "--emit=mlir", "--keep-constants"],
                      check=True, capture_output=True, text=True).stdout
if kept.count('"0x') < len(shapes):
    sys.exit("--emit=mlir --keep-constants left out a resource's bytes")

# Without --entry the first trace is compiled, and mlxc says so, lists the
# others and names the option that picks one.
note = subprocess.run([mlxc, path, "--emit=linalg", "-o", os.devnull],
                      check=True, capture_output=True, text=True).stderr
want = ["mlxc: note: compiling 'multi_0', the first of 3 graphs in the file "
        "(--entry=NAME picks another):"] + \
    [f"  multi_{i}(tensor<{s[0]}x{s[1]}xf32>)" for i, s in enumerate(shapes)]
if note.splitlines() != want:
    sys.exit(f"expected the note\n{chr(10).join(want)}\ngot\n{note}")
quiet = subprocess.run([mlxc, path, "--emit=linalg", "-o", os.devnull,
                        "--quiet"], check=True, capture_output=True,
                       text=True).stderr
named = subprocess.run([mlxc, path, "--emit=linalg", "-o", os.devnull,
                        "--entry=multi_1"], check=True, capture_output=True,
                       text=True).stderr
if quiet or named:
    sys.exit(f"a note with --quiet or --entry: {quiet!r} {named!r}")

for i, x in enumerate(xs):
    exe = os.path.join(work, f"multi_{i}")
    subprocess.run([mlxc, path, f"--entry=multi_{i}", "-o", exe], check=True)
    np.save(os.path.join(work, "x.npy"), np.array(x))
    out = os.path.join(work, "y.npy")
    subprocess.run([exe, "--input", os.path.join(work, "x.npy"), "--output",
                    out], check=True, capture_output=True)
    got, want = np.load(out), np.array(fn(x))
    if not np.allclose(got, want, rtol=1e-5, atol=1e-5):
        sys.exit(f"multi_{i}: max error {abs(got - want).max()}")
print(f"{len(shapes)} traces share one weight; all match MLX")
