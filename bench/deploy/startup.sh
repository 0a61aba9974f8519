#!/bin/sh
# On the GPU machine: builds startup_probe against the toolkit and runs it
# with CUDA's lazy and eager module loading, then times api_bench's phases
# (DIR from run.sh; models compiled for the GPU's arch). Writes to OUT.
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${1:?DIR from bench/deploy/run.sh}
OUT=${2:?OUT folder}
CUDA=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$OUT"
cc -O2 -I"$CUDA/include" -o "$OUT/startup_probe" "$HERE/startup_probe.c" \
  -L"$CUDA/lib64" -L"$CUDA/lib64/stubs" -lcublasLt -lcuda -Wl,-rpath,"$CUDA/lib64"
for i in 1 2 3; do
  echo "== startup_probe run $i (shell: $(date +%s%3N) ms)"
  "$OUT/startup_probe" save "$OUT/algo.bin"
done
for i in 1 2 3; do
  echo "== startup_probe load run $i (shell: $(date +%s%3N) ms)"
  "$OUT/startup_probe" load "$OUT/algo.bin"
done
echo "== startup_probe CUDA_MODULE_LOADING=EAGER (shell: $(date +%s%3N) ms)"
CUDA_MODULE_LOADING=EAGER "$OUT/startup_probe"
