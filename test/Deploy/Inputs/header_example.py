"""Writes the usage example at the top of runtime/mlxrt_api.h as the body of
a C function (`...` dropped), so that a compiler checks it (clang-format once
re-wrapped it into text that was no C).   header_example.py HEADER OUT.c"""
import re
import sys

text = open(sys.argv[1]).read()
top = text.split("#ifndef", 1)[0]
lines = [m.group(1) for m in re.finditer(r"^//   (.*)$", top, re.M)]
if len(lines) < 10:
    sys.exit(f"{sys.argv[1]}: no usage example at the top")
body = "\n".join("  " + l for l in lines if l.strip() != "...")
with open(sys.argv[2], "w") as f:
    f.write('#include "runtime/mlxrt_api.h"\n\n'
            "void example(mlxrt_array *x) {\n  float y[80];\n" + body + "\n}\n")
