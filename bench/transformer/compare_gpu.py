# Several executables of one decode workload side by side (a planner or
# lowering variant against main), on the GPU machine: each run in copy mode
# with CUDA-graph replay, with and without donated caches (--in-place),
# median of 50; each output compared with the first executable's (the
# caches entry by entry).
#   python3 build-gpu/transformer/compare_gpu.py W8 EXE_A EXE_B ...
# Variants come from compiling the workload's .mlxfn with each mlxc, e.g.
#   BUILD/bin/mlxc build-gpu/transformer/W8.mlxfn --target=cuda \
#     --gpu-arch=sm_90 -o build-gpu/transformer/W8.variant
import os, shutil, sys, tempfile
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_gpu, specs

run_gpu.DEV = "cuda"
wl, exes = sys.argv[1], sys.argv[2:]
z = specs.sizes(False)[wl]
sp = specs.input_specs(wl, z)
ins = specs.generate_all(wl, z, {})
first = None
for exe in exes:
    for in_place in (False, True):
        tmp = tempfile.mkdtemp()
        try:
            res, got, _ = run_gpu.run_mlxc(os.path.abspath(exe), wl, z, ins, sp, tmp, 50, in_place=in_place)
        except Exception as e:  # report and go on with the next one
            print(f"{exe} in_place={in_place}: failed: {str(e)[-400:]}", flush=True)
            shutil.rmtree(tmp, ignore_errors=True)
            continue
        outs = {o: np.asarray(a, dtype=np.float32) for o, a in got.items()}
        if first is None:
            first = outs
        diff = float(np.max(np.abs(outs["out0"] - first["out0"])) /
                     (np.max(np.abs(first["out0"])) + 1e-30))
        # The updated caches, every entry: equal to the first executable's.
        caches = sorted(o for o in outs if o != "out0")
        unequal = [o for o in caches if not np.array_equal(outs[o], first[o])]
        print(f"{exe} in_place={in_place}: median {res['median_ms']:.4f} ms, "
              f"rel-diff vs the first {diff:.2e}, caches "
              f"{'equal' if not unequal else 'DIFFER: ' + ' '.join(unequal)} "
              f"({len(caches)})", flush=True)
        shutil.rmtree(tmp, ignore_errors=True)
