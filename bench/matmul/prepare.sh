#!/usr/bin/env bash
# Compiles the GEMM graphs (bf16, f16, f32; 4096^3) for CUDA into
# build-gpu/matmul/ (carried to the GPU machine), with the sm_90 cubin.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
DEST=build-gpu/matmul
mkdir -p "$DEST"
for t in bf16 f16 f32; do
  "$BUILD/bin/mlxc" bench/matmul/gemm-$t.mlir --target=cuda --gpu-arch=sm_90 \
    -o "$DEST/gemm-$t" 2>/dev/null
done
cp bench/matmul/run_gpu.py "$DEST/"
echo "prepared $(ls "$DEST" | wc -l) files in $DEST"
