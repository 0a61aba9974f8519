# Nsight Compute without cache flushing (the L2 state as in a run) on W9, with
# and without --in-place: python3 build-gpu/transformer/in_place_ncu.py
import os, sys, tempfile, subprocess, shutil, csv, io
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_gpu, specs
run_gpu.DEV = "cuda"
here = os.path.dirname(os.path.abspath(__file__))
wl = "W9"
z = specs.sizes(False)[wl]; sp = specs.input_specs(wl, z)
ins = specs.generate_all(wl, z, {})
tmp = tempfile.mkdtemp()
in_args = run_gpu.mlxc_args(wl, z, ins, sp, tmp)
ncu = shutil.which("ncu") or [os.path.join("/opt/nvidia", c, "ncu") for c in sorted(os.listdir("/opt/nvidia")) if os.path.exists(os.path.join("/opt/nvidia", c, "ncu"))][0]
outs = []
for o in ["out0"] + specs.cache_names(wl, z):
    outs += ["--output", os.path.join(tmp, f"o_{o}.npy")]
for ip in (False, True):
    env = dict(os.environ, MLXRT_NO_UNIFIED="1", MLXRT_NO_GRAPH="1")
    cmd = [ncu, "--metrics", "gpu__time_duration.sum", "--csv", "--print-units", "base",
           "--clock-control", "none", "--cache-control", "none",
           os.path.join(here, wl), "--device=cuda"] + in_args + outs + (["--in-place"] if ip else [])
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith('"')]
    rows = [row for row in csv.DictReader(io.StringIO("\n".join(lines))) if row.get("Metric Name") == "gpu__time_duration.sum"]
    by = {}
    for row in rows:
        n = row["Kernel Name"][:50]; v = float(row["Metric Value"].replace(",", "")) * 1e-3
        c, s = by.get(n, (0, 0.0)); by[n] = (c + 1, s + v)
    tot = sum(s for c, s in by.values())
    print("in-place" if ip else "copy", f"{len(rows)} launches, {tot:.1f} us summed", flush=True)
    for n, (c, s) in sorted(by.items(), key=lambda kv: -kv[1][1])[:8]:
        print(f"   {c:4d} x {n:50s} {s:8.1f} us", flush=True)
