// RUN: mlx-opt %s --mlxc-dedup-kernels | FileCheck %s

// Equal GPU kernels (a model's layers) keep one gpu.func: @b's launch moves
// to @a. A kernel with other types (@d) or another body (@c) stays.
// CHECK-LABEL: gpu.module @kernels
// CHECK: gpu.func @a(
// CHECK-NOT: gpu.func @b(
// CHECK: gpu.func @c(
// CHECK: gpu.func @d(
// CHECK-LABEL: func.func @graph
// CHECK: gpu.launch_func @kernels::@a {{.*}} args(%arg0 : memref<4xf32>)
// CHECK: gpu.launch_func @kernels::@a {{.*}} args(%arg1 : memref<4xf32>)
// CHECK: gpu.launch_func @kernels::@c {{.*}} args(%arg1 : memref<4xf32>)
// CHECK: gpu.launch_func @kernels::@d {{.*}} args(%arg2 : memref<8xf32>)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @a(%arg0: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %arg0[%c0] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %arg0[%c0] : memref<4xf32>
      gpu.return
    }
    gpu.func @b(%arg0: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %arg0[%c0] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %arg0[%c0] : memref<4xf32>
      gpu.return
    }
    gpu.func @c(%arg0: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %arg0[%c0] : memref<4xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %arg0[%c0] : memref<4xf32>
      gpu.return
    }
    gpu.func @d(%arg0: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %arg0[%c0] : memref<8xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %arg0[%c0] : memref<8xf32>
      gpu.return
    }
  }
  func.func @graph(%x: memref<4xf32>, %y: memref<4xf32>, %z: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @kernels::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%y : memref<4xf32>)
    gpu.launch_func @kernels::@c blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%y : memref<4xf32>)
    gpu.launch_func @kernels::@d blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%z : memref<8xf32>)
    return
  }

  // Outlined CPU kernels: @k1 and @k2 are equal, @k3 has another constant.
  // CHECK: func.func private @k1(
  // CHECK-NOT: func.func private @k2(
  // CHECK: func.func private @k3(
  // CHECK-LABEL: func.func @cpu_graph
  // CHECK-NEXT: call @k1(%arg0)
  // CHECK-NEXT: call @k1(%arg1)
  // CHECK-NEXT: call @k3(%arg1)
  func.func private @k1(%arg0: memref<4xf32>) attributes {mlx.cpu_kernel} {
    %c = arith.constant 2.0 : f32
    linalg.fill ins(%c : f32) outs(%arg0 : memref<4xf32>)
    return
  }
  func.func private @k2(%arg0: memref<4xf32>) attributes {mlx.cpu_kernel} {
    %c = arith.constant 2.0 : f32
    linalg.fill ins(%c : f32) outs(%arg0 : memref<4xf32>)
    return
  }
  func.func private @k3(%arg0: memref<4xf32>) attributes {mlx.cpu_kernel} {
    %c = arith.constant 3.0 : f32
    linalg.fill ins(%c : f32) outs(%arg0 : memref<4xf32>)
    return
  }
  func.func @cpu_graph(%x: memref<4xf32>, %y: memref<4xf32>) {
    call @k1(%x) : (memref<4xf32>) -> ()
    call @k2(%y) : (memref<4xf32>) -> ()
    call @k3(%y) : (memref<4xf32>) -> ()
    return
  }
}
