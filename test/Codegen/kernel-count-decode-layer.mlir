// RUN: mlxc %s --target=cuda --emit=kernels --keep-constants -o - | mlx-opt --mlxc-pipeline="from=kernels to=gpu" | FileCheck %s

// One llama decoder layer, one decode step, as bench/transformer's W8 with
// d 512, 4 heads of 128, hidden 1024 and a cache of 1024 + 1 slots, exported
// by MLX (`mx.fast.rms_norm`, `mx.fast.rope`, `mx.fast.scaled_dot_product_
// attention`, the fixed-length cache of docs/Guides/FromMlx.md; printed with
// `mlxc --emit=mlir`). Issue 10 asks for at most 10 kernels a decoder layer:
// the rms_norm before q/k/v and the one before gate/up are the prologues of
// those launches (each block reduces the row: a butterfly of shuffles), the
// SwiGLU map is the down product's, the residual adds are the o and down
// products' epilogues. 10 launches: q/k/v; the cache copy of copy mode (run
// only when the caller did not donate the caches); two small elementwise
// kernels (RoPE, the new cache entries); the scores, the softmax and the
// values product; o; gate/up; down.
// CHECK-LABEL: func.func @mlxc_graph_cuda_w8mid
// CHECK-COUNT-10: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK-LABEL: gpu.module
// CHECK: gpu.func @mlxc_graph_cuda_w8mid_kernel(
// CHECK: gpu.shuffle xor
// CHECK: %[[ROOT:.*]] = math.sqrt
// CHECK: arith.divf %{{.*}}, %[[ROOT]]
// CHECK: gpu.return
module attributes {mlx.mlxfn_version = "0.32.4"} {
  func.func @w8mid(%arg0: tensor<1x4x1025x128xbf16> {mlx.name = "k_cache"}, %arg1: tensor<i32> {mlx.name = "offset"}, %arg2: tensor<1x4x1025x128xbf16> {mlx.name = "v_cache"}, %arg3: tensor<1024x512xbf16> {mlx.name = "wd"}, %arg4: tensor<512x1024xbf16> {mlx.name = "wg"}, %arg5: tensor<512x512xbf16> {mlx.name = "wk"}, %arg6: tensor<512xbf16> {mlx.name = "wn1"}, %arg7: tensor<512xbf16> {mlx.name = "wn2"}, %arg8: tensor<512x512xbf16> {mlx.name = "wo"}, %arg9: tensor<512x512xbf16> {mlx.name = "wq"}, %arg10: tensor<512x1024xbf16> {mlx.name = "wu"}, %arg11: tensor<512x512xbf16> {mlx.name = "wv"}, %arg12: tensor<1x1x512xbf16> {mlx.name = "x"}) -> (tensor<1x1x512xbf16> {mlx.name = "out0"}, tensor<1x4x1025x128xbf16> {mlx.name = "out1"}, tensor<1x4x1025x128xbf16> {mlx.name = "out2"}) {
    %0 = mlx.arange {start = 0.000000e+00 : f64, stop = 1.025000e+03 : f64} : tensor<1025xi32>
    %1 = mlx.broadcast_to %arg1 {shape = array<i64: 1025>} : tensor<i32>
    %2 = mlx.less_equal %0, %1 : tensor<1025xi32>, tensor<1025xi32>
    %3 = mlx.broadcast_to %2 {shape = array<i64: 1, 4, 1, 1025>} : tensor<1025xi1>
    %4 = mlx.constant dense<8.837890e-02> : tensor<bf16>
    %5 = mlx.broadcast_to %4 {shape = array<i64: 1, 4, 1, 128>} : tensor<bf16>
    %6 = mlx.astype %arg12 : tensor<1x1x512xbf16> to f32
    %7 = mlx.square %6 : tensor<1x1x512xf32>
    %8 = mlx.sum %7 {axes = array<i64: 2>, keepdims = true} : tensor<1x1x512xf32>
    %9 = mlx.constant dense<0.001953125> : tensor<f32>
    %10 = mlx.broadcast_to %9 {shape = array<i64: 1, 1, 1>} : tensor<f32>
    %11 = mlx.multiply %8, %10 : tensor<1x1x1xf32>, tensor<1x1x1xf32>
    %12 = mlx.constant dense<9.99999974E-6> : tensor<f32>
    %13 = mlx.broadcast_to %12 {shape = array<i64: 1, 1, 1>} : tensor<f32>
    %14 = mlx.add %11, %13 : tensor<1x1x1xf32>, tensor<1x1x1xf32>
    %15 = mlx.rsqrt %14 : tensor<1x1x1xf32>
    %16 = mlx.broadcast_to %15 {shape = array<i64: 1, 1, 512>} : tensor<1x1x1xf32>
    %17 = mlx.multiply %6, %16 : tensor<1x1x512xf32>, tensor<1x1x512xf32>
    %18 = mlx.astype %17 : tensor<1x1x512xf32> to bf16
    %19 = mlx.broadcast_to %arg6 {shape = array<i64: 1, 1, 512>} : tensor<512xbf16>
    %20 = mlx.multiply %18, %19 : tensor<1x1x512xbf16>, tensor<1x1x512xbf16>
    %21 = mlx.flatten %20 {end_axis = 1 : i64} : tensor<1x1x512xbf16>
    %22 = mlx.matmul %21, %arg9 : tensor<1x512xbf16>, tensor<512x512xbf16>
    %23 = mlx.unflatten %22 {axis = 0 : i64, shape = array<i64: 1, 1>} : tensor<1x512xbf16>
    %24 = mlx.reshape %23 {shape = array<i64: 1, 1, 4, 128>} : tensor<1x1x512xbf16>
    %25 = mlx.transpose %24 {axes = array<i64: 0, 2, 1, 3>} : tensor<1x1x4x128xbf16>
    %26 = mlx.slice %25 {start = array<i64: 0, 0, 0, 0>, stop = array<i64: 1, 4, 1, 64>, strides = array<i64: 1, 1, 1, 1>} : tensor<1x4x1x128xbf16>
    %27 = mlx.arange {start = 0.000000e+00 : f64, stop = 1.000000e+00 : f64} : tensor<1xf32>
    %28 = mlx.astype %arg1 : tensor<i32> to f32
    %29 = mlx.broadcast_to %28 {shape = array<i64: 1>} : tensor<f32>
    %30 = mlx.add %27, %29 : tensor<1xf32>, tensor<1xf32>
    %31 = mlx.constant dense<1.000000e+00> : tensor<f32>
    %32 = mlx.broadcast_to %31 {shape = array<i64: 1>} : tensor<f32>
    %33 = mlx.multiply %30, %32 : tensor<1xf32>, tensor<1xf32>
    %34 = mlx.expand_dims %33 {axes = array<i64: 1>} : tensor<1xf32>
    %35 = mlx.broadcast_to %34 {shape = array<i64: 1, 64>} : tensor<1x1xf32>
    %36 = mlx.arange {start = 0.000000e+00 : f64, step = -1.000000e+00 : f64, stop = -6.400000e+01 : f64} : tensor<64xf32>
    %37 = mlx.constant dense<0.14391157> : tensor<f32>
    %38 = mlx.broadcast_to %37 {shape = array<i64: 64>} : tensor<f32>
    %39 = mlx.multiply %36, %38 : tensor<64xf32>, tensor<64xf32>
    %40 = mlx.exp %39 : tensor<64xf32>
    %41 = mlx.broadcast_to %40 {shape = array<i64: 1, 64>} : tensor<64xf32>
    %42 = mlx.multiply %35, %41 : tensor<1x64xf32>, tensor<1x64xf32>
    %43 = mlx.cos %42 : tensor<1x64xf32>
    %44 = mlx.astype %43 : tensor<1x64xf32> to bf16
    %45 = mlx.broadcast_to %44 {shape = array<i64: 1, 4, 1, 64>} : tensor<1x64xbf16>
    %46 = mlx.multiply %26, %45 : tensor<1x4x1x64xbf16>, tensor<1x4x1x64xbf16>
    %47 = mlx.slice %25 {start = array<i64: 0, 0, 0, 64>, stop = array<i64: 1, 4, 1, 128>, strides = array<i64: 1, 1, 1, 1>} : tensor<1x4x1x128xbf16>
    %48 = mlx.sin %42 : tensor<1x64xf32>
    %49 = mlx.astype %48 : tensor<1x64xf32> to bf16
    %50 = mlx.broadcast_to %49 {shape = array<i64: 1, 4, 1, 64>} : tensor<1x64xbf16>
    %51 = mlx.multiply %47, %50 : tensor<1x4x1x64xbf16>, tensor<1x4x1x64xbf16>
    %52 = mlx.subtract %46, %51 : tensor<1x4x1x64xbf16>, tensor<1x4x1x64xbf16>
    %53 = mlx.multiply %26, %50 : tensor<1x4x1x64xbf16>, tensor<1x4x1x64xbf16>
    %54 = mlx.multiply %47, %45 : tensor<1x4x1x64xbf16>, tensor<1x4x1x64xbf16>
    %55 = mlx.add %53, %54 : tensor<1x4x1x64xbf16>, tensor<1x4x1x64xbf16>
    %56 = mlx.concatenate %52, %55 {axis = 3 : i64} : tensor<1x4x1x64xbf16>, tensor<1x4x1x64xbf16>
    %57 = mlx.multiply %5, %56 : tensor<1x4x1x128xbf16>, tensor<1x4x1x128xbf16>
    %58 = mlx.matmul %21, %arg5 : tensor<1x512xbf16>, tensor<512x512xbf16>
    %59 = mlx.unflatten %58 {axis = 0 : i64, shape = array<i64: 1, 1>} : tensor<1x512xbf16>
    %60 = mlx.reshape %59 {shape = array<i64: 1, 1, 4, 128>} : tensor<1x1x512xbf16>
    %61 = mlx.transpose %60 {axes = array<i64: 0, 2, 1, 3>} : tensor<1x1x4x128xbf16>
    %62 = mlx.slice %61 {start = array<i64: 0, 0, 0, 0>, stop = array<i64: 1, 4, 1, 64>, strides = array<i64: 1, 1, 1, 1>} : tensor<1x4x1x128xbf16>
    %63 = mlx.arange {start = 0.000000e+00 : f64, stop = 1.000000e+00 : f64} : tensor<1xf32>
    %64 = mlx.add %63, %29 : tensor<1xf32>, tensor<1xf32>
    %65 = mlx.multiply %64, %32 : tensor<1xf32>, tensor<1xf32>
    %66 = mlx.expand_dims %65 {axes = array<i64: 1>} : tensor<1xf32>
    %67 = mlx.broadcast_to %66 {shape = array<i64: 1, 64>} : tensor<1x1xf32>
    %68 = mlx.arange {start = 0.000000e+00 : f64, step = -1.000000e+00 : f64, stop = -6.400000e+01 : f64} : tensor<64xf32>
    %69 = mlx.multiply %68, %38 : tensor<64xf32>, tensor<64xf32>
    %70 = mlx.exp %69 : tensor<64xf32>
    %71 = mlx.broadcast_to %70 {shape = array<i64: 1, 64>} : tensor<64xf32>
    %72 = mlx.multiply %67, %71 : tensor<1x64xf32>, tensor<1x64xf32>
    %73 = mlx.cos %72 : tensor<1x64xf32>
    %74 = mlx.astype %73 : tensor<1x64xf32> to bf16
    %75 = mlx.broadcast_to %74 {shape = array<i64: 1, 4, 1, 64>} : tensor<1x64xbf16>
    %76 = mlx.multiply %62, %75 : tensor<1x4x1x64xbf16>, tensor<1x4x1x64xbf16>
    %77 = mlx.slice %61 {start = array<i64: 0, 0, 0, 64>, stop = array<i64: 1, 4, 1, 128>, strides = array<i64: 1, 1, 1, 1>} : tensor<1x4x1x128xbf16>
    %78 = mlx.sin %72 : tensor<1x64xf32>
    %79 = mlx.astype %78 : tensor<1x64xf32> to bf16
    %80 = mlx.broadcast_to %79 {shape = array<i64: 1, 4, 1, 64>} : tensor<1x64xbf16>
    %81 = mlx.multiply %77, %80 : tensor<1x4x1x64xbf16>, tensor<1x4x1x64xbf16>
    %82 = mlx.subtract %76, %81 : tensor<1x4x1x64xbf16>, tensor<1x4x1x64xbf16>
    %83 = mlx.multiply %62, %80 : tensor<1x4x1x64xbf16>, tensor<1x4x1x64xbf16>
    %84 = mlx.multiply %77, %75 : tensor<1x4x1x64xbf16>, tensor<1x4x1x64xbf16>
    %85 = mlx.add %83, %84 : tensor<1x4x1x64xbf16>, tensor<1x4x1x64xbf16>
    %86 = mlx.concatenate %82, %85 {axis = 3 : i64} : tensor<1x4x1x64xbf16>, tensor<1x4x1x64xbf16>
    %87 = mlx.reshape %arg1 {shape = array<i64: 1>} : tensor<i32>
    %88 = mlx.dynamic_slice_update %arg0, %86, %87 {axes = array<i64: 2>} : tensor<1x4x1025x128xbf16>, tensor<1x4x1x128xbf16>, tensor<1xi32>
    %89 = mlx.transpose %88 {axes = array<i64: 0, 1, 3, 2>} : tensor<1x4x1025x128xbf16>
    %90 = mlx.matmul %57, %89 : tensor<1x4x1x128xbf16>, tensor<1x4x128x1025xbf16>
    %91 = mlx.constant dense<-3.389530e+38> : tensor<bf16>
    %92 = mlx.broadcast_to %91 {shape = array<i64: 1, 4, 1, 1025>} : tensor<bf16>
    %93 = mlx.select %3, %90, %92 : tensor<1x4x1x1025xi1>, tensor<1x4x1x1025xbf16>, tensor<1x4x1x1025xbf16>
    %94 = mlx.softmax %93 {axes = array<i64: 3>, precise = true} : tensor<1x4x1x1025xbf16>
    %95 = mlx.matmul %21, %arg11 : tensor<1x512xbf16>, tensor<512x512xbf16>
    %96 = mlx.unflatten %95 {axis = 0 : i64, shape = array<i64: 1, 1>} : tensor<1x512xbf16>
    %97 = mlx.reshape %96 {shape = array<i64: 1, 1, 4, 128>} : tensor<1x1x512xbf16>
    %98 = mlx.transpose %97 {axes = array<i64: 0, 2, 1, 3>} : tensor<1x1x4x128xbf16>
    %99 = mlx.dynamic_slice_update %arg2, %98, %87 {axes = array<i64: 2>} : tensor<1x4x1025x128xbf16>, tensor<1x4x1x128xbf16>, tensor<1xi32>
    %100 = mlx.matmul %94, %99 : tensor<1x4x1x1025xbf16>, tensor<1x4x1025x128xbf16>
    %101 = mlx.transpose %100 {axes = array<i64: 0, 2, 1, 3>} : tensor<1x4x1x128xbf16>
    %102 = mlx.reshape %101 {shape = array<i64: 1, 1, 512>} : tensor<1x1x4x128xbf16>
    %103 = mlx.flatten %102 {end_axis = 1 : i64} : tensor<1x1x512xbf16>
    %104 = mlx.matmul %103, %arg8 : tensor<1x512xbf16>, tensor<512x512xbf16>
    %105 = mlx.unflatten %104 {axis = 0 : i64, shape = array<i64: 1, 1>} : tensor<1x512xbf16>
    %106 = mlx.add %arg12, %105 : tensor<1x1x512xbf16>, tensor<1x1x512xbf16>
    %107 = mlx.astype %106 : tensor<1x1x512xbf16> to f32
    %108 = mlx.square %107 : tensor<1x1x512xf32>
    %109 = mlx.sum %108 {axes = array<i64: 2>, keepdims = true} : tensor<1x1x512xf32>
    %110 = mlx.multiply %109, %10 : tensor<1x1x1xf32>, tensor<1x1x1xf32>
    %111 = mlx.add %110, %13 : tensor<1x1x1xf32>, tensor<1x1x1xf32>
    %112 = mlx.rsqrt %111 : tensor<1x1x1xf32>
    %113 = mlx.broadcast_to %112 {shape = array<i64: 1, 1, 512>} : tensor<1x1x1xf32>
    %114 = mlx.multiply %107, %113 : tensor<1x1x512xf32>, tensor<1x1x512xf32>
    %115 = mlx.astype %114 : tensor<1x1x512xf32> to bf16
    %116 = mlx.broadcast_to %arg7 {shape = array<i64: 1, 1, 512>} : tensor<512xbf16>
    %117 = mlx.multiply %115, %116 : tensor<1x1x512xbf16>, tensor<1x1x512xbf16>
    %118 = mlx.flatten %117 {end_axis = 1 : i64} : tensor<1x1x512xbf16>
    %119 = mlx.matmul %118, %arg4 : tensor<1x512xbf16>, tensor<512x1024xbf16>
    %120 = mlx.unflatten %119 {axis = 0 : i64, shape = array<i64: 1, 1>} : tensor<1x1024xbf16>
    %121 = mlx.sigmoid %120 : tensor<1x1x1024xbf16>
    %122 = mlx.multiply %120, %121 : tensor<1x1x1024xbf16>, tensor<1x1x1024xbf16>
    %123 = mlx.matmul %118, %arg10 : tensor<1x512xbf16>, tensor<512x1024xbf16>
    %124 = mlx.unflatten %123 {axis = 0 : i64, shape = array<i64: 1, 1>} : tensor<1x1024xbf16>
    %125 = mlx.multiply %122, %124 : tensor<1x1x1024xbf16>, tensor<1x1x1024xbf16>
    %126 = mlx.flatten %125 {end_axis = 1 : i64} : tensor<1x1x1024xbf16>
    %127 = mlx.matmul %126, %arg3 : tensor<1x1024xbf16>, tensor<1024x512xbf16>
    %128 = mlx.unflatten %127 {axis = 0 : i64, shape = array<i64: 1, 1>} : tensor<1x512xbf16>
    %129 = mlx.add %106, %128 : tensor<1x1x512xbf16>, tensor<1x1x512xbf16>
    return %129, %88, %99 : tensor<1x1x512xbf16>, tensor<1x4x1025x128xbf16>, tensor<1x4x1025x128xbf16>
  }
}
