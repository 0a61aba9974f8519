// REQUIRES: libdevice
// RUN: mlxc %s --target=cuda --gpu-arch=sm_90 --emit=ptx -o - | FileCheck %s

// The flash-attention kernel as the H200 runs it: the scores and P.V are
// bf16 tensor-core products, the key and value tiles go through shared
// memory through cp.async 16 bytes at a time (the values' copy in flight
// while the scores are computed, the next keys' while P.V is), fragments
// come from ldmatrix, the softmax is exp2 in registers with quad shuffles,
// and nothing but the output is stored to global memory (the scores never
// are). One kernel for the whole attention, with registers for three
// blocks a SM.
// CHECK: .target sm_90
// CHECK-COUNT-1: .entry
// CHECK-NOT: .entry
// CHECK-DAG: .minnctapersm 3
// CHECK-DAG: cp.async.cg.shared.global [%{{.*}}], [%{{.*}}], 16;
// CHECK-DAG: cp.async.commit_group
// CHECK-DAG: cp.async.wait_group 0
// CHECK-DAG: bar.sync
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-DAG: shfl.sync.bfly
// CHECK-DAG: ex2.approx
// CHECK-DAG: st.global.b32
func.func @attention(%q: tensor<1x4x128x64xbf16>, %k: tensor<1x2x256x64xbf16>, %v: tensor<1x2x256x64xbf16>) -> tensor<1x4x128x64xbf16> {
  %o = mlx.scaled_dot_product_attention %q, %k, %v {scale = 0.125 : f32, causal = true} : tensor<1x4x128x64xbf16>, tensor<1x2x256x64xbf16>, tensor<1x2x256x64xbf16>
  return %o : tensor<1x4x128x64xbf16>
}
