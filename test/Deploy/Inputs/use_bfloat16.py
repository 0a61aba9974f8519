"""The Python package with a bfloat16 model: MLX bfloat16 arrays go in as
they are (numpy reads neither their buffer nor their DLPack capsule), numpy
results come back as bfloat16 (ml_dtypes) or its uint16 bits, and go in
again as they came out. Usage: use_bfloat16.py DIR (with libscale_bf16.so)."""
import sys

import mlx.core as mx
import numpy as np

import mlxc

rt = mlxc.Instance(device="cpu")
model = rt.load(f"{sys.argv[1]}/libscale_bf16.so")
x = mx.random.normal((4, 8), key=mx.random.key(0)).astype(mx.bfloat16)
b = mx.random.normal((8,), key=mx.random.key(1)).astype(mx.bfloat16)


def bits(a):
    """uint16 bits of a bfloat16 array, MLX's or numpy's."""
    if isinstance(a, mx.array):
        return np.array(a.view(mx.uint16))
    return np.asarray(a).view(np.uint16)


want = 2 * x + b
got = model(x, b)
assert got.shape == (4, 8) and got.dtype.itemsize == 2, got.dtype
assert np.array_equal(bits(got), bits(want)), (bits(got), bits(want))

# The result goes in again; so do the raw bits of an MLX array.
again = model(got, bits(b))
assert np.array_equal(bits(again), bits(2 * want + b))
y = model.call(x=x, b=b)[0]  # Kept in the runtime.
assert np.array_equal(bits(y.numpy()), bits(want))

# Other 16-bit dtypes are not bfloat16.
for wrong, message in [(np.zeros((4, 8), np.float16), "expected bfloat16 [4, 8], got float16"),
                       (np.zeros((4, 8), np.int16), "expected bfloat16 [4, 8], got int16"),
                       (x.astype(mx.float32), "expected bfloat16 [4, 8], got float32")]:
    try:
        model(wrong, b)
        raise AssertionError(f"no error for {message}")
    except mlxc.Error as e:
        assert message in str(e), str(e)
print("ok")
