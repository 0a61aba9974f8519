// RUN: mlx-opt %s --split-input-file --mlxc-lower-quantized-products --verify-diagnostics | FileCheck %s

// One row of bf16 times a 4-bit [5632, 2048] matrix in groups of 64: 352
// blocks of eight warps (a warp owns two columns, which keeps at least 264
// blocks), each lane reads a pack of 32 values of a column at once (four
// words, one 16-byte load), two packs of each column a step (four loads in
// flight), that column's scale and bias, x eight values at a time; decodes each value with the 2^23 trick (no conversion), sums
// x * q and x, scales and offsets once a pack; a warp butterfly; lane 0
// rounds to bf16 and stores the columns that exist.
// CHECK-LABEL: func.func @decode
// CHECK:         gpu.launch blocks(%[[BID:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %c352, %{{.+}} = %c1{{.*}}, %{{.+}} = %c1{{.*}}) threads(%[[TID:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %c256,
// CHECK:           %[[LANE:.+]] = arith.remui %[[TID]], %c32
// CHECK:           arith.minui %{{.+}}, %c5631
// CHECK:           arith.minui %{{.+}}, %c5631
// CHECK:           scf.for %{{.+}} = %[[LANE]] to %c64{{.*}} step %c64{{.*}} iter_args(%{{.+}} = %cst, %{{.+}} = %cst) -> (f32, f32)
// CHECK:             vector.load %arg1[%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<5632x256xi32>, vector<4xi32>
// CHECK:             memref.load %arg2
// CHECK:             memref.load %arg3
// CHECK:             vector.load %arg1[%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<5632x256xi32>, vector<4xi32>
// CHECK:             vector.load %arg0[%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<1x2048xbf16>, vector<8xbf16>
// CHECK:             arith.ori %{{.+}}, %c1258291200_i32 : i32
// CHECK:             arith.bitcast %{{.+}} : i32 to f32
// CHECK:             math.fma
// CHECK:             scf.yield
// CHECK-COUNT-10:  gpu.shuffle xor
// CHECK:           scf.if
// CHECK:             arith.cmpi ult, %{{.+}}, %c5632
// CHECK:               arith.truncf %{{.+}} : f32 to bf16
// CHECK:               memref.store %{{.+}}, %arg4[%{{.+}}, %{{.+}}] : memref<1x5632xbf16>
// CHECK:           gpu.terminator
// CHECK-NOT:     kernel.quantized_matmul
func.func @decode(%x: memref<1x2048xbf16>, %w: memref<5632x256xi32>, %s: memref<5632x32xbf16>, %b: memref<5632x32xbf16>, %o: memref<1x5632xbf16>) {
  kernel.quantized_matmul %x, %w, %s, %b into %o {group_size = 64 : i64, bits = 4 : i64} : memref<1x2048xbf16>, memref<5632x256xi32>, memref<5632x32xbf16>, memref<5632x32xbf16>, memref<1x5632xbf16>
  return
}

// -----

// Three bits: a pack is three words (a value straddles two, joined by a
// shift left and an or), loaded together at their 4-byte alignment; two
// rows of float32 x over leading axes [2, 1]; a float32 result is stored
// as summed. 100 columns: one a warp, 13 blocks.
// CHECK-LABEL: func.func @three_bits
// CHECK:         gpu.launch blocks({{.+}}) in (%{{.+}} = %c13,
// CHECK:           scf.for {{.+}} -> (f32, f32)
// CHECK:             vector.load %arg1[{{.+}}] {alignment = 4 : i64} : memref<100x24xi32>, vector<3xi32>
// CHECK:             arith.shli %{{.+}}, %c2_i32{{.*}} : i32
// CHECK:             arith.ori
// CHECK:             vector.load %arg0[{{.+}}] {alignment = 16 : i64} : memref<2x1x256xf32>, vector<4xf32>
// CHECK-NOT:       arith.truncf
// CHECK:           memref.store %{{.+}}, %arg4[%c0{{.*}}, %c0{{.*}}, %{{.+}}] : memref<2x1x100xf32>
// CHECK:           memref.store %{{.+}}, %arg4[%c1{{.*}}, %c0{{.*}}, %{{.+}}] : memref<2x1x100xf32>
func.func @three_bits(%x: memref<2x1x256xf32>, %w: memref<100x24xi32>, %s: memref<100x8xf32>, %b: memref<100x8xf32>, %o: memref<2x1x100xf32>) {
  kernel.quantized_matmul %x, %w, %s, %b into %o {group_size = 32 : i64, bits = 3 : i64} : memref<2x1x256xf32>, memref<100x24xi32>, memref<100x8xf32>, memref<100x8xf32>, memref<2x1x100xf32>
  return
}

// -----

func.func @tensors(%x: tensor<1x64xbf16>, %w: tensor<8x8xi32>, %s: tensor<8x2xbf16>, %o: tensor<1x8xbf16>) -> tensor<1x8xbf16> {
  // expected-error@+1 {{must be bufferized before mlxc-lower-quantized-products}}
  %r = kernel.quantized_matmul %x, %w, %s, %s into %o {group_size = 32 : i64, bits = 4 : i64} : tensor<1x64xbf16>, tensor<8x8xi32>, tensor<8x2xbf16>, tensor<8x2xbf16>, tensor<1x8xbf16> -> tensor<1x8xbf16>
  return %r : tensor<1x8xbf16>
}
