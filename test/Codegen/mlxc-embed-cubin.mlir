// RUN: mlx-opt %s --mlxc-embed-cubin="arch=sm_90 ptxas=%ptxas" | FileCheck %s
// RUN: mlx-opt %s --mlxc-embed-cubin="arch=sm_90a ptxas=%ptxas" | FileCheck %s --check-prefix=ARCHA
// RUN: not mlx-opt %s --mlxc-embed-cubin="arch=sm_70 ptxas=%ptxas" 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not mlx-opt %s --mlxc-embed-cubin="arch=sm_90 ptxas=%t.no-ptxas" 2>&1 | FileCheck %s --check-prefix=NOPTXAS

// The PTX object becomes mlxc's container: magic, two images, then the
// sm_70 PTX (kind 0, sm 70 = 'F') and the sm_90 cubin (kind 1, sm 90 = 'Z',
// an ELF file), and the format becomes `bin`.
// CHECK:      gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_70">, bin = "MLXCIMG1\02\00\00\00\00\00\00\00
// CHECK-SAME:   \00\00\00\00F\00\00\00\00\00\00\00\00\00\00\00P\00\00\00\00\00\00\00
// CHECK-SAME:   \01\00\00\00Z\00\00\00\00\00\00\00\00\00\00\00
// CHECK-SAME:   .target sm_70
// CHECK-SAME:   \00\7FELF
// ARCHA:      bin = "MLXCIMG1\02\00\00\00\00\00\00\00
// ARCHA-SAME:   \01\00\00\00Z\00\00\00\01\00\00\00
// OLD:        error: mlxc-embed-cubin: arch must be sm_75 or newer (ptxas builds no older cubin), got 'sm_70'
// NOPTXAS:    error: mlxc-embed-cubin: cannot run ptxas '{{.*}}.no-ptxas'
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_70">, assembly = ".version 6.0\0A.target sm_70\0A.address_size 64\0A.visible .entry k(.param .u64 p)\0A{\0A  .reg .b64 %rd<3>;\0A  .reg .f32 %f<2>;\0A  ld.param.u64 %rd1, [p];\0A  cvta.to.global.u64 %rd2, %rd1;\0A  ld.global.f32 %f1, [%rd2];\0A  st.global.f32 [%rd2], %f1;\0A  ret;\0A}\0A">]
}
