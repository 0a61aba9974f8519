// RUN: mlx-opt %s --mlxc-lower-attention --split-input-file --verify-diagnostics | FileCheck %s

// kernel.attention on buffers becomes one gpu.launch: a block of 128
// threads per 64 queries of a head, in a 1-D grid that walks a section of
// heads query tile by query tile (block id -> section, then tile and head
// within it), the key and value tiles in 16 KiB of
// dynamic shared memory each, copied there asynchronously (cp.async), the
// fragments read with ldmatrix and multiplied by the warp MMA (all defined
// per chip later). Each key tile: wait for the keys, start the values' copy,
// the scores and softmax; wait for the values, start the next keys' copy
// (but after the last tile), P.V. The kernel asks for three blocks a SM.
// The layout copies around it (MLX's [B, L, H, D] <-> [B, H, L, D]
// transposes) become strided views: the value is read through its
// transpose's source, the output written into its transpose's destination.
// CHECK-DAG: llvm.func @mlxc_ldmatrix_x4(i64) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-DAG: llvm.func @mlxc_ldmatrix_x4_trans(i64) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-DAG: llvm.func @mlxc_mma_m16n8k16_bf16(i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-DAG: llvm.func @mlxc_cp_async_16(i64, i64)
// CHECK-DAG: llvm.func @mlxc_cp_async_wait_all()
// CHECK-DAG: llvm.func @mlxc_min_blocks_per_sm(i32)
// CHECK-LABEL: func.func @attention
// CHECK-NOT: linalg.transpose
// CHECK: %[[V:.*]] = memref.transpose %arg2 (d0, d1, d2, d3) -> (d0, d2, d1, d3) : memref<1x128x2x128xbf16> to memref<1x2x128x128xbf16, strided<[32768, 128, 256, 1]>>
// CHECK: %[[O:.*]] = memref.transpose %arg3 (d0, d1, d2, d3) -> (d0, d2, d1, d3)
// CHECK: %[[SMEM:.*]] = arith.constant 32768 : i32
// CHECK: gpu.launch blocks(%[[BID:.*]], %{{.*}}, %{{.*}}) in ({{.*}} = %c4{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c128{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) dynamic_shared_memory_size %[[SMEM]]
// CHECK: %[[THREE:.*]] = arith.constant 3 : i32
// CHECK: llvm.call @mlxc_min_blocks_per_sm(%[[THREE]])
// CHECK: %[[SECTION:.*]] = arith.divui %[[BID]], %[[SECTION_BLOCKS:.*]] : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[SECTION]], %{{.*}} : index
// CHECK: %[[IN:.*]] = arith.remui %[[BID]], %[[SECTION_BLOCKS]] : index
// CHECK: %[[LEFT:.*]] = arith.subi %{{.*}}, %[[FIRST]] : index
// CHECK: %[[WIDTH:.*]] = arith.minui %{{.*}}, %[[LEFT]] : index
// CHECK: %[[PAIR:.*]] = arith.remui %[[IN]], %[[WIDTH]] : index
// CHECK: arith.addi %[[FIRST]], %[[PAIR]] : index
// CHECK: arith.divui %[[IN]], %[[WIDTH]] : index
// CHECK: gpu.dynamic_shared_memory
// CHECK: memref.extract_aligned_pointer_as_index %arg1
// CHECK: memref.extract_aligned_pointer_as_index %[[V]]
// CHECK-COUNT-8: llvm.call @mlxc_cp_async_16(
// CHECK: scf.for
// CHECK: llvm.call @mlxc_cp_async_wait_all()
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-8: llvm.call @mlxc_cp_async_16(
// CHECK: llvm.call @mlxc_ldmatrix_x4(
// CHECK: llvm.call @mlxc_mma_m16n8k16_bf16(
// CHECK: arith.cmpi ule
// CHECK: math.exp2
// CHECK: gpu.shuffle xor
// CHECK: llvm.call @mlxc_cp_async_wait_all()
// CHECK-NEXT: gpu.barrier
// CHECK: arith.cmpi ult
// CHECK-NEXT: scf.if
// CHECK-COUNT-8: llvm.call @mlxc_cp_async_16(
// CHECK: }
// CHECK: llvm.call @mlxc_ldmatrix_x4_trans(
// CHECK-NOT: gpu.barrier
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

// Keys and values of 8 MiB a head: sections of two heads (16 MiB), each
// walked query tile by query tile, the causal tiles last to first.
// CHECK-LABEL: func.func @long_keys_sections
// CHECK: gpu.launch blocks(%[[BID:.*]], %{{.*}}, %{{.*}}) in ({{.*}} = %c8{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})
// CHECK: %[[SECTION:.*]] = arith.divui %[[BID]], %c4{{.*}} : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[SECTION]], %c2{{.*}} : index
// CHECK: %[[IN:.*]] = arith.remui %[[BID]], %c4{{.*}} : index
// CHECK: %[[LEFT:.*]] = arith.subi %c4{{.*}}, %[[FIRST]] : index
// CHECK: %[[WIDTH:.*]] = arith.minui %c2{{.*}}, %[[LEFT]] : index
// CHECK: %[[TILE:.*]] = arith.divui %[[IN]], %[[WIDTH]] : index
// CHECK: arith.subi %c1{{.*}}, %[[TILE]] : index
func.func @long_keys_sections(%q: memref<1x4x128x128xbf16>, %k: memref<1x4x16384x128xbf16>,
                              %v: memref<1x4x16384x128xbf16>, %out: memref<1x4x128x128xbf16>) {
  kernel.attention %q, %k, %v into %out {causal, scale = 0.125 : f64} : memref<1x4x128x128xbf16>, memref<1x4x16384x128xbf16>, memref<1x4x16384x128xbf16>, memref<1x4x128x128xbf16>
  return
}

// -----

// Lengths that are no multiple of the 64-row tiles (a prompt of 100 tokens,
// 130 keys): 2 query tiles per head; the last one reads query 99 again for
// its rows past the end and stores only the rows before it; 3 key tiles at
// most, the last one reading key 129 again for its rows past the end and
// giving their scores -inf after the causal mask.
// CHECK-LABEL: func.func @ragged_causal
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c4{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})
// CHECK: %[[LASTQ:.*]] = arith.constant 99 : index
// CHECK-NEXT: arith.minui %{{.*}}, %[[LASTQ]] : index
// CHECK: arith.minui %{{.*}}, %c3{{.*}} : index
// CHECK: %[[LASTK:.*]] = arith.constant 129 : index
// CHECK: arith.minui %{{.*}}, %[[LASTK]] : index
// CHECK: llvm.call @mlxc_cp_async_16(
// CHECK: scf.for
// CHECK: arith.cmpi ule
// CHECK: %[[KEYS:.*]] = arith.constant 130 : index
// CHECK-NEXT: %[[PARTIAL:.*]] = arith.cmpi uge, %{{.*}}, %[[KEYS]] : index
// CHECK-NEXT: scf.if %[[PARTIAL]]
// CHECK: arith.cmpi ult, %{{.*}}, %c130{{.*}} : index
// CHECK: math.exp2
// CHECK: %[[QUERIES:.*]] = arith.constant 100 : index
// CHECK-NEXT: %[[INSIDE:.*]] = arith.cmpi ult, %{{.*}}, %[[QUERIES]] : index
// CHECK-NEXT: scf.if %[[INSIDE]]
// CHECK: vector.store
func.func @ragged_causal(%q: memref<1x2x100x64xbf16>, %k: memref<1x2x130x64xbf16>,
                         %v: memref<1x2x130x64xbf16>, %out: memref<1x2x100x64xbf16>) {
  kernel.attention %q, %k, %v into %out {causal, scale = 0.125 : f64} : memref<1x2x100x64xbf16>, memref<1x2x130x64xbf16>, memref<1x2x130x64xbf16>, memref<1x2x100x64xbf16>
  return
}

// A mask over ragged lengths is read at the last query and key for the
// rows and keys past the end.
// CHECK-LABEL: func.func @ragged_mask
// CHECK: scf.for
// CHECK: llvm.call @mlxc_mma_m16n8k16_f16(
// CHECK: %[[LASTK:.*]] = arith.constant 89 : index
// CHECK-NEXT: %[[KEY:.*]] = arith.minui %{{.*}}, %[[LASTK]] : index
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: memref.load %arg3[%c0{{.*}}, %c0{{.*}}, %{{.*}}, %[[KEY]]] : memref<1x1x70x90xf16>
// CHECK: arith.cmpi uge, %{{.*}}, %c90{{.*}} : index
func.func @ragged_mask(%q: memref<1x2x70x128xf16>, %k: memref<1x2x90x128xf16>,
                       %v: memref<1x2x90x128xf16>, %m: memref<1x1x70x90xf16>, %out: memref<1x2x70x128xf16>) {
  kernel.attention %q, %k, %v mask(%m : memref<1x1x70x90xf16>) into %out {scale = 0.125 : f64} : memref<1x2x70x128xf16>, memref<1x2x90x128xf16>, memref<1x2x90x128xf16>, memref<1x2x70x128xf16>
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

// A shape neither kernel takes (head dim 32 with 64 queries) is a
// diagnostic, not a crash.
func.func @bad_head_dim(%q: memref<1x2x64x32xbf16>, %k: memref<1x2x64x32xbf16>,
                        %v: memref<1x2x64x32xbf16>, %out: memref<1x2x64x32xbf16>) {
  // expected-error@+1 {{has no flash-attention or split-key kernel}}
  kernel.attention %q, %k, %v into %out {scale = 0.125 : f64} : memref<1x2x64x32xbf16>, memref<1x2x64x32xbf16>, memref<1x2x64x32xbf16>, memref<1x2x64x32xbf16>
  return
}

// -----

// A decode step (one query per head against 2049 keys, a boolean mask of the
// keys) becomes the split-key kernel: 17 chunks of 128 keys for each of the
// 32 heads (a grid of 17 x 32 blocks of 128 threads), the chunk's scores,
// the threads' weighted value rows, the rows' max and sum and the arrival
// flag in shared memory; the chunks' partials in float32 buffers that the
// last block of each head (an atomic count in @mlxc_attention_counts, one
// per head) adds up into the output.
// CHECK: memref.global "private" @mlxc_attention_counts : memref<32xi32> = dense<0>
// CHECK-LABEL: func.func @decode
// CHECK-DAG: %[[STATS:.*]] = memref.alloc() : memref<32x17x2xf32>
// CHECK-DAG: %[[ROWS:.*]] = memref.alloc() : memref<32x17x128xf32>
// Chunks of two steps (128 keys): the value rows are loaded step by step
// after the scores.
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c17{{.*}}, {{.*}} = %c32{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c128{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) workgroup(%{{.*}} : memref<1x128xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x1x128xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<1x2xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<1xi32, #gpu.address_space<workgroup>>)
// CHECK-NOT: vector.load %arg2
// CHECK: scf.for
// CHECK: vector.load %arg1{{.*}} : memref<1x32x2049x128xbf16>, vector<8xbf16>
// CHECK: gpu.shuffle xor
// CHECK: memref.load %arg3{{.*}} : memref<1x1x1x2049xi1>
// CHECK: gpu.barrier
// CHECK: math.exp2
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: vector.load %arg2{{.*}} : memref<1x32x2049x128xbf16>, vector<8xbf16>
// CHECK: vector.fma
// CHECK: memref.store {{.*}}, %[[ROWS]]
// CHECK: nvvm.memory.barrier <gpu>
// CHECK: memref.get_global @mlxc_attention_counts
// CHECK: memref.atomic_rmw addi
// CHECK: memref.load %[[STATS]]
// CHECK: arith.truncf {{.*}} : f32 to bf16
// CHECK: memref.store {{.*}}, %arg4
// CHECK: gpu.terminator
// CHECK-DAG: memref.dealloc %[[STATS]]
// CHECK-DAG: memref.dealloc %[[ROWS]]
func.func @decode(%q: memref<1x32x1x128xbf16>, %k: memref<1x32x2049x128xbf16>,
                  %v: memref<1x32x2049x128xbf16>, %mask: memref<1x1x1x2049xi1>,
                  %out: memref<1x32x1x128xbf16>) {
  kernel.attention %q, %k, %v mask(%mask : memref<1x1x1x2049xi1>) into %out {scale = 0.088 : f64} : memref<1x32x1x128xbf16>, memref<1x32x2049x128xbf16>, memref<1x32x2049x128xbf16>, memref<1x32x1x128xbf16>
  return
}

// -----

// Four query heads per key head (grouped-query) share a block, which reads
// each key once for all four: 16 key heads, each in 24 chunks of 32 keys.
// f32 rows are read 4 elements (16 bytes) at a time, 32 lanes per row of
// 128; the causal mask compares each key with the query's last visible one.
// A chunk is one step here: each thread loads its 8 value rows with its
// key rows, before the scores, and the P.V loop only adds them.
// CHECK-LABEL: func.func @grouped_f32
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c24{{.*}}, {{.*}} = %c16{{.*}}, {{.*}} = %c1{{.*}}) threads
// CHECK-SAME: memref<4x32xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-8: vector.load %arg2{{.*}} : memref<1x16x768x128xf32>, vector<4xf32>
// CHECK: scf.for
// CHECK: vector.load %arg1{{.*}} : memref<1x16x768x128xf32>, vector<4xf32>
// CHECK: arith.cmpi ule
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK-NOT: vector.load %arg2
// CHECK: vector.fma
func.func @grouped_f32(%q: memref<1x64x1x128xf32>, %k: memref<1x16x768x128xf32>,
                       %v: memref<1x16x768x128xf32>, %out: memref<1x64x1x128xf32>) {
  kernel.attention %q, %k, %v into %out {causal, scale = 0.088 : f64} : memref<1x64x1x128xf32>, memref<1x16x768x128xf32>, memref<1x16x768x128xf32>, memref<1x64x1x128xf32>
  return
}

// -----

// Keys that fit one chunk per block need no partials: the block divides by
// the sum and writes the output itself; no count is taken.
// CHECK-LABEL: func.func @one_chunk
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c512{{.*}}, {{.*}} = %c1{{.*}})
// CHECK-NOT: memref.atomic_rmw
// CHECK: arith.divf
// CHECK: memref.store {{.*}}, %arg3
// CHECK-NOT: memref.atomic_rmw
// CHECK: gpu.terminator
func.func @one_chunk(%q: memref<4x128x1x64xf16>, %k: memref<4x128x40x64xf16>,
                     %v: memref<4x128x40x64xf16>, %out: memref<4x128x1x64xf16>) {
  kernel.attention %q, %k, %v into %out {scale = 0.125 : f64} : memref<4x128x1x64xf16>, memref<4x128x40x64xf16>, memref<4x128x40x64xf16>, memref<4x128x1x64xf16>
  return
}

// -----

// A prefill with a boolean mask (broadcast over batch and heads) and sinks
// takes the flash-attention kernel: each row's online softmax starts from
// its head's sink (max = sink, sum 1 in the quad's first lane), and each
// score reads its mask entry and keeps or drops it.
// CHECK-LABEL: func.func @flash_mask_sinks
// CHECK: gpu.launch
// CHECK: %[[SINK:.*]] = memref.load %arg4[%{{.*}}] : memref<4xbf16>
// CHECK: %[[SINKF:.*]] = arith.extf %[[SINK]] : bf16 to f32
// CHECK: %[[SUM:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: scf.for {{.*}} iter_args({{.*}}%{{.*}} = %[[SINKF]], %{{.*}} = %[[SINKF]], %{{.*}} = %[[SUM]], %{{.*}} = %[[SUM]]
// CHECK: llvm.call @mlxc_mma_m16n8k16_bf16(
// CHECK: %[[M:.*]] = memref.load %arg3[%c0{{.*}}, %c0{{.*}}, %{{.*}}, %{{.*}}] : memref<1x1x64x128xi1>
// CHECK: arith.select %[[M]], %{{.*}}, %{{.*}} : f32
// CHECK: math.exp2
func.func @flash_mask_sinks(%q: memref<1x4x64x64xbf16>, %k: memref<1x2x128x64xbf16>,
                            %v: memref<1x2x128x64xbf16>, %mask: memref<1x1x64x128xi1>,
                            %sinks: memref<4xbf16>, %out: memref<1x4x64x64xbf16>) {
  kernel.attention %q, %k, %v mask(%mask : memref<1x1x64x128xi1>) sinks(%sinks : memref<4xbf16>) into %out {scale = 0.125 : f64} : memref<1x4x64x64xbf16>, memref<1x2x128x64xbf16>, memref<1x2x128x64xbf16>, memref<1x4x64x64xbf16>
  return
}

// -----

// An additive mask is added to the scores; a row whose scores so far are
// all -inf shifts its exponentials by 0 (not NaN).
// CHECK-LABEL: func.func @flash_additive
// CHECK: scf.for
// CHECK: %[[M:.*]] = memref.load %arg3[%{{.*}}, %c0{{.*}}, %{{.*}}, %{{.*}}] : memref<2x1x64x64xf16>
// CHECK: %[[MF:.*]] = arith.extf %[[M]] : f16 to f32
// CHECK: arith.addf %{{.*}}, %[[MF]] : f32
// CHECK: %[[INF:.*]] = arith.cmpf oeq, %{{.*}}, %cst{{.*}} : f32
// CHECK: arith.select %[[INF]], %{{.*}}, %{{.*}} : f32
// CHECK: math.exp2
func.func @flash_additive(%q: memref<2x2x64x64xf16>, %k: memref<2x2x64x64xf16>,
                          %v: memref<2x2x64x64xf16>, %mask: memref<2x1x64x64xf16>,
                          %out: memref<2x2x64x64xf16>) {
  kernel.attention %q, %k, %v mask(%mask : memref<2x1x64x64xf16>) into %out {scale = 0.125 : f64} : memref<2x2x64x64xf16>, memref<2x2x64x64xf16>, memref<2x2x64x64xf16>, memref<2x2x64x64xf16>
  return
}

// -----

// A decode step with sinks: the last block of a row group starts the
// chunks' max from the row's sink and their sum from the sink's weight.
// CHECK-LABEL: func.func @decode_sinks
// CHECK: gpu.launch
// CHECK: memref.atomic_rmw addi
// CHECK: %[[SINK:.*]] = memref.load %arg3[%{{.*}}] : memref<8xbf16>
// CHECK: %[[SINKF:.*]] = arith.extf %[[SINK]] : bf16 to f32
// CHECK: %[[SINK2:.*]] = arith.mulf %[[SINKF]], %{{.*}} : f32
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[SINK2]]) -> (f32)
// CHECK: %[[W:.*]] = math.exp2
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[W]], %{{.*}} = %cst{{.*}}) -> (f32, f32)
func.func @decode_sinks(%q: memref<1x8x1x64xbf16>, %k: memref<1x2x2048x64xbf16>,
                        %v: memref<1x2x2048x64xbf16>, %sinks: memref<8xbf16>,
                        %out: memref<1x8x1x64xbf16>) {
  kernel.attention %q, %k, %v sinks(%sinks : memref<8xbf16>) into %out {scale = 0.125 : f64} : memref<1x8x1x64xbf16>, memref<1x2x2048x64xbf16>, memref<1x2x2048x64xbf16>, memref<1x8x1x64xbf16>
  return
}
