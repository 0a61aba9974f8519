# Per-kernel Nsight Compute figures of one mlxc decode workload, the L2 and
# clocks as in a run (no cache flush, no clock lock): time, DRAM throughput
# (% of peak) and grid, summed per kernel name, slowest first.
#   python3 build-gpu/transformer/kernels_ncu.py W8 [--in-place] [--exe=PATH]
# (--exe: a variant of the workload's executable, as compare_gpu.py takes.)
import csv, io, os, shutil, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_gpu, specs
run_gpu.DEV = "cuda"
here = os.path.dirname(os.path.abspath(__file__))
wl = sys.argv[1]
exe = next((a.split("=", 1)[1] for a in sys.argv[2:] if a.startswith("--exe=")), os.path.join(here, wl))
run_args = [a for a in sys.argv[2:] if not a.startswith("--exe=")]
z = specs.sizes(False)[wl]; sp = specs.input_specs(wl, z)
ins = specs.generate_all(wl, z, {})
tmp = tempfile.mkdtemp()
in_args = run_gpu.mlxc_args(wl, z, ins, sp, tmp)
ncu = shutil.which("ncu") or [os.path.join("/opt/nvidia", c, "ncu") for c in sorted(os.listdir("/opt/nvidia")) if os.path.exists(os.path.join("/opt/nvidia", c, "ncu"))][0]
outs = []
for o in ["out0"] + specs.cache_names(wl, z):
    outs += ["--output", os.path.join(tmp, f"o_{o}.npy")]
metrics = ["gpu__time_duration.sum", "dram__throughput.avg.pct_of_peak_sustained_elapsed",
           "launch__grid_size", "dram__bytes_read.sum"]
env = dict(os.environ, MLXRT_NO_UNIFIED="1", MLXRT_NO_GRAPH="1")
cmd = [ncu, "--metrics", ",".join(metrics), "--csv", "--print-units", "base",
       "--clock-control", "none", "--cache-control", "none",
       os.path.abspath(exe), "--device=cuda"] + in_args + outs + run_args
r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
lines = [ln for ln in r.stdout.splitlines() if ln.startswith('"')]
launches = {}
for row in csv.DictReader(io.StringIO("\n".join(lines))):
    key = (row["ID"], row["Kernel Name"][:40])
    try:  # "n/a" where a metric does not apply (a cuBLASLt helper kernel)
        value = float(row["Metric Value"].replace(",", ""))
    except ValueError:
        value = 0.0
    launches.setdefault(key, {})[row["Metric Name"]] = value
by = {}
for (_, name), m in launches.items():
    e = by.setdefault(name, [0, 0.0, 0.0, 0.0, int(m.get("launch__grid_size", 0))])
    e[0] += 1; e[1] += m["gpu__time_duration.sum"] * 1e-3
    e[2] += m["dram__throughput.avg.pct_of_peak_sustained_elapsed"]; e[3] += m["dram__bytes_read.sum"]
tot = sum(e[1] for e in by.values())
print(f"{wl} {' '.join(sys.argv[2:])}: {len(launches)} launches, {tot:.1f} us summed", flush=True)
for name, (c, t, pct, rd, grid) in sorted(by.items(), key=lambda kv: -kv[1][1])[:40]:
    print(f"  {c:3d} x {name:40s} {t:7.1f} us  dram {pct / c:5.1f}%  read {rd / c / 1e6:7.2f} MB  "
          f"{rd / c / (t / c * 1e-6) / 1e12 if t else 0:5.2f} TB/s  grid {grid}", flush=True)
