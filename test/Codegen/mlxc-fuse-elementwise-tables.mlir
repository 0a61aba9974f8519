// RUN: mlx-opt %s --split-input-file --mlxc-fuse-elementwise | FileCheck %s

// A decode step's RoPE table (the cosines of the position times 4
// frequencies) read through a broadcast by the rotations of q (2 heads)
// and k (1 head): each recomputes it, reading the position and the
// frequencies itself. The table is no map of its own.
// CHECK-LABEL: func.func @rope_table
// CHECK: linalg.generic
// CHECK-SAME: ins(%arg1, %arg0, %{{.*}} : tensor<1x2x1x4xf32>, tensor<i32>, tensor<1x4xf32>)
// CHECK: arith.sitofp
// CHECK: math.cos
// CHECK: arith.mulf
// CHECK: linalg.generic
// CHECK-SAME: ins(%arg2, %arg0, %{{.*}} : tensor<1x1x1x4xf32>, tensor<i32>, tensor<1x4xf32>)
// CHECK: math.cos
// CHECK-NOT: linalg.generic
func.func @rope_table(%pos: tensor<i32>, %q: tensor<1x2x1x4xf32>,
                      %k: tensor<1x1x1x4xf32>)
    -> (tensor<1x2x1x4xf32>, tensor<1x1x1x4xf32>) {
  %freq = arith.constant dense<[[1.0, 0.5, 0.25, 0.125]]> : tensor<1x4xf32>
  %e = tensor.empty() : tensor<1x4xf32>
  %cos = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>,
                                          affine_map<(d0, d1) -> (d0, d1)>,
                                          affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%pos, %freq : tensor<i32>, tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) {
  ^bb0(%p: i32, %f: f32, %out: f32):
    %pf = arith.sitofp %p : i32 to f32
    %a = arith.mulf %pf, %f : f32
    %c = math.cos %a : f32
    linalg.yield %c : f32
  } -> tensor<1x4xf32>
  %eq = tensor.empty() : tensor<1x2x1x4xf32>
  %rq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d3)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q, %cos : tensor<1x2x1x4xf32>, tensor<1x4xf32>) outs(%eq : tensor<1x2x1x4xf32>) {
  ^bb0(%in: f32, %c: f32, %out: f32):
    %m = arith.mulf %in, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x2x1x4xf32>
  %ek = tensor.empty() : tensor<1x1x1x4xf32>
  %rk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d3)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k, %cos : tensor<1x1x1x4xf32>, tensor<1x4xf32>) outs(%ek : tensor<1x1x1x4xf32>) {
  ^bb0(%in: f32, %c: f32, %out: f32):
    %m = arith.mulf %in, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x1x1x4xf32>
  return %rq, %rk : tensor<1x2x1x4xf32>, tensor<1x1x1x4xf32>
}

// -----

// A prefill's table (8192 points) read by two rotations is a map of its
// own, written once and read by both.
// CHECK-LABEL: func.func @large_table
// CHECK: math.cos
// CHECK: linalg.yield
// CHECK: linalg.generic
// CHECK-NOT: math.cos
// CHECK: linalg.generic
// CHECK-NOT: math.cos
// CHECK: return
func.func @large_table(%pos: tensor<2048x1xf32>, %freq: tensor<1x4xf32>,
                       %x: tensor<1x2x2048x4xf32>)
    -> (tensor<1x2x2048x4xf32>, tensor<1x2x2048x4xf32>) {
  %e = tensor.empty() : tensor<2048x4xf32>
  %cos = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>,
                                          affine_map<(d0, d1) -> (0, d1)>,
                                          affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%pos, %freq : tensor<2048x1xf32>, tensor<1x4xf32>) outs(%e : tensor<2048x4xf32>) {
  ^bb0(%p: f32, %f: f32, %out: f32):
    %a = arith.mulf %p, %f : f32
    %c = math.cos %a : f32
    linalg.yield %c : f32
  } -> tensor<2048x4xf32>
  %e2 = tensor.empty() : tensor<1x2x2048x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %cos : tensor<1x2x2048x4xf32>, tensor<2048x4xf32>) outs(%e2 : tensor<1x2x2048x4xf32>) {
  ^bb0(%in: f32, %c: f32, %out: f32):
    %m = arith.mulf %in, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x2x2048x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %cos : tensor<1x2x2048x4xf32>, tensor<2048x4xf32>) outs(%e2 : tensor<1x2x2048x4xf32>) {
  ^bb0(%in: f32, %c: f32, %out: f32):
    %m = arith.addf %in, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x2x2048x4xf32>
  return %r, %s : tensor<1x2x2048x4xf32>, tensor<1x2x2048x4xf32>
}

// -----

// A decode step's residual add as MLX's bf16 add lowers (through f32),
// read element by element by the next residual add and by a square (a
// norm's): no table (neither consumer has more points) and not cheap. It stays one map, whose result both read; recomputed in
// each, a model's residual stream would be re-added from its first layer
// in every norm.
// CHECK-LABEL: func.func @residual_row
// CHECK: %[[H:.*]] = linalg.generic
// CHECK-SAME: ins(%arg0, %arg1 : tensor<1x256xbf16>, tensor<1x256xbf16>)
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[H]], %arg2 : tensor<1x256xbf16>, tensor<1x256xbf16>)
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[H]] : tensor<1x256xbf16>)
func.func @residual_row(%x: tensor<1x256xbf16>, %o: tensor<1x256xbf16>,
                        %d: tensor<1x256xbf16>)
    -> (tensor<1x256xbf16>, tensor<1x256xf32>) {
  %e = tensor.empty() : tensor<1x256xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %o : tensor<1x256xbf16>, tensor<1x256xbf16>)
      outs(%e : tensor<1x256xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %out: bf16):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %s = arith.addf %af, %bf : f32
    %r = arith.truncf %s : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<1x256xbf16>
  %h2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                         affine_map<(d0, d1) -> (d0, d1)>,
                                         affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%h, %d : tensor<1x256xbf16>, tensor<1x256xbf16>)
      outs(%e : tensor<1x256xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %out: bf16):
    %s = arith.addf %a, %b : bf16
    linalg.yield %s : bf16
  } -> tensor<1x256xbf16>
  %ef = tensor.empty() : tensor<1x256xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                         affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<1x256xbf16>) outs(%ef : tensor<1x256xf32>) {
  ^bb0(%a: bf16, %out: f32):
    %f = arith.extf %a : bf16 to f32
    %m = arith.mulf %f, %f : f32
    linalg.yield %m : f32
  } -> tensor<1x256xf32>
  return %h2, %sq : tensor<1x256xbf16>, tensor<1x256xf32>
}
