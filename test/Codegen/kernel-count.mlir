// RUN: mlxc %s --target=cuda --emit=kernels -o - | FileCheck %s --check-prefix=REGIONS
// RUN: mlxc %s --target=cuda --emit=kernels --keep-constants -o - | mlx-opt --mlxc-pipeline="from=kernels to=gpu" | FileCheck %s --check-prefix=KERNELS

// softmax, logsumexp, rms_norm and layer_norm are one kernel each on CUDA,
// as MLX's fused ops and as the ops an MLX CPU export decomposes them into:
// eight row_reduction regions, eight launches, nothing else. (Each reads
// its own input, so that no two fold into one.)
// REGIONS-COUNT-8: kernel.region row_reduction
// REGIONS-NOT: kernel.region
// KERNELS-COUNT-8: gpu.launch_func
// KERNELS-NOT: gpu.launch_func
func.func @norms(%a: tensor<8x256xf32>, %b: tensor<8x256xf32>, %c: tensor<8x256xf32>,
                 %d: tensor<8x256xf32>, %e: tensor<8x256xf32>, %f: tensor<8x256xf32>,
                 %g: tensor<8x256xf32>, %h: tensor<8x256xf32>, %w: tensor<256xf32>,
                 %bias: tensor<256xf32>)
    -> (tensor<8x256xf32>, tensor<8x256xf32>, tensor<8xf32>, tensor<8xf32>,
        tensor<8x256xf32>, tensor<8x256xf32>, tensor<8x256xf32>, tensor<8x256xf32>) {
  %sm = mlx.softmax %a {axes = array<i64: -1>, precise = true} : tensor<8x256xf32>
  %m = mlx.max %b {axes = array<i64: -1>, keepdims = true} : tensor<8x256xf32>
  %bd = mlx.subtract %b, %m : tensor<8x256xf32>, tensor<8x1xf32>
  %be = mlx.exp %bd : tensor<8x256xf32>
  %bs = mlx.sum %be {axes = array<i64: -1>, keepdims = true} : tensor<8x256xf32>
  %sm2 = mlx.divide %be, %bs : tensor<8x256xf32>, tensor<8x1xf32>
  %lse = mlx.logsumexp %c {axes = array<i64: -1>} : tensor<8x256xf32>
  %dm = mlx.max %d {axes = array<i64: -1>, keepdims = true} : tensor<8x256xf32>
  %dd = mlx.subtract %d, %dm : tensor<8x256xf32>, tensor<8x1xf32>
  %de = mlx.exp %dd : tensor<8x256xf32>
  %ds = mlx.sum %de {axes = array<i64: -1>} : tensor<8x256xf32>
  %dl = mlx.log %ds : tensor<8xf32>
  %dmf = mlx.reshape %dm {shape = array<i64: 8>} : tensor<8x1xf32>
  %lse2 = mlx.add %dl, %dmf : tensor<8xf32>, tensor<8xf32>
  %rms = mlx.rms_norm %e, %w {eps = 1.0e-05 : f32} : tensor<8x256xf32>, tensor<256xf32>
  %inv = mlx.constant dense<0.00390625> : tensor<f32>
  %eps = mlx.constant dense<1.0e-05> : tensor<f32>
  %fsq = mlx.square %f : tensor<8x256xf32>
  %fss = mlx.sum %fsq {axes = array<i64: -1>, keepdims = true} : tensor<8x256xf32>
  %fms = mlx.multiply %fss, %inv : tensor<8x1xf32>, tensor<f32>
  %fv = mlx.add %fms, %eps : tensor<8x1xf32>, tensor<f32>
  %fr = mlx.rsqrt %fv : tensor<8x1xf32>
  %fn = mlx.multiply %f, %fr : tensor<8x256xf32>, tensor<8x1xf32>
  %rms2 = mlx.multiply %fn, %w : tensor<8x256xf32>, tensor<256xf32>
  %ln = mlx.layer_norm %g weight(%w : tensor<256xf32>) bias(%bias : tensor<256xf32>) {eps = 1.0e-05 : f32} : tensor<8x256xf32>
  %hs = mlx.sum %h {axes = array<i64: -1>, keepdims = true} : tensor<8x256xf32>
  %hm = mlx.multiply %hs, %inv : tensor<8x1xf32>, tensor<f32>
  %hd = mlx.subtract %h, %hm : tensor<8x256xf32>, tensor<8x1xf32>
  %hsq = mlx.square %hd : tensor<8x256xf32>
  %hss = mlx.sum %hsq {axes = array<i64: -1>, keepdims = true} : tensor<8x256xf32>
  %hv = mlx.multiply %hss, %inv : tensor<8x1xf32>, tensor<f32>
  %hve = mlx.add %hv, %eps : tensor<8x1xf32>, tensor<f32>
  %hr = mlx.rsqrt %hve : tensor<8x1xf32>
  %hn = mlx.multiply %hd, %hr : tensor<8x256xf32>, tensor<8x1xf32>
  %hw = mlx.multiply %hn, %w : tensor<8x256xf32>, tensor<256xf32>
  %ln2 = mlx.add %hw, %bias : tensor<8x256xf32>, tensor<256xf32>
  return %sm, %sm2, %lse, %lse2, %rms, %rms2, %ln, %ln2 : tensor<8x256xf32>, tensor<8x256xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8x256xf32>, tensor<8x256xf32>, tensor<8x256xf32>, tensor<8x256xf32>
}
