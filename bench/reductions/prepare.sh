#!/usr/bin/env bash
# Compiles the row, column and whole-tensor reductions (4096x4096 f32) for CUDA into
# build-gpu/reduce/ (carry it to the GPU machine), then there:
#   python3 build-gpu/reduce/run.py
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
DEST=build-gpu/reduce
mkdir -p "$DEST"
for g in rowsum colsum allsum allmax; do
  "$BUILD/bin/mlxc" bench/reductions/$g.mlir --target=cuda --gpu-arch=sm_90 -o "$DEST/$g" 2>/dev/null
done
cp bench/reductions/run.py "$DEST/"
