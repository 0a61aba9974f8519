// RUN: mlx-opt %s --split-input-file --mlxc-write-pieces-in-place | FileCheck %s
// RUN: mlx-opt %s --split-input-file --mlxc-write-pieces-in-place --eliminate-empty-tensors --one-shot-bufferize="bufferize-function-boundaries" --canonicalize --mlxc-forward-output-copies | FileCheck %s --check-prefix=BUF

#id = affine_map<(d0, d1) -> (d0, d1)>

// The two halves of a rotated row go into a KV cache row copied from an
// input after them: the copy and the row's offset move above the op, and
// each half's destination is its window of the copied cache (the second
// one too, whose insertion's destination is the first insertion).
// CHECK-LABEL: func.func @halves_into_cache
// CHECK: %[[CACHE:.*]] = linalg.copy ins(%arg1
// CHECK: %[[OFF:.*]] = tensor.extract %arg2[]
// CHECK: %[[ROW:.*]] = arith.index_cast %[[OFF]]
// CHECK-DAG: %[[W0:.*]] = tensor.extract_slice %[[CACHE]][%[[ROW]], 0] [1, 4] [1, 1]
// CHECK-DAG: %[[W1:.*]] = tensor.extract_slice %[[CACHE]][%[[ROW]], 4] [1, 4] [1, 1]
// CHECK: %[[R:.*]]:2 = linalg.generic {{.*}} outs(%[[W0]], %[[W1]] :
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[R]]#0 into %[[CACHE]][%[[ROW]], 0]
// CHECK: tensor.insert_slice %[[R]]#1 into %[[I0]][%[[ROW]], 4]
// After bufferization, nothing but the op writes the row: no copy of it.
// BUF-LABEL: func.func @halves_into_cache
// BUF: linalg.copy ins(%arg1
// BUF: linalg.generic
// BUF-SAME: outs(%{{.*}}, %{{.*}} : memref<1x4xf32, strided<[8, 1], offset: ?>>, memref<1x4xf32, strided<[8, 1], offset: ?>>)
// BUF-NOT: memref.copy
// BUF: return
func.func @halves_into_cache(%x: tensor<1x8xf32>, %cache: tensor<16x8xf32>, %offset: tensor<i32>) -> tensor<16x8xf32> {
  %lo = tensor.extract_slice %x[0, 0] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
  %hi = tensor.extract_slice %x[0, 4] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
  %e0 = tensor.empty() : tensor<1x4xf32>
  %e1 = tensor.empty() : tensor<1x4xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%lo, %hi : tensor<1x4xf32>, tensor<1x4xf32>) outs(%e0, %e1 : tensor<1x4xf32>, tensor<1x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o0: f32, %o1: f32):
    %d = arith.subf %a, %b : f32
    %s = arith.addf %a, %b : f32
    linalg.yield %d, %s : f32, f32
  } -> (tensor<1x4xf32>, tensor<1x4xf32>)
  %ce = tensor.empty() : tensor<16x8xf32>
  %c = linalg.copy ins(%cache : tensor<16x8xf32>) outs(%ce : tensor<16x8xf32>) -> tensor<16x8xf32>
  %o = tensor.extract %offset[] : tensor<i32>
  %row = arith.index_cast %o : i32 to index
  %i0 = tensor.insert_slice %r#0 into %c[%row, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<16x8xf32>
  %i1 = tensor.insert_slice %r#1 into %i0[%row, 4] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<16x8xf32>
  return %i1 : tensor<16x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Nothing changes when the piece is also used elsewhere or when the op reads
// its destination. A concatenation of an op's two results (in either order)
// starts from an empty tensor: both results are computed in their windows.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: tensor.extract_slice
// CHECK: %[[W1:.*]] = tensor.extract_slice %[[D3:.*]][1, 0] [1, 4]
// CHECK: %[[W0:.*]] = tensor.extract_slice %[[D3]][0, 0] [1, 4]
// CHECK: linalg.generic {{.*}} outs(%[[W0]], %[[W1]] :
// CHECK-NOT: tensor.extract_slice
// CHECK: return
func.func @kept(%x: tensor<1x4xf32>, %acc: tensor<1x4xf32>) -> (tensor<2x4xf32>, tensor<1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %e = tensor.empty() : tensor<1x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<1x4xf32>
  %blank = tensor.empty() : tensor<2x4xf32>
  %twice = tensor.insert_slice %r into %blank[0, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<2x4xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<1x4xf32>) outs(%acc : tensor<1x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.addf %a, %o : f32
    linalg.yield %n : f32
  } -> tensor<1x4xf32>
  %d2 = tensor.empty() : tensor<2x4xf32>
  %reads = tensor.insert_slice %s into %d2[0, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<2x4xf32>
  %e0 = tensor.empty() : tensor<1x4xf32>
  %e1 = tensor.empty() : tensor<1x4xf32>
  %p:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<1x4xf32>) outs(%e0, %e1 : tensor<1x4xf32>, tensor<1x4xf32>) {
  ^bb0(%a: f32, %o0: f32, %o1: f32):
    %n = arith.negf %a : f32
    linalg.yield %a, %n : f32, f32
  } -> (tensor<1x4xf32>, tensor<1x4xf32>)
  %d3 = tensor.empty() : tensor<2x4xf32>
  %base = tensor.insert_slice %p#1 into %d3[1, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<2x4xf32>
  %both = tensor.insert_slice %p#0 into %base[0, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<2x4xf32>
  return %twice, %r, %reads, %both : tensor<2x4xf32>, tensor<1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}
