#!/usr/bin/env python3
"""Runs every mlxc test through lit and prints one `N passed, N failed` line.

lit collects the regression tests and the GoogleTest unit tests alike; this
script only adds the summary line CI reads and the exit status.
"""

import json
import os
import subprocess
import sys
import tempfile

PASS = {"PASS", "XFAIL"}
SKIP = {"UNSUPPORTED", "SKIPPED"}


LIT = "/usr/lib/llvm-22/bin/lit"


def run_lit(paths, env=None, extra=()):
    """Runs lit on `paths`; returns (test results, exit code)."""
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "lit.json")
        cmd = [sys.executable, LIT, "-sv", "-o", report] + list(paths) + \
            list(extra)
        run = subprocess.run(cmd, env=env)
        if not os.path.exists(report):
            return [{"name": " ".join(paths), "code": "FAIL"}], 1
        with open(report) as f:
            return json.load(f)["tests"], run.returncode


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    asan = sys.argv[2] if len(sys.argv) > 2 else None
    tests, rc = run_lit([os.path.join(build, "test"),
                         os.path.join(build, "test", "Unit")])
    if asan:
        # The runtime under ASan + UBSan: its unit tests, and the CPU E2E
        # suite linked against it.
        env = dict(os.environ)
        env["MLXC_EXTRA_ARGS"] = (
            f"--runtime-dir={os.path.abspath(os.path.join(asan, 'lib'))} "
            "--link-arg=-fsanitize=address,undefined")
        env["ASAN_OPTIONS"] = "detect_leaks=1:allocator_may_return_null=1"
        env["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1"
        more, rc2 = run_lit([os.path.join(asan, "test", "Unit"),
                             os.path.join(build, "test", "E2E")], env=env)
        for t in more:
            t["name"] = "asan: " + t["name"]
        tests += more
        rc = rc or rc2
    run = subprocess.CompletedProcess([], rc)
    passed = sum(t["code"] in PASS for t in tests)
    skipped = sum(t["code"] in SKIP for t in tests)
    failed = len(tests) - passed - skipped
    line = f"{passed} passed, {failed} failed"
    if skipped:
        line += f", {skipped} skipped"
    print(line)
    return 0 if failed == 0 and passed > 0 and run.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
