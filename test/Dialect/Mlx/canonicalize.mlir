// Folders of the mlx dialect (MlxFolds.cpp), one case per chunk. Every fold
// must be exact for every value of the dtype, with MLX's arithmetic (wrapping
// integers, round-to-nearest-even floats, NaN-propagating maximum/minimum);
// the cases that must not fold check that the op is still there. Expected
// values were checked against MLX 0.32 (CPU).
//
// RUN: mlx-opt %s --canonicalize --split-input-file | FileCheck %s

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

// reshape(reshape(x)) is one reshape of x to the last shape.
// CHECK-LABEL: func.func @reshape_of_reshape(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2x3xf32>)
// CHECK-NEXT:    %[[R:.+]] = mlx.reshape %[[X]] {shape = array<i64: 3, 2>} : tensor<2x3xf32>
// CHECK-NEXT:    return %[[R]] : tensor<3x2xf32>
func.func @reshape_of_reshape(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %a = mlx.reshape %x {shape = array<i64: 6>} : tensor<2x3xf32>
  %b = mlx.reshape %a {shape = array<i64: 3, 2>} : tensor<6xf32>
  return %b : tensor<3x2xf32>
}

// -----

// The outer -1 was resolved against the static 2x3 of the inner result; on
// the dynamic x it would give tensor<?xf32>, not the tensor<6xf32> that the
// op produces. Folding must keep the IR valid: either the two reshapes stay,
// or the remaining reshape spells out the static shape.
// CHECK-LABEL: func.func @reshape_of_reshape_dynamic_minus_one(
// CHECK:         %[[R:.+]] = mlx.reshape %{{.+}} {shape = array<i64: {{-1|6}}>}
// CHECK:         return %[[R]] : tensor<6xf32>
func.func @reshape_of_reshape_dynamic_minus_one(%x: tensor<?xf32>) -> tensor<6xf32> {
  %a = mlx.reshape %x {shape = array<i64: 2, 3>} : tensor<?xf32>
  %b = mlx.reshape %a {shape = array<i64: -1>} : tensor<2x3xf32>
  return %b : tensor<6xf32>
}

// -----

// A reshape to the type it already has is the identity, also with a -1 over
// the one dynamic axis.
// CHECK-LABEL: func.func @reshape_same_type(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2x3xf32>, %[[D:[^:]+]]: tensor<2x?xi8>)
// CHECK-NOT:     mlx.reshape
// CHECK:         return %[[X]], %[[D]] : tensor<2x3xf32>, tensor<2x?xi8>
func.func @reshape_same_type(%x: tensor<2x3xf32>, %d: tensor<2x?xi8>) -> (tensor<2x3xf32>, tensor<2x?xi8>) {
  %a = mlx.reshape %x {shape = array<i64: 2, 3>} : tensor<2x3xf32>
  %b = mlx.reshape %d {shape = array<i64: 2, -1>} : tensor<2x?xi8>
  return %a, %b : tensor<2x3xf32>, tensor<2x?xi8>
}

// -----

// CHECK-LABEL: func.func @reshape_constant(
// CHECK-NEXT:    %[[C:.+]] = mlx.constant dense<{{\[\[}}1, 2, 3], [4, 5, 6{{\]\]}}> : tensor<2x3xi32>
// CHECK-NEXT:    return %[[C]] : tensor<2x3xi32>
func.func @reshape_constant() -> tensor<2x3xi32> {
  %c = mlx.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %r = mlx.reshape %c {shape = array<i64: 2, -1>} : tensor<6xi32>
  return %r : tensor<2x3xi32>
}

// -----

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

// transpose(transpose(x, p), q) == transpose(x, p[q[i]]): with p = [1, 2, 0]
// and q = [1, 0, 2] that is [2, 1, 0].
// CHECK-LABEL: func.func @transpose_of_transpose(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2x3x4xf32>)
// CHECK-NEXT:    %[[T:.+]] = mlx.transpose %[[X]] {axes = array<i64: 2, 1, 0>} : tensor<2x3x4xf32>
// CHECK-NEXT:    return %[[T]] : tensor<4x3x2xf32>
func.func @transpose_of_transpose(%x: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  %a = mlx.transpose %x {axes = array<i64: 1, 2, 0>} : tensor<2x3x4xf32>
  %b = mlx.transpose %a {axes = array<i64: 1, 0, 2>} : tensor<3x4x2xf32>
  return %b : tensor<4x3x2xf32>
}

// -----

// p = [1, 2, 0] then q = [2, 0, 1] composes to the identity.
// CHECK-LABEL: func.func @transpose_of_transpose_identity(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2x3x4xf32>)
// CHECK-NOT:     mlx.transpose
// CHECK:         return %[[X]] : tensor<2x3x4xf32>
func.func @transpose_of_transpose_identity(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %a = mlx.transpose %x {axes = array<i64: 1, 2, 0>} : tensor<2x3x4xf32>
  %b = mlx.transpose %a {axes = array<i64: 2, 0, 1>} : tensor<3x4x2xf32>
  return %b : tensor<2x3x4xf32>
}

// -----

// Negative axes count from the end: [-1, 0] is the swap [1, 0], twice.
// CHECK-LABEL: func.func @transpose_of_transpose_negative_axes(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2x?xi16>)
// CHECK-NOT:     mlx.transpose
// CHECK:         return %[[X]] : tensor<2x?xi16>
func.func @transpose_of_transpose_negative_axes(%x: tensor<2x?xi16>) -> tensor<2x?xi16> {
  %a = mlx.transpose %x {axes = array<i64: -1, 0>} : tensor<2x?xi16>
  %b = mlx.transpose %a {axes = array<i64: 1, -2>} : tensor<?x2xi16>
  return %b : tensor<2x?xi16>
}

// -----

// CHECK-LABEL: func.func @transpose_identity(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2x3x4xf32>, %[[Y:[^:]+]]: tensor<5x6xui8>)
// CHECK-NOT:     mlx.transpose
// CHECK:         return %[[X]], %[[Y]] : tensor<2x3x4xf32>, tensor<5x6xui8>
func.func @transpose_identity(%x: tensor<2x3x4xf32>, %y: tensor<5x6xui8>) -> (tensor<2x3x4xf32>, tensor<5x6xui8>) {
  %a = mlx.transpose %x {axes = array<i64: 0, 1, 2>} : tensor<2x3x4xf32>
  %b = mlx.transpose %y {axes = array<i64: -2, -1>} : tensor<5x6xui8>
  return %a, %b : tensor<2x3x4xf32>, tensor<5x6xui8>
}

// -----

// A transpose that really permutes stays.
// CHECK-LABEL: func.func @transpose_not_identity(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<3x3xf32>)
// CHECK-NEXT:    %[[T:.+]] = mlx.transpose %[[X]] {axes = array<i64: 1, 0>} : tensor<3x3xf32>
// CHECK-NEXT:    return %[[T]]
func.func @transpose_not_identity(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %a = mlx.transpose %x {axes = array<i64: 1, 0>} : tensor<3x3xf32>
  return %a : tensor<3x3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// broadcast_to
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @broadcast_same_shape(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2x3xbf16>)
// CHECK-NOT:     mlx.broadcast_to
// CHECK:         return %[[X]] : tensor<2x3xbf16>
func.func @broadcast_same_shape(%x: tensor<2x3xbf16>) -> tensor<2x3xbf16> {
  %b = mlx.broadcast_to %x {shape = array<i64: 2, 3>} : tensor<2x3xbf16>
  return %b : tensor<2x3xbf16>
}

// -----

// CHECK-LABEL: func.func @broadcast_splat_constant(
// CHECK-NEXT:    %[[C:.+]] = mlx.constant dense<1.500000e+00> : tensor<2x3xf32>
// CHECK-NEXT:    return %[[C]] : tensor<2x3xf32>
func.func @broadcast_splat_constant() -> tensor<2x3xf32> {
  %c = mlx.constant dense<1.5> : tensor<1xf32>
  %b = mlx.broadcast_to %c {shape = array<i64: 2, 3>} : tensor<1xf32>
  return %b : tensor<2x3xf32>
}

// -----

// A real broadcast of a non-constant stays.
// CHECK-LABEL: func.func @broadcast_not_folded(
// CHECK:         mlx.broadcast_to %{{.+}} {shape = array<i64: 2, 3>} : tensor<3xf32>
func.func @broadcast_not_folded(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %b = mlx.broadcast_to %x {shape = array<i64: 2, 3>} : tensor<3xf32>
  return %b : tensor<2x3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// astype
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @astype_same_dtype(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<?x4xui16>)
// CHECK-NOT:     mlx.astype
// CHECK:         return %[[X]] : tensor<?x4xui16>
func.func @astype_same_dtype(%x: tensor<?x4xui16>) -> tensor<?x4xui16> {
  %a = mlx.astype %x : tensor<?x4xui16> to ui16
  return %a : tensor<?x4xui16>
}

// -----

// Float to int truncates toward zero.
// CHECK-LABEL: func.func @astype_float_to_int(
// CHECK-NEXT:    %[[C:.+]] = mlx.constant dense<[2, -2, 0, 0]> : tensor<4xi32>
// CHECK-NEXT:    return %[[C]] : tensor<4xi32>
func.func @astype_float_to_int() -> tensor<4xi32> {
  %c = mlx.constant dense<[2.7, -2.7, 0.5, -0.0]> : tensor<4xf32>
  %a = mlx.astype %c : tensor<4xf32> to i32
  return %a : tensor<4xi32>
}

// -----

// Int to float rounds to nearest even: 2^24 + 1 becomes 2^24 (printed as
// 0x4B800000) and the largest uint32 becomes 2^32; -3 stays exact (signed
// source).
// CHECK-LABEL: func.func @astype_int_to_float(
// CHECK-DAG:     %[[A:.+]] = mlx.constant dense<[0x4B800000, -3.000000e+00]> : tensor<2xf32>
// CHECK-DAG:     %[[B:.+]] = mlx.constant dense<4.2949673E+9> : tensor<1xf32>
// CHECK-DAG:     %[[C:.+]] = mlx.constant dense<2.550000e+02> : tensor<f16>
// CHECK:         return %[[A]], %[[B]], %[[C]]
func.func @astype_int_to_float() -> (tensor<2xf32>, tensor<1xf32>, tensor<f16>) {
  %i = mlx.constant dense<[16777217, -3]> : tensor<2xi32>
  %u = mlx.constant dense<4294967295> : tensor<1xui32>
  %b = mlx.constant dense<255> : tensor<ui8>
  %a0 = mlx.astype %i : tensor<2xi32> to f32
  %a1 = mlx.astype %u : tensor<1xui32> to f32
  %a2 = mlx.astype %b : tensor<ui8> to f16
  return %a0, %a1, %a2 : tensor<2xf32>, tensor<1xf32>, tensor<f16>
}

// -----

// Anything to bool is `!= 0`: -0.0 is false, NaN is true.
// CHECK-LABEL: func.func @astype_to_bool(
// CHECK-DAG:     %[[F:.+]] = mlx.constant dense<[false, false, true, true]> : tensor<4xi1>
// CHECK-DAG:     %[[I:.+]] = mlx.constant dense<[false, true, true]> : tensor<3xi1>
// CHECK:         return %[[F]], %[[I]]
func.func @astype_to_bool() -> (tensor<4xi1>, tensor<3xi1>) {
  %f = mlx.constant dense<[0.0, -0.0, 0.5, 0x7FC00000]> : tensor<4xf32>
  %i = mlx.constant dense<[0, -1, 2]> : tensor<3xi8>
  %a = mlx.astype %f : tensor<4xf32> to i1
  %b = mlx.astype %i : tensor<3xi8> to i1
  return %a, %b : tensor<4xi1>, tensor<3xi1>
}

// -----

// Bool to int and float is 0/1; int to narrower int wraps, sign-extending
// signed sources.
// CHECK-LABEL: func.func @astype_bool_and_int_widths(
// CHECK-DAG:     mlx.constant dense<[1, 0]> : tensor<2xi64>
// CHECK-DAG:     mlx.constant dense<[1.000000e+00, 0.000000e+00]> : tensor<2xbf16>
// CHECK-DAG:     mlx.constant dense<[-56, 44]> : tensor<2xi8>
// CHECK-DAG:     mlx.constant dense<4294967295> : tensor<ui32>
// CHECK-NOT:     mlx.astype
func.func @astype_bool_and_int_widths() -> (tensor<2xi64>, tensor<2xbf16>, tensor<2xi8>, tensor<ui32>) {
  %b = mlx.constant dense<[true, false]> : tensor<2xi1>
  %w = mlx.constant dense<[200, 300]> : tensor<2xi32>
  %n = mlx.constant dense<-1> : tensor<i8>
  %a0 = mlx.astype %b : tensor<2xi1> to i64
  %a1 = mlx.astype %b : tensor<2xi1> to bf16
  %a2 = mlx.astype %w : tensor<2xi32> to i8
  %a3 = mlx.astype %n : tensor<i8> to ui32
  return %a0, %a1, %a2, %a3 : tensor<2xi64>, tensor<2xbf16>, tensor<2xi8>, tensor<ui32>
}

// -----

// NaN, and floats out of the integer range, have no defined integer value:
// no fold.
// CHECK-LABEL: func.func @astype_nan_to_int_not_folded(
// CHECK:         mlx.astype %{{.+}} : tensor<2xf32> to i32
// CHECK:         mlx.astype %{{.+}} : tensor<f32> to i32
// CHECK:         mlx.astype %{{.+}} : tensor<f32> to ui8
func.func @astype_nan_to_int_not_folded() -> (tensor<2xi32>, tensor<i32>, tensor<ui8>) {
  %nan = mlx.constant dense<[1.0, 0x7FC00000]> : tensor<2xf32>
  %big = mlx.constant dense<1.0e10> : tensor<f32>
  %neg = mlx.constant dense<-1.0> : tensor<f32>
  %a = mlx.astype %nan : tensor<2xf32> to i32
  %b = mlx.astype %big : tensor<f32> to i32
  %c = mlx.astype %neg : tensor<f32> to ui8
  return %a, %b, %c : tensor<2xi32>, tensor<i32>, tensor<ui8>
}

// -----

//===----------------------------------------------------------------------===//
// multiply by one
//===----------------------------------------------------------------------===//

// x * 1 == x for integers, with the constant on either side.
// CHECK-LABEL: func.func @mul_one_int(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<4xi32>, %[[B:[^:]+]]: tensor<3xi1>)
// CHECK-NOT:     mlx.multiply
// CHECK:         return %[[X]], %[[X]], %[[B]]
func.func @mul_one_int(%x: tensor<4xi32>, %b: tensor<3xi1>) -> (tensor<4xi32>, tensor<4xi32>, tensor<3xi1>) {
  %one = mlx.constant dense<1> : tensor<i32>
  %true = mlx.constant dense<true> : tensor<1xi1>
  %a = mlx.multiply %x, %one : tensor<4xi32>, tensor<i32>
  %c = mlx.multiply %one, %x : tensor<i32>, tensor<4xi32>
  // bool * true is x (logical and).
  %d = mlx.multiply %b, %true : tensor<3xi1>, tensor<1xi1>
  return %a, %c, %d : tensor<4xi32>, tensor<4xi32>, tensor<3xi1>
}

// -----

// x * 1.0 == x for every float (NaN and -0.0 included), also when the 1
// has a narrower dtype than x.
// CHECK-LABEL: func.func @mul_one_float(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<?xf32>)
// CHECK-NOT:     mlx.multiply
// CHECK:         return %[[X]], %[[X]]
func.func @mul_one_float(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %one = mlx.constant dense<1.0> : tensor<1xf32>
  %one_h = mlx.constant dense<1.0> : tensor<f16>
  %a = mlx.multiply %x, %one : tensor<?xf32>, tensor<1xf32>
  %b = mlx.multiply %x, %one_h : tensor<?xf32>, tensor<f16>
  return %a, %b : tensor<?xf32>, tensor<?xf32>
}

// -----

// int32 * float32 1.0 is a float32 tensor, not x: no fold.
// CHECK-LABEL: func.func @mul_one_promotes_not_folded(
// CHECK:         mlx.multiply %{{.+}}, %{{.+}} : tensor<4xi32>, tensor<f32>
func.func @mul_one_promotes_not_folded(%x: tensor<4xi32>) -> tensor<4xf32> {
  %one = mlx.constant dense<1.0> : tensor<f32>
  %a = mlx.multiply %x, %one : tensor<4xi32>, tensor<f32>
  return %a : tensor<4xf32>
}

// -----

// The 1 broadcasts x from [3] to [2, 3]: no fold.
// CHECK-LABEL: func.func @mul_one_broadcasts_not_folded(
// CHECK:         mlx.multiply %{{.+}}, %{{.+}} : tensor<3xf32>, tensor<2x3xf32>
func.func @mul_one_broadcasts_not_folded(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %one = mlx.constant dense<1.0> : tensor<2x3xf32>
  %a = mlx.multiply %x, %one : tensor<3xf32>, tensor<2x3xf32>
  return %a : tensor<2x3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// add zero, subtract zero
//===----------------------------------------------------------------------===//

// x + 0 == x for integers, with the zero on either side.
// CHECK-LABEL: func.func @add_zero_int(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<4xi64>, %[[U:[^:]+]]: tensor<2x2xui8>)
// CHECK-NOT:     mlx.add
// CHECK:         return %[[X]], %[[X]], %[[U]]
func.func @add_zero_int(%x: tensor<4xi64>, %u: tensor<2x2xui8>) -> (tensor<4xi64>, tensor<4xi64>, tensor<2x2xui8>) {
  %zero = mlx.constant dense<0> : tensor<i64>
  %zero_u = mlx.constant dense<0> : tensor<2xui8>
  %a = mlx.add %x, %zero : tensor<4xi64>, tensor<i64>
  %b = mlx.add %zero, %x : tensor<i64>, tensor<4xi64>
  %c = mlx.add %u, %zero_u : tensor<2x2xui8>, tensor<2xui8>
  return %a, %b, %c : tensor<4xi64>, tensor<4xi64>, tensor<2x2xui8>
}

// -----

// -0.0 + 0.0 is +0.0, so x + 0.0 is not x for floats: no fold.
// CHECK-LABEL: func.func @add_positive_zero_float_not_folded(
// CHECK:         mlx.add %{{.+}}, %{{.+}} : tensor<4xf32>, tensor<f32>
func.func @add_positive_zero_float_not_folded(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = mlx.constant dense<0.0> : tensor<f32>
  %a = mlx.add %x, %zero : tensor<4xf32>, tensor<f32>
  return %a : tensor<4xf32>
}

// -----

// An integer zero added to a float x is a +0.0 as well: no fold.
// CHECK-LABEL: func.func @add_int_zero_to_float_not_folded(
// CHECK:         mlx.add %{{.+}}, %{{.+}} : tensor<4xf32>, tensor<i32>
// CHECK:         mlx.add %{{.+}}, %{{.+}} : tensor<4xf32>, tensor<i1>
func.func @add_int_zero_to_float_not_folded(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = mlx.constant dense<0> : tensor<i32>
  %false = mlx.constant dense<false> : tensor<i1>
  %a = mlx.add %x, %zero : tensor<4xf32>, tensor<i32>
  %b = mlx.add %x, %false : tensor<4xf32>, tensor<i1>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// -----

// x + (-0.0) == x for every float.
// CHECK-LABEL: func.func @add_negative_zero_float(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<4xbf16>)
// CHECK-NOT:     mlx.add
// CHECK:         return %[[X]], %[[X]]
func.func @add_negative_zero_float(%x: tensor<4xbf16>) -> (tensor<4xbf16>, tensor<4xbf16>) {
  %nz = mlx.constant dense<-0.0> : tensor<bf16>
  %a = mlx.add %x, %nz : tensor<4xbf16>, tensor<bf16>
  %b = mlx.add %nz, %x : tensor<bf16>, tensor<4xbf16>
  return %a, %b : tensor<4xbf16>, tensor<4xbf16>
}

// -----

// x - 0.0 == x for every float (-0.0 - 0.0 is -0.0), and x - 0 for ints.
// CHECK-LABEL: func.func @sub_zero(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<4xf16>, %[[I:[^:]+]]: tensor<3xi8>)
// CHECK-NOT:     mlx.subtract
// CHECK:         return %[[X]], %[[I]]
func.func @sub_zero(%x: tensor<4xf16>, %i: tensor<3xi8>) -> (tensor<4xf16>, tensor<3xi8>) {
  %zero = mlx.constant dense<0.0> : tensor<f16>
  %izero = mlx.constant dense<0> : tensor<3xi8>
  %a = mlx.subtract %x, %zero : tensor<4xf16>, tensor<f16>
  %b = mlx.subtract %i, %izero : tensor<3xi8>, tensor<3xi8>
  return %a, %b : tensor<4xf16>, tensor<3xi8>
}

// -----

// x - (-0.0) is x + 0.0, which turns -0.0 into +0.0: no fold. Nor does
// 0 - x fold (subtract does not commute).
// CHECK-LABEL: func.func @sub_negative_zero_not_folded(
// CHECK:         mlx.subtract %{{.+}}, %{{.+}} : tensor<4xf32>, tensor<f32>
// CHECK:         mlx.subtract %{{.+}}, %{{.+}} : tensor<i32>, tensor<4xi32>
func.func @sub_negative_zero_not_folded(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %nz = mlx.constant dense<-0.0> : tensor<f32>
  %zero = mlx.constant dense<0> : tensor<i32>
  %a = mlx.subtract %x, %nz : tensor<4xf32>, tensor<f32>
  %b = mlx.subtract %zero, %i : tensor<i32>, tensor<4xi32>
  return %a, %b : tensor<4xf32>, tensor<4xi32>
}

// -----

//===----------------------------------------------------------------------===//
// Constant folding of add, subtract, multiply
//===----------------------------------------------------------------------===//

// int8 wraps: 127 + 1 == -128, -128 - 1 == 127.
// CHECK-LABEL: func.func @fold_int8_wrap(
// CHECK-DAG:     %[[A:.+]] = mlx.constant dense<[-128, 5]> : tensor<2xi8>
// CHECK-DAG:     %[[S:.+]] = mlx.constant dense<127> : tensor<i8>
// CHECK-NOT:     mlx.add
// CHECK-NOT:     mlx.subtract
// CHECK:         return %[[A]], %[[S]]
func.func @fold_int8_wrap() -> (tensor<2xi8>, tensor<i8>) {
  %a = mlx.constant dense<[127, 4]> : tensor<2xi8>
  %one = mlx.constant dense<1> : tensor<i8>
  %min = mlx.constant dense<-128> : tensor<i8>
  %s = mlx.add %a, %one : tensor<2xi8>, tensor<i8>
  %d = mlx.subtract %min, %one : tensor<i8>, tensor<i8>
  return %s, %d : tensor<2xi8>, tensor<i8>
}

// -----

// uint8 wraps: 200 + 100 == 44, 10 - 20 == 246.
// CHECK-LABEL: func.func @fold_uint8_wrap(
// CHECK-DAG:     %[[A:.+]] = mlx.constant dense<44> : tensor<1xui8>
// CHECK-DAG:     %[[S:.+]] = mlx.constant dense<246> : tensor<1xui8>
// CHECK:         return %[[A]], %[[S]]
func.func @fold_uint8_wrap() -> (tensor<1xui8>, tensor<1xui8>) {
  %a = mlx.constant dense<200> : tensor<1xui8>
  %b = mlx.constant dense<100> : tensor<1xui8>
  %c = mlx.constant dense<10> : tensor<1xui8>
  %d = mlx.constant dense<20> : tensor<1xui8>
  %s = mlx.add %a, %b : tensor<1xui8>, tensor<1xui8>
  %t = mlx.subtract %c, %d : tensor<1xui8>, tensor<1xui8>
  return %s, %t : tensor<1xui8>, tensor<1xui8>
}

// -----

// int16 multiply wraps: 300 * 300 == 90000 - 65536 == 24464; float16
// overflows to inf.
// CHECK-LABEL: func.func @fold_multiply(
// CHECK-DAG:     %[[I:.+]] = mlx.constant dense<24464> : tensor<i16>
// CHECK-DAG:     %[[H:.+]] = mlx.constant dense<[0x7C00, -3.000000e+00]> : tensor<2xf16>
// CHECK:         return %[[I]], %[[H]]
func.func @fold_multiply() -> (tensor<i16>, tensor<2xf16>) {
  %a = mlx.constant dense<300> : tensor<i16>
  %h = mlx.constant dense<[65504.0, -1.5]> : tensor<2xf16>
  %two = mlx.constant dense<2.0> : tensor<f16>
  %p = mlx.multiply %a, %a : tensor<i16>, tensor<i16>
  %q = mlx.multiply %h, %two : tensor<2xf16>, tensor<f16>
  return %p, %q : tensor<i16>, tensor<2xf16>
}

// -----

// Mixed dtypes compute in the promoted dtype: int32 + float32 is float32,
// uint8 + int8 is int16 (200 + -56 == 144).
// CHECK-LABEL: func.func @fold_mixed_dtypes(
// CHECK-DAG:     %[[F:.+]] = mlx.constant dense<[1.500000e+00, 2.500000e+00]> : tensor<2xf32>
// CHECK-DAG:     %[[I:.+]] = mlx.constant dense<144> : tensor<i16>
// CHECK:         return %[[F]], %[[I]]
func.func @fold_mixed_dtypes() -> (tensor<2xf32>, tensor<i16>) {
  %i = mlx.constant dense<[1, 2]> : tensor<2xi32>
  %f = mlx.constant dense<0.5> : tensor<f32>
  %u = mlx.constant dense<200> : tensor<ui8>
  %s = mlx.constant dense<-56> : tensor<i8>
  %a = mlx.add %i, %f : tensor<2xi32>, tensor<f32>
  %b = mlx.add %u, %s : tensor<ui8>, tensor<i8>
  return %a, %b : tensor<2xf32>, tensor<i16>
}

// -----

// Non-splat constants broadcast: [2, 1] + [3] is [2, 3].
// CHECK-LABEL: func.func @fold_broadcast(
// CHECK-NEXT:    %[[C:.+]] = mlx.constant dense<{{\[\[}}11, 21, 31], [12, 22, 32{{\]\]}}> : tensor<2x3xi32>
// CHECK-NEXT:    return %[[C]] : tensor<2x3xi32>
func.func @fold_broadcast() -> tensor<2x3xi32> {
  %a = mlx.constant dense<[[1], [2]]> : tensor<2x1xi32>
  %b = mlx.constant dense<[10, 20, 30]> : tensor<3xi32>
  %c = mlx.add %a, %b : tensor<2x1xi32>, tensor<3xi32>
  return %c : tensor<2x3xi32>
}

// -----

// bool + bool is bool in MLX (True + True == True, a logical or), and
// bool - bool gives True unless both are equal.
// CHECK-LABEL: func.func @fold_bool_add_subtract(
// CHECK-DAG:     %[[A:.+]] = mlx.constant dense<[true, true, true, false]> : tensor<4xi1>
// CHECK-DAG:     %[[S:.+]] = mlx.constant dense<[false, true, true, false]> : tensor<4xi1>
// CHECK:         return %[[A]], %[[S]]
func.func @fold_bool_add_subtract() -> (tensor<4xi1>, tensor<4xi1>) {
  %a = mlx.constant dense<[true, true, false, false]> : tensor<4xi1>
  %b = mlx.constant dense<[true, false, true, false]> : tensor<4xi1>
  %s = mlx.add %a, %b : tensor<4xi1>, tensor<4xi1>
  %d = mlx.subtract %a, %b : tensor<4xi1>, tensor<4xi1>
  return %s, %d : tensor<4xi1>, tensor<4xi1>
}

// -----

//===----------------------------------------------------------------------===//
// maximum, minimum
//===----------------------------------------------------------------------===//

// Signed and unsigned comparisons differ: uint8 255 is the largest value.
// CHECK-LABEL: func.func @fold_max_min_int(
// CHECK-DAG:     %[[MAX:.+]] = mlx.constant dense<[3, 5]> : tensor<2xi32>
// CHECK-DAG:     %[[MIN:.+]] = mlx.constant dense<[-1, 2]> : tensor<2xi32>
// CHECK-DAG:     %[[UMAX:.+]] = mlx.constant dense<[255, 1]> : tensor<2xui8>
// CHECK-DAG:     %[[UMIN:.+]] = mlx.constant dense<[1, 0]> : tensor<2xui8>
// CHECK:         return %[[MAX]], %[[MIN]], %[[UMAX]], %[[UMIN]]
func.func @fold_max_min_int() -> (tensor<2xi32>, tensor<2xi32>, tensor<2xui8>, tensor<2xui8>) {
  %a = mlx.constant dense<[-1, 5]> : tensor<2xi32>
  %b = mlx.constant dense<[3, 2]> : tensor<2xi32>
  %u = mlx.constant dense<[255, 0]> : tensor<2xui8>
  %v = mlx.constant dense<1> : tensor<ui8>
  %max = mlx.maximum %a, %b : tensor<2xi32>, tensor<2xi32>
  %min = mlx.minimum %a, %b : tensor<2xi32>, tensor<2xi32>
  %umax = mlx.maximum %u, %v : tensor<2xui8>, tensor<ui8>
  %umin = mlx.minimum %u, %v : tensor<2xui8>, tensor<ui8>
  return %max, %min, %umax, %umin : tensor<2xi32>, tensor<2xi32>, tensor<2xui8>, tensor<2xui8>
}

// -----

// MLX's maximum/minimum propagate a NaN from either side; of two zeros they
// return the right-hand one (CPU: `a > b ? a : b`).
// CHECK-LABEL: func.func @fold_max_min_nan(
// CHECK-DAG:     %[[MAX:.+]] = mlx.constant dense<[0x7FC00000, 0x7FC00000, 2.000000e+00, 0.000000e+00, -0.000000e+00]> : tensor<5xf32>
// CHECK-DAG:     %[[MIN:.+]] = mlx.constant dense<[0x7FC00000, 0x7FC00000, 1.000000e+00, 0.000000e+00, -0.000000e+00]> : tensor<5xf32>
// CHECK:         return %[[MAX]], %[[MIN]]
func.func @fold_max_min_nan() -> (tensor<5xf32>, tensor<5xf32>) {
  %a = mlx.constant dense<[0x7FC00000, 1.0, 2.0, -0.0, 0.0]> : tensor<5xf32>
  %b = mlx.constant dense<[1.0, 0x7FC00000, 1.0, 0.0, -0.0]> : tensor<5xf32>
  %max = mlx.maximum %a, %b : tensor<5xf32>, tensor<5xf32>
  %min = mlx.minimum %a, %b : tensor<5xf32>, tensor<5xf32>
  return %max, %min : tensor<5xf32>, tensor<5xf32>
}

// -----

// Mixed dtypes: int8 with float16 computes in float16.
// CHECK-LABEL: func.func @fold_max_mixed(
// CHECK-NEXT:    %[[C:.+]] = mlx.constant dense<[2.500000e+00, 3.000000e+00]> : tensor<2xf16>
// CHECK-NEXT:    return %[[C]]
func.func @fold_max_mixed() -> tensor<2xf16> {
  %a = mlx.constant dense<[1, 3]> : tensor<2xi8>
  %b = mlx.constant dense<2.5> : tensor<f16>
  %c = mlx.maximum %a, %b : tensor<2xi8>, tensor<f16>
  return %c : tensor<2xf16>
}

// -----

//===----------------------------------------------------------------------===//
// Comparisons
//===----------------------------------------------------------------------===//

// int8 compares signed: -56 < 100.
// CHECK-LABEL: func.func @compare_int8(
// CHECK-DAG:     %[[EQ:.+]] = mlx.constant dense<[false, false, true]> : tensor<3xi1>
// CHECK-DAG:     %[[NE:.+]] = mlx.constant dense<[true, true, false]> : tensor<3xi1>
// CHECK-DAG:     %[[LT:.+]] = mlx.constant dense<[true, false, false]> : tensor<3xi1>
// CHECK-DAG:     %[[LE:.+]] = mlx.constant dense<[true, false, true]> : tensor<3xi1>
// CHECK-DAG:     %[[GT:.+]] = mlx.constant dense<[false, true, false]> : tensor<3xi1>
// CHECK-DAG:     %[[GE:.+]] = mlx.constant dense<[false, true, true]> : tensor<3xi1>
// CHECK:         return %[[EQ]], %[[NE]], %[[LT]], %[[LE]], %[[GT]], %[[GE]]
func.func @compare_int8() -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>) {
  %a = mlx.constant dense<[-56, 100, 5]> : tensor<3xi8>
  %b = mlx.constant dense<[100, -56, 5]> : tensor<3xi8>
  %eq = mlx.equal %a, %b : tensor<3xi8>, tensor<3xi8>
  %ne = mlx.not_equal %a, %b : tensor<3xi8>, tensor<3xi8>
  %lt = mlx.less %a, %b : tensor<3xi8>, tensor<3xi8>
  %le = mlx.less_equal %a, %b : tensor<3xi8>, tensor<3xi8>
  %gt = mlx.greater %a, %b : tensor<3xi8>, tensor<3xi8>
  %ge = mlx.greater_equal %a, %b : tensor<3xi8>, tensor<3xi8>
  return %eq, %ne, %lt, %le, %gt, %ge : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>
}

// -----

// The same bits as uint8 compare unsigned: 200 > 100.
// CHECK-LABEL: func.func @compare_uint8(
// CHECK-DAG:     %[[EQ:.+]] = mlx.constant dense<[false, false, true]> : tensor<3xi1>
// CHECK-DAG:     %[[NE:.+]] = mlx.constant dense<[true, true, false]> : tensor<3xi1>
// CHECK-DAG:     %[[LT:.+]] = mlx.constant dense<[false, true, false]> : tensor<3xi1>
// CHECK-DAG:     %[[LE:.+]] = mlx.constant dense<[false, true, true]> : tensor<3xi1>
// CHECK-DAG:     %[[GT:.+]] = mlx.constant dense<[true, false, false]> : tensor<3xi1>
// CHECK-DAG:     %[[GE:.+]] = mlx.constant dense<[true, false, true]> : tensor<3xi1>
// CHECK:         return %[[EQ]], %[[NE]], %[[LT]], %[[LE]], %[[GT]], %[[GE]]
func.func @compare_uint8() -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>) {
  %a = mlx.constant dense<[200, 100, 5]> : tensor<3xui8>
  %b = mlx.constant dense<[100, 200, 5]> : tensor<3xui8>
  %eq = mlx.equal %a, %b : tensor<3xui8>, tensor<3xui8>
  %ne = mlx.not_equal %a, %b : tensor<3xui8>, tensor<3xui8>
  %lt = mlx.less %a, %b : tensor<3xui8>, tensor<3xui8>
  %le = mlx.less_equal %a, %b : tensor<3xui8>, tensor<3xui8>
  %gt = mlx.greater %a, %b : tensor<3xui8>, tensor<3xui8>
  %ge = mlx.greater_equal %a, %b : tensor<3xui8>, tensor<3xui8>
  return %eq, %ne, %lt, %le, %gt, %ge : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>
}

// -----

// uint8 200 against int8 -56 compares in int16: 200 > -56, not equal.
// CHECK-LABEL: func.func @compare_mixed_sign(
// CHECK-DAG:     %[[GT:.+]] = mlx.constant dense<true> : tensor<i1>
// CHECK-DAG:     %[[EQ:.+]] = mlx.constant dense<false> : tensor<i1>
// CHECK:         return %[[GT]], %[[EQ]]
func.func @compare_mixed_sign() -> (tensor<i1>, tensor<i1>) {
  %u = mlx.constant dense<200> : tensor<ui8>
  %s = mlx.constant dense<-56> : tensor<i8>
  %gt = mlx.greater %u, %s : tensor<ui8>, tensor<i8>
  %eq = mlx.equal %u, %s : tensor<ui8>, tensor<i8>
  return %gt, %eq : tensor<i1>, tensor<i1>
}

// -----

// NaN is unordered: only not_equal is true. Pairs: (NaN, NaN), (1, NaN),
// (NaN, 1), (-0.0, 0.0). equal, less_equal and greater_equal give the same
// constant, as do less and greater.
// CHECK-LABEL: func.func @compare_float_nan(
// CHECK-DAG:     %[[EQ:.+]] = mlx.constant dense<[false, false, false, true]> : tensor<4xi1>
// CHECK-DAG:     %[[NE:.+]] = mlx.constant dense<[true, true, true, false]> : tensor<4xi1>
// CHECK-DAG:     %[[LT:.+]] = mlx.constant dense<false> : tensor<4xi1>
// CHECK:         return %[[EQ]], %[[NE]], %[[LT]], %[[EQ]], %[[LT]], %[[EQ]]
func.func @compare_float_nan() -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %a = mlx.constant dense<[0x7FC00000, 1.0, 0x7FC00000, -0.0]> : tensor<4xf32>
  %b = mlx.constant dense<[0x7FC00000, 0x7FC00000, 1.0, 0.0]> : tensor<4xf32>
  %eq = mlx.equal %a, %b : tensor<4xf32>, tensor<4xf32>
  %ne = mlx.not_equal %a, %b : tensor<4xf32>, tensor<4xf32>
  %lt = mlx.less %a, %b : tensor<4xf32>, tensor<4xf32>
  %le = mlx.less_equal %a, %b : tensor<4xf32>, tensor<4xf32>
  %gt = mlx.greater %a, %b : tensor<4xf32>, tensor<4xf32>
  %ge = mlx.greater_equal %a, %b : tensor<4xf32>, tensor<4xf32>
  return %eq, %ne, %lt, %le, %gt, %ge : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// With equal_nan two NaNs are equal; a NaN and a number still are not.
// CHECK-LABEL: func.func @equal_nan(
// CHECK-NEXT:    %[[C:.+]] = mlx.constant dense<[true, false, false, true]> : tensor<4xi1>
// CHECK-NEXT:    return %[[C]]
func.func @equal_nan() -> tensor<4xi1> {
  %a = mlx.constant dense<[0x7E00, 1.0, 0x7E00, 2.0]> : tensor<4xf16>
  %b = mlx.constant dense<[0x7FC00000, 0x7FC00000, 1.0, 2.0]> : tensor<4xf32>
  %eq = mlx.equal %a, %b {equal_nan = true} : tensor<4xf16>, tensor<4xf32>
  return %eq : tensor<4xi1>
}

// -----

//===----------------------------------------------------------------------===//
// negative, abs
//===----------------------------------------------------------------------===//

// negative wraps (-INT32_MIN == INT32_MIN, -1 as uint8 is 255) and flips the
// sign of zero.
// CHECK-LABEL: func.func @fold_negative(
// CHECK-DAG:     %[[I:.+]] = mlx.constant dense<[-1, 2, -2147483648]> : tensor<3xi32>
// CHECK-DAG:     %[[F:.+]] = mlx.constant dense<[-0.000000e+00, 1.500000e+00]> : tensor<2xf32>
// CHECK-DAG:     %[[U:.+]] = mlx.constant dense<255> : tensor<ui8>
// CHECK:         return %[[I]], %[[F]], %[[U]]
func.func @fold_negative() -> (tensor<3xi32>, tensor<2xf32>, tensor<ui8>) {
  %i = mlx.constant dense<[1, -2, -2147483648]> : tensor<3xi32>
  %f = mlx.constant dense<[0.0, -1.5]> : tensor<2xf32>
  %u = mlx.constant dense<1> : tensor<ui8>
  %ni = mlx.negative %i : tensor<3xi32>
  %nf = mlx.negative %f : tensor<2xf32>
  %nu = mlx.negative %u : tensor<ui8>
  return %ni, %nf, %nu : tensor<3xi32>, tensor<2xf32>, tensor<ui8>
}

// -----

// abs(-128) overflows back to -128 in int8; abs(-0.0) is +0.0.
// CHECK-LABEL: func.func @fold_abs(
// CHECK-DAG:     %[[I:.+]] = mlx.constant dense<[-128, 5, 7]> : tensor<3xi8>
// CHECK-DAG:     %[[F:.+]] = mlx.constant dense<[0.000000e+00, 2.500000e+00]> : tensor<2xf32>
// CHECK:         return %[[I]], %[[F]]
func.func @fold_abs() -> (tensor<3xi8>, tensor<2xf32>) {
  %i = mlx.constant dense<[-128, -5, 7]> : tensor<3xi8>
  %f = mlx.constant dense<[-0.0, -2.5]> : tensor<2xf32>
  %ai = mlx.abs %i : tensor<3xi8>
  %af = mlx.abs %f : tensor<2xf32>
  return %ai, %af : tensor<3xi8>, tensor<2xf32>
}

// -----

// abs of unsigned and bool values is the value itself.
// CHECK-LABEL: func.func @abs_unsigned_and_bool(
// CHECK-SAME:      %[[U:[^:]+]]: tensor<?xui32>, %[[B:[^:]+]]: tensor<2xi1>)
// CHECK-NOT:     mlx.abs
// CHECK:         return %[[U]], %[[B]]
func.func @abs_unsigned_and_bool(%u: tensor<?xui32>, %b: tensor<2xi1>) -> (tensor<?xui32>, tensor<2xi1>) {
  %a = mlx.abs %u : tensor<?xui32>
  %c = mlx.abs %b : tensor<2xi1>
  return %a, %c : tensor<?xui32>, tensor<2xi1>
}

// -----

// abs of a signed or float value that is not constant stays.
// CHECK-LABEL: func.func @abs_signed_not_folded(
// CHECK:         mlx.abs %{{.+}} : tensor<4xi16>
// CHECK:         mlx.abs %{{.+}} : tensor<4xf32>
func.func @abs_signed_not_folded(%i: tensor<4xi16>, %f: tensor<4xf32>) -> (tensor<4xi16>, tensor<4xf32>) {
  %a = mlx.abs %i : tensor<4xi16>
  %b = mlx.abs %f : tensor<4xf32>
  return %a, %b : tensor<4xi16>, tensor<4xf32>
}
