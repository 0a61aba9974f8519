#!/usr/bin/env python3
"""Writes seed inputs for the fuzzers into DIR/{npy,npz,safetensors,mlxfn}.
Array seeds start with the mode byte ArrayReaderFuzzer.c reads first."""

import io
import json
import os
import struct
import sys
import zipfile

import numpy as np

out = sys.argv[1]
for sub in ("npy", "npz", "safetensors", "mlxfn"):
    os.makedirs(os.path.join(out, sub), exist_ok=True)


def npy_bytes(a):
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue()


arrays = [np.arange(16, dtype=np.float32).reshape(4, 4),
          np.ones((2, 3), np.float16), np.array(3, np.int64),
          np.zeros((4, 4), ">f4"), np.arange(6, dtype=np.uint8),
          # Fortran order (reordered on load) and bfloat16 as '|V2'.
          np.asfortranarray(np.arange(24, dtype=np.int16).reshape(2, 3, 4)),
          np.frombuffer(b"\x80\x3f" * 6, "V2").reshape(2, 3)]
for i, a in enumerate(arrays):
    for mode in range(3):
        open(os.path.join(out, "npy", f"{i}-{mode}"), "wb").write(
            bytes([mode]) + npy_bytes(a))
        for comp in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, "w", comp) as z:
                z.writestr("x.npy", npy_bytes(a))
                z.writestr("y.npy", npy_bytes(a[..., :1] if a.ndim else a))
            open(os.path.join(out, "npz", f"{i}-{mode}-{comp}"), "wb").write(
                bytes([mode]) + buf.getvalue())
        names = {np.dtype("float32"): "F32", np.dtype("float16"): "F16",
                 np.dtype("int64"): "I64", np.dtype("uint8"): "U8"}
        if a.dtype in names:
            data = a.tobytes()
            # Two tensors, the second's data first: the layout check sorts.
            n = len(data)
            header = json.dumps({"__metadata__": {"k": "v"},
                                 "x": {"dtype": names[a.dtype],
                                       "shape": list(a.shape),
                                       "data_offsets": [n, 2 * n]},
                                 "y": {"dtype": names[a.dtype],
                                       "shape": list(a.shape),
                                       "data_offsets": [0, n]}}).encode()
            open(os.path.join(out, "safetensors", f"{i}-{mode}"), "wb").write(
                bytes([mode]) + struct.pack("<Q", len(header)) + header +
                data + data)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "Mlxfn"))
import mlx.core as mx  # noqa: E402
import fused  # noqa: E402

w = mx.arange(12, dtype=mx.float32).reshape(3, 4)
mx.export_function(os.path.join(out, "mlxfn", "mlp.mlxfn"),
                   lambda x: (mx.maximum(x @ w, 0).sum(axis=1),),
                   mx.ones((2, 3)))
for name in ("fused_rope", "fused_sdpa_mask", "layout_v0_29_0",
             "layout_v0_31_1"):
    fused.SYNTHESIZED[name](os.path.join(out, "mlxfn", name + ".mlxfn"))
