#!/bin/sh
# Builds what api_bench needs into DIR (default build/deploy-pack): the
# three models compiled for CUDA and the CPU as shared objects, their
# inputs, libmlxrt.so and api_bench itself (rpath $ORIGIN). Then, on the
# machine with the GPU: DIR/api_bench cuda DIR OUT; here: ... cpu DIR OUT.
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${1:-$ROOT/build/deploy-pack}
mkdir -p "$DIR"
# GPU_ARCH=sm_90 (say) embeds a cubin for that arch, so that opening a model
# does not wait for the driver's JIT of the PTX.
MLXC="$ROOT/build/bin/mlxc --target=cuda --emit=shared ${GPU_ARCH:+--gpu-arch=$GPU_ARCH}"
$MLXC "$ROOT/examples/mlp.mlir" -o "$DIR/libmlp.so" 2>/dev/null
$MLXC "$ROOT/test/Deploy/Inputs/scores.mlir" -o "$DIR/libscores.so" 2>/dev/null
$MLXC "$ROOT/test/Deploy/Inputs/step.mlir" -o "$DIR/libstep.so" 2>/dev/null
python3 "$ROOT/test/Deploy/Inputs/make_inputs.py" "$DIR"
cp "$ROOT/build/lib/libmlxrt.so" "$DIR/"
cc -O2 -I"$ROOT" -o "$DIR/api_bench" "$ROOT/bench/deploy/api_bench.c" \
  -L"$DIR" -lmlxrt -Wl,-rpath,'$ORIGIN'
