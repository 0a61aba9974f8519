// RUN: mlx-opt %s --split-input-file --mlxc-pipeline="target=cpu to=linalg" --mlxc-form-kernels | FileCheck %s

// Each normalization is one row_reduction kernel, whether the graph holds
// MLX's fused op or the ops an MLX CPU export decomposes it into; no linalg
// op is left outside the region (the empty tensors it writes are inputs).
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: linalg.
// CHECK: kernel.region row_reduction({{.*}}%arg0{{.*}})
// CHECK-COUNT-2: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: kernel.yield
// CHECK-NEXT: }
// CHECK-NOT: linalg.
// CHECK: return
func.func @softmax(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %y = mlx.softmax %x {axes = array<i64: -1>, precise = true} : tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// CHECK-LABEL: func.func @softmax_decomposed
// CHECK-NOT: linalg.
// CHECK: kernel.region row_reduction({{.*}}%arg0{{.*}})
// CHECK: kernel.yield
// CHECK-NEXT: }
// CHECK-NOT: linalg.
// CHECK: return
func.func @softmax_decomposed(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %m = mlx.max %x {axes = array<i64: -1>, keepdims = true} : tensor<8x64xf32>
  %d = mlx.subtract %x, %m : tensor<8x64xf32>, tensor<8x1xf32>
  %e = mlx.exp %d : tensor<8x64xf32>
  %s = mlx.sum %e {axes = array<i64: -1>, keepdims = true} : tensor<8x64xf32>
  %y = mlx.divide %e, %s : tensor<8x64xf32>, tensor<8x1xf32>
  return %y : tensor<8x64xf32>
}

// The result's reshape is a view, not a kernel: it stays outside.
// CHECK-LABEL: func.func @logsumexp
// CHECK-NOT: linalg.
// CHECK: kernel.region row_reduction({{.*}}%arg0{{.*}})
// CHECK: kernel.yield
// CHECK-NEXT: }
// CHECK-NEXT: tensor.collapse_shape
// CHECK-NEXT: return
func.func @logsumexp(%x: tensor<8x64xf32>) -> tensor<8xf32> {
  %y = mlx.logsumexp %x {axes = array<i64: -1>} : tensor<8x64xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @rms_norm
// CHECK-NOT: linalg.
// CHECK: kernel.region row_reduction({{.*}}%arg0{{.*}}%arg1{{.*}})
// CHECK: kernel.yield
// CHECK-NEXT: }
// CHECK-NOT: linalg.
// CHECK: return
func.func @rms_norm(%x: tensor<8x64xf32>, %w: tensor<64xf32>) -> tensor<8x64xf32> {
  %y = mlx.rms_norm %x, %w {eps = 1.0e-05 : f32} : tensor<8x64xf32>, tensor<64xf32>
  return %y : tensor<8x64xf32>
}

// CHECK-LABEL: func.func @rms_norm_decomposed
// CHECK-NOT: linalg.
// CHECK: kernel.region row_reduction({{.*}}%arg0{{.*}}%arg1{{.*}})
// CHECK: kernel.yield
// CHECK-NEXT: }
// CHECK-NOT: linalg.
// CHECK: return
func.func @rms_norm_decomposed(%x: tensor<8x64xf32>, %w: tensor<64xf32>) -> tensor<8x64xf32> {
  %sq = mlx.square %x : tensor<8x64xf32>
  %ss = mlx.sum %sq {axes = array<i64: -1>, keepdims = true} : tensor<8x64xf32>
  %inv = mlx.constant dense<0.015625> : tensor<f32>
  %ms = mlx.multiply %ss, %inv : tensor<8x1xf32>, tensor<f32>
  %eps = mlx.constant dense<1.0e-05> : tensor<f32>
  %v = mlx.add %ms, %eps : tensor<8x1xf32>, tensor<f32>
  %r = mlx.rsqrt %v : tensor<8x1xf32>
  %n = mlx.multiply %x, %r : tensor<8x64xf32>, tensor<8x1xf32>
  %y = mlx.multiply %n, %w : tensor<8x64xf32>, tensor<64xf32>
  return %y : tensor<8x64xf32>
}

// The mean's and the variance's zero fills (one after CSE) are cloned, one
// per accumulator, so both stay in the kernel.
// CHECK-LABEL: func.func @layer_norm
// CHECK-NOT: linalg.
// CHECK: kernel.region row_reduction({{.*}}%arg0{{.*}}%arg1{{.*}}%arg2{{.*}})
// CHECK-COUNT-2: linalg.fill
// CHECK: kernel.yield
// CHECK-NEXT: }
// CHECK-NOT: linalg.
// CHECK: return
func.func @layer_norm(%x: tensor<8x64xf32>, %w: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<8x64xf32> {
  %y = mlx.layer_norm %x weight(%w : tensor<64xf32>) bias(%b : tensor<64xf32>) {eps = 1.0e-05 : f32} : tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// CHECK-LABEL: func.func @layer_norm_decomposed
// CHECK-NOT: linalg.
// CHECK: kernel.region row_reduction({{.*}}%arg0{{.*}})
// CHECK: kernel.yield
// CHECK-NEXT: }
// CHECK-NOT: linalg.
// CHECK: return
func.func @layer_norm_decomposed(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %inv = mlx.constant dense<0.015625> : tensor<f32>
  %sx = mlx.sum %x {axes = array<i64: -1>, keepdims = true} : tensor<8x64xf32>
  %m = mlx.multiply %sx, %inv : tensor<8x1xf32>, tensor<f32>
  %d = mlx.subtract %x, %m : tensor<8x64xf32>, tensor<8x1xf32>
  %sq = mlx.square %d : tensor<8x64xf32>
  %ssq = mlx.sum %sq {axes = array<i64: -1>, keepdims = true} : tensor<8x64xf32>
  %var = mlx.multiply %ssq, %inv : tensor<8x1xf32>, tensor<f32>
  %eps = mlx.constant dense<1.0e-05> : tensor<f32>
  %v = mlx.add %var, %eps : tensor<8x1xf32>, tensor<f32>
  %r = mlx.rsqrt %v : tensor<8x1xf32>
  %y = mlx.multiply %d, %r : tensor<8x64xf32>, tensor<8x1xf32>
  return %y : tensor<8x64xf32>
}

// -----

// Other strategies: a column reduction, a whole-tensor sum, a transpose,
// an elementwise map; each is a kernel of its own.
// CHECK-LABEL: func.func @strategies
// CHECK: kernel.region reduction({{.*}}%arg0{{.*}})
// CHECK: kernel.region reduction({{.*}}%arg0{{.*}})
// CHECK: kernel.region copy({{.*}}%arg0{{.*}})
// CHECK: kernel.region elementwise({{.*}}%arg0{{.*}})
// CHECK-NOT: kernel.region
func.func @strategies(%x: tensor<8x64xf32>) -> (tensor<64xf32>, tensor<f32>, tensor<64x8xf32>, tensor<8x64xf32>) {
  %c = mlx.sum %x {axes = array<i64: 0>} : tensor<8x64xf32>
  %t = mlx.sum %x : tensor<8x64xf32>
  %p = mlx.transpose %x {axes = array<i64: 1, 0>} : tensor<8x64xf32>
  %e = mlx.exp %x : tensor<8x64xf32>
  return %c, %t, %p, %e : tensor<64xf32>, tensor<f32>, tensor<64x8xf32>, tensor<8x64xf32>
}

// -----

// A matrix product is a product kernel with its accumulator's fill; the
// bias add that follows is a kernel of its own (epilogue fusion is the
// product strategy's business, not elementwise fusion's).
// CHECK-LABEL: func.func @product
// CHECK: kernel.region product({{.*}}%arg0{{.*}}%arg1{{.*}})
// CHECK: linalg.fill
// CHECK: linalg.matmul
// CHECK: kernel.region elementwise
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @product(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>, %bias: tensor<32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<8x32xf32>, tensor<32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %bi: f32, %o: f32):
    %s = arith.addf %in, %bi : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// -----

// Must not fuse: a host read of the row group's max (tensor.extract) feeds
// the op after it, which therefore starts a kernel of its own; the max is
// computed once and passed on (never duplicated). An op over other rows
// starts another group too.
// CHECK-LABEL: func.func @host_read
// CHECK: %[[MAX:.*]] = kernel.region row_reduction({{.*}}%arg0{{.*}})
// CHECK: tensor.extract %[[MAX]]
// CHECK: kernel.region elementwise({{.*}}%arg0{{.*}}%[[MAX]]
// CHECK: kernel.region row_reduction({{.*}}%arg1{{.*}})
#id3 = affine_map<(d0, d1) -> (d0, d1)>
#row3 = affine_map<(d0, d1) -> (d0)>
func.func @host_read(%x: tensor<8x64xf32>, %z: tensor<4x64xf32>) -> (tensor<8x64xf32>, tensor<4xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %r = arith.maximumf %in, %o : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %first = tensor.extract %m[%c0] : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %y = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<8x64xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %mx: f32, %o: f32):
    %d = arith.subf %in, %mx : f32
    %s = arith.mulf %d, %first : f32
    linalg.yield %s : f32
  } -> tensor<8x64xf32>
  %e3 = tensor.empty() : tensor<4xf32>
  %f3 = linalg.fill ins(%ninf : f32) outs(%e3 : tensor<4xf32>) -> tensor<4xf32>
  %m3 = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "reduction"]}
      ins(%z : tensor<4x64xf32>) outs(%f3 : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %r = arith.maximumf %in, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %y, %m3 : tensor<8x64xf32>, tensor<4xf32>
}

// -----

// A value of another kernel made before the group starts (the residual sum
// that a decoder layer both returns and normalizes) may be read by any op
// of the group: the norm's reduction and its scaled row stay one kernel.
// Of one row (a decode step), the sum stays a kernel of its own.
// CHECK-LABEL: func.func @residual_norm
// CHECK: %[[H:.*]] = kernel.region elementwise
// CHECK: kernel.region row_reduction({{.*}}%[[H]]
// CHECK-NOT: kernel.region
func.func @residual_norm(%x: tensor<1x2048xf32>, %r: tensor<1x2048xf32>, %w: tensor<2048xf32>) -> (tensor<1x2048xf32>, tensor<1x2048xf32>) {
  %h = mlx.add %x, %r : tensor<1x2048xf32>, tensor<1x2048xf32>
  %y = mlx.rms_norm %h, %w {eps = 1.0e-05 : f32} : tensor<1x2048xf32>, tensor<2048xf32>
  return %h, %y : tensor<1x2048xf32>, tensor<1x2048xf32>
}

// -----

// Over many rows (a prefill), that residual sum is the norm's prologue: the
// row kernel computes it, normalizes it and writes both.
// CHECK-LABEL: func.func @residual_norm_rows
// CHECK-NOT: kernel.region elementwise
// CHECK: %[[R:.*]]:2 = kernel.region row_reduction(%arg0, %arg1,
// CHECK: arith.addf
// CHECK: kernel.yield
// CHECK-NOT: kernel.region
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @residual_norm_rows(%x: tensor<64x2048xf32>, %r: tensor<64x2048xf32>, %w: tensor<2048xf32>) -> (tensor<64x2048xf32>, tensor<64x2048xf32>) {
  %h = mlx.add %x, %r : tensor<64x2048xf32>, tensor<64x2048xf32>
  %y = mlx.rms_norm %h, %w {eps = 1.0e-05 : f32} : tensor<64x2048xf32>, tensor<2048xf32>
  return %h, %y : tensor<64x2048xf32>, tensor<64x2048xf32>
}

// -----

// The scale and mask right before a softmax (attention's scores), read by
// nothing else, are the row kernel's prologue: one region, which reads the
// scores and the mask, and the masked scores never become a kernel output.
// CHECK-LABEL: func.func @masked_softmax
// CHECK-NOT: kernel.region
// CHECK: kernel.region row_reduction(%arg1, %arg0,
// CHECK: arith.select
// CHECK: kernel.yield
// CHECK-NOT: kernel.region
// CHECK: return
func.func @masked_softmax(%s: tensor<4x128xf32>, %m: tensor<128xi1>) -> tensor<4x128xf32> {
  %c = mlx.constant dense<0.125> : tensor<f32>
  %lo = mlx.constant dense<-3.0e+38> : tensor<f32>
  %scaled = mlx.multiply %s, %c : tensor<4x128xf32>, tensor<f32>
  %masked = mlx.select %m, %scaled, %lo : tensor<128xi1>, tensor<4x128xf32>, tensor<f32>
  %y = mlx.softmax %masked {axes = array<i64: -1>, precise = true} : tensor<4x128xf32>
  return %y : tensor<4x128xf32>
}

// -----

// A prologue whose result is also returned stays a kernel of its own when
// the rows are few.
// CHECK-LABEL: func.func @masked_softmax_kept
// CHECK: kernel.region elementwise
// CHECK: kernel.region row_reduction
func.func @masked_softmax_kept(%s: tensor<4x128xf32>) -> (tensor<4x128xf32>, tensor<4x128xf32>) {
  %c = mlx.constant dense<0.125> : tensor<f32>
  %scaled = mlx.multiply %s, %c : tensor<4x128xf32>, tensor<f32>
  %y = mlx.softmax %scaled {axes = array<i64: -1>, precise = true} : tensor<4x128xf32>
  return %y, %scaled : tensor<4x128xf32>, tensor<4x128xf32>
}

// -----

// Elementwise maps over the same loops that do not depend on each other
// share one kernel: one generic with both results, each written to its own
// destination. A map that reads one of them, and a map over other loops,
// stay kernels of their own.
// CHECK-LABEL: func.func @sibling_maps
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<8x64xf32>
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<8x64xf32>
// CHECK: %[[S:.*]]:2 = kernel.region elementwise(%arg0, %arg1, %[[E0]], %[[E1]])
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : tensor<8x64xf32>, tensor<8x64xf32>)
// CHECK: math.exp
// CHECK: math.log
// CHECK: kernel.yield
// CHECK: kernel.region elementwise(%[[S]]#0,
// CHECK: math.sin
// CHECK: kernel.region elementwise(%arg2,
// CHECK: math.cos
// CHECK-NOT: kernel.region
// CHECK: return %[[S]]#0, %[[S]]#1
func.func @sibling_maps(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>, %z: tensor<8x32xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x32xf32>) {
  %a = mlx.exp %x : tensor<8x64xf32>
  %b = mlx.log %y : tensor<8x64xf32>
  %c = mlx.sin %a : tensor<8x64xf32>
  %d = mlx.cos %z : tensor<8x32xf32>
  return %a, %b, %c, %d : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x32xf32>
}

// -----

// A map after a row kernel that reads the row kernel's result joins it, not
// the map before: the reduction is never duplicated or reordered.
// CHECK-LABEL: func.func @sibling_after_reduction
// CHECK: kernel.region elementwise(%arg1,
// CHECK: math.exp
// CHECK: kernel.region row_reduction({{.*}}%arg0,
// CHECK-NOT: kernel.region
func.func @sibling_after_reduction(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %e = mlx.exp %y : tensor<8x64xf32>
  %s = mlx.softmax %x {axes = array<i64: -1>, precise = true} : tensor<8x64xf32>
  %t = mlx.sin %s : tensor<8x64xf32>
  return %e, %t : tensor<8x64xf32>, tensor<8x64xf32>
}
