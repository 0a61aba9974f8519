#!/usr/bin/env python3
"""Runs every mlxc test through lit and prints one
`N passed, N failed, N skipped` line.

lit collects the regression tests and the GoogleTest unit tests alike; this
script only adds the summary line CI reads and the exit status. Results come
from lit's xUnit report, which (unlike its JSON report) keeps the tests that
did not run: unsupported lit tests and GoogleTest's GTEST_SKIP (the GPU unit
tests on a machine without a GPU). The E2E and Mlxfn suites also check their
PTX with ptxas where the CUDA toolkit has one; without it, each such check
counts as skipped.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET


LIT = "/usr/lib/llvm-22/bin/lit"


def run_lit(paths, env=None, extra=()):
    """Runs lit on `paths`; returns ([{name, code}], exit code), code one of
    PASS, FAIL, SKIP."""
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "lit.xml")
        cmd = [sys.executable, LIT, "-sv", "--xunit-xml-output", report] + \
            list(paths) + list(extra)
        run = subprocess.run(cmd, env=env)
        if not os.path.exists(report):
            return [{"name": " ".join(paths), "code": "FAIL"}], 1
        tests = []
        for case in ET.parse(report).getroot().iter("testcase"):
            code = "PASS"
            if case.find("failure") is not None:
                code = "FAIL"
            elif case.find("skipped") is not None:
                code = "SKIP"
            tests.append({"name": case.get("classname") + "/" +
                          case.get("name"), "code": code})
        return tests, run.returncode


def ptxas_found():
    """As test/E2E/lit.local.cfg looks for it."""
    return bool(shutil.which("ptxas")) or \
        os.path.exists("/usr/local/cuda/bin/ptxas")


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
    if not ptxas_found():
        # Each E2E and Mlxfn test would also have assembled its PTX.
        checked = [t for t in tests if not t["name"].startswith("asan") and
                   ("E2E" in t["name"] or "Mlxfn" in t["name"]) and
                   t["code"] == "PASS"]
        print(f"ptxas not found: the PTX checks of {len(checked)} E2E and "
              "Mlxfn tests were skipped")
        tests += [{"name": "ptxas: " + t["name"], "code": "SKIP"}
                  for t in checked]
    passed = sum(t["code"] == "PASS" for t in tests)
    skipped = sum(t["code"] == "SKIP" for t in tests)
    failed = len(tests) - passed - skipped
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 0 if failed == 0 and passed > 0 and rc == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
