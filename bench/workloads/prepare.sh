#!/usr/bin/env bash
# Compiles W1-W5 for CUDA (the H200: --gpu-arch=sm_90, so the cubin runs,
# built from PTX lowered for sm_90) into build-gpu/workloads/ (carried to the GPU
# machine) and records mlxc's compile time on this machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
DEST=build-gpu/workloads
mkdir -p "$DEST"
: > "$DEST/compile_times.txt"
for w in w1 w2 w3 w3_bf16 w3_bf16p w3l w4 w5; do
  start=$(date +%s.%N)
  "$BUILD/bin/mlxc" bench/workloads/$w.mlir --target=cuda --gpu-arch=sm_90 -o "$DEST/$w" 2>/dev/null
  end=$(date +%s.%N)
  echo "$w compile $(echo "$end - $start" | bc) s" >> "$DEST/compile_times.txt"
done
# W3L with each row in one block, as without thread-block clusters.
"$BUILD/bin/mlxc" bench/workloads/w3l.mlir --target=cuda --gpu-arch=sm_90 --no-clusters \
  -o "$DEST/w3l_nocluster" 2>/dev/null
cp bench/workloads/run_gpu.py bench/workloads/profile_gpu.sh bench/workloads/compare.sh \
  "$DEST/"
cat "$DEST/compile_times.txt"
