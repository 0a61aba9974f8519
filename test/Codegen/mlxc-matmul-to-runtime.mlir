// RUN: mlx-opt %s --split-input-file --mlxc-matmul-to-runtime --cse | FileCheck %s

// A batched f16 product into an f32 accumulator after a zero fill: one call
// with beta = 0 (flags 0), the fill is gone. Codes: float16 9, float32 11.
// CHECK-LABEL: func.func private @mlxrt_matmul(i32, i32, i32, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-LABEL: func.func @batched_f16(
// CHECK-SAME:    %[[A:[^:]+]]: memref<2x3x8xf16>, %[[B:[^:]+]]: memref<2x8x4xf16>, %[[C:[^:]+]]: memref<2x3x4xf32>
// CHECK-NOT:     linalg.fill
// CHECK-DAG:     %[[PA:.+]] = memref.extract_aligned_pointer_as_index %[[A]] : memref<2x3x8xf16> -> index {mlx.device_access}
// CHECK-DAG:     %[[PB:.+]] = memref.extract_aligned_pointer_as_index %[[B]] : memref<2x8x4xf16> -> index {mlx.device_access}
// CHECK-DAG:     %[[PC:.+]] = memref.extract_aligned_pointer_as_index %[[C]] : memref<2x3x4xf32> -> index {mlx.device_access}
// CHECK-DAG:     %[[A64:.+]] = arith.index_cast %[[PA]] : index to i64
// CHECK-DAG:     %[[B64:.+]] = arith.index_cast %[[PB]] : index to i64
// CHECK-DAG:     %[[C64:.+]] = arith.index_cast %[[PC]] : index to i64
// CHECK-DAG:     %[[F16:.+]] = arith.constant 9 : i32
// CHECK-DAG:     %[[F32:.+]] = arith.constant 11 : i32
// CHECK-DAG:     %[[FLAGS:.+]] = arith.constant 0 : i32
// CHECK-DAG:     %[[BATCH:.+]] = arith.constant 2 : i64
// CHECK-DAG:     %[[M:.+]] = arith.constant 3 : i64
// CHECK-DAG:     %[[N:.+]] = arith.constant 4 : i64
// CHECK-DAG:     %[[K:.+]] = arith.constant 8 : i64
// CHECK-DAG:     %[[SA:.+]] = arith.constant 24 : i64
// CHECK-DAG:     %[[SB:.+]] = arith.constant 32 : i64
// CHECK-DAG:     %[[SC:.+]] = arith.constant 12 : i64
// CHECK:         call @mlxrt_matmul(%[[F16]], %[[F32]], %[[FLAGS]], %[[BATCH]], %[[M]], %[[N]], %[[K]], %[[A64]], %[[K]], %[[SA]], %[[B64]], %[[N]], %[[SB]], %[[C64]], %[[N]], %[[SC]])
// CHECK-NOT:     linalg.batch_matmul
// CHECK:         return
func.func @batched_f16(%a: memref<2x3x8xf16>, %b: memref<2x8x4xf16>, %c: memref<2x3x4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<2x3x4xf32>)
  linalg.batch_matmul ins(%a, %b : memref<2x3x8xf16>, memref<2x8x4xf16>) outs(%c : memref<2x3x4xf32>)
  return
}

// -----

// No zero fill before it: the product accumulates (flags 4) into what the
// output holds. bfloat16 is code 10; linalg.matmul is a batch of one.
// CHECK-LABEL: func.func @accumulate_bf16(
// CHECK:         linalg.fill
// CHECK-DAG:     %[[BF16:.+]] = arith.constant 10 : i32
// CHECK-DAG:     %[[F32:.+]] = arith.constant 11 : i32
// CHECK-DAG:     %[[ACC:.+]] = arith.constant 4 : i32
// CHECK-DAG:     %[[ONE:.+]] = arith.constant 1 : i64
// CHECK:         call @mlxrt_matmul(%[[BF16]], %[[F32]], %[[ACC]], %[[ONE]],
// CHECK-NOT:     linalg.matmul
func.func @accumulate_bf16(%a: memref<3x8xbf16>, %b: memref<8x4xbf16>, %c: memref<3x4xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%c : memref<3x4xf32>)
  linalg.matmul ins(%a, %b : memref<3x8xbf16>, memref<8x4xbf16>) outs(%c : memref<3x4xf32>)
  return
}

// -----

// A strided view: the leading dimension is the row stride (16), the address
// starts at the static offset (2 rows + 4 columns = 36 f32 = 144 bytes). A
// transposed view (unit stride along rows) sets TRANSPOSE_B (2) with ld 8.
// CHECK-LABEL: func.func @views(
// CHECK-DAG:     %[[PA:.+]] = memref.extract_aligned_pointer_as_index %{{.+}} : memref<3x8xf32, strided<[16, 1], offset: 36>> -> index {mlx.device_access}
// CHECK-DAG:     %[[A64:.+]] = arith.index_cast %[[PA]] : index to i64
// CHECK-DAG:     %[[OFF:.+]] = arith.constant 144 : i64
// CHECK-DAG:     %[[AOFF:.+]] = arith.addi %[[A64]], %[[OFF]] : i64
// CHECK-DAG:     %[[TB:.+]] = arith.constant 2 : i32
// CHECK-DAG:     %[[LDA:.+]] = arith.constant 16 : i64
// CHECK-DAG:     %[[LDB:.+]] = arith.constant 8 : i64
// CHECK:         call @mlxrt_matmul(%{{.+}}, %{{.+}}, %[[TB]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[AOFF]], %[[LDA]], %{{.+}}, %{{.+}}, %[[LDB]],
func.func @views(%big: memref<8x16xf32>, %bt: memref<4x8xf32>, %c: memref<3x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %a = memref.subview %big[2, 4] [3, 8] [1, 1] : memref<8x16xf32> to memref<3x8xf32, strided<[16, 1], offset: 36>>
  %b = memref.transpose %bt (i, j) -> (j, i) : memref<4x8xf32> to memref<8x4xf32, strided<[1, 8]>>
  linalg.fill ins(%zero : f32) outs(%c : memref<3x4xf32>)
  linalg.matmul ins(%a, %b : memref<3x8xf32, strided<[16, 1], offset: 36>>, memref<8x4xf32, strided<[1, 8]>>) outs(%c : memref<3x4xf32>)
  return
}

// -----

// What cuBLASLt cannot take stays a loop nest for the kernels: integers,
// f64, dynamic offsets, no unit stride, tensors.
// CHECK-LABEL: func.func @fallbacks(
// CHECK-NOT:     call @mlxrt_matmul
// CHECK:         linalg.matmul {{.*}}memref<3x8xi32>
// CHECK:         linalg.matmul {{.*}}memref<3x8xf64>
// CHECK:         linalg.matmul {{.*}}offset: ?
// CHECK:         linalg.matmul {{.*}}strided<[16, 2]>
// CHECK:         linalg.matmul {{.*}}tensor<3x8xf32>
// CHECK-NOT:     call @mlxrt_matmul
func.func @fallbacks(%ai: memref<3x8xi32>, %bi: memref<8x4xi32>, %ci: memref<3x4xi32>,
                     %ad: memref<3x8xf64>, %bd: memref<8x4xf64>, %cd: memref<3x4xf64>,
                     %big: memref<8x16xf32>, %o: index, %b: memref<8x4xf32>, %c: memref<3x4xf32>,
                     %at: tensor<3x8xf32>, %bt: tensor<8x4xf32>, %ct: tensor<3x4xf32>) -> tensor<3x4xf32> {
  linalg.matmul ins(%ai, %bi : memref<3x8xi32>, memref<8x4xi32>) outs(%ci : memref<3x4xi32>)
  linalg.matmul ins(%ad, %bd : memref<3x8xf64>, memref<8x4xf64>) outs(%cd : memref<3x4xf64>)
  %dyn = memref.subview %big[%o, 0] [3, 8] [1, 1] : memref<8x16xf32> to memref<3x8xf32, strided<[16, 1], offset: ?>>
  linalg.matmul ins(%dyn, %b : memref<3x8xf32, strided<[16, 1], offset: ?>>, memref<8x4xf32>) outs(%c : memref<3x4xf32>)
  %gap = memref.subview %big[0, 0] [3, 8] [1, 2] : memref<8x16xf32> to memref<3x8xf32, strided<[16, 2]>>
  linalg.matmul ins(%gap, %b : memref<3x8xf32, strided<[16, 2]>>, memref<8x4xf32>) outs(%c : memref<3x4xf32>)
  %r = linalg.matmul ins(%at, %bt : tensor<3x8xf32>, tensor<8x4xf32>) outs(%ct : tensor<3x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

// B is a transposed copy of an argument that nothing else uses: the product
// reads the argument through a transposed view (TRANSPOSE_B, ld 8) and the
// copy goes. The zero fill is still dropped although the view comes between.
// CHECK-LABEL: func.func @transposed_copy(
// CHECK-SAME:    %[[A:[^:]+]]: memref<3x8xf32>, %[[W:[^:]+]]: memref<4x1x8xf32>
// CHECK-NOT:     linalg.transpose
// CHECK-NOT:     linalg.fill
// CHECK:         %[[T:.+]] = memref.transpose %[[W]] (d0, d1, d2) -> (d1, d2, d0) : memref<4x1x8xf32> to memref<1x8x4xf32, strided<[8, 1, 8]>>
// CHECK-DAG:     memref.extract_aligned_pointer_as_index %[[T]] : {{.*}} {mlx.device_access}
// CHECK-DAG:     %[[TB:.+]] = arith.constant 2 : i32
// CHECK-DAG:     %[[LD:.+]] = arith.constant 8 : i64
// CHECK:         call @mlxrt_matmul(%{{.+}}, %{{.+}}, %[[TB]], {{.*}}, %[[LD]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}})
// CHECK-NOT:     linalg.transpose
func.func @transposed_copy(%a: memref<3x8xf32>, %w: memref<4x1x8xf32>, %c: memref<1x3x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %alloc = memref.alloc() : memref<8x4xf32>
  %bt = memref.expand_shape %alloc [[0, 1], [2]] output_shape [1, 8, 4] : memref<8x4xf32> into memref<1x8x4xf32>
  linalg.transpose ins(%w : memref<4x1x8xf32>) outs(%bt : memref<1x8x4xf32>) permutation = [1, 2, 0]
  %a3 = memref.expand_shape %a [[0, 1], [2]] output_shape [1, 3, 8] : memref<3x8xf32> into memref<1x3x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x3x4xf32>)
  linalg.batch_matmul ins(%a3, %bt : memref<1x3x8xf32>, memref<1x8x4xf32>) outs(%c : memref<1x3x4xf32>)
  memref.dealloc %alloc : memref<8x4xf32>
  return
}

// -----

// The transposed copy is also read elsewhere: it stays, and the product
// reads the copy.
// CHECK-LABEL: func.func @shared_copy(
// CHECK:         linalg.transpose
// CHECK:         %[[NT:.+]] = arith.constant 0 : i32
// CHECK:         call @mlxrt_matmul(%{{.+}}, %{{.+}}, %[[NT]],
// CHECK:         memref.copy
func.func @shared_copy(%a: memref<1x3x8xf32>, %w: memref<4x1x8xf32>, %c: memref<1x3x4xf32>, %other: memref<1x8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %bt = memref.alloc() : memref<1x8x4xf32>
  linalg.transpose ins(%w : memref<4x1x8xf32>) outs(%bt : memref<1x8x4xf32>) permutation = [1, 2, 0]
  linalg.fill ins(%zero : f32) outs(%c : memref<1x3x4xf32>)
  linalg.batch_matmul ins(%a, %bt : memref<1x3x8xf32>, memref<1x8x4xf32>) outs(%c : memref<1x3x4xf32>)
  memref.copy %bt, %other : memref<1x8x4xf32> to memref<1x8x4xf32>
  return
}

// -----

// A float16 product whose float32 accumulator is only rounded into a
// float16 buffer: cuBLASLt writes float16 (code 9) into that buffer, whose
// allocation moves before the call, and the rounding kernel goes.
// CHECK-LABEL: func.func @rounded_f16(
// CHECK:         %[[OUT:.+]] = memref.alloc() : memref<1x3x4xf16>
// CHECK-DAG:     memref.extract_aligned_pointer_as_index %[[OUT]] : memref<1x3x4xf16> -> index {mlx.device_access}
// CHECK-DAG:     %[[F16:.+]] = arith.constant 9 : i32
// CHECK-DAG:     %[[NOFLAGS:.+]] = arith.constant 0 : i32
// CHECK:         call @mlxrt_matmul(%[[F16]], %[[F16]], %[[NOFLAGS]],
// CHECK-NOT:     linalg.generic
// CHECK:         memref.copy %[[OUT]], %{{.+}}
func.func @rounded_f16(%a: memref<1x3x8xf16>, %b: memref<1x8x4xf16>, %r: memref<1x3x4xf16>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<1x3x4xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<1x3x4xf32>)
  linalg.batch_matmul ins(%a, %b : memref<1x3x8xf16>, memref<1x8x4xf16>) outs(%acc : memref<1x3x4xf32>)
  %out = memref.alloc() : memref<1x3x4xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%acc : memref<1x3x4xf32>) outs(%out : memref<1x3x4xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  memref.copy %out, %r : memref<1x3x4xf16> to memref<1x3x4xf16>
  memref.dealloc %acc : memref<1x3x4xf32>
  return
}

// -----

// The rounding also adds a bias: it stays a kernel reading the float32
// result.
// CHECK-LABEL: func.func @rounded_with_bias(
// CHECK-DAG:     %[[F16:.+]] = arith.constant 9 : i32
// CHECK-DAG:     %[[F32:.+]] = arith.constant 11 : i32
// CHECK:         call @mlxrt_matmul(%[[F16]], %[[F32]],
// CHECK:         linalg.generic
func.func @rounded_with_bias(%a: memref<1x3x8xf16>, %b: memref<1x8x4xf16>, %out: memref<1x3x4xf16>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<1x3x4xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<1x3x4xf32>)
  linalg.batch_matmul ins(%a, %b : memref<1x3x8xf16>, memref<1x8x4xf16>) outs(%acc : memref<1x3x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%acc : memref<1x3x4xf32>) outs(%out : memref<1x3x4xf16>) {
  ^bb0(%in: f32, %o: f16):
    %one = arith.constant 1.0 : f32
    %s = arith.addf %in, %one : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %acc : memref<1x3x4xf32>
  return
}

// -----

// The product's buffer is only copied into an output argument at the end:
// the product writes the argument (reshaped to the buffer's shape) directly.
// CHECK-LABEL: func.func @into_output(
// CHECK-SAME:    %[[OUT:[^:]+]]: memref<2x3x4xf32> {bufferize.result})
// CHECK:         %[[FLAT:.+]] = memref.collapse_shape %[[OUT]] {{\[\[}}0, 1, 2]] : memref<2x3x4xf32> into memref<24xf32>
// CHECK:         %[[VIEW:.+]] = memref.expand_shape %[[FLAT]] {{\[\[}}0, 1, 2]] output_shape [1, 6, 4] : memref<24xf32> into memref<1x6x4xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         memref.extract_aligned_pointer_as_index %[[VIEW]]
// CHECK:         call @mlxrt_matmul(
// CHECK-NOT:     memref.copy
// CHECK-NOT:     memref.dealloc
// CHECK:         return
func.func @into_output(%a: memref<1x6x8xf32>, %b: memref<1x8x4xf32>, %out: memref<2x3x4xf32> {bufferize.result}) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<1x6x4xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<1x6x4xf32>)
  linalg.batch_matmul ins(%a, %b : memref<1x6x8xf32>, memref<1x8x4xf32>) outs(%acc : memref<1x6x4xf32>)
  %flat = memref.collapse_shape %acc [[0, 1, 2]] : memref<1x6x4xf32> into memref<24xf32>
  %shaped = memref.expand_shape %flat [[0, 1, 2]] output_shape [2, 3, 4] : memref<24xf32> into memref<2x3x4xf32>
  memref.copy %shaped, %out : memref<2x3x4xf32> to memref<2x3x4xf32>
  memref.dealloc %acc : memref<1x6x4xf32>
  return
}

// -----

// The buffer is also read after the copy: it stays.
// CHECK-LABEL: func.func @read_after_copy(
// CHECK:         %[[ACC:.+]] = memref.alloc() : memref<1x6x4xf32>
// CHECK:         memref.copy %[[ACC]], %{{.+}}
// CHECK:         linalg.copy ins(%[[ACC]]
func.func @read_after_copy(%a: memref<1x6x8xf32>, %b: memref<1x8x4xf32>, %out: memref<1x6x4xf32> {bufferize.result}, %out2: memref<1x6x4xf32> {bufferize.result}) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<1x6x4xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<1x6x4xf32>)
  linalg.batch_matmul ins(%a, %b : memref<1x6x8xf32>, memref<1x8x4xf32>) outs(%acc : memref<1x6x4xf32>)
  memref.copy %acc, %out : memref<1x6x4xf32> to memref<1x6x4xf32>
  linalg.copy ins(%acc : memref<1x6x4xf32>) outs(%out2 : memref<1x6x4xf32>)
  memref.dealloc %acc : memref<1x6x4xf32>
  return
}

// -----

// A is one matrix broadcast over the batch by a copy: the product reads it
// with batch stride 0 and the copy goes.
// CHECK-LABEL: func.func @broadcast_a(
// CHECK-SAME:    %[[A:[^:]+]]: memref<4x16xf32>
// CHECK-NOT:     linalg.generic
// CHECK-DAG:     memref.extract_aligned_pointer_as_index %[[A]] : memref<4x16xf32> -> index {mlx.device_access}
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK-DAG:     %[[LDA:.+]] = arith.constant 16 : i64
// CHECK:         call @mlxrt_matmul(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[LDA]], %[[ZERO]],
// CHECK-NOT:     linalg.generic
func.func @broadcast_a(%a: memref<4x16xf32>, %b: memref<3x16x5xf32>, %c: memref<3x4x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %alloc = memref.alloc() : memref<3x4x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : memref<4x16xf32>) outs(%alloc : memref<3x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.fill ins(%zero : f32) outs(%c : memref<3x4x5xf32>)
  linalg.batch_matmul ins(%alloc, %b : memref<3x4x16xf32>, memref<3x16x5xf32>) outs(%c : memref<3x4x5xf32>)
  memref.dealloc %alloc : memref<3x4x16xf32>
  return
}

// -----

// A copy that also converts (float16 to float32) is no broadcast: it stays.
// CHECK-LABEL: func.func @converting_copy(
// CHECK:         linalg.generic
// CHECK:         call @mlxrt_matmul(
func.func @converting_copy(%a: memref<4x16xf16>, %b: memref<3x16x5xf32>, %c: memref<3x4x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %alloc = memref.alloc() : memref<3x4x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : memref<4x16xf16>) outs(%alloc : memref<3x4x16xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%c : memref<3x4x5xf32>)
  linalg.batch_matmul ins(%alloc, %b : memref<3x4x16xf32>, memref<3x16x5xf32>) outs(%c : memref<3x4x5xf32>)
  memref.dealloc %alloc : memref<3x4x16xf32>
  return
}

// -----

// The transpose writes a 4-D buffer whose batch axes the product's operand
// collapses: the product reads k through the transposed, collapsed view.
// CHECK-LABEL: func.func @transposed_4d(
// CHECK-SAME:    %{{[^:]+}}: memref<8x3x4xf32>, %[[K:[^:]+]]: memref<2x4x5x4xf32>
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[T:.+]] = memref.transpose %[[K]] (d0, d1, d2, d3) -> (d0, d1, d3, d2)
// CHECK:         %[[C:.+]] = memref.collapse_shape %[[T]] {{\[\[}}0, 1], [2], [3]]
// CHECK:         memref.extract_aligned_pointer_as_index %[[C]]
// CHECK:         call @mlxrt_matmul(%{{.+}}, %{{.+}}, %c2_i32,
func.func @transposed_4d(%q: memref<8x3x4xf32>, %k: memref<2x4x5x4xf32>, %c: memref<8x3x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %alloc = memref.alloc() : memref<2x4x4x5xf32>
  linalg.transpose ins(%k : memref<2x4x5x4xf32>) outs(%alloc : memref<2x4x4x5xf32>) permutation = [0, 1, 3, 2]
  %kt = memref.collapse_shape %alloc [[0, 1], [2], [3]] : memref<2x4x4x5xf32> into memref<8x4x5xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<8x3x5xf32>)
  linalg.batch_matmul ins(%q, %kt : memref<8x3x4xf32>, memref<8x4x5xf32>) outs(%c : memref<8x3x5xf32>)
  memref.dealloc %alloc : memref<2x4x4x5xf32>
  return
}

// -----

// Probabilities over 37 keys (rows of 74 bytes) computed into a local
// buffer: its rows are padded to 40 elements so that the library sees an
// aligned leading dimension (40) and batch stride (160); the kernel writing
// it and the reshape the product reads are rebuilt on the padded view, and
// the dealloc frees the padded buffer.
// CHECK-LABEL: func.func @padded_rows(
// CHECK:         %[[BUF:.+]] = memref.alloc() {alignment = 64 : i64} : memref<1x2x4x40xbf16>
// CHECK:         %[[VIEW:.+]] = memref.subview %[[BUF]][0, 0, 0, 0] [1, 2, 4, 37] [1, 1, 1, 1] : memref<1x2x4x40xbf16> to memref<1x2x4x37xbf16, strided<[320, 160, 40, 1]>>
// CHECK:         linalg.generic {{.*}} outs(%[[VIEW]] : memref<1x2x4x37xbf16, strided<[320, 160, 40, 1]>>)
// CHECK:         %[[P:.+]] = memref.collapse_shape %[[VIEW]] {{\[}}[0, 1], [2], [3]] : memref<1x2x4x37xbf16, strided<[320, 160, 40, 1]>> into memref<2x4x37xbf16, strided<[160, 40, 1]>>
// CHECK:         memref.extract_aligned_pointer_as_index %[[P]]
// CHECK-DAG:     %[[LD:.+]] = arith.constant 40 : i64
// CHECK-DAG:     %[[STRIDE:.+]] = arith.constant 160 : i64
// CHECK:         call @mlxrt_matmul({{.*}}, %[[LD]], %[[STRIDE]], {{.*}})
// CHECK:         memref.dealloc %[[BUF]] : memref<1x2x4x40xbf16>
func.func @padded_rows(%s: memref<1x2x4x37xf32>, %v: memref<2x37x16xbf16>, %c: memref<2x4x16xf32>) {
  %buf = memref.alloc() {alignment = 64 : i64} : memref<1x2x4x37xbf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : memref<1x2x4x37xf32>) outs(%buf : memref<1x2x4x37xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  }
  %p = memref.collapse_shape %buf [[0, 1], [2], [3]] : memref<1x2x4x37xbf16> into memref<2x4x37xbf16>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<2x4x16xf32>)
  linalg.batch_matmul ins(%p, %v : memref<2x4x37xbf16>, memref<2x37x16xbf16>) outs(%c : memref<2x4x16xf32>)
  memref.dealloc %buf : memref<1x2x4x37xbf16>
  return
}

// -----

// The same buffer also read by host code (its address taken): not padded,
// the call takes the unaligned rows.
// CHECK-LABEL: func.func @unpadded_rows(
// CHECK-NOT:     memref.subview
// CHECK:         call @mlxrt_matmul
func.func @unpadded_rows(%s: memref<1x2x4x37xf32>, %v: memref<2x37x16xbf16>, %c: memref<2x4x16xf32>) -> bf16 {
  %buf = memref.alloc() {alignment = 64 : i64} : memref<1x2x4x37xbf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : memref<1x2x4x37xf32>) outs(%buf : memref<1x2x4x37xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  }
  %p = memref.collapse_shape %buf [[0, 1], [2], [3]] : memref<1x2x4x37xbf16> into memref<2x4x37xbf16>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<2x4x16xf32>)
  linalg.batch_matmul ins(%p, %v : memref<2x4x37xbf16>, memref<2x37x16xbf16>) outs(%c : memref<2x4x16xf32>)
  %i = arith.constant 0 : index
  %x = memref.load %buf[%i, %i, %i, %i] : memref<1x2x4x37xbf16>
  memref.dealloc %buf : memref<1x2x4x37xbf16>
  return %x : bf16
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A residual connection after a bf16 product: the sum of a residual that
// dies there (and that the product does not read) and the rounded product
// goes to an output. The residual's
// allocation becomes the output, and cuBLASLt adds the product to it
// (flags 4, bf16 result): neither the sum nor the float32 accumulator is
// left. (bfloat16 is code 10.)
// CHECK-LABEL: func.func @residual_add(
// CHECK-SAME:    %[[X:[^:]+]]: memref<8x16xbf16>, %[[W:[^:]+]]: memref<16x16xbf16>, %[[OUT:[^:]+]]: memref<8x16xbf16>
// CHECK-NOT:     memref.alloc() {{.*}} : memref<8x16xbf16>
// CHECK:         linalg.generic {{.*}} outs(%[[OUT]] : memref<8x16xbf16>)
// CHECK-DAG:     %[[BF16:.+]] = arith.constant 10 : i32
// CHECK-DAG:     %[[ACC:.+]] = arith.constant 4 : i32
// CHECK:         call @mlxrt_matmul(%[[BF16]], %[[BF16]], %[[ACC]],
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @residual_add(%x: memref<8x16xbf16>, %w: memref<16x16xbf16>, %out: memref<8x16xbf16>) {
  %zero = arith.constant 0.0 : f32
  %h = memref.alloc() : memref<8x16xbf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x16xbf16>) outs(%h : memref<8x16xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %n = arith.negf %a : bf16
    linalg.yield %n : bf16
  }
  %acc = memref.alloc() : memref<8x16xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<8x16xf32>)
  linalg.matmul ins(%x, %w : memref<8x16xbf16>, memref<16x16xbf16>) outs(%acc : memref<8x16xf32>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %acc : memref<8x16xbf16>, memref<8x16xf32>) outs(%out : memref<8x16xbf16>) {
  ^bb0(%r: bf16, %p: f32, %o: bf16):
    %t = arith.truncf %p : f32 to bf16
    %re = arith.extf %r : bf16 to f32
    %te = arith.extf %t : bf16 to f32
    %s = arith.addf %re, %te : f32
    %y = arith.truncf %s : f32 to bf16
    linalg.yield %y : bf16
  }
  memref.dealloc %acc : memref<8x16xf32>
  memref.dealloc %h : memref<8x16xbf16>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// The residual is read after the sum: its buffer cannot become the output,
// and the sum stays a kernel.
// CHECK-LABEL: func.func @residual_read_after(
// CHECK:         call @mlxrt_matmul
// CHECK:         linalg.generic
// CHECK:         memref.copy
func.func @residual_read_after(%x: memref<8x16xbf16>, %w: memref<16x16xbf16>, %out: memref<8x16xbf16>, %keep: memref<8x16xbf16>) {
  %zero = arith.constant 0.0 : f32
  %h = memref.alloc() : memref<8x16xbf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x16xbf16>) outs(%h : memref<8x16xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %n = arith.negf %a : bf16
    linalg.yield %n : bf16
  }
  %acc = memref.alloc() : memref<8x16xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<8x16xf32>)
  linalg.matmul ins(%x, %w : memref<8x16xbf16>, memref<16x16xbf16>) outs(%acc : memref<8x16xf32>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %acc : memref<8x16xbf16>, memref<8x16xf32>) outs(%out : memref<8x16xbf16>) {
  ^bb0(%r: bf16, %p: f32, %o: bf16):
    %t = arith.truncf %p : f32 to bf16
    %re = arith.extf %r : bf16 to f32
    %te = arith.extf %t : bf16 to f32
    %s = arith.addf %re, %te : f32
    %y = arith.truncf %s : f32 to bf16
    linalg.yield %y : bf16
  }
  memref.copy %h, %keep : memref<8x16xbf16> to memref<8x16xbf16>
  return
}

// -----

// Two bfloat16 products whose float32 results are only read rounded (SwiGLU:
// silu(gate) * up, each rounded first, one through a reshape): each product
// writes bfloat16 (code 10) into a new buffer, and the kernel reads those
// without its arith.truncf.
// CHECK-LABEL: func.func @rounded_readers(
// CHECK:         %[[GATE:.+]] = memref.alloc() : memref<1x3x8xbf16>
// CHECK:         %[[BF16:.+]] = arith.constant 10 : i32
// CHECK:         call @mlxrt_matmul(%[[BF16]], %[[BF16]],
// CHECK:         %[[UP:.+]] = memref.alloc() : memref<1x3x8xbf16>
// CHECK:         call @mlxrt_matmul(%[[BF16]], %[[BF16]],
// CHECK:         %[[UPVIEW:.+]] = memref.collapse_shape %[[UP]] {{\[\[}}0, 1], [2]] : memref<1x3x8xbf16> into memref<3x8xbf16>
// CHECK:         linalg.generic {{.*}} ins(%{{.+}}, %[[UPVIEW]] : memref<3x8xbf16>, memref<3x8xbf16>)
// CHECK-NEXT:    ^bb0(%[[G:.+]]: bf16, %[[U:.+]]: bf16, %{{.+}}: bf16):
// CHECK-NOT:       arith.truncf %[[G]]
// CHECK:           arith.extf %[[G]] : bf16 to f32
// CHECK:           arith.extf %[[U]] : bf16 to f32
// CHECK-DAG:     memref.dealloc %[[GATE]]
// CHECK-DAG:     memref.dealloc %[[UP]]
func.func @rounded_readers(%x: memref<1x3x8xbf16>, %wg: memref<1x8x8xbf16>, %wu: memref<1x8x8xbf16>, %out: memref<3x8xbf16>) {
  %zero = arith.constant 0.0 : f32
  %g = memref.alloc() : memref<1x3x8xf32>
  linalg.fill ins(%zero : f32) outs(%g : memref<1x3x8xf32>)
  linalg.batch_matmul ins(%x, %wg : memref<1x3x8xbf16>, memref<1x8x8xbf16>) outs(%g : memref<1x3x8xf32>)
  %u = memref.alloc() : memref<1x3x8xf32>
  linalg.fill ins(%zero : f32) outs(%u : memref<1x3x8xf32>)
  linalg.batch_matmul ins(%x, %wu : memref<1x3x8xbf16>, memref<1x8x8xbf16>) outs(%u : memref<1x3x8xf32>)
  %gv = memref.collapse_shape %g [[0, 1], [2]] : memref<1x3x8xf32> into memref<3x8xf32>
  %uv = memref.collapse_shape %u [[0, 1], [2]] : memref<1x3x8xf32> into memref<3x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%gv, %uv : memref<3x8xf32>, memref<3x8xf32>) outs(%out : memref<3x8xbf16>) {
  ^bb0(%a: f32, %b: f32, %o: bf16):
    %ta = arith.truncf %a : f32 to bf16
    %tb = arith.truncf %b : f32 to bf16
    %ea = arith.extf %ta : bf16 to f32
    %eb = arith.extf %tb : bf16 to f32
    %neg = arith.negf %ea : f32
    %ex = math.exp %neg : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %ex, %one : f32
    %silu = arith.divf %ea, %den : f32
    %p = arith.mulf %silu, %eb : f32
    %r = arith.truncf %p : f32 to bf16
    linalg.yield %r : bf16
  }
  memref.dealloc %g : memref<1x3x8xf32>
  memref.dealloc %u : memref<1x3x8xf32>
  return
}

// -----

// One reader uses the float32 value itself (not rounded): the product keeps
// writing float32.
// CHECK-LABEL: func.func @unrounded_reader(
// CHECK-DAG:     %[[F32:.+]] = arith.constant 11 : i32
// CHECK:         call @mlxrt_matmul(%{{.+}}, %[[F32]],
// CHECK:         arith.truncf
func.func @unrounded_reader(%x: memref<1x3x8xbf16>, %wg: memref<1x8x4xbf16>, %out: memref<1x3x4xbf16>, %out2: memref<1x3x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %g = memref.alloc() : memref<1x3x4xf32>
  linalg.fill ins(%zero : f32) outs(%g : memref<1x3x4xf32>)
  linalg.batch_matmul ins(%x, %wg : memref<1x3x8xbf16>, memref<1x8x4xbf16>) outs(%g : memref<1x3x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g : memref<1x3x4xf32>) outs(%out, %out2 : memref<1x3x4xbf16>, memref<1x3x4xf32>) {
  ^bb0(%a: f32, %o: bf16, %o2: f32):
    %t = arith.truncf %a : f32 to bf16
    %s = arith.mulf %a, %a : f32
    linalg.yield %t, %s : bf16, f32
  }
  memref.dealloc %g : memref<1x3x4xf32>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A residual after a product of one row over a 64 MiB weight (a decode
// step's down projection): cuBLASLt keeps beta = 0 (flags 0), and the sum
// stays a kernel, which reads the product rounded by cuBLASLt.
// CHECK-LABEL: func.func @residual_one_row_large_weight(
// CHECK-DAG:     %[[BF16:.+]] = arith.constant 10 : i32
// CHECK-DAG:     %[[NOFLAGS:.+]] = arith.constant 0 : i32
// CHECK:         call @mlxrt_matmul(%[[BF16]], %[[BF16]], %[[NOFLAGS]],
// CHECK:         linalg.generic
func.func @residual_one_row_large_weight(%x: memref<1x16384xbf16>, %w: memref<16384x2048xbf16>, %h: memref<1x2048xbf16>, %out: memref<1x2048xbf16>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<1x2048xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<1x2048xf32>)
  linalg.matmul ins(%x, %w : memref<1x16384xbf16>, memref<16384x2048xbf16>) outs(%acc : memref<1x2048xf32>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %acc : memref<1x2048xbf16>, memref<1x2048xf32>) outs(%out : memref<1x2048xbf16>) {
  ^bb0(%r: bf16, %p: f32, %o: bf16):
    %t = arith.truncf %p : f32 to bf16
    %re = arith.extf %r : bf16 to f32
    %te = arith.extf %t : bf16 to f32
    %s = arith.addf %re, %te : f32
    %y = arith.truncf %s : f32 to bf16
    linalg.yield %y : bf16
  }
  memref.dealloc %acc : memref<1x2048xf32>
  return
}
