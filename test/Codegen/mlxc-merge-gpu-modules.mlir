// RUN: mlx-opt %s --mlxc-merge-gpu-modules | FileCheck %s

// Three modules of outlined kernels become the first one: a clashing kernel
// name gets a suffix, the launches follow, an equal global is kept once,
// and workgroup buffers get a 16-byte alignment.
// CHECK-LABEL: func.func @f
// CHECK: gpu.launch_func @k0::@kernel blocks
// CHECK: gpu.launch_func @k0::@kernel_0 blocks
// CHECK: gpu.launch_func @k0::@other blocks
// CHECK: gpu.module @k0 {
// CHECK-COUNT-1: memref.global "private" constant @table
// CHECK: gpu.func @kernel(
// CHECK: gpu.func @kernel_0({{.*}}workgroup(%{{.*}} : memref<32xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: gpu.func @other(
// CHECK-NOT: gpu.module

module attributes {gpu.container_module} {
  func.func @f(%m: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k0::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32>)
    gpu.launch_func @k1::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32>)
    gpu.launch_func @k2::@other blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32>)
    return
  }
  gpu.module @k0 {
    memref.global "private" constant @table : memref<4xf32> = dense<1.0>
    gpu.func @kernel(%m: memref<16xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @k1 {
    memref.global "private" constant @table : memref<4xf32> = dense<1.0>
    gpu.func @kernel(%m: memref<16xf32>) workgroup(%w: memref<32xf32, #gpu.address_space<workgroup>>) kernel {
      gpu.return
    }
  }
  gpu.module @k2 {
    gpu.func @other(%m: memref<16xf32>) kernel {
      gpu.return
    }
  }
}
