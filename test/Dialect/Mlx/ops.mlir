// Round-trip test of every op of the mlx dialect: the custom form must parse,
// print and parse again to the same text (first RUN line), the generic form
// must read back into the same custom form (second RUN line), and the
// generic form shows the result types that the ops infer (GENERIC checks,
// compared with what MLX 0.32 itself returns for the same dtypes and shapes).
//
// RUN: mlx-opt %s | mlx-opt | FileCheck %s
// RUN: mlx-opt %s --mlir-print-op-generic | mlx-opt | FileCheck %s
// RUN: mlx-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

//===----------------------------------------------------------------------===//
// Unary ops whose result is floating (MLX's inexact math): floats keep their
// dtype, integers and bool become float32.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @unary_float_rule(
// CHECK-SAME:      %[[F32:[^:]+]]: tensor<4xf32>,
// CHECK-SAME:      %[[F16:[^:]+]]: tensor<2x3xf16>,
// CHECK-SAME:      %[[BF16:[^:]+]]: tensor<?x8xbf16>,
// CHECK-SAME:      %[[F64:[^:]+]]: tensor<f64>,
// CHECK-SAME:      %[[I32:[^:]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[U8:[^:]+]]: tensor<3xui8>,
// CHECK-SAME:      %[[B:[^:]+]]: tensor<2xi1>)
// GENERIC-LABEL: sym_name = "unary_float_rule"
func.func @unary_float_rule(%f32: tensor<4xf32>, %f16: tensor<2x3xf16>, %bf16: tensor<?x8xbf16>, %f64: tensor<f64>, %i32: tensor<4xi32>, %u8: tensor<3xui8>, %b: tensor<2xi1>) {
  // CHECK-NEXT: %[[SQRT:.+]] = mlx.sqrt %[[F32]] : tensor<4xf32>
  %sqrt = mlx.sqrt %f32 : tensor<4xf32>
  // CHECK-NEXT: %[[RSQRT:.+]] = mlx.rsqrt %[[F16]] : tensor<2x3xf16>
  // GENERIC:    "mlx.rsqrt"(%{{.*}}) : (tensor<2x3xf16>) -> tensor<2x3xf16>
  %rsqrt = mlx.rsqrt %f16 : tensor<2x3xf16>
  // CHECK-NEXT: %[[EXP:.+]] = mlx.exp %[[BF16]] : tensor<?x8xbf16>
  // GENERIC:    "mlx.exp"(%{{.*}}) : (tensor<?x8xbf16>) -> tensor<?x8xbf16>
  %exp = mlx.exp %bf16 : tensor<?x8xbf16>
  // CHECK-NEXT: %[[EXPM1:.+]] = mlx.expm1 %[[F64]] : tensor<f64>
  // GENERIC:    "mlx.expm1"(%{{.*}}) : (tensor<f64>) -> tensor<f64>
  %expm1 = mlx.expm1 %f64 : tensor<f64>
  // CHECK-NEXT: %[[LOG:.+]] = mlx.log %[[F32]] : tensor<4xf32>
  %log = mlx.log %f32 : tensor<4xf32>
  // CHECK-NEXT: %[[LOG2:.+]] = mlx.log2 %[[F16]] : tensor<2x3xf16>
  %log2 = mlx.log2 %f16 : tensor<2x3xf16>
  // CHECK-NEXT: %[[LOG10:.+]] = mlx.log10 %[[BF16]] : tensor<?x8xbf16>
  %log10 = mlx.log10 %bf16 : tensor<?x8xbf16>
  // CHECK-NEXT: %[[LOG1P:.+]] = mlx.log1p %[[F64]] : tensor<f64>
  %log1p = mlx.log1p %f64 : tensor<f64>
  // CHECK-NEXT: %[[SIN:.+]] = mlx.sin %[[F32]] : tensor<4xf32>
  %sin = mlx.sin %f32 : tensor<4xf32>
  // CHECK-NEXT: %[[COS:.+]] = mlx.cos %[[F16]] : tensor<2x3xf16>
  %cos = mlx.cos %f16 : tensor<2x3xf16>
  // CHECK-NEXT: %[[TAN:.+]] = mlx.tan %[[BF16]] : tensor<?x8xbf16>
  %tan = mlx.tan %bf16 : tensor<?x8xbf16>
  // CHECK-NEXT: %[[SINH:.+]] = mlx.sinh %[[F64]] : tensor<f64>
  %sinh = mlx.sinh %f64 : tensor<f64>
  // CHECK-NEXT: %[[COSH:.+]] = mlx.cosh %[[F32]] : tensor<4xf32>
  %cosh = mlx.cosh %f32 : tensor<4xf32>
  // CHECK-NEXT: %[[TANH:.+]] = mlx.tanh %[[F16]] : tensor<2x3xf16>
  %tanh = mlx.tanh %f16 : tensor<2x3xf16>
  // CHECK-NEXT: %[[ARCSIN:.+]] = mlx.arcsin %[[BF16]] : tensor<?x8xbf16>
  %arcsin = mlx.arcsin %bf16 : tensor<?x8xbf16>
  // CHECK-NEXT: %[[ARCCOS:.+]] = mlx.arccos %[[F64]] : tensor<f64>
  %arccos = mlx.arccos %f64 : tensor<f64>
  // CHECK-NEXT: %[[ARCTAN:.+]] = mlx.arctan %[[F32]] : tensor<4xf32>
  %arctan = mlx.arctan %f32 : tensor<4xf32>
  // CHECK-NEXT: %[[ARCSINH:.+]] = mlx.arcsinh %[[F16]] : tensor<2x3xf16>
  %arcsinh = mlx.arcsinh %f16 : tensor<2x3xf16>
  // CHECK-NEXT: %[[ARCCOSH:.+]] = mlx.arccosh %[[BF16]] : tensor<?x8xbf16>
  %arccosh = mlx.arccosh %bf16 : tensor<?x8xbf16>
  // CHECK-NEXT: %[[ARCTANH:.+]] = mlx.arctanh %[[F64]] : tensor<f64>
  %arctanh = mlx.arctanh %f64 : tensor<f64>
  // CHECK-NEXT: %[[SIGMOID:.+]] = mlx.sigmoid %[[F32]] : tensor<4xf32>
  %sigmoid = mlx.sigmoid %f32 : tensor<4xf32>
  // CHECK-NEXT: %[[ERF:.+]] = mlx.erf %[[F16]] : tensor<2x3xf16>
  %erf = mlx.erf %f16 : tensor<2x3xf16>
  // CHECK-NEXT: %[[ERFINV:.+]] = mlx.erfinv %[[BF16]] : tensor<?x8xbf16>
  %erfinv = mlx.erfinv %bf16 : tensor<?x8xbf16>
  // Integer and bool inputs compute in float32.
  // CHECK-NEXT: %[[SQRT_I32:.+]] = mlx.sqrt %[[I32]] : tensor<4xi32>
  // GENERIC:    "mlx.sqrt"(%{{.*}}) : (tensor<4xi32>) -> tensor<4xf32>
  %sqrt_i32 = mlx.sqrt %i32 : tensor<4xi32>
  // CHECK-NEXT: %[[EXP_U8:.+]] = mlx.exp %[[U8]] : tensor<3xui8>
  // GENERIC:    "mlx.exp"(%{{.*}}) : (tensor<3xui8>) -> tensor<3xf32>
  %exp_u8 = mlx.exp %u8 : tensor<3xui8>
  // CHECK-NEXT: %[[SIGMOID_B:.+]] = mlx.sigmoid %[[B]] : tensor<2xi1>
  // GENERIC:    "mlx.sigmoid"(%{{.*}}) : (tensor<2xi1>) -> tensor<2xf32>
  %sigmoid_b = mlx.sigmoid %b : tensor<2xi1>
  // CHECK-NEXT: %[[LOG_I32:.+]] = mlx.log %[[I32]] : tensor<4xi32>
  // GENERIC:    "mlx.log"(%{{.*}}) : (tensor<4xi32>) -> tensor<4xf32>
  %log_i32 = mlx.log %i32 : tensor<4xi32>
  // CHECK-NEXT: return
  return
}

//===----------------------------------------------------------------------===//
// Unary ops that keep the dtype (abs, sign, floor, ...), negative (no bool),
// logical_not (always bool) and bitwise_invert (integers and bool).
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @unary_same_dtype(
// CHECK-SAME:      %[[I8:[^:]+]]: tensor<4xi8>,
// CHECK-SAME:      %[[I16:[^:]+]]: tensor<2x2xi16>,
// CHECK-SAME:      %[[I64:[^:]+]]: tensor<?xi64>,
// CHECK-SAME:      %[[U16:[^:]+]]: tensor<3xui16>,
// CHECK-SAME:      %[[U64:[^:]+]]: tensor<3xui64>,
// CHECK-SAME:      %[[B:[^:]+]]: tensor<3xi1>,
// CHECK-SAME:      %[[F32:[^:]+]]: tensor<4xf32>,
// CHECK-SAME:      %[[BF16:[^:]+]]: tensor<2x?xbf16>)
// GENERIC-LABEL: sym_name = "unary_same_dtype"
func.func @unary_same_dtype(%i8: tensor<4xi8>, %i16: tensor<2x2xi16>, %i64: tensor<?xi64>, %u16: tensor<3xui16>, %u64: tensor<3xui64>, %b: tensor<3xi1>, %f32: tensor<4xf32>, %bf16: tensor<2x?xbf16>) {
  // CHECK-NEXT: %[[ABS_I8:.+]] = mlx.abs %[[I8]] : tensor<4xi8>
  // GENERIC:    "mlx.abs"(%{{.*}}) : (tensor<4xi8>) -> tensor<4xi8>
  %abs_i8 = mlx.abs %i8 : tensor<4xi8>
  // CHECK-NEXT: %[[ABS_U16:.+]] = mlx.abs %[[U16]] : tensor<3xui16>
  // GENERIC:    "mlx.abs"(%{{.*}}) : (tensor<3xui16>) -> tensor<3xui16>
  %abs_u16 = mlx.abs %u16 : tensor<3xui16>
  // CHECK-NEXT: %[[ABS_B:.+]] = mlx.abs %[[B]] : tensor<3xi1>
  // GENERIC:    "mlx.abs"(%{{.*}}) : (tensor<3xi1>) -> tensor<3xi1>
  %abs_b = mlx.abs %b : tensor<3xi1>
  // CHECK-NEXT: %[[ABS_F32:.+]] = mlx.abs %[[F32]] : tensor<4xf32>
  %abs_f32 = mlx.abs %f32 : tensor<4xf32>
  // CHECK-NEXT: %[[NEG_I16:.+]] = mlx.negative %[[I16]] : tensor<2x2xi16>
  %neg_i16 = mlx.negative %i16 : tensor<2x2xi16>
  // MLX negates unsigned integers with wrap-around; the dtype stays.
  // CHECK-NEXT: %[[NEG_U64:.+]] = mlx.negative %[[U64]] : tensor<3xui64>
  // GENERIC:    "mlx.negative"(%{{.*}}) : (tensor<3xui64>) -> tensor<3xui64>
  %neg_u64 = mlx.negative %u64 : tensor<3xui64>
  // CHECK-NEXT: %[[NEG_BF16:.+]] = mlx.negative %[[BF16]] : tensor<2x?xbf16>
  // GENERIC:    "mlx.negative"(%{{.*}}) : (tensor<2x?xbf16>) -> tensor<2x?xbf16>
  %neg_bf16 = mlx.negative %bf16 : tensor<2x?xbf16>
  // CHECK-NEXT: %[[SIGN_I64:.+]] = mlx.sign %[[I64]] : tensor<?xi64>
  // GENERIC:    "mlx.sign"(%{{.*}}) : (tensor<?xi64>) -> tensor<?xi64>
  %sign_i64 = mlx.sign %i64 : tensor<?xi64>
  // CHECK-NEXT: %[[SIGN_B:.+]] = mlx.sign %[[B]] : tensor<3xi1>
  %sign_b = mlx.sign %b : tensor<3xi1>
  // CHECK-NEXT: %[[FLOOR_F32:.+]] = mlx.floor %[[F32]] : tensor<4xf32>
  %floor_f32 = mlx.floor %f32 : tensor<4xf32>
  // floor/ceil/round of integers are identities in MLX and keep the dtype.
  // CHECK-NEXT: %[[FLOOR_I8:.+]] = mlx.floor %[[I8]] : tensor<4xi8>
  // GENERIC:    "mlx.floor"(%{{.*}}) : (tensor<4xi8>) -> tensor<4xi8>
  %floor_i8 = mlx.floor %i8 : tensor<4xi8>
  // CHECK-NEXT: %[[CEIL_BF16:.+]] = mlx.ceil %[[BF16]] : tensor<2x?xbf16>
  %ceil_bf16 = mlx.ceil %bf16 : tensor<2x?xbf16>
  // CHECK-NEXT: %[[CEIL_U16:.+]] = mlx.ceil %[[U16]] : tensor<3xui16>
  %ceil_u16 = mlx.ceil %u16 : tensor<3xui16>
  // CHECK-NEXT: %[[ROUND_F32:.+]] = mlx.round %[[F32]] : tensor<4xf32>
  %round_f32 = mlx.round %f32 : tensor<4xf32>
  // CHECK-NEXT: %[[ROUND_I64:.+]] = mlx.round %[[I64]] : tensor<?xi64>
  %round_i64 = mlx.round %i64 : tensor<?xi64>
  // CHECK-NEXT: %[[SQUARE_I16:.+]] = mlx.square %[[I16]] : tensor<2x2xi16>
  %square_i16 = mlx.square %i16 : tensor<2x2xi16>
  // CHECK-NEXT: %[[SQUARE_B:.+]] = mlx.square %[[B]] : tensor<3xi1>
  // GENERIC:    "mlx.square"(%{{.*}}) : (tensor<3xi1>) -> tensor<3xi1>
  %square_b = mlx.square %b : tensor<3xi1>
  // CHECK-NEXT: %[[NOT_B:.+]] = mlx.logical_not %[[B]] : tensor<3xi1>
  %not_b = mlx.logical_not %b : tensor<3xi1>
  // CHECK-NEXT: %[[NOT_F32:.+]] = mlx.logical_not %[[F32]] : tensor<4xf32>
  // GENERIC:    "mlx.logical_not"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xi1>
  %not_f32 = mlx.logical_not %f32 : tensor<4xf32>
  // CHECK-NEXT: %[[INV_I8:.+]] = mlx.bitwise_invert %[[I8]] : tensor<4xi8>
  %inv_i8 = mlx.bitwise_invert %i8 : tensor<4xi8>
  // CHECK-NEXT: %[[INV_U64:.+]] = mlx.bitwise_invert %[[U64]] : tensor<3xui64>
  %inv_u64 = mlx.bitwise_invert %u64 : tensor<3xui64>
  // CHECK-NEXT: %[[INV_B:.+]] = mlx.bitwise_invert %[[B]] : tensor<3xi1>
  // GENERIC:    "mlx.bitwise_invert"(%{{.*}}) : (tensor<3xi1>) -> tensor<3xi1>
  %inv_b = mlx.bitwise_invert %b : tensor<3xi1>
  // CHECK-NEXT: return
  return
}

//===----------------------------------------------------------------------===//
// Binary arithmetic: NumPy broadcasting (with dynamic sizes) and MLX's type
// promotion (uint8 + int8 -> int16, uint64 + int32 -> float32,
// float16 + bfloat16 -> float32, ...).
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @binary_arith(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<2x3xf32>,
// CHECK-SAME:      %[[ROW:[^:]+]]: tensor<3xf32>,
// CHECK-SAME:      %[[I8:[^:]+]]: tensor<2x1xi8>,
// CHECK-SAME:      %[[U8:[^:]+]]: tensor<1x3xui8>,
// CHECK-SAME:      %[[I32:[^:]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[U64:[^:]+]]: tensor<3xui64>,
// CHECK-SAME:      %[[F16:[^:]+]]: tensor<3xf16>,
// CHECK-SAME:      %[[BF16:[^:]+]]: tensor<3xbf16>,
// CHECK-SAME:      %[[DYN:[^:]+]]: tensor<?x3xf32>,
// CHECK-SAME:      %[[B:[^:]+]]: tensor<3xi1>,
// CHECK-SAME:      %[[I64:[^:]+]]: tensor<3xi64>)
// GENERIC-LABEL: sym_name = "binary_arith"
func.func @binary_arith(%a: tensor<2x3xf32>, %row: tensor<3xf32>, %i8: tensor<2x1xi8>, %u8: tensor<1x3xui8>, %i32: tensor<3xi32>, %u64: tensor<3xui64>, %f16: tensor<3xf16>, %bf16: tensor<3xbf16>, %dyn: tensor<?x3xf32>, %b: tensor<3xi1>, %i64: tensor<3xi64>) {
  // CHECK-NEXT: %[[ADD:.+]] = mlx.add %[[A]], %[[ROW]] : tensor<2x3xf32>, tensor<3xf32>
  // GENERIC:    "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %add = mlx.add %a, %row : tensor<2x3xf32>, tensor<3xf32>
  // CHECK-NEXT: %[[ADD_MIXED:.+]] = mlx.add %[[I8]], %[[U8]] : tensor<2x1xi8>, tensor<1x3xui8>
  // GENERIC:    "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2x1xi8>, tensor<1x3xui8>) -> tensor<2x3xi16>
  %add_mixed = mlx.add %i8, %u8 : tensor<2x1xi8>, tensor<1x3xui8>
  // CHECK-NEXT: %[[SUB_DYN:.+]] = mlx.subtract %[[DYN]], %[[ROW]] : tensor<?x3xf32>, tensor<3xf32>
  // GENERIC:    "mlx.subtract"(%{{.*}}, %{{.*}}) : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %sub_dyn = mlx.subtract %dyn, %row : tensor<?x3xf32>, tensor<3xf32>
  // CHECK-NEXT: %[[MUL_U64:.+]] = mlx.multiply %[[U64]], %[[I32]] : tensor<3xui64>, tensor<3xi32>
  // GENERIC:    "mlx.multiply"(%{{.*}}, %{{.*}}) : (tensor<3xui64>, tensor<3xi32>) -> tensor<3xf32>
  %mul_u64 = mlx.multiply %u64, %i32 : tensor<3xui64>, tensor<3xi32>
  // divide is floating: int32 / int32 is float32, float16 / int32 float16.
  // CHECK-NEXT: %[[DIV_INT:.+]] = mlx.divide %[[I32]], %[[I32]] : tensor<3xi32>, tensor<3xi32>
  // GENERIC:    "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xf32>
  %div_int = mlx.divide %i32, %i32 : tensor<3xi32>, tensor<3xi32>
  // CHECK-NEXT: %[[DIV_F16:.+]] = mlx.divide %[[F16]], %[[I32]] : tensor<3xf16>, tensor<3xi32>
  // GENERIC:    "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<3xf16>, tensor<3xi32>) -> tensor<3xf16>
  %div_f16 = mlx.divide %f16, %i32 : tensor<3xf16>, tensor<3xi32>
  // CHECK-NEXT: %[[FLOORDIV:.+]] = mlx.floor_divide %[[I32]], %[[I64]] : tensor<3xi32>, tensor<3xi64>
  // GENERIC:    "mlx.floor_divide"(%{{.*}}, %{{.*}}) : (tensor<3xi32>, tensor<3xi64>) -> tensor<3xi64>
  %floordiv = mlx.floor_divide %i32, %i64 : tensor<3xi32>, tensor<3xi64>
  // CHECK-NEXT: %[[REM:.+]] = mlx.remainder %[[F16]], %[[BF16]] : tensor<3xf16>, tensor<3xbf16>
  // GENERIC:    "mlx.remainder"(%{{.*}}, %{{.*}}) : (tensor<3xf16>, tensor<3xbf16>) -> tensor<3xf32>
  %rem = mlx.remainder %f16, %bf16 : tensor<3xf16>, tensor<3xbf16>
  // CHECK-NEXT: %[[POW:.+]] = mlx.power %[[U8]], %[[I8]] : tensor<1x3xui8>, tensor<2x1xi8>
  // GENERIC:    "mlx.power"(%{{.*}}, %{{.*}}) : (tensor<1x3xui8>, tensor<2x1xi8>) -> tensor<2x3xi16>
  %pow = mlx.power %u8, %i8 : tensor<1x3xui8>, tensor<2x1xi8>
  // CHECK-NEXT: %[[MAX:.+]] = mlx.maximum %[[B]], %[[I8]] : tensor<3xi1>, tensor<2x1xi8>
  // GENERIC:    "mlx.maximum"(%{{.*}}, %{{.*}}) : (tensor<3xi1>, tensor<2x1xi8>) -> tensor<2x3xi8>
  %max = mlx.maximum %b, %i8 : tensor<3xi1>, tensor<2x1xi8>
  // CHECK-NEXT: %[[MIN:.+]] = mlx.minimum %[[DYN]], %[[F16]] : tensor<?x3xf32>, tensor<3xf16>
  // GENERIC:    "mlx.minimum"(%{{.*}}, %{{.*}}) : (tensor<?x3xf32>, tensor<3xf16>) -> tensor<?x3xf32>
  %min = mlx.minimum %dyn, %f16 : tensor<?x3xf32>, tensor<3xf16>
  // CHECK-NEXT: %[[LAE:.+]] = mlx.logaddexp %[[I32]], %[[I32]] : tensor<3xi32>, tensor<3xi32>
  // GENERIC:    "mlx.logaddexp"(%{{.*}}, %{{.*}}) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xf32>
  %lae = mlx.logaddexp %i32, %i32 : tensor<3xi32>, tensor<3xi32>
  // CHECK-NEXT: %[[ATAN2:.+]] = mlx.arctan2 %[[BF16]], %[[BF16]] : tensor<3xbf16>, tensor<3xbf16>
  // GENERIC:    "mlx.arctan2"(%{{.*}}, %{{.*}}) : (tensor<3xbf16>, tensor<3xbf16>) -> tensor<3xbf16>
  %atan2 = mlx.arctan2 %bf16, %bf16 : tensor<3xbf16>, tensor<3xbf16>
  // CHECK-NEXT: return
  return
}

//===----------------------------------------------------------------------===//
// Comparisons and logical ops give bool; bitwise ops need integers or bool;
// shifts turn bool into uint8.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @binary_bool_and_bits(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<2x3xf32>,
// CHECK-SAME:      %[[ROW:[^:]+]]: tensor<3xf32>,
// CHECK-SAME:      %[[I32:[^:]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[U64:[^:]+]]: tensor<3xui64>,
// CHECK-SAME:      %[[DYN:[^:]+]]: tensor<?x3xf16>,
// CHECK-SAME:      %[[B:[^:]+]]: tensor<3xi1>,
// CHECK-SAME:      %[[U8:[^:]+]]: tensor<3xui8>,
// CHECK-SAME:      %[[I8:[^:]+]]: tensor<3xi8>,
// CHECK-SAME:      %[[I64:[^:]+]]: tensor<3xi64>)
// GENERIC-LABEL: sym_name = "binary_bool_and_bits"
func.func @binary_bool_and_bits(%a: tensor<2x3xf32>, %row: tensor<3xf32>, %i32: tensor<3xi32>, %u64: tensor<3xui64>, %dyn: tensor<?x3xf16>, %b: tensor<3xi1>, %u8: tensor<3xui8>, %i8: tensor<3xi8>, %i64: tensor<3xi64>) {
  // CHECK-NEXT: %[[EQ:.+]] = mlx.equal %[[I32]], %[[U64]] : tensor<3xi32>, tensor<3xui64>
  // GENERIC:    "mlx.equal"(%{{.*}}, %{{.*}}) <{equal_nan = false}> : (tensor<3xi32>, tensor<3xui64>) -> tensor<3xi1>
  %eq = mlx.equal %i32, %u64 : tensor<3xi32>, tensor<3xui64>
  // CHECK-NEXT: %[[EQ_NAN:.+]] = mlx.equal %[[ROW]], %[[ROW]] {equal_nan = true} : tensor<3xf32>, tensor<3xf32>
  // GENERIC:    "mlx.equal"(%{{.*}}, %{{.*}}) <{equal_nan = true}> : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %eq_nan = mlx.equal %row, %row {equal_nan = true} : tensor<3xf32>, tensor<3xf32>
  // CHECK-NEXT: %[[NE:.+]] = mlx.not_equal %[[A]], %[[ROW]] : tensor<2x3xf32>, tensor<3xf32>
  %ne = mlx.not_equal %a, %row : tensor<2x3xf32>, tensor<3xf32>
  // CHECK-NEXT: %[[LT:.+]] = mlx.less %[[I32]], %[[I64]] : tensor<3xi32>, tensor<3xi64>
  %lt = mlx.less %i32, %i64 : tensor<3xi32>, tensor<3xi64>
  // CHECK-NEXT: %[[LE:.+]] = mlx.less_equal %[[DYN]], %[[ROW]] : tensor<?x3xf16>, tensor<3xf32>
  // GENERIC:    "mlx.less_equal"(%{{.*}}, %{{.*}}) : (tensor<?x3xf16>, tensor<3xf32>) -> tensor<?x3xi1>
  %le = mlx.less_equal %dyn, %row : tensor<?x3xf16>, tensor<3xf32>
  // CHECK-NEXT: %[[GT:.+]] = mlx.greater %[[A]], %[[ROW]] : tensor<2x3xf32>, tensor<3xf32>
  // GENERIC:    "mlx.greater"(%{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %gt = mlx.greater %a, %row : tensor<2x3xf32>, tensor<3xf32>
  // CHECK-NEXT: %[[GE:.+]] = mlx.greater_equal %[[U8]], %[[I8]] : tensor<3xui8>, tensor<3xi8>
  %ge = mlx.greater_equal %u8, %i8 : tensor<3xui8>, tensor<3xi8>
  // CHECK-NEXT: %[[AND:.+]] = mlx.logical_and %[[B]], %[[I32]] : tensor<3xi1>, tensor<3xi32>
  // GENERIC:    "mlx.logical_and"(%{{.*}}, %{{.*}}) : (tensor<3xi1>, tensor<3xi32>) -> tensor<3xi1>
  %and = mlx.logical_and %b, %i32 : tensor<3xi1>, tensor<3xi32>
  // CHECK-NEXT: %[[OR:.+]] = mlx.logical_or %[[B]], %[[B]] : tensor<3xi1>, tensor<3xi1>
  %or = mlx.logical_or %b, %b : tensor<3xi1>, tensor<3xi1>
  // CHECK-NEXT: %[[BAND:.+]] = mlx.bitwise_and %[[U8]], %[[U8]] : tensor<3xui8>, tensor<3xui8>
  %band = mlx.bitwise_and %u8, %u8 : tensor<3xui8>, tensor<3xui8>
  // CHECK-NEXT: %[[BOR:.+]] = mlx.bitwise_or %[[I8]], %[[U8]] : tensor<3xi8>, tensor<3xui8>
  // GENERIC:    "mlx.bitwise_or"(%{{.*}}, %{{.*}}) : (tensor<3xi8>, tensor<3xui8>) -> tensor<3xi16>
  %bor = mlx.bitwise_or %i8, %u8 : tensor<3xi8>, tensor<3xui8>
  // CHECK-NEXT: %[[BXOR:.+]] = mlx.bitwise_xor %[[B]], %[[B]] : tensor<3xi1>, tensor<3xi1>
  // GENERIC:    "mlx.bitwise_xor"(%{{.*}}, %{{.*}}) : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  %bxor = mlx.bitwise_xor %b, %b : tensor<3xi1>, tensor<3xi1>
  // CHECK-NEXT: %[[SHL:.+]] = mlx.left_shift %[[B]], %[[B]] : tensor<3xi1>, tensor<3xi1>
  // GENERIC:    "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xui8>
  %shl = mlx.left_shift %b, %b : tensor<3xi1>, tensor<3xi1>
  // CHECK-NEXT: %[[SHR:.+]] = mlx.right_shift %[[I64]], %[[I32]] : tensor<3xi64>, tensor<3xi32>
  // GENERIC:    "mlx.right_shift"(%{{.*}}, %{{.*}}) : (tensor<3xi64>, tensor<3xi32>) -> tensor<3xi64>
  %shr = mlx.right_shift %i64, %i32 : tensor<3xi64>, tensor<3xi32>
  // CHECK-NEXT: return
  return
}

//===----------------------------------------------------------------------===//
// divmod: two results of the promoted, broadcast type.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @divmod(
// CHECK-SAME:      %[[I32:[^:]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[F32:[^:]+]]: tensor<2x1xf32>,
// CHECK-SAME:      %[[U16:[^:]+]]: tensor<?xui16>)
// GENERIC-LABEL: sym_name = "divmod"
func.func @divmod(%i32: tensor<4xi32>, %f32: tensor<2x1xf32>, %u16: tensor<?xui16>) {
  // CHECK-NEXT: %[[DM_0:[^ ,]+]], %[[DM_1:[^ ,]+]] = mlx.divmod %[[I32]], %[[I32]] : tensor<4xi32>, tensor<4xi32>
  // GENERIC:    "mlx.divmod"(%{{.*}}, %{{.*}}) : (tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  %dm:2 = mlx.divmod %i32, %i32 : tensor<4xi32>, tensor<4xi32>
  // CHECK-NEXT: %[[DM_MIXED_0:[^ ,]+]], %[[DM_MIXED_1:[^ ,]+]] = mlx.divmod %[[F32]], %[[I32]] : tensor<2x1xf32>, tensor<4xi32>
  // GENERIC:    "mlx.divmod"(%{{.*}}, %{{.*}}) : (tensor<2x1xf32>, tensor<4xi32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  %dm_mixed:2 = mlx.divmod %f32, %i32 : tensor<2x1xf32>, tensor<4xi32>
  // CHECK-NEXT: %[[DM_DYN_0:[^ ,]+]], %[[DM_DYN_1:[^ ,]+]] = mlx.divmod %[[U16]], %[[I32]] : tensor<?xui16>, tensor<4xi32>
  // GENERIC:    "mlx.divmod"(%{{.*}}, %{{.*}}) : (tensor<?xui16>, tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  %dm_dyn:2 = mlx.divmod %u16, %i32 : tensor<?xui16>, tensor<4xi32>
  // CHECK-NEXT: return
  return
}

//===----------------------------------------------------------------------===//
// Creation, selection and casts.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @creation(
// CHECK-SAME:      %[[V:[^:]+]]: tensor<f32>,
// CHECK-SAME:      %[[ROW:[^:]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[B1:[^:]+]]: tensor<1xi1>)
// GENERIC-LABEL: sym_name = "creation"
func.func @creation(%v: tensor<f32>, %row: tensor<3xi32>, %b1: tensor<1xi1>) {
  // CHECK-NEXT: %[[C_F32:.+]] = mlx.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %c_f32 = mlx.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  // CHECK-NEXT: %[[C_I8:.+]] = mlx.constant dense<{{\[\[}}1, -2], [3, 4{{\]\]}}> : tensor<2x2xi8>
  %c_i8 = mlx.constant dense<[[1, -2], [3, 4]]> : tensor<2x2xi8>
  // CHECK-NEXT: %[[C_B:.+]] = mlx.constant dense<true> : tensor<3xi1>
  %c_b = mlx.constant dense<true> : tensor<3xi1>
  // CHECK-NEXT: %[[C_U8:.+]] = mlx.constant dense<255> : tensor<ui8>
  %c_u8 = mlx.constant dense<255> : tensor<ui8>
  // CHECK-NEXT: %[[C_U64:.+]] = mlx.constant dense<[0, 18446744073709551615]> : tensor<2xui64>
  %c_u64 = mlx.constant dense<[0, 18446744073709551615]> : tensor<2xui64>
  // CHECK-NEXT: %[[C_I64:.+]] = mlx.constant dense<-9223372036854775808> : tensor<1xi64>
  %c_i64 = mlx.constant dense<-9223372036854775808> : tensor<1xi64>
  // CHECK-NEXT: %[[C_BF16:.+]] = mlx.constant dense<[1.500000e+00, -0.000000e+00]> : tensor<2xbf16>
  %c_bf16 = mlx.constant dense<[1.500000e+00, -0.000000e+00]> : tensor<2xbf16>
  // CHECK-NEXT: %[[C_F16:.+]] = mlx.constant dense<0x7E00> : tensor<2x2xf16>
  %c_f16 = mlx.constant dense<0x7E00> : tensor<2x2xf16>
  // CHECK-NEXT: %[[C_F64:.+]] = mlx.constant dense<3.250000e+00> : tensor<f64>
  %c_f64 = mlx.constant dense<3.2500000000000000> : tensor<f64>
  // CHECK-NEXT: %[[C_U16:.+]] = mlx.constant dense<[1, 65535]> : tensor<2xui16>
  %c_u16 = mlx.constant dense<[1, 65535]> : tensor<2xui16>
  // CHECK-NEXT: %[[C_I16:.+]] = mlx.constant dense<-1> : tensor<2x0xi16>
  %c_i16 = mlx.constant dense<-1> : tensor<2x0xi16>
  // CHECK-NEXT: %[[C_I32:.+]] = mlx.constant dense<7> : tensor<i32>
  %c_i32 = mlx.constant dense<7> : tensor<i32>
  // CHECK-NEXT: %[[C_U32:.+]] = mlx.constant dense<4294967295> : tensor<1xui32>
  %c_u32 = mlx.constant dense<[4294967295]> : tensor<1xui32>
  // full broadcasts its value and casts it to the result dtype.
  // CHECK-NEXT: %[[FULL:.+]] = mlx.full %[[V]] : tensor<f32> -> tensor<2x3xbf16>
  %full = mlx.full %v : tensor<f32> -> tensor<2x3xbf16>
  // CHECK-NEXT: %[[FULL_ROW:.+]] = mlx.full %[[ROW]] : tensor<3xi32> -> tensor<4x3xi32>
  %full_row = mlx.full %row : tensor<3xi32> -> tensor<4x3xi32>
  // CHECK-NEXT: %[[FULL_DYN:.+]] = mlx.full %[[B1]] : tensor<1xi1> -> tensor<2x?xi1>
  %full_dyn = mlx.full %b1 : tensor<1xi1> -> tensor<2x?xi1>
  // The length is ceil((stop - start) / step); step defaults to 1.
  // CHECK-NEXT: %[[ARANGE:.+]] = mlx.arange {start = 0.000000e+00 : f64, step = 3.000000e+00 : f64, stop = 1.000000e+01 : f64} : tensor<4xi32>
  %arange = mlx.arange {start = 0.000000e+00 : f64, stop = 1.000000e+01 : f64, step = 3.000000e+00 : f64} : tensor<4xi32>
  // CHECK-NEXT: %[[ARANGE_DEFAULT_STEP:.+]] = mlx.arange {start = 0.000000e+00 : f64, stop = 5.000000e+00 : f64} : tensor<5xf32>
  // GENERIC:    "mlx.arange"() <{start = 0.000000e+00 : f64, step = 1.000000e+00 : f64, stop = 5.000000e+00 : f64}> : () -> tensor<5xf32>
  %arange_default_step = mlx.arange {start = 0.000000e+00 : f64, stop = 5.000000e+00 : f64} : tensor<5xf32>
  // CHECK-NEXT: %[[ARANGE_DOWN:.+]] = mlx.arange {start = 5.000000e+00 : f64, step = -2.000000e+00 : f64, stop = 0.000000e+00 : f64} : tensor<3xi64>
  %arange_down = mlx.arange {start = 5.000000e+00 : f64, stop = 0.000000e+00 : f64, step = -2.000000e+00 : f64} : tensor<3xi64>
  // CHECK-NEXT: %[[ARANGE_DYN:.+]] = mlx.arange {start = 0.000000e+00 : f64, step = 1.250000e-01 : f64, stop = 1.000000e+00 : f64} : tensor<?xf16>
  %arange_dyn = mlx.arange {start = 0.000000e+00 : f64, stop = 1.000000e+00 : f64, step = 1.250000e-01 : f64} : tensor<?xf16>
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @select_astype_view(
// CHECK-SAME:      %[[C:[^:]+]]: tensor<2x1xi1>,
// CHECK-SAME:      %[[X:[^:]+]]: tensor<3xf32>,
// CHECK-SAME:      %[[Y:[^:]+]]: tensor<f16>,
// CHECK-SAME:      %[[CB:[^:]+]]: tensor<3xi1>,
// CHECK-SAME:      %[[U8:[^:]+]]: tensor<3xui8>,
// CHECK-SAME:      %[[I8:[^:]+]]: tensor<3xi8>,
// CHECK-SAME:      %[[M:[^:]+]]: tensor<2x4xf32>,
// CHECK-SAME:      %[[BYTES:[^:]+]]: tensor<2x8xui8>,
// CHECK-SAME:      %[[I16:[^:]+]]: tensor<5xi16>,
// CHECK-SAME:      %[[DYN:[^:]+]]: tensor<3x?xi32>,
// CHECK-SAME:      %[[B:[^:]+]]: tensor<4xi1>)
// GENERIC-LABEL: sym_name = "select_astype_view"
func.func @select_astype_view(%c: tensor<2x1xi1>, %x: tensor<3xf32>, %y: tensor<f16>, %cb: tensor<3xi1>, %u8: tensor<3xui8>, %i8: tensor<3xi8>, %m: tensor<2x4xf32>, %bytes: tensor<2x8xui8>, %i16: tensor<5xi16>, %dyn: tensor<3x?xi32>, %b: tensor<4xi1>) {
  // CHECK-NEXT: %[[SEL:.+]] = mlx.select %[[C]], %[[X]], %[[Y]] : tensor<2x1xi1>, tensor<3xf32>, tensor<f16>
  // GENERIC:    "mlx.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<2x1xi1>, tensor<3xf32>, tensor<f16>) -> tensor<2x3xf32>
  %sel = mlx.select %c, %x, %y : tensor<2x1xi1>, tensor<3xf32>, tensor<f16>
  // CHECK-NEXT: %[[SEL_INT:.+]] = mlx.select %[[CB]], %[[U8]], %[[I8]] : tensor<3xi1>, tensor<3xui8>, tensor<3xi8>
  // GENERIC:    "mlx.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<3xi1>, tensor<3xui8>, tensor<3xi8>) -> tensor<3xi16>
  %sel_int = mlx.select %cb, %u8, %i8 : tensor<3xi1>, tensor<3xui8>, tensor<3xi8>
  // CHECK-NEXT: %[[TO_BF16:.+]] = mlx.astype %[[X]] : tensor<3xf32> to bf16
  // GENERIC:    "mlx.astype"(%{{.*}}) <{dtype = bf16}> : (tensor<3xf32>) -> tensor<3xbf16>
  %to_bf16 = mlx.astype %x : tensor<3xf32> to bf16
  // CHECK-NEXT: %[[TO_BOOL:.+]] = mlx.astype %[[I8]] : tensor<3xi8> to i1
  // GENERIC:    "mlx.astype"(%{{.*}}) <{dtype = i1}> : (tensor<3xi8>) -> tensor<3xi1>
  %to_bool = mlx.astype %i8 : tensor<3xi8> to i1
  // CHECK-NEXT: %[[TO_F64:.+]] = mlx.astype %[[CB]] : tensor<3xi1> to f64
  %to_f64 = mlx.astype %cb : tensor<3xi1> to f64
  // CHECK-NEXT: %[[TO_U32:.+]] = mlx.astype %[[DYN]] : tensor<3x?xi32> to ui32
  // GENERIC:    "mlx.astype"(%{{.*}}) <{dtype = ui32}> : (tensor<3x?xi32>) -> tensor<3x?xui32>
  %to_u32 = mlx.astype %dyn : tensor<3x?xi32> to ui32
  // view scales the last axis by the ratio of the item sizes.
  // CHECK-NEXT: %[[VIEW_BYTES:.+]] = mlx.view %[[M]] : tensor<2x4xf32> to ui8
  // GENERIC:    "mlx.view"(%{{.*}}) <{dtype = ui8}> : (tensor<2x4xf32>) -> tensor<2x16xui8>
  %view_bytes = mlx.view %m : tensor<2x4xf32> to ui8
  // CHECK-NEXT: %[[VIEW_F32:.+]] = mlx.view %[[BYTES]] : tensor<2x8xui8> to f32
  // GENERIC:    "mlx.view"(%{{.*}}) <{dtype = f32}> : (tensor<2x8xui8>) -> tensor<2x2xf32>
  %view_f32 = mlx.view %bytes : tensor<2x8xui8> to f32
  // CHECK-NEXT: %[[VIEW_F16:.+]] = mlx.view %[[I16]] : tensor<5xi16> to f16
  // GENERIC:    "mlx.view"(%{{.*}}) <{dtype = f16}> : (tensor<5xi16>) -> tensor<5xf16>
  %view_f16 = mlx.view %i16 : tensor<5xi16> to f16
  // CHECK-NEXT: %[[VIEW_DYN:.+]] = mlx.view %[[DYN]] : tensor<3x?xi32> to ui8
  // GENERIC:    "mlx.view"(%{{.*}}) <{dtype = ui8}> : (tensor<3x?xi32>) -> tensor<3x?xui8>
  %view_dyn = mlx.view %dyn : tensor<3x?xi32> to ui8
  // CHECK-NEXT: %[[VIEW_BOOL:.+]] = mlx.view %[[B]] : tensor<4xi1> to i8
  // GENERIC:    "mlx.view"(%{{.*}}) <{dtype = i8}> : (tensor<4xi1>) -> tensor<4xi8>
  %view_bool = mlx.view %b : tensor<4xi1> to i8
  // CHECK-NEXT: return
  return
}

//===----------------------------------------------------------------------===//
// Layout ops.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reshape_broadcast_transpose(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2x3x4xf32>,
// CHECK-SAME:      %[[D:[^:]+]]: tensor<?x4xf16>,
// CHECK-SAME:      %[[ONE:[^:]+]]: tensor<1x1xi32>,
// CHECK-SAME:      %[[ROW:[^:]+]]: tensor<3xf32>,
// CHECK-SAME:      %[[S:[^:]+]]: tensor<1x1xui16>)
// GENERIC-LABEL: sym_name = "reshape_broadcast_transpose"
func.func @reshape_broadcast_transpose(%x: tensor<2x3x4xf32>, %d: tensor<?x4xf16>, %one: tensor<1x1xi32>, %row: tensor<3xf32>, %s: tensor<1x1xui16>) {
  // CHECK-NEXT: %[[RESHAPE:.+]] = mlx.reshape %[[X]] {shape = array<i64: 6, -1>} : tensor<2x3x4xf32>
  // GENERIC:    "mlx.reshape"(%{{.*}}) <{shape = array<i64: 6, -1>}> : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %reshape = mlx.reshape %x {shape = array<i64: 6, -1>} : tensor<2x3x4xf32>
  // CHECK-NEXT: %[[RESHAPE_DYN:.+]] = mlx.reshape %[[D]] {shape = array<i64: -1, 2>} : tensor<?x4xf16>
  // GENERIC:    "mlx.reshape"(%{{.*}}) <{shape = array<i64: -1, 2>}> : (tensor<?x4xf16>) -> tensor<?x2xf16>
  %reshape_dyn = mlx.reshape %d {shape = array<i64: -1, 2>} : tensor<?x4xf16>
  // CHECK-NEXT: %[[RESHAPE_SCALAR:.+]] = mlx.reshape %[[ONE]] {shape = array<i64>} : tensor<1x1xi32>
  // GENERIC:    "mlx.reshape"(%{{.*}}) <{shape = array<i64>}> : (tensor<1x1xi32>) -> tensor<i32>
  %reshape_scalar = mlx.reshape %one {shape = array<i64>} : tensor<1x1xi32>
  // CHECK-NEXT: %[[BCAST:.+]] = mlx.broadcast_to %[[ROW]] {shape = array<i64: 2, 3>} : tensor<3xf32>
  // GENERIC:    "mlx.broadcast_to"(%{{.*}}) <{shape = array<i64: 2, 3>}> : (tensor<3xf32>) -> tensor<2x3xf32>
  %bcast = mlx.broadcast_to %row {shape = array<i64: 2, 3>} : tensor<3xf32>
  // CHECK-NEXT: %[[BCAST_RANK:.+]] = mlx.broadcast_to %[[S]] {shape = array<i64: 4, 2, 5>} : tensor<1x1xui16>
  // GENERIC:    "mlx.broadcast_to"(%{{.*}}) <{shape = array<i64: 4, 2, 5>}> : (tensor<1x1xui16>) -> tensor<4x2x5xui16>
  %bcast_rank = mlx.broadcast_to %s {shape = array<i64: 4, 2, 5>} : tensor<1x1xui16>
  // CHECK-NEXT: %[[TRANSPOSE:.+]] = mlx.transpose %[[X]] {axes = array<i64: 2, 0, 1>} : tensor<2x3x4xf32>
  // GENERIC:    "mlx.transpose"(%{{.*}}) <{axes = array<i64: 2, 0, 1>}> : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %transpose = mlx.transpose %x {axes = array<i64: 2, 0, 1>} : tensor<2x3x4xf32>
  // CHECK-NEXT: %[[TRANSPOSE_NEG:.+]] = mlx.transpose %[[D]] {axes = array<i64: -1, 0>} : tensor<?x4xf16>
  // GENERIC:    "mlx.transpose"(%{{.*}}) <{axes = array<i64: -1, 0>}> : (tensor<?x4xf16>) -> tensor<4x?xf16>
  %transpose_neg = mlx.transpose %d {axes = array<i64: -1, 0>} : tensor<?x4xf16>
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @expand_squeeze_flatten(
// CHECK-SAME:      %[[ROW:[^:]+]]: tensor<3xf32>,
// CHECK-SAME:      %[[S:[^:]+]]: tensor<1x3x1xi64>,
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2x3x4xbf16>,
// CHECK-SAME:      %[[D:[^:]+]]: tensor<2x?x4xf32>,
// CHECK-SAME:      %[[SCALAR:[^:]+]]: tensor<i8>,
// CHECK-SAME:      %[[Y:[^:]+]]: tensor<2x12xui32>,
// CHECK-SAME:      %[[DY:[^:]+]]: tensor<?x6xf32>)
// GENERIC-LABEL: sym_name = "expand_squeeze_flatten"
func.func @expand_squeeze_flatten(%row: tensor<3xf32>, %s: tensor<1x3x1xi64>, %x: tensor<2x3x4xbf16>, %d: tensor<2x?x4xf32>, %scalar: tensor<i8>, %y: tensor<2x12xui32>, %dy: tensor<?x6xf32>) {
  // CHECK-NEXT: %[[EXPAND:.+]] = mlx.expand_dims %[[ROW]] {axes = array<i64: 0, -1>} : tensor<3xf32>
  // GENERIC:    "mlx.expand_dims"(%{{.*}}) <{axes = array<i64: 0, -1>}> : (tensor<3xf32>) -> tensor<1x3x1xf32>
  %expand = mlx.expand_dims %row {axes = array<i64: 0, -1>} : tensor<3xf32>
  // CHECK-NEXT: %[[SQUEEZE_AXES:.+]] = mlx.squeeze %[[S]] {axes = array<i64: 0>} : tensor<1x3x1xi64>
  // GENERIC:    "mlx.squeeze"(%{{.*}}) <{axes = array<i64: 0>}> : (tensor<1x3x1xi64>) -> tensor<3x1xi64>
  %squeeze_axes = mlx.squeeze %s {axes = array<i64: 0>} : tensor<1x3x1xi64>
  // CHECK-NEXT: %[[SQUEEZE_ALL:.+]] = mlx.squeeze %[[S]] : tensor<1x3x1xi64>
  // GENERIC:    "mlx.squeeze"(%{{.*}}) : (tensor<1x3x1xi64>) -> tensor<3xi64>
  %squeeze_all = mlx.squeeze %s : tensor<1x3x1xi64>
  // start_axis defaults to 0 and end_axis to -1.
  // CHECK-NEXT: %[[FLATTEN_ALL:.+]] = mlx.flatten %[[X]] : tensor<2x3x4xbf16>
  // GENERIC:    "mlx.flatten"(%{{.*}}) <{end_axis = -1 : i64, start_axis = 0 : i64}> : (tensor<2x3x4xbf16>) -> tensor<24xbf16>
  %flatten_all = mlx.flatten %x : tensor<2x3x4xbf16>
  // CHECK-NEXT: %[[FLATTEN_TAIL:.+]] = mlx.flatten %[[X]] {end_axis = 2 : i64, start_axis = 1 : i64} : tensor<2x3x4xbf16>
  // GENERIC:    "mlx.flatten"(%{{.*}}) <{end_axis = 2 : i64, start_axis = 1 : i64}> : (tensor<2x3x4xbf16>) -> tensor<2x12xbf16>
  %flatten_tail = mlx.flatten %x {start_axis = 1 : i64, end_axis = 2 : i64} : tensor<2x3x4xbf16>
  // CHECK-NEXT: %[[FLATTEN_DYN:.+]] = mlx.flatten %[[D]] {end_axis = 1 : i64} : tensor<2x?x4xf32>
  // GENERIC:    "mlx.flatten"(%{{.*}}) <{end_axis = 1 : i64, start_axis = 0 : i64}> : (tensor<2x?x4xf32>) -> tensor<?x4xf32>
  %flatten_dyn = mlx.flatten %d {start_axis = 0 : i64, end_axis = 1 : i64} : tensor<2x?x4xf32>
  // CHECK-NEXT: %[[FLATTEN_SCALAR:.+]] = mlx.flatten %[[SCALAR]] : tensor<i8>
  // GENERIC:    "mlx.flatten"(%{{.*}}) <{end_axis = -1 : i64, start_axis = 0 : i64}> : (tensor<i8>) -> tensor<1xi8>
  %flatten_scalar = mlx.flatten %scalar : tensor<i8>
  // CHECK-NEXT: %[[UNFLATTEN:.+]] = mlx.unflatten %[[Y]] {axis = 1 : i64, shape = array<i64: 3, -1>} : tensor<2x12xui32>
  // GENERIC:    "mlx.unflatten"(%{{.*}}) <{axis = 1 : i64, shape = array<i64: 3, -1>}> : (tensor<2x12xui32>) -> tensor<2x3x4xui32>
  %unflatten = mlx.unflatten %y {axis = 1 : i64, shape = array<i64: 3, -1>} : tensor<2x12xui32>
  // CHECK-NEXT: %[[UNFLATTEN_DYN:.+]] = mlx.unflatten %[[DY]] {axis = 0 : i64, shape = array<i64: -1, 2>} : tensor<?x6xf32>
  // GENERIC:    "mlx.unflatten"(%{{.*}}) <{axis = 0 : i64, shape = array<i64: -1, 2>}> : (tensor<?x6xf32>) -> tensor<?x2x6xf32>
  %unflatten_dyn = mlx.unflatten %dy {axis = 0 : i64, shape = array<i64: -1, 2>} : tensor<?x6xf32>
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @slices(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2x3x4xf32>,
// CHECK-SAME:      %[[U:[^:]+]]: tensor<2x1x2xf32>,
// CHECK-SAME:      %[[ROW:[^:]+]]: tensor<5xi16>,
// CHECK-SAME:      %[[CACHE:[^:]+]]: tensor<2x64xf32>,
// CHECK-SAME:      %[[OFF:[^:]+]]: tensor<1xi32>,
// CHECK-SAME:      %[[OFF_U:[^:]+]]: tensor<ui32>,
// CHECK-SAME:      %[[KV:[^:]+]]: tensor<2x1xf32>,
// CHECK-SAME:      %[[D:[^:]+]]: tensor<?x8xf16>)
// GENERIC-LABEL: sym_name = "slices"
func.func @slices(%x: tensor<2x3x4xf32>, %u: tensor<2x1x2xf32>, %row: tensor<5xi16>, %cache: tensor<2x64xf32>, %off: tensor<1xi32>, %off_u: tensor<ui32>, %kv: tensor<2x1xf32>, %d: tensor<?x8xf16>) {
  // CHECK-NEXT: %[[SLICE:.+]] = mlx.slice %[[X]] {start = array<i64: 0, 1, 0>, stop = array<i64: 2, 3, 4>, strides = array<i64: 1, 1, 2>} : tensor<2x3x4xf32>
  // GENERIC:    "mlx.slice"(%{{.*}}) <{start = array<i64: 0, 1, 0>, stop = array<i64: 2, 3, 4>, strides = array<i64: 1, 1, 2>}> : (tensor<2x3x4xf32>) -> tensor<2x2x2xf32>
  %slice = mlx.slice %x {start = array<i64: 0, 1, 0>, stop = array<i64: 2, 3, 4>, strides = array<i64: 1, 1, 2>} : tensor<2x3x4xf32>
  // A negative stride walks backwards from start down to (not including) stop.
  // CHECK-NEXT: %[[SLICE_REV:.+]] = mlx.slice %[[ROW]] {start = array<i64: 4>, stop = array<i64: -1>, strides = array<i64: -2>} : tensor<5xi16>
  // GENERIC:    "mlx.slice"(%{{.*}}) <{start = array<i64: 4>, stop = array<i64: -1>, strides = array<i64: -2>}> : (tensor<5xi16>) -> tensor<3xi16>
  %slice_rev = mlx.slice %row {start = array<i64: 4>, stop = array<i64: -1>, strides = array<i64: -2>} : tensor<5xi16>
  // CHECK-NEXT: %[[SLICE_DYN:.+]] = mlx.slice %[[D]] {start = array<i64: 0, 2>, stop = array<i64: 1, 8>, strides = array<i64: 1, 3>} : tensor<?x8xf16>
  // GENERIC:    "mlx.slice"(%{{.*}}) <{start = array<i64: 0, 2>, stop = array<i64: 1, 8>, strides = array<i64: 1, 3>}> : (tensor<?x8xf16>) -> tensor<1x2xf16>
  %slice_dyn = mlx.slice %d {start = array<i64: 0, 2>, stop = array<i64: 1, 8>, strides = array<i64: 1, 3>} : tensor<?x8xf16>
  // CHECK-NEXT: %[[SLICE_UPDATE:.+]] = mlx.slice_update %[[X]], %[[U]] {start = array<i64: 0, 1, 0>, stop = array<i64: 2, 2, 4>, strides = array<i64: 1, 1, 2>} : tensor<2x3x4xf32>, tensor<2x1x2xf32>
  // GENERIC:    "mlx.slice_update"(%{{.*}}, %{{.*}}) <{start = array<i64: 0, 1, 0>, stop = array<i64: 2, 2, 4>, strides = array<i64: 1, 1, 2>}> : (tensor<2x3x4xf32>, tensor<2x1x2xf32>) -> tensor<2x3x4xf32>
  %slice_update = mlx.slice_update %x, %u {start = array<i64: 0, 1, 0>, stop = array<i64: 2, 2, 4>, strides = array<i64: 1, 1, 2>} : tensor<2x3x4xf32>, tensor<2x1x2xf32>
  // CHECK-NEXT: %[[DSLICE:.+]] = mlx.dynamic_slice %[[CACHE]], %[[OFF]] {axes = array<i64: 1>, slice_size = array<i64: 2, 16>} : tensor<2x64xf32>, tensor<1xi32>
  // GENERIC:    "mlx.dynamic_slice"(%{{.*}}, %{{.*}}) <{axes = array<i64: 1>, slice_size = array<i64: 2, 16>}> : (tensor<2x64xf32>, tensor<1xi32>) -> tensor<2x16xf32>
  %dslice = mlx.dynamic_slice %cache, %off {axes = array<i64: 1>, slice_size = array<i64: 2, 16>} : tensor<2x64xf32>, tensor<1xi32>
  // CHECK-NEXT: %[[DSLICE_SCALAR:.+]] = mlx.dynamic_slice %[[D]], %[[OFF_U]] {axes = array<i64: 0>, slice_size = array<i64: 1, 8>} : tensor<?x8xf16>, tensor<ui32>
  // GENERIC:    "mlx.dynamic_slice"(%{{.*}}, %{{.*}}) <{axes = array<i64: 0>, slice_size = array<i64: 1, 8>}> : (tensor<?x8xf16>, tensor<ui32>) -> tensor<1x8xf16>
  %dslice_scalar = mlx.dynamic_slice %d, %off_u {axes = array<i64: 0>, slice_size = array<i64: 1, 8>} : tensor<?x8xf16>, tensor<ui32>
  // CHECK-NEXT: %[[DSLICE_UPDATE:.+]] = mlx.dynamic_slice_update %[[CACHE]], %[[KV]], %[[OFF]] {axes = array<i64: 1>} : tensor<2x64xf32>, tensor<2x1xf32>, tensor<1xi32>
  // GENERIC:    "mlx.dynamic_slice_update"(%{{.*}}, %{{.*}}, %{{.*}}) <{axes = array<i64: 1>}> : (tensor<2x64xf32>, tensor<2x1xf32>, tensor<1xi32>) -> tensor<2x64xf32>
  %dslice_update = mlx.dynamic_slice_update %cache, %kv, %off {axes = array<i64: 1>} : tensor<2x64xf32>, tensor<2x1xf32>, tensor<1xi32>
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @concat_split_pad_strided(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<2x3xf32>,
// CHECK-SAME:      %[[B:[^:]+]]: tensor<1x3xf16>,
// CHECK-SAME:      %[[D:[^:]+]]: tensor<?x3xf32>,
// CHECK-SAME:      %[[X:[^:]+]]: tensor<6x2xi32>,
// CHECK-SAME:      %[[P:[^:]+]]: tensor<2x3xbf16>,
// CHECK-SAME:      %[[ZERO:[^:]+]]: tensor<bf16>,
// CHECK-SAME:      %[[V:[^:]+]]: tensor<4xf32>)
// GENERIC-LABEL: sym_name = "concat_split_pad_strided"
func.func @concat_split_pad_strided(%a: tensor<2x3xf32>, %b: tensor<1x3xf16>, %d: tensor<?x3xf32>, %x: tensor<6x2xi32>, %p: tensor<2x3xbf16>, %zero: tensor<bf16>, %v: tensor<4xf32>) {
  // CHECK-NEXT: %[[CONCAT:.+]] = mlx.concatenate %[[A]], %[[B]] : tensor<2x3xf32>, tensor<1x3xf16>
  // GENERIC:    "mlx.concatenate"(%{{.*}}, %{{.*}}) <{axis = 0 : i64}> : (tensor<2x3xf32>, tensor<1x3xf16>) -> tensor<3x3xf32>
  %concat = mlx.concatenate %a, %b {axis = 0 : i64} : tensor<2x3xf32>, tensor<1x3xf16>
  // CHECK-NEXT: %[[CONCAT_DEFAULT_AXIS:.+]] = mlx.concatenate %[[A]], %[[A]], %[[B]] : tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x3xf16>
  // GENERIC:    "mlx.concatenate"(%{{.*}}, %{{.*}}, %{{.*}}) <{axis = 0 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x3xf16>) -> tensor<5x3xf32>
  %concat_default_axis = mlx.concatenate %a, %a, %b : tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x3xf16>
  // CHECK-NEXT: %[[CONCAT_LAST:.+]] = mlx.concatenate %[[A]], %[[A]] {axis = -1 : i64} : tensor<2x3xf32>, tensor<2x3xf32>
  // GENERIC:    "mlx.concatenate"(%{{.*}}, %{{.*}}) <{axis = -1 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  %concat_last = mlx.concatenate %a, %a {axis = -1 : i64} : tensor<2x3xf32>, tensor<2x3xf32>
  // CHECK-NEXT: %[[CONCAT_DYN:.+]] = mlx.concatenate %[[D]], %[[A]] : tensor<?x3xf32>, tensor<2x3xf32>
  // GENERIC:    "mlx.concatenate"(%{{.*}}, %{{.*}}) <{axis = 0 : i64}> : (tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
  %concat_dyn = mlx.concatenate %d, %a : tensor<?x3xf32>, tensor<2x3xf32>
  // CHECK-NEXT: %[[CONCAT_ONE:.+]] = mlx.concatenate %[[B]] : tensor<1x3xf16>
  %concat_one = mlx.concatenate %b : tensor<1x3xf16>
  // CHECK-NEXT: %[[SPLIT:.+]]:3 = mlx.split %[[X]] {indices = array<i64: 1, 4>} : tensor<6x2xi32>
  // GENERIC:    "mlx.split"(%{{.*}}) <{axis = 0 : i64, indices = array<i64: 1, 4>}> : (tensor<6x2xi32>) -> (tensor<1x2xi32>, tensor<3x2xi32>, tensor<2x2xi32>)
  %split:3 = mlx.split %x {indices = array<i64: 1, 4>, axis = 0 : i64} : tensor<6x2xi32>
  // CHECK-NEXT: %[[SPLIT_COLS:.+]]:2 = mlx.split %[[X]] {axis = 1 : i64, indices = array<i64: 1>} : tensor<6x2xi32>
  // GENERIC:    "mlx.split"(%{{.*}}) <{axis = 1 : i64, indices = array<i64: 1>}> : (tensor<6x2xi32>) -> (tensor<6x1xi32>, tensor<6x1xi32>)
  %split_cols:2 = mlx.split %x {indices = array<i64: 1>, axis = 1 : i64} : tensor<6x2xi32>
  // CHECK-NEXT: %[[SPLIT_DYN:.+]]:2 = mlx.split %[[D]] {indices = array<i64: 2>} : tensor<?x3xf32>
  // GENERIC:    "mlx.split"(%{{.*}}) <{axis = 0 : i64, indices = array<i64: 2>}> : (tensor<?x3xf32>) -> (tensor<2x3xf32>, tensor<?x3xf32>)
  %split_dyn:2 = mlx.split %d {indices = array<i64: 2>} : tensor<?x3xf32>
  // CHECK-NEXT: %[[PAD:.+]] = mlx.pad %[[P]], %[[ZERO]] {axes = array<i64: 1>, high = array<i64: 2>, low = array<i64: 1>} : tensor<2x3xbf16>, tensor<bf16>
  // GENERIC:    "mlx.pad"(%{{.*}}, %{{.*}}) <{axes = array<i64: 1>, high = array<i64: 2>, low = array<i64: 1>}> : (tensor<2x3xbf16>, tensor<bf16>) -> tensor<2x6xbf16>
  %pad = mlx.pad %p, %zero {axes = array<i64: 1>, low = array<i64: 1>, high = array<i64: 2>} : tensor<2x3xbf16>, tensor<bf16>
  // CHECK-NEXT: %[[PAD_TWO:.+]] = mlx.pad %[[P]], %[[ZERO]] {axes = array<i64: 0, -1>, high = array<i64: 3, 0>, low = array<i64: 0, 2>} : tensor<2x3xbf16>, tensor<bf16>
  // GENERIC:    "mlx.pad"(%{{.*}}, %{{.*}}) <{axes = array<i64: 0, -1>, high = array<i64: 3, 0>, low = array<i64: 0, 2>}> : (tensor<2x3xbf16>, tensor<bf16>) -> tensor<5x5xbf16>
  %pad_two = mlx.pad %p, %zero {axes = array<i64: 0, -1>, low = array<i64: 0, 2>, high = array<i64: 3, 0>} : tensor<2x3xbf16>, tensor<bf16>
  // offset defaults to 0.
  // CHECK-NEXT: %[[STRIDED:.+]] = mlx.as_strided %[[V]] {shape = array<i64: 3, 2>, strides = array<i64: 1, 1>} : tensor<4xf32>
  // GENERIC:    "mlx.as_strided"(%{{.*}}) <{offset = 0 : i64, shape = array<i64: 3, 2>, strides = array<i64: 1, 1>}> : (tensor<4xf32>) -> tensor<3x2xf32>
  %strided = mlx.as_strided %v {shape = array<i64: 3, 2>, strides = array<i64: 1, 1>} : tensor<4xf32>
  // CHECK-NEXT: %[[STRIDED_OFF:.+]] = mlx.as_strided %[[V]] {offset = 1 : i64, shape = array<i64: 2>, strides = array<i64: 2>} : tensor<4xf32>
  // GENERIC:    "mlx.as_strided"(%{{.*}}) <{offset = 1 : i64, shape = array<i64: 2>, strides = array<i64: 2>}> : (tensor<4xf32>) -> tensor<2xf32>
  %strided_off = mlx.as_strided %v {shape = array<i64: 2>, strides = array<i64: 2>, offset = 1 : i64} : tensor<4xf32>
  // CHECK-NEXT: return
  return
}

//===----------------------------------------------------------------------===//
// Reductions, scans and softmax. sum/prod widen bool, int8, int16 to int32
// and uint8, uint16 to uint32; arg reductions give uint32; logsumexp and
// softmax are floating; cumsum turns bool into int32.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reductions(
// CHECK-SAME:      %[[I8:[^:]+]]: tensor<2x3xi8>,
// CHECK-SAME:      %[[U16:[^:]+]]: tensor<2x3xui16>,
// CHECK-SAME:      %[[F16:[^:]+]]: tensor<4x?xf16>,
// CHECK-SAME:      %[[B:[^:]+]]: tensor<2x2xi1>,
// CHECK-SAME:      %[[I64:[^:]+]]: tensor<5xi64>,
// CHECK-SAME:      %[[F32:[^:]+]]: tensor<2x3xf32>,
// CHECK-SAME:      %[[I32:[^:]+]]: tensor<3x4xi32>,
// CHECK-SAME:      %[[BF16:[^:]+]]: tensor<2x8xbf16>,
// CHECK-SAME:      %[[U8:[^:]+]]: tensor<3xui8>)
// GENERIC-LABEL: sym_name = "reductions"
func.func @reductions(%i8: tensor<2x3xi8>, %u16: tensor<2x3xui16>, %f16: tensor<4x?xf16>, %b: tensor<2x2xi1>, %i64: tensor<5xi64>, %f32: tensor<2x3xf32>, %i32: tensor<3x4xi32>, %bf16: tensor<2x8xbf16>, %u8: tensor<3xui8>) {
  // CHECK-NEXT: %[[SUM_ALL:.+]] = mlx.sum %[[I8]] : tensor<2x3xi8>
  // GENERIC:    "mlx.sum"(%{{.*}}) <{keepdims = false}> : (tensor<2x3xi8>) -> tensor<i32>
  %sum_all = mlx.sum %i8 : tensor<2x3xi8>
  // CHECK-NEXT: %[[SUM_KEEP:.+]] = mlx.sum %[[U16]] {axes = array<i64: -1>, keepdims = true} : tensor<2x3xui16>
  // GENERIC:    "mlx.sum"(%{{.*}}) <{axes = array<i64: -1>, keepdims = true}> : (tensor<2x3xui16>) -> tensor<2x1xui32>
  %sum_keep = mlx.sum %u16 {axes = array<i64: -1>, keepdims = true} : tensor<2x3xui16>
  // CHECK-NEXT: %[[SUM_DYN:.+]] = mlx.sum %[[F16]] {axes = array<i64: 0>} : tensor<4x?xf16>
  // GENERIC:    "mlx.sum"(%{{.*}}) <{axes = array<i64: 0>, keepdims = false}> : (tensor<4x?xf16>) -> tensor<?xf16>
  %sum_dyn = mlx.sum %f16 {axes = array<i64: 0>} : tensor<4x?xf16>
  // CHECK-NEXT: %[[PROD_B:.+]] = mlx.prod %[[B]] : tensor<2x2xi1>
  // GENERIC:    "mlx.prod"(%{{.*}}) <{keepdims = false}> : (tensor<2x2xi1>) -> tensor<i32>
  %prod_b = mlx.prod %b : tensor<2x2xi1>
  // CHECK-NEXT: %[[PROD_I64:.+]] = mlx.prod %[[I64]] {axes = array<i64: 0>, keepdims = true} : tensor<5xi64>
  // GENERIC:    "mlx.prod"(%{{.*}}) <{axes = array<i64: 0>, keepdims = true}> : (tensor<5xi64>) -> tensor<1xi64>
  %prod_i64 = mlx.prod %i64 {axes = array<i64: 0>, keepdims = true} : tensor<5xi64>
  // CHECK-NEXT: %[[PROD_U8:.+]] = mlx.prod %[[U8]] : tensor<3xui8>
  // GENERIC:    "mlx.prod"(%{{.*}}) <{keepdims = false}> : (tensor<3xui8>) -> tensor<ui32>
  %prod_u8 = mlx.prod %u8 : tensor<3xui8>
  // CHECK-NEXT: %[[MAX:.+]] = mlx.max %[[F32]] {axes = array<i64: 1>} : tensor<2x3xf32>
  // GENERIC:    "mlx.max"(%{{.*}}) <{axes = array<i64: 1>, keepdims = false}> : (tensor<2x3xf32>) -> tensor<2xf32>
  %max = mlx.max %f32 {axes = array<i64: 1>} : tensor<2x3xf32>
  // CHECK-NEXT: %[[MAX_I8:.+]] = mlx.max %[[I8]] : tensor<2x3xi8>
  // GENERIC:    "mlx.max"(%{{.*}}) <{keepdims = false}> : (tensor<2x3xi8>) -> tensor<i8>
  %max_i8 = mlx.max %i8 : tensor<2x3xi8>
  // CHECK-NEXT: %[[MIN:.+]] = mlx.min %[[F16]] {axes = array<i64: 1>, keepdims = true} : tensor<4x?xf16>
  // GENERIC:    "mlx.min"(%{{.*}}) <{axes = array<i64: 1>, keepdims = true}> : (tensor<4x?xf16>) -> tensor<4x1xf16>
  %min = mlx.min %f16 {axes = array<i64: 1>, keepdims = true} : tensor<4x?xf16>
  // CHECK-NEXT: %[[ALL:.+]] = mlx.all %[[F32]] {axes = array<i64: 0, 1>} : tensor<2x3xf32>
  // GENERIC:    "mlx.all"(%{{.*}}) <{axes = array<i64: 0, 1>, keepdims = false}> : (tensor<2x3xf32>) -> tensor<i1>
  %all = mlx.all %f32 {axes = array<i64: 0, 1>} : tensor<2x3xf32>
  // CHECK-NEXT: %[[ANY:.+]] = mlx.any %[[B]] {axes = array<i64: 1>} : tensor<2x2xi1>
  // GENERIC:    "mlx.any"(%{{.*}}) <{axes = array<i64: 1>, keepdims = false}> : (tensor<2x2xi1>) -> tensor<2xi1>
  %any = mlx.any %b {axes = array<i64: 1>} : tensor<2x2xi1>
  // CHECK-NEXT: %[[LSE_INT:.+]] = mlx.logsumexp %[[I32]] {axes = array<i64: 1>} : tensor<3x4xi32>
  // GENERIC:    "mlx.logsumexp"(%{{.*}}) <{axes = array<i64: 1>, keepdims = false}> : (tensor<3x4xi32>) -> tensor<3xf32>
  %lse_int = mlx.logsumexp %i32 {axes = array<i64: 1>} : tensor<3x4xi32>
  // CHECK-NEXT: %[[LSE_BF16:.+]] = mlx.logsumexp %[[BF16]] : tensor<2x8xbf16>
  // GENERIC:    "mlx.logsumexp"(%{{.*}}) <{keepdims = false}> : (tensor<2x8xbf16>) -> tensor<bf16>
  %lse_bf16 = mlx.logsumexp %bf16 : tensor<2x8xbf16>
  // CHECK-NEXT: %[[ARGMAX:.+]] = mlx.argmax %[[F32]] {axis = 1 : i64} : tensor<2x3xf32>
  // GENERIC:    "mlx.argmax"(%{{.*}}) <{axis = 1 : i64, keepdims = false}> : (tensor<2x3xf32>) -> tensor<2xui32>
  %argmax = mlx.argmax %f32 {axis = 1 : i64} : tensor<2x3xf32>
  // CHECK-NEXT: %[[ARGMIN_KEEP:.+]] = mlx.argmin %[[I8]] {axis = -2 : i64, keepdims = true} : tensor<2x3xi8>
  // GENERIC:    "mlx.argmin"(%{{.*}}) <{axis = -2 : i64, keepdims = true}> : (tensor<2x3xi8>) -> tensor<1x3xui32>
  %argmin_keep = mlx.argmin %i8 {axis = -2 : i64, keepdims = true} : tensor<2x3xi8>
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @softmax_and_scans(
// CHECK-SAME:      %[[F32:[^:]+]]: tensor<2x3xf32>,
// CHECK-SAME:      %[[BF16:[^:]+]]: tensor<2x8xbf16>,
// CHECK-SAME:      %[[I32:[^:]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[B:[^:]+]]: tensor<5xi1>,
// CHECK-SAME:      %[[U8:[^:]+]]: tensor<3x?xui8>,
// CHECK-SAME:      %[[F64:[^:]+]]: tensor<2x2xf64>)
// GENERIC-LABEL: sym_name = "softmax_and_scans"
func.func @softmax_and_scans(%f32: tensor<2x3xf32>, %bf16: tensor<2x8xbf16>, %i32: tensor<4xi32>, %b: tensor<5xi1>, %u8: tensor<3x?xui8>, %f64: tensor<2x2xf64>) {
  // CHECK-NEXT: %[[SOFTMAX_ALL:.+]] = mlx.softmax %[[F32]] : tensor<2x3xf32>
  %softmax_all = mlx.softmax %f32 : tensor<2x3xf32>
  // CHECK-NEXT: %[[SOFTMAX:.+]] = mlx.softmax %[[BF16]] {axes = array<i64: -1>, precise = true} : tensor<2x8xbf16>
  // GENERIC:    "mlx.softmax"(%{{.*}}) <{axes = array<i64: -1>, precise = true}> : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  %softmax = mlx.softmax %bf16 {axes = array<i64: -1>, precise = true} : tensor<2x8xbf16>
  // CHECK-NEXT: %[[SOFTMAX_INT:.+]] = mlx.softmax %[[I32]] {axes = array<i64: 0>} : tensor<4xi32>
  // GENERIC:    "mlx.softmax"(%{{.*}}) <{axes = array<i64: 0>, precise = false}> : (tensor<4xi32>) -> tensor<4xf32>
  %softmax_int = mlx.softmax %i32 {axes = array<i64: 0>} : tensor<4xi32>
  // CHECK-NEXT: %[[CUMSUM:.+]] = mlx.cumsum %[[F32]] {axis = 1 : i64} : tensor<2x3xf32>
  %cumsum = mlx.cumsum %f32 {axis = 1 : i64} : tensor<2x3xf32>
  // CHECK-NEXT: %[[CUMSUM_B:.+]] = mlx.cumsum %[[B]] {axis = 0 : i64} : tensor<5xi1>
  // GENERIC:    "mlx.cumsum"(%{{.*}}) <{axis = 0 : i64, inclusive = true, reverse = false}> : (tensor<5xi1>) -> tensor<5xi32>
  %cumsum_b = mlx.cumsum %b {axis = 0 : i64} : tensor<5xi1>
  // CHECK-NEXT: %[[CUMSUM_U8:.+]] = mlx.cumsum %[[U8]] {axis = -1 : i64, inclusive = false, reverse = true} : tensor<3x?xui8>
  // GENERIC:    "mlx.cumsum"(%{{.*}}) <{axis = -1 : i64, inclusive = false, reverse = true}> : (tensor<3x?xui8>) -> tensor<3x?xui8>
  %cumsum_u8 = mlx.cumsum %u8 {axis = -1 : i64, reverse = true, inclusive = false} : tensor<3x?xui8>
  // CHECK-NEXT: %[[CUMPROD:.+]] = mlx.cumprod %[[I32]] {axis = 0 : i64, inclusive = false} : tensor<4xi32>
  // GENERIC:    "mlx.cumprod"(%{{.*}}) <{axis = 0 : i64, inclusive = false, reverse = false}> : (tensor<4xi32>) -> tensor<4xi32>
  %cumprod = mlx.cumprod %i32 {axis = 0 : i64, inclusive = false} : tensor<4xi32>
  // CHECK-NEXT: %[[CUMMAX:.+]] = mlx.cummax %[[F64]] {axis = 0 : i64, reverse = true} : tensor<2x2xf64>
  // GENERIC:    "mlx.cummax"(%{{.*}}) <{axis = 0 : i64, inclusive = true, reverse = true}> : (tensor<2x2xf64>) -> tensor<2x2xf64>
  %cummax = mlx.cummax %f64 {axis = 0 : i64, reverse = true} : tensor<2x2xf64>
  // CHECK-NEXT: %[[CUMMIN:.+]] = mlx.cummin %[[B]] {axis = 0 : i64} : tensor<5xi1>
  // GENERIC:    "mlx.cummin"(%{{.*}}) <{axis = 0 : i64, inclusive = true, reverse = false}> : (tensor<5xi1>) -> tensor<5xi1>
  %cummin = mlx.cummin %b {axis = 0 : i64} : tensor<5xi1>
  // CHECK-NEXT: return
  return
}

//===----------------------------------------------------------------------===//
// Gather and scatter: index array i indexes axis axes[i]; the index arrays
// broadcast together to a shape B, gather gives B ++ slice_sizes and scatter
// takes updates of shape B ++ slice shape.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @gather(
// CHECK-SAME:      %[[EMB:[^:]+]]: tensor<1000x64xf32>,
// CHECK-SAME:      %[[IDS:[^:]+]]: tensor<8xi32>,
// CHECK-SAME:      %[[SRC:[^:]+]]: tensor<4x5x6xf16>,
// CHECK-SAME:      %[[I:[^:]+]]: tensor<2x1xui32>,
// CHECK-SAME:      %[[J:[^:]+]]: tensor<3xi64>,
// CHECK-SAME:      %[[DYN_IDS:[^:]+]]: tensor<?xui8>,
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2x3xf32>,
// CHECK-SAME:      %[[TI:[^:]+]]: tensor<2x1xi32>,
// CHECK-SAME:      %[[TB:[^:]+]]: tensor<1x5xui16>)
// GENERIC-LABEL: sym_name = "gather"
func.func @gather(%emb: tensor<1000x64xf32>, %ids: tensor<8xi32>, %src: tensor<4x5x6xf16>, %i: tensor<2x1xui32>, %j: tensor<3xi64>, %dyn_ids: tensor<?xui8>, %x: tensor<2x3xf32>, %ti: tensor<2x1xi32>, %tb: tensor<1x5xui16>) {
  // CHECK-NEXT: %[[GATHER:.+]] = mlx.gather %[[EMB]][%[[IDS]]] {axes = array<i64: 0>, slice_sizes = array<i64: 1, 64>} : tensor<1000x64xf32>[tensor<8xi32>]
  // GENERIC:    "mlx.gather"(%{{.*}}, %{{.*}}) <{axes = array<i64: 0>, slice_sizes = array<i64: 1, 64>}> : (tensor<1000x64xf32>, tensor<8xi32>) -> tensor<8x1x64xf32>
  %gather = mlx.gather %emb[%ids] {axes = array<i64: 0>, slice_sizes = array<i64: 1, 64>} : tensor<1000x64xf32>[tensor<8xi32>]
  // CHECK-NEXT: %[[GATHER_TWO:.+]] = mlx.gather %[[SRC]][%[[I]], %[[J]]] {axes = array<i64: 0, 2>, slice_sizes = array<i64: 1, 5, 1>} : tensor<4x5x6xf16>[tensor<2x1xui32>, tensor<3xi64>]
  // GENERIC:    "mlx.gather"(%{{.*}}, %{{.*}}, %{{.*}}) <{axes = array<i64: 0, 2>, slice_sizes = array<i64: 1, 5, 1>}> : (tensor<4x5x6xf16>, tensor<2x1xui32>, tensor<3xi64>) -> tensor<2x3x1x5x1xf16>
  %gather_two = mlx.gather %src[%i, %j] {axes = array<i64: 0, 2>, slice_sizes = array<i64: 1, 5, 1>} : tensor<4x5x6xf16>[tensor<2x1xui32>, tensor<3xi64>]
  // CHECK-NEXT: %[[GATHER_DYN:.+]] = mlx.gather %[[EMB]][%[[DYN_IDS]]] {axes = array<i64: 0>, slice_sizes = array<i64: 1, 16>} : tensor<1000x64xf32>[tensor<?xui8>]
  // GENERIC:    "mlx.gather"(%{{.*}}, %{{.*}}) <{axes = array<i64: 0>, slice_sizes = array<i64: 1, 16>}> : (tensor<1000x64xf32>, tensor<?xui8>) -> tensor<?x1x16xf32>
  %gather_dyn = mlx.gather %emb[%dyn_ids] {axes = array<i64: 0>, slice_sizes = array<i64: 1, 16>} : tensor<1000x64xf32>[tensor<?xui8>]
  // CHECK-NEXT: %[[TAKE:.+]] = mlx.take_along_axis %[[X]], %[[TI]] {axis = 1 : i64} : tensor<2x3xf32>, tensor<2x1xi32>
  // GENERIC:    "mlx.take_along_axis"(%{{.*}}, %{{.*}}) <{axis = 1 : i64}> : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x1xf32>
  %take = mlx.take_along_axis %x, %ti {axis = 1 : i64} : tensor<2x3xf32>, tensor<2x1xi32>
  // The indices broadcast against x on the other axes.
  // CHECK-NEXT: %[[TAKE_BCAST:.+]] = mlx.take_along_axis %[[X]], %[[TB]] {axis = -1 : i64} : tensor<2x3xf32>, tensor<1x5xui16>
  // GENERIC:    "mlx.take_along_axis"(%{{.*}}, %{{.*}}) <{axis = -1 : i64}> : (tensor<2x3xf32>, tensor<1x5xui16>) -> tensor<2x5xf32>
  %take_bcast = mlx.take_along_axis %x, %tb {axis = -1 : i64} : tensor<2x3xf32>, tensor<1x5xui16>
  // CHECK-NEXT: return
  return
}

// Gather and scatter with no index array at all (one slice) are valid ops;
// their custom form leaves the brackets out, and must round-trip too.
// CHECK-LABEL: func.func @gather_scatter_no_indices(
// CHECK-SAME:      %[[SRC:[^:]+]]: tensor<4x5xf32>,
// CHECK-SAME:      %[[UPD:[^:]+]]: tensor<2x5xf32>)
// GENERIC-LABEL: sym_name = "gather_scatter_no_indices"
func.func @gather_scatter_no_indices(%src: tensor<4x5xf32>, %upd: tensor<2x5xf32>) {
  // CHECK-NEXT: %[[GATHER_NONE:.+]] = mlx.gather %[[SRC]] {axes = array<i64>, slice_sizes = array<i64: 2, 5>} : tensor<4x5xf32>{{$}}
  // GENERIC:    "mlx.gather"(%{{.*}}) <{axes = array<i64>, slice_sizes = array<i64: 2, 5>}> : (tensor<4x5xf32>) -> tensor<2x5xf32>
  %gather_none = "mlx.gather"(%src) <{axes = array<i64>, slice_sizes = array<i64: 2, 5>}> : (tensor<4x5xf32>) -> tensor<2x5xf32>
  // CHECK-NEXT: %[[SCATTER_NONE:.+]] = mlx.scatter %[[SRC]], %[[UPD]] {axes = array<i64>} : tensor<4x5xf32>, tensor<2x5xf32>
  // GENERIC:    "mlx.scatter"(%{{.*}}, %{{.*}}) <{axes = array<i64>}> : (tensor<4x5xf32>, tensor<2x5xf32>) -> tensor<4x5xf32>
  %scatter_none = "mlx.scatter"(%src, %upd) <{axes = array<i64>}> : (tensor<4x5xf32>, tensor<2x5xf32>) -> tensor<4x5xf32>
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @scatter(
// CHECK-SAME:      %[[SRC:[^:]+]]: tensor<8x4xf32>,
// CHECK-SAME:      %[[IDX:[^:]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[UPD:[^:]+]]: tensor<3x1x4xf32>,
// CHECK-SAME:      %[[ISRC:[^:]+]]: tensor<4x5x6xi64>,
// CHECK-SAME:      %[[I:[^:]+]]: tensor<2xui32>,
// CHECK-SAME:      %[[J:[^:]+]]: tensor<2x1xi16>,
// CHECK-SAME:      %[[IUPD:[^:]+]]: tensor<2x2x1x5x1xi64>,
// CHECK-SAME:      %[[BSRC:[^:]+]]: tensor<6xi1>,
// CHECK-SAME:      %[[BIDX:[^:]+]]: tensor<6xui8>,
// CHECK-SAME:      %[[BUPD:[^:]+]]: tensor<6x1xi1>,
// CHECK-SAME:      %[[DSRC:[^:]+]]: tensor<?x4xbf16>,
// CHECK-SAME:      %[[DUPD:[^:]+]]: tensor<3x1x4xbf16>)
// GENERIC-LABEL: sym_name = "scatter"
func.func @scatter(%src: tensor<8x4xf32>, %idx: tensor<3xi32>, %upd: tensor<3x1x4xf32>, %isrc: tensor<4x5x6xi64>, %i: tensor<2xui32>, %j: tensor<2x1xi16>, %iupd: tensor<2x2x1x5x1xi64>, %bsrc: tensor<6xi1>, %bidx: tensor<6xui8>, %bupd: tensor<6x1xi1>, %dsrc: tensor<?x4xbf16>, %dupd: tensor<3x1x4xbf16>) {
  // CHECK-NEXT: %[[SCATTER:.+]] = mlx.scatter %[[SRC]][%[[IDX]]], %[[UPD]] {axes = array<i64: 0>} : tensor<8x4xf32>[tensor<3xi32>], tensor<3x1x4xf32>
  // GENERIC:    "mlx.scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{axes = array<i64: 0>}> : (tensor<8x4xf32>, tensor<3xi32>, tensor<3x1x4xf32>) -> tensor<8x4xf32>
  %scatter = mlx.scatter %src[%idx], %upd {axes = array<i64: 0>} : tensor<8x4xf32>[tensor<3xi32>], tensor<3x1x4xf32>
  // CHECK-NEXT: %[[SCATTER_ADD:.+]] = mlx.scatter_add %[[ISRC]][%[[I]], %[[J]]], %[[IUPD]] {axes = array<i64: 0, 2>} : tensor<4x5x6xi64>[tensor<2xui32>, tensor<2x1xi16>], tensor<2x2x1x5x1xi64>
  // GENERIC:    "mlx.scatter_add"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{axes = array<i64: 0, 2>}> : (tensor<4x5x6xi64>, tensor<2xui32>, tensor<2x1xi16>, tensor<2x2x1x5x1xi64>) -> tensor<4x5x6xi64>
  %scatter_add = mlx.scatter_add %isrc[%i, %j], %iupd {axes = array<i64: 0, 2>} : tensor<4x5x6xi64>[tensor<2xui32>, tensor<2x1xi16>], tensor<2x2x1x5x1xi64>
  // CHECK-NEXT: %[[SCATTER_PROD:.+]] = mlx.scatter_prod %[[BSRC]][%[[BIDX]]], %[[BUPD]] {axes = array<i64: 0>} : tensor<6xi1>[tensor<6xui8>], tensor<6x1xi1>
  %scatter_prod = mlx.scatter_prod %bsrc[%bidx], %bupd {axes = array<i64: 0>} : tensor<6xi1>[tensor<6xui8>], tensor<6x1xi1>
  // CHECK-NEXT: %[[SCATTER_MAX:.+]] = mlx.scatter_max %[[DSRC]][%[[IDX]]], %[[DUPD]] {axes = array<i64: 0>} : tensor<?x4xbf16>[tensor<3xi32>], tensor<3x1x4xbf16>
  // GENERIC:    "mlx.scatter_max"(%{{.*}}, %{{.*}}, %{{.*}}) <{axes = array<i64: 0>}> : (tensor<?x4xbf16>, tensor<3xi32>, tensor<3x1x4xbf16>) -> tensor<?x4xbf16>
  %scatter_max = mlx.scatter_max %dsrc[%idx], %dupd {axes = array<i64: 0>} : tensor<?x4xbf16>[tensor<3xi32>], tensor<3x1x4xbf16>
  // CHECK-NEXT: %[[SCATTER_MIN:.+]] = mlx.scatter_min %[[SRC]][%[[IDX]]], %[[UPD]] {axes = array<i64: -2>} : tensor<8x4xf32>[tensor<3xi32>], tensor<3x1x4xf32>
  %scatter_min = mlx.scatter_min %src[%idx], %upd {axes = array<i64: -2>} : tensor<8x4xf32>[tensor<3xi32>], tensor<3x1x4xf32>
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @along_axis(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2x3xf32>,
// CHECK-SAME:      %[[I:[^:]+]]: tensor<2x1xi32>,
// CHECK-SAME:      %[[V:[^:]+]]: tensor<2x1xf32>,
// CHECK-SAME:      %[[VS:[^:]+]]: tensor<f32>,
// CHECK-SAME:      %[[XI:[^:]+]]: tensor<4x?xui64>,
// CHECK-SAME:      %[[II:[^:]+]]: tensor<1x2xui8>,
// CHECK-SAME:      %[[VI:[^:]+]]: tensor<4x2xui64>)
// GENERIC-LABEL: sym_name = "along_axis"
func.func @along_axis(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>, %v: tensor<2x1xf32>, %vs: tensor<f32>, %xi: tensor<4x?xui64>, %ii: tensor<1x2xui8>, %vi: tensor<4x2xui64>) {
  // CHECK-NEXT: %[[PUT:.+]] = mlx.put_along_axis %[[X]], %[[I]], %[[V]] {axis = 1 : i64} : tensor<2x3xf32>, tensor<2x1xi32>, tensor<2x1xf32>
  // GENERIC:    "mlx.put_along_axis"(%{{.*}}, %{{.*}}, %{{.*}}) <{axis = 1 : i64}> : (tensor<2x3xf32>, tensor<2x1xi32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %put = mlx.put_along_axis %x, %i, %v {axis = 1 : i64} : tensor<2x3xf32>, tensor<2x1xi32>, tensor<2x1xf32>
  // values broadcast to the index shape.
  // CHECK-NEXT: %[[PUT_SCALAR:.+]] = mlx.put_along_axis %[[X]], %[[I]], %[[VS]] {axis = -1 : i64} : tensor<2x3xf32>, tensor<2x1xi32>, tensor<f32>
  %put_scalar = mlx.put_along_axis %x, %i, %vs {axis = -1 : i64} : tensor<2x3xf32>, tensor<2x1xi32>, tensor<f32>
  // CHECK-NEXT: %[[SCATTER_ADD_AXIS:.+]] = mlx.scatter_add_axis %[[XI]], %[[II]], %[[VI]] {axis = 1 : i64} : tensor<4x?xui64>, tensor<1x2xui8>, tensor<4x2xui64>
  // GENERIC:    "mlx.scatter_add_axis"(%{{.*}}, %{{.*}}, %{{.*}}) <{axis = 1 : i64}> : (tensor<4x?xui64>, tensor<1x2xui8>, tensor<4x2xui64>) -> tensor<4x?xui64>
  %scatter_add_axis = mlx.scatter_add_axis %xi, %ii, %vi {axis = 1 : i64} : tensor<4x?xui64>, tensor<1x2xui8>, tensor<4x2xui64>
  // CHECK-NEXT: return
  return
}

//===----------------------------------------------------------------------===//
// Sorting: axis defaults to -1; the arg variants give uint32 indices.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @sorting(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<4xf32>,
// CHECK-SAME:      %[[M:[^:]+]]: tensor<3x5xi8>,
// CHECK-SAME:      %[[D:[^:]+]]: tensor<?x6xbf16>)
// GENERIC-LABEL: sym_name = "sorting"
func.func @sorting(%x: tensor<4xf32>, %m: tensor<3x5xi8>, %d: tensor<?x6xbf16>) {
  // CHECK-NEXT: %[[SORT:.+]] = mlx.sort %[[X]] : tensor<4xf32>
  // GENERIC:    "mlx.sort"(%{{.*}}) <{axis = -1 : i64}> : (tensor<4xf32>) -> tensor<4xf32>
  %sort = mlx.sort %x : tensor<4xf32>
  // CHECK-NEXT: %[[SORT_AXIS:.+]] = mlx.sort %[[M]] {axis = 0 : i64} : tensor<3x5xi8>
  %sort_axis = mlx.sort %m {axis = 0 : i64} : tensor<3x5xi8>
  // CHECK-NEXT: %[[ARGSORT:.+]] = mlx.argsort %[[D]] : tensor<?x6xbf16>
  // GENERIC:    "mlx.argsort"(%{{.*}}) <{axis = -1 : i64}> : (tensor<?x6xbf16>) -> tensor<?x6xui32>
  %argsort = mlx.argsort %d {axis = -1 : i64} : tensor<?x6xbf16>
  // CHECK-NEXT: %[[ARGSORT_DEFAULT:.+]] = mlx.argsort %[[M]] : tensor<3x5xi8>
  // GENERIC:    "mlx.argsort"(%{{.*}}) <{axis = -1 : i64}> : (tensor<3x5xi8>) -> tensor<3x5xui32>
  %argsort_default = mlx.argsort %m : tensor<3x5xi8>
  // CHECK-NEXT: %[[PARTITION:.+]] = mlx.partition %[[X]] {kth = 1 : i64} : tensor<4xf32>
  %partition = mlx.partition %x {axis = -1 : i64, kth = 1 : i64} : tensor<4xf32>
  // CHECK-NEXT: %[[PARTITION_DEFAULT:.+]] = mlx.partition %[[D]] {kth = 5 : i64} : tensor<?x6xbf16>
  // GENERIC:    "mlx.partition"(%{{.*}}) <{axis = -1 : i64, kth = 5 : i64}> : (tensor<?x6xbf16>) -> tensor<?x6xbf16>
  %partition_default = mlx.partition %d {kth = 5 : i64} : tensor<?x6xbf16>
  // A negative kth counts from the end of the axis.
  // CHECK-NEXT: %[[ARGPARTITION:.+]] = mlx.argpartition %[[M]] {axis = 0 : i64, kth = -1 : i64} : tensor<3x5xi8>
  // GENERIC:    "mlx.argpartition"(%{{.*}}) <{axis = 0 : i64, kth = -1 : i64}> : (tensor<3x5xi8>) -> tensor<3x5xui32>
  %argpartition = mlx.argpartition %m {axis = 0 : i64, kth = -1 : i64} : tensor<3x5xi8>
  // CHECK-NEXT: %[[SEARCH:.+]] = mlx.searchsorted %[[X]], %[[X]] : tensor<4xf32>, tensor<4xf32>
  // GENERIC:    "mlx.searchsorted"(%{{.*}}, %{{.*}}) <{right = false}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xui32>
  %search = mlx.searchsorted %x, %x : tensor<4xf32>, tensor<4xf32>
  // CHECK-NEXT: %[[SEARCH_RIGHT:.+]] = mlx.searchsorted %[[X]], %[[X]] {right = true} : tensor<4xf32>, tensor<4xf32>
  %search_right = mlx.searchsorted %x, %x {right = true} : tensor<4xf32>, tensor<4xf32>
  // CHECK-NEXT: %[[HADAMARD:.+]] = mlx.hadamard_transform %[[X]] {scale = 5.000000e-01 : f32} : tensor<4xf32>
  // GENERIC:    "mlx.hadamard_transform"(%{{.*}}) <{scale = 5.000000e-01 : f32}> : (tensor<4xf32>) -> tensor<4xf32>
  %hadamard = mlx.hadamard_transform %x {scale = 0.5 : f32} : tensor<4xf32>
  // CHECK-NEXT: return
  return
}

//===----------------------------------------------------------------------===//
// Matrix products.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @matmul(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<4x8xbf16>,
// CHECK-SAME:      %[[B:[^:]+]]: tensor<8x16xbf16>,
// CHECK-SAME:      %[[BA:[^:]+]]: tensor<2x1x4x8xf32>,
// CHECK-SAME:      %[[BB:[^:]+]]: tensor<3x8x5xf32>,
// CHECK-SAME:      %[[V:[^:]+]]: tensor<8xf32>,
// CHECK-SAME:      %[[H:[^:]+]]: tensor<2x2xf16>,
// CHECK-SAME:      %[[HB:[^:]+]]: tensor<2x2xbf16>,
// CHECK-SAME:      %[[DA:[^:]+]]: tensor<?x4x8xf32>,
// CHECK-SAME:      %[[DB:[^:]+]]: tensor<8x?xf32>)
// GENERIC-LABEL: sym_name = "matmul"
func.func @matmul(%a: tensor<4x8xbf16>, %b: tensor<8x16xbf16>, %ba: tensor<2x1x4x8xf32>, %bb: tensor<3x8x5xf32>, %v: tensor<8xf32>, %h: tensor<2x2xf16>, %hb: tensor<2x2xbf16>, %da: tensor<?x4x8xf32>, %db: tensor<8x?xf32>) {
  // CHECK-NEXT: %[[MM:.+]] = mlx.matmul %[[A]], %[[B]] : tensor<4x8xbf16>, tensor<8x16xbf16>
  // GENERIC:    "mlx.matmul"(%{{.*}}, %{{.*}}) : (tensor<4x8xbf16>, tensor<8x16xbf16>) -> tensor<4x16xbf16>
  %mm = mlx.matmul %a, %b : tensor<4x8xbf16>, tensor<8x16xbf16>
  // Batch axes broadcast: [2, 1] with [3].
  // CHECK-NEXT: %[[MM_BATCH:.+]] = mlx.matmul %[[BA]], %[[BB]] : tensor<2x1x4x8xf32>, tensor<3x8x5xf32>
  // GENERIC:    "mlx.matmul"(%{{.*}}, %{{.*}}) : (tensor<2x1x4x8xf32>, tensor<3x8x5xf32>) -> tensor<2x3x4x5xf32>
  %mm_batch = mlx.matmul %ba, %bb : tensor<2x1x4x8xf32>, tensor<3x8x5xf32>
  // 1-D operands gain an axis that the result drops again.
  // CHECK-NEXT: %[[VM:.+]] = mlx.matmul %[[V]], %[[BB]] : tensor<8xf32>, tensor<3x8x5xf32>
  // GENERIC:    "mlx.matmul"(%{{.*}}, %{{.*}}) : (tensor<8xf32>, tensor<3x8x5xf32>) -> tensor<3x5xf32>
  %vm = mlx.matmul %v, %bb : tensor<8xf32>, tensor<3x8x5xf32>
  // CHECK-NEXT: %[[MV:.+]] = mlx.matmul %[[DA]], %[[V]] : tensor<?x4x8xf32>, tensor<8xf32>
  // GENERIC:    "mlx.matmul"(%{{.*}}, %{{.*}}) : (tensor<?x4x8xf32>, tensor<8xf32>) -> tensor<?x4xf32>
  %mv = mlx.matmul %da, %v : tensor<?x4x8xf32>, tensor<8xf32>
  // CHECK-NEXT: %[[MM_MIXED:.+]] = mlx.matmul %[[H]], %[[HB]] : tensor<2x2xf16>, tensor<2x2xbf16>
  // GENERIC:    "mlx.matmul"(%{{.*}}, %{{.*}}) : (tensor<2x2xf16>, tensor<2x2xbf16>) -> tensor<2x2xf32>
  %mm_mixed = mlx.matmul %h, %hb : tensor<2x2xf16>, tensor<2x2xbf16>
  // CHECK-NEXT: %[[MM_DYN:.+]] = mlx.matmul %[[DA]], %[[DB]] : tensor<?x4x8xf32>, tensor<8x?xf32>
  // GENERIC:    "mlx.matmul"(%{{.*}}, %{{.*}}) : (tensor<?x4x8xf32>, tensor<8x?xf32>) -> tensor<?x4x?xf32>
  %mm_dyn = mlx.matmul %da, %db : tensor<?x4x8xf32>, tensor<8x?xf32>
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @addmm(
// CHECK-SAME:      %[[C:[^:]+]]: tensor<16xf16>,
// CHECK-SAME:      %[[A:[^:]+]]: tensor<4x8xf32>,
// CHECK-SAME:      %[[B:[^:]+]]: tensor<8x16xf32>,
// CHECK-SAME:      %[[C2:[^:]+]]: tensor<4x16xf32>)
// GENERIC-LABEL: sym_name = "addmm"
func.func @addmm(%c: tensor<16xf16>, %a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c2: tensor<4x16xf32>) {
  // CHECK-NEXT: %[[ADDMM:.+]] = mlx.addmm %[[C]], %[[A]], %[[B]] : tensor<16xf16>, tensor<4x8xf32>, tensor<8x16xf32>
  // GENERIC:    "mlx.addmm"(%{{.*}}, %{{.*}}, %{{.*}}) <{alpha = 1.000000e+00 : f32, beta = 1.000000e+00 : f32}> : (tensor<16xf16>, tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %addmm = mlx.addmm %c, %a, %b : tensor<16xf16>, tensor<4x8xf32>, tensor<8x16xf32>
  // CHECK-NEXT: %[[ADDMM_SCALED:.+]] = mlx.addmm %[[C2]], %[[A]], %[[B]] {alpha = 5.000000e-01 : f32, beta = 2.000000e+00 : f32} : tensor<4x16xf32>, tensor<4x8xf32>, tensor<8x16xf32>
  // GENERIC:    "mlx.addmm"(%{{.*}}, %{{.*}}, %{{.*}}) <{alpha = 5.000000e-01 : f32, beta = 2.000000e+00 : f32}> : (tensor<4x16xf32>, tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %addmm_scaled = mlx.addmm %c2, %a, %b {alpha = 5.000000e-01 : f32, beta = 2.000000e+00 : f32} : tensor<4x16xf32>, tensor<4x8xf32>, tensor<8x16xf32>
  // CHECK-NEXT: return
  return
}

// inverse (general and triangular), cholesky, qr, eigvalsh and svdvals.
// CHECK-LABEL: func.func @linalg(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<2x4x4xf32>,
// CHECK-SAME:      %[[D:[^:]+]]: tensor<3x3xf64>)
// GENERIC-LABEL: sym_name = "linalg"
func.func @linalg(%a: tensor<2x4x4xf32>, %d: tensor<3x3xf64>) {
  // CHECK-NEXT: %{{.+}} = mlx.inverse %[[A]] : tensor<2x4x4xf32>
  // GENERIC:    "mlx.inverse"(%{{.*}}) <{tri = false, upper = false}> : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %inv = mlx.inverse %a : tensor<2x4x4xf32>
  // CHECK-NEXT: %{{.+}} = mlx.inverse %[[D]] {tri = true, upper = true} : tensor<3x3xf64>
  // GENERIC:    "mlx.inverse"(%{{.*}}) <{tri = true, upper = true}> : (tensor<3x3xf64>) -> tensor<3x3xf64>
  %tri = mlx.inverse %d {tri = true, upper = true} : tensor<3x3xf64>
  // CHECK-NEXT: %{{.+}} = mlx.cholesky %[[A]] {upper = true} : tensor<2x4x4xf32>
  // GENERIC:    "mlx.cholesky"(%{{.*}}) <{upper = true}> : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %chol = mlx.cholesky %a {upper = true} : tensor<2x4x4xf32>
  // CHECK-NEXT: %{{.+}}, %{{.+}} = mlx.qr %[[A]] : tensor<2x4x4xf32>
  // GENERIC:    "mlx.qr"(%{{.*}}) : (tensor<2x4x4xf32>) -> (tensor<2x4x4xf32>, tensor<2x4x4xf32>)
  %q, %r = mlx.qr %a : tensor<2x4x4xf32>
  // CHECK-NEXT: %{{.+}} = mlx.eigvalsh %[[D]] {upper = true} : tensor<3x3xf64>
  // GENERIC:    "mlx.eigvalsh"(%{{.*}}) <{upper = true}> : (tensor<3x3xf64>) -> tensor<3xf64>
  %w = mlx.eigvalsh %d {upper = true} : tensor<3x3xf64>
  // CHECK-NEXT: %{{.+}} = mlx.svdvals %[[A]] : tensor<2x4x4xf32>
  // GENERIC:    "mlx.svdvals"(%{{.*}}) : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %s = mlx.svdvals %a : tensor<2x4x4xf32>
  // CHECK-NEXT: return
  return
}

// block_masked_mm with the output's mask, the operands' masks, or all three.
// CHECK-LABEL: func.func @block_masked_mm(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<2x50x40xf32>,
// CHECK-SAME:      %[[B:[^:]+]]: tensor<40x70xf32>,
// CHECK-SAME:      %[[MO:[^:]+]]: tensor<2x3xi1>,
// CHECK-SAME:      %[[ML:[^:]+]]: tensor<2x2x2xf32>,
// CHECK-SAME:      %[[MR:[^:]+]]: tensor<2x3xf32>)
// GENERIC-LABEL: sym_name = "block_masked_mm"
func.func @block_masked_mm(%a: tensor<2x50x40xf32>, %b: tensor<40x70xf32>, %mo: tensor<2x3xi1>, %ml: tensor<2x2x2xf32>, %mr: tensor<2x3xf32>) {
  // CHECK-NEXT: %[[BMM_OUT:.+]] = mlx.block_masked_mm %[[A]], %[[B]] mask_out(%[[MO]] : tensor<2x3xi1>) {block_size = 32 : i64} : tensor<2x50x40xf32>, tensor<40x70xf32>
  // GENERIC:    "mlx.block_masked_mm"(%{{.*}}, %{{.*}}, %{{.*}}) <{block_size = 32 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (tensor<2x50x40xf32>, tensor<40x70xf32>, tensor<2x3xi1>) -> tensor<2x50x70xf32>
  %out = mlx.block_masked_mm %a, %b mask_out(%mo : tensor<2x3xi1>) {block_size = 32 : i64} : tensor<2x50x40xf32>, tensor<40x70xf32>
  // CHECK-NEXT: %[[BMM_OPS:.+]] = mlx.block_masked_mm %[[A]], %[[B]] mask_lhs(%[[ML]] : tensor<2x2x2xf32>) mask_rhs(%[[MR]] : tensor<2x3xf32>) {block_size = 32 : i64} : tensor<2x50x40xf32>, tensor<40x70xf32>
  // GENERIC:    "mlx.block_masked_mm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{block_size = 32 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 1, 1>}> : (tensor<2x50x40xf32>, tensor<40x70xf32>, tensor<2x2x2xf32>, tensor<2x3xf32>) -> tensor<2x50x70xf32>
  %ops = mlx.block_masked_mm %a, %b mask_lhs(%ml : tensor<2x2x2xf32>) mask_rhs(%mr : tensor<2x3xf32>) {block_size = 32 : i64} : tensor<2x50x40xf32>, tensor<40x70xf32>
  // CHECK-NEXT: %[[BMM_ALL:.+]] = mlx.block_masked_mm %[[A]], %[[B]] mask_out(%[[MO]] : tensor<2x3xi1>) mask_lhs(%[[ML]] : tensor<2x2x2xf32>) mask_rhs(%[[MR]] : tensor<2x3xf32>) {block_size = 32 : i64} : tensor<2x50x40xf32>, tensor<40x70xf32>
  // GENERIC:    "mlx.block_masked_mm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{block_size = 32 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}> : (tensor<2x50x40xf32>, tensor<40x70xf32>, tensor<2x3xi1>, tensor<2x2x2xf32>, tensor<2x3xf32>) -> tensor<2x50x70xf32>
  %all = mlx.block_masked_mm %a, %b mask_out(%mo : tensor<2x3xi1>) mask_lhs(%ml : tensor<2x2x2xf32>) mask_rhs(%mr : tensor<2x3xf32>) {block_size = 32 : i64} : tensor<2x50x40xf32>, tensor<40x70xf32>
  // CHECK-NEXT: return
  return
}

// masked_scatter: the result has the input's type.
// CHECK-LABEL: func.func @masked_scatter(
// GENERIC-LABEL: sym_name = "masked_scatter"
func.func @masked_scatter(%x: tensor<1x4x8xf32>, %m: tensor<1x4x8xi1>, %v: tensor<1x32xf32>) -> tensor<1x4x8xf32> {
  // CHECK-NEXT: mlx.masked_scatter %{{.+}}, %{{.+}}, %{{.+}} : tensor<1x4x8xf32>, tensor<1x4x8xi1>, tensor<1x32xf32>
  // GENERIC:    "mlx.masked_scatter"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<1x4x8xf32>, tensor<1x4x8xi1>, tensor<1x32xf32>) -> tensor<1x4x8xf32>
  %y = mlx.masked_scatter %x, %m, %v : tensor<1x4x8xf32>, tensor<1x4x8xi1>, tensor<1x32xf32>
  return %y : tensor<1x4x8xf32>
}

// gather_mm with neither, either or both index arrays.
// CHECK-LABEL: func.func @gather_mm(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<4x1x8xf32>,
// CHECK-SAME:      %[[B:[^:]+]]: tensor<3x8x16xf32>,
// CHECK-SAME:      %[[RI:[^:]+]]: tensor<4xui32>,
// CHECK-SAME:      %[[LA:[^:]+]]: tensor<2x3x5x8xf32>,
// CHECK-SAME:      %[[LI:[^:]+]]: tensor<2x1xui32>,
// CHECK-SAME:      %[[RI3:[^:]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[SA:[^:]+]]: tensor<3x5x8xf32>)
// GENERIC-LABEL: sym_name = "gather_mm"
func.func @gather_mm(%a: tensor<4x1x8xf32>, %b: tensor<3x8x16xf32>, %ri: tensor<4xui32>, %la: tensor<2x3x5x8xf32>, %li: tensor<2x1xui32>, %ri3: tensor<3xi32>, %sa: tensor<3x5x8xf32>) {
  // CHECK-NEXT: %[[GMM_NONE:.+]] = mlx.gather_mm %[[SA]], %[[B]] : tensor<3x5x8xf32>, tensor<3x8x16xf32>
  // GENERIC:    "mlx.gather_mm"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, sorted_indices = false}> : (tensor<3x5x8xf32>, tensor<3x8x16xf32>) -> tensor<3x5x16xf32>
  %gmm_none = mlx.gather_mm %sa, %b : tensor<3x5x8xf32>, tensor<3x8x16xf32>
  // The batches of a and b need not broadcast: the indices pick them (MLX
  // gives [4, 1, 16] here; this is the example of the op's documentation).
  // CHECK-NEXT: %[[GMM_RHS:.+]] = mlx.gather_mm %[[A]], %[[B]] rhs_indices(%[[RI]] : tensor<4xui32>) : tensor<4x1x8xf32>, tensor<3x8x16xf32>
  // GENERIC:    "mlx.gather_mm"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, sorted_indices = false}> : (tensor<4x1x8xf32>, tensor<3x8x16xf32>, tensor<4xui32>) -> tensor<4x1x16xf32>
  %gmm_rhs = mlx.gather_mm %a, %b rhs_indices(%ri : tensor<4xui32>) : tensor<4x1x8xf32>, tensor<3x8x16xf32>
  // CHECK-NEXT: %[[GMM_LHS:.+]] = mlx.gather_mm %[[SA]], %[[B]] lhs_indices(%[[LI]] : tensor<2x1xui32>) {sorted_indices = true} : tensor<3x5x8xf32>, tensor<3x8x16xf32>
  // GENERIC:    "mlx.gather_mm"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>, sorted_indices = true}> : (tensor<3x5x8xf32>, tensor<3x8x16xf32>, tensor<2x1xui32>) -> tensor<2x3x5x16xf32>
  %gmm_lhs = mlx.gather_mm %sa, %b lhs_indices(%li : tensor<2x1xui32>) {sorted_indices = true} : tensor<3x5x8xf32>, tensor<3x8x16xf32>
  // CHECK-NEXT: %[[GMM_BOTH:.+]] = mlx.gather_mm %[[LA]], %[[B]] lhs_indices(%[[LI]] : tensor<2x1xui32>) rhs_indices(%[[RI3]] : tensor<3xi32>) : tensor<2x3x5x8xf32>, tensor<3x8x16xf32>
  // GENERIC:    "mlx.gather_mm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>, sorted_indices = false}> : (tensor<2x3x5x8xf32>, tensor<3x8x16xf32>, tensor<2x1xui32>, tensor<3xi32>) -> tensor<2x3x5x16xf32>
  %gmm_both = mlx.gather_mm %la, %b lhs_indices(%li : tensor<2x1xui32>) rhs_indices(%ri3 : tensor<3xi32>) : tensor<2x3x5x8xf32>, tensor<3x8x16xf32>
  // CHECK-NEXT: return
  return
}

//===----------------------------------------------------------------------===//
// Quantization. Affine mode: packed uint32 words, scales and biases of the
// input dtype; mxfp4/mxfp8/nvfp4: words and uint8 scales, no biases.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @quantize(
// CHECK-SAME:      %[[W:[^:]+]]: tensor<64x128xf32>,
// CHECK-SAME:      %[[WB:[^:]+]]: tensor<64x128xbf16>,
// CHECK-SAME:      %[[W3:[^:]+]]: tensor<2x64x128xf16>,
// CHECK-SAME:      %[[WD:[^:]+]]: tensor<?x256xf32>)
// GENERIC-LABEL: sym_name = "quantize"
func.func @quantize(%w: tensor<64x128xf32>, %wb: tensor<64x128xbf16>, %w3: tensor<2x64x128xf16>, %wd: tensor<?x256xf32>) {
  // group_size defaults to 64, bits to 4 and mode to affine.
  // CHECK-NEXT: %[[Q:.+]]:3 = mlx.quantize %[[W]] : tensor<64x128xf32>
  // GENERIC:    "mlx.quantize"(%{{.*}}) <{bits = 4 : i64, group_size = 64 : i64, mode = #mlx<quantization_mode affine>}> : (tensor<64x128xf32>) -> (tensor<64x16xui32>, tensor<64x2xf32>, tensor<64x2xf32>)
  %q:3 = mlx.quantize %w : tensor<64x128xf32>
  // CHECK-NEXT: %[[Q6:.+]]:3 = mlx.quantize %[[WB]] {bits = 6 : i64, group_size = 128 : i64} : tensor<64x128xbf16>
  // GENERIC:    "mlx.quantize"(%{{.*}}) <{bits = 6 : i64, group_size = 128 : i64, mode = #mlx<quantization_mode affine>}> : (tensor<64x128xbf16>) -> (tensor<64x24xui32>, tensor<64x1xbf16>, tensor<64x1xbf16>)
  %q6:3 = mlx.quantize %wb {group_size = 128 : i64, bits = 6 : i64} : tensor<64x128xbf16>
  // CHECK-NEXT: %[[Q3:.+]]:3 = mlx.quantize %[[W3]] {bits = 3 : i64, group_size = 32 : i64} : tensor<2x64x128xf16>
  // GENERIC:    "mlx.quantize"(%{{.*}}) <{bits = 3 : i64, group_size = 32 : i64, mode = #mlx<quantization_mode affine>}> : (tensor<2x64x128xf16>) -> (tensor<2x64x12xui32>, tensor<2x64x4xf16>, tensor<2x64x4xf16>)
  %q3:3 = mlx.quantize %w3 {group_size = 32 : i64, bits = 3 : i64, mode = #mlx<quantization_mode affine>} : tensor<2x64x128xf16>
  // CHECK-NEXT: %[[QMX4:.+]]:2 = mlx.quantize %[[W]] {group_size = 32 : i64, mode = #mlx<quantization_mode mxfp4>} : tensor<64x128xf32>
  // GENERIC:    "mlx.quantize"(%{{.*}}) <{bits = 4 : i64, group_size = 32 : i64, mode = #mlx<quantization_mode mxfp4>}> : (tensor<64x128xf32>) -> (tensor<64x16xui32>, tensor<64x4xui8>)
  %qmx4:2 = mlx.quantize %w {group_size = 32 : i64, bits = 4 : i64, mode = #mlx<quantization_mode mxfp4>} : tensor<64x128xf32>
  // CHECK-NEXT: %[[QMX8:.+]]:2 = mlx.quantize %[[WB]] {bits = 8 : i64, group_size = 32 : i64, mode = #mlx<quantization_mode mxfp8>} : tensor<64x128xbf16>
  // GENERIC:    "mlx.quantize"(%{{.*}}) <{bits = 8 : i64, group_size = 32 : i64, mode = #mlx<quantization_mode mxfp8>}> : (tensor<64x128xbf16>) -> (tensor<64x32xui32>, tensor<64x4xui8>)
  %qmx8:2 = mlx.quantize %wb {group_size = 32 : i64, bits = 8 : i64, mode = #mlx<quantization_mode mxfp8>} : tensor<64x128xbf16>
  // CHECK-NEXT: %[[QNV4:.+]]:2 = mlx.quantize %[[WD]] {group_size = 16 : i64, mode = #mlx<quantization_mode nvfp4>} : tensor<?x256xf32>
  // GENERIC:    "mlx.quantize"(%{{.*}}) <{bits = 4 : i64, group_size = 16 : i64, mode = #mlx<quantization_mode nvfp4>}> : (tensor<?x256xf32>) -> (tensor<?x32xui32>, tensor<?x16xui8>)
  %qnv4:2 = mlx.quantize %wd {group_size = 16 : i64, bits = 4 : i64, mode = #mlx<quantization_mode nvfp4>} : tensor<?x256xf32>
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @dequantize(
// CHECK-SAME:      %[[WQ:[^:]+]]: tensor<64x16xui32>,
// CHECK-SAME:      %[[S:[^:]+]]: tensor<64x2xf32>,
// CHECK-SAME:      %[[B:[^:]+]]: tensor<64x2xf32>,
// CHECK-SAME:      %[[WQ8:[^:]+]]: tensor<64x32xui32>,
// CHECK-SAME:      %[[S8:[^:]+]]: tensor<64x4xbf16>,
// CHECK-SAME:      %[[B8:[^:]+]]: tensor<64x4xbf16>,
// CHECK-SAME:      %[[MQ:[^:]+]]: tensor<64x16xui32>,
// CHECK-SAME:      %[[MS:[^:]+]]: tensor<64x4xui8>)
// GENERIC-LABEL: sym_name = "dequantize"
func.func @dequantize(%wq: tensor<64x16xui32>, %s: tensor<64x2xf32>, %b: tensor<64x2xf32>, %wq8: tensor<64x32xui32>, %s8: tensor<64x4xbf16>, %b8: tensor<64x4xbf16>, %mq: tensor<64x16xui32>, %ms: tensor<64x4xui8>) {
  // CHECK-NEXT: %[[DEQ:.+]] = mlx.dequantize %[[WQ]], %[[S]], %[[B]] : tensor<64x16xui32>, tensor<64x2xf32>, tensor<64x2xf32>
  // GENERIC:    "mlx.dequantize"(%{{.*}}, %{{.*}}, %{{.*}}) <{bits = 4 : i64, group_size = 64 : i64, mode = #mlx<quantization_mode affine>}> : (tensor<64x16xui32>, tensor<64x2xf32>, tensor<64x2xf32>) -> tensor<64x128xf32>
  %deq = mlx.dequantize %wq, %s, %b : tensor<64x16xui32>, tensor<64x2xf32>, tensor<64x2xf32>
  // CHECK-NEXT: %[[DEQ_DTYPE:.+]] = mlx.dequantize %[[WQ8]], %[[S8]], %[[B8]] {bits = 8 : i64, dtype = f16, group_size = 32 : i64} : tensor<64x32xui32>, tensor<64x4xbf16>, tensor<64x4xbf16>
  // GENERIC:    "mlx.dequantize"(%{{.*}}, %{{.*}}, %{{.*}}) <{bits = 8 : i64, dtype = f16, group_size = 32 : i64, mode = #mlx<quantization_mode affine>}> : (tensor<64x32xui32>, tensor<64x4xbf16>, tensor<64x4xbf16>) -> tensor<64x128xf16>
  %deq_dtype = mlx.dequantize %wq8, %s8, %b8 {group_size = 32 : i64, bits = 8 : i64, dtype = f16} : tensor<64x32xui32>, tensor<64x4xbf16>, tensor<64x4xbf16>
  // Without biases (fp modes) the result is bfloat16 unless dtype says.
  // CHECK-NEXT: %[[DEQ_MX:.+]] = mlx.dequantize %[[MQ]], %[[MS]] {group_size = 32 : i64, mode = #mlx<quantization_mode mxfp4>} : tensor<64x16xui32>, tensor<64x4xui8>
  // GENERIC:    "mlx.dequantize"(%{{.*}}, %{{.*}}) <{bits = 4 : i64, group_size = 32 : i64, mode = #mlx<quantization_mode mxfp4>}> : (tensor<64x16xui32>, tensor<64x4xui8>) -> tensor<64x128xbf16>
  %deq_mx = mlx.dequantize %mq, %ms {group_size = 32 : i64, bits = 4 : i64, mode = #mlx<quantization_mode mxfp4>} : tensor<64x16xui32>, tensor<64x4xui8>
  // CHECK-NEXT: %[[DEQ_MX_F32:.+]] = mlx.dequantize %[[MQ]], %[[MS]] {dtype = f32, group_size = 32 : i64, mode = #mlx<quantization_mode mxfp4>} : tensor<64x16xui32>, tensor<64x4xui8>
  // GENERIC:    "mlx.dequantize"(%{{.*}}, %{{.*}}) <{bits = 4 : i64, dtype = f32, group_size = 32 : i64, mode = #mlx<quantization_mode mxfp4>}> : (tensor<64x16xui32>, tensor<64x4xui8>) -> tensor<64x128xf32>
  %deq_mx_f32 = mlx.dequantize %mq, %ms {group_size = 32 : i64, bits = 4 : i64, mode = #mlx<quantization_mode mxfp4>, dtype = f32} : tensor<64x16xui32>, tensor<64x4xui8>
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @quantized_matmul(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<5x128xf32>,
// CHECK-SAME:      %[[W:[^:]+]]: tensor<64x16xui32>,
// CHECK-SAME:      %[[S:[^:]+]]: tensor<64x2xf32>,
// CHECK-SAME:      %[[B:[^:]+]]: tensor<64x2xf32>,
// CHECK-SAME:      %[[XT:[^:]+]]: tensor<2x5x64xf16>,
// CHECK-SAME:      %[[WT:[^:]+]]: tensor<64x16xui32>,
// CHECK-SAME:      %[[ST:[^:]+]]: tensor<64x2xf16>,
// CHECK-SAME:      %[[BT:[^:]+]]: tensor<64x2xf16>,
// CHECK-SAME:      %[[MW:[^:]+]]: tensor<64x16xui32>,
// CHECK-SAME:      %[[MS:[^:]+]]: tensor<64x4xui8>,
// CHECK-SAME:      %[[XV:[^:]+]]: tensor<128xbf16>)
// GENERIC-LABEL: sym_name = "quantized_matmul"
func.func @quantized_matmul(%x: tensor<5x128xf32>, %w: tensor<64x16xui32>, %s: tensor<64x2xf32>, %b: tensor<64x2xf32>, %xt: tensor<2x5x64xf16>, %wt: tensor<64x16xui32>, %st: tensor<64x2xf16>, %bt: tensor<64x2xf16>, %mw: tensor<64x16xui32>, %ms: tensor<64x4xui8>, %xv: tensor<128xbf16>) {
  // transpose defaults to true: x [.., K] @ w[N, K].T.
  // CHECK-NEXT: %[[QMM:.+]] = mlx.quantized_matmul %[[X]], %[[W]], %[[S]], %[[B]] : tensor<5x128xf32>, tensor<64x16xui32>, tensor<64x2xf32>, tensor<64x2xf32>
  // GENERIC:    "mlx.quantized_matmul"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{bits = 4 : i64, group_size = 64 : i64, mode = #mlx<quantization_mode affine>, transpose = true}> : (tensor<5x128xf32>, tensor<64x16xui32>, tensor<64x2xf32>, tensor<64x2xf32>) -> tensor<5x64xf32>
  %qmm = mlx.quantized_matmul %x, %w, %s, %b : tensor<5x128xf32>, tensor<64x16xui32>, tensor<64x2xf32>, tensor<64x2xf32>
  // Without transpose w is [K, N] = [64, 128].
  // CHECK-NEXT: %[[QMM_NT:.+]] = mlx.quantized_matmul %[[XT]], %[[WT]], %[[ST]], %[[BT]] {transpose = false} : tensor<2x5x64xf16>, tensor<64x16xui32>, tensor<64x2xf16>, tensor<64x2xf16>
  // GENERIC:    "mlx.quantized_matmul"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{bits = 4 : i64, group_size = 64 : i64, mode = #mlx<quantization_mode affine>, transpose = false}> : (tensor<2x5x64xf16>, tensor<64x16xui32>, tensor<64x2xf16>, tensor<64x2xf16>) -> tensor<2x5x128xf16>
  %qmm_nt = mlx.quantized_matmul %xt, %wt, %st, %bt {transpose = false, group_size = 64 : i64, bits = 4 : i64} : tensor<2x5x64xf16>, tensor<64x16xui32>, tensor<64x2xf16>, tensor<64x2xf16>
  // float16 x with float32 scales computes in float32, as in MLX.
  // CHECK-NEXT: %[[QMM_MIXED:.+]] = mlx.quantized_matmul %[[XT]], %[[WT]], %[[S]], %[[B]] {transpose = false} : tensor<2x5x64xf16>, tensor<64x16xui32>, tensor<64x2xf32>, tensor<64x2xf32>
  // GENERIC:    "mlx.quantized_matmul"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{bits = 4 : i64, group_size = 64 : i64, mode = #mlx<quantization_mode affine>, transpose = false}> : (tensor<2x5x64xf16>, tensor<64x16xui32>, tensor<64x2xf32>, tensor<64x2xf32>) -> tensor<2x5x128xf32>
  %qmm_mixed = mlx.quantized_matmul %xt, %wt, %s, %b {transpose = false} : tensor<2x5x64xf16>, tensor<64x16xui32>, tensor<64x2xf32>, tensor<64x2xf32>
  // mxfp4 takes no biases.
  // CHECK-NEXT: %[[QMM_MX:.+]] = mlx.quantized_matmul %[[XV]], %[[MW]], %[[MS]] {group_size = 32 : i64, mode = #mlx<quantization_mode mxfp4>} : tensor<128xbf16>, tensor<64x16xui32>, tensor<64x4xui8>
  // GENERIC:    "mlx.quantized_matmul"(%{{.*}}, %{{.*}}, %{{.*}}) <{bits = 4 : i64, group_size = 32 : i64, mode = #mlx<quantization_mode mxfp4>, transpose = true}> : (tensor<128xbf16>, tensor<64x16xui32>, tensor<64x4xui8>) -> tensor<64xbf16>
  %qmm_mx = mlx.quantized_matmul %xv, %mw, %ms {group_size = 32 : i64, bits = 4 : i64, mode = #mlx<quantization_mode mxfp4>} : tensor<128xbf16>, tensor<64x16xui32>, tensor<64x4xui8>
  // CHECK-NEXT: return
  return
}

// gather_qmm with and without biases and each index array.
// CHECK-LABEL: func.func @gather_qmm(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2x1x128xf32>,
// CHECK-SAME:      %[[W:[^:]+]]: tensor<4x64x16xui32>,
// CHECK-SAME:      %[[S:[^:]+]]: tensor<4x64x2xf32>,
// CHECK-SAME:      %[[B:[^:]+]]: tensor<4x64x2xf32>,
// CHECK-SAME:      %[[RI:[^:]+]]: tensor<2xui32>,
// CHECK-SAME:      %[[LI:[^:]+]]: tensor<3x1xi32>,
// CHECK-SAME:      %[[X4:[^:]+]]: tensor<4x3x128xf32>,
// CHECK-SAME:      %[[MW:[^:]+]]: tensor<4x64x16xui32>,
// CHECK-SAME:      %[[MS:[^:]+]]: tensor<4x64x4xui8>)
// GENERIC-LABEL: sym_name = "gather_qmm"
func.func @gather_qmm(%x: tensor<2x1x128xf32>, %w: tensor<4x64x16xui32>, %s: tensor<4x64x2xf32>, %b: tensor<4x64x2xf32>, %ri: tensor<2xui32>, %li: tensor<3x1xi32>, %x4: tensor<4x3x128xf32>, %mw: tensor<4x64x16xui32>, %ms: tensor<4x64x4xui8>) {
  // CHECK-NEXT: %[[GQMM:.+]] = mlx.gather_qmm %[[X]], %[[W]], %[[S]] biases(%[[B]] : tensor<4x64x2xf32>) rhs_indices(%[[RI]] : tensor<2xui32>) : tensor<2x1x128xf32>, tensor<4x64x16xui32>, tensor<4x64x2xf32>
  // GENERIC:    "mlx.gather_qmm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{bits = 4 : i64, group_size = 64 : i64, mode = #mlx<quantization_mode affine>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>, sorted_indices = false, transpose = true}> : (tensor<2x1x128xf32>, tensor<4x64x16xui32>, tensor<4x64x2xf32>, tensor<4x64x2xf32>, tensor<2xui32>) -> tensor<2x1x64xf32>
  %gqmm = mlx.gather_qmm %x, %w, %s biases(%b : tensor<4x64x2xf32>) rhs_indices(%ri : tensor<2xui32>) {group_size = 64 : i64, bits = 4 : i64} : tensor<2x1x128xf32>, tensor<4x64x16xui32>, tensor<4x64x2xf32>
  // CHECK-NEXT: %[[GQMM_BOTH:.+]] = mlx.gather_qmm %[[X]], %[[W]], %[[S]] biases(%[[B]] : tensor<4x64x2xf32>) lhs_indices(%[[LI]] : tensor<3x1xi32>) rhs_indices(%[[RI]] : tensor<2xui32>) {sorted_indices = true} : tensor<2x1x128xf32>, tensor<4x64x16xui32>, tensor<4x64x2xf32>
  // GENERIC:    "mlx.gather_qmm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{bits = 4 : i64, group_size = 64 : i64, mode = #mlx<quantization_mode affine>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1>, sorted_indices = true, transpose = true}> : (tensor<2x1x128xf32>, tensor<4x64x16xui32>, tensor<4x64x2xf32>, tensor<4x64x2xf32>, tensor<3x1xi32>, tensor<2xui32>) -> tensor<3x2x1x64xf32>
  %gqmm_both = mlx.gather_qmm %x, %w, %s biases(%b : tensor<4x64x2xf32>) lhs_indices(%li : tensor<3x1xi32>) rhs_indices(%ri : tensor<2xui32>) {sorted_indices = true} : tensor<2x1x128xf32>, tensor<4x64x16xui32>, tensor<4x64x2xf32>
  // CHECK-NEXT: %[[GQMM_NONE:.+]] = mlx.gather_qmm %[[X4]], %[[W]], %[[S]] biases(%[[B]] : tensor<4x64x2xf32>) : tensor<4x3x128xf32>, tensor<4x64x16xui32>, tensor<4x64x2xf32>
  // GENERIC:    "mlx.gather_qmm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{bits = 4 : i64, group_size = 64 : i64, mode = #mlx<quantization_mode affine>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, sorted_indices = false, transpose = true}> : (tensor<4x3x128xf32>, tensor<4x64x16xui32>, tensor<4x64x2xf32>, tensor<4x64x2xf32>) -> tensor<4x3x64xf32>
  %gqmm_none = mlx.gather_qmm %x4, %w, %s biases(%b : tensor<4x64x2xf32>) : tensor<4x3x128xf32>, tensor<4x64x16xui32>, tensor<4x64x2xf32>
  // CHECK-NEXT: %[[GQMM_MX:.+]] = mlx.gather_qmm %[[X]], %[[MW]], %[[MS]] lhs_indices(%[[LI]] : tensor<3x1xi32>) {group_size = 32 : i64, mode = #mlx<quantization_mode mxfp4>} : tensor<2x1x128xf32>, tensor<4x64x16xui32>, tensor<4x64x4xui8>
  // GENERIC:    "mlx.gather_qmm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{bits = 4 : i64, group_size = 32 : i64, mode = #mlx<quantization_mode mxfp4>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0>, sorted_indices = false, transpose = true}> : (tensor<2x1x128xf32>, tensor<4x64x16xui32>, tensor<4x64x4xui8>, tensor<3x1xi32>) -> tensor<3x4x1x64xf32>
  %gqmm_mx = mlx.gather_qmm %x, %mw, %ms lhs_indices(%li : tensor<3x1xi32>) {group_size = 32 : i64, bits = 4 : i64, mode = #mlx<quantization_mode mxfp4>} : tensor<2x1x128xf32>, tensor<4x64x16xui32>, tensor<4x64x4xui8>
  // CHECK-NEXT: return
  return
}

//===----------------------------------------------------------------------===//
// Fused "fast" ops, with and without their optional operands.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @norms(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2x8xbf16>,
// CHECK-SAME:      %[[W:[^:]+]]: tensor<8xbf16>,
// CHECK-SAME:      %[[WF:[^:]+]]: tensor<8xf32>,
// CHECK-SAME:      %[[H:[^:]+]]: tensor<2x?xf16>,
// CHECK-SAME:      %[[HW:[^:]+]]: tensor<8xf16>)
// GENERIC-LABEL: sym_name = "norms"
func.func @norms(%x: tensor<2x8xbf16>, %w: tensor<8xbf16>, %wf: tensor<8xf32>, %h: tensor<2x?xf16>, %hw: tensor<8xf16>) {
  // CHECK-NEXT: %[[RMS:.+]] = mlx.rms_norm %[[X]], %[[W]] {eps = 9.99999974E-6 : f32} : tensor<2x8xbf16>, tensor<8xbf16>
  // GENERIC:    "mlx.rms_norm"(%{{.*}}, %{{.*}}) <{eps = 9.99999974E-6 : f32}> : (tensor<2x8xbf16>, tensor<8xbf16>) -> tensor<2x8xbf16>
  %rms = mlx.rms_norm %x, %w {eps = 9.99999974E-6 : f32} : tensor<2x8xbf16>, tensor<8xbf16>
  // CHECK-NEXT: %[[RMS_PROMOTE:.+]] = mlx.rms_norm %[[X]], %[[WF]] {eps = 9.99999974E-6 : f32} : tensor<2x8xbf16>, tensor<8xf32>
  // GENERIC:    "mlx.rms_norm"(%{{.*}}, %{{.*}}) <{eps = 9.99999974E-6 : f32}> : (tensor<2x8xbf16>, tensor<8xf32>) -> tensor<2x8xf32>
  %rms_promote = mlx.rms_norm %x, %wf {eps = 9.99999974E-6 : f32} : tensor<2x8xbf16>, tensor<8xf32>
  // CHECK-NEXT: %[[RMS_NOWEIGHT:.+]] = mlx.rms_norm %[[H]] {eps = 1.000000e-03 : f32} : tensor<2x?xf16>
  // GENERIC:    "mlx.rms_norm"(%{{.*}}) <{eps = 1.000000e-03 : f32}> : (tensor<2x?xf16>) -> tensor<2x?xf16>
  %rms_noweight = mlx.rms_norm %h {eps = 1.000000e-03 : f32} : tensor<2x?xf16>
  // CHECK-NEXT: %[[LN:.+]] = mlx.layer_norm %[[X]] weight(%[[W]] : tensor<8xbf16>) bias(%[[W]] : tensor<8xbf16>) {eps = 9.99999974E-6 : f32} : tensor<2x8xbf16>
  // GENERIC:    "mlx.layer_norm"(%{{.*}}, %{{.*}}, %{{.*}}) <{eps = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<2x8xbf16>, tensor<8xbf16>, tensor<8xbf16>) -> tensor<2x8xbf16>
  %ln = mlx.layer_norm %x weight(%w : tensor<8xbf16>) bias(%w : tensor<8xbf16>) {eps = 9.99999974E-6 : f32} : tensor<2x8xbf16>
  // CHECK-NEXT: %[[LN_WEIGHT:.+]] = mlx.layer_norm %[[H]] weight(%[[HW]] : tensor<8xf16>) {eps = 9.99999974E-6 : f32} : tensor<2x?xf16>
  %ln_weight = mlx.layer_norm %h weight(%hw : tensor<8xf16>) {eps = 9.99999974E-6 : f32} : tensor<2x?xf16>
  // Without a weight MLX keeps the dtype of x: the bias does not promote it.
  // CHECK-NEXT: %[[LN_BIAS:.+]] = mlx.layer_norm %[[H]] bias(%[[WF]] : tensor<8xf32>) {eps = 9.99999974E-6 : f32} : tensor<2x?xf16>
  // GENERIC:    "mlx.layer_norm"(%{{.*}}, %{{.*}}) <{eps = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<2x?xf16>, tensor<8xf32>) -> tensor<2x?xf16>
  %ln_bias = mlx.layer_norm %h bias(%wf : tensor<8xf32>) {eps = 9.99999974E-6 : f32} : tensor<2x?xf16>
  // CHECK-NEXT: %[[LN_NONE:.+]] = mlx.layer_norm %[[X]] {eps = 9.99999974E-6 : f32} : tensor<2x8xbf16>
  // GENERIC:    "mlx.layer_norm"(%{{.*}}) <{eps = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  %ln_none = mlx.layer_norm %x {eps = 9.99999974E-6 : f32} : tensor<2x8xbf16>
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @rope(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<1x32x16x128xbf16>,
// CHECK-SAME:      %[[OFF:[^:]+]]: tensor<i32>,
// CHECK-SAME:      %[[FREQS:[^:]+]]: tensor<32xf32>,
// CHECK-SAME:      %[[XD:[^:]+]]: tensor<?x4x?x64xf32>,
// CHECK-SAME:      %[[OFFS:[^:]+]]: tensor<2xui32>)
// GENERIC-LABEL: sym_name = "rope"
func.func @rope(%x: tensor<1x32x16x128xbf16>, %off: tensor<i32>, %freqs: tensor<32xf32>, %xd: tensor<?x4x?x64xf32>, %offs: tensor<2xui32>) {
  // CHECK-NEXT: %[[ROPE:.+]] = mlx.rope %[[X]], %[[OFF]] {base = 1.000000e+04 : f32, dims = 128 : i64} : tensor<1x32x16x128xbf16>, tensor<i32>
  // GENERIC:    "mlx.rope"(%{{.*}}, %{{.*}}) <{base = 1.000000e+04 : f32, dims = 128 : i64, scale = 1.000000e+00 : f32, traditional = false}> : (tensor<1x32x16x128xbf16>, tensor<i32>) -> tensor<1x32x16x128xbf16>
  %rope = mlx.rope %x, %off {dims = 128 : i64, traditional = false, base = 1.000000e+04 : f32, scale = 1.000000e+00 : f32} : tensor<1x32x16x128xbf16>, tensor<i32>
  // CHECK-NEXT: %[[ROPE_FREQS:.+]] = mlx.rope %[[XD]], %[[OFFS]] freqs(%[[FREQS]] : tensor<32xf32>) {dims = 64 : i64, scale = 5.000000e-01 : f32, traditional = true} : tensor<?x4x?x64xf32>, tensor<2xui32>
  // GENERIC:    "mlx.rope"(%{{.*}}, %{{.*}}, %{{.*}}) <{dims = 64 : i64, scale = 5.000000e-01 : f32, traditional = true}> : (tensor<?x4x?x64xf32>, tensor<2xui32>, tensor<32xf32>) -> tensor<?x4x?x64xf32>
  %rope_freqs = mlx.rope %xd, %offs freqs(%freqs : tensor<32xf32>) {dims = 64 : i64, traditional = true, scale = 5.000000e-01 : f32} : tensor<?x4x?x64xf32>, tensor<2xui32>
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @attention(
// CHECK-SAME:      %[[Q:[^:]+]]: tensor<1x8x4x64xf32>,
// CHECK-SAME:      %[[K:[^:]+]]: tensor<1x2x6x64xf32>,
// CHECK-SAME:      %[[V:[^:]+]]: tensor<1x2x6x32xf32>,
// CHECK-SAME:      %[[BMASK:[^:]+]]: tensor<4x6xi1>,
// CHECK-SAME:      %[[AMASK:[^:]+]]: tensor<1x8x4x6xf32>,
// CHECK-SAME:      %[[SINKS:[^:]+]]: tensor<8xf32>,
// CHECK-SAME:      %[[QH:[^:]+]]: tensor<?x4x3x16xf16>,
// CHECK-SAME:      %[[KH:[^:]+]]: tensor<?x4x5x16xf16>)
// GENERIC-LABEL: sym_name = "attention"
func.func @attention(%q: tensor<1x8x4x64xf32>, %k: tensor<1x2x6x64xf32>, %v: tensor<1x2x6x32xf32>, %bmask: tensor<4x6xi1>, %amask: tensor<1x8x4x6xf32>, %sinks: tensor<8xf32>, %qh: tensor<?x4x3x16xf16>, %kh: tensor<?x4x5x16xf16>) {
  // CHECK-NEXT: %[[SDPA:.+]] = mlx.scaled_dot_product_attention %[[Q]], %[[K]], %[[V]] {scale = 1.250000e-01 : f32} : tensor<1x8x4x64xf32>, tensor<1x2x6x64xf32>, tensor<1x2x6x32xf32>
  // GENERIC:    "mlx.scaled_dot_product_attention"(%{{.*}}, %{{.*}}, %{{.*}}) <{causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 1.250000e-01 : f32}> : (tensor<1x8x4x64xf32>, tensor<1x2x6x64xf32>, tensor<1x2x6x32xf32>) -> tensor<1x8x4x32xf32>
  %sdpa = mlx.scaled_dot_product_attention %q, %k, %v {scale = 1.250000e-01 : f32} : tensor<1x8x4x64xf32>, tensor<1x2x6x64xf32>, tensor<1x2x6x32xf32>
  // CHECK-NEXT: %[[SDPA_MASK:.+]] = mlx.scaled_dot_product_attention %[[Q]], %[[K]], %[[V]] mask(%[[BMASK]] : tensor<4x6xi1>) {scale = 1.250000e-01 : f32} : tensor<1x8x4x64xf32>, tensor<1x2x6x64xf32>, tensor<1x2x6x32xf32>
  %sdpa_mask = mlx.scaled_dot_product_attention %q, %k, %v mask(%bmask : tensor<4x6xi1>) {scale = 1.250000e-01 : f32} : tensor<1x8x4x64xf32>, tensor<1x2x6x64xf32>, tensor<1x2x6x32xf32>
  // CHECK-NEXT: %[[SDPA_SINKS:.+]] = mlx.scaled_dot_product_attention %[[Q]], %[[K]], %[[V]] sinks(%[[SINKS]] : tensor<8xf32>) {scale = 1.250000e-01 : f32} : tensor<1x8x4x64xf32>, tensor<1x2x6x64xf32>, tensor<1x2x6x32xf32>
  %sdpa_sinks = mlx.scaled_dot_product_attention %q, %k, %v sinks(%sinks : tensor<8xf32>) {scale = 1.250000e-01 : f32} : tensor<1x8x4x64xf32>, tensor<1x2x6x64xf32>, tensor<1x2x6x32xf32>
  // CHECK-NEXT: %[[SDPA_BOTH:.+]] = mlx.scaled_dot_product_attention %[[Q]], %[[K]], %[[V]] mask(%[[AMASK]] : tensor<1x8x4x6xf32>) sinks(%[[SINKS]] : tensor<8xf32>) {scale = 1.250000e-01 : f32} : tensor<1x8x4x64xf32>, tensor<1x2x6x64xf32>, tensor<1x2x6x32xf32>
  // GENERIC:    "mlx.scaled_dot_product_attention"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>, scale = 1.250000e-01 : f32}> : (tensor<1x8x4x64xf32>, tensor<1x2x6x64xf32>, tensor<1x2x6x32xf32>, tensor<1x8x4x6xf32>, tensor<8xf32>) -> tensor<1x8x4x32xf32>
  %sdpa_both = mlx.scaled_dot_product_attention %q, %k, %v mask(%amask : tensor<1x8x4x6xf32>) sinks(%sinks : tensor<8xf32>) {scale = 1.250000e-01 : f32} : tensor<1x8x4x64xf32>, tensor<1x2x6x64xf32>, tensor<1x2x6x32xf32>
  // CHECK-NEXT: %[[SDPA_CAUSAL:.+]] = mlx.scaled_dot_product_attention %[[QH]], %[[KH]], %[[KH]] {causal = true, scale = 2.500000e-01 : f32} : tensor<?x4x3x16xf16>, tensor<?x4x5x16xf16>, tensor<?x4x5x16xf16>
  // GENERIC:    "mlx.scaled_dot_product_attention"(%{{.*}}, %{{.*}}, %{{.*}}) <{causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 2.500000e-01 : f32}> : (tensor<?x4x3x16xf16>, tensor<?x4x5x16xf16>, tensor<?x4x5x16xf16>) -> tensor<?x4x3x16xf16>
  %sdpa_causal = mlx.scaled_dot_product_attention %qh, %kh, %kh {scale = 2.500000e-01 : f32, causal = true} : tensor<?x4x3x16xf16>, tensor<?x4x5x16xf16>, tensor<?x4x5x16xf16>
  // CHECK-NEXT: return
  return
}

//===----------------------------------------------------------------------===//
// Convolution and random bits.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @conv_general(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<1x8x8x3xf32>,
// CHECK-SAME:      %[[W:[^:]+]]: tensor<4x3x3x3xf32>,
// CHECK-SAME:      %[[X1:[^:]+]]: tensor<2x10x6xbf16>,
// CHECK-SAME:      %[[W1:[^:]+]]: tensor<4x3x3xbf16>,
// CHECK-SAME:      %[[XD:[^:]+]]: tensor<?x?x5x2xf16>,
// CHECK-SAME:      %[[WD:[^:]+]]: tensor<6x2x2x2xf32>)
// GENERIC-LABEL: sym_name = "conv_general"
func.func @conv_general(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %x1: tensor<2x10x6xbf16>, %w1: tensor<4x3x3xbf16>, %xd: tensor<?x?x5x2xf16>, %wd: tensor<6x2x2x2xf32>) {
  // CHECK-NEXT: %[[CONV:.+]] = mlx.conv_general %[[X]], %[[W]] {input_dilation = array<i64: 1, 1>, kernel_dilation = array<i64: 1, 1>, padding_hi = array<i64: 0, 0>, padding_lo = array<i64: 0, 0>, strides = array<i64: 1, 1>} : tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>
  // GENERIC:    "mlx.conv_general"(%{{.*}}, %{{.*}}) <{flip = false, groups = 1 : i64, input_dilation = array<i64: 1, 1>, kernel_dilation = array<i64: 1, 1>, padding_hi = array<i64: 0, 0>, padding_lo = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>) -> tensor<1x6x6x4xf32>
  %conv = mlx.conv_general %x, %w {strides = array<i64: 1, 1>, padding_lo = array<i64: 0, 0>, padding_hi = array<i64: 0, 0>, kernel_dilation = array<i64: 1, 1>, input_dilation = array<i64: 1, 1>} : tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>
  // (8 - 1) * 2 + 1 + 1 + 1 = 17 rows, window 3, stride 2: 8 rows;
  // 8 + 0 + 2 = 10 columns, window (3 - 1) * 2 + 1 = 5: 6 columns.
  // CHECK-NEXT: %[[CONV_STRIDED:.+]] = mlx.conv_general %[[X]], %[[W]] {flip = true, input_dilation = array<i64: 2, 1>, kernel_dilation = array<i64: 1, 2>, padding_hi = array<i64: 1, 2>, padding_lo = array<i64: 1, 0>, strides = array<i64: 2, 1>} : tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>
  // GENERIC:    "mlx.conv_general"(%{{.*}}, %{{.*}}) <{flip = true, groups = 1 : i64, input_dilation = array<i64: 2, 1>, kernel_dilation = array<i64: 1, 2>, padding_hi = array<i64: 1, 2>, padding_lo = array<i64: 1, 0>, strides = array<i64: 2, 1>}> : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>) -> tensor<1x8x6x4xf32>
  %conv_strided = mlx.conv_general %x, %w {strides = array<i64: 2, 1>, padding_lo = array<i64: 1, 0>, padding_hi = array<i64: 1, 2>, kernel_dilation = array<i64: 1, 2>, input_dilation = array<i64: 2, 1>, flip = true} : tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>
  // Grouped 1-D convolution: 6 channels in 2 groups of 3.
  // CHECK-NEXT: %[[CONV_GROUPS:.+]] = mlx.conv_general %[[X1]], %[[W1]] {groups = 2 : i64, input_dilation = array<i64: 1>, kernel_dilation = array<i64: 1>, padding_hi = array<i64: 0>, padding_lo = array<i64: 0>, strides = array<i64: 1>} : tensor<2x10x6xbf16>, tensor<4x3x3xbf16>
  // GENERIC:    "mlx.conv_general"(%{{.*}}, %{{.*}}) <{flip = false, groups = 2 : i64, input_dilation = array<i64: 1>, kernel_dilation = array<i64: 1>, padding_hi = array<i64: 0>, padding_lo = array<i64: 0>, strides = array<i64: 1>}> : (tensor<2x10x6xbf16>, tensor<4x3x3xbf16>) -> tensor<2x8x4xbf16>
  %conv_groups = mlx.conv_general %x1, %w1 {strides = array<i64: 1>, padding_lo = array<i64: 0>, padding_hi = array<i64: 0>, kernel_dilation = array<i64: 1>, input_dilation = array<i64: 1>, groups = 2 : i64} : tensor<2x10x6xbf16>, tensor<4x3x3xbf16>
  // CHECK-NEXT: %[[CONV_DYN:.+]] = mlx.conv_general %[[XD]], %[[WD]] {input_dilation = array<i64: 1, 1>, kernel_dilation = array<i64: 1, 1>, padding_hi = array<i64: 0, 1>, padding_lo = array<i64: 0, 1>, strides = array<i64: 1, 2>} : tensor<?x?x5x2xf16>, tensor<6x2x2x2xf32>
  // GENERIC:    "mlx.conv_general"(%{{.*}}, %{{.*}}) <{flip = false, groups = 1 : i64, input_dilation = array<i64: 1, 1>, kernel_dilation = array<i64: 1, 1>, padding_hi = array<i64: 0, 1>, padding_lo = array<i64: 0, 1>, strides = array<i64: 1, 2>}> : (tensor<?x?x5x2xf16>, tensor<6x2x2x2xf32>) -> tensor<?x?x3x6xf32>
  %conv_dyn = mlx.conv_general %xd, %wd {strides = array<i64: 1, 2>, padding_lo = array<i64: 0, 1>, padding_hi = array<i64: 0, 1>, kernel_dilation = array<i64: 1, 1>, input_dilation = array<i64: 1, 1>} : tensor<?x?x5x2xf16>, tensor<6x2x2x2xf32>
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @random_bits(
// CHECK-SAME:      %[[KEY:[^:]+]]: tensor<2xui32>,
// CHECK-SAME:      %[[DKEY:[^:]+]]: tensor<?xui32>)
// GENERIC-LABEL: sym_name = "random_bits"
func.func @random_bits(%key: tensor<2xui32>, %dkey: tensor<?xui32>) {
  // width (bytes) defaults to 4.
  // CHECK-NEXT: %[[BITS:.+]] = mlx.random_bits %[[KEY]] {shape = array<i64: 3, 4>} : tensor<2xui32>
  // GENERIC:    "mlx.random_bits"(%{{.*}}) <{shape = array<i64: 3, 4>, width = 4 : i64}> : (tensor<2xui32>) -> tensor<3x4xui32>
  %bits = mlx.random_bits %key {shape = array<i64: 3, 4>} : tensor<2xui32>
  // CHECK-NEXT: %[[BITS8:.+]] = mlx.random_bits %[[KEY]] {shape = array<i64: 5>, width = 1 : i64} : tensor<2xui32>
  // GENERIC:    "mlx.random_bits"(%{{.*}}) <{shape = array<i64: 5>, width = 1 : i64}> : (tensor<2xui32>) -> tensor<5xui8>
  %bits8 = mlx.random_bits %key {shape = array<i64: 5>, width = 1 : i64} : tensor<2xui32>
  // CHECK-NEXT: %[[BITS16:.+]] = mlx.random_bits %[[DKEY]] {shape = array<i64>, width = 2 : i64} : tensor<?xui32>
  // GENERIC:    "mlx.random_bits"(%{{.*}}) <{shape = array<i64>, width = 2 : i64}> : (tensor<?xui32>) -> tensor<ui16>
  %bits16 = mlx.random_bits %dkey {shape = array<i64>, width = 2 : i64} : tensor<?xui32>
  // CHECK-NEXT: return
  return
}
