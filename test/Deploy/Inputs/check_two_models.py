"""Checks the output of two_models.c (or two_models.cpp, --cpp: mlp and
scores only, each printed twice) against MLX on the same inputs."""
import sys

import mlx.core as mx
import numpy as np

d = sys.argv[1]
lines = {}
for line in sys.stdin.read().splitlines():
    for label in ("mlp", "scores", "step y", "step state", "typed", "models",
                  "bound"):
        if line.startswith(label + " "):
            lines.setdefault(label, []).append(line[len(label) + 1:])
            break


def values(label, i=0):
    return np.array([float(v) for v in lines[label][i].split()])


def close(got, want, what, tol=1e-5):
    want = np.asarray(want, np.float64).reshape(-1)
    assert got.shape == want.shape, (what, got.shape, want.shape)
    err = float(np.abs(got - want).max())
    assert err < tol, f"{what}: max error {err}"


cpp = "--cpp" in sys.argv
assert lines["models"] == ["mlp scores" if cpp else "mlp scores step"], \
    lines["models"]
assert lines["bound"] == ["4"], lines["bound"]
calls = 2 if cpp else 1
assert len(lines["mlp"]) == calls and len(lines["scores"]) == calls, lines

x = mx.array(((np.arange(8 * 64) % 7) * 0.1).astype(np.float32).reshape(8, 64))
w = mx.load(f"{d}/weights.safetensors")
h = mx.addmm(w["arg2"], x, w["arg1"].T)
g = 0.5 * h * (1 + mx.tanh(0.7978845608 * (h + 0.044715 * h * h * h)))
for i in range(calls):
    close(values("mlp", i), np.array(mx.addmm(w["arg4"], g, w["arg3"].T)),
          "mlp", 1e-4)

q = mx.array(np.load(f"{d}/q.npy"))
k = mx.array(np.load(f"{d}/kv.npz")["k"])
for i in range(calls):
    close(values("scores", i),
          np.array(mx.softmax((q @ k.T) * 0.35355339, axis=-1)), "scores")
if cpp:
    print("ok")
    sys.exit(0)

xs = mx.array([1.0, 2.0, 3.0, 4.0])
state = mx.zeros((3, 4))
for t in range(3):
    state = 0.5 * state + xs
    close(values("step y", t), np.array(mx.sum(state, axis=1)), f"step {t}")
close(values("step state"), np.array(state), "state")

qt = mx.ones((4, 8))
kt = mx.array((np.arange(48) % 6).astype(np.float32).reshape(6, 8))
pt = np.array(mx.softmax((qt @ kt.T) * 0.35355339, axis=-1)).reshape(-1)
close(values("typed"), pt[[0, 5]], "typed")
print("ok")
