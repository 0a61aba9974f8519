// RUN: mlx-opt %s --mlxc-warp-matrix-ops --split-input-file | FileCheck %s

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
