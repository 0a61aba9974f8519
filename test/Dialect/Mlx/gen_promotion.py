#!/usr/bin/env python3
# Generates promotion.mlir, the test of the mlx dialect's result dtypes
# against MLX's own answers. Kept for reference; lit does not run it (lit
# only collects .mlir and .test files).
#
# Regenerate (with MLX installed, `import mlx.core as mx`):
#
#   python3 test/Dialect/Mlx/gen_promotion.py > test/Dialect/Mlx/promotion.mlir
#
# For every pair of MLX's 13 dtypes the script asks MLX for the result dtype
# of mx.add (promote_types), mx.divide (float rule) and mx.left_shift (shift
# rule: integers and bool only; pairs on which MLX raises are left out), and
# for every single dtype the result dtype of mx.sum (bool/int8/int16 widen to
# int32, uint8/uint16 to uint32), mx.cumsum (bool becomes int32) and mx.sqrt
# (float rule). It writes one function per first dtype and op, holding that
# op in pretty form (so mlx-opt infers the result type while parsing), and a
# CHECK line with MLX's answer for the generically printed op.

import sys

import mlx.core as mx

# (MLX dtype, MLIR element type), in MLX's order.
DTYPES = [
    (mx.bool_, "i1"),
    (mx.uint8, "ui8"),
    (mx.uint16, "ui16"),
    (mx.uint32, "ui32"),
    (mx.uint64, "ui64"),
    (mx.int8, "i8"),
    (mx.int16, "i16"),
    (mx.int32, "i32"),
    (mx.int64, "i64"),
    (mx.float16, "f16"),
    (mx.bfloat16, "bf16"),
    (mx.float32, "f32"),
    (mx.float64, "f64"),
]
TO_MLIR = {str(dtype): name for dtype, name in DTYPES}


def mlir_dtype(dtype):
    return TO_MLIR[str(dtype)]


def result_dtype(fn, *dtypes):
    """MLX's result dtype of fn on 1-D arrays of `dtypes`, or None when MLX
    rejects the dtypes."""
    args = [mx.zeros((2,), dtype=dtype) for dtype in dtypes]
    try:
        out = fn(*args)
    except (ValueError, RuntimeError, TypeError):
        return None
    return out.dtype


def tensor(elem, shape="2x"):
    return f"tensor<{shape}{elem}>"


BINARY = [
    ("add", mx.add),
    ("divide", mx.divide),
    ("left_shift", mx.left_shift),
]

# (op, MLX function, attributes of the mlx op, result shape of a [2] input)
# `keepdims = false` is spelled out for mlx.sum: with the attribute left to
# its default, mlx-opt (as of this writing) crashes while inferring the type
# of the pretty form (the parse-time adaptor sees no default for it).
UNARY = [
    ("sum", mx.sum, " {keepdims = false}", ""),
    ("cumsum", lambda x: mx.cumsum(x, axis=0), " {axis = 0 : i64}", "2x"),
    ("sqrt", mx.sqrt, "", "2x"),
]


def main():
    out = []
    emit = out.append
    emit(f"// Generated from MLX {mx.__version__} by gen_promotion.py; do not "
         "edit.")
    emit("// Regenerate: python3 test/Dialect/Mlx/gen_promotion.py > "
         "test/Dialect/Mlx/promotion.mlir")
    emit("// Each CHECK line is MLX's own result dtype for the op and dtypes.")
    emit("")
    emit("// RUN: mlx-opt %s --mlir-print-op-generic | FileCheck %s")

    rejected = {}
    for op, fn in BINARY:
        for lhs, lhs_name in DTYPES:
            rows = []
            for rhs, rhs_name in DTYPES:
                res = result_dtype(fn, lhs, rhs)
                if res is None:
                    rejected.setdefault(f"{op}({lhs_name}, _)", []).append(
                        rhs_name)
                    continue
                rows.append((rhs_name, mlir_dtype(res)))
            if not rows:
                continue
            name = f"{op}_{lhs_name}"
            params = ", ".join([f"%x: {tensor(lhs_name)}"] + [
                f"%y{i}: {tensor(rhs_name)}"
                for i, (rhs_name, _) in enumerate(rows)
            ])
            emit("")
            emit(f'// CHECK-LABEL: sym_name = "{name}"')
            emit(f"func.func @{name}({params}) {{")
            for i, (rhs_name, res_name) in enumerate(rows):
                emit(f'  // CHECK: "mlx.{op}"(%{{{{.*}}}}, %{{{{.*}}}}) : '
                     f"({tensor(lhs_name)}, {tensor(rhs_name)}) -> "
                     f"{tensor(res_name)}")
                emit(f"  %r{i} = mlx.{op} %x, %y{i} : {tensor(lhs_name)}, "
                     f"{tensor(rhs_name)}")
            emit("  return")
            emit("}")

    for op, fn, attrs, res_shape in UNARY:
        rows = []
        for dtype, dtype_name in DTYPES:
            res = result_dtype(fn, dtype)
            if res is None:
                rejected.setdefault(f"{op}(_)", []).append(dtype_name)
                continue
            rows.append((dtype_name, mlir_dtype(res)))
        params = ", ".join(f"%x{i}: {tensor(dtype_name)}"
                           for i, (dtype_name, _) in enumerate(rows))
        emit("")
        emit(f'// CHECK-LABEL: sym_name = "{op}"')
        emit(f"func.func @{op}({params}) {{")
        for i, (dtype_name, res_name) in enumerate(rows):
            emit(f'  // CHECK: "mlx.{op}"(%{{{{.*}}}}){{{{.*}}}} : '
                 f"({tensor(dtype_name)}) -> {tensor(res_name, res_shape)}")
            emit(f"  %r{i} = mlx.{op} %x{i}{attrs} : {tensor(dtype_name)}")
        emit("  return")
        emit("}")

    if rejected:
        emit("")
        emit("// MLX rejects these dtypes, so they are not tested here:")
        for call, names in rejected.items():
            emit(f"//   {call} with _ = {' '.join(names)}")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
