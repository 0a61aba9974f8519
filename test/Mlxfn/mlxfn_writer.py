"""A writer of the .mlxfn layout (per ../shared/MLXFN.md), for tests only.

MLX's CPU build never emits the fused primitives (RMSNorm, LayerNorm, RoPE,
ScaledDotProductAttention, Quantize) that a GPU export holds, nor the
layouts of older MLX releases. This writer makes such files so the importer's
handling of them is tested; MLX itself computes the reference outputs. The
layout of the current release is checked against MLX: `mx.import_function`
loads what this writer produces (test `writer_roundtrip`).
"""

import struct

import numpy as np

DTYPES = {  # name: (Dtype::Val, itemsize)
    "bool": (0, 1), "uint8": (1, 1), "uint16": (2, 2), "uint32": (3, 4),
    "uint64": (4, 8), "int8": (5, 1), "int16": (6, 2), "int32": (7, 4),
    "int64": (8, 8), "float16": (9, 2), "float32": (10, 4), "float64": (11, 8),
    "bfloat16": (12, 2), "complex64": (13, 8),
}


def u64(v): return struct.pack("<Q", v)
def i32(v): return struct.pack("<i", v)
def f32(v): return struct.pack("<f", v)
def f64(v): return struct.pack("<d", v)
def boolean(v): return struct.pack("<B", 1 if v else 0)
def string(s): return u64(len(s.encode())) + s.encode()
def vec_i32(v): return u64(len(v)) + b"".join(i32(x) for x in v)
def vec_u64(v): return u64(len(v)) + b"".join(u64(x) for x in v)


def dtype(name):
    val, size = DTYPES[name]
    return i32(val) + struct.pack("<B", size)


def version_tuple(version):
    return tuple(int("".join(c for c in p if c.isdigit()) or 0)
                 for p in version.split(".")[:3])


class Function:
    """One traced function; nodes are added in topological order."""

    def __init__(self):
        self.next_id = 1000
        self.inputs = []     # (id, shape, dtype)
        self.kwargs = []     # keyword names of the trailing inputs
        self.tape = []       # bytes of each entry, built at write time
        self.outputs = []
        self.constants = {}  # id -> (shape, dtype, raw bytes)

    def _id(self):
        self.next_id += 8
        return self.next_id

    def input(self, shape, dt):
        i = self._id()
        self.inputs.append((i, tuple(shape), dt))
        self.tape.append(("input", i))
        return i

    def constant(self, array, dt=None):
        array = np.ascontiguousarray(array)
        dt = dt or str(array.dtype)
        i = self._id()
        self.constants[i] = (array.shape, dt, array.tobytes())
        self.tape.append(("constant", i))
        return i

    def op(self, name, inputs, params, shape, dt, outputs=1):
        """params: bytes of the state (use the helpers above)."""
        ids = [self._id() for _ in range(outputs)]
        shapes = shape if outputs > 1 else [shape]
        dts = dt if outputs > 1 else [dt]
        self.tape.append(("op", ids, name, list(inputs), params, shapes, dts))
        return ids if outputs > 1 else ids[0]

    def encode(self, written):
        out = u64(len(self.kwargs)) + b"".join(string(k) for k in self.kwargs)
        out += vec_u64([i for i, _, _ in self.inputs])
        out += u64(len(self.inputs)) + b"".join(
            vec_i32(s) + dtype(d) for _, s, d in self.inputs)
        out += vec_u64(self.outputs) + u64(len(self.tape))
        for entry in self.tape:
            if entry[0] == "input":
                out += u64(entry[1]) + boolean(False) + boolean(False)
            elif entry[0] == "constant":
                i = entry[1]
                out += u64(i) + boolean(False) + boolean(True)
                if i not in written:
                    shape, dt, raw = self.constants[i]
                    out += vec_i32(shape) + dtype(dt) + raw
                    written.add(i)
            else:
                _, ids, name, inputs, params, shapes, dts = entry
                out += u64(ids[0]) + boolean(True) + vec_u64(inputs)
                out += i32(0) + i32(0) + i32(0)  # stream 0 on the CPU
                out += string(name) + params
                if len(ids) == 1:
                    out += u64(0) + vec_i32(shapes[0]) + dtype(dts[0])
                else:
                    out += u64(len(ids) - 1) + vec_u64(ids)
                    out += u64(len(ids)) + b"".join(vec_i32(s) for s in shapes)
                    out += u64(len(ids)) + b"".join(dtype(d) for d in dts)
        return out


def write(path, functions, version="0.32.4", shapeless=False, metadata=""):
    data = string(version) + i32(len(functions)) + boolean(shapeless)
    if version_tuple(version) >= (0, 32, 1):
        data += string(metadata)
    written = set()
    for fn in functions:
        data += fn.encode(written)
    with open(path, "wb") as f:
        f.write(data)
    return data
