#!/usr/bin/env bash
# Nsight Compute on W1-W5 and W3L (the GPU machine, after prepare.sh):
# duration, DRAM throughput, L1 hit rate and occupancy of each program's
# first kernel, in copy mode. Prints a line per workload.
set -uo pipefail
cd "$(dirname "$0")"
python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(0)
np.save("p_x.npy", rng.standard_normal((16384, 4096), dtype=np.float32))
np.save("p_w.npy", rng.standard_normal(4096, dtype=np.float32))
np.save("p_n.npy", rng.standard_normal(67108864, dtype=np.float32))
np.save("p_l.npy", rng.standard_normal((256, 131072), dtype=np.float32))
PY
for w in w1 w2 w3 w3l w4 w5; do
  case $w in
    w1) args="--input x=p_n.npy --input a=p_n.npy --input b=p_n.npy" ;;
    w2) args="--input x=p_x.npy --input bias=p_w.npy" ;;
    w3) args="--input x=p_x.npy" ;;
    w3l) args="--input x=p_l.npy" ;;
    w4) args="--input x=p_x.npy --input w=p_w.npy" ;;
    w5) args="--input x=p_x.npy --input w=p_w.npy --input b=p_w.npy" ;;
  esac
  out=$(MLXRT_NO_UNIFIED=1 ncu --launch-count 1 --section SpeedOfLight \
        --section MemoryWorkloadAnalysis --section Occupancy ./$w --device=cuda $args 2>&1)
  pick() { echo "$out" | grep -m1 -E "^ +$1 " | awk '{print $NF, $(NF-1)}'; }
  echo "$w: duration $(pick Duration) | DRAM throughput $(pick 'DRAM Throughput') |" \
       "L1 hit $(pick 'L1/TEX Hit Rate') | achieved occupancy $(pick 'Achieved Occupancy')"
done
rm -f p_x.npy p_w.npy p_n.npy p_l.npy
