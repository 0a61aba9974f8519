#!/usr/bin/env bash
# Prefill attention over a length that is no multiple of the 64-row tiles:
# MLX's causal mx.fast.scaled_dot_product_attention over 32 heads of dim 128
# in bf16 for 2000 and 2048 queries and keys, exported and compiled with
# --target=cuda --gpu-arch=sm_90 into build-gpu/attention-ragged/.
#   bench/attention/prepare_ragged.sh [BUILD]
# Then on the GPU machine (carry build-gpu/attention-ragged):
#   bash build-gpu/attention-ragged/run_ragged.sh OUT
# To compare compilers, add another build's executables beside them
# (sdpa2000.main, ...): run_ragged.sh times every sdpa<L>.<variant>.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
DEST=build-gpu/attention-ragged
mkdir -p "$DEST"
python3 - "$DEST" <<'PY'
import sys
import mlx.core as mx
mx.set_default_device(mx.cpu)
for length in (2000, 2048):
    q = mx.zeros((1, 32, length, 128), dtype=mx.bfloat16)
    f = lambda q, k, v: mx.fast.scaled_dot_product_attention(
        q, k, v, scale=128 ** -0.5, mask="causal")
    mx.export_function(f"{sys.argv[1]}/sdpa{length}.mlxfn", f, q, q, q)
PY
for length in 2000 2048; do
  "$BUILD/bin/mlxc" "$DEST/sdpa$length.mlxfn" --target=cuda --gpu-arch=sm_90 \
    --no-cache --quiet -o "$DEST/sdpa$length.x"
done
cp bench/attention/run_ragged.sh "$DEST/"
