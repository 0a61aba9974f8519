#!/usr/bin/env bash
# Nsight Compute on the row kernels of W3-W5 (the GPU machine, after
# prepare.sh): duration, DRAM throughput and L1 hit rate of each program's
# one kernel, in copy mode. Prints a line per workload.
set -uo pipefail
cd "$(dirname "$0")"
python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(0)
np.save("p_x.npy", rng.standard_normal((16384, 4096), dtype=np.float32))
np.save("p_w.npy", rng.standard_normal(4096, dtype=np.float32))
PY
for w in w3 w4 w5; do
  args="--input x=p_x.npy"
  [ $w != w3 ] && args="$args --input w=p_w.npy"
  [ $w = w5 ] && args="$args --input b=p_w.npy"
  out=$(MLXRT_NO_UNIFIED=1 ncu --launch-count 1 --section SpeedOfLight \
        --section MemoryWorkloadAnalysis --section Occupancy ./$w --device=cuda $args 2>&1)
  pick() { echo "$out" | grep -m1 -E "^ +$1 " | awk '{print $NF, $(NF-1)}'; }
  echo "$w: duration $(pick Duration) | DRAM throughput $(pick 'DRAM Throughput') |" \
       "L1 hit $(pick 'L1/TEX Hit Rate') | achieved occupancy $(pick 'Achieved Occupancy')"
done
rm -f p_x.npy p_w.npy
