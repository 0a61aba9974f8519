// RUN: mlx-opt %s --split-input-file --mlxc-matmul-to-runtime="group-shared-operands" --cse | FileCheck %s

// q, k and v's projections of one input, each into a buffer of its own, with
// q's reader (RoPE) between them: one call at q's product over host arrays
// of the three products' addresses (flags 8: pointer arrays, batch 3, no
// batch strides); k's and v's allocations move up, the reader stays after.
// CHECK-LABEL: func.func @qkv(
// CHECK-SAME:    %[[X:[^:]+]]: memref<4x8xbf16>, %[[WQ:[^:]+]]: memref<8x16xbf16>, %[[WK:[^:]+]]: memref<8x16xbf16>, %[[WV:[^:]+]]: memref<8x16xbf16>
// CHECK-DAG:     %[[Q:.+]] = memref.alloc() : memref<4x16xbf16>
// CHECK-DAG:     %[[K:.+]] = memref.alloc() : memref<4x16xbf16>
// CHECK-DAG:     %[[V:.+]] = memref.alloc() : memref<4x16xbf16>
// CHECK:         %[[AS:.+]] = memref.alloca() : memref<3xi64>
// CHECK:         memref.extract_aligned_pointer_as_index %[[X]] : memref<4x8xbf16> -> index {mlx.device_access}
// CHECK:         %[[BS:.+]] = memref.alloca() : memref<3xi64>
// CHECK:         memref.extract_aligned_pointer_as_index %[[WQ]] : {{.*}} {mlx.device_access}
// CHECK:         memref.extract_aligned_pointer_as_index %[[WK]] : {{.*}} {mlx.device_access}
// CHECK:         memref.extract_aligned_pointer_as_index %[[WV]] : {{.*}} {mlx.device_access}
// CHECK:         %[[CS:.+]] = memref.alloca() : memref<3xi64>
// CHECK:         memref.extract_aligned_pointer_as_index %[[Q]] : {{.*}} {mlx.device_access}
// CHECK:         memref.extract_aligned_pointer_as_index %[[K]] : {{.*}} {mlx.device_access}
// CHECK:         memref.extract_aligned_pointer_as_index %[[V]] : {{.*}} {mlx.device_access}
// CHECK-DAG:     %[[FLAGS:.+]] = arith.constant 8 : i32
// CHECK-DAG:     %[[THREE:.+]] = arith.constant 3 : i64
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK:         call @mlxrt_matmul(%{{.*}}, %{{.*}}, %[[FLAGS]], %[[THREE]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ZERO]], %{{.*}}, %{{.*}}, %[[ZERO]], %{{.*}}, %{{.*}}, %[[ZERO]])
// CHECK-NOT:     call @mlxrt_matmul
// CHECK:         linalg.generic {{.*}} ins(%[[Q]] : memref<4x16xbf16>)
// CHECK-NOT:     call @mlxrt_matmul
// CHECK:         return
func.func @qkv(%x: memref<4x8xbf16>, %wq: memref<8x16xbf16>, %wk: memref<8x16xbf16>, %wv: memref<8x16xbf16>, %rope: memref<4x16xbf16>) -> (memref<4x16xbf16>, memref<4x16xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %q = memref.alloc() : memref<4x16xbf16>
  linalg.fill ins(%zero : bf16) outs(%q : memref<4x16xbf16>)
  linalg.matmul ins(%x, %wq : memref<4x8xbf16>, memref<8x16xbf16>) outs(%q : memref<4x16xbf16>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%q : memref<4x16xbf16>) outs(%rope : memref<4x16xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %d = arith.addf %in, %in : bf16
    linalg.yield %d : bf16
  }
  %k = memref.alloc() : memref<4x16xbf16>
  linalg.fill ins(%zero : bf16) outs(%k : memref<4x16xbf16>)
  linalg.matmul ins(%x, %wk : memref<4x8xbf16>, memref<8x16xbf16>) outs(%k : memref<4x16xbf16>)
  %v = memref.alloc() : memref<4x16xbf16>
  linalg.fill ins(%zero : bf16) outs(%v : memref<4x16xbf16>)
  linalg.matmul ins(%x, %wv : memref<4x8xbf16>, memref<8x16xbf16>) outs(%v : memref<4x16xbf16>)
  return %k, %v : memref<4x16xbf16>, memref<4x16xbf16>
}

// -----

// Something between writes the second product's weight: it keeps its own
// call after the write. A product of another input never joins.
// CHECK-LABEL: func.func @written_between(
// CHECK:         call @mlxrt_matmul({{.*}}) : (i32, i32, i32, i64
// CHECK:         linalg.fill
// CHECK:         call @mlxrt_matmul(
// CHECK:         call @mlxrt_matmul(
// CHECK-NOT:     call @mlxrt_matmul
// CHECK-NOT:     memref.alloca
// CHECK:         return
func.func @written_between(%x: memref<4x8xbf16>, %y: memref<4x8xbf16>, %w1: memref<8x16xbf16>, %w2: memref<8x16xbf16>, %w3: memref<8x16xbf16>) -> (memref<4x16xbf16>, memref<4x16xbf16>, memref<4x16xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %c1 = memref.alloc() : memref<4x16xbf16>
  linalg.fill ins(%zero : bf16) outs(%c1 : memref<4x16xbf16>)
  linalg.matmul ins(%x, %w1 : memref<4x8xbf16>, memref<8x16xbf16>) outs(%c1 : memref<4x16xbf16>)
  %one = arith.constant 1.0 : bf16
  linalg.fill ins(%one : bf16) outs(%w2 : memref<8x16xbf16>)
  %c2 = memref.alloc() : memref<4x16xbf16>
  linalg.fill ins(%zero : bf16) outs(%c2 : memref<4x16xbf16>)
  linalg.matmul ins(%x, %w2 : memref<4x8xbf16>, memref<8x16xbf16>) outs(%c2 : memref<4x16xbf16>)
  %c3 = memref.alloc() : memref<4x16xbf16>
  linalg.fill ins(%zero : bf16) outs(%c3 : memref<4x16xbf16>)
  linalg.matmul ins(%y, %w3 : memref<4x8xbf16>, memref<8x16xbf16>) outs(%c3 : memref<4x16xbf16>)
  return %c1, %c2, %c3 : memref<4x16xbf16>, memref<4x16xbf16>, memref<4x16xbf16>
}

// -----

// Products of one input but other shapes stay apart.
// CHECK-LABEL: func.func @other_shapes(
// CHECK-NOT:     memref.alloca
// CHECK-COUNT-2: call @mlxrt_matmul(
func.func @other_shapes(%x: memref<4x8xbf16>, %w1: memref<8x16xbf16>, %w2: memref<8x32xbf16>) -> (memref<4x16xbf16>, memref<4x32xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %c1 = memref.alloc() : memref<4x16xbf16>
  linalg.fill ins(%zero : bf16) outs(%c1 : memref<4x16xbf16>)
  linalg.matmul ins(%x, %w1 : memref<4x8xbf16>, memref<8x16xbf16>) outs(%c1 : memref<4x16xbf16>)
  %c2 = memref.alloc() : memref<4x32xbf16>
  linalg.fill ins(%zero : bf16) outs(%c2 : memref<4x32xbf16>)
  linalg.matmul ins(%x, %w2 : memref<4x8xbf16>, memref<8x32xbf16>) outs(%c2 : memref<4x32xbf16>)
  return %c1, %c2 : memref<4x16xbf16>, memref<4x32xbf16>
}

// -----

// The second product writes into the first one's weight: grouped, they
// would run at the same time, so it keeps its own call.
// CHECK-LABEL: func.func @writes_first_weight(
// CHECK-NOT:     memref.alloca
// CHECK-COUNT-2: call @mlxrt_matmul(
func.func @writes_first_weight(%x: memref<4x8xbf16>, %w1: memref<8x16xbf16>, %w2: memref<8x16xbf16>) -> memref<4x16xbf16> {
  %zero = arith.constant 0.0 : bf16
  %top = memref.subview %w1[0, 0] [4, 16] [1, 1] : memref<8x16xbf16> to memref<4x16xbf16, strided<[16, 1]>>
  %c1 = memref.alloc() : memref<4x16xbf16>
  linalg.fill ins(%zero : bf16) outs(%c1 : memref<4x16xbf16>)
  linalg.matmul ins(%x, %w1 : memref<4x8xbf16>, memref<8x16xbf16>) outs(%c1 : memref<4x16xbf16>)
  linalg.fill ins(%zero : bf16) outs(%top : memref<4x16xbf16, strided<[16, 1]>>)
  linalg.matmul ins(%x, %w2 : memref<4x8xbf16>, memref<8x16xbf16>) outs(%top : memref<4x16xbf16, strided<[16, 1]>>)
  return %c1 : memref<4x16xbf16>
}
