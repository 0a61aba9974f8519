"""Runs `python -m mlxc ARGS` (a script, as lit would substitute the tool's
path for the word mlxc)."""
import runpy
import sys

sys.argv[0] = "python -m mlxc"
runpy.run_module("mlxc", run_name="__main__", alter_sys=True)
