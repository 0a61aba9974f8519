#!/usr/bin/env bash
# Executables of one workload side by side on the GPU machine (run in
# build-gpu/workloads): copy mode, CUDA-graph replay, the executable's
# median of 50, three alternating rounds; each output against the first
# executable's; then Nsight Compute's time, DRAM throughput, registers and
# active warps of each one's first kernel.
#   bash compare.sh WORKLOAD EXECUTABLE...   (WORKLOAD: w1 w2 w3 w3_bf16 w3l w4 w5)
set -u
w=$1
shift
python3 - "$w" <<'PY'
import sys
import numpy as np
rng = np.random.default_rng(0)
f = lambda *s: rng.standard_normal(s, dtype=np.float32)
def bf16(*s):
    x = f(*s).view(np.uint32)
    return ((x + 0x7FFF + ((x >> 16) & 1)) >> 16).astype(np.uint16).view("V2")
R, C, N = 16384, 4096, 67108864
inputs = {
    "w1": {"x": f(N), "a": f(N), "b": f(N)},
    "w2": {"x": f(R, C), "bias": f(C)},
    "w3": {"x": f(R, C)},
    "w3_bf16": {"x": bf16(R, C)},
    "w3l": {"x": f(256, 131072)},
    "w4": {"x": f(R, C), "w": f(C)},
    "w5": {"x": f(R, C), "w": f(C), "b": f(C)},
}[sys.argv[1]]
for k, v in inputs.items():
    np.save(f"cmp_{k}.npy", v)
open("cmp_args", "w").write(" ".join(f"--input {k}=cmp_{k}.npy" for k in inputs))
PY
args=$(cat cmp_args)
for round in 1 2 3; do
  for e in "$@"; do
    printf '%s round %s: ' "$e" "$round"
    MLXRT_NO_UNIFIED=1 ./"$e" --device=cuda $args --output "cmp_o_$e.npy" --repeat 50 | grep -o 'median [0-9.]* ms'
  done
done
python3 - "$@" <<'PY'
import sys
import numpy as np
def load(e):
    o = np.load(f"cmp_o_{e}.npy")
    return (o.view(np.uint16).astype(np.uint32) << 16).view(np.float32) if o.dtype.kind == "V" else o
ref = load(sys.argv[1])
for e in sys.argv[1:]:
    print(e, f"max difference from {sys.argv[1]}, relative to its largest value:",
          float(np.abs(load(e) - ref).max() / np.abs(ref).max()))
PY
for e in "$@"; do
  echo "== ncu $e"
  MLXRT_NO_UNIFIED=1 ncu --launch-count 1 --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,launch__registers_per_thread,launch__grid_size,sm__warps_active.avg.pct_of_peak_sustained_active \
    ./"$e" --device=cuda $args --output cmp_o.npy 2>&1 | grep -E "^\s+(gpu__|dram|launch|sm__)"
done
rm -f cmp_*.npy cmp_args
