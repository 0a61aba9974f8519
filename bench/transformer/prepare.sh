#!/usr/bin/env bash
# W6-W9 (llama MLP, decoder layer prefill and decode, 8-layer decode step):
# exports them with MLX (CPU build), compiles them with mlxc for the H200 and
# stores MLX's own outputs into build-gpu/transformer/ (git-ignored, a few MB:
# the weights are regenerated from the seed on the GPU machine), plus the tiny
# versions in build-gpu/transformer/tiny/ for the CPU check.
#   bench/transformer/prepare.sh [BUILD] [W6 W7 ...]
# Then on the GPU machine (carry build-gpu/transformer):
#   python3 build-gpu/transformer/run_gpu.py [W6 W7 ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
shift || true
DEST=build-gpu/transformer
MLXC=$(cd "$BUILD" && pwd)/bin/mlxc
mkdir -p "$DEST/tiny"
cp bench/transformer/run_gpu.py bench/transformer/specs.py \
  bench/transformer/in_place_timing.py bench/transformer/in_place_ncu.py \
  bench/transformer/kernels_ncu.py bench/transformer/compare_gpu.py "$DEST/"
status=0
nice -n 10 python3 bench/transformer/prepare.py "$MLXC" "$DEST/tiny" --tiny "$@" || status=1
nice -n 10 python3 bench/transformer/prepare.py "$MLXC" "$DEST" "$@" || status=1
rm -f "$DEST"/*.mlxfn.tmp
du -sh "$DEST"
exit $status
