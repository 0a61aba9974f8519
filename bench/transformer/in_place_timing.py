# A/B timing of the decode executables with and without --in-place (the caches
# donated), alternating: python3 build-gpu/transformer/in_place_timing.py W8 W9
import os, sys, tempfile, subprocess, re
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_gpu, specs
run_gpu.DEV = "cuda"
here = os.path.dirname(os.path.abspath(__file__))
for wl in sys.argv[1:]:
    z = specs.sizes(False)[wl]; sp = specs.input_specs(wl, z)
    ins = specs.generate_all(wl, z, {})
    tmp = tempfile.mkdtemp()
    exe = os.path.join(here, wl)
    for rnd in range(2):
        for ip in (False, True):
            r, _, in_args = run_gpu.run_mlxc(exe, wl, z, ins, sp, tmp, 50, in_place=ip)
            print(wl, "in-place" if ip else "copy    ", r["median_ms"], flush=True)
