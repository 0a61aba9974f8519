// RUN: %check %s
// A decode step's KV caches updated at new rows, returned, and attended
// over, as the executable runs it (outputs in buffers of their own: the
// caches are copied whole), every entry checked against MLX: bf16 with
// RoPE'd keys written in two halves and the keys up to the offset visible;
// f16 with two row groups per key head and a window of two rows at the
// cache's end; f32 with the window at the first slot, values narrower than
// keys. Chunks of one step each: the copies stay kernels of their own (the
// split-key kernel makes them only for chunks of several steps:
// test/Codegen/attention-cache-copy.mlir; bench/transformer's W8 checks
// that path's caches entry by entry on the GPU).
// INPUT: pos = np.array([137], np.int32)
// INPUT: offset = np.array(137, np.int32)
// INPUT: pos2 = np.array([998], np.int32)
// INPUT: pos3 = np.array([0], np.int32)
// REF: kr = mx.fast.rope(kn, 64, traditional=False, base=10000.0, scale=1.0, offset=offset)
// REF: k_a = mx.slice_update(kc, kr, pos, (2,))
// REF: v_a = mx.slice_update(vc, vn, pos, (2,))
// REF: out_a = mx.fast.scaled_dot_product_attention(q, k_a, v_a, scale=0.125, mask=(mx.arange(300) <= offset))
// REF: k_b = mx.slice_update(kc2, kn2, pos2, (2,))
// REF: v_b = mx.slice_update(vc2, vn2, pos2, (2,))
// REF: out_b = mx.fast.scaled_dot_product_attention(q2, k_b, v_b, scale=0.125)
// REF: k_c = mx.slice_update(kc3, kn3, pos3, (2,))
// REF: v_c = mx.slice_update(vc3, vn3, pos3, (2,))
// REF: out_c = mx.fast.scaled_dot_product_attention(q3, k_c, v_c, scale=0.2)
func.func @decode_cache_copy(
    %q: tensor<1x8x1x64xbf16> {mlx.name = "q"},
    %kc: tensor<1x4x300x64xbf16> {mlx.name = "kc"},
    %vc: tensor<1x4x300x64xbf16> {mlx.name = "vc"},
    %kn: tensor<1x4x1x64xbf16> {mlx.name = "kn"},
    %vn: tensor<1x4x1x64xbf16> {mlx.name = "vn"},
    %pos: tensor<1xi32> {mlx.name = "pos"},
    %offset: tensor<i32> {mlx.name = "offset"},
    %q2: tensor<1x16x1x64xf16> {mlx.name = "q2"},
    %kc2: tensor<1x2x1000x64xf16> {mlx.name = "kc2"},
    %vc2: tensor<1x2x1000x64xf16> {mlx.name = "vc2"},
    %kn2: tensor<1x2x2x64xf16> {mlx.name = "kn2"},
    %vn2: tensor<1x2x2x64xf16> {mlx.name = "vn2"},
    %pos2: tensor<1xi32> {mlx.name = "pos2"},
    %q3: tensor<1x4x1x64xf32> {mlx.name = "q3"},
    %kc3: tensor<1x4x77x64xf32> {mlx.name = "kc3"},
    %vc3: tensor<1x4x77x32xf32> {mlx.name = "vc3"},
    %kn3: tensor<1x4x1x64xf32> {mlx.name = "kn3"},
    %vn3: tensor<1x4x1x32xf32> {mlx.name = "vn3"},
    %pos3: tensor<1xi32> {mlx.name = "pos3"})
    -> (tensor<1x8x1x64xbf16> {mlx.name = "out_a"},
        tensor<1x4x300x64xbf16> {mlx.name = "k_a"},
        tensor<1x4x300x64xbf16> {mlx.name = "v_a"},
        tensor<1x16x1x64xf16> {mlx.name = "out_b"},
        tensor<1x2x1000x64xf16> {mlx.name = "k_b"},
        tensor<1x2x1000x64xf16> {mlx.name = "v_b"},
        tensor<1x4x1x32xf32> {mlx.name = "out_c"},
        tensor<1x4x77x64xf32> {mlx.name = "k_c"},
        tensor<1x4x77x32xf32> {mlx.name = "v_c"}) {
  %kr = mlx.rope %kn, %offset {dims = 64 : i64, traditional = false, base = 1.0e+04 : f32, scale = 1.0 : f32} : tensor<1x4x1x64xbf16>, tensor<i32>
  %k_a = mlx.dynamic_slice_update %kc, %kr, %pos {axes = array<i64: 2>} : tensor<1x4x300x64xbf16>, tensor<1x4x1x64xbf16>, tensor<1xi32>
  %v_a = mlx.dynamic_slice_update %vc, %vn, %pos {axes = array<i64: 2>} : tensor<1x4x300x64xbf16>, tensor<1x4x1x64xbf16>, tensor<1xi32>
  %0 = mlx.arange {start = 0.000000e+00 : f64, stop = 3.000000e+02 : f64} : tensor<300xi32>
  %1 = mlx.broadcast_to %offset {shape = array<i64: 300>} : tensor<i32>
  %2 = mlx.less_equal %0, %1 : tensor<300xi32>, tensor<300xi32>
  %m = mlx.broadcast_to %2 {shape = array<i64: 1, 1, 1, 300>} : tensor<300xi1>
  %out_a = mlx.scaled_dot_product_attention %q, %k_a, %v_a mask(%m : tensor<1x1x1x300xi1>) {scale = 0.125 : f32} : tensor<1x8x1x64xbf16>, tensor<1x4x300x64xbf16>, tensor<1x4x300x64xbf16>
  %k_b = mlx.dynamic_slice_update %kc2, %kn2, %pos2 {axes = array<i64: 2>} : tensor<1x2x1000x64xf16>, tensor<1x2x2x64xf16>, tensor<1xi32>
  %v_b = mlx.dynamic_slice_update %vc2, %vn2, %pos2 {axes = array<i64: 2>} : tensor<1x2x1000x64xf16>, tensor<1x2x2x64xf16>, tensor<1xi32>
  %out_b = mlx.scaled_dot_product_attention %q2, %k_b, %v_b {scale = 0.125 : f32} : tensor<1x16x1x64xf16>, tensor<1x2x1000x64xf16>, tensor<1x2x1000x64xf16>
  %k_c = mlx.dynamic_slice_update %kc3, %kn3, %pos3 {axes = array<i64: 2>} : tensor<1x4x77x64xf32>, tensor<1x4x1x64xf32>, tensor<1xi32>
  %v_c = mlx.dynamic_slice_update %vc3, %vn3, %pos3 {axes = array<i64: 2>} : tensor<1x4x77x32xf32>, tensor<1x4x1x32xf32>, tensor<1xi32>
  %out_c = mlx.scaled_dot_product_attention %q3, %k_c, %v_c {scale = 0.2 : f32} : tensor<1x4x1x64xf32>, tensor<1x4x77x64xf32>, tensor<1x4x77x32xf32>
  return %out_a, %k_a, %v_a, %out_b, %k_b, %v_b, %out_c, %k_c, %v_c : tensor<1x8x1x64xbf16>, tensor<1x4x300x64xbf16>, tensor<1x4x300x64xbf16>, tensor<1x16x1x64xf16>, tensor<1x2x1000x64xf16>, tensor<1x2x1000x64xf16>, tensor<1x4x1x32xf32>, tensor<1x4x77x64xf32>, tensor<1x4x77x32xf32>
}
