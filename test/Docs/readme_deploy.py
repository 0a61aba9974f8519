#!/usr/bin/env python3
"""Runs the README's Deploy lines as a user would from the repository's root.

  readme_deploy.py README.md SRC_ROOT OBJ_ROOT WORKDIR

Takes the ```sh block under "## Deploy" and runs it with bash in WORKDIR,
where build/, examples/ and python/ stand for the build and the sources.
`pip install ./python` is the one step not run: the package is put on
PYTHONPATH instead (a test installs nothing). Then checks what the lines
wrote: the shared object's result against examples/mlp_inputs.py's float64
reference, and the static library with its header."""

import os
import re
import subprocess
import sys

import numpy as np

readme, src, obj, work = sys.argv[1:5]
text = open(readme).read()
block = re.search(r"^## Deploy\n.*?```sh\n(.*?)```", text, re.S | re.M)
if not block:
    sys.exit("README: no ```sh block under ## Deploy")
lines = block.group(1)
pip = "pip install ./python && "
if pip not in lines:
    sys.exit(f"README's Deploy block no longer says '{pip}'")
lines = lines.replace(pip, "")

os.makedirs(work, exist_ok=True)
for name, target in (("build", obj), ("examples", os.path.join(src, "examples")),
                     ("python", os.path.join(src, "python"))):
    link = os.path.join(work, name)
    if not os.path.lexists(link):
        os.symlink(os.path.abspath(target), link)
env = dict(os.environ, PYTHONPATH=os.path.join(os.path.abspath(src), "python"))
run = subprocess.run(["bash", "-e", "-c", lines], cwd=work, env=env,
                     capture_output=True, text=True)
sys.stdout.write(run.stdout)
if run.returncode != 0:
    sys.exit(f"README's Deploy lines failed ({run.returncode}):\n{lines}\n"
             f"{run.stderr}")

y = np.load(os.path.join(work, "y.npy"))
want = np.load(os.path.join(work, "expected.npy"))
if y.shape != want.shape or not np.allclose(y, want, rtol=1e-4, atol=1e-5):
    sys.exit(f"libmlp.so: max error {abs(y - want).max()}")
for name in ("libmlp.a", "mlp.h"):
    if not os.path.isfile(os.path.join(work, name)):
        sys.exit(f"README's Deploy lines wrote no {name}")
print("README Deploy lines: ok")
