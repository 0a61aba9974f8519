// RUN: mlx-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(mlx-memory-placement))" | FileCheck %s
// RUN: mlx-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(mlx-memory-placement{prefetch=false}))" | FileCheck %s --check-prefix=NOPF
// RUN: mlx-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(mlx-memory-placement{stream-io=false}))" | FileCheck %s --check-prefix=NOSTREAM

// A buffer that host code reads is unified; it goes to the device before
// the kernel that writes it and comes back before the host load. The output
// argument is written by the host only, so it never moves.
// CHECK-LABEL: func.func @host_visible(
// CHECK-SAME:    mlx.device_arena_bytes = 0 : i64
// CHECK-SAME:    mlx.prefetches = 2 : i64
// CHECK-SAME:    mlx.unified_arena_bytes = 256 : i64
// CHECK-SAME:    mlx.unreused_bytes = 256 : i64
// CHECK:         %[[UNI:.+]] = memref.alloc() : memref<256xi8>
// CHECK:         %[[A:.+]] = memref.view %[[UNI]][%{{.+}}][] : memref<256xi8> to memref<4xf32>
// CHECK:         %[[D:.+]] = arith.constant 1 : i32
// CHECK-NEXT:    call @mlxrt_prefetch(%{{.+}}, %{{.+}}, %[[D]])
// CHECK-NEXT:    gpu.launch_func @k::@fill {{.+}} args(%[[A]] : memref<4xf32>)
// CHECK:         %[[H:.+]] = arith.constant 0 : i32
// CHECK-NEXT:    call @mlxrt_prefetch(%{{.+}}, %{{.+}}, %[[H]])
// CHECK-NEXT:    memref.load %[[A]]
// CHECK-NOT:     mlxrt_prefetch
// CHECK:         memref.dealloc %[[UNI]]
// CHECK-NEXT:    return
// NOPF-LABEL:  func.func @host_visible(
// NOPF-SAME:     mlx.prefetches = 0 : i64
// NOPF-NOT:      mlxrt_prefetch
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @host_visible(%out: memref<f32> {bufferize.result}) {
    %a = memref.alloc() : memref<4xf32>
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    %c0 = arith.constant 0 : index
    %v = memref.load %a[%c0] : memref<4xf32>
    memref.store %v, %out[] : memref<f32>
    memref.dealloc %a : memref<4xf32>
    return
  }
}

// -----

// Kernel-only buffers share a device arena; b starts after a's last use, so
// it reuses a's offset. A constant read by a kernel gets a device copy at
// the start. Inputs go to the device before their first kernel, the output
// comes back at the end.
// CHECK-LABEL: func.func @device_only(
// CHECK-SAME:    %[[IN:[^:]+]]: memref<64xf32>, %[[OUT:[^:]+]]: memref<64xf32>)
// CHECK-SAME:    mlx.device_arena_bytes = 512 : i64
// CHECK-SAME:    mlx.unified_arena_bytes = 0 : i64
// CHECK-SAME:    mlx.unreused_bytes = 768 : i64
// CHECK:         %[[DEV:.+]], %{{.+}} = gpu.alloc async [%{{.+}}] () : memref<512xi8>
// CHECK:         %[[CG:.+]] = memref.get_global @table
// CHECK:         %[[C:.+]] = memref.view %[[DEV]][%c256{{.*}}][] : memref<512xi8> to memref<64xf32>
// CHECK:         gpu.memcpy async [%{{.+}}] %[[C]], %[[CG]]
// CHECK:         %[[A:.+]] = memref.view %[[DEV]][%c0{{.*}}][] : memref<512xi8> to memref<64xf32>
// CHECK:         %[[B:.+]] = memref.view %[[DEV]][%c0{{.*}}][] : memref<512xi8> to memref<64xf32>
// CHECK:         memref.extract_aligned_pointer_as_index %[[IN]]
// CHECK:         call @mlxrt_prefetch
// CHECK-NEXT:    gpu.launch_func @k::@op {{.+}} args(%[[IN]] : memref<64xf32>, %[[C]] : memref<64xf32>, %[[A]] : memref<64xf32>)
// CHECK:         gpu.launch_func @k::@op {{.+}} args(%[[A]] : memref<64xf32>, %[[C]] : memref<64xf32>, %[[OUT]] : memref<64xf32>)
// CHECK:         gpu.launch_func @k::@op {{.+}} args(%[[IN]] : memref<64xf32>, %[[C]] : memref<64xf32>, %[[B]] : memref<64xf32>)
// CHECK:         gpu.launch_func @k::@op {{.+}} args(%[[B]] : memref<64xf32>, %[[C]] : memref<64xf32>, %[[OUT]] : memref<64xf32>)
// CHECK:         memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK:         call @mlxrt_prefetch
// CHECK:         gpu.dealloc async [%{{.+}}] %[[DEV]]
// CHECK-NEXT:    gpu.wait
// CHECK-NEXT:    return
module attributes {gpu.container_module} {
  memref.global "private" constant @table : memref<64xf32> = dense<1.0>
  gpu.module @k {
    gpu.func @op(%x: memref<64xf32>, %y: memref<64xf32>, %z: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func @device_only(%in: memref<64xf32>, %out: memref<64xf32> {bufferize.result}) {
    %c1 = arith.constant 1 : index
    %c = memref.get_global @table : memref<64xf32>
    %a = memref.alloc() : memref<64xf32>
    %b = memref.alloc() : memref<64xf32>
    gpu.launch_func @k::@op blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%in : memref<64xf32>, %c : memref<64xf32>, %a : memref<64xf32>)
    gpu.launch_func @k::@op blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>, %c : memref<64xf32>, %out : memref<64xf32>)
    gpu.launch_func @k::@op blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%in : memref<64xf32>, %c : memref<64xf32>, %b : memref<64xf32>)
    gpu.launch_func @k::@op blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<64xf32>, %c : memref<64xf32>, %out : memref<64xf32>)
    memref.dealloc %a : memref<64xf32>
    memref.dealloc %b : memref<64xf32>
    return
  }
}

// -----

// Streaming: an input and an output that one loop-free kernel alone touches
// stay in host memory (placement 3), with no migration either way. An input
// a loop kernel reads migrates (1); an output first written by a kernel is
// placed without its dead contents (2) and comes back (0) at the end.
// CHECK-LABEL: func.func @streamed(
// CHECK-SAME:    mlx.prefetches = 5 : i64
// CHECK-SAME:    mlx.streamed_buffers = 2 : i64
// CHECK:         %[[S1:.+]] = arith.constant 3 : i32
// CHECK-NEXT:    call @mlxrt_prefetch(%{{.+}}, %{{.+}}, %[[S1]])
// CHECK:         %[[S2:.+]] = arith.constant 3 : i32
// CHECK-NEXT:    call @mlxrt_prefetch(%{{.+}}, %{{.+}}, %[[S2]])
// CHECK-NEXT:    gpu.launch_func @k::@scale {{.+}} args(%arg0 : memref<4xf32>, %arg2 : memref<4xf32>)
// CHECK:         %[[MOVE:.+]] = arith.constant 1 : i32
// CHECK-NEXT:    call @mlxrt_prefetch(%{{.+}}, %{{.+}}, %[[MOVE]])
// CHECK:         %[[DISCARD:.+]] = arith.constant 2 : i32
// CHECK-NEXT:    call @mlxrt_prefetch(%{{.+}}, %{{.+}}, %[[DISCARD]])
// CHECK-NEXT:    gpu.launch_func @k::@sum
// CHECK:         %[[BACK:.+]] = arith.constant 0 : i32
// CHECK-NEXT:    call @mlxrt_prefetch(%{{.+}}, %{{.+}}, %[[BACK]])
// CHECK-NEXT:    return
// NOSTREAM-LABEL: func.func @streamed(
// NOSTREAM-SAME:    mlx.prefetches = 6 : i64
// NOSTREAM-SAME:    mlx.streamed_buffers = 0 : i64
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @scale(%x: memref<4xf32>, %y: memref<4xf32>) kernel {
      gpu.return
    }
    gpu.func @sum(%x: memref<4xf32>, %y: memref<f32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      scf.for %i = %c0 to %c4 step %c1 {
        %v = memref.load %x[%i] : memref<4xf32>
        memref.store %v, %y[] : memref<f32>
      }
      gpu.return
    }
  }
  func.func @streamed(%a: memref<4xf32>, %b: memref<4xf32>,
                      %y: memref<4xf32> {bufferize.result},
                      %s: memref<f32> {bufferize.result}) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>, %y : memref<4xf32>)
    gpu.launch_func @k::@sum blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<4xf32>, %s : memref<f32>)
    return
  }
}
