// RUN: mlx-opt %s --mlxc-cluster-ops --split-input-file --verify-diagnostics | FileCheck %s

// From sm_90 on, the cluster functions are a cluster barrier and a mapa
// into the other block's shared memory, inlined into their kernels, and a
// kernel that asks for clusters of 8 gets that cluster shape.
// CHECK-LABEL: gpu.module @sm90
// CHECK: llvm.func internal @mlxc_cluster_rows(%{{.*}}: i32) -> i1
// CHECK-SAME: passthrough = ["alwaysinline"]
// CHECK: %[[TRUE:.*]] = llvm.mlir.constant(true) : i1
// CHECK: llvm.return %[[TRUE]]
// CHECK: llvm.func internal @mlxc_cluster_sync()
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK: nvvm.cluster.wait {aligned}
// CHECK: llvm.func internal @mlxc_cluster_load_f32(%[[ADDR:.*]]: i64, %[[RANK:.*]]: i32) -> f32
// CHECK: %[[LOCAL:.*]] = llvm.inttoptr %[[ADDR]] : i64 to !llvm.ptr<3>
// CHECK: %[[REMOTE:.*]] = nvvm.mapa %[[LOCAL]], %[[RANK]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: llvm.load %[[REMOTE]] : !llvm.ptr<7> -> f32
// CHECK: llvm.func @row(%{{.*}}: i64) attributes {gpu.kernel, nvvm.cluster_dim = array<i32: 8, 1, 1>, nvvm.kernel}
// CHECK: llvm.func @other() attributes {gpu.kernel, nvvm.kernel}
gpu.module @sm90 [#nvvm.target<chip = "sm_90">] {
  llvm.func @mlxc_cluster_rows(i32) -> i1
  llvm.func @mlxc_cluster_sync()
  llvm.func @mlxc_cluster_load_f32(i64, i32) -> f32
  llvm.func @row(%addr: i64) attributes {gpu.kernel, nvvm.kernel} {
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c3 = llvm.mlir.constant(3 : i32) : i32
    %asked = llvm.call @mlxc_cluster_rows(%c8) : (i32) -> i1
    llvm.call @mlxc_cluster_sync() : () -> ()
    %v = llvm.call @mlxc_cluster_load_f32(%addr, %c3) : (i64, i32) -> f32
    llvm.return
  }
  llvm.func @other() attributes {gpu.kernel, nvvm.kernel} {
    llvm.return
  }
}

// -----

// Older chips have no clusters: the kernel is told so and takes its other
// path; the barrier is empty and the load reads the block's own memory.
// CHECK-LABEL: gpu.module @sm70
// CHECK: llvm.func internal @mlxc_cluster_rows
// CHECK: %[[FALSE:.*]] = llvm.mlir.constant(false) : i1
// CHECK: llvm.return %[[FALSE]]
// CHECK: llvm.func internal @mlxc_cluster_sync()
// CHECK-NEXT: llvm.return
// CHECK: llvm.func internal @mlxc_cluster_load_bf16
// CHECK-NOT: nvvm.mapa
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> bf16
// CHECK-NOT: nvvm.cluster_dim
gpu.module @sm70 [#nvvm.target<chip = "sm_70">] {
  llvm.func @mlxc_cluster_rows(i32) -> i1
  llvm.func @mlxc_cluster_sync()
  llvm.func @mlxc_cluster_load_bf16(i64, i32) -> bf16
  llvm.func @row() attributes {gpu.kernel, nvvm.kernel} {
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %asked = llvm.call @mlxc_cluster_rows(%c8) : (i32) -> i1
    llvm.return
  }
}

// -----

gpu.module @size_unknown [#nvvm.target<chip = "sm_90">] {
  llvm.func @mlxc_cluster_rows(i32) -> i1
  llvm.func @row(%size: i32) attributes {gpu.kernel, nvvm.kernel} {
    // expected-error @below {{asks for clusters of other than one constant size of 2 to 8 blocks}}
    %asked = llvm.call @mlxc_cluster_rows(%size) : (i32) -> i1
    llvm.return
  }
}

// -----

gpu.module @wrong_type [#nvvm.target<chip = "sm_90">] {
  // expected-error @below {{is not a cluster function mlxc defines}}
  llvm.func @mlxc_cluster_load_f32(i32, i32) -> f32
}
