// RUN: mlx-opt %s --mlxc-chip-variants='chip=sm_90' --mlxc-grid-dependent-launch | FileCheck %s
// RUN: mlx-opt %s --mlxc-grid-dependent-launch | FileCheck %s --check-prefix=PTX70
// RUN: mlx-opt %s --mlxc-chip-variants='chip=sm_90' --mlxc-grid-dependent-launch='enable=false' | FileCheck %s --check-prefix=OFF

// The sm_70 module loses the wait a split product placed; in the sm_90
// clone every kernel whose launches have at most 540672 threads (two waves
// of the H200) starts with launch_dependents, gains a wait where none was
// placed, and is named in the module's list that the runtime reads (empty
// in the sm_70 module). A larger or unlaunched kernel is left as in the
// sm_70 module.
// CHECK-LABEL: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_70">]
// CHECK-NEXT: llvm.mlir.global external constant @mlxc_grid_dependent_kernels("\00") {addr_space = 1 : i32
// CHECK-NOT: griddepcontrol
// CHECK-LABEL: gpu.module @kernels_sm_90 [#nvvm.target<O = 3, chip = "sm_90">]
// CHECK-NEXT: llvm.mlir.global external constant @mlxc_grid_dependent_kernels("elementwise\00product\00\00") {addr_space = 1 : i32
// CHECK-LABEL: llvm.func @elementwise
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NEXT: llvm.load
// CHECK-LABEL: llvm.func @product
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: llvm.load %arg0
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NEXT: llvm.load %arg1
// CHECK-LABEL: llvm.func @large
// CHECK-NOT: griddepcontrol
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @helper
// CHECK-NOT: griddepcontrol
// CHECK: llvm.return

// PTX70-NOT: griddepcontrol
// PTX70-NOT: _sm_90
// PTX70: @mlxc_grid_dependent_kernels("\00")

// Turned off (--no-grid-dependent-launch), the sm_90 clone is stripped too.
// OFF-LABEL: gpu.module @kernels_sm_90 [#nvvm.target<O = 3, chip = "sm_90">]
// OFF-NEXT: @mlxc_grid_dependent_kernels("\00")
// OFF-NOT: griddepcontrol
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_70">] {
    llvm.func @elementwise(%arg0: !llvm.ptr, %arg1: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %0 = llvm.load %arg0 : !llvm.ptr -> f32
      llvm.store %0, %arg1 : f32, !llvm.ptr
      llvm.return
    }
    llvm.func @product(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %0 = llvm.load %arg0 : !llvm.ptr -> f32
      nvvm.griddepcontrol wait
      %1 = llvm.load %arg1 : !llvm.ptr -> f32
      %2 = llvm.fmul %0, %1 : f32
      llvm.store %2, %arg2 : f32, !llvm.ptr
      llvm.return
    }
    llvm.func @large(%arg0: !llvm.ptr, %arg1: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %0 = llvm.load %arg0 : !llvm.ptr -> f32
      nvvm.griddepcontrol wait
      llvm.store %0, %arg1 : f32, !llvm.ptr
      llvm.return
    }
    llvm.func @helper(%arg0: f32) -> f32 {
      llvm.return %arg0 : f32
    }
  }
  llvm.func @host(%p: !llvm.ptr, %q: !llvm.ptr) {
    %one = llvm.mlir.constant(1 : index) : i64
    %blocks = llvm.mlir.constant(8 : index) : i64
    %threads = llvm.mlir.constant(256 : index) : i64
    %many = llvm.mlir.constant(4096 : index) : i64
    gpu.launch_func @kernels::@elementwise blocks in (%blocks, %one, %one) threads in (%threads, %one, %one) : i64 args(%p : !llvm.ptr, %q : !llvm.ptr)
    gpu.launch_func @kernels::@product blocks in (%blocks, %blocks, %one) threads in (%threads, %one, %one) : i64 args(%p : !llvm.ptr, %q : !llvm.ptr, %q : !llvm.ptr)
    gpu.launch_func @kernels::@large blocks in (%many, %one, %one) threads in (%threads, %one, %one) : i64 args(%p : !llvm.ptr, %q : !llvm.ptr)
    llvm.return
  }
}
