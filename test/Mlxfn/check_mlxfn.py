#!/usr/bin/env python3
"""End-to-end check of one model of corpus.py: MLX exports it (.mlxfn) and
computes its outputs; mlxc compiles the export; the executable runs on MLX's
inputs and must match MLX's outputs within the dtype tolerance.

Usage: check_mlxfn.py MODEL --mlxc PATH --workdir DIR [--ptxas PATH]
       [--prepare]   compile for --target=cuda and write case.json; the GPU
                     suite runs it elsewhere with test/E2E/check.py --verify
"""

import argparse
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "E2E"))
import check  # noqa: E402  (E2E's runner: tolerances, compare, verify)
import corpus  # noqa: E402

# Longer reductions than the E2E graphs (attention, MLPs): float32 results
# differ from MLX's BLAS in the order of accumulation.
RTOL = dict(check.RTOL, float32=1e-4)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model", choices=sorted(list(corpus.MODELS) + list(corpus.fused.SYNTHESIZED)))
    ap.add_argument("--mlxc", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--ptxas")
    ap.add_argument("--prepare", action="store_true")
    args = ap.parse_args()

    os.makedirs(args.workdir, exist_ok=True)
    names, out_dtypes, entry = corpus.export(args.model, args.workdir)
    export = os.path.join(args.workdir, args.model + ".mlxfn")
    exe = os.path.join(args.workdir, "model")
    cmd = [args.mlxc, export, "-o", exe]
    cmd += [f"--entry={entry}"] if entry else []
    cmd += ["--target=cuda"] if args.prepare else []
    cmd += os.environ.get("MLXC_EXTRA_ARGS", "").split()
    subprocess.run(cmd, check=True,
                   stderr=subprocess.DEVNULL if args.prepare else None)
    if not args.prepare:
        check.check_kernel_regions(args.mlxc, export,
                                   [f"--entry={entry}"] if entry else [])
    if args.ptxas:
        check.check_ptxas(args.mlxc, export, args.workdir, args.ptxas,
                          [f"--entry={entry}"] if entry else [])

    # The program's own dtypes (from its signature) against MLX's.
    help_text = subprocess.run([exe, "--help"], check=True,
                               capture_output=True, text=True).stdout
    declared = [d for _, d, _ in check.parse_signature(help_text)["outputs"]]
    if len(declared) != len(out_dtypes):
        sys.exit(f"the program has {len(declared)} outputs, MLX's function "
                 f"{len(out_dtypes)}")
    inputs = np.load(os.path.join(args.workdir, args.model + ".inputs.npz"))
    expected = np.load(os.path.join(args.workdir, args.model + ".expected.npz"))
    case_args, outputs = [], []
    for name in names:
        np.save(os.path.join(args.workdir, f"{name}.npy"), inputs[name])
        case_args += ["--input", f"{name}={name}.npy"]
    for i, (dtype, ref_dtype) in enumerate(zip(declared, out_dtypes)):
        name = f"out{i}"
        np.save(os.path.join(args.workdir, f"{name}.expected.npy"),
                expected[name])
        case_args += ["--output", f"{name}.out.npy"]
        outputs.append({"name": name, "dtype": dtype,
                        "ref_dtype": ref_dtype,
                        "rtol": RTOL.get(dtype, 0),
                        "out": f"{name}.out.npy",
                        "expected": f"{name}.expected.npy"})
    with open(os.path.join(args.workdir, "case.json"), "w") as f:
        json.dump({"graph": args.model + ".mlxfn", "args": case_args,
                   "outputs": outputs}, f, indent=1)
    if args.prepare:
        print(f"prepared: {args.workdir}")
        return None
    return check.verify(args.workdir, "cpu", exe)


if __name__ == "__main__":
    sys.exit(main())
