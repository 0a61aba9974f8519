#!/usr/bin/env bash
# Builds the GPU suite on this machine (the GPU machine has no LLVM): every
# E2E graph and every model of the MLX-exported corpus (test/Mlxfn) compiled
# with --target=cuda, its inputs, MLX's expected outputs, the language
# models of test/LM with mlx-lm's tokens, plus the runtime's unit tests,
# into one folder that travels to the GPU machine (git-ignored;
# pass it as the device tool's `carry`).
#   test/gpu/prepare.sh [BUILD] [DEST]     (default: build build-gpu/suite)
#
# The cases are built with --gpu-arch=sm_90, as for the H200: the cubin
# (whose kernels overlap their predecessors, mlxc-grid-dependent-launch) is
# what runs. Also a few graphs built without it (ptx/: the sm_70 PTX, JIT
# compiled), a few with their PTX broken so that only the cubin can load
# (cubin-only/), and one built for sm_80 with broken PTX (ptx-needed/): no
# sm_80 cubin fits an sm_90 GPU, so it must fail to load, which shows the
# PTX is what runs there.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
DEST=${2:-build-gpu/suite}
rm -rf "$DEST" "$DEST"-?
mkdir -p "$DEST/cases"
fail=0
prepare() { # GRAPH WORKDIR [MLXC ARGS]
  MLXC_EXTRA_ARGS="${3:-}" python3 test/E2E/check.py "$1" --mlxc "$BUILD/bin/mlxc" \
    --workdir "$2" --prepare >/dev/null || { echo "prepare failed: $1 ${3:-}"; fail=1; }
}
break_ptx() { # MODEL: the PTX's target becomes one no driver knows
  python3 - "$1" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
assert data.count(b".target sm_70") == 1, "expected one PTX module"
open(sys.argv[1], "wb").write(data.replace(b".target sm_70", b".target sm_7X"))
PY
}
hide_cubin() { # MODEL: its cubins claim sm_99, which no GPU loads, so the PTX runs
  python3 - "$1" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
at, hidden = data.find(b"MLXCIMG1"), 0
while at >= 0:
    # A container, not the runtime's own copy of the string: a small count,
    # a zero word, entries of kind 0 or 1.
    count, zero = struct.unpack_from("<II", data, at + 8) if at + 16 <= len(data) else (0, 1)
    if zero or not 0 < count <= 64 or at + 16 + 32 * count > len(data) or any(
            struct.unpack_from("<I", data, at + 16 + 32 * i)[0] > 1 for i in range(count)):
        at = data.find(b"MLXCIMG1", at + 8)
        continue
    for i in range(count):
        entry = at + 16 + 32 * i
        if struct.unpack_from("<I", data, entry)[0] == 1:
            struct.pack_into("<I", data, entry + 4, 99)
            hidden += 1
    at = data.find(b"MLXCIMG1", at + 8)
assert hidden, "expected a cubin"
open(sys.argv[1], "wb").write(bytes(data))
PY
}
for graph in test/E2E/*.mlir; do
  prepare "$graph" "$DEST/cases/$(basename "$graph" .mlir)" --gpu-arch=sm_90
done
for name in matmul-float16 matmul-bfloat16 mlp fast-sdpa-float32 softmax; do
  prepare test/E2E/$name.mlir "$DEST/ptx/$name"
  mkdir -p "$DEST/cubin-only"
  cp -r "$DEST/cases/$name" "$DEST/cubin-only/$name"
  break_ptx "$DEST/cubin-only/$name/model"
done
# bf16 differs most between the sm_70 PTX (integer rounding) and the sm_90
# cubin's (cvt.rn.bf16.f32, bf16 arithmetic): the PTX runs these too.
for name in softmax-bfloat16 astype-to-bfloat16 unary-bfloat16; do
  prepare test/E2E/$name.mlir "$DEST/ptx/$name"
done
# Built for sm_90 with its cubin hidden: the sm_70 PTX of the cluster row
# kernels runs, whose rows the first block of each cluster takes alone.
prepare test/E2E/softmax-cluster-rows.mlir "$DEST/ptx/softmax-cluster-rows-sm90-ptx" --gpu-arch=sm_90
hide_cubin "$DEST/ptx/softmax-cluster-rows-sm90-ptx/model"
# Built for sm_80, whose cubin no sm_90 GPU loads: the sm_70 PTX runs, with
# the flash-attention kernel's tensor-core products emulated by shuffles.
prepare test/E2E/flash-attention.mlir "$DEST/ptx/flash-attention-sm70-ptx" --gpu-arch=sm_80
prepare test/E2E/mlp.mlir "$DEST/ptx-needed/mlp" --gpu-arch=sm_80
break_ptx "$DEST/ptx-needed/mlp/model"
# The models MLX exported (test/Mlxfn), with MLX's inputs and outputs.
for model in $(python3 test/Mlxfn/corpus.py list); do
  MLXC_EXTRA_ARGS=--gpu-arch=sm_90 python3 test/Mlxfn/check_mlxfn.py "$model" --mlxc "$BUILD/bin/mlxc" \
    --workdir "$DEST/cases/mlxfn-$model" --prepare >/dev/null || { echo "prepare failed: $model"; fail=1; }
done
# Random MLX graphs (test/Fuzz/random_graphs.py, the seeds of its lit
# test) that pass on the CPU, with MLX's outputs.
python3 test/Fuzz/random_graphs.py --mlxc "$BUILD/bin/mlxc" --workdir "$DEST/random-work" \
  --seeds 0:40 --quiet --target=cuda --gpu-arch=sm_90 --prepare "$DEST/random" >/dev/null ||
  { echo "prepare failed: random graphs"; fail=1; }
rm -rf "$DEST/random-work"
# Greedy generation from the tiny mlx-lm models of test/LM, compiled for
# CUDA, with mlx-lm's own tokens (expected.txt): run.sh generates on the GPU
# with the C++ program (built here against the installed runtime) and the
# Python package, and compares.
LM_PROMPT=5,17,42,7,99,3
sh test/LM/Inputs/build_generate.sh "$BUILD" "$DEST/lm" || { echo "prepare failed: lm generate"; fail=1; }
mkdir -p "$DEST/lm/python" && cp -r python/mlxc "$DEST/lm/python/" && rm -rf "$DEST/lm/python/mlxc/__pycache__"
for arch in $(python3 test/LM/Inputs/tiny_model.py list); do
  case=$DEST/lm/cases/$arch
  { python3 test/LM/Inputs/tiny_model.py make "$arch" "$case/model" >/dev/null &&
    python3 test/LM/Inputs/tiny_model.py generate "$case/model" --prompt $LM_PROMPT -n 8 > "$case/expected.txt" &&
    echo $LM_PROMPT > "$case/prompt.txt" &&
    PYTHONPATH=python python3 -m mlxc.lm export "$case/model" -o "$case/out" --max-len 16 --prefill-len 4 \
      --target cuda --mlxc "$BUILD/bin/mlxc" >/dev/null 2>&1; } || { echo "prepare failed: lm $arch"; fail=1; }
done
cp "$BUILD/unittests/Runtime/MlxrtTests" "$DEST/"
cp test/E2E/check.py test/gpu/run.sh "$DEST/"
echo "prepared $(ls "$DEST/cases" | wc -l) cases and $(ls "$DEST/lm/cases" | wc -l) language models in $DEST ($(du -sh "$DEST" | cut -f1))"
test/gpu/split.sh "$DEST" || fail=1
exit $fail
