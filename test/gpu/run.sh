#!/usr/bin/env bash
# Runs the prepared GPU suite (test/gpu/prepare.sh) on a CUDA machine: every
# E2E case on the GPU in unified-memory mode, in copy mode
# (MLXRT_NO_UNIFIED=1) and under compute-sanitizer memcheck, plus the
# runtime's unit tests. Nothing is built here.
#   run.sh [SUITE_DIR] [LOG_DIR]
set -uo pipefail
SUITE=$(cd "${1:-$(dirname "$0")}" && pwd)
LOG=${2:-$SUITE/logs}
mkdir -p "$LOG"
SANITIZER=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | sed 's/^/gpu: /'
} > "$LOG/summary.txt"

declare -A passed failed
for mode in unified copy memcheck; do
  passed[$mode]=0; failed[$mode]=0
  for case in "$SUITE"/cases/*/; do
    name=$(basename "$case")
    case $mode in
      unified) out=$(python3 "$SUITE/check.py" x --workdir "$case" --verify --device=cuda 2>&1) ;;
      copy) out=$(MLXRT_NO_UNIFIED=1 python3 "$SUITE/check.py" x --workdir "$case" --verify --device=cuda 2>&1) ;;
      memcheck)
        # The sanitizer wraps the executable; check.py compares the outputs.
        cp "$case/model" "$case/model.bin"
        printf '#!/bin/sh\nexec %s --tool memcheck --error-exitcode 97 --leak-check full "%s" "$@"\n' \
          "$SANITIZER" "$case/model.bin" > "$case/model.sanitized"
        chmod +x "$case/model.sanitized"
        out=$(python3 - "$SUITE/check.py" "$case" <<'PY' 2>&1
import importlib.util, os, sys
spec = importlib.util.spec_from_file_location("check", sys.argv[1])
check = importlib.util.module_from_spec(spec); spec.loader.exec_module(check)
err = check.verify(sys.argv[2], "cuda", os.path.join(sys.argv[2], "model.sanitized"))
print(err or "ok"); sys.exit(1 if err else 0)
PY
        ) ;;
    esac
    if [ $? -eq 0 ]; then
      passed[$mode]=$((passed[$mode] + 1))
    else
      failed[$mode]=$((failed[$mode] + 1))
      echo "FAIL [$mode] $name: $out" >> "$LOG/failures.txt"
    fi
    echo "[$mode] $name: $(echo "$out" | tail -1)" >> "$LOG/cases.txt"
  done
  echo "e2e $mode: ${passed[$mode]} passed, ${failed[$mode]} failed" >> "$LOG/summary.txt"
done

"$SUITE/MlxrtTests" > "$LOG/unit.txt" 2>&1
echo "runtime unit tests: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$LOG/unit.txt" | tr '\n' ' ')" >> "$LOG/summary.txt"
cat "$LOG/summary.txt"
total_failed=$((failed[unified] + failed[copy] + failed[memcheck]))
echo "$(( passed[unified] + passed[copy] + passed[memcheck] )) passed, $total_failed failed"
[ $total_failed -eq 0 ]
