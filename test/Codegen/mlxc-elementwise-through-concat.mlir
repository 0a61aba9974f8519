// RUN: mlx-opt %s --split-input-file --mlxc-elementwise-through-concat | FileCheck %s

// RoPE's two rotated halves, concatenated, then scaled by a splat: the
// scale becomes one op per half (the splat sliced like the halves), each
// reading its half directly, concatenated in turn.
// CHECK-LABEL: func.func @rope_scale
// CHECK: %[[A:.*]] = linalg.generic
// CHECK: arith.subf
// CHECK: %[[B:.*]] = linalg.generic
// CHECK: arith.addf
// CHECK: %[[CST:.*]] = arith.constant dense<5.000000e-01> : tensor<2x8xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x8xf32>
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[CST]][0, 0] [2, 4] [1, 1]
// CHECK: %[[SA:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[S0]] : tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK: arith.mulf
// CHECK: %[[I:.*]] = tensor.insert_slice %[[SA]] into %[[E]][0, 0] [2, 4] [1, 1]
// CHECK: %[[S1:.*]] = tensor.extract_slice %[[CST]][0, 4] [2, 4] [1, 1]
// CHECK: %[[SB:.*]] = linalg.generic {{.*}} ins(%[[B]], %[[S1]] : tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK: arith.mulf
// CHECK: %[[R:.*]] = tensor.insert_slice %[[SB]] into %[[I]][0, 4] [2, 4] [1, 1]
// CHECK: return %[[R]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @rope_scale(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>) -> tensor<2x8xf32> {
  %e4 = tensor.empty() : tensor<2x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e4 : tensor<2x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.subf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %b = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e4 : tensor<2x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %e8 = tensor.empty() : tensor<2x8xf32>
  %c0 = tensor.insert_slice %a into %e8[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<2x8xf32>
  %c1 = tensor.insert_slice %b into %c0[0, 4] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<2x8xf32>
  %scale = arith.constant dense<0.5> : tensor<2x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c1, %scale : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e8 : tensor<2x8xf32>) {
  ^bb0(%p: f32, %s: f32, %o: f32):
    %m = arith.mulf %p, %s : f32
    linalg.yield %m : f32
  } -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// -----

// Left alone: pieces that are no elementwise results (graph inputs), and
// an update of a window of another tensor read through a transposed map.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-3: tensor.insert_slice
// CHECK-NOT: tensor.insert_slice
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @left_alone(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>, %z: tensor<4x4xf32>)
    -> (tensor<2x8xf32>, tensor<4x4xf32>) {
  %e8 = tensor.empty() : tensor<2x8xf32>
  %c0 = tensor.insert_slice %x into %e8[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<2x8xf32>
  %c1 = tensor.insert_slice %y into %c0[0, 4] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<2x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c1 : tensor<2x8xf32>) outs(%e8 : tensor<2x8xf32>) {
  ^bb0(%p: f32, %o: f32):
    %m = arith.negf %p : f32
    linalg.yield %m : f32
  } -> tensor<2x8xf32>
  %e44 = tensor.empty() : tensor<4x4xf32>
  %e24 = tensor.empty() : tensor<2x4xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x4xf32>) outs(%e24 : tensor<2x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %m = arith.negf %p : f32
    linalg.yield %m : f32
  } -> tensor<2x4xf32>
  %d = tensor.insert_slice %n into %z[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x4xf32>
  %t = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<4x4xf32>) outs(%e44 : tensor<4x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    linalg.yield %p : f32
  } -> tensor<4x4xf32>
  return %r, %t : tensor<2x8xf32>, tensor<4x4xf32>
}

// -----

// RoPE's halves of k inserted as the cache's new row at a run-time position:
// each half goes into the window itself.
// CHECK-LABEL: func.func @cache_row
// CHECK: %[[A:.*]] = linalg.generic
// CHECK: %[[B:.*]] = linalg.generic
// CHECK: %[[I:.*]] = tensor.insert_slice %[[A]] into %arg2[0, %arg3, 0] [2, 1, 4] [1, 1, 1]
// CHECK: %[[R:.*]] = tensor.insert_slice %[[B]] into %[[I]][0, %arg3, 4] [2, 1, 4] [1, 1, 1]
// CHECK: return %[[R]]
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @cache_row(%x: tensor<2x1x4xf32>, %y: tensor<2x1x4xf32>,
                     %cache: tensor<2x9x8xf32>, %pos: index) -> tensor<2x9x8xf32> {
  %e4 = tensor.empty() : tensor<2x1x4xf32>
  %a = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %y : tensor<2x1x4xf32>, tensor<2x1x4xf32>) outs(%e4 : tensor<2x1x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.subf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<2x1x4xf32>
  %b = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %y : tensor<2x1x4xf32>, tensor<2x1x4xf32>) outs(%e4 : tensor<2x1x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<2x1x4xf32>
  %e8 = tensor.empty() : tensor<2x1x8xf32>
  %c0 = tensor.insert_slice %a into %e8[0, 0, 0] [2, 1, 4] [1, 1, 1] : tensor<2x1x4xf32> into tensor<2x1x8xf32>
  %c1 = tensor.insert_slice %b into %c0[0, 0, 4] [2, 1, 4] [1, 1, 1] : tensor<2x1x4xf32> into tensor<2x1x8xf32>
  %r = tensor.insert_slice %c1 into %cache[0, %pos, 0] [2, 1, 8] [1, 1, 1] : tensor<2x1x8xf32> into tensor<2x9x8xf32>
  return %r : tensor<2x9x8xf32>
}
