#!/bin/sh
# A/B of runtime libraries under the same generate binary and models.
set -e
DIR=$(cd "$(dirname "$0")" && pwd)
python3 "$DIR/make_weights.py" "$DIR/model"
export MLXRT_LIBCUBLASLT=${MLXRT_LIBCUBLASLT:-/usr/local/cuda/lib64/libcublasLt.so.13}
for round in 1 2 3; do
  for lib in base f8dfb72 new; do
    cp "$DIR/lib-$lib.so" "$DIR/libmlxrt.so"
    for memory in copy auto; do
      printf "round %s %-8s %-5s " $round $lib $memory
      "$DIR/generate" "$DIR/lm" --prompt 1,2,3,4,5,6,7,8 -n 512 \
        --device cuda --memory $memory --time 2>&1 >/dev/null | sed 's/.*decode: //'
    done
  done
done
