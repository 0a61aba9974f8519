"""The Python package with a bfloat16 model: MLX bfloat16 arrays go in as
they are (numpy reads neither their buffer nor their DLPack capsule), numpy
results come back as bfloat16 (ml_dtypes) or, without it, float32 of the
same values (never raw uint16 bits), and go in again as they came out.
Usage: use_bfloat16.py DIR (with libscale_bf16.so)."""
import sys

import mlx.core as mx
import numpy as np

import mlxc

rt = mlxc.Instance(device="cpu")
model = rt.load(f"{sys.argv[1]}/libscale_bf16.so")
x = mx.random.normal((4, 8), key=mx.random.key(0)).astype(mx.bfloat16)
b = mx.random.normal((8,), key=mx.random.key(1)).astype(mx.bfloat16)


try:
    import ml_dtypes
    numpy_bf16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:
    numpy_bf16 = np.dtype(np.float32)


def bits(a):
    """uint16 bits of a bfloat16 array, MLX's or numpy's (float32 values:
    their upper half)."""
    if isinstance(a, mx.array):
        return np.array(a.view(mx.uint16))
    a = np.asarray(a)
    if a.dtype == np.float32:
        wide = a.view(np.uint32)
        assert not np.any(wide & 0xFFFF), "float32 values beyond bfloat16"
        return (wide >> 16).astype(np.uint16)
    return a.view(np.uint16)


want = 2 * x + b
got = model(x, b)
assert got.shape == (4, 8) and got.dtype == numpy_bf16, got.dtype
assert np.array_equal(bits(got), bits(want)), (bits(got), bits(want))
assert np.array_equal(np.asarray(got, np.float32),
                      np.array(want.astype(mx.float32)))

# The result goes in again; so do the raw bits of an MLX array.
again = model(got, bits(b))
assert np.array_equal(bits(again), bits(2 * want + b))
y = model.call(x=x, b=b)[0]  # Kept in the runtime.
assert y.dtype == numpy_bf16 and y.numpy().dtype == numpy_bf16
assert np.array_equal(bits(y.numpy()), bits(want))
# An array made from it, or written from its values, stays bfloat16.
copy = rt.array(y)
assert np.array_equal(bits(model(copy, b)), bits(2 * want + b))
y.write(y.numpy())
assert np.array_equal(bits(y.numpy()), bits(want))

# Other 16-bit dtypes are not bfloat16.
for wrong, message in [(np.zeros((4, 8), np.float16), "expected bfloat16 [4, 8], got float16"),
                       (np.zeros((4, 8), np.int16), "expected bfloat16 [4, 8], got int16"),
                       (np.full((4, 8), 0.1, np.float32),
                        "expected bfloat16 [4, 8], got float32 values that "
                        "bfloat16 does not hold exactly"),
                       (np.zeros((4, 8), np.float64), "expected bfloat16 [4, 8], got float64")]:
    try:
        model(wrong, b)
        raise AssertionError(f"no error for {message}")
    except mlxc.Error as e:
        assert message in str(e), str(e)
print("ok")
