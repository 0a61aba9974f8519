// RUN: mlxc %s --target=cuda --gpu-arch=sm_90 --emit=ptx -o - | FileCheck %s --check-prefix=PTX
// RUN: mlxc %s --target=cuda --gpu-arch=sm_90 --emit=llvm -o - | FileCheck %s --check-prefix=LAUNCH

// A decode step's product with an nn.Linear weight ([out, in]) is a row
// reduction alone in its kernel: it is a row kernel with 16-byte loads of
// both operands, every load of a lane's row issued at once (before, a
// lone reduction was mapped one bf16 load at a time).
// PTX-LABEL: .entry mlxc_graph_cuda_linear_and_down_kernel(
// PTX-COUNT-2: ld.global.v4.b32
// PTX-NOT: ld.global.b16
// PTX: ret;

// The down projection's rows, 5632 bf16: 704 groups of 8 do not split over
// 512 threads; 352 threads (11 warps) take 2 groups each, as vectors (not
// 512 threads of 11 scalar loads).
// PTX-LABEL: .entry mlxc_graph_cuda_linear_and_down_kernel_0(
// PTX-COUNT-4: ld.global.v4.b32
// PTX-NOT: ld.global.b16
// PTX: ret;
// LAUNCH: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 64, i64 1, i64 1, i64 32, i64 8, i64 1,
// LAUNCH: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 512, i64 1, i64 1, i64 352, i64 1, i64 1,
func.func @linear_and_down(%x: tensor<1x256xbf16> {mlx.name = "x"},
                           %w: tensor<512x256xbf16> {mlx.name = "w"},
                           %h: tensor<1x5632xbf16> {mlx.name = "h"},
                           %d: tensor<512x5632xbf16> {mlx.name = "d"})
    -> (tensor<1x512xbf16>, tensor<1x512xbf16>) {
  %wt = mlx.transpose %w {axes = array<i64: 1, 0>} : tensor<512x256xbf16>
  %y = mlx.matmul %x, %wt : tensor<1x256xbf16>, tensor<256x512xbf16>
  %dt = mlx.transpose %d {axes = array<i64: 1, 0>} : tensor<512x5632xbf16>
  %z = mlx.matmul %h, %dt : tensor<1x5632xbf16>, tensor<5632x512xbf16>
  return %y, %z : tensor<1x512xbf16>, tensor<1x512xbf16>
}
