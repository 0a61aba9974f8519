#!/bin/sh
# Builds examples/generate/generate.cpp as a user does: against the runtime
# installed (cmake --install) from the build folder BUILD into DEST/runtime.
#   build_generate.sh BUILD DEST      -> DEST/generate
set -e
SRC=$(cd "$(dirname "$0")/../../.." && pwd)
cmake --install "$1/runtime" --prefix "$2/runtime" >/dev/null
# $ORIGIN: DEST can travel (the GPU suite).
c++ -std=c++17 -O2 -I"$2/runtime/include" "$SRC/examples/generate/generate.cpp" \
  -L"$2/runtime/lib" -lmlxrt -Wl,-rpath,'$ORIGIN/runtime/lib' -o "$2/generate"
