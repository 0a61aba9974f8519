// RUN: mlx-opt %s --mlxc-warp-matrix-ops --split-input-file --verify-diagnostics | FileCheck %s

// From sm_80 on, the warp MMA function is one mma.sync on the packed
// fragments; it is inlined into its kernels.
// CHECK-LABEL: gpu.module @sm80
// CHECK: llvm.func internal @mlxc_mma_m16n8k16_bf16(
// CHECK-SAME: passthrough = ["alwaysinline"]
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
// CHECK: llvm.return
gpu.module @sm80 [#nvvm.target<chip = "sm_80">] {
  llvm.func @mlxc_mma_m16n8k16_bf16(i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
}

// -----

// f16 fragments are f16x2 vectors for mma.sync.
// CHECK-LABEL: gpu.module @sm90_f16
// CHECK-COUNT-6: llvm.bitcast %{{.*}} : i32 to vector<2xf16>
// CHECK: nvvm.mma.sync {{.*}} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
gpu.module @sm90_f16 [#nvvm.target<chip = "sm_90">] {
  llvm.func @mlxc_mma_m16n8k16_f16(i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
}

// -----

// The sm_70 PTX (no bf16 tensor cores) computes the product with lane
// shuffles and f32 FMAs: per k-pair step, 4 shuffles of A from the row's
// quad and 2 x 2 of B from the columns' lanes, 16 FMAs; 4 steps.
// CHECK-LABEL: gpu.module @sm70
// CHECK-NOT: nvvm.mma.sync
// CHECK: nvvm.read.ptx.sreg.laneid
// CHECK-COUNT-32: nvvm.shfl.sync idx
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.return
gpu.module @sm70 [#nvvm.target<chip = "sm_70">] {
  llvm.func @mlxc_mma_m16n8k16_bf16(i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
}

// -----

// ldmatrix: from sm_75 on one ldmatrix .x4 (transposed or not) at the
// lane's shared-memory row address.
// CHECK-LABEL: gpu.module @ldmatrix_sm90
// CHECK: llvm.func internal @mlxc_ldmatrix_x4(%[[A:.*]]: i64)
// CHECK: %[[P:.*]] = llvm.inttoptr %[[A]] : i64 to !llvm.ptr<3>
// CHECK: nvvm.ldmatrix %[[P]] {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK: llvm.func internal @mlxc_ldmatrix_x4_trans(
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>
gpu.module @ldmatrix_sm90 [#nvvm.target<chip = "sm_90">] {
  llvm.func @mlxc_ldmatrix_x4(i64) -> !llvm.struct<(i32, i32, i32, i32)>
  llvm.func @mlxc_ldmatrix_x4_trans(i64) -> !llvm.struct<(i32, i32, i32, i32)>
}

// -----

// sm_70 has no ldmatrix: each lane takes its rows' addresses from the lanes
// that hold them: one shuffle and one 4-byte load per matrix, or, for the
// transposed form, two shuffles and two 2-byte loads.
// CHECK-LABEL: gpu.module @ldmatrix_sm70
// CHECK: llvm.func internal @mlxc_ldmatrix_x4(
// CHECK-NOT: nvvm.ldmatrix
// CHECK-COUNT-4: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// CHECK: llvm.return
// CHECK: llvm.func internal @mlxc_ldmatrix_x4_trans(
// CHECK-NOT: nvvm.ldmatrix
// CHECK-COUNT-8: llvm.load {{.*}} : !llvm.ptr<3> -> i16
// CHECK: llvm.return
gpu.module @ldmatrix_sm70 [#nvvm.target<chip = "sm_70">] {
  llvm.func @mlxc_ldmatrix_x4(i64) -> !llvm.struct<(i32, i32, i32, i32)>
  llvm.func @mlxc_ldmatrix_x4_trans(i64) -> !llvm.struct<(i32, i32, i32, i32)>
}

// -----

// Other declarations are left alone.
// CHECK-LABEL: gpu.module @other
// CHECK: llvm.func @__nv_expf(f32) -> f32
gpu.module @other [#nvvm.target<chip = "sm_90">] {
  llvm.func @__nv_expf(f32) -> f32
}

// -----

// From sm_80 on, a tile chunk moves with cp.async (.cg: it skips L1) from
// the generic address's global window, and the wait commits the thread's
// copies and waits for all of them.
// CHECK-LABEL: gpu.module @async_sm90
// CHECK: llvm.func internal @mlxc_cp_async_16(%[[TO:.*]]: i64, %[[FROM:.*]]: i64)
// CHECK-SAME: passthrough = ["alwaysinline"]
// CHECK: %[[DST:.*]] = llvm.inttoptr %[[TO]] : i64 to !llvm.ptr<3>
// CHECK: %[[GEN:.*]] = llvm.inttoptr %[[FROM]] : i64 to !llvm.ptr
// CHECK: %[[SRC:.*]] = llvm.addrspacecast %[[GEN]] : !llvm.ptr to !llvm.ptr<1>
// CHECK: nvvm.cp.async.shared.global %[[DST]], %[[SRC]], 16, cache = cg
// CHECK: llvm.func internal @mlxc_cp_async_wait_all()
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: llvm.return
gpu.module @async_sm90 [#nvvm.target<chip = "sm_90">] {
  llvm.func @mlxc_cp_async_16(i64, i64)
  llvm.func @mlxc_cp_async_wait_all()
}

// -----

// sm_70 has no cp.async: the copy is a 16-byte load and store, done at
// once, and the wait is empty.
// CHECK-LABEL: gpu.module @async_sm70
// CHECK: llvm.func internal @mlxc_cp_async_16(
// CHECK-NOT: nvvm.cp.async
// CHECK: %[[V:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// CHECK: llvm.store %[[V]], %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK: llvm.func internal @mlxc_cp_async_wait_all()
// CHECK-NEXT: llvm.return
gpu.module @async_sm70 [#nvvm.target<chip = "sm_70">] {
  llvm.func @mlxc_cp_async_16(i64, i64)
  llvm.func @mlxc_cp_async_wait_all()
}

// -----

// A kernel that asks for 3 blocks a SM gets nvvm.minctasm = 3; the call and
// the declaration go; other kernels are left alone.
// CHECK-LABEL: gpu.module @blocks_per_sm
// CHECK-NOT: mlxc_min_blocks_per_sm
// CHECK: llvm.func @attention() attributes {gpu.kernel, nvvm.kernel, nvvm.minctasm = 3 : i32}
// CHECK: llvm.return
// CHECK: llvm.func @other() attributes {gpu.kernel, nvvm.kernel}
// CHECK-NOT: mlxc_min_blocks_per_sm
gpu.module @blocks_per_sm [#nvvm.target<chip = "sm_90">] {
  llvm.func @mlxc_min_blocks_per_sm(i32)
  llvm.func @attention() attributes {gpu.kernel, nvvm.kernel} {
    %three = llvm.mlir.constant(3 : i32) : i32
    llvm.call @mlxc_min_blocks_per_sm(%three) : (i32) -> ()
    llvm.return
  }
  llvm.func @other() attributes {gpu.kernel, nvvm.kernel} {
    llvm.return
  }
}

// -----

// The count must be a constant.
gpu.module @blocks_per_sm_unknown [#nvvm.target<chip = "sm_90">] {
  llvm.func @mlxc_min_blocks_per_sm(i32)
  llvm.func @attention(%n: i32) attributes {gpu.kernel, nvvm.kernel} {
    // expected-error @+1 {{asks for other than one constant count of 1 to 32 blocks a SM}}
    llvm.call @mlxc_min_blocks_per_sm(%n) : (i32) -> ()
    llvm.return
  }
}

// -----

// A copy function with the wrong signature is not mlxc's.
gpu.module @async_wrong [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{is not a warp matrix function mlxc defines}}
  llvm.func @mlxc_cp_async_16(i64) -> i32
}
