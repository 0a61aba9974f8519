//===- KernelOps.td - kernel dialect: kernel regions -------*- tablegen -*-===//
//
// The kernel-formation stage groups linalg-on-tensors ops into kernel
// regions; each region becomes one kernel (one gpu.func on CUDA, one loop
// nest on the CPU) and records the strategy that lowers it.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_OPS_TD
#define KERNEL_OPS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Kernel_Dialect : Dialect {
  let name = "kernel";
  let cppNamespace = "::mlir::kernel";
  let summary = "Kernel regions: the groups of ops that become one kernel";
  let description = [{
    The output of mlxc's kernel-formation stage (`mlxc-form-kernels`). A
    `kernel.region` holds the linalg-on-tensors ops of one kernel and names
    its strategy; every fusion decision of the compiler is visible here
    (`mlxc --emit=kernels`). Before bufferization `mlxc-inline-kernels`
    inlines the regions and leaves each op tagged with its kernel, which the
    CUDA lowering follows.

    The module's `kernel.target` attribute (`#kernel.target<...>`) names
    the machine it is compiled for; every pass that depends on the target
    reads it there (`kernel::getTarget`).
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
}

def Kernel_Strategy : I32EnumAttr<"Strategy", "how a kernel region is lowered", [
    I32EnumAttrCase<"Elementwise", 0, "elementwise">,
    I32EnumAttrCase<"RowReduction", 1, "row_reduction">,
    I32EnumAttrCase<"Reduction", 2, "reduction">,
    I32EnumAttrCase<"Product", 3, "product">,
    I32EnumAttrCase<"Copy", 4, "copy">,
    I32EnumAttrCase<"Attention", 5, "attention">,
    I32EnumAttrCase<"QuantizedProduct", 6, "quantized_product">
  ]> {
  let cppNamespace = "::mlir::kernel";
}

def Kernel_Backend : I32EnumAttr<"Backend", "the code a target runs", [
    I32EnumAttrCase<"Cpu", 0, "cpu">,
    I32EnumAttrCase<"Cuda", 1, "cuda">
  ]> {
  let cppNamespace = "::mlir::kernel";
  let genSpecializedAttr = 0;
}

def Kernel_TargetAttr : AttrDef<Kernel_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "the machine a module is compiled for";
  let description = [{
    Set on the module as `kernel.target` by `mlxc` (and `mlx-opt
    --mlxc-attach-target`) from `--target` and `--gpu-arch`, before any
    lowering; kernel formation and the CUDA lowering read it instead of
    options of their own.

    - `backend`: `cpu` or `cuda`.
    - `arch` (CUDA): the architecture of the cubin, `sm_75` or newer
      (`sm_90a` for that chip only); `sm_70` (the default) means PTX only.
      From `sm_80` on, kernels are also lowered for that chip (native bf16
      conversions, attention kernels); from `sm_90` on, grid-dependent
      launches and thread-block clusters.
    - `sms`: streaming multiprocessors that grids are sized for (132, the
      H100's and the H200's, by default).
    - `max_cluster`: thread-block clusters of up to that many blocks for
      rows too long for one block (sm_90 and newer); 0: none.

    ```mlir
    module attributes {kernel.target = #kernel.target<backend = cuda,
                                                      arch = "sm_90",
                                                      max_cluster = 8>} {}
    ```
  }];
  let parameters = (ins
    EnumParameter<Kernel_Backend>:$backend,
    StringRefParameter<"the cubin's architecture", "\"sm_70\"">:$arch,
    DefaultValuedParameter<"int64_t", "132">:$sms,
    DefaultValuedParameter<"int64_t", "0">:$max_cluster
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isCuda() const { return getBackend() == Backend::Cuda; }
    /// 90 for sm_90 and sm_90a; 70 without a cubin.
    unsigned getChip() const;
    /// Whether a cubin is built for `arch` (beside the sm_70 PTX).
    bool hasCubin() const { return isCuda() && getArch() != "sm_70"; }
    /// The chip the kernels are lowered again for (sm_80 and newer), or "".
    ::llvm::StringRef getVariantChip() const {
      return isCuda() && getChip() >= 80 ? getArch() : "";
    }
    /// Whether attention runs as one kernel (kernel.attention): bf16
    /// arithmetic and tensor cores of sm_80 and newer.
    bool hasAttentionKernels() const { return !getVariantChip().empty(); }
    /// Blocks that fill the GPU twice over: fewer leave SMs idle.
    int64_t getFullGridBlocks() const { return 2 * getSms(); }
  }];
}

class Kernel_Op<string mnemonic, list<Trait> traits = []>
    : Op<Kernel_Dialect, mnemonic, traits>;

def Kernel_RegionOp : Kernel_Op<"region", [IsolatedFromAbove,
    RecursiveMemoryEffects]> {
  let summary = "The ops of one kernel, and its strategy";
  let description = [{
    The body takes the region's inputs as block arguments and yields its
    results. Strategies:
    - `elementwise`: a map over every element (a fused chain of
      elementwise ops, a fill);
    - `row_reduction`: reductions over the innermost axis and the ops over
      the same rows around them (softmax, logsumexp, rms_norm, layer_norm):
      one block per row;
    - `reduction`: any other reduction (over an outer axis, to a scalar);
    - `product`: a matrix product (a library call on CUDA), with its
      accumulator's fill;
    - `copy`: data movement (a transpose, a slice written into a buffer,
      padding, concatenation);
    - `attention`: one `kernel.attention` (a flash-attention kernel on
      CUDA);
    - `quantized_product`: one `kernel.quantized_matmul` (a kernel that
      reads the packed weights once and dequantizes them in registers).

    ```mlir
    %y = kernel.region row_reduction (%x) : (tensor<4x64xf32>) -> tensor<4x64xf32> {
    ^bb0(%in: tensor<4x64xf32>):
      ...
      kernel.yield %quotient : tensor<4x64xf32>
    }
    ```
  }];
  let arguments = (ins Kernel_Strategy:$strategy, Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $strategy `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
    $body
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::kernel::Strategy":$strategy,
                   "::mlir::ValueRange":$inputs,
                   "::mlir::TypeRange":$resultTypes)>
  ];
}

def Kernel_YieldOp : Kernel_Op<"yield", [Pure, Terminator,
    HasParent<"RegionOp">]> {
  let summary = "The results of a kernel region";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

def Kernel_AttentionOp : Kernel_Op<"attention", [
    DestinationStyleOpInterface, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Scaled dot-product attention as one kernel";
  let description = [{
    `softmax(scale * q . k^T [causal mask]) . v` over the last two axes of
    `query` [B, Hq, L, D], `key` [B, Hkv, S, D] and `value` [B, Hkv, S, Dv],
    written into `init` [B, Hq, L, Dv]; query head h reads key/value head
    h / (Hq / Hkv) (grouped-query attention). With `causal`, query i sees
    keys j <= i + S - L. An optional `mask` of rank 4 broadcasts (its axes
    1 or full) to [B, Hq, L, S]: boolean (true keeps the key) or of the
    element type (added to the scaled scores). A masked score is the lowest
    finite value, as in MLX's fallback: a row with every key masked averages
    them all. Optional `sinks` [Hq] of the element type (gpt-oss's attention
    sinks) add one logit per query head to each row's softmax, unscaled,
    whose probability is dropped. The product `scale * q` is rounded to the
    element type first, as MLX's own fallback does; the scores and the
    softmax are computed in float32 and never reach memory.

    It takes tensors (the result is `init` updated) or, once bufferized,
    memrefs (no result). `mlxc-lower-attention` turns the memref form into
    a flash-attention kernel.

    ```mlir
    %o = kernel.attention %q, %k, %v into %init {scale = 0.125 : f64, causal}
        : tensor<1x32x2048x128xbf16>, tensor<1x32x2048x128xbf16>,
          tensor<1x32x2048x128xbf16>, tensor<1x32x2048x128xbf16>
        -> tensor<1x32x2048x128xbf16>
    ```
  }];
  let arguments = (ins AnyShaped:$query, AnyShaped:$key, AnyShaped:$value,
                       Optional<AnyShaped>:$mask, Optional<AnyShaped>:$sinks,
                       AnyShaped:$init, F64Attr:$scale, UnitAttr:$causal);
  let results = (outs Variadic<AnyRankedTensor>:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`sinks` `(` $sinks^ `:` type($sinks) `)`)? `into` $init attr-dict `:`
    type($query) `,` type($key) `,` type($value)
    `,` type($init) (`->` type($result)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getInitMutable();
    }
  }];
}

def Kernel_QuantizedMatmulOp : Kernel_Op<"quantized_matmul", [
    DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "A product with an affine-quantized matrix, read packed";
  let description = [{
    `init[..., m, n] = sum_k x[..., m, k] * w'[n, k]` (MLX's
    `quantized_matmul(x, w, scales, biases, transpose=True)`, affine mode),
    where `w'[n, k] = scales[n, k / group_size] * q + biases[n, k /
    group_size]` and q is value k of row n of `packed` [N, K * bits / 32]:
    the row's uint32 words read as one little-endian bit stream, value k at
    bits [k * bits, (k + 1) * bits) (with 3, 5 or 6 bits a value straddles
    two words). `scales` and `biases` are [N, K / group_size] of one float
    type; `x` [..., M, K] and `init` [..., M, N] are float. Products are
    summed in float32 and rounded once to the init's element type.

    The op says what is computed, not how: kernel formation keeps it where
    the target has a kernel for its shape (`quantized_product` region) and
    otherwise rewrites it as a dequantized matrix and a product. It takes
    tensors (the result is `init` updated) or, once bufferized, memrefs
    (no result).

    ```mlir
    %y = kernel.quantized_matmul %x, %w, %s, %b into %init
        {group_size = 64 : i64, bits = 4 : i64}
        : tensor<1x2048xbf16>, tensor<5632x256xi32>, tensor<5632x32xbf16>,
          tensor<5632x32xbf16>, tensor<1x5632xbf16> -> tensor<1x5632xbf16>
    ```
  }];
  let arguments = (ins AnyShaped:$x, AnyShaped:$packed, AnyShaped:$scales,
                       AnyShaped:$biases, AnyShaped:$init, I64Attr:$group_size,
                       I64Attr:$bits);
  let results = (outs Variadic<AnyRankedTensor>:$result);
  let assemblyFormat = [{
    $x `,` $packed `,` $scales `,` $biases `into` $init attr-dict `:`
    type($x) `,` type($packed) `,` type($scales) `,` type($biases) `,`
    type($init) (`->` type($result)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getInitMutable();
    }
    /// Rows of x (all of its axes but the last), and the reduced length.
    int64_t getRows();
    int64_t getReducedSize();
    int64_t getColumns();
  }];
}

#endif // KERNEL_OPS_TD
