#!/usr/bin/env bash
# W10 (a 4-bit affine llama decode step, w10_mlx.py) and the quantized E2E
# graphs, compiled for the H200/H100 (sm_90) into build-gpu/quant/
# (git-ignored, a few MB: W10's weights are made from a seed on the GPU
# machine by w10_gpu.py).
#   bench/quant/prepare.sh [BUILD]
# Then on the GPU machine (carry build-gpu/quant): sh build-gpu/quant/run_gpu.sh OUT
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
DEST=build-gpu/quant
MLXC=$(cd "$BUILD" && pwd)/bin/mlxc
rm -rf "$DEST" && mkdir -p "$DEST/cases"
cp bench/quant/w10_gpu.py bench/quant/w10_mlx_shapes.py bench/quant/run_gpu.sh test/E2E/check.py "$DEST/"
for size in full tiny; do
  flag=; [ $size = tiny ] && flag=--tiny
  python3 bench/quant/w10_mlx.py "$DEST/mlxfn-$size" $flag >/dev/null
  "$MLXC" "$DEST/mlxfn-$size/W10.mlxfn" --target=cuda --gpu-arch=sm_90 --quiet -o "$DEST/W10-$size"
  "$MLXC" "$DEST/mlxfn-$size/W10.mlxfn" --target=cuda --gpu-arch=sm_90 --quiet --emit=kernels -o - |
    grep -o 'kernel\.region [a-z_]*' | sort | uniq -c > "$DEST/W10-$size.regions"
done
for name in quantized-matmul-decode quantized-matmul-bfloat16 quantized-fusion gather-qmm \
            dequantize-float16 quantize-float16; do
  MLXC_EXTRA_ARGS=--gpu-arch=sm_90 python3 test/E2E/check.py test/E2E/$name.mlir --mlxc "$MLXC" \
    --workdir "$DEST/cases/$name" --prepare >/dev/null
done
du -sh "$DEST"
