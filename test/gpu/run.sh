#!/usr/bin/env bash
# Runs the prepared GPU suite (test/gpu/prepare.sh) on a CUDA machine: every
# E2E case on the GPU in unified-memory mode, in copy mode
# (MLXRT_NO_UNIFIED=1) and under compute-sanitizer memcheck (a few also
# racecheck); with --repeat 3
# (the outputs then come from a CUDA graph replay) in both modes and with
# graphs off (MLXRT_NO_GRAPH=1); a few PTX-only builds, and cubins with their
# PTX broken; random MLX graphs (test/Fuzz/random_graphs.py) with --repeat 3
# in both modes; greedy generation from the language models of test/LM (C++ and
# Python, unified and copy mode, the C++ program under memcheck); plus the
# runtime's unit tests. Nothing is built here.
#   run.sh [SUITE_DIR] [LOG_DIR]
# SKIP_MODES="nograph copy-nograph" leaves those modes out (to fit a short
# lease of the GPU); the summary names them.
set -uo pipefail
SUITE=$(cd "${1:-$(dirname "$0")}" && pwd)
LOG=${2:-$SUITE/logs}
mkdir -p "$LOG"
# Internal: run.sh SUITE LOG --one-args MODE CASE runs one case (xargs).
if [ "${3:-}" = --one-args ]; then
  set -- --one "$4" "$5"
fi
SANITIZER=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
# cuBLASLt: the runtime tries the sonames and /usr/local/cuda/lib64; else
# take the first copy on the machine (e.g. a Python wheel's).
if [ -z "${MLXRT_LIBCUBLASLT:-}" ] && ! ldconfig -p | grep -q 'libcublasLt.so.1[23] ' &&
   [ ! -e /usr/local/cuda/lib64/libcublasLt.so.13 ] && [ ! -e /usr/local/cuda/lib64/libcublasLt.so.12 ]; then
  MLXRT_LIBCUBLASLT=$(find /usr /opt -name 'libcublasLt.so.1[23]' 2>/dev/null | head -1)
  export MLXRT_LIBCUBLASLT
fi

# One case in one mode (run in parallel below): prints "PASS|FAIL <mode>
# <name>: <last line>" and logs failures in full.
if [ "${1:-}" = --one ]; then
  mode=$2; case=$3; name=$(basename "$case")
  # Each mode writes its outputs in a folder of its own (links to the
  # case's files): modes of one case run at the same time.
  work=${TMPDIR:-/tmp}/mlxc-gpu-suite/$mode/$name
  rm -rf "$work" && mkdir -p "$work" && ln -s "$case"/* "$work/"
  verify() { python3 "$SUITE/check.py" x --workdir "$work" --verify --device=cuda 2>&1; }
  case $mode in
    unified|ptx|cubin-only) out=$(verify) ;;
    random) out=$(MLXC_RUN_ARGS="--repeat 3" verify) ;;
    random-copy) out=$(MLXRT_NO_UNIFIED=1 MLXC_RUN_ARGS="--repeat 3" verify) ;;
    copy) out=$(MLXRT_NO_UNIFIED=1 verify) ;;
    repeat) out=$(MLXC_RUN_ARGS="--repeat 3" verify) ;;
    copy-repeat) out=$(MLXRT_NO_UNIFIED=1 MLXC_RUN_ARGS="--repeat 3" verify) ;;
    nograph) out=$(MLXRT_NO_GRAPH=1 MLXC_RUN_ARGS="--repeat 3" verify) ;;
    copy-nograph) out=$(MLXRT_NO_UNIFIED=1 MLXRT_NO_GRAPH=1 MLXC_RUN_ARGS="--repeat 3" verify) ;;
    ptx-needed)
      # Must fail: the PTX is broken and no cubin fits.
      out=$(verify)
      if [ $? -ne 0 ] && echo "$out" | grep -q "cuModuleLoadDataEx"; then
        out="ok: failed as expected: $(echo "$out" | grep -o 'cuModuleLoadDataEx[^:]*:[^:]*' | head -1)"; true
      else
        false
      fi ;;
    lm|lm-copy|lm-memcheck)
      # A language model of test/LM: the greedy tokens of the C++ program
      # and of the Python package on the GPU must be mlx-lm's. lm-memcheck:
      # the C++ program under the sanitizer.
      mem=auto; [ "$mode" = lm-copy ] && mem=copy
      wrap=(); [ "$mode" = lm-memcheck ] && wrap=("$SANITIZER" --tool memcheck --error-exitcode 97 --leak-check full)
      want=$(cat "$case/expected.txt")
      args=("$case/out" --prompt "$(cat "$case/prompt.txt")" -n "$(wc -w < "$case/expected.txt")" --device cuda --memory "$mem")
      cpp=$(${wrap[@]+"${wrap[@]}"} "$SUITE/lm/generate" "${args[@]}" 2>&1); cpp_rc=$?
      py=$want; py_rc=0
      if [ "$mode" != lm-memcheck ]; then
        py=$(PYTHONPATH="$SUITE/lm/python" MLXC_RUNTIME="$SUITE/lm/runtime/lib/libmlxrt.so" \
             python3 -m mlxc.lm generate "${args[@]}" 2>&1); py_rc=$?
      fi
      out=$(echo "mlx-lm: $want; C++: $cpp; Python: $py" | tr '\n' ' ')
      [ $cpp_rc -eq 0 ] && [ $py_rc -eq 0 ] && [ "$py" = "$want" ] &&
        [ "$(echo "$cpp" | grep -xE '[0-9]+( [0-9]+)*')" = "$want" ] ;;
    memcheck|racecheck)
      # The sanitizer wraps the executable; check.py compares the outputs.
      # --repeat 2: a direct run, a captured one and a graph replay.
      # racecheck: shared-memory hazards of the row, split-product and
      # attention kernels.
      tool=(--tool memcheck --leak-check full)
      [ "$mode" = racecheck ] && tool=(--tool racecheck)
      cp "$case/model" "$work/model.$mode"
      printf '#!/bin/sh\nexec %s %s --error-exitcode 97 "%s" "$@"\n' \
        "$SANITIZER" "${tool[*]}" "$work/model.$mode" > "$work/model.sanitized"
      chmod +x "$work/model.sanitized"
      out=$(MLXC_RUN_ARGS="--repeat 2" python3 - "$SUITE/check.py" "$work" <<'PY' 2>&1
import importlib.util, os, sys
spec = importlib.util.spec_from_file_location("check", sys.argv[1])
check = importlib.util.module_from_spec(spec); spec.loader.exec_module(check)
err = check.verify(sys.argv[2], "cuda", os.path.join(sys.argv[2], "model.sanitized"))
print(err or "ok"); sys.exit(1 if err else 0)
PY
      ) ;;
  esac
  if [ $? -eq 0 ]; then
    echo "PASS $mode $name: $(echo "$out" | tail -1)"
  else
    echo "FAIL [$mode] $name: $out" > "$LOG/fail.$mode.$name.txt"
    echo "FAIL $mode $name: $(echo "$out" | tail -1)"
  fi
  exit 0
fi

{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | sed 's/^/gpu: /'
  echo "libcublasLt: ${MLXRT_LIBCUBLASLT:-(default search)}"
} > "$LOG/summary.txt"

# Every mode over its folder of cases, 12 processes at a time (one GPU).
# Memcheck only on the cases with products, attention and reductions;
# racecheck on those with the shared-memory kernels (attention, a decode
# step).
MEMCHECK="decode-cache-copy norm-prologue softmax-cluster-rows flash-attention decode-attention matmul-float32 matmul-float16 matmul-bfloat16 matmul-mixed mlp fast-sdpa-float16 softmax reduce-float32 scatter sort random-bits fast-sdpa-sinks attention-masks-sinks mlxfn-llama_layer_f32 mlxfn-llama_decode_step mlxfn-cnn mlxfn-quantized_linear_4bit"
RACECHECK="decode-cache-copy norm-prologue softmax-cluster-rows flash-attention decode-attention attention-masks-sinks vector-products sibling-products softmax fast-sdpa-float16 reduce-float32 mlxfn-llama_decode_step"
jobs=()
for spec in repeat:cases copy-repeat:cases nograph:cases copy-nograph:cases \
            ptx:ptx cubin-only:cubin-only ptx-needed:ptx-needed \
            random:random random-copy:random; do
  mode=${spec%%:*}; dir=${spec#*:}
  [ -d "$SUITE/$dir" ] || continue
  for case in "$SUITE/$dir"/*/; do jobs+=("$mode ${case%/}"); done
done
for name in $MEMCHECK; do
  [ -d "$SUITE/cases/$name" ] && jobs+=("memcheck $SUITE/cases/$name")
done
for name in $RACECHECK; do
  [ -d "$SUITE/cases/$name" ] && jobs+=("racecheck $SUITE/cases/$name")
done
for case in "$SUITE"/lm/cases/*/; do
  [ -d "$case" ] && jobs+=("lm ${case%/}" "lm-copy ${case%/}")
done
[ -d "$SUITE/lm/cases/gemma3_text" ] && jobs+=("lm-memcheck $SUITE/lm/cases/gemma3_text")
if [ -n "${SKIP_MODES:-}" ]; then
  kept=()
  for job in "${jobs[@]}"; do
    [[ " $SKIP_MODES " == *" ${job%% *} "* ]] || kept+=("$job")
  done
  jobs=("${kept[@]}")
  echo "modes left out (SKIP_MODES): $SKIP_MODES" >> "$LOG/summary.txt"
fi
printf '%s\n' "${jobs[@]}" | xargs -P 12 -L 1 bash "$0" "$SUITE" "$LOG" --one-args \
  > "$LOG/cases.txt" 2>&1
cat "$LOG"/fail.*.txt > "$LOG/failures.txt" 2>/dev/null
modes=$(awk '{print $2}' "$LOG/cases.txt" | sort -u)
for mode in $modes; do
  p=$(grep -c "^PASS $mode " "$LOG/cases.txt"); f=$(grep -c "^FAIL $mode " "$LOG/cases.txt")
  echo "e2e $mode: $p passed, $f failed" >> "$LOG/summary.txt"
done

# Launch-bound graphs: median of 500 runs with and without CUDA graphs.
for name in mlp softmax fast-sdpa-float16 matmul-float32; do
  [ -d "$SUITE/cases/$name" ] || continue
  python3 - "$SUITE/cases/$name" <<'PY' >> "$LOG/summary.txt" 2>&1
import json, os, re, subprocess, sys
case = sys.argv[1]
spec = json.load(open(os.path.join(case, "case.json")))
line = []
for mode, env in (("graph", {}), ("no graph", {"MLXRT_NO_GRAPH": "1"})):
    run = subprocess.run([os.path.join(case, "model"), "--device=cuda", "--repeat", "500"]
                         + spec["args"], cwd=case, capture_output=True, text=True,
                         env={**os.environ, **env})
    m = re.search(r"median ([0-9.]+) ms", run.stdout)
    line.append(f"{mode} {m.group(1)} ms" if m else f"{mode} FAILED {run.stderr.strip()}")
print(f"time {os.path.basename(case)} (median of 500): " + ", ".join(line))
PY
done

# The runtime's unit tests (in the first part of a split suite only).
unit_rc=
if [ -e "$SUITE/MlxrtTests" ]; then
  "$SUITE/MlxrtTests" > "$LOG/unit.txt" 2>&1
  unit_rc=$?
  echo "runtime unit tests: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$LOG/unit.txt" | tr '\n' ' ')" >> "$LOG/summary.txt"
fi
cat "$LOG/summary.txt"
total_passed=$(grep -c '^PASS ' "$LOG/cases.txt"); total_failed=$(grep -c '^FAIL ' "$LOG/cases.txt")
# The unit tests count as one case: a failing one fails the suite.
if [ "$unit_rc" = 0 ]; then total_passed=$((total_passed + 1)); elif [ -n "$unit_rc" ]; then total_failed=$((total_failed + 1)); fi
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
