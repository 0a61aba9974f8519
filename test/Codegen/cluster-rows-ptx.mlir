// REQUIRES: libdevice
// RUN: mlxc %s --target=cuda --gpu-arch=sm_90 --emit=ptx -o - | FileCheck %s --check-prefix=SM90
// RUN: mlxc %s --target=cuda --gpu-arch=sm_80 --emit=ptx -o - | FileCheck %s --check-prefix=SM80

// A softmax over an LLM vocabulary's 131072 logits, as the H200 runs it: a
// kernel of clusters of 8 blocks (.reqnctapercluster, which a plain launch
// honours), each block's total read from the others' shared memory
// (mapa, ld.shared::cluster) between cluster barriers, and no strided path
// left (the sm_90 module's mlxc_cluster_rows is true). The row is read
// from global memory in 16-byte loads, once.
// SM90: .target sm_90
// SM90: .explicitcluster
// SM90: .reqnctapercluster 8, 1, 1
// SM90: barrier.cluster.arrive.aligned;
// SM90: barrier.cluster.wait.aligned;
// SM90: mapa.shared::cluster.u64
// SM90: ld.shared::cluster.b32
// SM90-COUNT-16: st.global.v4.b32
// SM90-NOT: st.global
// SM90: ret;
// Built for sm_80, which has no clusters, the row kernel is the strided
// form, one block per row.
// SM80: .target sm_80
// SM80-NOT: cluster
// SM80: ret;
func.func @vocab_softmax(%x: tensor<4x131072xf32> {mlx.name = "x"})
    -> (tensor<4x131072xf32> {mlx.name = "p"}) {
  %p = mlx.softmax %x {axes = array<i64: -1>} : tensor<4x131072xf32>
  return %p : tensor<4x131072xf32>
}
