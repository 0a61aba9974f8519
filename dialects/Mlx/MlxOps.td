//===- MlxOps.td - mlx dialect ops --------------------------*- tablegen -*-===//
//
// One op per MLX primitive. Families share a class from MlxBase.td; the
// shape and dtype rules live in C++ (TypePromotion.cpp and the *Ops.cpp file
// of each family).
//
//===----------------------------------------------------------------------===//

#ifndef MLX_OPS_TD
#define MLX_OPS_TD

include "MlxBase.td"

//===----------------------------------------------------------------------===//
// Unary elementwise
//===----------------------------------------------------------------------===//

def Mlx_AbsOp : Mlx_UnaryOp<"abs", Mlx_PromoteDtype, "abs"> {
  let mlxPrimitive = "Abs";
  let hasFolder = 1;
}
def Mlx_NegativeOp : Mlx_UnaryOp<"negative", Mlx_NumericDtype, "negative"> {
  let mlxPrimitive = "Negative";
  let hasFolder = 1;
}
def Mlx_SignOp : Mlx_UnaryOp<"sign", Mlx_PromoteDtype, "sign"> {
  let mlxPrimitive = "Sign";
}
def Mlx_FloorOp : Mlx_UnaryOp<"floor", Mlx_PromoteDtype, "floor"> {
  let mlxPrimitive = "Floor";
}
def Mlx_CeilOp : Mlx_UnaryOp<"ceil", Mlx_PromoteDtype, "ceil"> {
  let mlxPrimitive = "Ceil";
}
def Mlx_RoundOp : Mlx_UnaryOp<"round", Mlx_PromoteDtype, "round"> {
  let mlxPrimitive = "Round";
  let description = [{
    Rounds half to even, as MLX's `mx.round` with `decimals=0` (MLX lowers
    other `decimals` to multiply/round/divide).

    ```mlir
    %y = mlx.round %x : tensor<4xf32>
    ```
  }];
}
def Mlx_SqrtOp : Mlx_UnaryOp<"sqrt", Mlx_FloatDtype, "sqrt">;
def Mlx_RsqrtOp : Mlx_UnaryOp<"rsqrt", Mlx_FloatDtype, "rsqrt">;
def Mlx_SquareOp : Mlx_UnaryOp<"square", Mlx_PromoteDtype, "square"> {
  let mlxPrimitive = "Square";
}
def Mlx_ExpOp : Mlx_UnaryOp<"exp", Mlx_FloatDtype, "exp"> {
  let mlxPrimitive = "Exp";
}
def Mlx_Expm1Op : Mlx_UnaryOp<"expm1", Mlx_FloatDtype, "expm1"> {
  let mlxPrimitive = "Expm1";
}
def Mlx_LogOp : Mlx_UnaryOp<"log", Mlx_FloatDtype, "log">;
def Mlx_Log2Op : Mlx_UnaryOp<"log2", Mlx_FloatDtype, "log2">;
def Mlx_Log10Op : Mlx_UnaryOp<"log10", Mlx_FloatDtype, "log10">;
def Mlx_Log1pOp : Mlx_UnaryOp<"log1p", Mlx_FloatDtype, "log1p"> {
  let mlxPrimitive = "Log1p";
}
def Mlx_SinOp : Mlx_UnaryOp<"sin", Mlx_FloatDtype, "sin"> {
  let mlxPrimitive = "Sin";
}
def Mlx_CosOp : Mlx_UnaryOp<"cos", Mlx_FloatDtype, "cos"> {
  let mlxPrimitive = "Cos";
}
def Mlx_TanOp : Mlx_UnaryOp<"tan", Mlx_FloatDtype, "tan"> {
  let mlxPrimitive = "Tan";
}
def Mlx_SinhOp : Mlx_UnaryOp<"sinh", Mlx_FloatDtype, "sinh"> {
  let mlxPrimitive = "Sinh";
}
def Mlx_CoshOp : Mlx_UnaryOp<"cosh", Mlx_FloatDtype, "cosh"> {
  let mlxPrimitive = "Cosh";
}
def Mlx_TanhOp : Mlx_UnaryOp<"tanh", Mlx_FloatDtype, "tanh"> {
  let mlxPrimitive = "Tanh";
}
def Mlx_ArcsinOp : Mlx_UnaryOp<"arcsin", Mlx_FloatDtype, "arcsin"> {
  let mlxPrimitive = "ArcSin";
}
def Mlx_ArccosOp : Mlx_UnaryOp<"arccos", Mlx_FloatDtype, "arccos"> {
  let mlxPrimitive = "ArcCos";
}
def Mlx_ArctanOp : Mlx_UnaryOp<"arctan", Mlx_FloatDtype, "arctan"> {
  let mlxPrimitive = "ArcTan";
}
def Mlx_ArcsinhOp : Mlx_UnaryOp<"arcsinh", Mlx_FloatDtype, "arcsinh"> {
  let mlxPrimitive = "ArcSinh";
}
def Mlx_ArccoshOp : Mlx_UnaryOp<"arccosh", Mlx_FloatDtype, "arccosh"> {
  let mlxPrimitive = "ArcCosh";
}
def Mlx_ArctanhOp : Mlx_UnaryOp<"arctanh", Mlx_FloatDtype, "arctanh"> {
  let mlxPrimitive = "ArcTanh";
}
def Mlx_SigmoidOp : Mlx_UnaryOp<"sigmoid", Mlx_FloatDtype, "sigmoid"> {
  let mlxPrimitive = "Sigmoid";
}
def Mlx_ErfOp : Mlx_UnaryOp<"erf", Mlx_FloatDtype, "erf"> {
  let mlxPrimitive = "Erf";
}
def Mlx_ErfinvOp : Mlx_UnaryOp<"erfinv", Mlx_FloatDtype, "erfinv"> {
  let mlxPrimitive = "ErfInv";
}
def Mlx_LogicalNotOp : Mlx_UnaryOp<"logical_not", Mlx_BoolDtype,
                                   "logical_not"> {
  let mlxPrimitive = "LogicalNot";
}
def Mlx_BitwiseInvertOp : Mlx_UnaryOp<"bitwise_invert", Mlx_IntegerDtype,
                                      "bitwise_invert">;

//===----------------------------------------------------------------------===//
// Binary elementwise
//===----------------------------------------------------------------------===//

def Mlx_AddOp : Mlx_BinaryOp<"add", Mlx_PromoteDtype, "add", [Commutative]> {
  let mlxPrimitive = "Add";
  let hasFolder = 1;
}
def Mlx_SubtractOp : Mlx_BinaryOp<"subtract", Mlx_PromoteDtype, "subtract"> {
  let mlxPrimitive = "Subtract";
  let hasFolder = 1;
}
def Mlx_MultiplyOp : Mlx_BinaryOp<"multiply", Mlx_PromoteDtype, "multiply",
                                  [Commutative]> {
  let mlxPrimitive = "Multiply";
  let hasFolder = 1;
}
def Mlx_DivideOp : Mlx_BinaryOp<"divide", Mlx_FloatDtype, "divide"> {
  let mlxPrimitive = "Divide";
}
def Mlx_FloorDivideOp : Mlx_BinaryOp<"floor_divide", Mlx_PromoteDtype,
                                     "floor_divide"> {
  let mlxPrimitive = "FloorDivide";
}
def Mlx_RemainderOp : Mlx_BinaryOp<"remainder", Mlx_PromoteDtype, "remainder"> {
  let mlxPrimitive = "Remainder";
  let description = [{
    Python-style remainder: the result has the sign of the divisor
    (`remainder(-5, 3) == 1`), as MLX's `mx.remainder`.

    ```mlir
    %r = mlx.remainder %x, %y : tensor<4xi32>, tensor<4xi32>
    ```
  }];
}
def Mlx_PowerOp : Mlx_BinaryOp<"power", Mlx_PromoteDtype, "power"> {
  let mlxPrimitive = "Power";
}
// maximum/minimum are not Commutative: MLX returns the right operand for
// equal values, which tells -0.0 from +0.0.
def Mlx_MaximumOp : Mlx_BinaryOp<"maximum", Mlx_PromoteDtype, "maximum"> {
  let mlxPrimitive = "Maximum";
  let hasFolder = 1;
}
def Mlx_MinimumOp : Mlx_BinaryOp<"minimum", Mlx_PromoteDtype, "minimum"> {
  let mlxPrimitive = "Minimum";
  let hasFolder = 1;
}
def Mlx_LogaddexpOp : Mlx_BinaryOp<"logaddexp", Mlx_FloatDtype, "logaddexp",
                                   [Commutative]> {
  let mlxPrimitive = "LogAddExp";
}
def Mlx_Arctan2Op : Mlx_BinaryOp<"arctan2", Mlx_FloatDtype, "arctan2"> {
  let mlxPrimitive = "ArcTan2";
}
def Mlx_EqualOp : Mlx_BinaryOp<"equal", Mlx_BoolDtype, "equal",
                               [Commutative]> {
  let description = [{
    Elementwise `==` with broadcasting, as MLX's `mx.equal`; with
    `equal_nan` two NaNs compare equal (`mx.array_equal(equal_nan=True)`).

    ```mlir
    %b = mlx.equal %x, %y {equal_nan = true} : tensor<4xf32>, tensor<4xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$lhs, Mlx_Tensor:$rhs,
                       DefaultValuedAttr<BoolAttr, "false">:$equal_nan);
  let hasFolder = 1;
}
def Mlx_NotEqualOp : Mlx_BinaryOp<"not_equal", Mlx_BoolDtype, "not_equal",
                                  [Commutative]> {
  let mlxPrimitive = "NotEqual";
  let hasFolder = 1;
}
def Mlx_LessOp : Mlx_BinaryOp<"less", Mlx_BoolDtype, "less"> {
  let mlxPrimitive = "Less";
  let hasFolder = 1;
}
def Mlx_LessEqualOp : Mlx_BinaryOp<"less_equal", Mlx_BoolDtype, "less_equal"> {
  let mlxPrimitive = "LessEqual";
  let hasFolder = 1;
}
def Mlx_GreaterOp : Mlx_BinaryOp<"greater", Mlx_BoolDtype, "greater"> {
  let mlxPrimitive = "Greater";
  let hasFolder = 1;
}
def Mlx_GreaterEqualOp : Mlx_BinaryOp<"greater_equal", Mlx_BoolDtype,
                                      "greater_equal"> {
  let mlxPrimitive = "GreaterEqual";
  let hasFolder = 1;
}
def Mlx_LogicalAndOp : Mlx_BinaryOp<"logical_and", Mlx_BoolDtype,
                                    "logical_and", [Commutative]> {
  let mlxPrimitive = "LogicalAnd";
}
def Mlx_LogicalOrOp : Mlx_BinaryOp<"logical_or", Mlx_BoolDtype, "logical_or",
                                   [Commutative]> {
  let mlxPrimitive = "LogicalOr";
}
def Mlx_BitwiseAndOp : Mlx_BinaryOp<"bitwise_and", Mlx_IntegerDtype,
                                    "bitwise_and", [Commutative]>;
def Mlx_BitwiseOrOp : Mlx_BinaryOp<"bitwise_or", Mlx_IntegerDtype,
                                   "bitwise_or", [Commutative]>;
def Mlx_BitwiseXorOp : Mlx_BinaryOp<"bitwise_xor", Mlx_IntegerDtype,
                                    "bitwise_xor", [Commutative]>;
def Mlx_LeftShiftOp : Mlx_BinaryOp<"left_shift", Mlx_ShiftDtype,
                                   "left_shift">;
def Mlx_RightShiftOp : Mlx_BinaryOp<"right_shift", Mlx_ShiftDtype,
                                    "right_shift">;

def Mlx_DivmodOp : Mlx_InferredOp<"divmod"> {
  let mlxPrimitive = "DivMod";
  let summary = "floor quotient and remainder (MLX: `mx.divmod`)";
  let description = [{
    Two results: `floor_divide(x, y)` and `remainder(x, y)`, with
    broadcasting and promotion as MLX's `mx.divmod`.

    ```mlir
    %q, %r = mlx.divmod %x, %y : tensor<4xi32>, tensor<4xi32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$lhs, Mlx_Tensor:$rhs);
  let results = (outs Mlx_Tensor:$quotient, Mlx_Tensor:$remainder);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
}

//===----------------------------------------------------------------------===//
// Creation, selection, casts
//===----------------------------------------------------------------------===//

def Mlx_ConstantOp : Mlx_Op<"constant",
    [ConstantLike, Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "a constant array (MLX: a captured `mx.array`)";
  let description = [{
    A constant tensor, such as a weight captured by an exported function.

    ```mlir
    %c = mlx.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Mlx_FullOp : Mlx_Op<"full", [Pure]> {
  let mlxPrimitive = "Full";
  let summary = "broadcast a value to a shape and dtype (MLX: `mx.full`)";
  let description = [{
    Fills the result shape with `value`, broadcast with NumPy rules and cast
    to the result dtype (MLX's Full primitive).

    ```mlir
    %z = mlx.full %v : tensor<f32> -> tensor<2x3xbf16>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$value);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$value attr-dict `:` type($value) `->` type($result)";
  let hasVerifier = 1;
}

def Mlx_ArangeOp : Mlx_Op<"arange", [Pure]> {
  let summary = "evenly spaced values (MLX: `mx.arange`)";
  let description = [{
    `start, start + step, ...` below `stop`; the result length must be
    `max(ceil((stop - start) / step), 0)`.

    ```mlir
    %r = mlx.arange {start = 0.0 : f64, stop = 10.0 : f64, step = 3.0 : f64} : tensor<4xi32>
    ```
  }];
  let arguments = (ins F64Attr:$start, F64Attr:$stop,
                       DefaultValuedAttr<F64Attr, "1.0">:$step);
  let results = (outs RankedTensorOf<[Mlx_Dtype], [HasAnyRankOfPred<[1]>]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Mlx_SelectOp : Mlx_InferredOp<"select"> {
  let mlxPrimitive = "Select";
  let summary = "choose between two arrays by a condition (MLX: `mx.where`)";
  let description = [{
    `condition ? x : y` elementwise, the three broadcast together; the result
    dtype is the promotion of `x` and `y`.

    ```mlir
    %r = mlx.select %c, %x, %y : tensor<4xi1>, tensor<4xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$condition, Mlx_Tensor:$x, Mlx_Tensor:$y);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $x `,` $y attr-dict `:` type($condition) `,` type($x) `,`
    type($y)
  }];
}

def Mlx_AstypeOp : Mlx_InferredOp<"astype"> {
  let summary = "convert to another dtype (MLX: `mx.astype`)";
  let description = [{
    Value conversion: floats to ints truncate toward zero, anything to bool
    is `!= 0`.

    ```mlir
    %y = mlx.astype %x : tensor<4xf32> to bf16
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, Mlx_DtypeAttr:$dtype);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x) `to` $dtype";
  let hasFolder = 1;
}

def Mlx_ViewOp : Mlx_InferredOp<"view"> {
  let summary = "reinterpret the bytes as another dtype (MLX: `mx.view`)";
  let description = [{
    A bit cast: the last axis scales by the ratio of the item sizes (it must
    divide evenly when the new dtype is wider).

    ```mlir
    %b = mlx.view %x : tensor<2x4xf32> to ui8
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, Mlx_DtypeAttr:$dtype);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x) `to` $dtype";
}

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

def Mlx_ReshapeOp : Mlx_InferredOp<"reshape"> {
  let summary = "change the shape (MLX: `mx.reshape`)";
  let description = [{
    Row-major reshape; one entry of `shape` may be -1 and is inferred.

    ```mlir
    %y = mlx.reshape %x {shape = array<i64: 3, -1>} : tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, DenseI64ArrayAttr:$shape);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
  let hasFolder = 1;
}

def Mlx_BroadcastToOp : Mlx_InferredOp<"broadcast_to"> {
  let summary = "broadcast to a shape (MLX: `mx.broadcast_to`)";
  let description = [{
    ```mlir
    %y = mlx.broadcast_to %x {shape = array<i64: 2, 3>} : tensor<3xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, DenseI64ArrayAttr:$shape);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
  let hasFolder = 1;
}

def Mlx_TransposeOp : Mlx_InferredOp<"transpose"> {
  let summary = "permute the axes (MLX: `mx.transpose`)";
  let description = [{
    Axis `i` of the result is axis `axes[i]` of `x`.

    ```mlir
    %y = mlx.transpose %x {axes = array<i64: 1, 0>} : tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, DenseI64ArrayAttr:$axes);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
  let hasFolder = 1;
}

def Mlx_ExpandDimsOp : Mlx_InferredOp<"expand_dims"> {
  let summary = "insert axes of size 1 (MLX: `mx.expand_dims`)";
  let description = [{
    `axes` index the result (negative from its end).

    ```mlir
    %y = mlx.expand_dims %x {axes = array<i64: 0>} : tensor<3xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, DenseI64ArrayAttr:$axes);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def Mlx_SqueezeOp : Mlx_InferredOp<"squeeze"> {
  let summary = "remove axes of size 1 (MLX: `mx.squeeze`)";
  let description = [{
    Removes `axes` (every size-1 axis when absent).

    ```mlir
    %y = mlx.squeeze %x {axes = array<i64: 0>} : tensor<1x3xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, OptionalAttr<DenseI64ArrayAttr>:$axes);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def Mlx_FlattenOp : Mlx_InferredOp<"flatten"> {
  let summary = "merge a range of axes (MLX: `mx.flatten`)";
  let description = [{
    ```mlir
    %y = mlx.flatten %x {start_axis = 1 : i64, end_axis = -1 : i64} : tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, DefaultValuedAttr<I64Attr, "0">:$start_axis,
                       DefaultValuedAttr<I64Attr, "-1">:$end_axis);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def Mlx_UnflattenOp : Mlx_InferredOp<"unflatten"> {
  let summary = "split one axis into several (MLX: `mx.unflatten`)";
  let description = [{
    ```mlir
    %y = mlx.unflatten %x {axis = 1 : i64, shape = array<i64: 3, -1>} : tensor<2x12xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, I64Attr:$axis, DenseI64ArrayAttr:$shape);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def Mlx_SliceOp : Mlx_InferredOp<"slice"> {
  let summary = "strided static slice (MLX: `mx.slice`, `x[a:b:s]`)";
  let description = [{
    `start`, `stop` and `strides` have one entry per axis, as MLX's Slice
    primitive (already clamped; negative strides walk backwards).

    ```mlir
    %y = mlx.slice %x {start = array<i64: 0, 1>, stop = array<i64: 2, 3>, strides = array<i64: 1, 1>} : tensor<2x4xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, DenseI64ArrayAttr:$start,
                       DenseI64ArrayAttr:$stop, DenseI64ArrayAttr:$strides);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def Mlx_SliceUpdateOp : Mlx_InferredOp<"slice_update"> {
  let summary = "write into a strided static slice (MLX: `mx.slice_update`)";
  let description = [{
    `src` with the slice `start:stop:strides` replaced by `update` (which
    broadcasts to the slice shape). The result has the type of `src`.

    ```mlir
    %y = mlx.slice_update %x, %u {start = array<i64: 0>, stop = array<i64: 2>, strides = array<i64: 1>} : tensor<4xf32>, tensor<2xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$src, Mlx_Tensor:$update,
                       DenseI64ArrayAttr:$start, DenseI64ArrayAttr:$stop,
                       DenseI64ArrayAttr:$strides);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$src `,` $update attr-dict `:` type($src) `,` type($update)";
}

def Mlx_DynamicSliceOp : Mlx_InferredOp<"dynamic_slice"> {
  let summary = "slice at run-time offsets (MLX: `mx.slice` with an array start)";
  let description = [{
    `start` (1-D integer tensor, one entry per axis in `axes`) gives the
    offsets; `slice_size` is the static size on every axis of `x`.

    ```mlir
    %y = mlx.dynamic_slice %cache, %off {axes = array<i64: 1>, slice_size = array<i64: 2, 16>} : tensor<2x64xf32>, tensor<1xi32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, Mlx_IndexTensor:$start,
                       DenseI64ArrayAttr:$axes, DenseI64ArrayAttr:$slice_size);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x `,` $start attr-dict `:` type($x) `,` type($start)";
}

def Mlx_DynamicSliceUpdateOp : Mlx_InferredOp<"dynamic_slice_update"> {
  let summary = "write a slice at run-time offsets (MLX: `mx.slice_update` with an array start)";
  let description = [{
    `src` with `update` written at the offsets `start` on `axes` (the update
    covers its own shape). The result has the type of `src`.

    ```mlir
    %y = mlx.dynamic_slice_update %cache, %kv, %off {axes = array<i64: 1>} : tensor<2x64xf32>, tensor<2x1xf32>, tensor<1xi32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$src, Mlx_Tensor:$update,
                       Mlx_IndexTensor:$start, DenseI64ArrayAttr:$axes);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = [{
    $src `,` $update `,` $start attr-dict `:` type($src) `,` type($update) `,`
    type($start)
  }];
}

def Mlx_ConcatenateOp : Mlx_InferredOp<"concatenate"> {
  let summary = "join arrays along an axis (MLX: `mx.concatenate`)";
  let description = [{
    Inputs promote to a common dtype; all axes but `axis` must match.

    ```mlir
    %y = mlx.concatenate %a, %b {axis = 0 : i64} : tensor<2x3xf32>, tensor<1x3xf32>
    ```
  }];
  let arguments = (ins Variadic<Mlx_Tensor>:$inputs,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
}

def Mlx_SplitOp : Mlx_InferredOp<"split"> {
  let summary = "split an array at indices along an axis (MLX: `mx.split`)";
  let description = [{
    One result per piece: `len(indices) + 1` results, split before each
    (ascending) index.

    ```mlir
    %a, %b = mlx.split %x {indices = array<i64: 1>, axis = 0 : i64} : tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, DenseI64ArrayAttr:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs Variadic<Mlx_Tensor>:$results);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def Mlx_PadOp : Mlx_InferredOp<"pad"> {
  let summary = "pad with a constant (MLX: `mx.pad`, constant mode)";
  let description = [{
    Pads axis `axes[i]` with `low[i]` values before and `high[i]` after;
    `pad_value` is a scalar tensor of the dtype of `x`.

    ```mlir
    %y = mlx.pad %x, %zero {axes = array<i64: 1>, low = array<i64: 1>, high = array<i64: 2>} : tensor<2x3xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, Mlx_Tensor:$pad_value,
                       DenseI64ArrayAttr:$axes, DenseI64ArrayAttr:$low,
                       DenseI64ArrayAttr:$high);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x `,` $pad_value attr-dict `:` type($x) `,` type($pad_value)";
}

def Mlx_AsStridedOp : Mlx_InferredOp<"as_strided"> {
  let summary = "a strided view of the row-major data (MLX: `mx.as_strided`)";
  let description = [{
    Element `i` of the result reads flat element
    `offset + sum(i_k * strides[k])` of the row-major `x`; the verifier
    rejects views that reach outside `x`.

    ```mlir
    %y = mlx.as_strided %x {shape = array<i64: 3, 2>, strides = array<i64: 1, 1>, offset = 0 : i64} : tensor<4xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, DenseI64ArrayAttr:$shape,
                       DenseI64ArrayAttr:$strides,
                       DefaultValuedAttr<I64Attr, "0">:$offset);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

def Mlx_SumOp : Mlx_ReduceOp<"sum", "sum", "ReduceRule::Accumulate">;
def Mlx_ProdOp : Mlx_ReduceOp<"prod", "prod", "ReduceRule::Accumulate">;
def Mlx_MaxOp : Mlx_ReduceOp<"max", "max", "ReduceRule::Same">;
def Mlx_MinOp : Mlx_ReduceOp<"min", "min", "ReduceRule::Same">;
def Mlx_AllOp : Mlx_ReduceOp<"all", "all", "ReduceRule::Bool">;
def Mlx_AnyOp : Mlx_ReduceOp<"any", "any", "ReduceRule::Bool">;
def Mlx_LogsumexpOp : Mlx_ReduceOp<"logsumexp", "logsumexp",
                                   "ReduceRule::Float">;
def Mlx_ArgmaxOp : Mlx_ArgReduceOp<"argmax">;
def Mlx_ArgminOp : Mlx_ArgReduceOp<"argmin">;

def Mlx_SoftmaxOp : Mlx_InferredOp<"softmax"> {
  let summary = "softmax over axes (MLX: `mx.softmax`)";
  let description = [{
    `exp(x - max) / sum(exp(x - max))` over `axes` (every axis when absent).
    With `precise`, half-precision inputs accumulate in float32.

    ```mlir
    %p = mlx.softmax %x {axes = array<i64: -1>, precise = true} : tensor<2x8xbf16>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, OptionalAttr<DenseI64ArrayAttr>:$axes,
                       DefaultValuedAttr<BoolAttr, "false">:$precise);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def Mlx_CumsumOp : Mlx_ScanOp<"cumsum", "ScanRule::Sum">;
def Mlx_CumprodOp : Mlx_ScanOp<"cumprod", "ScanRule::Same">;
def Mlx_CummaxOp : Mlx_ScanOp<"cummax", "ScanRule::Same">;
def Mlx_CumminOp : Mlx_ScanOp<"cummin", "ScanRule::Same">;

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

def Mlx_GatherOp : Mlx_InferredOp<"gather"> {
  let summary = "gather slices at index arrays (MLX's Gather primitive)";
  let description = [{
    Index array `i` indexes axis `axes[i]` of `src`; the index arrays
    broadcast together to shape `B`. Each index picks a slice of size
    `slice_sizes` (one entry per axis of `src`); the result has shape
    `B ++ slice_sizes`.

    ```mlir
    %e = mlx.gather %emb[%ids] {axes = array<i64: 0>, slice_sizes = array<i64: 1, 64>} : tensor<1000x64xf32>[tensor<8xi32>]
    ```
  }];
  let arguments = (ins Mlx_Tensor:$src, Variadic<Mlx_IndexTensor>:$indices,
                       DenseI64ArrayAttr:$axes,
                       DenseI64ArrayAttr:$slice_sizes);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = [{
    $src (`[` $indices^ `]`)? attr-dict `:` type($src)
    (`[` type($indices)^ `]`)?
  }];
}

def Mlx_TakeAlongAxisOp : Mlx_InferredOp<"take_along_axis"> {
  let summary = "gather along one axis (MLX: `mx.take_along_axis`)";
  let description = [{
    `indices` broadcasts against `x` on every axis but `axis`.

    ```mlir
    %y = mlx.take_along_axis %x, %i {axis = 1 : i64} : tensor<2x3xf32>, tensor<2x1xi32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, Mlx_IndexTensor:$indices, I64Attr:$axis);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x `,` $indices attr-dict `:` type($x) `,` type($indices)";
}

def Mlx_ScatterOp : Mlx_ScatterOpBase<"scatter">;
def Mlx_ScatterAddOp : Mlx_ScatterOpBase<"scatter_add">;
def Mlx_ScatterProdOp : Mlx_ScatterOpBase<"scatter_prod">;
def Mlx_ScatterMaxOp : Mlx_ScatterOpBase<"scatter_max">;
def Mlx_ScatterMinOp : Mlx_ScatterOpBase<"scatter_min">;

class Mlx_ScatterAxisOp<string mnemonic, string what>
    : Mlx_InferredOp<mnemonic> {
  let summary = what # " values along one axis (MLX: `mx." # mnemonic # "`)";
  let description = [{
    The inverse of `take_along_axis`: `values` (broadcast to `indices`) are
    }] # what # [{ into `x` at `indices` along `axis`.

    ```mlir
    %y = mlx.}] # mnemonic # [{ %x, %i, %v {axis = 1 : i64} : tensor<2x3xf32>, tensor<2x1xi32>, tensor<2x1xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, Mlx_IndexTensor:$indices,
                       Mlx_Tensor:$values, I64Attr:$axis);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = [{
    $x `,` $indices `,` $values attr-dict `:` type($x) `,` type($indices) `,`
    type($values)
  }];
}
def Mlx_PutAlongAxisOp : Mlx_ScatterAxisOp<"put_along_axis", "written">;
def Mlx_ScatterAddAxisOp : Mlx_ScatterAxisOp<"scatter_add_axis", "added">;

def Mlx_MaskedScatterOp : Mlx_InferredOp<"masked_scatter"> {
  let mlxPrimitive = "MaskedScatter";
  let summary = "write values where a mask is true (MLX: `a[mask] = v`)";
  let description = [{
    MLX's MaskedScatter primitive. Along axis 0 of `x` (the batch), the
    elements where `mask` (of `x`'s shape) is true, in row-major order, take
    the batch's elements of `values` one after another; the others keep
    `x`'s. `values` is at least 1-D, of `x`'s dtype, with `x`'s batch size.
    Where a batch's mask has more true elements than its values, MLX raises
    an error at run time; mlxc repeats the batch's last value there.

    ```mlir
    %y = mlx.masked_scatter %x, %mask, %v : tensor<1x4x8xf32>, tensor<1x4x8xi1>, tensor<1x32xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, Mlx_BoolTensor:$mask,
                       Mlx_Tensor:$values);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = [{
    $x `,` $mask `,` $values attr-dict `:` type($x) `,` type($mask) `,`
    type($values)
  }];
}

//===----------------------------------------------------------------------===//
// Sorting
//===----------------------------------------------------------------------===//

def Mlx_SortOp : Mlx_SortOpBase<"sort", 0, 0>;
def Mlx_ArgsortOp : Mlx_SortOpBase<"argsort", 0, 1>;
def Mlx_PartitionOp : Mlx_SortOpBase<"partition", 1, 0>;
def Mlx_ArgpartitionOp : Mlx_SortOpBase<"argpartition", 1, 1>;

def Mlx_SearchSortedOp : Mlx_InferredOp<"searchsorted"> {
  let summary = "insertion points into a sorted sequence (MLX: `mx.searchsorted`)";
  let description = [{
    For each element of `values`, the index (uint32) where inserting it into
    the ascending 1-D `sorted` keeps it sorted: the first such index, or the
    last with `right`. NaN sorts after every number, as in MLX's sort. Both
    operands have one dtype (MLX's export casts them to the promoted one).
    The result has the shape of `values`.

    ```mlir
    %i = mlx.searchsorted %seq, %v {right = true} : tensor<8xf32>, tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$sorted, Mlx_Tensor:$values,
                       DefaultValuedAttr<BoolAttr, "false">:$right);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat =
      "$sorted `,` $values attr-dict `:` type($sorted) `,` type($values)";
}

//===----------------------------------------------------------------------===//
// Linear algebra and quantization
//===----------------------------------------------------------------------===//

def Mlx_MatmulOp : Mlx_InferredOp<"matmul"> {
  let mlxPrimitive = "Matmul";
  let summary = "matrix product with batch broadcasting (MLX: `mx.matmul`)";
  let description = [{
    `[..., M, K] @ [..., K, N]`; batch axes broadcast, 1-D operands are
    promoted to matrices and the added axis removed. Floating dtypes only.

    ```mlir
    %c = mlx.matmul %a, %b : tensor<4x8xbf16>, tensor<8x16xbf16>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$lhs, Mlx_Tensor:$rhs);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
}

def Mlx_AddmmOp : Mlx_InferredOp<"addmm"> {
  let summary = "`alpha * (a @ b) + beta * c` (MLX: `mx.addmm`)";
  let description = [{
    ```mlir
    %y = mlx.addmm %c, %a, %b {alpha = 1.0 : f32, beta = 1.0 : f32} : tensor<16xf32>, tensor<4x8xf32>, tensor<8x16xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$c, Mlx_Tensor:$a, Mlx_Tensor:$b,
                       DefaultValuedAttr<F32Attr, "1.0">:$alpha,
                       DefaultValuedAttr<F32Attr, "1.0">:$beta);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$c `,` $a `,` $b attr-dict `:` type($c) `,` type($a) `,` type($b)";
}

def Mlx_InverseOp : Mlx_InferredOp<"inverse"> {
  let summary = "inverse of square matrices (MLX: `mx.linalg.inv`, `tri_inv`)";
  let description = [{
    The inverse of each `[N, N]` matrix of the last two axes. With `tri`,
    the matrix is triangular (upper with `upper`, else lower): only that
    triangle is read and the other of the result is zero, as MLX's
    `tri_inv` (and `solve_triangular`, its product). float32 and float64,
    as MLX's CPU kernel. A singular matrix gives inf or NaN (MLX raises).

    ```mlir
    %y = mlx.inverse %a {tri = true, upper = true} : tensor<2x4x4xf32>
    ```
  }];
  let arguments = (ins Mlx_FloatTensor:$a,
                       DefaultValuedAttr<BoolAttr, "false">:$tri,
                       DefaultValuedAttr<BoolAttr, "false">:$upper);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$a attr-dict `:` type($a)";
}

def Mlx_CholeskyOp : Mlx_InferredOp<"cholesky"> {
  let summary = "Cholesky factor of symmetric positive definite matrices "
                "(MLX: `mx.linalg.cholesky`)";
  let description = [{
    For each `[N, N]` matrix `A` of the last two axes, the lower triangular
    `L` with `A = L @ L.T` (read from `A`'s lower triangle), or with `upper`
    the upper triangular `U` with `A = U.T @ U` (read from its upper
    triangle); the other triangle is zero. float32 and float64, as MLX's CPU
    kernel. A matrix that is not positive definite gives NaN.

    ```mlir
    %l = mlx.cholesky %a : tensor<4x4xf32>
    ```
  }];
  let arguments = (ins Mlx_FloatTensor:$a,
                       DefaultValuedAttr<BoolAttr, "false">:$upper);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$a attr-dict `:` type($a)";
}

def Mlx_QrOp : Mlx_InferredOp<"qr"> {
  let summary = "reduced QR factorization (MLX: `mx.linalg.qr`)";
  let description = [{
    For each `[M, N]` matrix `A` of the last two axes, with `k = min(M, N)`:
    `Q` `[M, k]` with orthonormal columns and upper triangular `R` `[k, N]`,
    `A = Q @ R`, by Householder reflections with LAPACK's signs (`geqrf`,
    `orgqr`: a diagonal entry of `R` has the sign opposite to the column's
    leading entry at its step), as MLX's CPU kernel. float32 and float64.

    ```mlir
    %q, %r = mlx.qr %a : tensor<5x3xf32>
    ```
  }];
  let arguments = (ins Mlx_FloatTensor:$a);
  let results = (outs Mlx_Tensor:$q, Mlx_Tensor:$r);
  let assemblyFormat = "$a attr-dict `:` type($a)";
}

def Mlx_EigvalshOp : Mlx_InferredOp<"eigvalsh"> {
  let summary = "eigenvalues of symmetric matrices (MLX: `mx.linalg.eigvalsh`)";
  let description = [{
    The eigenvalues, in ascending order, of each `[N, N]` symmetric matrix
    of the last two axes, given by its lower triangle (its upper one with
    `upper`, MLX's `UPLO="U"`): cyclic Jacobi rotations, then a sort.
    float32 and float64, as MLX's CPU kernel.

    ```mlir
    %w = mlx.eigvalsh %a : tensor<2x4x4xf32>
    ```
  }];
  let arguments = (ins Mlx_FloatTensor:$a,
                       DefaultValuedAttr<BoolAttr, "false">:$upper);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$a attr-dict `:` type($a)";
}

def Mlx_SvdvalsOp : Mlx_InferredOp<"svdvals"> {
  let summary = "singular values (MLX: `mx.linalg.svd(a, compute_uv=False)`)";
  let description = [{
    The `min(M, N)` singular values, in descending order, of each `[M, N]`
    matrix of the last two axes: one-sided Jacobi rotations of the columns
    (of the transpose when `M < N`), then their norms. float32 and float64,
    as MLX's CPU kernel.

    ```mlir
    %s = mlx.svdvals %a : tensor<5x3xf32>
    ```
  }];
  let arguments = (ins Mlx_FloatTensor:$a);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$a attr-dict `:` type($a)";
}

def Mlx_BlockMaskedMmOp
    : Mlx_InferredOp<"block_masked_mm", [AttrSizedOperandSegments]> {
  let summary = "matmul with masked blocks (MLX: `mx.block_masked_mm`)";
  let description = [{
    `mask_out * ((a * mask_lhs) @ (b * mask_rhs))` where each mask holds one
    value per `block_size` x `block_size` block of its matrix (the last
    block of an axis may be partial): `[..., ceil(M / bs), ceil(N / bs)]` for
    the output, `[..., ceil(M / bs), ceil(K / bs)]` for `a`,
    `[..., ceil(K / bs), ceil(N / bs)]` for `b`; their batch axes broadcast
    to the product's. A boolean mask zeroes the blocks it is false for; a
    float mask scales them. `mask_lhs` and `mask_rhs` come together. As
    MLX's primitive: `a` and `b` are at least 2-D, of one float dtype.

    ```mlir
    %y = mlx.block_masked_mm %a, %b mask_out(%m : tensor<2x2xi1>) {block_size = 32 : i64} : tensor<64x64xf32>, tensor<64x64xf32>
    ```
  }];
  let arguments = (ins Mlx_FloatTensor:$a, Mlx_FloatTensor:$b,
                       Optional<Mlx_Tensor>:$mask_out,
                       Optional<Mlx_Tensor>:$mask_lhs,
                       Optional<Mlx_Tensor>:$mask_rhs, I64Attr:$block_size);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = [{
    $a `,` $b (`mask_out` `(` $mask_out^ `:` type($mask_out) `)`)?
    (`mask_lhs` `(` $mask_lhs^ `:` type($mask_lhs) `)`)?
    (`mask_rhs` `(` $mask_rhs^ `:` type($mask_rhs) `)`)?
    attr-dict `:` type($a) `,` type($b)
  }];
}

def Mlx_GatherMmOp : Mlx_InferredOp<"gather_mm", [AttrSizedOperandSegments]> {
  let summary = "matmul of gathered matrices (MLX: `mx.gather_mm`)";
  let description = [{
    Like `matmul`, but the batch of `a` (and of `b`) is first indexed by
    `lhs_indices` (`rhs_indices`); the indices broadcast together and give
    the batch shape of the result.

    ```mlir
    %y = mlx.gather_mm %a, %b rhs_indices(%i : tensor<4xui32>) : tensor<4x1x8xf32>, tensor<3x8x16xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$a, Mlx_Tensor:$b,
                       Optional<Mlx_IndexTensor>:$lhs_indices,
                       Optional<Mlx_IndexTensor>:$rhs_indices,
                       DefaultValuedAttr<BoolAttr, "false">:$sorted_indices);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = [{
    $a `,` $b (`lhs_indices` `(` $lhs_indices^ `:` type($lhs_indices) `)`)?
    (`rhs_indices` `(` $rhs_indices^ `:` type($rhs_indices) `)`)?
    attr-dict `:` type($a) `,` type($b)
  }];
}

class Mlx_QuantizedOpBase<string mnemonic, list<Trait> traits = []>
    : Mlx_InferredOp<mnemonic, traits> {
  dag quantizationAttrs = (ins DefaultValuedAttr<I64Attr, "64">:$group_size,
                               DefaultValuedAttr<I64Attr, "4">:$bits,
                               DefaultValuedAttr<Mlx_QuantizationModeAttr,
                                   "::mlir::mlx::QuantizationMode::affine">:$mode);
}

def Mlx_QuantizedMatmulOp : Mlx_QuantizedOpBase<"quantized_matmul"> {
  let summary = "matmul with a quantized matrix (MLX: `mx.quantized_matmul`)";
  let description = [{
    `x @ dequantize(w).T` (or without the transpose): `w` packs `bits`-bit
    values into uint32 words; `scales` (and `biases` in affine mode) hold
    one value per `group_size` elements of the last axis.

    ```mlir
    %y = mlx.quantized_matmul %x, %w, %s, %b {transpose = true, group_size = 64 : i64, bits = 4 : i64} : tensor<5x128xf32>, tensor<64x16xui32>, tensor<64x2xf32>, tensor<64x2xf32>
    ```
  }];
  let arguments = !con((ins Mlx_Tensor:$x, Mlx_Tensor:$w, Mlx_Tensor:$scales,
                            Optional<Mlx_Tensor>:$biases,
                            DefaultValuedAttr<BoolAttr, "true">:$transpose),
                       quantizationAttrs);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = [{
    $x `,` $w `,` $scales (`,` $biases^)? attr-dict `:` type($x) `,` type($w)
    `,` type($scales) (`,` type($biases)^)?
  }];
}

def Mlx_GatherQmmOp : Mlx_QuantizedOpBase<"gather_qmm",
                                          [AttrSizedOperandSegments]> {
  let summary = "quantized matmul of gathered matrices (MLX: `mx.gather_qmm`)";
  let description = [{
    `quantized_matmul` whose batches are first indexed by `lhs_indices` and
    `rhs_indices`, as `gather_mm`.

    ```mlir
    %y = mlx.gather_qmm %x, %w, %s biases(%b : tensor<4x64x2xf32>) rhs_indices(%i : tensor<2xui32>) {group_size = 64 : i64, bits = 4 : i64} : tensor<2x1x128xf32>, tensor<4x64x16xui32>, tensor<4x64x2xf32>
    ```
  }];
  let arguments = !con((ins Mlx_Tensor:$x, Mlx_Tensor:$w, Mlx_Tensor:$scales,
                            Optional<Mlx_Tensor>:$biases,
                            Optional<Mlx_IndexTensor>:$lhs_indices,
                            Optional<Mlx_IndexTensor>:$rhs_indices,
                            DefaultValuedAttr<BoolAttr, "true">:$transpose,
                            DefaultValuedAttr<BoolAttr, "false">:$sorted_indices),
                       quantizationAttrs);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = [{
    $x `,` $w `,` $scales (`biases` `(` $biases^ `:` type($biases) `)`)?
    (`lhs_indices` `(` $lhs_indices^ `:` type($lhs_indices) `)`)?
    (`rhs_indices` `(` $rhs_indices^ `:` type($rhs_indices) `)`)?
    attr-dict `:` type($x) `,` type($w) `,` type($scales)
  }];
}

def Mlx_HadamardOp : Mlx_InferredOp<"hadamard_transform"> {
  let summary = "Walsh-Hadamard transform of the last axis (MLX: `mx.hadamard_transform`)";
  let description = [{
    `y = (H @ x) * scale` along the last axis, whose size is `m * 2^k` with
    `m` in (1, 12, 20, 28): H is the Kronecker product of MLX's order-`m`
    Hadamard matrix and the order-`2^k` Sylvester one. As MLX computes it:
    the `2^k` part in butterfly stages that round to the dtype after each,
    then the `m` part summed in float32, scaled and rounded once (the scale
    goes with the last butterfly stage when `m` is 1). Float dtypes (f16,
    bf16, f32).

    ```mlir
    %y = mlx.hadamard_transform %x {scale = 0.25 : f32} : tensor<2x16xbf16>
    ```
  }];
  let arguments = (ins Mlx_FloatTensor:$x, F32Attr:$scale);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
  let extraClassDeclaration = [{
    /// The last axis' size as {m, 2^k}, or nothing if it is no such size.
    static std::optional<std::pair<int64_t, int64_t>>
    decompose(int64_t size);
  }];
}

def Mlx_QuantizeOp : Mlx_QuantizedOpBase<"quantize"> {
  let summary = "quantize a matrix along its last axis (MLX: `mx.quantize`)";
  let description = [{
    Affine mode gives three results: packed uint32 words, scales and biases
    (dtype of `w`); the fp modes give two (words and uint8 scales).

    ```mlir
    %q, %s, %b = mlx.quantize %w {group_size = 64 : i64, bits = 4 : i64} : tensor<64x128xf32>
    ```
  }];
  let arguments = !con((ins Mlx_FloatTensor:$w), quantizationAttrs);
  let results = (outs Variadic<Mlx_Tensor>:$results);
  let assemblyFormat = "$w attr-dict `:` type($w)";
}

def Mlx_DequantizeOp : Mlx_QuantizedOpBase<"dequantize"> {
  let summary = "expand a quantized matrix (MLX: `mx.dequantize`)";
  let description = [{
    The inverse of `quantize`: `w * scale + bias` per group. The result dtype
    is `dtype` when given, else that of `scales` (affine mode).

    ```mlir
    %w = mlx.dequantize %q, %s, %b {group_size = 64 : i64, bits = 4 : i64} : tensor<64x16xui32>, tensor<64x2xf32>, tensor<64x2xf32>
    ```
  }];
  let arguments = !con((ins Mlx_Tensor:$w, Mlx_Tensor:$scales,
                            Optional<Mlx_Tensor>:$biases,
                            OptionalAttr<Mlx_DtypeAttr>:$dtype),
                       quantizationAttrs);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = [{
    $w `,` $scales (`,` $biases^)? attr-dict `:` type($w) `,` type($scales)
    (`,` type($biases)^)?
  }];
}

//===----------------------------------------------------------------------===//
// Fused "fast" ops
//===----------------------------------------------------------------------===//

def Mlx_RmsNormOp : Mlx_InferredOp<"rms_norm"> {
  let summary = "RMS normalization over the last axis (MLX: `mx.fast.rms_norm`)";
  let description = [{
    `x * rsqrt(mean(x^2, -1) + eps) * weight`, accumulated in float32;
    `weight` (1-D, the size of the last axis) is optional.

    ```mlir
    %y = mlx.rms_norm %x, %w {eps = 1.0e-05 : f32} : tensor<2x8xbf16>, tensor<8xbf16>
    ```
  }];
  let arguments = (ins Mlx_FloatTensor:$x, Optional<Mlx_FloatTensor>:$weight,
                       F32Attr:$eps);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = [{
    $x (`,` $weight^)? attr-dict `:` type($x) (`,` type($weight)^)?
  }];
}

def Mlx_LayerNormOp : Mlx_InferredOp<"layer_norm", [AttrSizedOperandSegments]> {
  let summary = "layer normalization over the last axis (MLX: `mx.fast.layer_norm`)";
  let description = [{
    `(x - mean) * rsqrt(var + eps) * weight + bias` over the last axis;
    `weight` and `bias` are optional 1-D tensors.

    ```mlir
    %y = mlx.layer_norm %x weight(%w : tensor<8xf32>) bias(%b : tensor<8xf32>) {eps = 1.0e-05 : f32} : tensor<2x8xf32>
    ```
  }];
  let arguments = (ins Mlx_FloatTensor:$x, Optional<Mlx_FloatTensor>:$weight,
                       Optional<Mlx_FloatTensor>:$bias, F32Attr:$eps);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = [{
    $x (`weight` `(` $weight^ `:` type($weight) `)`)?
    (`bias` `(` $bias^ `:` type($bias) `)`)? attr-dict `:` type($x)
  }];
}

def Mlx_RopeOp : Mlx_InferredOp<"rope"> {
  let summary = "rotary position embedding (MLX: `mx.fast.rope`)";
  let description = [{
    Rotates the first `dims` features of the last axis of `x` (axis -2 is
    the position) by angles `(offset + pos) * scale * base^(-2i/dims)`, or
    by `freqs` when given (then `base` is absent). `traditional` rotates
    adjacent pairs instead of the two halves. `offset` is an integer scalar.

    ```mlir
    %y = mlx.rope %x, %off {dims = 128 : i64, traditional = false, base = 1.0e+04 : f32, scale = 1.0 : f32} : tensor<1x32x16x128xbf16>, tensor<i32>
    ```
  }];
  let arguments = (ins Mlx_FloatTensor:$x, Mlx_IndexTensor:$offset,
                       Optional<Mlx_FloatTensor>:$freqs, I64Attr:$dims,
                       DefaultValuedAttr<BoolAttr, "false">:$traditional,
                       OptionalAttr<F32Attr>:$base,
                       DefaultValuedAttr<F32Attr, "1.0">:$scale);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = [{
    $x `,` $offset (`freqs` `(` $freqs^ `:` type($freqs) `)`)? attr-dict
    `:` type($x) `,` type($offset)
  }];
}

def Mlx_ScaledDotProductAttentionOp
    : Mlx_InferredOp<"scaled_dot_product_attention",
                     [AttrSizedOperandSegments]> {
  let summary = "attention `softmax(scale * q @ k.T + mask) @ v` "
                "(MLX: `mx.fast.scaled_dot_product_attention`)";
  let description = [{
    `q: [B, Hq, L, D]`, `k: [B, Hkv, S, D]`, `v: [B, Hkv, S, Dv]` with `Hq` a
    multiple of `Hkv` (grouped-query attention). `causal` masks keys after
    each query (aligned to the end: query `i` sees keys `<= i + S - L`).
    `mask` is boolean (true keeps) or additive and broadcasts to
    `[B, Hq, L, S]`; `sinks` (one per query head) join the softmax.

    ```mlir
    %o = mlx.scaled_dot_product_attention %q, %k, %v {scale = 0.125 : f32, causal = true} : tensor<1x8x4x64xf32>, tensor<1x2x4x64xf32>, tensor<1x2x4x64xf32>
    ```
  }];
  let arguments = (ins Mlx_FloatTensor:$queries, Mlx_FloatTensor:$keys,
                       Mlx_FloatTensor:$values, Optional<Mlx_Tensor>:$mask,
                       Optional<Mlx_FloatTensor>:$sinks, F32Attr:$scale,
                       DefaultValuedAttr<BoolAttr, "false">:$causal);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = [{
    $queries `,` $keys `,` $values (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`sinks` `(` $sinks^ `:` type($sinks) `)`)? attr-dict `:` type($queries)
    `,` type($keys) `,` type($values)
  }];
}

def Mlx_ConvGeneralOp : Mlx_InferredOp<"conv_general"> {
  let summary = "N-d convolution, channels last (MLX: `mx.conv_general`)";
  let description = [{
    `input: [N, spatial..., C]`, `weight: [O, kernel..., C / groups]`. Each
    spatial axis has a stride, low/high padding, kernel dilation and input
    dilation; `flip` turns correlation into convolution.

    ```mlir
    %y = mlx.conv_general %x, %w {strides = array<i64: 1, 1>, padding_lo = array<i64: 0, 0>, padding_hi = array<i64: 0, 0>, kernel_dilation = array<i64: 1, 1>, input_dilation = array<i64: 1, 1>} : tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>
    ```
  }];
  let arguments = (ins Mlx_FloatTensor:$input, Mlx_FloatTensor:$weight,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$padding_lo,
                       DenseI64ArrayAttr:$padding_hi,
                       DenseI64ArrayAttr:$kernel_dilation,
                       DenseI64ArrayAttr:$input_dilation,
                       DefaultValuedAttr<I64Attr, "1">:$groups,
                       DefaultValuedAttr<BoolAttr, "false">:$flip);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$input `,` $weight attr-dict `:` type($input) `,` type($weight)";
}

def Mlx_RandomBitsOp : Mlx_InferredOp<"random_bits"> {
  let summary = "random bits from a threefry key (MLX: `mx.random.bits`)";
  let description = [{
    `key` is a `ui32` tensor of shape `[2]`; `width` is the byte width of each
    value (1, 2 or 4: `ui8`, `ui16`, `ui32` results).

    ```mlir
    %r = mlx.random_bits %key {shape = array<i64: 3, 4>, width = 4 : i64} : tensor<2xui32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$key, DenseI64ArrayAttr:$shape,
                       DefaultValuedAttr<I64Attr, "4">:$width);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$key attr-dict `:` type($key)";
}

#endif // MLX_OPS_TD
