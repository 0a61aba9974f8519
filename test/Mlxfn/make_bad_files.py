#!/usr/bin/env python3
"""Writes damaged and unsupported .mlxfn files into DIR for errors.test."""

import os
import sys

import numpy as np
import mlx.core as mx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mlxfn_writer import Function, boolean, i32, u64, vec_i32, write  # noqa: E402

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def path(name):
    return os.path.join(out, name)


# A real export, then copies cut short inside the header, inside the tape and
# inside a constant's data.
w = mx.random.normal((64, 16))
mx.eval(w)
mx.export_function(path("good.mlxfn"), lambda x: x @ w, mx.ones((2, 64)))
data = open(path("good.mlxfn"), "rb").read()
for name, size in (("cut_header", 10), ("cut_tape", 120),
                   ("cut_constant", len(data) - 100)):
    open(path(name + ".mlxfn"), "wb").write(data[:size])
open(path("trailing.mlxfn"), "wb").write(data + b"\0\0\0")


def simple(version="0.32.4", op="Exp", state=b"", dtype="float32"):
    fn = Function()
    x = fn.input((3,), dtype)
    fn.outputs = [fn.op(op, [x], state, (3,), dtype)]
    return fn


write(path("old_version.mlxfn"), [simple()], version="0.28.0")
write(path("new_version.mlxfn"), [simple()], version="0.33.0")
write(path("unknown_primitive.mlxfn"), [simple(op="Frobnicate")])
write(path("no_mlx_op.mlxfn"), [simple(op="Eig", state=b"\0")])
# A Hadamard transform of a size MLX's kernels do not take (3).
write(path("bad_hadamard.mlxfn"),
      [simple(op="Hadamard", state=b"\0\0\x80\x3f")])
write(path("complex.mlxfn"), [simple(op="Tanh", dtype="complex64")])
# A bool field holding 7.
write(path("bad_bool.mlxfn"), [simple(op="Softmax", state=b"\x07")])
# A vector count far larger than the file.
write(path("huge_count.mlxfn"), [simple(op="Squeeze", state=u64(1 << 60))])
# A tape entry whose input was never defined.
fn = Function()
x = fn.input((3,), "float32")
fn.outputs = [fn.op("Exp", [x + 1], b"", (3,), "float32")]
write(path("undefined_input.mlxfn"), [fn])
# MLX's shapes and mlxc's inference disagree (Exp of [3] recorded as [4]).
fn = Function()
x = fn.input((3,), "float32")
fn.outputs = [fn.op("Exp", [x], b"", (4,), "float32")]
write(path("wrong_shape.mlxfn"), [fn])
# x.at[0:3].add(v) whose update is not of the slice's shape.
fn = Function()
x, v = fn.input((4,), "float32"), fn.input((2,), "float32")
state = i32(2) + vec_i32([0]) + vec_i32([3]) + vec_i32([1])
fn.outputs = [fn.op("SliceUpdate", [x, v], state, (4,), "float32")]
write(path("slice_add_shape.mlxfn"), [fn])
# x[mask] = v with a mask of another shape than x.
fn = Function()
x, m = fn.input((1, 4), "float32"), fn.input((1, 3), "bool")
v = fn.input((1, 4), "float32")
fn.outputs = [fn.op("MaskedScatter", [x, m, v], b"", (1, 4), "float32")]
write(path("masked_scatter_shape.mlxfn"), [fn])
# Primitives whose inputs the file leaves out.
for name, op in (("copy_no_input", "Copy"), ("slice_no_input", "Slice"),
                 ("depends_short", "Depends")):
    fn = Function()
    x = fn.input((3,), "float32")
    state = vec_i32([0]) * 3 if op == "Slice" else b""
    inputs = [x] if op == "Depends" else []
    fn.outputs = fn.op(op, inputs, state, [(3,), (3,)], ["float32"] * 2,
                       outputs=2) if op == "Depends" else \
        [fn.op(op, inputs, state, (3,), "float32")]
    write(path(name + ".mlxfn"), [fn])
# A primitive name with control bytes (the message escapes them), a dtype
# whose item size disagrees with its value (float32 recorded as 2 bytes),
# and a file named .mlxfn whose header is not one (the reader's message, not
# the MLIR parser's).
write(path("control_bytes_name.mlxfn"), [simple(op="Ex\x01p\x7f")])
write(path("bad_item_size.mlxfn"), [simple()])
data = open(path("bad_item_size.mlxfn"), "rb").read()
float32 = i32(10) + bytes([4])
assert float32 in data
open(path("bad_item_size.mlxfn"), "wb").write(
    data.replace(float32, i32(10) + bytes([2]), 1))
open(path("not_mlxfn.mlxfn"), "wb").write(b"\x06\0\0\0\0\0\0\0\xff\xfe\x01\x02\x03\x04" * 4)
