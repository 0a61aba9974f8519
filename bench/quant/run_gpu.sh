#!/usr/bin/env sh
# On the GPU machine, after bench/quant/prepare.sh: the quantized E2E graphs
# checked against MLX (unified mode, copy mode with a CUDA graph replay, and
# under compute-sanitizer memcheck), W10 tiny and full against float64 and
# torch's peers (w10_gpu.py), and every kernel of one W10 step under Nsight
# Compute (time, DRAM throughput).
#   sh run_gpu.sh OUT [--no-ncu]
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-$HERE/out}
mkdir -p "$OUT"
# cuBLASLt: the runtime's own search, else the first copy on the machine.
if [ -z "${MLXRT_LIBCUBLASLT:-}" ] && ! ldconfig -p | grep -q 'libcublasLt.so.1[23] ' &&
   [ ! -e /usr/local/cuda/lib64/libcublasLt.so.13 ] && [ ! -e /usr/local/cuda/lib64/libcublasLt.so.12 ]; then
  MLXRT_LIBCUBLASLT=$(find /usr /opt -name 'libcublasLt.so.1[23]' 2>/dev/null | head -1)
  export MLXRT_LIBCUBLASLT
fi
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
verify() { # WORKDIR [EXE]
  python3 - "$HERE/check.py" "$@" <<'PY' 2>&1
import importlib.util, sys
spec = importlib.util.spec_from_file_location("check", sys.argv[1])
check = importlib.util.module_from_spec(spec); spec.loader.exec_module(check)
err = check.verify(sys.argv[2], "cuda", sys.argv[3] if len(sys.argv) > 3 else None)
print(err or "ok"); sys.exit(1 if err else 0)
PY
}
for case in "$HERE"/cases/*; do
  n=$(basename "$case")
  for mode in unified copy memcheck; do
    case $mode in
      unified) r=$(verify "$case") ;;
      copy) r=$(MLXRT_NO_UNIFIED=1 MLXC_RUN_ARGS="--repeat 3" verify "$case") ;;
      memcheck)
        printf '#!/bin/sh\nexec %s --tool memcheck --error-exitcode 97 "%s" "$@"\n' "$SAN" "$case/model" > "$case/model.sanitized"
        chmod +x "$case/model.sanitized"
        r=$(MLXC_RUN_ARGS="--repeat 2" verify "$case" "$case/model.sanitized") ;;
    esac
    if [ $? -eq 0 ]; then echo "PASS $mode $n"; else echo "FAIL $mode $n: $(echo "$r" | tail -5)"; fi
  done
done | tee "$OUT/cases.txt"
python3 "$HERE/w10_gpu.py" "$HERE/W10-tiny" "$OUT/tiny" --tiny --no-torch --repeat 20 2>&1 | tail -3
W10_WORK=/tmp/w10work python3 "$HERE/w10_gpu.py" "$HERE/W10-full" "$OUT/full" --repeat 200 > "$OUT/w10.log" 2>&1
grep -E "mlxc|torch|bytes" "$OUT/w10.log" | cut -c1-300
if [ "${2:-}" != --no-ncu ] && command -v ncu >/dev/null; then
  # One step (the inputs w10_gpu.py wrote), every kernel: name, time, DRAM.
  args=$(python3 -c "import json,sys; print(' '.join(json.load(open('$OUT/full/w10.json'))['mlxc_args'][1:]))" 2>/dev/null)
  if [ -n "$args" ]; then
    MLXRT_NO_UNIFIED=1 MLXRT_NO_GRAPH=1 ncu --csv --print-units base --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,launch__grid_size \
      "$HERE/W10-full" $(echo "$args" | sed 's/--repeat [0-9]*/--repeat 1/') > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
    python3 - "$OUT/ncu.csv" <<'PY'
import csv, sys, collections
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if l.startswith('"'))]
k = collections.defaultdict(dict)
for r in rows:
    k[(r["ID"], r["Kernel Name"])][r["Metric Name"]] = r["Metric Value"].replace(",", "")
tot = collections.defaultdict(lambda: [0, 0.0, 0.0])
for (i, name), m in k.items():
    t = tot[name]; t[0] += 1; t[1] += float(m.get("gpu__time_duration.sum", 0)); t[2] += float(m.get("dram__bytes_read.sum", 0))
print("kernel launches time_us dram_read_MB GB/s")
for name, (c, ns, b) in sorted(tot.items(), key=lambda x: -x[1][1]):
    print(f"{name[:60]} {c} {ns/1e3:.1f} {b/1e6:.2f} {b/ns if ns else 0:.0f}")
print("total_us", sum(t[1] for t in tot.values()) / 1e3)
PY
  fi
fi
