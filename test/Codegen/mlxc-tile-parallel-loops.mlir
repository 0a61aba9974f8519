// RUN: mlx-opt %s --mlxc-tile-parallel-loops | FileCheck %s
// RUN: mlx-opt %s --mlxc-tile-parallel-loops=block-size=128 | FileCheck %s --check-prefix=B128
// RUN: not mlx-opt %s --mlxc-tile-parallel-loops=block-size=2048 2>&1 | FileCheck %s --check-prefix=BAD

// A 2-D loop nest of 64 x 100 = 6400 iterations becomes one dimension tiled
// by the block size: an outer loop over 25 blocks, an inner one of 256.
// CHECK-LABEL: func.func @copy
// CHECK:         %[[C6400:.+]] = arith.constant 6400 : index
// CHECK:         %[[C256:.+]] = arith.constant 256 : index
// CHECK:         scf.parallel (%[[I:.+]]) = (%{{.+}}) to (%[[C6400]]) step (%[[C256]])
// CHECK:           affine.min
// CHECK:           scf.parallel
// CHECK-NOT:     scf.parallel
// B128:          arith.constant 128 : index
// BAD:           block-size must be in [1, 1024], got 2048
func.func @copy(%a: memref<64x100xf32>, %b: memref<64x100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c100) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<64x100xf32>
    memref.store %v, %b[%i, %j] : memref<64x100xf32>
  }
  return
}
