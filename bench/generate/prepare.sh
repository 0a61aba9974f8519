#!/bin/sh
# Builds DIR (default build-gpu/generate) for run.sh on the GPU machine: a
# llama with W9's dimensions (make_model.py) exported and compiled by
# `python -m mlxc.lm export --target cuda` (sm_90 cubins), generate.cpp
# against libmlxrt.so, and the weights' names and shapes (weights.json; the
# 1 GB of weights are made again there, random, by make_weights.py).
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${1:-$ROOT/build-gpu/generate}
ARCH=${GPU_ARCH:-sm_90}
rm -rf "$DIR"
mkdir -p "$DIR/model" "$DIR/include/mlxrt"
python3 "$ROOT/bench/generate/make_model.py" "$DIR/model"
PYTHONPATH=$ROOT/python python3 -m mlxc.lm export "$DIR/model" -o "$DIR/lm" \
  --target cuda --max-len 1024 --mlxc "$ROOT/build/bin/mlxc" \
  --mlxc-arg=--gpu-arch=$ARCH
python3 - "$DIR/model" <<'PY'
import json, os, struct, sys
path = os.path.join(sys.argv[1], "model.safetensors")
with open(path, "rb") as f:
    n, = struct.unpack("<Q", f.read(8))
    header = json.loads(f.read(n))
spec = {k: (v["dtype"], v["shape"]) for k, v in header.items()
        if k != "__metadata__"}
with open(os.path.join(sys.argv[1], "weights.json"), "w") as f:
    json.dump(spec, f)
os.remove(path)
PY
cp "$ROOT/runtime/mlxrt_api.h" "$ROOT/runtime/mlxrt.h" "$DIR/include/mlxrt/"
cp "$ROOT/build/lib/libmlxrt.so" "$DIR/"
c++ -O2 -std=c++17 -I"$DIR/include" -o "$DIR/generate" \
  "$ROOT/examples/generate/generate.cpp" -L"$DIR" -lmlxrt \
  -Wl,-rpath,'$ORIGIN'
cp "$ROOT/bench/generate/make_weights.py" "$ROOT/bench/generate/run.sh" \
  "$ROOT/bench/generate/ab.sh" "$DIR/"
