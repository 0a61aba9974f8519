#!/usr/bin/env bash
# On the GPU machine: times every build-gpu/attention-ragged/sdpa<L>.<variant>
# executable (copy mode, CUDA-graph replay, median of 50) on random inputs
# made here, and compares each length's outputs with its first variant's.
#   bash build-gpu/attention-ragged/run_ragged.sh OUT
set -uo pipefail
DIR=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: run.sh OUT}
mkdir -p "$OUT"
python3 - "$OUT" <<'PY'
import sys
import numpy as np
rng = np.random.default_rng(0)
for length in (2000, 2048):
    for name in "qkv":  # bfloat16 inputs take float32 data
        np.save(f"{sys.argv[1]}/{name}{length}.npy",
                rng.standard_normal((1, 32, length, 128)).astype(np.float32))
PY
for exe in "$DIR"/sdpa*.*; do
  case $exe in *.mlxfn|*.sh) continue ;; esac
  name=$(basename "$exe"); length=${name#sdpa}; length=${length%%.*}
  echo "$name: $(MLXRT_NO_UNIFIED=1 "$exe" --input "$OUT/q$length.npy" \
    --input "$OUT/k$length.npy" --input "$OUT/v$length.npy" \
    --output "$OUT/o.$name.npy" --repeat 50 2>&1 | tail -1)"
done
python3 - "$OUT" <<'PY'
import glob, os, sys
import numpy as np
def as_f32(a):  # bfloat16 outputs are 2-byte voids
    return (a.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
for length in (2000, 2048):
    files = sorted(glob.glob(f"{sys.argv[1]}/o.sdpa{length}.*.npy"))
    first = as_f32(np.load(files[0])) if files else None
    for f in files[1:]:
        d = float(np.abs(as_f32(np.load(f)) - first).max())
        print(f"{os.path.basename(f)}: max |difference| from "
              f"{os.path.basename(files[0])} {d:.4g} (largest value "
              f"{float(np.abs(first).max()):.3g})")
PY
rm -f "$OUT"/*.npy
