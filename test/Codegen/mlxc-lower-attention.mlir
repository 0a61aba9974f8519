// RUN: mlx-opt %s --mlxc-lower-attention --split-input-file --verify-diagnostics | FileCheck %s

// kernel.attention on buffers becomes one gpu.launch: a block of 128
// threads per 64 queries of a head, the key and value tiles in 16 KiB of
// dynamic shared memory each, the fragments read with ldmatrix and
// multiplied by the warp MMA (both defined per chip later). The layout
// copies around it (MLX's [B, L, H, D] <-> [B, H, L, D] transposes) become
// strided views: the value is read through its transpose's source, the
// output written into its transpose's destination.
// CHECK-DAG: llvm.func @mlxc_ldmatrix_x4(i64) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-DAG: llvm.func @mlxc_ldmatrix_x4_trans(i64) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-DAG: llvm.func @mlxc_mma_m16n8k16_bf16(i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-LABEL: func.func @attention
// CHECK-NOT: linalg.transpose
// CHECK: %[[V:.*]] = memref.transpose %arg2 (d0, d1, d2, d3) -> (d0, d2, d1, d3) : memref<1x128x2x128xbf16> to memref<1x2x128x128xbf16, strided<[32768, 128, 256, 1]>>
// CHECK: %[[O:.*]] = memref.transpose %arg3 (d0, d1, d2, d3) -> (d0, d2, d1, d3)
// CHECK: %[[SMEM:.*]] = arith.constant 32768 : i32
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c2{{.*}}, {{.*}} = %c2{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c128{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) dynamic_shared_memory_size %[[SMEM]]
// CHECK: gpu.dynamic_shared_memory
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK: llvm.call @mlxc_ldmatrix_x4(
// CHECK: llvm.call @mlxc_mma_m16n8k16_bf16(
// CHECK: arith.cmpi ule
// CHECK: math.exp2
// CHECK: gpu.shuffle xor
// CHECK: llvm.call @mlxc_ldmatrix_x4_trans(
// CHECK: gpu.barrier
// CHECK: scf.yield
// CHECK: vector.store {{.*}}, %[[O]]
// CHECK: gpu.terminator
// CHECK-NOT: linalg.transpose
func.func @attention(%q: memref<1x2x128x128xbf16>, %k: memref<1x2x128x128xbf16>,
                     %vt: memref<1x128x2x128xbf16>, %out: memref<1x128x2x128xbf16>) {
  %v = memref.alloc() : memref<1x2x128x128xbf16>
  linalg.transpose ins(%vt : memref<1x128x2x128xbf16>) outs(%v : memref<1x2x128x128xbf16>) permutation = [0, 2, 1, 3]
  %o = memref.alloc() : memref<1x2x128x128xbf16>
  kernel.attention %q, %k, %v into %o {causal, scale = 0.125 : f64} : memref<1x2x128x128xbf16>, memref<1x2x128x128xbf16>, memref<1x2x128x128xbf16>, memref<1x2x128x128xbf16>
  linalg.transpose ins(%o : memref<1x2x128x128xbf16>) outs(%out : memref<1x128x2x128xbf16>) permutation = [0, 2, 1, 3]
  memref.dealloc %v : memref<1x2x128x128xbf16>
  memref.dealloc %o : memref<1x2x128x128xbf16>
  return
}

// -----

// A copy whose result is also read elsewhere stays.
// CHECK-LABEL: func.func @shared_copy
// CHECK: linalg.transpose
// CHECK: gpu.launch
func.func @shared_copy(%q: memref<1x2x64x64xf16>, %k: memref<1x2x64x64xf16>,
                       %vt: memref<1x64x2x64xf16>, %out: memref<1x2x64x64xf16>, %also: memref<1x2x64x64xf16>) {
  %v = memref.alloc() : memref<1x2x64x64xf16>
  linalg.transpose ins(%vt : memref<1x64x2x64xf16>) outs(%v : memref<1x2x64x64xf16>) permutation = [0, 2, 1, 3]
  kernel.attention %q, %k, %v into %out {scale = 0.125 : f64} : memref<1x2x64x64xf16>, memref<1x2x64x64xf16>, memref<1x2x64x64xf16>, memref<1x2x64x64xf16>
  memref.copy %v, %also : memref<1x2x64x64xf16> to memref<1x2x64x64xf16>
  return
}

// -----

// A head dimension the kernel does not take is a diagnostic, not a crash.
func.func @bad_head_dim(%q: memref<1x2x64x32xbf16>, %k: memref<1x2x64x32xbf16>,
                        %v: memref<1x2x64x32xbf16>, %out: memref<1x2x64x32xbf16>) {
  // expected-error@+1 {{has no flash-attention kernel}}
  kernel.attention %q, %k, %v into %out {scale = 0.125 : f64} : memref<1x2x64x32xbf16>, memref<1x2x64x32xbf16>, memref<1x2x64x32xbf16>, memref<1x2x64x32xbf16>
  return
}
