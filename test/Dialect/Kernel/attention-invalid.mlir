// RUN: mlx-opt %s --split-input-file --verify-diagnostics

// kernel.attention's mask: rank 4, each axis 1 or the full [B, Hq, L, S],
// boolean or of the element type, and not together with causal.
func.func @mask_rank(%q: tensor<1x2x1x64xbf16>, %k: tensor<1x2x40x64xbf16>, %v: tensor<1x2x40x64xbf16>, %m: tensor<40xi1>, %o: tensor<1x2x1x64xbf16>) -> tensor<1x2x1x64xbf16> {
  // expected-error@+1 {{mask 'tensor<40xi1>' must be of rank 4, boolean or 'bf16'}}
  %r = kernel.attention %q, %k, %v mask(%m : tensor<40xi1>) into %o {scale = 0.125 : f64} : tensor<1x2x1x64xbf16>, tensor<1x2x40x64xbf16>, tensor<1x2x40x64xbf16>, tensor<1x2x1x64xbf16> -> tensor<1x2x1x64xbf16>
  return %r : tensor<1x2x1x64xbf16>
}

// -----

func.func @mask_type(%q: tensor<1x2x1x64xbf16>, %k: tensor<1x2x40x64xbf16>, %v: tensor<1x2x40x64xbf16>, %m: tensor<1x1x1x40xf32>, %o: tensor<1x2x1x64xbf16>) -> tensor<1x2x1x64xbf16> {
  // expected-error@+1 {{must be of rank 4, boolean or 'bf16'}}
  %r = kernel.attention %q, %k, %v mask(%m : tensor<1x1x1x40xf32>) into %o {scale = 0.125 : f64} : tensor<1x2x1x64xbf16>, tensor<1x2x40x64xbf16>, tensor<1x2x40x64xbf16>, tensor<1x2x1x64xbf16> -> tensor<1x2x1x64xbf16>
  return %r : tensor<1x2x1x64xbf16>
}

// -----

func.func @mask_shape(%q: tensor<1x2x1x64xbf16>, %k: tensor<1x2x40x64xbf16>, %v: tensor<1x2x40x64xbf16>, %m: tensor<1x1x1x39xi1>, %o: tensor<1x2x1x64xbf16>) -> tensor<1x2x1x64xbf16> {
  // expected-error@+1 {{does not broadcast to [B, Hq, L, S] = [1, 2, 1, 40]}}
  %r = kernel.attention %q, %k, %v mask(%m : tensor<1x1x1x39xi1>) into %o {scale = 0.125 : f64} : tensor<1x2x1x64xbf16>, tensor<1x2x40x64xbf16>, tensor<1x2x40x64xbf16>, tensor<1x2x1x64xbf16> -> tensor<1x2x1x64xbf16>
  return %r : tensor<1x2x1x64xbf16>
}

// -----

func.func @mask_and_causal(%q: tensor<1x2x1x64xbf16>, %k: tensor<1x2x40x64xbf16>, %v: tensor<1x2x40x64xbf16>, %m: tensor<1x1x1x40xi1>, %o: tensor<1x2x1x64xbf16>) -> tensor<1x2x1x64xbf16> {
  // expected-error@+1 {{takes a mask or causal, not both}}
  %r = kernel.attention %q, %k, %v mask(%m : tensor<1x1x1x40xi1>) into %o {causal, scale = 0.125 : f64} : tensor<1x2x1x64xbf16>, tensor<1x2x40x64xbf16>, tensor<1x2x40x64xbf16>, tensor<1x2x1x64xbf16> -> tensor<1x2x1x64xbf16>
  return %r : tensor<1x2x1x64xbf16>
}

// -----

func.func @mask_buffer(%q: tensor<1x2x1x64xbf16>, %k: tensor<1x2x40x64xbf16>, %v: tensor<1x2x40x64xbf16>, %m: memref<1x1x1x40xi1>, %o: tensor<1x2x1x64xbf16>) -> tensor<1x2x1x64xbf16> {
  // expected-error@+1 {{mixes tensors and buffers}}
  %r = kernel.attention %q, %k, %v mask(%m : memref<1x1x1x40xi1>) into %o {scale = 0.125 : f64} : tensor<1x2x1x64xbf16>, tensor<1x2x40x64xbf16>, tensor<1x2x40x64xbf16>, tensor<1x2x1x64xbf16> -> tensor<1x2x1x64xbf16>
  return %r : tensor<1x2x1x64xbf16>
}

// -----

// Sinks: one per query head, of the element type.
func.func @sinks_size(%q: tensor<1x4x1x64xbf16>, %k: tensor<1x2x40x64xbf16>, %v: tensor<1x2x40x64xbf16>, %s: tensor<2xbf16>, %o: tensor<1x4x1x64xbf16>) -> tensor<1x4x1x64xbf16> {
  // expected-error@+1 {{sinks 'tensor<2xbf16>' must be [Hq] = [4] of 'bf16'}}
  %r = kernel.attention %q, %k, %v sinks(%s : tensor<2xbf16>) into %o {scale = 0.125 : f64} : tensor<1x4x1x64xbf16>, tensor<1x2x40x64xbf16>, tensor<1x2x40x64xbf16>, tensor<1x4x1x64xbf16> -> tensor<1x4x1x64xbf16>
  return %r : tensor<1x4x1x64xbf16>
}

// -----

func.func @sinks_type(%q: tensor<1x4x1x64xbf16>, %k: tensor<1x2x40x64xbf16>, %v: tensor<1x2x40x64xbf16>, %s: tensor<4xf32>, %o: tensor<1x4x1x64xbf16>) -> tensor<1x4x1x64xbf16> {
  // expected-error@+1 {{sinks 'tensor<4xf32>' must be [Hq] = [4] of 'bf16'}}
  %r = kernel.attention %q, %k, %v sinks(%s : tensor<4xf32>) into %o {scale = 0.125 : f64} : tensor<1x4x1x64xbf16>, tensor<1x2x40x64xbf16>, tensor<1x2x40x64xbf16>, tensor<1x4x1x64xbf16> -> tensor<1x4x1x64xbf16>
  return %r : tensor<1x4x1x64xbf16>
}
