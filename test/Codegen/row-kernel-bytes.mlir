// RUN: mlxc %s --target=cuda --gpu-arch=sm_90 --emit=ptx -o - | FileCheck %s --check-prefix=PTX
// RUN: mlxc %s --target=cuda --gpu-arch=sm_90 --emit=llvm -o - | FileCheck %s --check-prefix=LAUNCH

// Enough rows to fill the GPU: a row kernel takes the fewest threads that
// keep at most 64 bytes of the row a thread (four 16-byte loads), so more
// elements share each reduction. bfloat16 rows of 4096: 128 threads of 32
// elements; float32 rows of 4096: 256 threads of 16. Each element is read
// once and written once.
// PTX-LABEL: .entry mlxc_graph_cuda_softmaxes_kernel(
// PTX-COUNT-4: ld.global.v4.b32
// PTX-NOT: ld.global
// PTX-COUNT-4: st.global.v4.b32
// PTX-NOT: st.global
// PTX: ret;
// PTX-LABEL: .entry mlxc_graph_cuda_softmaxes_kernel_0(
// PTX-COUNT-4: ld.global.v4.b32
// PTX-NOT: ld.global
// PTX-COUNT-4: st.global.v4.b32
// PTX-NOT: st.global
// PTX: ret;
// LAUNCH: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 4096, i64 1, i64 1, i64 128, i64 1, i64 1,
// LAUNCH: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 4096, i64 1, i64 1, i64 256, i64 1, i64 1,
func.func @softmaxes(%a: tensor<4096x4096xbf16> {mlx.name = "a"},
                     %b: tensor<4096x4096xf32> {mlx.name = "b"})
    -> (tensor<4096x4096xbf16>, tensor<4096x4096xf32>) {
  %x = mlx.softmax %a {axes = array<i64: -1>} : tensor<4096x4096xbf16>
  %y = mlx.softmax %b {axes = array<i64: -1>} : tensor<4096x4096xf32>
  return %x, %y : tensor<4096x4096xbf16>, tensor<4096x4096xf32>
}
