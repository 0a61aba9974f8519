#!/usr/bin/env python3
"""How exact a 4-bit quantized layer is on the CPU, MLX's against mlxc's.

    python3 bench/quantized_accuracy/run.py [--mlxc build/bin/mlxc]
        [--rows 1] [--in 1024] [--out 3072] [--seed 0] [--workdir DIR]

One layer as mlx_lm.convert writes it (affine, 4 bits, groups of 64, scales
and biases in bfloat16 or float32) applied to bfloat16 rows (float32 ones
for float32 scales): y = x @ dequantize(w).T. The reference is the same
product in float64 numpy over the same quantized weights (scales and biases
as stored, x as given), so it measures the product alone, not the
quantization. Prints the relative error ||y - ref|| / ||ref|| (2-norm over
the whole output) of:
  - MLX's mx.quantized_matmul on its CPU stream,
  - MLX's plain matmul on the dequantized weights (mx.dequantize, same dtype),
  - mlxc's executable of mx.export_function(quantized_matmul).
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import mlx.core as mx


def as_f64(a):
    return np.array(a.astype(mx.float32)).astype(np.float64)


def rel(y, ref):
    return float(np.linalg.norm(y - ref) / np.linalg.norm(ref))


def main():
    p = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    p.add_argument("--mlxc", default=os.path.join(here, "..", "..", "build",
                                                  "bin", "mlxc"))
    p.add_argument("--rows", type=int, default=1)
    p.add_argument("--in", dest="n_in", type=int, default=1024)
    p.add_argument("--out", dest="n_out", type=int, default=3072)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workdir")
    args = p.parse_args()
    work = args.workdir or tempfile.mkdtemp(prefix="mlxc-qacc-")
    os.makedirs(work, exist_ok=True)
    mx.set_default_device(mx.cpu)
    print(f"MLX {mx.__version__}, CPU; layer {args.n_in} -> {args.n_out}, "
          f"{args.rows} row(s), affine 4 bits, groups of 64, seed {args.seed}")
    print("| scales | x | MLX quantized_matmul | MLX matmul of dequantize | "
          "mlxc |")
    print("|---|---|---|---|---|")
    for sdtype in (mx.bfloat16, mx.float32):
        key = mx.random.key(args.seed)
        k1, k2 = mx.random.split(key)
        w = mx.random.normal((args.n_out, args.n_in), key=k1) * 0.02
        wq, scales, biases = mx.quantize(w, group_size=64, bits=4)
        scales, biases = scales.astype(sdtype), biases.astype(sdtype)
        x = mx.random.normal((args.rows, args.n_in), key=k2).astype(sdtype)
        mx.eval(wq, scales, biases, x)

        # float64 reference over the stored weights.
        deq64 = as_f64(mx.dequantize(wq, scales.astype(mx.float32),
                                     biases.astype(mx.float32),
                                     group_size=64, bits=4))
        ref = as_f64(x) @ deq64.T

        def layer(x, wq, scales, biases):
            return mx.quantized_matmul(x, wq, scales, biases, transpose=True,
                                       group_size=64, bits=4)
        y_mlx = as_f64(layer(x, wq, scales, biases))
        deq = mx.dequantize(wq, scales, biases, group_size=64, bits=4)
        y_deq = as_f64(x @ deq.T)

        name = str(sdtype).split(".")[-1]
        fn = os.path.join(work, f"layer_{name}.mlxfn")
        mx.export_function(fn, layer, x, wq, scales, biases)
        exe = os.path.join(work, f"layer_{name}")
        subprocess.run([args.mlxc, fn, "-o", exe, "--quiet"], check=True)
        files = []
        for i, a in enumerate((x, wq, scales, biases)):
            files.append(os.path.join(work, f"{name}_in{i}.npy"))
            mx.save(files[-1], a)
        out = os.path.join(work, f"{name}_y.npy")
        subprocess.run([exe, *sum((["--input", f] for f in files), []),
                        "--output", out], check=True, capture_output=True)
        y_mlxc = as_f64(mx.load(out))
        print(f"| {name} | {name} | {rel(y_mlx, ref):.4f} | "
              f"{rel(y_deq, ref):.4f} | {rel(y_mlxc, ref):.4f} |")


if __name__ == "__main__":
    sys.exit(main())
