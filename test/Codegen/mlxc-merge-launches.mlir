// RUN: mlx-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(mlxc-merge-launches))" | FileCheck %s

// Three small kernels that touch different buffers (a decode step's mask,
// q's rotation, v's write into its cache) become one launch of 8 + 4 + 16
// blocks, where the last one was: each block runs its member with the
// block index and grid size that member saw, barriers included.
// CHECK-LABEL: func.func @independent
// CHECK-COUNT-1: gpu.launch
// CHECK-SAME: in (%{{.*}} = %[[G:.*]], %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %[[B:.*]], %{{.*}} = %c1{{.*}}, %{{.*}} = %c1
// CHECK: %[[FIRST:.*]] = arith.cmpi ult, %[[BX:[^,]*]], %c8
// CHECK: scf.if %[[FIRST]]
// CHECK: memref.store %{{.*}}, %arg0[%[[BX]]]
// CHECK: } else {
// CHECK: %[[SECOND:.*]] = arith.cmpi ult, %[[BX]], %c12
// CHECK: scf.if %[[SECOND]]
// CHECK: %[[B1:.*]] = arith.subi %[[BX]], %c8
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %arg1[%[[B1]]]
// CHECK: } else {
// CHECK: %[[B2:.*]] = arith.subi %[[BX]], %c12
// CHECK: arith.addi %[[B2]], %c16
// CHECK: memref.store %{{.*}}, %arg2[%[[B2]]]
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @independent(%mask: memref<8xf32>, %q: memref<4xf32>, %cache: memref<16xf32>, %x: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %mask[%bx] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%bx] : memref<4xf32>
    gpu.barrier
    memref.store %v, %q[%bx] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c16, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %i = arith.addi %bx, %gx : index
    %r = arith.index_cast %i : index to i32
    %v = arith.sitofp %r : i32 to f32
    memref.store %v, %cache[%bx] : memref<16xf32>
    gpu.terminator
  }
  return
}

// -----

// A kernel that reads what the one before it writes, one whose block shape
// differs, one whose grid is large and one that reads its own block index
// with gpu.block_id stay launches of their own.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-5: gpu.launch
// CHECK-NOT: scf.if
func.func @kept(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<4096xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c4096 = arith.constant 4096 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%bx] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%bx] : memref<8xf32>
    memref.store %v, %b[%bx] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    memref.store %f, %c[%bx] : memref<4096xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4096, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %c[%bx] : memref<4096xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %id = gpu.block_id x
    memref.store %f, %c[%id] : memref<4096xf32>
    gpu.terminator
  }
  return
}

// -----

// The first kernel does not move past an op that writes what it reads (the
// copy into %a), nor past the deallocation of its buffer; function
// arguments of one type may be one buffer (a donated cache), so a kernel
// that reads %x stays apart from one that writes %y.
// CHECK-LABEL: func.func @ordered
// CHECK-COUNT-4: gpu.launch
// CHECK-NOT: scf.if
func.func @ordered(%a: memref<8xf32>, %src: memref<8xf32>, %x: memref<16xf32>, %y: memref<16xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %f = arith.constant 1.0 : f32
  %t = memref.alloc() : memref<8xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%bx] : memref<8xf32>
    memref.store %v, %t[%bx] : memref<8xf32>
    gpu.terminator
  }
  memref.copy %src, %a : memref<8xf32> to memref<8xf32>
  memref.dealloc %t : memref<8xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %src[%bx] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%bx] : memref<16xf32>
    memref.store %v, %a[%bx] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %y[%bx] : memref<16xf32>
    gpu.terminator
  }
  return
}
