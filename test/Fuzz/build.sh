#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-22 (ASan + UBSan) into $1:
#   mlxfn-reader-fuzzer  importers/Mlxfn/MlxfnReader.cpp
#   npy-fuzzer, npz-fuzzer, safetensors-fuzzer  the runtime's readers
# Rebuilds only when a source is newer than its binary.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$1"
mkdir -p "$out"
llvm=/usr/lib/llvm-22
cc="$llvm/bin/clang"
cxx="$llvm/bin/clang++"
flags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -I"$root")
runtime=("$root"/runtime/{npy,npz,safetensors,reader,load,output,dtype,tensor,status}.c)

stale() {  # stale TARGET SOURCES... : true when TARGET must be rebuilt
  local target="$1"; shift
  [ -f "$target" ] || return 0
  for s in "$@"; do [ "$s" -nt "$target" ] && return 0; done
  return 1
}

for format in npy npz safetensors; do
  target="$out/$format-fuzzer"
  src="$root/test/Fuzz/ArrayReaderFuzzer.c"
  if stale "$target" "$src" "${runtime[@]}" "$root"/runtime/*.h; then
    upper=$(echo "$format" | tr a-z A-Z)
    "$cc" -std=c11 "${flags[@]}" -DFUZZ_"$upper" "$src" "${runtime[@]}" \
      -lz -o "$target.tmp" && mv "$target.tmp" "$target"
  fi
done

target="$out/mlxfn-reader-fuzzer"
srcs=("$root/test/Fuzz/MlxfnReaderFuzzer.cpp" "$root/importers/Mlxfn/MlxfnReader.cpp")
if stale "$target" "${srcs[@]}" "$root/importers/Mlxfn/MlxfnReader.h"; then
  "$cxx" -std=c++17 "${flags[@]}" -isystem "$llvm/include" -fno-exceptions \
    "${srcs[@]}" -L"$llvm/lib" -Wl,-rpath,"$llvm/lib" -lLLVM \
    -o "$target.tmp" && mv "$target.tmp" "$target"
fi
