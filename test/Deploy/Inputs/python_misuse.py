"""What a careless caller gives the Python package: each is an mlxc.Error
naming the problem, and nothing changes. Usage: python_misuse.py DIR (with
libstep.so)."""
import sys

import numpy as np

import mlxc

d = sys.argv[1]
rt = mlxc.Instance(device="cpu")
step = rt.load(f"{d}/libstep.so")


def refused(fn, message):
    try:
        fn()
    except mlxc.Error as e:
        assert message in str(e), f"{message!r} not in {str(e)!r}"
        return
    except Exception as e:
        raise AssertionError(f"{type(e).__name__} instead of mlxc.Error for "
                             f"{message!r}: {e}")
    raise AssertionError(f"no error for {message!r}")


# Array.write converts only what survives (it stored inf, the real part
# and 3.0 without a word).
a = rt.array(np.arange(4, dtype=np.float32))
ints = rt.array(np.arange(4, dtype=np.int32))
for value, message in [
        (np.array([1e300, 1 + 2j, "3", 4]), "expected float32 [4], got <U"),
        ([1e300, 0, 0, 0], "a value does not fit float32"),
        ([1 + 2j, 0, 0, 0], "complex values for a float32 array"),
        (["3", "1", "2", "0"], "(strings or objects)"),
        (np.zeros(4, np.float64), "expected float32 [4], got float64"),
        ([1, 2, 3], "expected float32 [4], got float32 [3]")]:
    refused(lambda: a.write(value), message)
    assert (a.numpy() == np.arange(4, dtype=np.float32)).all(), a.numpy()
refused(lambda: ints.write([1.5, 0, 0, 0]), "a value does not fit int32")
refused(lambda: ints.write([2**40, 0, 0, 0]), "a value does not fit int32")
assert (ints.numpy() == np.arange(4)).all()
# What survives is written: rounded floats, whole numbers, inf as inf.
a.write([0.1, 2, float("inf"), -3])
assert (a.numpy() == np.array([0.1, 2, np.inf, -3], np.float32)).all()
ints.write([1.0, 2, 3, -4])
assert (ints.numpy() == [1, 2, 3, -4]).all()

# The call path, by the same rule.
state = np.zeros((3, 4), np.float32)
refused(lambda: step([1e300, 0, 0, 0], state),
        "input 'x': a value does not fit float32")
refused(lambda: step(["1", "2", "3", "4"], state), "(strings or objects)")
y, s = step([1, 2, 3, 4], state)
assert (s == np.array([1, 2, 3, 4], np.float32)).all(), s

# outputs= that is no list or dict of arrays (IndexError, AttributeError).
x = np.ones(4, np.float32)
refused(lambda: step.call(x, state, outputs=[None] * 3),
        "has 2 outputs, got 3 in outputs=")
refused(lambda: step.call(x, state, outputs=np.zeros((3, 4), np.float32)),
        "outputs= takes a dict by output name or a list")
refused(lambda: step.call(x, state, outputs=[np.zeros(3, np.float32)]),
        "output 'y': outputs= takes mlxc.Array (or None), got ndarray")
refused(lambda: step.call(x, state, outputs={"y": 3}),
        "output 'y': outputs= takes mlxc.Array (or None), got int")
y, = step.call(x, state, outputs=[None, rt.array(state)])[:1]
assert (y.numpy() == 4).all(), y.numpy()

# Instance options of the wrong type (AttributeError).
refused(lambda: mlxc.Instance(device=None), "device must be 'auto'")
refused(lambda: mlxc.Instance(device=0), "got 0")
refused(lambda: mlxc.Instance(device="cpu", libcuda=3),
        "libcuda must be a path")

# A truncated model (SIGBUS in dlopen).
with open(f"{d}/libstep.so", "rb") as f:
    lib = f.read()
with open(f"{d}/half.so", "wb") as f:
    f.write(lib[:len(lib) // 2])
refused(lambda: rt.load(f"{d}/half.so"), "half.so': truncated")
print("ok")
