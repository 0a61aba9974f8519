// RUN: mlx-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(mlx-memory-placement))" | FileCheck %s

// A buffer whose address goes to a device call (marked mlx.device_access) is
// device memory, live until the call: the two intermediates get different
// offsets of the device arena although the address of %c is taken after
// the last kernel use of %b. Nothing on the host touches a buffer: the
// function is capturable. The input goes to the device before the call.
// CHECK-LABEL: func.func @device_call(
// CHECK-SAME:    mlx.capturable
// CHECK-SAME:    mlx.device_arena_bytes = 512 : i64
// CHECK-SAME:    mlx.unified_arena_bytes = 0 : i64
// CHECK:         %[[ARENA:[^,]+]], %{{.+}} = gpu.alloc async
// CHECK-DAG:     %[[OFF0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[OFF256:.+]] = arith.constant 256 : index
// CHECK-DAG:     memref.view %[[ARENA]][%[[OFF0]]][] : memref<512xi8> to memref<4x4xf32>
// CHECK-DAG:     memref.view %[[ARENA]][%[[OFF256]]][] : memref<512xi8> to memref<4x4xf32>
// CHECK:         memref.extract_aligned_pointer_as_index %arg0 : memref<4x4xf32> -> index {mlx.device_access}
// CHECK:         %[[TODEV:.+]] = arith.constant 1 : i32
// CHECK-NEXT:    call @mlxrt_prefetch(%{{.+}}, %{{.+}}, %[[TODEV]])
// CHECK-NEXT:    call @mlxrt_matmul(
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%m: memref<4x4xf32>) kernel {
      gpu.return
    }
  }
  func.func private @mlxrt_matmul(i64, i64, i64)
  func.func @device_call(%in: memref<4x4xf32>, %out: memref<4x4xf32> {bufferize.result}) {
    %b = memref.alloc() : memref<4x4xf32>
    %c = memref.alloc() : memref<4x4xf32>
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<4x4xf32>)
    %pa = memref.extract_aligned_pointer_as_index %in : memref<4x4xf32> -> index {mlx.device_access}
    %pb = memref.extract_aligned_pointer_as_index %b : memref<4x4xf32> -> index {mlx.device_access}
    %pc = memref.extract_aligned_pointer_as_index %c : memref<4x4xf32> -> index {mlx.device_access}
    %a64 = arith.index_cast %pa : index to i64
    %b64 = arith.index_cast %pb : index to i64
    %c64 = arith.index_cast %pc : index to i64
    call @mlxrt_matmul(%a64, %b64, %c64) : (i64, i64, i64) -> ()
    gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%c : memref<4x4xf32>)
    gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<4x4xf32>)
    memref.dealloc %b : memref<4x4xf32>
    memref.dealloc %c : memref<4x4xf32>
    return
  }
}

// -----

// The same address taken without the marker is host code: the buffer is
// unified and the function is not capturable.
// CHECK-LABEL: func.func @host_pointer(
// CHECK-NOT:     mlx.capturable
// CHECK-SAME:    mlx.unified_arena_bytes = 256 : i64
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%m: memref<4x4xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(i64)
  func.func @host_pointer(%out: memref<4x4xf32> {bufferize.result}) {
    %b = memref.alloc() : memref<4x4xf32>
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<4x4xf32>)
    %pb = memref.extract_aligned_pointer_as_index %b : memref<4x4xf32> -> index
    %b64 = arith.index_cast %pb : index to i64
    call @use(%b64) : (i64) -> ()
    gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<4x4xf32>)
    memref.dealloc %b : memref<4x4xf32>
    return
  }
}

// -----

// An output argument that host code writes: not capturable.
// CHECK-LABEL: func.func @host_store(
// CHECK-NOT:     mlx.capturable
// CHECK-SAME:    mlx.device_arena_bytes
func.func @host_store(%out: memref<f32> {bufferize.result}) {
  %v = arith.constant 1.0 : f32
  memref.store %v, %out[] : memref<f32>
  return
}

// -----

// Addresses stored into a host array (alloca) that the call is given (the
// grouped products of mlxrt_matmul) count at the call: %b, whose address is
// stored before %c's, still gets its own offset, and the function stays
// capturable (the host writes only its stack).
// CHECK-LABEL: func.func @address_array(
// CHECK-SAME:    mlx.capturable
// CHECK-SAME:    mlx.device_arena_bytes = 512 : i64
// CHECK-DAG:     memref.view %{{.+}}[%{{.+}}][] : memref<512xi8> to memref<4x4xf32>
// CHECK-DAG:     memref.view %{{.+}}[%{{.+}}][] : memref<512xi8> to memref<4x4xf32>
// CHECK:         call @mlxrt_matmul(
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%m: memref<4x4xf32>) kernel {
      gpu.return
    }
  }
  func.func private @mlxrt_matmul(i64)
  func.func @address_array(%out: memref<4x4xf32> {bufferize.result}) {
    %b = memref.alloc() : memref<4x4xf32>
    %c = memref.alloc() : memref<4x4xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<4x4xf32>)
    %array = memref.alloca() : memref<2xi64>
    %pb = memref.extract_aligned_pointer_as_index %b : memref<4x4xf32> -> index {mlx.device_access}
    %b64 = arith.index_cast %pb : index to i64
    memref.store %b64, %array[%c0] : memref<2xi64>
    %pc = memref.extract_aligned_pointer_as_index %c : memref<4x4xf32> -> index {mlx.device_access}
    %c64 = arith.index_cast %pc : index to i64
    memref.store %c64, %array[%c1] : memref<2xi64>
    %pa = memref.extract_aligned_pointer_as_index %array : memref<2xi64> -> index
    %a64 = arith.index_cast %pa : index to i64
    call @mlxrt_matmul(%a64) : (i64) -> ()
    gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%c : memref<4x4xf32>)
    gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<4x4xf32>)
    memref.dealloc %b : memref<4x4xf32>
    memref.dealloc %c : memref<4x4xf32>
    return
  }
}
