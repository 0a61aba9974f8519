// RUN: mlx-opt %s --split-input-file --mlxc-split-vector-products | FileCheck %s

// One row times a weight stored [in, out]: one kernel. Its blocks sum
// chunks of k (16-byte rows of w per thread), count themselves per column
// tile, and the last one adds the chunks into the output; the zero fill
// before the product is folded in. The weight is an input that nothing
// writes: its rows are loaded before the wait for the kernel before
// (sm_90's grid-dependent launch; mlxc-grid-dependent-launch drops the wait
// elsewhere), the other operand after it. A block reads at least 16 KiB
// of w (here the whole 12 KiB weight: one chunk).
// CHECK: memref.global "private" @mlxc_split_product_counts : memref<1xi32> = dense<0>
// CHECK-LABEL: func.func @one_row
// CHECK-NOT: linalg.fill
// CHECK: %[[PARTIALS:.*]] = memref.alloc() : memref<1x1x1x96xf32>
// CHECK: gpu.launch
// CHECK: memref.get_global @mlxc_split_product_counts
// CHECK-NOT: memref.load %arg0
// CHECK: vector.load %arg1{{.*}} : memref<1x64x96xbf16>, vector<8xbf16>
// CHECK-NOT: memref.load %arg0
// CHECK: nvvm.griddepcontrol wait
// CHECK-NOT: vector.load %arg1
// CHECK: memref.load %arg0
// CHECK: gpu.barrier
// CHECK: memref.store {{.*}}, %[[PARTIALS]]
// CHECK: nvvm.memory.barrier <gpu>
// CHECK: memref.atomic_rmw addi
// CHECK: memref.store {{.*}}, %arg2
// CHECK: gpu.terminator
// CHECK: memref.dealloc %[[PARTIALS]]
// CHECK-NOT: linalg.batch_matmul
func.func @one_row(%a: memref<1x1x64xbf16>, %w: memref<1x64x96xbf16>,
                   %c: memref<1x1x96xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x1x96xf32>)
  linalg.batch_matmul ins(%a, %w : memref<1x1x64xbf16>, memref<1x64x96xbf16>)
                      outs(%c : memref<1x1x96xf32>)
  return
}

// -----

// Without a zero fill the output's value is added in; more than 4 rows
// stay a product for the library.
// CHECK-LABEL: func.func @accumulate
// CHECK: gpu.launch
// CHECK: memref.load %arg2
// CHECK: arith.addf
// CHECK: memref.store {{.*}}, %arg2
// CHECK-LABEL: func.func @many_rows
// CHECK-NOT: gpu.launch
// CHECK: linalg.matmul
func.func @accumulate(%a: memref<2x64xf32>, %w: memref<64x96xf32>,
                      %c: memref<2x96xf32>) {
  linalg.matmul ins(%a, %w : memref<2x64xf32>, memref<64x96xf32>)
                outs(%c : memref<2x96xf32>)
  return
}
func.func @many_rows(%a: memref<8x64xf32>, %w: memref<64x96xf32>,
                     %c: memref<8x96xf32>) {
  linalg.matmul ins(%a, %w : memref<8x64xf32>, memref<64x96xf32>)
                outs(%c : memref<8x96xf32>)
  return
}

// -----

// A right-hand side the program writes (here a fill; a KV cache updated in
// place) is read only after the wait.
// CHECK-LABEL: func.func @written_operand
// CHECK: gpu.launch
// CHECK-NOT: vector.load %arg1
// CHECK: nvvm.griddepcontrol wait
// CHECK: vector.load %arg1
func.func @written_operand(%a: memref<1x64xf32>, %w: memref<64x96xf32>,
                           %c: memref<1x96xf32>) {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%one : f32) outs(%w : memref<64x96xf32>)
  linalg.fill ins(%zero : f32) outs(%c : memref<1x96xf32>)
  linalg.matmul ins(%a, %w : memref<1x64xf32>, memref<64x96xf32>)
                outs(%c : memref<1x96xf32>)
  return
}

// -----

// Products that read the same left-hand side share one launch, the later
// one moved up past the op between (it touches neither product's buffers):
// the blocks of q's column tile, then k's; 2 chunks of k.
// CHECK-LABEL: func.func @siblings
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c2{{.*}}, {{.*}} = %c2{{.*}}, {{.*}} = %c1{{.*}})
// CHECK: arith.cmpi ult
// CHECK: scf.if
// CHECK: vector.load %arg1
// CHECK: arith.cmpi ult
// CHECK: scf.if
// CHECK: vector.load %arg2
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @siblings(%a: memref<1x64xf32>, %wq: memref<64x96xf32>,
                    %wk: memref<64x96xf32>, %q: memref<1x96xf32>,
                    %t: memref<1x96xf32>, %k: memref<1x96xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%q : memref<1x96xf32>)
  linalg.matmul ins(%a, %wq : memref<1x64xf32>, memref<64x96xf32>)
                outs(%q : memref<1x96xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%q : memref<1x96xf32>) outs(%t : memref<1x96xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sum = arith.addf %in, %acc : f32
    linalg.yield %sum : f32
  }
  linalg.fill ins(%zero : f32) outs(%k : memref<1x96xf32>)
  linalg.matmul ins(%a, %wk : memref<1x64xf32>, memref<64x96xf32>)
                outs(%k : memref<1x96xf32>)
  return
}

// -----

// An op between that writes the later product's weight keeps it in place:
// two launches.
// CHECK-LABEL: func.func @written_between
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c2{{.*}},
// CHECK: linalg.fill
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c2{{.*}},
func.func @written_between(%a: memref<1x64xf32>, %wq: memref<64x96xf32>,
                           %wk: memref<64x96xf32>, %q: memref<1x96xf32>,
                           %k: memref<1x96xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%zero : f32) outs(%q : memref<1x96xf32>)
  linalg.matmul ins(%a, %wq : memref<1x64xf32>, memref<64x96xf32>)
                outs(%q : memref<1x96xf32>)
  linalg.fill ins(%one : f32) outs(%wk : memref<64x96xf32>)
  linalg.fill ins(%zero : f32) outs(%k : memref<1x96xf32>)
  linalg.matmul ins(%a, %wk : memref<1x64xf32>, memref<64x96xf32>)
                outs(%k : memref<1x96xf32>)
  return
}

// -----

// SwiGLU: the gate and up products share a launch, so the op that reads
// both (silu(gate) * up) cannot be up's epilogue (the blocks of gate's
// tiles may not have finished when up's last block would compute it): it
// runs after the launch.
// CHECK-LABEL: func.func @gate_up
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c2{{.*}}, {{.*}} = %c2{{.*}}, {{.*}} = %c1{{.*}})
// CHECK-NOT: math.exp
// CHECK: gpu.terminator
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: return
func.func @gate_up(%a: memref<1x64xf32>, %wg: memref<64x96xf32>,
                   %wu: memref<64x96xf32>, %out: memref<1x96xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %g = memref.alloc() : memref<1x96xf32>
  linalg.fill ins(%zero : f32) outs(%g : memref<1x96xf32>)
  linalg.matmul ins(%a, %wg : memref<1x64xf32>, memref<64x96xf32>)
                outs(%g : memref<1x96xf32>)
  %u = memref.alloc() : memref<1x96xf32>
  linalg.fill ins(%zero : f32) outs(%u : memref<1x96xf32>)
  linalg.matmul ins(%a, %wu : memref<1x64xf32>, memref<64x96xf32>)
                outs(%u : memref<1x96xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%g, %u : memref<1x96xf32>, memref<1x96xf32>)
      outs(%out : memref<1x96xf32>) {
  ^bb0(%gi: f32, %ui: f32, %o: f32):
    %neg = arith.negf %gi : f32
    %e = math.exp %neg : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %gi, %d : f32
    %r = arith.mulf %s, %ui : f32
    linalg.yield %r : f32
  }
  memref.dealloc %g : memref<1x96xf32>
  memref.dealloc %u : memref<1x96xf32>
  return
}

// -----

// A large weight (64 MiB of f32): 32 column tiles of 128 columns; 64 chunks
// would make 2048 blocks, so threads take more steps of 8 rows until the
// grid is one wave (at most 264 blocks): 8 chunks, 8 steps. Each step
// loads the next step's rows before it adds the current ones: the loop
// carries the sums and the loaded rows.
// CHECK-LABEL: func.func @one_wave
// CHECK: memref.alloc() : memref<8x1x1x4096xf32>
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c32{{.*}}, {{.*}} = %c8{{.*}}, {{.*}} = %c1{{.*}})
// CHECK-COUNT-8: vector.load %arg1
// CHECK: scf.for {{.*}} = %c1{{.*}} to %c8{{.*}} iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK-COUNT-8: vector.load %arg1
// CHECK: arith.mulf
// CHECK: scf.yield
func.func @one_wave(%a: memref<1x4096xf32>, %w: memref<4096x4096xf32>,
                    %c: memref<1x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x4096xf32>)
  linalg.matmul ins(%a, %w : memref<1x4096xf32>, memref<4096x4096xf32>)
                outs(%c : memref<1x4096xf32>)
  return
}
