#!/usr/bin/env bash
# Builds the GPU suite on this machine (the GPU machine has no LLVM): every
# E2E graph and every model of the MLX-exported corpus (test/Mlxfn) compiled
# with --target=cuda, its inputs, MLX's expected outputs, plus the runtime's
# unit tests, into one folder that travels to the GPU machine (git-ignored;
# pass it as the device tool's `carry`).
#   test/gpu/prepare.sh [BUILD] [DEST]     (default: build build-gpu/suite)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
DEST=${2:-build-gpu/suite}
rm -rf "$DEST"
mkdir -p "$DEST/cases"
fail=0
for graph in test/E2E/*.mlir; do
  name=$(basename "$graph" .mlir)
  python3 test/E2E/check.py "$graph" --mlxc "$BUILD/bin/mlxc" \
    --workdir "$DEST/cases/$name" --prepare >/dev/null || { echo "prepare failed: $graph"; fail=1; }
done
# The models MLX exported (test/Mlxfn), with MLX's inputs and outputs.
for model in $(python3 test/Mlxfn/corpus.py list); do
  python3 test/Mlxfn/check_mlxfn.py "$model" --mlxc "$BUILD/bin/mlxc" \
    --workdir "$DEST/cases/mlxfn-$model" --prepare >/dev/null || { echo "prepare failed: $model"; fail=1; }
done
cp "$BUILD/unittests/Runtime/MlxrtTests" "$DEST/"
cp test/E2E/check.py test/gpu/run.sh "$DEST/"
echo "prepared $(ls "$DEST/cases" | wc -l) cases in $DEST ($(du -sh "$DEST" | cut -f1))"
exit $fail
