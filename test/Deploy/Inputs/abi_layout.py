"""Checks that the Python package's ctypes mirrors of the runtime's C types
match the C headers: every field's offset and size, each structure's size,
MAX_RANK, and the order of the enums the package lists by name.

Usage: abi_layout.py SRC_ROOT WORK_DIR. A C program built from the headers
prints the C side; any difference is printed and the exit status is 1."""

import ctypes
import os
import subprocess
import sys

src_root, work = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(src_root, "python"))
import mlxc  # noqa: E402

STRUCTS = [
    (mlxc._Err, "mlxrt_error"),
    (mlxc._Tensor, "mlxrt_tensor"),
    (mlxc._Param, "mlxrt_param"),
    (mlxc._Signature, "mlxrt_signature"),
    (mlxc._TraceEvent, "mlxrt_trace_event"),
    (mlxc._Options, "mlxrt_instance_options"),
]
# (Python list of names, C prefix): the list's i-th name is C's value i.
ENUMS = [
    (mlxc._DTYPES, "MLXRT_DTYPE_"),
    (mlxc._TRACE_KINDS, "MLXRT_TRACE_"),
]

lines = ['#include "runtime/mlxrt.h"', '#include "runtime/mlxrt_api.h"',
         "#include <stddef.h>", "#include <stdio.h>", "int main(void) {",
         '  printf("const MAX_RANK %d\\n", (int)MLXRT_MAX_RANK);']
for py, c in STRUCTS:
    lines.append(f'  printf("size {c} %zu\\n", sizeof({c}));')
    for field in py._fields_:
        name = field[0]
        lines.append(f'  printf("field {c}.{name} %zu %zu\\n", '
                     f'offsetof({c}, {name}), sizeof((({c} *)0)->{name}));')
for names, prefix in ENUMS:
    for name in names:
        c = prefix + name.upper()
        lines.append(f'  printf("enum {c} %d\\n", (int){c});')
lines += ["  return 0;", "}"]
source = os.path.join(work, "layout.c")
with open(source, "w") as f:
    f.write("\n".join(lines) + "\n")
exe = os.path.join(work, "layout")
subprocess.run(["cc", "-I", src_root, "-o", exe, source], check=True)
c_side = subprocess.run([exe], check=True, capture_output=True,
                        text=True).stdout.split("\n")

py_side = [f"const MAX_RANK {mlxc.MAX_RANK}"]
for py, c in STRUCTS:
    py_side.append(f"size {c} {ctypes.sizeof(py)}")
    for field in py._fields_:
        d = getattr(py, field[0])
        py_side.append(f"field {c}.{field[0]} {d.offset} {d.size}")
for names, prefix in ENUMS:
    for i, name in enumerate(names):
        py_side.append(f"enum {prefix + name.upper()} {i}")

wrong = [(p, c) for p, c in zip(py_side, c_side) if p != c]
for p, c in wrong:
    print(f"python: {p}\n     c: {c}")
print(f"{len(py_side)} checked, {len(wrong)} differ")
sys.exit(1 if wrong or len(py_side) != len([x for x in c_side if x]) else 0)
