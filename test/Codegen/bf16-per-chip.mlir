// REQUIRES: libdevice
// RUN: mlxc %s --target=cuda --emit=ptx -o - | FileCheck %s --check-prefix=SM70
// RUN: mlxc %s --target=cuda --gpu-arch=sm_90 --emit=ptx -o - | FileCheck %s --check-prefix=SM90

// A bf16 softmax's kernel as each chip runs it. The sm_70 PTX (what every
// GPU can JIT) rounds to bf16 with integer instructions; the PTX the sm_90
// cubin is built from converts with one cvt and computes bf16 natively.
// The normalization multiplies by the sum's reciprocal, as MLX does: no
// division per element. exp, rounded to bf16, is ex2.approx of x log2 e
// on both (mlxc-half-exp), not libdevice's nine-instruction expf.
// SM70: .target sm_70
// SM70-NOT: cvt.rn.bf16
// SM70-NOT: div.rn
// SM70-NOT: fma.rm.f32
// SM70: ex2.approx.f32
// SM70-NOT: fma.rm.f32
// SM70: st.global.v4.b32
// SM90: .target sm_90
// SM90-NOT: .target sm_70
// SM90: cvt.rn.bf16.f32
// SM90-NOT: fma.rm.f32
// SM90: mul.rn.f32 %{{.*}}, 0f3FB8AA3B;
// SM90-NEXT: ex2.approx.f32
// SM90-NOT: fma.rm.f32
// SM90: rcp.rn.f32
// SM90-COUNT-8: mul.rn.bf16
// SM90-NOT: div.rn
// SM90: st.global.v4.b32
func.func @softmax(%x: tensor<64x4096xbf16> {mlx.name = "x"}) -> tensor<64x4096xbf16> {
  %y = mlx.softmax %x {axes = array<i64: -1>} : tensor<64x4096xbf16>
  return %y : tensor<64x4096xbf16>
}
