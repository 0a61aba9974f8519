#!/usr/bin/env bash
# W3L's executables side by side on the GPU machine (run in
# build-gpu/workloads): copy mode, CUDA-graph replay, the executable's
# median of 50, two alternating rounds; each output against
# w3l_nocluster's; then Nsight Compute's time, DRAM traffic, registers and
# active warps of each.
#   bash compare_w3l.sh w3l w3l_nocluster [OTHER EXECUTABLES]
set -u
python3 -c "import numpy as np; np.save('x.npy', np.random.default_rng(0).standard_normal((256, 131072), dtype=np.float32))"
for round in 1 2; do
  for e in "$@"; do
    printf '%s round %s: ' "$e" "$round"
    MLXRT_NO_UNIFIED=1 ./"$e" --device=cuda --input x=x.npy --output "o_$e.npy" --repeat 50 | grep -o 'median [0-9.]* ms'
  done
done
python3 - "$@" <<'PY'
import sys
import numpy as np
ref = np.load("o_w3l_nocluster.npy")
for e in sys.argv[1:]:
    o = np.load(f"o_{e}.npy")
    print(e, "max difference from w3l_nocluster, relative to its largest value:",
          float(np.abs(o - ref).max() / np.abs(ref).max()))
PY
for e in "$@"; do
  echo "== ncu $e"
  MLXRT_NO_UNIFIED=1 ncu --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,launch__occupancy_limit_registers \
    ./"$e" --device=cuda --input x=x.npy --output o.npy 2>&1 | grep -E "^\s+(gpu__|dram|launch|sm__)"
done
rm -f x.npy o.npy o_*.npy
