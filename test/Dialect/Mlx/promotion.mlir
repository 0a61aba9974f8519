// Generated from MLX 0.32.4 by gen_promotion.py; do not edit.
// Regenerate: python3 test/Dialect/Mlx/gen_promotion.py > test/Dialect/Mlx/promotion.mlir
// Each CHECK line is MLX's own result dtype for the op and dtypes.

// RUN: mlx-opt %s --mlir-print-op-generic | FileCheck %s

// CHECK-LABEL: sym_name = "add_i1"
func.func @add_i1(%x: tensor<2xi1>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  %r0 = mlx.add %x, %y0 : tensor<2xi1>, tensor<2xi1>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xui8>) -> tensor<2xui8>
  %r1 = mlx.add %x, %y1 : tensor<2xi1>, tensor<2xui8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xui16>) -> tensor<2xui16>
  %r2 = mlx.add %x, %y2 : tensor<2xi1>, tensor<2xui16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xui32>) -> tensor<2xui32>
  %r3 = mlx.add %x, %y3 : tensor<2xi1>, tensor<2xui32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xui64>) -> tensor<2xui64>
  %r4 = mlx.add %x, %y4 : tensor<2xi1>, tensor<2xui64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xi8>) -> tensor<2xi8>
  %r5 = mlx.add %x, %y5 : tensor<2xi1>, tensor<2xi8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xi16>) -> tensor<2xi16>
  %r6 = mlx.add %x, %y6 : tensor<2xi1>, tensor<2xi16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xi32>) -> tensor<2xi32>
  %r7 = mlx.add %x, %y7 : tensor<2xi1>, tensor<2xi32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xi64>) -> tensor<2xi64>
  %r8 = mlx.add %x, %y8 : tensor<2xi1>, tensor<2xi64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.add %x, %y9 : tensor<2xi1>, tensor<2xf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.add %x, %y10 : tensor<2xi1>, tensor<2xbf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.add %x, %y11 : tensor<2xi1>, tensor<2xf32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.add %x, %y12 : tensor<2xi1>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "add_ui8"
func.func @add_ui8(%x: tensor<2xui8>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xi1>) -> tensor<2xui8>
  %r0 = mlx.add %x, %y0 : tensor<2xui8>, tensor<2xi1>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  %r1 = mlx.add %x, %y1 : tensor<2xui8>, tensor<2xui8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xui16>) -> tensor<2xui16>
  %r2 = mlx.add %x, %y2 : tensor<2xui8>, tensor<2xui16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xui32>) -> tensor<2xui32>
  %r3 = mlx.add %x, %y3 : tensor<2xui8>, tensor<2xui32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xui64>) -> tensor<2xui64>
  %r4 = mlx.add %x, %y4 : tensor<2xui8>, tensor<2xui64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xi8>) -> tensor<2xi16>
  %r5 = mlx.add %x, %y5 : tensor<2xui8>, tensor<2xi8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xi16>) -> tensor<2xi16>
  %r6 = mlx.add %x, %y6 : tensor<2xui8>, tensor<2xi16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xi32>) -> tensor<2xi32>
  %r7 = mlx.add %x, %y7 : tensor<2xui8>, tensor<2xi32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xi64>) -> tensor<2xi64>
  %r8 = mlx.add %x, %y8 : tensor<2xui8>, tensor<2xi64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.add %x, %y9 : tensor<2xui8>, tensor<2xf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.add %x, %y10 : tensor<2xui8>, tensor<2xbf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.add %x, %y11 : tensor<2xui8>, tensor<2xf32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.add %x, %y12 : tensor<2xui8>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "add_ui16"
func.func @add_ui16(%x: tensor<2xui16>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xi1>) -> tensor<2xui16>
  %r0 = mlx.add %x, %y0 : tensor<2xui16>, tensor<2xi1>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xui8>) -> tensor<2xui16>
  %r1 = mlx.add %x, %y1 : tensor<2xui16>, tensor<2xui8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xui16>) -> tensor<2xui16>
  %r2 = mlx.add %x, %y2 : tensor<2xui16>, tensor<2xui16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xui32>) -> tensor<2xui32>
  %r3 = mlx.add %x, %y3 : tensor<2xui16>, tensor<2xui32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xui64>) -> tensor<2xui64>
  %r4 = mlx.add %x, %y4 : tensor<2xui16>, tensor<2xui64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xi8>) -> tensor<2xi32>
  %r5 = mlx.add %x, %y5 : tensor<2xui16>, tensor<2xi8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xi16>) -> tensor<2xi32>
  %r6 = mlx.add %x, %y6 : tensor<2xui16>, tensor<2xi16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xi32>) -> tensor<2xi32>
  %r7 = mlx.add %x, %y7 : tensor<2xui16>, tensor<2xi32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xi64>) -> tensor<2xi64>
  %r8 = mlx.add %x, %y8 : tensor<2xui16>, tensor<2xi64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.add %x, %y9 : tensor<2xui16>, tensor<2xf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.add %x, %y10 : tensor<2xui16>, tensor<2xbf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.add %x, %y11 : tensor<2xui16>, tensor<2xf32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.add %x, %y12 : tensor<2xui16>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "add_ui32"
func.func @add_ui32(%x: tensor<2xui32>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xi1>) -> tensor<2xui32>
  %r0 = mlx.add %x, %y0 : tensor<2xui32>, tensor<2xi1>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xui8>) -> tensor<2xui32>
  %r1 = mlx.add %x, %y1 : tensor<2xui32>, tensor<2xui8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xui16>) -> tensor<2xui32>
  %r2 = mlx.add %x, %y2 : tensor<2xui32>, tensor<2xui16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xui32>
  %r3 = mlx.add %x, %y3 : tensor<2xui32>, tensor<2xui32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xui64>) -> tensor<2xui64>
  %r4 = mlx.add %x, %y4 : tensor<2xui32>, tensor<2xui64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xi8>) -> tensor<2xi64>
  %r5 = mlx.add %x, %y5 : tensor<2xui32>, tensor<2xi8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xi16>) -> tensor<2xi64>
  %r6 = mlx.add %x, %y6 : tensor<2xui32>, tensor<2xi16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xi32>) -> tensor<2xi64>
  %r7 = mlx.add %x, %y7 : tensor<2xui32>, tensor<2xi32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xi64>) -> tensor<2xi64>
  %r8 = mlx.add %x, %y8 : tensor<2xui32>, tensor<2xi64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.add %x, %y9 : tensor<2xui32>, tensor<2xf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.add %x, %y10 : tensor<2xui32>, tensor<2xbf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.add %x, %y11 : tensor<2xui32>, tensor<2xf32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.add %x, %y12 : tensor<2xui32>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "add_ui64"
func.func @add_ui64(%x: tensor<2xui64>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xi1>) -> tensor<2xui64>
  %r0 = mlx.add %x, %y0 : tensor<2xui64>, tensor<2xi1>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xui8>) -> tensor<2xui64>
  %r1 = mlx.add %x, %y1 : tensor<2xui64>, tensor<2xui8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xui16>) -> tensor<2xui64>
  %r2 = mlx.add %x, %y2 : tensor<2xui64>, tensor<2xui16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xui32>) -> tensor<2xui64>
  %r3 = mlx.add %x, %y3 : tensor<2xui64>, tensor<2xui32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xui64>
  %r4 = mlx.add %x, %y4 : tensor<2xui64>, tensor<2xui64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xi8>) -> tensor<2xf32>
  %r5 = mlx.add %x, %y5 : tensor<2xui64>, tensor<2xi8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xi16>) -> tensor<2xf32>
  %r6 = mlx.add %x, %y6 : tensor<2xui64>, tensor<2xi16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xi32>) -> tensor<2xf32>
  %r7 = mlx.add %x, %y7 : tensor<2xui64>, tensor<2xi32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xi64>) -> tensor<2xf32>
  %r8 = mlx.add %x, %y8 : tensor<2xui64>, tensor<2xi64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.add %x, %y9 : tensor<2xui64>, tensor<2xf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.add %x, %y10 : tensor<2xui64>, tensor<2xbf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.add %x, %y11 : tensor<2xui64>, tensor<2xf32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.add %x, %y12 : tensor<2xui64>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "add_i8"
func.func @add_i8(%x: tensor<2xi8>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xi1>) -> tensor<2xi8>
  %r0 = mlx.add %x, %y0 : tensor<2xi8>, tensor<2xi1>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xui8>) -> tensor<2xi16>
  %r1 = mlx.add %x, %y1 : tensor<2xi8>, tensor<2xui8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xui16>) -> tensor<2xi32>
  %r2 = mlx.add %x, %y2 : tensor<2xi8>, tensor<2xui16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xui32>) -> tensor<2xi64>
  %r3 = mlx.add %x, %y3 : tensor<2xi8>, tensor<2xui32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xui64>) -> tensor<2xf32>
  %r4 = mlx.add %x, %y4 : tensor<2xi8>, tensor<2xui64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
  %r5 = mlx.add %x, %y5 : tensor<2xi8>, tensor<2xi8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xi16>) -> tensor<2xi16>
  %r6 = mlx.add %x, %y6 : tensor<2xi8>, tensor<2xi16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xi32>) -> tensor<2xi32>
  %r7 = mlx.add %x, %y7 : tensor<2xi8>, tensor<2xi32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xi64>) -> tensor<2xi64>
  %r8 = mlx.add %x, %y8 : tensor<2xi8>, tensor<2xi64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.add %x, %y9 : tensor<2xi8>, tensor<2xf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.add %x, %y10 : tensor<2xi8>, tensor<2xbf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.add %x, %y11 : tensor<2xi8>, tensor<2xf32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.add %x, %y12 : tensor<2xi8>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "add_i16"
func.func @add_i16(%x: tensor<2xi16>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xi1>) -> tensor<2xi16>
  %r0 = mlx.add %x, %y0 : tensor<2xi16>, tensor<2xi1>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xui8>) -> tensor<2xi16>
  %r1 = mlx.add %x, %y1 : tensor<2xi16>, tensor<2xui8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xui16>) -> tensor<2xi32>
  %r2 = mlx.add %x, %y2 : tensor<2xi16>, tensor<2xui16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xui32>) -> tensor<2xi64>
  %r3 = mlx.add %x, %y3 : tensor<2xi16>, tensor<2xui32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xui64>) -> tensor<2xf32>
  %r4 = mlx.add %x, %y4 : tensor<2xi16>, tensor<2xui64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xi8>) -> tensor<2xi16>
  %r5 = mlx.add %x, %y5 : tensor<2xi16>, tensor<2xi8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xi16>) -> tensor<2xi16>
  %r6 = mlx.add %x, %y6 : tensor<2xi16>, tensor<2xi16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xi32>) -> tensor<2xi32>
  %r7 = mlx.add %x, %y7 : tensor<2xi16>, tensor<2xi32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xi64>) -> tensor<2xi64>
  %r8 = mlx.add %x, %y8 : tensor<2xi16>, tensor<2xi64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.add %x, %y9 : tensor<2xi16>, tensor<2xf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.add %x, %y10 : tensor<2xi16>, tensor<2xbf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.add %x, %y11 : tensor<2xi16>, tensor<2xf32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.add %x, %y12 : tensor<2xi16>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "add_i32"
func.func @add_i32(%x: tensor<2xi32>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xi1>) -> tensor<2xi32>
  %r0 = mlx.add %x, %y0 : tensor<2xi32>, tensor<2xi1>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xui8>) -> tensor<2xi32>
  %r1 = mlx.add %x, %y1 : tensor<2xi32>, tensor<2xui8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xui16>) -> tensor<2xi32>
  %r2 = mlx.add %x, %y2 : tensor<2xi32>, tensor<2xui16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xui32>) -> tensor<2xi64>
  %r3 = mlx.add %x, %y3 : tensor<2xi32>, tensor<2xui32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xui64>) -> tensor<2xf32>
  %r4 = mlx.add %x, %y4 : tensor<2xi32>, tensor<2xui64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xi8>) -> tensor<2xi32>
  %r5 = mlx.add %x, %y5 : tensor<2xi32>, tensor<2xi8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xi16>) -> tensor<2xi32>
  %r6 = mlx.add %x, %y6 : tensor<2xi32>, tensor<2xi16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %r7 = mlx.add %x, %y7 : tensor<2xi32>, tensor<2xi32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xi64>) -> tensor<2xi64>
  %r8 = mlx.add %x, %y8 : tensor<2xi32>, tensor<2xi64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.add %x, %y9 : tensor<2xi32>, tensor<2xf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.add %x, %y10 : tensor<2xi32>, tensor<2xbf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.add %x, %y11 : tensor<2xi32>, tensor<2xf32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.add %x, %y12 : tensor<2xi32>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "add_i64"
func.func @add_i64(%x: tensor<2xi64>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xi1>) -> tensor<2xi64>
  %r0 = mlx.add %x, %y0 : tensor<2xi64>, tensor<2xi1>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xui8>) -> tensor<2xi64>
  %r1 = mlx.add %x, %y1 : tensor<2xi64>, tensor<2xui8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xui16>) -> tensor<2xi64>
  %r2 = mlx.add %x, %y2 : tensor<2xi64>, tensor<2xui16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xui32>) -> tensor<2xi64>
  %r3 = mlx.add %x, %y3 : tensor<2xi64>, tensor<2xui32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xui64>) -> tensor<2xf32>
  %r4 = mlx.add %x, %y4 : tensor<2xi64>, tensor<2xui64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xi8>) -> tensor<2xi64>
  %r5 = mlx.add %x, %y5 : tensor<2xi64>, tensor<2xi8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xi16>) -> tensor<2xi64>
  %r6 = mlx.add %x, %y6 : tensor<2xi64>, tensor<2xi16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xi32>) -> tensor<2xi64>
  %r7 = mlx.add %x, %y7 : tensor<2xi64>, tensor<2xi32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %r8 = mlx.add %x, %y8 : tensor<2xi64>, tensor<2xi64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.add %x, %y9 : tensor<2xi64>, tensor<2xf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.add %x, %y10 : tensor<2xi64>, tensor<2xbf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.add %x, %y11 : tensor<2xi64>, tensor<2xf32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.add %x, %y12 : tensor<2xi64>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "add_f16"
func.func @add_f16(%x: tensor<2xf16>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xi1>) -> tensor<2xf16>
  %r0 = mlx.add %x, %y0 : tensor<2xf16>, tensor<2xi1>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xui8>) -> tensor<2xf16>
  %r1 = mlx.add %x, %y1 : tensor<2xf16>, tensor<2xui8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xui16>) -> tensor<2xf16>
  %r2 = mlx.add %x, %y2 : tensor<2xf16>, tensor<2xui16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xui32>) -> tensor<2xf16>
  %r3 = mlx.add %x, %y3 : tensor<2xf16>, tensor<2xui32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xui64>) -> tensor<2xf16>
  %r4 = mlx.add %x, %y4 : tensor<2xf16>, tensor<2xui64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xi8>) -> tensor<2xf16>
  %r5 = mlx.add %x, %y5 : tensor<2xf16>, tensor<2xi8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xi16>) -> tensor<2xf16>
  %r6 = mlx.add %x, %y6 : tensor<2xf16>, tensor<2xi16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xi32>) -> tensor<2xf16>
  %r7 = mlx.add %x, %y7 : tensor<2xf16>, tensor<2xi32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xi64>) -> tensor<2xf16>
  %r8 = mlx.add %x, %y8 : tensor<2xf16>, tensor<2xi64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.add %x, %y9 : tensor<2xf16>, tensor<2xf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xbf16>) -> tensor<2xf32>
  %r10 = mlx.add %x, %y10 : tensor<2xf16>, tensor<2xbf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.add %x, %y11 : tensor<2xf16>, tensor<2xf32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.add %x, %y12 : tensor<2xf16>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "add_bf16"
func.func @add_bf16(%x: tensor<2xbf16>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xi1>) -> tensor<2xbf16>
  %r0 = mlx.add %x, %y0 : tensor<2xbf16>, tensor<2xi1>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xui8>) -> tensor<2xbf16>
  %r1 = mlx.add %x, %y1 : tensor<2xbf16>, tensor<2xui8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xui16>) -> tensor<2xbf16>
  %r2 = mlx.add %x, %y2 : tensor<2xbf16>, tensor<2xui16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xui32>) -> tensor<2xbf16>
  %r3 = mlx.add %x, %y3 : tensor<2xbf16>, tensor<2xui32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xui64>) -> tensor<2xbf16>
  %r4 = mlx.add %x, %y4 : tensor<2xbf16>, tensor<2xui64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xi8>) -> tensor<2xbf16>
  %r5 = mlx.add %x, %y5 : tensor<2xbf16>, tensor<2xi8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xi16>) -> tensor<2xbf16>
  %r6 = mlx.add %x, %y6 : tensor<2xbf16>, tensor<2xi16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xi32>) -> tensor<2xbf16>
  %r7 = mlx.add %x, %y7 : tensor<2xbf16>, tensor<2xi32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xi64>) -> tensor<2xbf16>
  %r8 = mlx.add %x, %y8 : tensor<2xbf16>, tensor<2xi64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xf16>) -> tensor<2xf32>
  %r9 = mlx.add %x, %y9 : tensor<2xbf16>, tensor<2xf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.add %x, %y10 : tensor<2xbf16>, tensor<2xbf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.add %x, %y11 : tensor<2xbf16>, tensor<2xf32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.add %x, %y12 : tensor<2xbf16>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "add_f32"
func.func @add_f32(%x: tensor<2xf32>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xi1>) -> tensor<2xf32>
  %r0 = mlx.add %x, %y0 : tensor<2xf32>, tensor<2xi1>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xui8>) -> tensor<2xf32>
  %r1 = mlx.add %x, %y1 : tensor<2xf32>, tensor<2xui8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xui16>) -> tensor<2xf32>
  %r2 = mlx.add %x, %y2 : tensor<2xf32>, tensor<2xui16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xui32>) -> tensor<2xf32>
  %r3 = mlx.add %x, %y3 : tensor<2xf32>, tensor<2xui32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xui64>) -> tensor<2xf32>
  %r4 = mlx.add %x, %y4 : tensor<2xf32>, tensor<2xui64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xi8>) -> tensor<2xf32>
  %r5 = mlx.add %x, %y5 : tensor<2xf32>, tensor<2xi8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xi16>) -> tensor<2xf32>
  %r6 = mlx.add %x, %y6 : tensor<2xf32>, tensor<2xi16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  %r7 = mlx.add %x, %y7 : tensor<2xf32>, tensor<2xi32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xi64>) -> tensor<2xf32>
  %r8 = mlx.add %x, %y8 : tensor<2xf32>, tensor<2xi64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xf16>) -> tensor<2xf32>
  %r9 = mlx.add %x, %y9 : tensor<2xf32>, tensor<2xf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xbf16>) -> tensor<2xf32>
  %r10 = mlx.add %x, %y10 : tensor<2xf32>, tensor<2xbf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.add %x, %y11 : tensor<2xf32>, tensor<2xf32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.add %x, %y12 : tensor<2xf32>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "add_f64"
func.func @add_f64(%x: tensor<2xf64>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xi1>) -> tensor<2xf64>
  %r0 = mlx.add %x, %y0 : tensor<2xf64>, tensor<2xi1>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xui8>) -> tensor<2xf64>
  %r1 = mlx.add %x, %y1 : tensor<2xf64>, tensor<2xui8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xui16>) -> tensor<2xf64>
  %r2 = mlx.add %x, %y2 : tensor<2xf64>, tensor<2xui16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xui32>) -> tensor<2xf64>
  %r3 = mlx.add %x, %y3 : tensor<2xf64>, tensor<2xui32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xui64>) -> tensor<2xf64>
  %r4 = mlx.add %x, %y4 : tensor<2xf64>, tensor<2xui64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xi8>) -> tensor<2xf64>
  %r5 = mlx.add %x, %y5 : tensor<2xf64>, tensor<2xi8>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xi16>) -> tensor<2xf64>
  %r6 = mlx.add %x, %y6 : tensor<2xf64>, tensor<2xi16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xi32>) -> tensor<2xf64>
  %r7 = mlx.add %x, %y7 : tensor<2xf64>, tensor<2xi32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xi64>) -> tensor<2xf64>
  %r8 = mlx.add %x, %y8 : tensor<2xf64>, tensor<2xi64>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xf16>) -> tensor<2xf64>
  %r9 = mlx.add %x, %y9 : tensor<2xf64>, tensor<2xf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xbf16>) -> tensor<2xf64>
  %r10 = mlx.add %x, %y10 : tensor<2xf64>, tensor<2xbf16>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xf32>) -> tensor<2xf64>
  %r11 = mlx.add %x, %y11 : tensor<2xf64>, tensor<2xf32>
  // CHECK: "mlx.add"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.add %x, %y12 : tensor<2xf64>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "divide_i1"
func.func @divide_i1(%x: tensor<2xi1>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xf32>
  %r0 = mlx.divide %x, %y0 : tensor<2xi1>, tensor<2xi1>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xui8>) -> tensor<2xf32>
  %r1 = mlx.divide %x, %y1 : tensor<2xi1>, tensor<2xui8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xui16>) -> tensor<2xf32>
  %r2 = mlx.divide %x, %y2 : tensor<2xi1>, tensor<2xui16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xui32>) -> tensor<2xf32>
  %r3 = mlx.divide %x, %y3 : tensor<2xi1>, tensor<2xui32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xui64>) -> tensor<2xf32>
  %r4 = mlx.divide %x, %y4 : tensor<2xi1>, tensor<2xui64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xi8>) -> tensor<2xf32>
  %r5 = mlx.divide %x, %y5 : tensor<2xi1>, tensor<2xi8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xi16>) -> tensor<2xf32>
  %r6 = mlx.divide %x, %y6 : tensor<2xi1>, tensor<2xi16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xi32>) -> tensor<2xf32>
  %r7 = mlx.divide %x, %y7 : tensor<2xi1>, tensor<2xi32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xi64>) -> tensor<2xf32>
  %r8 = mlx.divide %x, %y8 : tensor<2xi1>, tensor<2xi64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.divide %x, %y9 : tensor<2xi1>, tensor<2xf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.divide %x, %y10 : tensor<2xi1>, tensor<2xbf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.divide %x, %y11 : tensor<2xi1>, tensor<2xf32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.divide %x, %y12 : tensor<2xi1>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "divide_ui8"
func.func @divide_ui8(%x: tensor<2xui8>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xi1>) -> tensor<2xf32>
  %r0 = mlx.divide %x, %y0 : tensor<2xui8>, tensor<2xi1>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xf32>
  %r1 = mlx.divide %x, %y1 : tensor<2xui8>, tensor<2xui8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xui16>) -> tensor<2xf32>
  %r2 = mlx.divide %x, %y2 : tensor<2xui8>, tensor<2xui16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xui32>) -> tensor<2xf32>
  %r3 = mlx.divide %x, %y3 : tensor<2xui8>, tensor<2xui32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xui64>) -> tensor<2xf32>
  %r4 = mlx.divide %x, %y4 : tensor<2xui8>, tensor<2xui64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xi8>) -> tensor<2xf32>
  %r5 = mlx.divide %x, %y5 : tensor<2xui8>, tensor<2xi8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xi16>) -> tensor<2xf32>
  %r6 = mlx.divide %x, %y6 : tensor<2xui8>, tensor<2xi16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xi32>) -> tensor<2xf32>
  %r7 = mlx.divide %x, %y7 : tensor<2xui8>, tensor<2xi32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xi64>) -> tensor<2xf32>
  %r8 = mlx.divide %x, %y8 : tensor<2xui8>, tensor<2xi64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.divide %x, %y9 : tensor<2xui8>, tensor<2xf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.divide %x, %y10 : tensor<2xui8>, tensor<2xbf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.divide %x, %y11 : tensor<2xui8>, tensor<2xf32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.divide %x, %y12 : tensor<2xui8>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "divide_ui16"
func.func @divide_ui16(%x: tensor<2xui16>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xi1>) -> tensor<2xf32>
  %r0 = mlx.divide %x, %y0 : tensor<2xui16>, tensor<2xi1>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xui8>) -> tensor<2xf32>
  %r1 = mlx.divide %x, %y1 : tensor<2xui16>, tensor<2xui8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xui16>) -> tensor<2xf32>
  %r2 = mlx.divide %x, %y2 : tensor<2xui16>, tensor<2xui16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xui32>) -> tensor<2xf32>
  %r3 = mlx.divide %x, %y3 : tensor<2xui16>, tensor<2xui32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xui64>) -> tensor<2xf32>
  %r4 = mlx.divide %x, %y4 : tensor<2xui16>, tensor<2xui64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xi8>) -> tensor<2xf32>
  %r5 = mlx.divide %x, %y5 : tensor<2xui16>, tensor<2xi8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xi16>) -> tensor<2xf32>
  %r6 = mlx.divide %x, %y6 : tensor<2xui16>, tensor<2xi16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xi32>) -> tensor<2xf32>
  %r7 = mlx.divide %x, %y7 : tensor<2xui16>, tensor<2xi32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xi64>) -> tensor<2xf32>
  %r8 = mlx.divide %x, %y8 : tensor<2xui16>, tensor<2xi64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.divide %x, %y9 : tensor<2xui16>, tensor<2xf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.divide %x, %y10 : tensor<2xui16>, tensor<2xbf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.divide %x, %y11 : tensor<2xui16>, tensor<2xf32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.divide %x, %y12 : tensor<2xui16>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "divide_ui32"
func.func @divide_ui32(%x: tensor<2xui32>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xi1>) -> tensor<2xf32>
  %r0 = mlx.divide %x, %y0 : tensor<2xui32>, tensor<2xi1>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xui8>) -> tensor<2xf32>
  %r1 = mlx.divide %x, %y1 : tensor<2xui32>, tensor<2xui8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xui16>) -> tensor<2xf32>
  %r2 = mlx.divide %x, %y2 : tensor<2xui32>, tensor<2xui16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xf32>
  %r3 = mlx.divide %x, %y3 : tensor<2xui32>, tensor<2xui32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xui64>) -> tensor<2xf32>
  %r4 = mlx.divide %x, %y4 : tensor<2xui32>, tensor<2xui64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xi8>) -> tensor<2xf32>
  %r5 = mlx.divide %x, %y5 : tensor<2xui32>, tensor<2xi8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xi16>) -> tensor<2xf32>
  %r6 = mlx.divide %x, %y6 : tensor<2xui32>, tensor<2xi16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xi32>) -> tensor<2xf32>
  %r7 = mlx.divide %x, %y7 : tensor<2xui32>, tensor<2xi32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xi64>) -> tensor<2xf32>
  %r8 = mlx.divide %x, %y8 : tensor<2xui32>, tensor<2xi64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.divide %x, %y9 : tensor<2xui32>, tensor<2xf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.divide %x, %y10 : tensor<2xui32>, tensor<2xbf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.divide %x, %y11 : tensor<2xui32>, tensor<2xf32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.divide %x, %y12 : tensor<2xui32>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "divide_ui64"
func.func @divide_ui64(%x: tensor<2xui64>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xi1>) -> tensor<2xf32>
  %r0 = mlx.divide %x, %y0 : tensor<2xui64>, tensor<2xi1>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xui8>) -> tensor<2xf32>
  %r1 = mlx.divide %x, %y1 : tensor<2xui64>, tensor<2xui8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xui16>) -> tensor<2xf32>
  %r2 = mlx.divide %x, %y2 : tensor<2xui64>, tensor<2xui16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xui32>) -> tensor<2xf32>
  %r3 = mlx.divide %x, %y3 : tensor<2xui64>, tensor<2xui32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xf32>
  %r4 = mlx.divide %x, %y4 : tensor<2xui64>, tensor<2xui64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xi8>) -> tensor<2xf32>
  %r5 = mlx.divide %x, %y5 : tensor<2xui64>, tensor<2xi8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xi16>) -> tensor<2xf32>
  %r6 = mlx.divide %x, %y6 : tensor<2xui64>, tensor<2xi16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xi32>) -> tensor<2xf32>
  %r7 = mlx.divide %x, %y7 : tensor<2xui64>, tensor<2xi32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xi64>) -> tensor<2xf32>
  %r8 = mlx.divide %x, %y8 : tensor<2xui64>, tensor<2xi64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.divide %x, %y9 : tensor<2xui64>, tensor<2xf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.divide %x, %y10 : tensor<2xui64>, tensor<2xbf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.divide %x, %y11 : tensor<2xui64>, tensor<2xf32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.divide %x, %y12 : tensor<2xui64>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "divide_i8"
func.func @divide_i8(%x: tensor<2xi8>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xi1>) -> tensor<2xf32>
  %r0 = mlx.divide %x, %y0 : tensor<2xi8>, tensor<2xi1>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xui8>) -> tensor<2xf32>
  %r1 = mlx.divide %x, %y1 : tensor<2xi8>, tensor<2xui8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xui16>) -> tensor<2xf32>
  %r2 = mlx.divide %x, %y2 : tensor<2xi8>, tensor<2xui16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xui32>) -> tensor<2xf32>
  %r3 = mlx.divide %x, %y3 : tensor<2xi8>, tensor<2xui32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xui64>) -> tensor<2xf32>
  %r4 = mlx.divide %x, %y4 : tensor<2xi8>, tensor<2xui64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xf32>
  %r5 = mlx.divide %x, %y5 : tensor<2xi8>, tensor<2xi8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xi16>) -> tensor<2xf32>
  %r6 = mlx.divide %x, %y6 : tensor<2xi8>, tensor<2xi16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xi32>) -> tensor<2xf32>
  %r7 = mlx.divide %x, %y7 : tensor<2xi8>, tensor<2xi32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xi64>) -> tensor<2xf32>
  %r8 = mlx.divide %x, %y8 : tensor<2xi8>, tensor<2xi64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.divide %x, %y9 : tensor<2xi8>, tensor<2xf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.divide %x, %y10 : tensor<2xi8>, tensor<2xbf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.divide %x, %y11 : tensor<2xi8>, tensor<2xf32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.divide %x, %y12 : tensor<2xi8>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "divide_i16"
func.func @divide_i16(%x: tensor<2xi16>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xi1>) -> tensor<2xf32>
  %r0 = mlx.divide %x, %y0 : tensor<2xi16>, tensor<2xi1>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xui8>) -> tensor<2xf32>
  %r1 = mlx.divide %x, %y1 : tensor<2xi16>, tensor<2xui8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xui16>) -> tensor<2xf32>
  %r2 = mlx.divide %x, %y2 : tensor<2xi16>, tensor<2xui16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xui32>) -> tensor<2xf32>
  %r3 = mlx.divide %x, %y3 : tensor<2xi16>, tensor<2xui32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xui64>) -> tensor<2xf32>
  %r4 = mlx.divide %x, %y4 : tensor<2xi16>, tensor<2xui64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xi8>) -> tensor<2xf32>
  %r5 = mlx.divide %x, %y5 : tensor<2xi16>, tensor<2xi8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xi16>) -> tensor<2xf32>
  %r6 = mlx.divide %x, %y6 : tensor<2xi16>, tensor<2xi16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xi32>) -> tensor<2xf32>
  %r7 = mlx.divide %x, %y7 : tensor<2xi16>, tensor<2xi32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xi64>) -> tensor<2xf32>
  %r8 = mlx.divide %x, %y8 : tensor<2xi16>, tensor<2xi64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.divide %x, %y9 : tensor<2xi16>, tensor<2xf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.divide %x, %y10 : tensor<2xi16>, tensor<2xbf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.divide %x, %y11 : tensor<2xi16>, tensor<2xf32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.divide %x, %y12 : tensor<2xi16>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "divide_i32"
func.func @divide_i32(%x: tensor<2xi32>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xi1>) -> tensor<2xf32>
  %r0 = mlx.divide %x, %y0 : tensor<2xi32>, tensor<2xi1>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xui8>) -> tensor<2xf32>
  %r1 = mlx.divide %x, %y1 : tensor<2xi32>, tensor<2xui8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xui16>) -> tensor<2xf32>
  %r2 = mlx.divide %x, %y2 : tensor<2xi32>, tensor<2xui16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xui32>) -> tensor<2xf32>
  %r3 = mlx.divide %x, %y3 : tensor<2xi32>, tensor<2xui32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xui64>) -> tensor<2xf32>
  %r4 = mlx.divide %x, %y4 : tensor<2xi32>, tensor<2xui64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xi8>) -> tensor<2xf32>
  %r5 = mlx.divide %x, %y5 : tensor<2xi32>, tensor<2xi8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xi16>) -> tensor<2xf32>
  %r6 = mlx.divide %x, %y6 : tensor<2xi32>, tensor<2xi16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xf32>
  %r7 = mlx.divide %x, %y7 : tensor<2xi32>, tensor<2xi32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xi64>) -> tensor<2xf32>
  %r8 = mlx.divide %x, %y8 : tensor<2xi32>, tensor<2xi64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.divide %x, %y9 : tensor<2xi32>, tensor<2xf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.divide %x, %y10 : tensor<2xi32>, tensor<2xbf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.divide %x, %y11 : tensor<2xi32>, tensor<2xf32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.divide %x, %y12 : tensor<2xi32>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "divide_i64"
func.func @divide_i64(%x: tensor<2xi64>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xi1>) -> tensor<2xf32>
  %r0 = mlx.divide %x, %y0 : tensor<2xi64>, tensor<2xi1>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xui8>) -> tensor<2xf32>
  %r1 = mlx.divide %x, %y1 : tensor<2xi64>, tensor<2xui8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xui16>) -> tensor<2xf32>
  %r2 = mlx.divide %x, %y2 : tensor<2xi64>, tensor<2xui16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xui32>) -> tensor<2xf32>
  %r3 = mlx.divide %x, %y3 : tensor<2xi64>, tensor<2xui32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xui64>) -> tensor<2xf32>
  %r4 = mlx.divide %x, %y4 : tensor<2xi64>, tensor<2xui64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xi8>) -> tensor<2xf32>
  %r5 = mlx.divide %x, %y5 : tensor<2xi64>, tensor<2xi8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xi16>) -> tensor<2xf32>
  %r6 = mlx.divide %x, %y6 : tensor<2xi64>, tensor<2xi16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xi32>) -> tensor<2xf32>
  %r7 = mlx.divide %x, %y7 : tensor<2xi64>, tensor<2xi32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xf32>
  %r8 = mlx.divide %x, %y8 : tensor<2xi64>, tensor<2xi64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.divide %x, %y9 : tensor<2xi64>, tensor<2xf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.divide %x, %y10 : tensor<2xi64>, tensor<2xbf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.divide %x, %y11 : tensor<2xi64>, tensor<2xf32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.divide %x, %y12 : tensor<2xi64>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "divide_f16"
func.func @divide_f16(%x: tensor<2xf16>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xi1>) -> tensor<2xf16>
  %r0 = mlx.divide %x, %y0 : tensor<2xf16>, tensor<2xi1>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xui8>) -> tensor<2xf16>
  %r1 = mlx.divide %x, %y1 : tensor<2xf16>, tensor<2xui8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xui16>) -> tensor<2xf16>
  %r2 = mlx.divide %x, %y2 : tensor<2xf16>, tensor<2xui16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xui32>) -> tensor<2xf16>
  %r3 = mlx.divide %x, %y3 : tensor<2xf16>, tensor<2xui32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xui64>) -> tensor<2xf16>
  %r4 = mlx.divide %x, %y4 : tensor<2xf16>, tensor<2xui64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xi8>) -> tensor<2xf16>
  %r5 = mlx.divide %x, %y5 : tensor<2xf16>, tensor<2xi8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xi16>) -> tensor<2xf16>
  %r6 = mlx.divide %x, %y6 : tensor<2xf16>, tensor<2xi16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xi32>) -> tensor<2xf16>
  %r7 = mlx.divide %x, %y7 : tensor<2xf16>, tensor<2xi32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xi64>) -> tensor<2xf16>
  %r8 = mlx.divide %x, %y8 : tensor<2xf16>, tensor<2xi64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.divide %x, %y9 : tensor<2xf16>, tensor<2xf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xbf16>) -> tensor<2xf32>
  %r10 = mlx.divide %x, %y10 : tensor<2xf16>, tensor<2xbf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.divide %x, %y11 : tensor<2xf16>, tensor<2xf32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf16>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.divide %x, %y12 : tensor<2xf16>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "divide_bf16"
func.func @divide_bf16(%x: tensor<2xbf16>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xi1>) -> tensor<2xbf16>
  %r0 = mlx.divide %x, %y0 : tensor<2xbf16>, tensor<2xi1>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xui8>) -> tensor<2xbf16>
  %r1 = mlx.divide %x, %y1 : tensor<2xbf16>, tensor<2xui8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xui16>) -> tensor<2xbf16>
  %r2 = mlx.divide %x, %y2 : tensor<2xbf16>, tensor<2xui16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xui32>) -> tensor<2xbf16>
  %r3 = mlx.divide %x, %y3 : tensor<2xbf16>, tensor<2xui32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xui64>) -> tensor<2xbf16>
  %r4 = mlx.divide %x, %y4 : tensor<2xbf16>, tensor<2xui64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xi8>) -> tensor<2xbf16>
  %r5 = mlx.divide %x, %y5 : tensor<2xbf16>, tensor<2xi8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xi16>) -> tensor<2xbf16>
  %r6 = mlx.divide %x, %y6 : tensor<2xbf16>, tensor<2xi16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xi32>) -> tensor<2xbf16>
  %r7 = mlx.divide %x, %y7 : tensor<2xbf16>, tensor<2xi32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xi64>) -> tensor<2xbf16>
  %r8 = mlx.divide %x, %y8 : tensor<2xbf16>, tensor<2xi64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xf16>) -> tensor<2xf32>
  %r9 = mlx.divide %x, %y9 : tensor<2xbf16>, tensor<2xf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.divide %x, %y10 : tensor<2xbf16>, tensor<2xbf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.divide %x, %y11 : tensor<2xbf16>, tensor<2xf32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xbf16>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.divide %x, %y12 : tensor<2xbf16>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "divide_f32"
func.func @divide_f32(%x: tensor<2xf32>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xi1>) -> tensor<2xf32>
  %r0 = mlx.divide %x, %y0 : tensor<2xf32>, tensor<2xi1>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xui8>) -> tensor<2xf32>
  %r1 = mlx.divide %x, %y1 : tensor<2xf32>, tensor<2xui8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xui16>) -> tensor<2xf32>
  %r2 = mlx.divide %x, %y2 : tensor<2xf32>, tensor<2xui16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xui32>) -> tensor<2xf32>
  %r3 = mlx.divide %x, %y3 : tensor<2xf32>, tensor<2xui32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xui64>) -> tensor<2xf32>
  %r4 = mlx.divide %x, %y4 : tensor<2xf32>, tensor<2xui64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xi8>) -> tensor<2xf32>
  %r5 = mlx.divide %x, %y5 : tensor<2xf32>, tensor<2xi8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xi16>) -> tensor<2xf32>
  %r6 = mlx.divide %x, %y6 : tensor<2xf32>, tensor<2xi16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  %r7 = mlx.divide %x, %y7 : tensor<2xf32>, tensor<2xi32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xi64>) -> tensor<2xf32>
  %r8 = mlx.divide %x, %y8 : tensor<2xf32>, tensor<2xi64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xf16>) -> tensor<2xf32>
  %r9 = mlx.divide %x, %y9 : tensor<2xf32>, tensor<2xf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xbf16>) -> tensor<2xf32>
  %r10 = mlx.divide %x, %y10 : tensor<2xf32>, tensor<2xbf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.divide %x, %y11 : tensor<2xf32>, tensor<2xf32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.divide %x, %y12 : tensor<2xf32>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "divide_f64"
func.func @divide_f64(%x: tensor<2xf64>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>, %y9: tensor<2xf16>, %y10: tensor<2xbf16>, %y11: tensor<2xf32>, %y12: tensor<2xf64>) {
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xi1>) -> tensor<2xf64>
  %r0 = mlx.divide %x, %y0 : tensor<2xf64>, tensor<2xi1>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xui8>) -> tensor<2xf64>
  %r1 = mlx.divide %x, %y1 : tensor<2xf64>, tensor<2xui8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xui16>) -> tensor<2xf64>
  %r2 = mlx.divide %x, %y2 : tensor<2xf64>, tensor<2xui16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xui32>) -> tensor<2xf64>
  %r3 = mlx.divide %x, %y3 : tensor<2xf64>, tensor<2xui32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xui64>) -> tensor<2xf64>
  %r4 = mlx.divide %x, %y4 : tensor<2xf64>, tensor<2xui64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xi8>) -> tensor<2xf64>
  %r5 = mlx.divide %x, %y5 : tensor<2xf64>, tensor<2xi8>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xi16>) -> tensor<2xf64>
  %r6 = mlx.divide %x, %y6 : tensor<2xf64>, tensor<2xi16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xi32>) -> tensor<2xf64>
  %r7 = mlx.divide %x, %y7 : tensor<2xf64>, tensor<2xi32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xi64>) -> tensor<2xf64>
  %r8 = mlx.divide %x, %y8 : tensor<2xf64>, tensor<2xi64>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xf16>) -> tensor<2xf64>
  %r9 = mlx.divide %x, %y9 : tensor<2xf64>, tensor<2xf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xbf16>) -> tensor<2xf64>
  %r10 = mlx.divide %x, %y10 : tensor<2xf64>, tensor<2xbf16>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xf32>) -> tensor<2xf64>
  %r11 = mlx.divide %x, %y11 : tensor<2xf64>, tensor<2xf32>
  // CHECK: "mlx.divide"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.divide %x, %y12 : tensor<2xf64>, tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "left_shift_i1"
func.func @left_shift_i1(%x: tensor<2xi1>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>) {
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xui8>
  %r0 = mlx.left_shift %x, %y0 : tensor<2xi1>, tensor<2xi1>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xui8>) -> tensor<2xui8>
  %r1 = mlx.left_shift %x, %y1 : tensor<2xi1>, tensor<2xui8>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xui16>) -> tensor<2xui16>
  %r2 = mlx.left_shift %x, %y2 : tensor<2xi1>, tensor<2xui16>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xui32>) -> tensor<2xui32>
  %r3 = mlx.left_shift %x, %y3 : tensor<2xi1>, tensor<2xui32>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xui64>) -> tensor<2xui64>
  %r4 = mlx.left_shift %x, %y4 : tensor<2xi1>, tensor<2xui64>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xi8>) -> tensor<2xi8>
  %r5 = mlx.left_shift %x, %y5 : tensor<2xi1>, tensor<2xi8>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xi16>) -> tensor<2xi16>
  %r6 = mlx.left_shift %x, %y6 : tensor<2xi1>, tensor<2xi16>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xi32>) -> tensor<2xi32>
  %r7 = mlx.left_shift %x, %y7 : tensor<2xi1>, tensor<2xi32>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi1>, tensor<2xi64>) -> tensor<2xi64>
  %r8 = mlx.left_shift %x, %y8 : tensor<2xi1>, tensor<2xi64>
  return
}

// CHECK-LABEL: sym_name = "left_shift_ui8"
func.func @left_shift_ui8(%x: tensor<2xui8>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>) {
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xi1>) -> tensor<2xui8>
  %r0 = mlx.left_shift %x, %y0 : tensor<2xui8>, tensor<2xi1>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  %r1 = mlx.left_shift %x, %y1 : tensor<2xui8>, tensor<2xui8>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xui16>) -> tensor<2xui16>
  %r2 = mlx.left_shift %x, %y2 : tensor<2xui8>, tensor<2xui16>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xui32>) -> tensor<2xui32>
  %r3 = mlx.left_shift %x, %y3 : tensor<2xui8>, tensor<2xui32>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xui64>) -> tensor<2xui64>
  %r4 = mlx.left_shift %x, %y4 : tensor<2xui8>, tensor<2xui64>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xi8>) -> tensor<2xi16>
  %r5 = mlx.left_shift %x, %y5 : tensor<2xui8>, tensor<2xi8>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xi16>) -> tensor<2xi16>
  %r6 = mlx.left_shift %x, %y6 : tensor<2xui8>, tensor<2xi16>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xi32>) -> tensor<2xi32>
  %r7 = mlx.left_shift %x, %y7 : tensor<2xui8>, tensor<2xi32>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui8>, tensor<2xi64>) -> tensor<2xi64>
  %r8 = mlx.left_shift %x, %y8 : tensor<2xui8>, tensor<2xi64>
  return
}

// CHECK-LABEL: sym_name = "left_shift_ui16"
func.func @left_shift_ui16(%x: tensor<2xui16>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>) {
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xi1>) -> tensor<2xui16>
  %r0 = mlx.left_shift %x, %y0 : tensor<2xui16>, tensor<2xi1>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xui8>) -> tensor<2xui16>
  %r1 = mlx.left_shift %x, %y1 : tensor<2xui16>, tensor<2xui8>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xui16>) -> tensor<2xui16>
  %r2 = mlx.left_shift %x, %y2 : tensor<2xui16>, tensor<2xui16>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xui32>) -> tensor<2xui32>
  %r3 = mlx.left_shift %x, %y3 : tensor<2xui16>, tensor<2xui32>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xui64>) -> tensor<2xui64>
  %r4 = mlx.left_shift %x, %y4 : tensor<2xui16>, tensor<2xui64>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xi8>) -> tensor<2xi32>
  %r5 = mlx.left_shift %x, %y5 : tensor<2xui16>, tensor<2xi8>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xi16>) -> tensor<2xi32>
  %r6 = mlx.left_shift %x, %y6 : tensor<2xui16>, tensor<2xi16>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xi32>) -> tensor<2xi32>
  %r7 = mlx.left_shift %x, %y7 : tensor<2xui16>, tensor<2xi32>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui16>, tensor<2xi64>) -> tensor<2xi64>
  %r8 = mlx.left_shift %x, %y8 : tensor<2xui16>, tensor<2xi64>
  return
}

// CHECK-LABEL: sym_name = "left_shift_ui32"
func.func @left_shift_ui32(%x: tensor<2xui32>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>, %y5: tensor<2xi8>, %y6: tensor<2xi16>, %y7: tensor<2xi32>, %y8: tensor<2xi64>) {
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xi1>) -> tensor<2xui32>
  %r0 = mlx.left_shift %x, %y0 : tensor<2xui32>, tensor<2xi1>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xui8>) -> tensor<2xui32>
  %r1 = mlx.left_shift %x, %y1 : tensor<2xui32>, tensor<2xui8>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xui16>) -> tensor<2xui32>
  %r2 = mlx.left_shift %x, %y2 : tensor<2xui32>, tensor<2xui16>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xui32>
  %r3 = mlx.left_shift %x, %y3 : tensor<2xui32>, tensor<2xui32>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xui64>) -> tensor<2xui64>
  %r4 = mlx.left_shift %x, %y4 : tensor<2xui32>, tensor<2xui64>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xi8>) -> tensor<2xi64>
  %r5 = mlx.left_shift %x, %y5 : tensor<2xui32>, tensor<2xi8>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xi16>) -> tensor<2xi64>
  %r6 = mlx.left_shift %x, %y6 : tensor<2xui32>, tensor<2xi16>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xi32>) -> tensor<2xi64>
  %r7 = mlx.left_shift %x, %y7 : tensor<2xui32>, tensor<2xi32>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui32>, tensor<2xi64>) -> tensor<2xi64>
  %r8 = mlx.left_shift %x, %y8 : tensor<2xui32>, tensor<2xi64>
  return
}

// CHECK-LABEL: sym_name = "left_shift_ui64"
func.func @left_shift_ui64(%x: tensor<2xui64>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xui64>) {
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xi1>) -> tensor<2xui64>
  %r0 = mlx.left_shift %x, %y0 : tensor<2xui64>, tensor<2xi1>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xui8>) -> tensor<2xui64>
  %r1 = mlx.left_shift %x, %y1 : tensor<2xui64>, tensor<2xui8>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xui16>) -> tensor<2xui64>
  %r2 = mlx.left_shift %x, %y2 : tensor<2xui64>, tensor<2xui16>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xui32>) -> tensor<2xui64>
  %r3 = mlx.left_shift %x, %y3 : tensor<2xui64>, tensor<2xui32>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xui64>
  %r4 = mlx.left_shift %x, %y4 : tensor<2xui64>, tensor<2xui64>
  return
}

// CHECK-LABEL: sym_name = "left_shift_i8"
func.func @left_shift_i8(%x: tensor<2xi8>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xi8>, %y5: tensor<2xi16>, %y6: tensor<2xi32>, %y7: tensor<2xi64>) {
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xi1>) -> tensor<2xi8>
  %r0 = mlx.left_shift %x, %y0 : tensor<2xi8>, tensor<2xi1>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xui8>) -> tensor<2xi16>
  %r1 = mlx.left_shift %x, %y1 : tensor<2xi8>, tensor<2xui8>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xui16>) -> tensor<2xi32>
  %r2 = mlx.left_shift %x, %y2 : tensor<2xi8>, tensor<2xui16>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xui32>) -> tensor<2xi64>
  %r3 = mlx.left_shift %x, %y3 : tensor<2xi8>, tensor<2xui32>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
  %r4 = mlx.left_shift %x, %y4 : tensor<2xi8>, tensor<2xi8>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xi16>) -> tensor<2xi16>
  %r5 = mlx.left_shift %x, %y5 : tensor<2xi8>, tensor<2xi16>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xi32>) -> tensor<2xi32>
  %r6 = mlx.left_shift %x, %y6 : tensor<2xi8>, tensor<2xi32>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi8>, tensor<2xi64>) -> tensor<2xi64>
  %r7 = mlx.left_shift %x, %y7 : tensor<2xi8>, tensor<2xi64>
  return
}

// CHECK-LABEL: sym_name = "left_shift_i16"
func.func @left_shift_i16(%x: tensor<2xi16>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xi8>, %y5: tensor<2xi16>, %y6: tensor<2xi32>, %y7: tensor<2xi64>) {
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xi1>) -> tensor<2xi16>
  %r0 = mlx.left_shift %x, %y0 : tensor<2xi16>, tensor<2xi1>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xui8>) -> tensor<2xi16>
  %r1 = mlx.left_shift %x, %y1 : tensor<2xi16>, tensor<2xui8>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xui16>) -> tensor<2xi32>
  %r2 = mlx.left_shift %x, %y2 : tensor<2xi16>, tensor<2xui16>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xui32>) -> tensor<2xi64>
  %r3 = mlx.left_shift %x, %y3 : tensor<2xi16>, tensor<2xui32>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xi8>) -> tensor<2xi16>
  %r4 = mlx.left_shift %x, %y4 : tensor<2xi16>, tensor<2xi8>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xi16>) -> tensor<2xi16>
  %r5 = mlx.left_shift %x, %y5 : tensor<2xi16>, tensor<2xi16>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xi32>) -> tensor<2xi32>
  %r6 = mlx.left_shift %x, %y6 : tensor<2xi16>, tensor<2xi32>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi16>, tensor<2xi64>) -> tensor<2xi64>
  %r7 = mlx.left_shift %x, %y7 : tensor<2xi16>, tensor<2xi64>
  return
}

// CHECK-LABEL: sym_name = "left_shift_i32"
func.func @left_shift_i32(%x: tensor<2xi32>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xi8>, %y5: tensor<2xi16>, %y6: tensor<2xi32>, %y7: tensor<2xi64>) {
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xi1>) -> tensor<2xi32>
  %r0 = mlx.left_shift %x, %y0 : tensor<2xi32>, tensor<2xi1>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xui8>) -> tensor<2xi32>
  %r1 = mlx.left_shift %x, %y1 : tensor<2xi32>, tensor<2xui8>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xui16>) -> tensor<2xi32>
  %r2 = mlx.left_shift %x, %y2 : tensor<2xi32>, tensor<2xui16>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xui32>) -> tensor<2xi64>
  %r3 = mlx.left_shift %x, %y3 : tensor<2xi32>, tensor<2xui32>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xi8>) -> tensor<2xi32>
  %r4 = mlx.left_shift %x, %y4 : tensor<2xi32>, tensor<2xi8>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xi16>) -> tensor<2xi32>
  %r5 = mlx.left_shift %x, %y5 : tensor<2xi32>, tensor<2xi16>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %r6 = mlx.left_shift %x, %y6 : tensor<2xi32>, tensor<2xi32>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi32>, tensor<2xi64>) -> tensor<2xi64>
  %r7 = mlx.left_shift %x, %y7 : tensor<2xi32>, tensor<2xi64>
  return
}

// CHECK-LABEL: sym_name = "left_shift_i64"
func.func @left_shift_i64(%x: tensor<2xi64>, %y0: tensor<2xi1>, %y1: tensor<2xui8>, %y2: tensor<2xui16>, %y3: tensor<2xui32>, %y4: tensor<2xi8>, %y5: tensor<2xi16>, %y6: tensor<2xi32>, %y7: tensor<2xi64>) {
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xi1>) -> tensor<2xi64>
  %r0 = mlx.left_shift %x, %y0 : tensor<2xi64>, tensor<2xi1>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xui8>) -> tensor<2xi64>
  %r1 = mlx.left_shift %x, %y1 : tensor<2xi64>, tensor<2xui8>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xui16>) -> tensor<2xi64>
  %r2 = mlx.left_shift %x, %y2 : tensor<2xi64>, tensor<2xui16>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xui32>) -> tensor<2xi64>
  %r3 = mlx.left_shift %x, %y3 : tensor<2xi64>, tensor<2xui32>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xi8>) -> tensor<2xi64>
  %r4 = mlx.left_shift %x, %y4 : tensor<2xi64>, tensor<2xi8>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xi16>) -> tensor<2xi64>
  %r5 = mlx.left_shift %x, %y5 : tensor<2xi64>, tensor<2xi16>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xi32>) -> tensor<2xi64>
  %r6 = mlx.left_shift %x, %y6 : tensor<2xi64>, tensor<2xi32>
  // CHECK: "mlx.left_shift"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %r7 = mlx.left_shift %x, %y7 : tensor<2xi64>, tensor<2xi64>
  return
}

// CHECK-LABEL: sym_name = "sum"
func.func @sum(%x0: tensor<2xi1>, %x1: tensor<2xui8>, %x2: tensor<2xui16>, %x3: tensor<2xui32>, %x4: tensor<2xui64>, %x5: tensor<2xi8>, %x6: tensor<2xi16>, %x7: tensor<2xi32>, %x8: tensor<2xi64>, %x9: tensor<2xf16>, %x10: tensor<2xbf16>, %x11: tensor<2xf32>, %x12: tensor<2xf64>) {
  // CHECK: "mlx.sum"(%{{.*}}){{.*}} : (tensor<2xi1>) -> tensor<i32>
  %r0 = mlx.sum %x0 {keepdims = false} : tensor<2xi1>
  // CHECK: "mlx.sum"(%{{.*}}){{.*}} : (tensor<2xui8>) -> tensor<ui32>
  %r1 = mlx.sum %x1 {keepdims = false} : tensor<2xui8>
  // CHECK: "mlx.sum"(%{{.*}}){{.*}} : (tensor<2xui16>) -> tensor<ui32>
  %r2 = mlx.sum %x2 {keepdims = false} : tensor<2xui16>
  // CHECK: "mlx.sum"(%{{.*}}){{.*}} : (tensor<2xui32>) -> tensor<ui32>
  %r3 = mlx.sum %x3 {keepdims = false} : tensor<2xui32>
  // CHECK: "mlx.sum"(%{{.*}}){{.*}} : (tensor<2xui64>) -> tensor<ui64>
  %r4 = mlx.sum %x4 {keepdims = false} : tensor<2xui64>
  // CHECK: "mlx.sum"(%{{.*}}){{.*}} : (tensor<2xi8>) -> tensor<i32>
  %r5 = mlx.sum %x5 {keepdims = false} : tensor<2xi8>
  // CHECK: "mlx.sum"(%{{.*}}){{.*}} : (tensor<2xi16>) -> tensor<i32>
  %r6 = mlx.sum %x6 {keepdims = false} : tensor<2xi16>
  // CHECK: "mlx.sum"(%{{.*}}){{.*}} : (tensor<2xi32>) -> tensor<i32>
  %r7 = mlx.sum %x7 {keepdims = false} : tensor<2xi32>
  // CHECK: "mlx.sum"(%{{.*}}){{.*}} : (tensor<2xi64>) -> tensor<i64>
  %r8 = mlx.sum %x8 {keepdims = false} : tensor<2xi64>
  // CHECK: "mlx.sum"(%{{.*}}){{.*}} : (tensor<2xf16>) -> tensor<f16>
  %r9 = mlx.sum %x9 {keepdims = false} : tensor<2xf16>
  // CHECK: "mlx.sum"(%{{.*}}){{.*}} : (tensor<2xbf16>) -> tensor<bf16>
  %r10 = mlx.sum %x10 {keepdims = false} : tensor<2xbf16>
  // CHECK: "mlx.sum"(%{{.*}}){{.*}} : (tensor<2xf32>) -> tensor<f32>
  %r11 = mlx.sum %x11 {keepdims = false} : tensor<2xf32>
  // CHECK: "mlx.sum"(%{{.*}}){{.*}} : (tensor<2xf64>) -> tensor<f64>
  %r12 = mlx.sum %x12 {keepdims = false} : tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "cumsum"
func.func @cumsum(%x0: tensor<2xi1>, %x1: tensor<2xui8>, %x2: tensor<2xui16>, %x3: tensor<2xui32>, %x4: tensor<2xui64>, %x5: tensor<2xi8>, %x6: tensor<2xi16>, %x7: tensor<2xi32>, %x8: tensor<2xi64>, %x9: tensor<2xf16>, %x10: tensor<2xbf16>, %x11: tensor<2xf32>, %x12: tensor<2xf64>) {
  // CHECK: "mlx.cumsum"(%{{.*}}){{.*}} : (tensor<2xi1>) -> tensor<2xi32>
  %r0 = mlx.cumsum %x0 {axis = 0 : i64} : tensor<2xi1>
  // CHECK: "mlx.cumsum"(%{{.*}}){{.*}} : (tensor<2xui8>) -> tensor<2xui8>
  %r1 = mlx.cumsum %x1 {axis = 0 : i64} : tensor<2xui8>
  // CHECK: "mlx.cumsum"(%{{.*}}){{.*}} : (tensor<2xui16>) -> tensor<2xui16>
  %r2 = mlx.cumsum %x2 {axis = 0 : i64} : tensor<2xui16>
  // CHECK: "mlx.cumsum"(%{{.*}}){{.*}} : (tensor<2xui32>) -> tensor<2xui32>
  %r3 = mlx.cumsum %x3 {axis = 0 : i64} : tensor<2xui32>
  // CHECK: "mlx.cumsum"(%{{.*}}){{.*}} : (tensor<2xui64>) -> tensor<2xui64>
  %r4 = mlx.cumsum %x4 {axis = 0 : i64} : tensor<2xui64>
  // CHECK: "mlx.cumsum"(%{{.*}}){{.*}} : (tensor<2xi8>) -> tensor<2xi8>
  %r5 = mlx.cumsum %x5 {axis = 0 : i64} : tensor<2xi8>
  // CHECK: "mlx.cumsum"(%{{.*}}){{.*}} : (tensor<2xi16>) -> tensor<2xi16>
  %r6 = mlx.cumsum %x6 {axis = 0 : i64} : tensor<2xi16>
  // CHECK: "mlx.cumsum"(%{{.*}}){{.*}} : (tensor<2xi32>) -> tensor<2xi32>
  %r7 = mlx.cumsum %x7 {axis = 0 : i64} : tensor<2xi32>
  // CHECK: "mlx.cumsum"(%{{.*}}){{.*}} : (tensor<2xi64>) -> tensor<2xi64>
  %r8 = mlx.cumsum %x8 {axis = 0 : i64} : tensor<2xi64>
  // CHECK: "mlx.cumsum"(%{{.*}}){{.*}} : (tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.cumsum %x9 {axis = 0 : i64} : tensor<2xf16>
  // CHECK: "mlx.cumsum"(%{{.*}}){{.*}} : (tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.cumsum %x10 {axis = 0 : i64} : tensor<2xbf16>
  // CHECK: "mlx.cumsum"(%{{.*}}){{.*}} : (tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.cumsum %x11 {axis = 0 : i64} : tensor<2xf32>
  // CHECK: "mlx.cumsum"(%{{.*}}){{.*}} : (tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.cumsum %x12 {axis = 0 : i64} : tensor<2xf64>
  return
}

// CHECK-LABEL: sym_name = "sqrt"
func.func @sqrt(%x0: tensor<2xi1>, %x1: tensor<2xui8>, %x2: tensor<2xui16>, %x3: tensor<2xui32>, %x4: tensor<2xui64>, %x5: tensor<2xi8>, %x6: tensor<2xi16>, %x7: tensor<2xi32>, %x8: tensor<2xi64>, %x9: tensor<2xf16>, %x10: tensor<2xbf16>, %x11: tensor<2xf32>, %x12: tensor<2xf64>) {
  // CHECK: "mlx.sqrt"(%{{.*}}){{.*}} : (tensor<2xi1>) -> tensor<2xf32>
  %r0 = mlx.sqrt %x0 : tensor<2xi1>
  // CHECK: "mlx.sqrt"(%{{.*}}){{.*}} : (tensor<2xui8>) -> tensor<2xf32>
  %r1 = mlx.sqrt %x1 : tensor<2xui8>
  // CHECK: "mlx.sqrt"(%{{.*}}){{.*}} : (tensor<2xui16>) -> tensor<2xf32>
  %r2 = mlx.sqrt %x2 : tensor<2xui16>
  // CHECK: "mlx.sqrt"(%{{.*}}){{.*}} : (tensor<2xui32>) -> tensor<2xf32>
  %r3 = mlx.sqrt %x3 : tensor<2xui32>
  // CHECK: "mlx.sqrt"(%{{.*}}){{.*}} : (tensor<2xui64>) -> tensor<2xf32>
  %r4 = mlx.sqrt %x4 : tensor<2xui64>
  // CHECK: "mlx.sqrt"(%{{.*}}){{.*}} : (tensor<2xi8>) -> tensor<2xf32>
  %r5 = mlx.sqrt %x5 : tensor<2xi8>
  // CHECK: "mlx.sqrt"(%{{.*}}){{.*}} : (tensor<2xi16>) -> tensor<2xf32>
  %r6 = mlx.sqrt %x6 : tensor<2xi16>
  // CHECK: "mlx.sqrt"(%{{.*}}){{.*}} : (tensor<2xi32>) -> tensor<2xf32>
  %r7 = mlx.sqrt %x7 : tensor<2xi32>
  // CHECK: "mlx.sqrt"(%{{.*}}){{.*}} : (tensor<2xi64>) -> tensor<2xf32>
  %r8 = mlx.sqrt %x8 : tensor<2xi64>
  // CHECK: "mlx.sqrt"(%{{.*}}){{.*}} : (tensor<2xf16>) -> tensor<2xf16>
  %r9 = mlx.sqrt %x9 : tensor<2xf16>
  // CHECK: "mlx.sqrt"(%{{.*}}){{.*}} : (tensor<2xbf16>) -> tensor<2xbf16>
  %r10 = mlx.sqrt %x10 : tensor<2xbf16>
  // CHECK: "mlx.sqrt"(%{{.*}}){{.*}} : (tensor<2xf32>) -> tensor<2xf32>
  %r11 = mlx.sqrt %x11 : tensor<2xf32>
  // CHECK: "mlx.sqrt"(%{{.*}}){{.*}} : (tensor<2xf64>) -> tensor<2xf64>
  %r12 = mlx.sqrt %x12 : tensor<2xf64>
  return
}

// MLX rejects these dtypes, so they are not tested here:
//   left_shift(i1, _) with _ = f16 bf16 f32 f64
//   left_shift(ui8, _) with _ = f16 bf16 f32 f64
//   left_shift(ui16, _) with _ = f16 bf16 f32 f64
//   left_shift(ui32, _) with _ = f16 bf16 f32 f64
//   left_shift(ui64, _) with _ = i8 i16 i32 i64 f16 bf16 f32 f64
//   left_shift(i8, _) with _ = ui64 f16 bf16 f32 f64
//   left_shift(i16, _) with _ = ui64 f16 bf16 f32 f64
//   left_shift(i32, _) with _ = ui64 f16 bf16 f32 f64
//   left_shift(i64, _) with _ = ui64 f16 bf16 f32 f64
//   left_shift(f16, _) with _ = i1 ui8 ui16 ui32 ui64 i8 i16 i32 i64 f16 bf16 f32 f64
//   left_shift(bf16, _) with _ = i1 ui8 ui16 ui32 ui64 i8 i16 i32 i64 f16 bf16 f32 f64
//   left_shift(f32, _) with _ = i1 ui8 ui16 ui32 ui64 i8 i16 i32 i64 f16 bf16 f32 f64
//   left_shift(f64, _) with _ = i1 ui8 ui16 ui32 ui64 i8 i16 i32 i64 f16 bf16 f32 f64
