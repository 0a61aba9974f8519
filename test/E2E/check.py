#!/usr/bin/env python3
"""End-to-end check of one graph: compile it with mlxc, run the executable on
random inputs, compare every output with a reference computed by MLX (the
spec) or numpy.

The graph file carries its reference in comments:

  // REF: out0 = mx.tanh(arg0) + arg1        (Python; inputs bound by name as
  //                                          mx arrays, `np` and `mx` known)
  // INPUT: arg0 = uniform(0.1, 4.0)         (optional per-input distribution:
  //                                          uniform(lo, hi), randint(lo, hi),
  //                                          or any numpy expression of `shape`)
  // TOL: 1e-4                               (optional relative tolerance)

Usage: check.py GRAPH.mlir --mlxc PATH --workdir DIR [--device cpu|cuda]
       [--exe EXISTING] [--keep]
"""

import argparse
import json
import os
import re
import subprocess
import sys

import numpy as np

try:
    import mlx.core as mx
except ImportError:  # numpy-only references still work
    mx = None

DTYPES = {
    "bool": np.bool_, "uint8": np.uint8, "uint16": np.uint16,
    "uint32": np.uint32, "uint64": np.uint64, "int8": np.int8,
    "int16": np.int16, "int32": np.int32, "int64": np.int64,
    "float16": np.float16, "bfloat16": np.float32, "float32": np.float32,
    "float64": np.float64, "complex64": np.complex64,
}
# Relative tolerance by output dtype.
RTOL = {"float16": 2e-3, "bfloat16": 2e-2, "float32": 2e-5, "float64": 1e-10,
        "complex64": 2e-5}


def parse_signature(help_text):
    specs = {"inputs": [], "outputs": []}
    section = None
    for line in help_text.splitlines():
        if line.strip() in ("inputs:", "outputs:"):
            section = line.strip()[:-1]
            continue
        m = re.match(r"^  (\S+)\s+(\S+)\s+(\[[0-9, ]*\]|scalar)$", line)
        if section and m:
            dims = m.group(3).strip("[]")
            shape = tuple(int(d) for d in dims.split(",") if d.strip()) \
                if m.group(3) != "scalar" else ()
            specs[section].append((m.group(1), m.group(2), shape))
        elif section and not line.startswith("  "):
            section = None
    return specs


def check_kernel_regions(mlxc, graph, extra=()):
    """--emit=kernels works for both targets, and every linalg op of a
    function body sits in a kernel region (kernel formation covers the
    graph; ops inside loops such as a scan's stay with their loop);
    --emit=dot draws one cluster per region."""
    for target in ("cpu", "cuda"):
        run = subprocess.run([mlxc, graph, f"--target={target}",
                              "--emit=kernels", "-o", "-", *extra],
                             capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"{graph}: --emit=kernels --target={target} failed:\n"
                     f"{run.stderr}")
        depth = 0
        for line in run.stdout.splitlines():
            if "kernel.region" in line:
                depth += 1
            elif depth and line.strip() == "}" and \
                    line.startswith("    }"):
                depth -= 1
            elif depth == 0 and re.match(r"    (%\S+ = )?linalg\.", line):
                sys.exit(f"{graph}: --target={target}: a linalg op outside "
                         f"any kernel region:\n{line}")
        dot = subprocess.run([mlxc, graph, f"--target={target}",
                              "--emit=dot", "-o", "-", *extra],
                             capture_output=True, text=True)
        if dot.returncode != 0 or not dot.stdout.startswith("digraph ") or \
                dot.stdout.count("subgraph cluster_") != run.stdout.count(
                    "kernel.region "):
            sys.exit(f"{graph}: --emit=dot --target={target} does not draw "
                     f"one cluster per kernel region:\n{dot.stderr}")


def make_input(rng, dtype, shape, spec):
    if spec:
        env = {"np": np, "rng": rng, "shape": shape,
               "uniform": lambda lo, hi: rng.uniform(lo, hi, shape),
               "randint": lambda lo, hi: rng.integers(lo, hi, shape)}
        data = np.asarray(eval(spec, env))
        return data.astype(DTYPES[dtype]) if dtype != "bfloat16" else \
            bf16_round(data.astype(np.float32))
    if dtype == "bool":
        data = rng.integers(0, 2, shape).astype(np.bool_)
        if data.size and not data.any():
            data.flat[0] = True
        return data
    if dtype.startswith("uint"):
        return rng.integers(1, 12, shape).astype(DTYPES[dtype])
    if dtype.startswith("int"):
        data = rng.integers(-9, 10, shape).astype(DTYPES[dtype])
        return np.where(data == 0, 3, data).astype(DTYPES[dtype])
    data = rng.standard_normal(shape).astype(np.float32)
    if dtype == "bfloat16":
        return bf16_round(data)
    return data.astype(DTYPES[dtype])


def bf16_round(x):
    """Rounds float32 values to bfloat16 precision (nearest even)."""
    bits = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return bits.astype(np.uint32).view(np.float32)


def to_mx(name, dtype, data):
    if mx is None:
        return data
    # The input's own dtype (mx.array alone would make float64 float32).
    return mx.array(data, dtype=mx.bool_ if dtype == "bool" else
                    getattr(mx, dtype))


def dtype_name(x):
    """MLX's name of the dtype of an mx array, a numpy array or a scalar."""
    if mx is not None and isinstance(x, mx.array):
        return str(x.dtype).split(".")[-1]
    return np.asarray(x).dtype.name


def got_dtype_ok(dtype, got):
    """Whether an output file holds the program's declared dtype."""
    if dtype == "bfloat16":
        # bfloat16 travels as numpy's 2-byte void or ml_dtypes' bfloat16.
        return got.dtype.itemsize == 2 and got.dtype.kind in "Vf" and \
            got.dtype != np.float16 or got.dtype.name == "bfloat16"
    return got.dtype == np.dtype(DTYPES[dtype])


def as_float(x):
    """float32 values of a bfloat16 array (numpy void or ml_dtypes)."""
    if x.dtype.kind == "V" and x.dtype.itemsize == 2:
        return (x.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    if x.dtype.name == "bfloat16":
        return x.astype(np.float32)
    return x


def compare(name, dtype, got, want, rtol, want_dtype=None):
    """Checks `got` (an output of declared `dtype`) against the reference
    `want` of dtype `want_dtype`: dtypes and shapes exactly, then values
    within `rtol` (floats) or exactly."""
    want = np.asarray(want)
    if want_dtype is not None and want_dtype != dtype:
        return f"{name}: the program's dtype is {dtype}, the reference's " \
               f"{want_dtype}"
    if not got_dtype_ok(dtype, got):
        return f"{name}: the output file holds {got.dtype}, the program " \
               f"declares {dtype}"
    got, want = as_float(got), as_float(want)
    if got.shape != want.shape:
        return f"{name}: shape {got.shape}, reference {want.shape}"
    if dtype == "complex64":  # Real and imaginary parts, as float32 pairs.
        got = np.ascontiguousarray(got).view(np.float32)
        want = np.ascontiguousarray(want.astype(np.complex64)).view(np.float32)
    if dtype in RTOL:
        got64, want64 = got.astype(np.float64), want.astype(np.float64)
        if np.isnan(got64).any() != np.isnan(want64).any() or \
                not np.array_equal(np.isnan(got64), np.isnan(want64)):
            return f"{name}: NaN in different places"
        scale = max(1.0, float(np.nanmax(np.abs(want64))) if want64.size else 1.0)
        same = (got64 == want64) | (np.isnan(got64) & np.isnan(want64))
        with np.errstate(invalid="ignore"):
            err = np.where(same, 0.0, np.abs(got64 - want64))
            ok = same | (err <= rtol * np.abs(want64) + rtol * scale)
        if not ok.all():
            i = np.argmax(np.where(ok, 0, err))
            return (f"{name}: max error {float(np.nanmax(err)):.3g} at flat {i}: "
                    f"got {got64.flat[i]!r}, reference {want64.flat[i]!r}")
        return None
    if not np.array_equal(got, want.astype(got.dtype)):
        bad = np.flatnonzero(got != want.astype(got.dtype))
        i = bad[0]
        return f"{name}: {len(bad)} elements differ, first at {i}: got " \
               f"{got.flat[i]!r}, reference {want.flat[i]!r}"
    return None


def check_ptxas(mlxc, graph, workdir, ptxas, extra=()):
    """Exits unless ptxas accepts the graph's PTX for sm_75 and sm_90."""
    ptx = os.path.join(workdir, "kernels.ptx")
    subprocess.run([mlxc, graph, "--emit=ptx", "-o", ptx] + list(extra),
                   check=True, capture_output=True)
    if os.path.getsize(ptx) == 0:
        return  # no kernels (nothing to compute, or every op on the host)
    for arch in ("sm_75", "sm_90"):
        run = subprocess.run([ptxas, f"-arch={arch}", ptx, "-o",
                              os.path.join(workdir, f"{arch}.cubin")],
                             capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"ptxas -arch={arch} rejected the PTX:\n{run.stderr}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("graph")
    ap.add_argument("--mlxc")
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--exe", help="run this executable instead of compiling")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ptxas", help="also compile the CUDA kernels and check "
                    "that this ptxas accepts their PTX for sm_75 and sm_90")
    ap.add_argument("--prepare", action="store_true",
                    help="compile for --target=cuda, write inputs, expected "
                    "outputs and case.json into --workdir, and stop (the GPU "
                    "suite runs them elsewhere with --verify)")
    ap.add_argument("--verify", action="store_true",
                    help="run the case prepared in --workdir and compare")
    args = ap.parse_args()

    if args.verify:
        return verify(args.workdir, args.device)
    text = open(args.graph).read()
    refs = re.findall(r"^// REF: (.*)$", text, re.M)
    inputs_spec = dict(re.findall(r"^// INPUT: (\S+) = (.*)$", text, re.M))
    tol = re.search(r"^// TOL: (\S+)$", text, re.M)
    if not refs:
        sys.exit(f"{args.graph}: no // REF: line")
    os.makedirs(args.workdir, exist_ok=True)
    exe = args.exe or os.path.join(args.workdir, "model")
    if not args.exe:
        target = ["--target=cuda"] if args.prepare else []
        # e.g. the sanitized runtime: --runtime-dir=... --link-arg=...
        target += os.environ.get("MLXC_EXTRA_ARGS", "").split()
        subprocess.run([args.mlxc, args.graph, "-o", exe] + target, check=True,
                       stderr=subprocess.DEVNULL if args.prepare else None)
    if not args.prepare and not args.exe:
        check_kernel_regions(args.mlxc, args.graph)
    if args.ptxas:
        check_ptxas(args.mlxc, args.graph, args.workdir, args.ptxas)
    help_text = subprocess.run([exe, "--help"], check=True, capture_output=True,
                               text=True).stdout
    sig = parse_signature(help_text)
    if not sig["outputs"]:
        sys.exit(f"cannot read the signature from --help:\n{help_text}")

    rng = np.random.default_rng(args.seed)
    env = {"np": np, "mx": mx}
    cmd = [exe, f"--device={args.device}"]
    for name, dtype, shape in sig["inputs"]:
        data = make_input(rng, dtype, shape, inputs_spec.get(name))
        path = os.path.join(args.workdir, f"{name}.npy")
        np.save(path, data)
        cmd += ["--input", f"{name}={path}"]
        env[name] = to_mx(name, dtype, data)
    outs = []
    for name, dtype, shape in sig["outputs"]:
        path = os.path.join(args.workdir, f"{name}.out.npy")
        if os.path.exists(path):
            os.remove(path)
        cmd += ["--output", path]
        outs.append((name, dtype, path))
    for ref in refs:
        exec(ref, env)
    expected = []
    for name, dtype, path in outs:
        if name not in env:
            sys.exit(f"the REF lines do not define output '{name}'")
        want = env[name]
        want_dtype = dtype_name(want)
        if mx is not None and isinstance(want, mx.array) and want.size == 0:
            # np.array() of an empty mx array can spin forever (MLX 0.32.4).
            want = np.zeros(want.shape, DTYPES[want_dtype])
        elif mx is not None and isinstance(want, mx.array):
            want = np.array(want.astype(mx.float32) if want.dtype == mx.bfloat16
                            else want)
        want_path = os.path.join(args.workdir, f"{name}.expected.npy")
        np.save(want_path, np.asarray(want))
        rtol = float(tol.group(1)) if tol else RTOL.get(dtype, 0)
        expected.append({"name": name, "dtype": dtype, "rtol": rtol,
                         "ref_dtype": want_dtype,
                         "out": os.path.basename(path),
                         "expected": os.path.basename(want_path)})
    case = {"graph": os.path.basename(args.graph),
            "args": [os.path.relpath(a, args.workdir) if os.path.isabs(a) and
                     os.path.exists(a) else a for a in cmd[2:]],
            "outputs": expected}
    # Paths in the case are relative to the case folder, so it can travel.
    case["args"] = [a.replace(args.workdir + "/", "") for a in case["args"]]
    with open(os.path.join(args.workdir, "case.json"), "w") as f:
        json.dump(case, f, indent=1)
    if args.prepare:
        print(f"prepared: {args.workdir}")
        return
    sys.exit(verify(args.workdir, args.device, exe))


def verify(workdir, device, exe=None):
    """Runs a prepared case on `device` and compares with the expectations."""
    with open(os.path.join(workdir, "case.json")) as f:
        case = json.load(f)
    exe = exe or os.path.join(workdir, "model")
    # e.g. "--repeat 3": the outputs are those of the last run (a CUDA graph
    # replay on the GPU).
    extra = os.environ.get("MLXC_RUN_ARGS", "").split()
    cmd = [os.path.abspath(exe), f"--device={device}"] + extra + case["args"]
    for out in case["outputs"]:
        path = os.path.join(workdir, out["out"])
        if os.path.exists(path):
            os.remove(path)
    run = subprocess.run(cmd, capture_output=True, text=True, cwd=workdir)
    if run.returncode != 0:
        return f"{case['graph']}: {' '.join(cmd)} failed ({run.returncode}):\n" \
               f"{run.stderr}"
    errors = []
    for out in case["outputs"]:
        got = np.load(os.path.join(workdir, out["out"]))
        want = np.load(os.path.join(workdir, out["expected"]))
        err = compare(out["name"], out["dtype"], got, want, out["rtol"],
                      out["ref_dtype"])
        if err:
            errors.append(f"{case['graph']}: {err}")
    if errors:
        return "\n".join(errors)
    print(f"ok: {case['graph']}: {len(case['outputs'])} outputs match on {device}")
    return None


if __name__ == "__main__":
    sys.exit(main())
