// RUN: mlx-opt %s --mlxc-offload-host-loops | FileCheck %s

// A scalar the host loaded only for a kernel (an offset input) is loaded by
// the kernel itself: host code reads no buffer (in copy mode the host
// cannot read device memory).
// CHECK-LABEL: func.func @sink_scalar
// CHECK-NOT:     memref.load
// CHECK:         scf.parallel
// CHECK-NEXT:      %[[OFF:.+]] = memref.load %arg0[] : memref<i32>
// CHECK-NEXT:      arith.index_cast
// CHECK-NEXT:      arith.addi %[[OFF]]
func.func @sink_scalar(%off: memref<i32>, %out: memref<4xi32>) {
  %v = memref.load %off[] : memref<i32>
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %ii = arith.index_cast %i : index to i32
    %s = arith.addi %v, %ii : i32
    memref.store %s, %out[%i] : memref<4xi32>
    scf.reduce
  }
  return
}

// The kernel writes the buffer the scalar comes from: the load stays where
// it is, before the kernel.
// CHECK-LABEL: func.func @kernel_writes_it
// CHECK:         memref.load %arg0[
// CHECK:         scf.parallel
// CHECK-NOT:       memref.load
func.func @kernel_writes_it(%buf: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %buf[%c0] : memref<4xi32>
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %v, %buf[%i] : memref<4xi32>
    scf.reduce
  }
  return
}

// A store into the host's own stack (mlxrt_matmul's address arrays) stays
// on the host; one into a buffer becomes a kernel.
// CHECK-LABEL: func.func @host_stack
// CHECK:         %[[ARR:.+]] = memref.alloca() : memref<2xi64>
// CHECK-NEXT:    memref.store %arg0, %[[ARR]][%{{.*}}] : memref<2xi64>
// CHECK:         scf.parallel
// CHECK:           memref.store %arg0, %arg1[
func.func @host_stack(%v: i64, %buf: memref<2xi64>) {
  %c0 = arith.constant 0 : index
  %arr = memref.alloca() : memref<2xi64>
  memref.store %v, %arr[%c0] : memref<2xi64>
  memref.store %v, %buf[%c0] : memref<2xi64>
  return
}
