"""One model called from 4 Python threads, 1,000 calls each, every result
checked against numpy (without the instance's lock: 11 to 38 wrong results
a run, and a segfault in one run of seven). Usage: python_threads.py DIR
(with libmlp.so of examples/mlp.mlir, libstep.so and make_inputs.py's
weights.safetensors) [--no-lock: the check that the test can fail]."""
import contextlib
import sys
import threading

import numpy as np

import mlxc

d = sys.argv[1]
rt = mlxc.Instance(device="cpu")
if "--no-lock" in sys.argv:
    rt._lock = contextlib.nullcontext()
mlp = rt.load(f"{d}/libmlp.so")
step = rt.load(f"{d}/libstep.so")
mlp.bind_file(f"{d}/weights.safetensors")
w = {name: a.numpy().astype(np.float64) for name, a in mlp.bound.items()}
CALLS, THREADS = 1000, 4
wrong, done, errors = [], [0] * THREADS, []


def mlp_reference(x):
    h = x.astype(np.float64) @ w["arg1"].T + w["arg2"]
    g = 0.5 * h * (1 + np.tanh(0.7978845608 * (h + 0.044715 * h ** 3)))
    return g @ w["arg3"].T + w["arg4"]


def work(t):
    rng = np.random.default_rng(t)
    try:
        for i in range(CALLS):
            x = rng.standard_normal((8, 64)).astype(np.float32)
            if i % 2:
                ok = np.abs(mlp(x) - mlp_reference(x)).max() < 1e-4
            else:
                # Arrays kept in the runtime, read after the call returned;
                # the step's state donated.
                xs = rng.standard_normal(4).astype(np.float32)
                state = rng.standard_normal((3, 4)).astype(np.float32)
                held = rt.array(state)
                y, s = step.call(xs, held, outputs={"state_out": held})
                want = 0.5 * state + xs
                ok = s is held and np.allclose(s.numpy(), want, atol=1e-6) \
                    and np.allclose(y.numpy(), want.sum(axis=1), atol=1e-5)
            if not ok:
                wrong.append((t, i))
            done[t] += 1
    except Exception as e:  # Reported below, with the counts.
        errors.append(f"thread {t}: {type(e).__name__}: {e}")


threads = [threading.Thread(target=work, args=(t,)) for t in range(THREADS)]
for th in threads:
    th.start()
for th in threads:
    th.join()
print(f"{sum(done)} calls, {len(wrong)} wrong, {len(errors)} errors")
assert not errors, errors[:3]
assert sum(done) == CALLS * THREADS, done
assert not wrong, wrong[:10]
print("ok")
