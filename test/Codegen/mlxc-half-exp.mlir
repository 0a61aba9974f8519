// RUN: mlx-opt %s --mlxc-half-exp | FileCheck %s

// An f32 exp whose every use rounds it to bf16 or f16 becomes 2^(x log2 e)
// (ex2.approx once lowered); scalars and vectors alike.
// CHECK-LABEL: func.func @rounded
// CHECK:         %[[L:.+]] = arith.constant 1.44269502 : f32
// CHECK:         %[[S:.+]] = arith.mulf %arg0, %[[L]] : f32
// CHECK:         %[[E:.+]] = math.exp2 %[[S]] : f32
// CHECK:         arith.truncf %[[E]] : f32 to bf16
// CHECK:         arith.truncf %[[E]] : f32 to f16
// CHECK-NOT:     math.exp %
func.func @rounded(%x: f32) -> (bf16, f16) {
  %e = math.exp %x : f32
  %b = arith.truncf %e : f32 to bf16
  %h = arith.truncf %e : f32 to f16
  return %b, %h : bf16, f16
}

// CHECK-LABEL: func.func @vector
// CHECK:         arith.constant dense<1.44269502> : vector<8xf32>
// CHECK:         math.exp2 %{{.+}} : vector<8xf32>
func.func @vector(%x: vector<8xf32>) -> vector<8xbf16> {
  %e = math.exp %x : vector<8xf32>
  %b = arith.truncf %e : vector<8xf32> to vector<8xbf16>
  return %b : vector<8xbf16>
}

// An exp with an f32 use (a precise softmax's sum), an f64 exp, and an exp
// rounded to f32 from f64 keep libdevice's exp.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-2: math.exp %
// CHECK-NOT:     math.exp2
func.func @kept(%x: f32, %y: f64) -> (bf16, f32, f32) {
  %e = math.exp %x : f32
  %b = arith.truncf %e : f32 to bf16
  %s = arith.addf %e, %x : f32
  %d = math.exp %y : f64
  %t = arith.truncf %d : f64 to f32
  return %b, %s, %t : bf16, f32, f32
}
