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


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    lit = "/usr/lib/llvm-22/bin/lit"
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "lit.json")
        cmd = [sys.executable, lit, "-sv", "-o", report,
               os.path.join(build, "test"),
               os.path.join(build, "test", "Unit")] + sys.argv[2:]
        run = subprocess.run(cmd)
        if not os.path.exists(report):
            print("0 passed, 1 failed (lit did not run)")
            return 1
        with open(report) as f:
            tests = json.load(f)["tests"]
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
