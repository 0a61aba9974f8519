#!/usr/bin/env bash
# W0, unified memory, on the GPU machine: a 2 GiB float32 input written by
# the host, read by one kernel (y = 2x), a 2 GiB output read by the host.
# Times mlxc's executable with its default memory plan, with migration only
# and without its compiler-inserted prefetches
# (--cold: the host rewrites every input page before each run and reads
# every output page after it), in copy mode, and the pinned-copy ceiling
# (PyTorch, same call). Built by bench/unified_memory/prepare.sh.
set -uo pipefail
cd "$(dirname "$0")"
LOG=${1:-.}/unified_memory.txt
exec > >(tee "$LOG") 2>&1
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 - <<'PY'
import numpy as np
x = np.random.default_rng(0).standard_normal(536870912, dtype=np.float32)
np.save("x.npy", x)
PY
echo "== pinned-copy ceiling (torch, 2 GiB each way, median of 5)"
python3 - <<'PY'
import torch, statistics
n = 536870912
h = torch.empty(n, dtype=torch.float32, pin_memory=True).normal_()
d = torch.empty(n, dtype=torch.float32, device="cuda")
def t(f):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); f(); e.record(); torch.cuda.synchronize(); return s.elapsed_time(e)
for _ in range(2): d.copy_(h); h.copy_(d)
htod = statistics.median(t(lambda: d.copy_(h, non_blocking=True)) for _ in range(5))
dtoh = statistics.median(t(lambda: h.copy_(d, non_blocking=True)) for _ in range(5))
gb = n * 4 / 1e9
print(f"pinned HtoD {htod:.1f} ms ({gb/htod*1e3:.1f} GB/s), DtoH {dtoh:.1f} ms ({gb/dtoh*1e3:.1f} GB/s), "
      f"both {2*gb/(htod+dtoh)*1e3:.1f} GB/s")
PY
# um_prefetch: mlxc's default plan (the input and the output, each touched
# by one loop-free kernel, stay in host memory mapped for the GPU);
# um_migrate: --no-stream-io (prefetch the input, discard-and-place the
# output, prefetch it back); um_noprefetch: --no-prefetch (page faults).
# One traced run each shows where the time goes (MLXRT_TRACE).
for exe in um_prefetch um_migrate um_noprefetch; do
  echo "== $exe --cold (unified memory)"
  ./$exe --input x=x.npy --device=cuda --repeat 5 --cold --output y_$exe.npy
  MLXRT_TRACE=1 ./$exe --input x=x.npy --device=cuda --repeat 1 --cold 2>&1 | grep trace | tail -2
done
echo "== um_prefetch, copy mode (MLXRT_NO_UNIFIED=1), kernel-side time"
MLXRT_NO_UNIFIED=1 ./um_prefetch --input x=x.npy --device=cuda --repeat 5 --output y_copy.npy
python3 - <<'PY'
import numpy as np
x = np.load("x.npy", mmap_mode="r")
for f in ["y_um_prefetch.npy", "y_um_migrate.npy", "y_um_noprefetch.npy",
          "y_copy.npy"]:
    y = np.load(f, mmap_mode="r")
    print(f, "max |y - 2x| =", float(np.abs(y[:: 4099] - 2 * x[:: 4099]).max()),
          "(every 4099th element)")
PY
rm -f x.npy y_*.npy
