"""The Python package (python/mlxc) on two compiled shared models: numpy and
MLX arrays in, numpy out, weights bound by name, a donated state, bad calls.
Usage: use_package.py DIR (with libmlp.so, libstep.so and the inputs of
make_inputs.py)."""
import sys

import mlx.core as mx
import numpy as np

import mlxc

d = sys.argv[1]
notes = []
rt = mlxc.Instance(device="cpu",
                   trace=lambda kind, ms, text, n: notes.append(kind))
assert rt.device == "cpu", rt.device
mlp = rt.load(f"{d}/libmlp.so")
step = rt.load(f"{d}/libstep.so")
assert (mlp.name, step.name) == ("mlp", "step"), (mlp.name, step.name)
assert mlp.inputs[0] == ("arg0", np.dtype("float32"), (8, 64)), mlp.inputs
assert [o[0] for o in step.outputs] == ["y", "state_out"], step.outputs
assert not mlp.has_cuda

# Weights bound once from the file mx.save_safetensors wrote; x per call.
assert mlp.bind_file(f"{d}/weights.safetensors") == ["arg1", "arg2", "arg3",
                                                      "arg4"]
w = mx.load(f"{d}/weights.safetensors")
for trial in range(2):
    x = mx.random.normal((8, 64), key=mx.random.key(trial))
    h = mx.addmm(w["arg2"], x, w["arg1"].T)
    g = 0.5 * h * (1 + mx.tanh(0.7978845608 * (h + 0.044715 * h * h * h)))
    want = np.array(mx.addmm(w["arg4"], g, w["arg3"].T))
    got = mlp(x)  # An MLX array goes in as it is.
    assert isinstance(got, np.ndarray) and got.shape == (8, 10), got
    assert np.abs(got - want).max() < 1e-4, np.abs(got - want).max()
    got = mlp(arg0=np.array(x))
    assert np.abs(got - want).max() < 1e-4

# A state kept in the runtime and donated from call to call.
xs = np.array([1, 2, 3, 4], np.float32)
state = rt.array(np.zeros((3, 4), np.float32))
ref = np.zeros((3, 4), np.float32)
for t in range(4):
    y, out = step.call(xs, state, outputs={"state_out": state})
    assert out is state
    ref = 0.5 * ref + xs
    assert np.allclose(y.numpy(), ref.sum(axis=1)), (y.numpy(), ref)
assert np.allclose(state.numpy(), ref)
assert np.allclose(np.asarray(state), ref)
y, s = step(xs, ref)
assert np.allclose(s, 0.5 * ref + xs)

# Bad calls: a clear error, nothing changed.
for args, kwargs, message in [
        ((np.zeros(5, np.float32), state), {}, "input 'x': expected float32 [4]"),
        ((xs.astype(np.float64), state), {}, "expected float32 [4], got float64"),
        ((xs,), {}, "input 'state' is missing"),
        ((xs, state), {"z": xs}, "has no input 'z'")]:
    try:
        step.call(*args, **kwargs)
        raise AssertionError(f"no error for {message}")
    except mlxc.Error as e:
        assert message in str(e), str(e)
# Binding checks the input's dtype and shape at once, for values and arrays.
for value in (np.zeros(3, np.float32), rt.array(np.zeros((3, 4), np.int32))):
    try:
        step.bind(state=value)
        raise AssertionError("bound an array of another type")
    except mlxc.Error as e:
        assert "input 'state': expected float32 [3, 4], got " in str(e), str(e)
assert "state" not in step.bound
wrong = rt.array(np.zeros((4, 3), np.float32))
try:
    step.call(xs, state, outputs={"state_out": wrong})
    raise AssertionError("no error for a wrong output")
except mlxc.Error as e:
    assert e.status == "type mismatch", e.status
    assert "output 'state_out': expected float32 [3, 4], got float32 [4, 3]" \
        in str(e), str(e)
assert np.allclose(state.numpy(), ref)
try:
    rt.load(f"{d}/weights.safetensors")
    raise AssertionError("loaded a non-model")
except mlxc.Error as e:
    assert "cannot load" in str(e), str(e)
print("ok")
