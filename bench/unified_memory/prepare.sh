#!/usr/bin/env bash
# Compiles W0 on this machine into build-gpu/bench/ (carried to the GPU).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
DEST=build-gpu/bench
mkdir -p "$DEST"
"$BUILD/bin/mlxc" bench/unified_memory/graph.mlir --target=cuda -o "$DEST/um_prefetch"
"$BUILD/bin/mlxc" bench/unified_memory/graph.mlir --target=cuda --no-stream-io -o "$DEST/um_migrate"
"$BUILD/bin/mlxc" bench/unified_memory/graph.mlir --target=cuda --no-prefetch -o "$DEST/um_noprefetch"
cp bench/unified_memory/run_gpu.sh "$DEST/"
