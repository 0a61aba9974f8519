// RUN: mlx-opt %s --mlxc-chip-variants='chip=sm_90' | FileCheck %s
// RUN: mlx-opt %s --mlxc-chip-variants | FileCheck %s --check-prefix=NONE
// RUN: not mlx-opt %s --mlxc-chip-variants='chip=sm_70' 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not mlx-opt %s --mlxc-chip-variants='chip=compute_90' 2>&1 | FileCheck %s --check-prefix=BAD

// Each lowered gpu.module gains a clone for the cubin's chip, beside it
// and unchanged but for its name and target; the host still launches the
// sm_70 module. Without a chip nothing is cloned; a chip older than sm_75
// or not an sm_ name is an error naming it.
// CHECK-LABEL: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_70">]
// CHECK: llvm.fptrunc %{{.*}} : f32 to bf16
// CHECK-LABEL: gpu.module @kernels_sm_90 [#nvvm.target<O = 3, chip = "sm_90">]
// CHECK: llvm.fptrunc %{{.*}} : f32 to bf16
// CHECK-LABEL: gpu.module @more [#nvvm.target<O = 3, chip = "sm_70">]
// CHECK-LABEL: gpu.module @more_sm_90 [#nvvm.target<O = 3, chip = "sm_90">]
// CHECK: gpu.launch_func @kernels::@round
// NONE-NOT: _sm_
// OLD: error: mlxc-chip-variants: chip must be sm_75 or newer, got 'sm_70'
// BAD: error: mlxc-chip-variants: chip must be sm_75 or newer, got 'compute_90'
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_70">] {
    llvm.func @round(%arg0: !llvm.ptr, %arg1: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %0 = llvm.load %arg0 : !llvm.ptr -> f32
      %1 = llvm.fptrunc %0 : f32 to bf16
      llvm.store %1, %arg1 : bf16, !llvm.ptr
      llvm.return
    }
  }
  gpu.module @more [#nvvm.target<O = 3, chip = "sm_70">] {
    llvm.func @copy(%arg0: !llvm.ptr, %arg1: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %0 = llvm.load %arg0 : !llvm.ptr -> f32
      llvm.store %0, %arg1 : f32, !llvm.ptr
      llvm.return
    }
  }
  llvm.func @host(%p: !llvm.ptr, %q: !llvm.ptr) {
    %one = llvm.mlir.constant(1 : index) : i64
    gpu.launch_func @kernels::@round blocks in (%one, %one, %one) threads in (%one, %one, %one) : i64 args(%p : !llvm.ptr, %q : !llvm.ptr)
    llvm.return
  }
}
