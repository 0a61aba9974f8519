// The plan for a chain of three products whose last result is also summed on
// the host (a reduction to a scalar runs as a host loop):
//   - a and b only feed kernels: the device arena holds them side by side
//     (their lifetimes overlap); c is read by the host loop, so it lives in
//     the unified arena.
//   - prefetches: inputs go to the device before their first kernel, the
//     unified buffer comes back to the host before the host loop, and the
//     output goes to the device before the kernel that writes it and back
//     to the host at the end.
// RUN: mlx-opt %s --pass-pipeline="builtin.module(mlxc-linalg-pipeline,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},canonicalize,buffer-results-to-out-params{hoist-static-allocs modify-public-functions add-result-attr},buffer-deallocation-pipeline,canonicalize,mlxc-copy-to-linalg,convert-linalg-to-parallel-loops,mlxc-tile-parallel-loops,canonicalize,func.func(gpu-map-parallel-loops),convert-parallel-loops-to-gpu,gpu-kernel-outlining,canonicalize,func.func(mlx-memory-placement))" | FileCheck %s

// CHECK:       func.func private @mlxrt_prefetch(i64, i64, i32)
// CHECK-LABEL: func.func @chain(
// CHECK-SAME:    %[[X:[^:]+]]: memref<64x64xf32>, %{{[^:]+}}: memref<64x64xf32>, %{{[^:]+}}: memref<64x64xf32>, %{{[^:]+}}: memref<64x64xf32>, %[[OUT:[^:]+]]: memref<64x64xf32>, %[[SUM:[^:]+]]: memref<f32>)
// Peak bytes: 2 device buffers of 16 KiB, 1 unified; 3 x 16 KiB without reuse.
// CHECK-SAME:    mlx.device_arena_bytes = 32768 : i64
// CHECK-SAME:    mlx.unified_arena_bytes = 16384 : i64
// CHECK-SAME:    mlx.unreused_bytes = 49152 : i64
// CHECK:         %[[DEV:.+]], %{{.+}} = gpu.alloc async [%{{.+}}] () : memref<32768xi8>
// CHECK:         %[[UNI:.+]] = memref.alloc() : memref<16384xi8>
// Every buffer is a view at its offset in an arena; c's accumulator (in the
// unified arena) goes to the device before the kernel that fills it.
// CHECK:         %[[C:.+]] = memref.view %[[UNI]][%{{.+}}][] : memref<16384xi8> to memref<1x64x64xf32>
// CHECK:         memref.extract_aligned_pointer_as_index %[[UNI]]
// CHECK:         call @mlxrt_prefetch(%{{.+}}, %{{.+}}, %c1_i32{{.*}})
// CHECK:         gpu.launch_func @chain_kernel::@chain_kernel {{.+}} %[[C]] : memref<1x64x64xf32>
// CHECK:         memref.view %[[DEV]][%c0{{.*}}][] : memref<32768xi8> to memref<1x64x64xf32>
// The input goes to the device before the first kernel that reads it.
// CHECK:         memref.extract_aligned_pointer_as_index %[[X]]
// CHECK:         call @mlxrt_prefetch(%{{.+}}, %{{.+}}, %c1_i32{{.*}})
// CHECK:         gpu.launch_func @chain_kernel_1::@chain_kernel
// CHECK:         memref.view %[[DEV]][%c16384{{.*}}][] : memref<32768xi8> to memref<1x64x64xf32>
// Before the host loop reads the unified buffer, it comes back to the host.
// CHECK:         memref.extract_aligned_pointer_as_index %[[UNI]]
// CHECK-NEXT:    arith.index_cast
// CHECK-NEXT:    arith.constant 16384 : i64
// CHECK-NEXT:    %[[HOST:.+]] = arith.constant 0 : i32
// CHECK-NEXT:    call @mlxrt_prefetch(%{{.+}}, %{{.+}}, %[[HOST]])
// CHECK-NEXT:    scf.for
// The output returns to the host before the function ends.
// CHECK:         gpu.launch_func @chain_kernel_5::@chain_kernel {{.+}} %[[OUT]] : memref<64x64xf32>
// CHECK:         memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK:         call @mlxrt_prefetch
// CHECK:         gpu.dealloc async [%{{.+}}] %[[DEV]]
// CHECK:         memref.dealloc %[[UNI]]
// CHECK-NEXT:    return
func.func @chain(%x: tensor<64x64xf32>, %w1: tensor<64x64xf32>, %w2: tensor<64x64xf32>, %w3: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<f32>) {
  %a = mlx.matmul %x, %w1 : tensor<64x64xf32>, tensor<64x64xf32>
  %b = mlx.matmul %a, %w2 : tensor<64x64xf32>, tensor<64x64xf32>
  %c = mlx.matmul %b, %w3 : tensor<64x64xf32>, tensor<64x64xf32>
  %s = mlx.sum %c : tensor<64x64xf32>
  return %c, %s : tensor<64x64xf32>, tensor<f32>
}

// Four products, all on the device. CSE leaves one zero-filled buffer that
// seeds every accumulator and finally holds d, so it lives throughout; a
// and c never live at the same time, so c takes a's place: three 16 KiB
// slots instead of four.
// CHECK-LABEL: func.func @reuse(
// CHECK-SAME:    mlx.device_arena_bytes = 49152 : i64
// CHECK-SAME:    mlx.unified_arena_bytes = 0 : i64
// CHECK-SAME:    mlx.unreused_bytes = 65536 : i64
// CHECK:         %[[DEV:.+]], %{{.+}} = gpu.alloc async
// CHECK-NOT:     memref.alloc
// CHECK:         %[[ZERO:.+]] = memref.view %[[DEV]][%c0{{.*}}][]
// CHECK:         %[[A:.+]] = memref.view %[[DEV]][%c16384{{.*}}][]
// CHECK:         gpu.launch_func @reuse_kernel_6::@reuse_kernel {{.+}} %[[ZERO]] : memref<1x64x64xf32>, %[[A]] : memref<1x64x64xf32>)
// CHECK:         %[[B:.+]] = memref.view %[[DEV]][%c32768{{.*}}][]
// CHECK:         %[[C:.+]] = memref.view %[[DEV]][%c16384{{.*}}][]
// CHECK:         gpu.dealloc
func.func @reuse(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = mlx.matmul %x, %w : tensor<64x64xf32>, tensor<64x64xf32>
  %b = mlx.matmul %a, %w : tensor<64x64xf32>, tensor<64x64xf32>
  %c = mlx.matmul %b, %w : tensor<64x64xf32>, tensor<64x64xf32>
  %d = mlx.matmul %c, %w : tensor<64x64xf32>, tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
