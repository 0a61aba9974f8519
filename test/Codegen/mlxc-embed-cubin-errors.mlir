// RUN: not mlx-opt %s --mlxc-embed-cubin="arch=sm_90 ptxas=%ptxas" 2>&1 | FileCheck %s

// PTX that ptxas rejects: the error names ptxas, the arch and its message.
// CHECK: error: '{{.*}}ptxas -arch=sm_90' failed: {{.*}}bogus
module attributes {gpu.container_module} {
  gpu.binary @broken [#gpu.object<#nvvm.target<chip = "sm_70">, assembly = ".version 6.0\0A.target sm_70\0A.address_size 64\0A.visible .entry k() { bogus; }\0A">]
}
