// RUN: mlx-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// Parameters left out take their defaults and are not printed.
// CHECK: module attributes {kernel.target = #kernel.target<backend = cuda, arch = "sm_90a", max_cluster = 8>}
module attributes {kernel.target = #kernel.target<backend = cuda, arch = "sm_90a", sms = 132, max_cluster = 8>} {}

// -----

// CHECK: module attributes {kernel.target = #kernel.target<backend = cpu>}
module attributes {kernel.target = #kernel.target<backend = cpu>} {}

// -----

// CHECK: #kernel.target<backend = cuda, sms = 108>
module attributes {kernel.target = #kernel.target<backend = cuda, sms = 108>} {}

// -----

// expected-error @+1 {{arch must be sm_70 (PTX only) or sm_75 or newer, got 'sm_72'}}
module attributes {kernel.target = #kernel.target<backend = cuda, arch = "sm_72">} {}

// -----

// expected-error @+1 {{arch must be sm_70 (PTX only) or sm_75 or newer, got 'gfx90a'}}
module attributes {kernel.target = #kernel.target<backend = cuda, arch = "gfx90a">} {}

// -----

// expected-error @+1 {{a cpu target has no arch or max_cluster}}
module attributes {kernel.target = #kernel.target<backend = cpu, arch = "sm_90">} {}

// -----

// expected-error @+1 {{max_cluster 8 needs sm_90 or newer and at most 16 blocks}}
module attributes {kernel.target = #kernel.target<backend = cuda, arch = "sm_80", max_cluster = 8>} {}

// -----

// expected-error @+1 {{sms must be in [1, 4096], got 0}}
module attributes {kernel.target = #kernel.target<backend = cuda, sms = 0>} {}

// -----

// expected-error @+1 {{'kernel.target' must be a #kernel.target}}
module attributes {kernel.target = "cuda"} {}

// -----

// expected-error @+1 {{'kernel.target' belongs on a builtin.module}}
func.func @f() attributes {kernel.target = #kernel.target<backend = cpu>} {
  return
}

// -----

// expected-error @+1 {{unknown kernel dialect attribute '"kernel.targets"'}}
module attributes {kernel.targets = #kernel.target<backend = cpu>} {}

// -----

// expected-error @+1 {{'kernel.strategy' must name a kernel strategy}}
func.func @g() attributes {kernel.strategy = "fast"} {
  return
}
