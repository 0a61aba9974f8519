"""The CUDA path of the C API, through the Python package, on the host
stand-in of libcuda and libcublasLt (test/Runtime/FakeCuda.c): a CUDA model
(--target=cuda --emit=shared, products only) called on "cuda" with the
driver libraries named in the options (no environment variable), in the
unified and the copy mode; outputs must match numpy exactly, the trace
callback must see each call's phases, and repeated calls on the same arrays
are replayed as a CUDA graph. Usage: cuda_on_fake.py DIR FAKECUDA."""
import os
import sys

import numpy as np

import mlxc

d, fake = sys.argv[1:3]
x, w, v, b = (np.load(os.path.join(d, f"{n}.npy")) for n in "xwvb")
want = (x @ w.T, v @ b)

for memory in ("auto", "copy"):
    events = []
    rt = mlxc.Instance(device="cuda", memory=memory, libcuda=fake,
                       libcublaslt=fake,
                       trace=lambda kind, ms, text, n: events.append(kind))
    assert rt.device.startswith("cuda:0"), rt.device
    m = rt.load(os.path.join(d, "libproducts.so"))
    assert m.has_cuda
    m.bind(w=w, b=b)  # Resident weights.
    xa, va = rt.array(x), rt.array(v)
    for call in range(3):
        y, z = m.call(xa, va)
        assert np.array_equal(y.numpy(), want[0]), (memory, call, y.numpy())
        assert np.array_equal(z.numpy(), want[1]), (memory, call)
        del y, z  # Released: the next call reuses the model's arrays.
    assert events.count("program") == 3, events
    assert events.count("inputs_placed") == 3, events
    assert events.count("outputs_placed") == 3, events
    # Resident arrays: in copy mode the four inputs are copied once, not per
    # call; each output moves to the host once, when read.
    assert events.count("to_device") == (4 if memory == "copy" else 0), events
    assert events.count("to_host") == 6, events
    # A call may return before its program ends; synchronize waits for all
    # (and so reports their trace).
    outs = [m.call(xa, va) for _ in range(2)]
    rt.synchronize()
    assert events.count("program") == 5, events
    assert np.array_equal(outs[1][0].numpy(), want[0])
    print(memory, "ok")
