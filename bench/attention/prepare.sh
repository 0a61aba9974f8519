#!/usr/bin/env bash
# Prefill attention with and without masks: one llama-sized layer's
# attention (1 x 32 heads x 2048 queries x 2048 keys x 128, bf16, not
# causal) with no mask, a boolean [L, S] mask and an additive bf16 [L, S]
# mask, compiled for the H200 into build-gpu/attention/ (a few MB; the
# inputs are generated on the GPU machine), plus the boolean case compiled
# for sm_70, where the attention is decomposed (scores through memory,
# cuBLASLt products, a softmax kernel): the path masked prefills took before
# the flash-attention kernel read masks. Correctness of the same kernels:
# test/E2E/attention-masks-sinks.mlir.
#   bench/attention/prepare.sh [BUILD]
# Then on the GPU machine (carry build-gpu/attention):
#   python3 build-gpu/attention/time_gpu.py
set -euo pipefail
cd "$(dirname "$0")/../.."
MLXC=$(cd "${1:-build}" && pwd)/bin/mlxc
DEST=build-gpu/attention
mkdir -p "$DEST"
cp bench/attention/time_gpu.py "$DEST/"
shape="tensor<1x32x2048x128xbf16>"
for variant in none bool add; do
  case $variant in
    none) mask=""; arg="" ;;
    bool) mask=" mask(%m : tensor<2048x2048xi1>)"; arg=", %m: tensor<2048x2048xi1> {mlx.name = \"m\"}" ;;
    add) mask=" mask(%m : tensor<2048x2048xbf16>)"; arg=", %m: tensor<2048x2048xbf16> {mlx.name = \"m\"}" ;;
  esac
  cat > "$DEST/prefill-$variant.mlir" <<MLIR
func.func @prefill_$variant(%q: $shape {mlx.name = "q"}, %k: $shape {mlx.name = "k"}, %v: $shape {mlx.name = "v"}$arg) -> ($shape {mlx.name = "out"}) {
  %o = mlx.scaled_dot_product_attention %q, %k, %v$mask {scale = 0.088 : f32} : $shape, $shape, $shape
  return %o : $shape
}
MLIR
  "$MLXC" "$DEST/prefill-$variant.mlir" --target=cuda --gpu-arch=sm_90 --quiet -o "$DEST/model-$variant"
done
"$MLXC" "$DEST/prefill-bool.mlir" --target=cuda --quiet -o "$DEST/model-bool-sm70"
du -sh "$DEST"
