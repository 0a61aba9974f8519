#!/bin/sh
# On the GPU machine: DIR/ab.sh [N] — A/B of generate builds in the same
# call, alternating, three rounds: each of DIR/base and DIR (a generate
# binary beside its own libmlxrt.so) generates N tokens (default 512) with
# the same models and weights, in copy and in unified mode. Prints each
# run's decode time and the tokens' checksum (the same in every run).
set -e
DIR=$(cd "$(dirname "$0")" && pwd)
N=${1:-512}
python3 "$DIR/make_weights.py" "$DIR/model"
export MLXRT_LIBCUBLASLT=${MLXRT_LIBCUBLASLT:-/usr/local/cuda/lib64/libcublasLt.so.13}
for round in 1 2 3; do
  for build in base new; do
    exe="$DIR/generate"
    [ $build = base ] && exe="$DIR/base/generate"
    for memory in copy auto; do
      printf "round %s %-4s %-5s " $round $build $memory
      "$exe" "$DIR/lm" --prompt 1,2,3,4,5,6,7,8 -n "$N" --device cuda \
        --memory $memory --time 2>"$DIR/err.txt" | md5sum | cut -c1-8 |
        tr '\n' ' '
      sed 's/.*decode: //' "$DIR/err.txt"
    done
  done
done
