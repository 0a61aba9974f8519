#!/bin/sh
# On the GPU machine: DIR/run.sh [N] — makes DIR/model/model.safetensors,
# then generates N tokens (default 512) greedily with the compiled llama
# through the C API, in copy and in unified mode, with --time.
set -e
DIR=$(cd "$(dirname "$0")" && pwd)
N=${1:-512}
python3 "$DIR/make_weights.py" "$DIR/model"
export MLXRT_LIBCUBLASLT=${MLXRT_LIBCUBLASLT:-/usr/local/cuda/lib64/libcublasLt.so.13}
for memory in copy auto; do
  for i in 1 2; do
    echo "== --memory $memory, run $i"
    "$DIR/generate" "$DIR/lm" --prompt 1,2,3,4,5,6,7,8 -n "$N" \
      --device cuda --memory $memory --time | cut -c1-80
  done
done
