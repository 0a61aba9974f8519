//===- Passes.td - code generation passes -------------------*- tablegen -*-===//

#ifndef MLXC_CODEGEN_PASSES_TD
#define MLXC_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

def ConvertMlxToLinalg : Pass<"convert-mlx-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower mlx ops to linalg, tensor, arith and math on tensors";
  let description = [{
    Elementwise ops, broadcast_to, full, arange become linalg.generic ops with
    broadcasting indexing maps (ready for elementwise fusion); reductions
    become linalg.reduce (argmax/argmin a two-result linalg.generic); layout
    ops become tensor reshapes, slices and linalg.transpose; gather and
    take_along_axis a linalg.generic reading with tensor.extract; matmul a
    linalg.batch_matmul, gather_mm one after gathering the operands'
    matrices. conv_general pads and dilates its input into a zero tensor,
    then convolves in one linalg.generic (reduction over the kernel window
    and the group's channels). Affine quantize, dequantize, quantized_matmul
    and gather_qmm pack and unpack MLX's bit layout in linalg.generic bodies
    (bit-exact with MLX); the fp quantization modes have no lowering.
    Scatter ops become an in-order scf.for of tensor.extract/insert over the
    updates; sorts a stable rank sort (two linalg.generic ops);
    random_bits MLX's Threefry-2x32 word layout; view a bitcast or a byte
    split/join along the last axis (bool views have no lowering).
    Unsigned dtypes become signless storage types; the
    generated arith ops carry the signedness. Composite ops (softmax, norms,
    attention, ...) must have been decomposed by `mlx-decompose`.

    An op without a lowering stops the pass with an error at the op.

    Before:
    ```mlir
    %z = mlx.add %x, %b : tensor<2x3xf32>, tensor<3xf32>
    ```
    After:
    ```mlir
    %e = tensor.empty() : tensor<2x3xf32>
    %z = linalg.generic {indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d1), (d0, d1) -> (d0, d1)], ...}
         ins(%x, %b : tensor<2x3xf32>, tensor<3xf32>) outs(%e : tensor<2x3xf32>) { arith.addf ... }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::kernel::KernelDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"
  ];
}

def MlxcFoldConstantMaps : Pass<"mlxc-fold-constant-maps"> {
  let summary = "Small elementwise maps of indices and constants become constants";
  let description = [{
    A `linalg.generic` without reductions whose inputs are dense constants
    and whose outputs' initial values are never read (its values depend
    only on the loop indices and on constants: RoPE's inverse frequencies,
    an arange, a small mask) is computed at compile time: each of its at
    most 4096 points is evaluated by the folders of the body's ops, and the
    results become `arith.constant`s. The map is then no kernel and no
    launch. A map with an op that does not fold stays as it is.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def MlxcFillLargeSplats : Pass<"mlxc-fill-large-splats"> {
  let summary = "Large splat constants become fills";
  let description = [{
    A splat `arith.constant` tensor of more than 4096 elements that fusion
    left on its own (a mask of ones read by a product, `mx.full` returned
    as an output, zeros beside a concatenate) becomes a `linalg.fill` of a
    `tensor.empty`: the program stores one value instead of the whole
    tensor (a 3-billion-element `mx.full` was 12 GB of program data), and
    the fill is a kernel like any other map. Smaller splats stay constants.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

//===----------------------------------------------------------------------===//
// GPU preparation
//===----------------------------------------------------------------------===//

def MlxcElementwiseThroughConcat : Pass<"mlxc-elementwise-through-concat",
                                        "::mlir::ModuleOp"> {
  let summary = "Work on a concatenation's pieces instead of the whole";
  let description = [{
    Runs on linalg-on-tensors before elementwise fusion, on concatenations:
    static, unit-stride `tensor.insert_slice` ops that cover a `tensor.empty`
    along one dimension, each piece made by a `linalg.generic`.
    - An elementwise `linalg.generic` that reads one element by element
      (other inputs read element by element are sliced the same way; the
      rest must not vary along the cut), with elementwise producers used
      only there, becomes one op per piece, concatenated in turn. Fusion
      then merges each into its producer: RoPE's rotated halves absorb
      attention's scale of q, which was a kernel of its own per layer.
    - One inserted into a window of another tensor (a KV cache's new row)
      is inserted piece by piece, so that after bufferization each piece's
      op writes into the window instead of a temporary that a copy moves.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MlxcAttachTarget : Pass<"mlxc-attach-target", "::mlir::ModuleOp"> {
  let summary = "Set the module's kernel.target, as mlxc's flags make it";
  let description = [{
    Sets `kernel.target` on the module (replacing any) from the options,
    through the function `mlxc` builds its targets with
    (`kernel::buildTarget`): `target=cuda gpu-arch=sm_90` is what
    `mlxc --target=cuda --gpu-arch=sm_90` compiles for. `max-cluster` and
    `sms` replace the derived values, for tests of one pass.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "cpu or cuda (mlxc --target)">,
    Option<"gpuArch", "gpu-arch", "std::string", /*default=*/"\"sm_70\"",
           "mlxc --gpu-arch">,
    Option<"clusters", "clusters", "bool", /*default=*/"true",
           "false: mlxc --no-clusters">,
    Option<"maxCluster", "max-cluster", "int64_t", /*default=*/"-1",
           "the largest thread-block cluster (-1: from gpu-arch)">,
    Option<"sms", "sms", "int64_t", /*default=*/"0",
           "streaming multiprocessors grids are sized for (0: the default)">
  ];
  let dependentDialects = ["::mlir::kernel::KernelDialect"];
}

def MlxcQuantizedProducts : Pass<"mlxc-quantized-products",
                                 "::mlir::ModuleOp"> {
  let summary = "Keep the quantized products the target has a kernel for, "
                "dequantize the others";
  let description = [{
    The first step of kernel formation. A `kernel.quantized_matmul` stays
    where the target lowers it as one kernel that reads the packed words,
    scales and biases once and dequantizes them in registers (CUDA: at most
    `kMaxQuantizedRows` rows of x, float x, scales and result of 16 or 32
    bits; `canLowerQuantizedProduct` in `QuantizedProducts.h`):
    `mlxc-form-kernels` makes it a `quantized_product` kernel. Any other
    becomes the dequantized matrix (an elementwise kernel) and a matrix
    product, as on the CPU. The target is the module's `kernel.target`
    (the CPU without one).
  }];
  let dependentDialects = ["::mlir::kernel::KernelDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MlxcVectorProducts : Pass<"mlxc-vector-products", "::mlir::ModuleOp"> {
  let summary = "Products of few rows as row reductions of the stored rows";
  let description = [{
    A matrix product with at most 4 rows per batch (one row in a decode
    step; more only when its right-hand side is at most 4 MiB, as it is
    reread per row) whose operands both read the reduced axis innermost
    once transposes and broadcasts are seen through (`x @ w.T`, `q @ k.T`)
    becomes a `linalg.generic` reading the sources of those copies: a row
    reduction, one output element per stored row, which
    `mlxc-form-kernels` makes a `row_reduction` kernel with its epilogue.
    Such products are bound by reading the stored operand, and the row
    kernels read it at the memory floor.
  }];
}

def MlxcFormKernels : Pass<"mlxc-form-kernels", "::mlir::ModuleOp"> {
  let summary = "Group linalg-on-tensors ops into kernel regions";
  let description = [{
    The kernel-formation stage. Every function's ops, in program order,
    become `kernel.region` ops, one per kernel, each with its strategy:
    - a row reduction opens a `row_reduction` kernel, and the ops that
      follow over the same rows (elementwise over the rows, per-row
      scalars, further row reductions) join it while they read one of its
      values and everything else they read exists where it starts;
    - the elementwise map right before a row reduction's kernel, over its
      rows, that the kernel reads is its prologue (attention's scale and
      mask before a softmax; a prefill's residual sum before the next
      norm: the row kernel then writes it too). Over at most 4 rows only
      when nothing else reads it, so that such a norm can still become the
      prologue of the vector products that read it;
    - a matrix product is a `product` kernel (with the transposes and
      broadcasts that only feed it: the library reads those operands
      through views), any other reduction a
      `reduction` kernel, an elementwise map an `elementwise` kernel, data
      movement (transpose, slice insertion, padding, concatenation) a `copy`
      kernel;
    - a fill joins the kernel whose accumulator it initializes (its only
      use); otherwise it is an elementwise kernel;
    - elementwise maps alone in their kernels, over the same loops, that do
      not depend on each other (the halves of a RoPE rotation, up to 4
      among the next 16 kernels) become one generic with the results of
      all: one kernel.
    An op is in one region only: a reduction or a product is never
    duplicated to fuse it; an op that needs a value computed after the
    group started (a host read of the group's own result) does not join it.
    Constants, empty tensors and reshapes are no kernels: a region clones
    the constants it uses, takes empty tensors as inputs and moves in the
    reshapes between its ops. Loops (sort, scan) and host code stay outside
    any region.
  }];
  let dependentDialects = ["::mlir::kernel::KernelDialect"];
}

def MlxcInlineKernels : Pass<"mlxc-inline-kernels", "::mlir::ModuleOp"> {
  let summary = "Inline kernel regions, tagging their ops";
  let description = [{
    Runs before bufferization. Each `kernel.region` is replaced by its ops,
    every one (but constants) tagged `kernel.id` (the region's number in its
    function) and `kernel.strategy`; the CUDA lowering follows the tags
    (`mlxc-fuse-row-kernels` builds one row kernel per `row_reduction`
    region and never joins ops of different kernels).
  }];
}

def MlxcForwardOutputCopies : Pass<"mlxc-forward-output-copies",
                                   "::mlir::ModuleOp"> {
  let summary = "Compute results in their out-parameters instead of copying";
  let description = [{
    Runs after buffer-results-to-out-params. A copy of a function result
    into its out-parameter (marked `bufferize.result`) whose source is an
    allocation seen through reshape views goes away when nothing else
    touches the out-parameter and the allocation is not used after the
    copy: the allocation becomes a view of the out-parameter. (A logsumexp
    result, collapsed from [rows, 1] to [rows], is then written by its row
    kernel directly instead of by a copy kernel.) Likewise an allocation
    that one linalg op writes whole, without reading it, and that is then
    copied into a window of another buffer (the second half of a row
    inserted into a KV cache) becomes that window when nothing between the
    op and the copy touches that buffer; copies of a window onto itself go.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def MlxcPlanInPlaceOutputs : Pass<"mlxc-plan-in-place-outputs",
                                   "::mlir::ModuleOp"> {
  let summary = "Let an output share its buffer with the input it updates";
  let description = [{
    Runs after buffer-results-to-out-params (out-parameters marked
    `bufferize.result`). An output that starts as a whole copy of an input
    of its type and is then updated (a KV cache written at one row:
    `mx.slice_update` on an input) may be given the input's own buffer
    when the caller donates it: the copy then runs only when the two
    buffers differ, and only the update is written. That is safe when
    nothing reads the input, or touches the output, on the other side of
    the copy; the pass checks it and records the pairs in the function's
    `mlx.in_place` attribute (per out-parameter, the input's argument
    index or -1), which mlxc writes into the program signature for the
    runtime. The guarded copies of one type that can move up to the first
    of them (nothing between touches their buffers; at most 4) then run as
    one kernel under one guard, taken when any pair differs: a donated
    pair in it copies its buffer onto itself, which changes nothing.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def MlxcReadOnlyInputs : Pass<"mlxc-read-only-inputs", "::mlir::ModuleOp"> {
  let summary = "Mark graph inputs read-only for bufferization";
  let description = [{
    Runs before one-shot bufferization: every tensor argument of a function
    with a body gets `bufferization.writable = false`. Graph inputs belong
    to the caller (on the GPU they are the caller's unified buffers, read
    again by later runs and by CUDA graph replays), so an op that updates
    a tensor in place (scatter, slice_update) must work on a copy.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def MlxcWritePiecesInPlace : Pass<"mlxc-write-pieces-in-place",
                                   "::mlir::ModuleOp"> {
  let summary = "Compute inserted pieces in their windows";
  let description = [{
    Runs before eliminate-empty-tensors. An op whose result is inserted
    into a larger tensor (the halves of a RoPE rotation into their
    concatenation, a new key row into a KV cache) and whose destination is
    an empty tensor its body never reads gets as destination its window of
    the root of the chain of insertions. The ops that make the root and
    the window's offsets (a cache copied from an input, an offset read from
    an input) move above the op when they have no side effects and do not
    depend on it. Upstream eliminate-empty-tensors does this only where the
    destination already exists: for the first insertion of a chain, not
    the second. One-shot bufferization then writes each piece in place and
    no copy kernel moves it.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def MlxcCopyToLinalg : Pass<"mlxc-copy-to-linalg"> {
  let summary = "Turn memref.copy into linalg.copy";
  let description = [{
    Bufferization leaves memref.copy ops (e.g. a function result written to
    its out-parameter). On a GPU target the buffers live in device-reachable
    memory, so the copy must become a loop nest that maps to a kernel
    instead of a host memcpy.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def MlxcSplitVectorProducts
    : Pass<"mlxc-split-vector-products", "::mlir::ModuleOp"> {
  let summary = "Products of few rows over a row-major operand, split over k";
  let description = [{
    A `linalg.matmul` or `linalg.batch_matmul` on buffers with at most 4
    rows per batch whose right-hand side has its columns innermost (`h @ w`
    with `w` [in, out]; a decode step's products with its weights, or its
    probabilities times the values) becomes one kernel: its blocks sum
    chunks of k, where a thread owns 16 bytes of neighbouring columns of
    every row, takes its rows in steps of 8 with the next step's loads in
    flight, and the block's threads over k merge in shared memory; a large
    product's grid is one wave of long blocks. The last block of each column
    tile (an atomic count) adds the chunks' sums in order (deterministic)
    into the output, with the elementwise op that only consumes the product
    (its epilogue), a zero fill before the product folded in. Products that
    read the same left-hand side share a launch; an epilogue that reads
    another product of the launch stays an op of its own. A row kernel that
    only makes the launch's left-hand side (a decode step's rms_norm or
    layer_norm of one row: row reductions, per-row scalars, one elementwise
    result) becomes its prologue: every block reduces the rows itself, a
    strided pass and a warp butterfly, and computes the left-hand side's
    elements where it reads them; the norm is no kernel of its own. A lone
    elementwise map that only makes it (SwiGLU's silu(gate) * up before the
    down product) is computed the same way, element by element. Such
    products are bound by reading that operand, which the library's small-N
    kernels do at under half the memory floor. Runs before
    `mlxc-matmul-to-runtime`.
  }];
  let dependentDialects = ["::mlir::kernel::KernelDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::scf::SCFDialect"];
}

def MlxcFuseRowKernels : Pass<"mlxc-fuse-row-kernels"> {
  let summary = "One kernel, one block per row, for chains of row reductions";
  let description = [{
    Runs on bufferized linalg, before mlxc-map-row-reductions. A run of
    linalg ops over the same rows and columns that holds a row reduction
    (softmax's max, exp and sum; a norm's sum of squares, per-row scalars and
    the scaled row; logsumexp; argmax's extreme and least index; or a
    reduction alone, such as a decode step's product with an nn.Linear
    weight) becomes one `gpu.launch` (marked
    `mlx.row_kernel`) with one block of up to 512 threads per row. Each
    reduction is a strided per-thread fold, a warp butterfly and a merge of
    the warps through shared memory, so every thread holds the row's
    total; per-row scalar ops run on those registers; elementwise values are
    recomputed where they are read and only those that leave the chain are
    stored, in one last pass over the row. Bufferization's buffer reuse is
    resolved as versions (a read sees the chain op that last wrote the
    buffer). Chains that read a buffer they also write from outside, or
    access an intermediate other than at its own row, are left alone.

    A row that divides into the block (at most 64 bytes of the widest row
    buffer and 32 elements per thread: 16 float32, 32 bfloat16) is
    read from memory once: the passes are unrolled and each element stays in
    a register (`registers=false` keeps the strided passes, which read the
    row again per pass). When the row's 16-byte groups do not split over 512
    threads, the most whole warps that split them evenly take them (a row of
    704 groups: 352 threads of 2). Strided passes of up to 16 groups per thread, the
    same number in every thread, are unrolled too (their loads in flight at
    once). Accesses along the row are 16 bytes of the widest buffer read or
    written along it.

    Many short rows (at least 256 rows of at most 8 such groups per lane: a
    decode step's matrix-vector products and scores) take a warp per row
    instead, up to 8 rows per block (thread y is the row): the warp's
    butterfly is the row's total, with no shared memory or barrier.

    When the module's `kernel.target` has a `max_cluster` N of 2 or more, a
    row too long for one block's registers (a softmax
    over a 131072-entry vocabulary row) that splits into 2 to N blocks of
    256 threads keeping at most 64 elements each is spread over a
    thread-block cluster of that many blocks: each block holds its slice in
    registers, and each reduction's block totals are exchanged through
    distributed shared memory (`codegen/Cuda/ClusterOps.h`), so the row is
    read from memory once. The kernel also holds the strided form, run by
    the cluster's first block alone, for the modules that have no clusters
    (the sm_70 PTX); `mlxc-cluster-ops` picks the path per chip.
  }];
  let options = [
    Option<"registers", "registers", "bool", /*default=*/"true",
           "Keep each thread's elements of the row in registers when the "
           "row divides into the block">,
  ];
  let dependentDialects = ["::mlir::kernel::KernelDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def MlxcMapRowReductions : Pass<"mlxc-map-row-reductions"> {
  let summary = "Give each row of a row reduction one warp";
  let description = [{
    Runs on bufferized linalg, before loops. A linalg.generic with one
    reduction dimension that is the innermost loop and the innermost axis of
    every input (softmax's max and sum, norms, logsumexp) and an f32, i32,
    f16 or bf16 accumulator becomes a two-level scf.parallel: blocks of 8
    warps, one warp per row. Lane `l` accumulates elements `l, l + 32, ...`
    in a register (coalesced reads instead of one thread per row), the warp
    merges its partials with `gpu.shuffle xor` (f16 and bf16 partials cross
    lanes as f32, exactly), and lane 0 folds the total into the output
    element. The payload is split into the element's value and the combiner
    (the part that reads the output), which merges partials; combiners other
    than associative arith ops, comparisons and selects are left to the
    generic path. The outer loop is marked
    `mlx.row_reduction` so `mlxc-tile-parallel-loops` keeps its shape.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def MlxcVectorizeElementwise : Pass<"mlxc-vectorize-elementwise"> {
  let summary = "16-byte accesses for elementwise kernels";
  let description = [{
    Runs on bufferized linalg, before loops. An all-parallel linalg.generic
    with a static iteration space, an arith/math body and operands that the
    innermost loop walks along their innermost, unit-stride axis (or not at
    all: a broadcast row or scalar) becomes an scf.parallel whose innermost
    loop steps over groups of V elements, V * (widest element) = 16 bytes;
    the body runs on `vector<V x T>`, with aligned `vector.load`/`store`
    (one `ld.global.v4` per operand and thread). Operands the innermost loop
    does not walk are loaded once per group and broadcast.

    Alignment is proven, not assumed: every vector access must come from a
    function argument or an allocation (the runtime aligns both to 64 bytes
    or more) through views whose static offsets and strides are multiples
    of V. Anything else (run-time offsets, globals, transposed operands,
    i1 buffers, a body with other ops, an innermost extent that no V >= 2
    divides) keeps the scalar path.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def MlxcFoldProductTransposes : Pass<"mlxc-fold-product-transposes"> {
  let summary = "CPU products read transposed operands through views";
  let description = [{
    Runs on memrefs in the CPU pipeline. A linalg.matmul or batch_matmul
    whose operand a linalg.transpose copied only for it (x @ w.T: every
    linear layer) reads the transpose's source through a memref.transpose
    view instead, and the copy, a pass over the whole weight on every call,
    goes. The source must not be written between the copy and the product.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def MlxcSplitReductions : Pass<"mlxc-split-reductions"> {
  let summary = "Split reductions with few outputs into partials and a total";
  let description = [{
    Runs on memrefs after `mlxc-fuse-row-kernels`. A reduction with too few
    outputs to fill the GPU (a sum to a scalar, a column sum of few columns)
    becomes two linalg.generic ops: one reducing S chunks of consecutive
    elements into a partials buffer of the output's shape and S, and one
    folding the partials into the output. Adjacent reduced axes that every
    input holds contiguously are collapsed into one first. The partials
    start from the constant the output was filled with, which must be
    idempotent under the combiner. Deterministic: the order depends on the
    shapes only. Named reductions are generalized.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def MlxcInterchangeReductions : Pass<"mlxc-interchange-reductions"> {
  let summary = "Put the parallel loops of a reduction first";
  let description = [{
    Runs on memrefs before `convert-linalg-to-parallel-loops`, which makes
    only the leading parallel loops of a linalg op parallel. A reduction over
    a leading axis (sum over axis 0: a column sum) had none before its
    reduction loop and became a one-thread kernel. Each such op (named ones
    are generalized first) gets its parallel dimensions first, each group in
    its original order: one thread per output element, walking its reduction
    in the original order (deterministic, as on the CPU), with neighbouring
    threads reading neighbouring elements.

    A reduction to a scalar has no parallel dimension and is left alone.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def MlxcTileParallelLoops : Pass<"mlxc-tile-parallel-loops"> {
  let summary = "Shape each outermost scf.parallel into grid x block loops";
  let description = [{
    Collapses every outermost scf.parallel into one dimension and tiles it by
    `block-size`, so that `gpu-map-parallel-loops` maps the outer loop to
    blocks and the inner loop to the threads of a block (a block never
    exceeds the hardware's 1024 threads, whatever the tensor shape). Loops
    marked `mlx.row_reduction` already have their grid x block shape.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::affine::AffineDialect"];
}

def MlxcOffloadHostLoops : Pass<"mlxc-offload-host-loops"> {
  let summary = "Move host code that touches buffers into one-thread loops "
                "for the GPU";
  let description = [{
    After linalg becomes loops, a few loop nests have no parallel dimension
    (a reduction to a scalar, the fill of a scalar) and would run on the
    host, reading buffers that may live only on the device. This pass wraps
    every such top-level op (an scf.for or a memref.store/copy without
    results) in a one-iteration scf.parallel, which becomes a one-thread
    kernel: host code then only launches kernels. A scalar loaded on the
    host only for kernels (an offset input) is loaded by each of them (the
    loops, and launches built before, as split-key attention's) instead,
    unless something may write its buffer in between.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def MlxcMergeLaunches : Pass<"mlxc-merge-launches"> {
  let summary = "Run small kernels that do not depend on each other as one";
  let description = [{
    A decode step runs many small kernels that do not depend on each other
    (its mask, the rotation of q, the writes of k and v into their caches);
    each costs a launch and a ramp longer than its work. This pass merges
    such `gpu.launch` ops of one block: the merged grid holds the members'
    grids side by side, and each block runs the member its index falls in
    (an `scf.if` per member), with the block index and grid size that member
    saw. A block runs one member whole, so a member's barriers stay among
    its own threads.

    A member has a static one-dimensional grid of at most 1024 blocks, the
    block shape of the other members, no shared memory or async tokens, no
    op that reads the grid itself (`gpu.block_id`), and memory effects that
    are all known. Earlier members move down to the last one past the ops
    between them when none of those touches a buffer the member touches
    (and one of the two writes it); the members touch no buffer in common
    that one of them writes. Buffers may alias when they view one
    allocation or global, or are function arguments of one type (a donated
    input and the output that updates it).

    Before:
    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
        threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      "use"(%bx, %gx) : (index, index) -> ()
      gpu.terminator
    }
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c16, %gy = %c1, %gz = %c1)
        threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      "other"(%bx, %gx) : (index, index) -> ()
      gpu.terminator
    }
    ```
    After:
    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c24, %gy = %c1, %gz = %c1)
        threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %first = arith.cmpi ult, %bx, %c8 : index
      scf.if %first {
        "use"(%bx, %c8) : (index, index) -> ()
      } else {
        %b = arith.subi %bx, %c8 : index
        "other"(%b, %c16) : (index, index) -> ()
      }
      gpu.terminator
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::gpu::GPUDialect"];
}

def MlxcMergeGpuModules : Pass<"mlxc-merge-gpu-modules", "::mlir::ModuleOp"> {
  let summary = "Put every outlined kernel into one gpu.module";
  let description = [{
    gpu-kernel-outlining makes one gpu.module per kernel, so the program
    would carry and JIT one PTX module per kernel. This pass moves every
    kernel into the first gpu.module (given a numeric suffix, `kernel_0`,
    where names would clash; equal globals and declarations are kept once)
    and retargets the launches: one PTX module, loaded
    once at start-up. Every kernel's workgroup buffers get a 16-byte
    alignment (`llvm.align`), the widest access the kernels make to them.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def MlxcOutlineCpuKernels : Pass<"mlxc-outline-cpu-kernels",
                                   "::mlir::ModuleOp"> {
  let summary = "Make each kernel of the CPU variant a function of its own";
  let description = [{
    Runs on memrefs before linalg becomes loops. The ops of each kernel
    (those tagged with one `kernel.id` by `mlxc-inline-kernels`; an untagged
    linalg op is a kernel alone) move into a private function marked
    `mlx.cpu_kernel` and `noinline`, called where the last of them was. Its
    parameters are the buffers the ops use, traced back through their views
    to the allocation or argument they view (the views are rebuilt inside),
    and the scalars defined outside; constants are cloned in. The ops of a
    kernel move past the ops between them only when those touch no memory;
    otherwise the kernel is split there. A kernel that uses a buffer without
    a static layout stays inline. `mlx.kernel_name` says what the function
    computes (its ops' distinct names, e.g. `"batch_matmul"` or
    `"add_mul_tanh"`): its compiled symbol is `mlxc_k_<name>_<hash>`.

    LLVM then optimizes one small function per kernel instead of one
    function holding every loop nest of the model, and `mlxc-dedup-kernels`
    can share one function among equal kernels (a model's layers).
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def MlxcDedupKernels : Pass<"mlxc-dedup-kernels", "::mlir::ModuleOp"> {
  let summary = "Compile structurally equal kernels once";
  let description = [{
    The layers of a model make the same kernels again and again: equal
    bodies, types and launch bounds that differ only in the buffers they are
    launched with. This pass keeps one of each class and retargets the
    others' uses to it:
    - GPU kernels (`gpu.func` with `gpu.kernel` in one `gpu.module`): the
      `gpu.launch_func` ops;
    - outlined CPU kernels (private `func.func` marked `mlx.cpu_kernel`, made
      by `mlxc-outline-cpu-kernels`): the `func.call` ops.
    Two kernels are equal when their generic printed forms are, names aside
    (attributes, types, constants and block structure all count; locations
    do not). The first kernel of a class in program order is kept, so the
    result is deterministic.
  }];
  let statistics = [
    Statistic<"numErased", "erased", "Kernels replaced by an equal one">,
  ];
}

def MlxcFuseElementwise : Pass<"mlxc-fuse-elementwise"> {
  let summary = "Elementwise fusion that leaves matrix products alone";
  let description = [{
    `linalg-fuse-elementwise-ops` for the CUDA target: the same elementwise
    fusion and reshape folding, except that nothing fuses into or out of a
    linalg.batch_matmul or linalg.matmul and no reshape folds into one (the
    upstream pass turns a product with more than one batch axis, such as
    attention's, into a linalg.generic and fuses its operands' scaling or
    broadcasting into it). The products stay named ops that
    `mlxc-matmul-to-runtime` hands to cuBLASLt; the elementwise ops around
    them fuse as before. A small table (at most 4096 points: a decode
    step's RoPE cosines and sines) is recomputed in each elementwise map of
    at most 65536 points that reads it through a broadcast (the map has more
    points than the table), so that it is no kernel of its own; a decode
    step's residual add, read element by element, is no table (recomputed,
    every norm would re-add the residual stream from the first layer). A map that reads a value broadcast along a
    reduction's rows (argmax's candidate indices, which read the row's
    extreme) is not fused into that reduction: kernel formation puts both
    into the row kernel that makes the value, where the fused reduction
    would be a kernel of its own that no pass splits. A transpose that
    keeps the innermost axis and that only elementwise maps read, directly
    or through full-rank slices (a prefill's q and k, transposed to
    [heads, tokens, dim] and split in halves for RoPE), becomes a map (each
    slice the map of the matching slice of its source) that those maps
    fuse: they read the untransposed tensor and no transpose kernel is left.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MlxcMatmulToRuntime : Pass<"mlxc-matmul-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Turn bufferized matrix products into cuBLASLt calls";
  let description = [{
    On the CUDA target every linalg.batch_matmul and linalg.matmul on
    memrefs (float32, float16 or bfloat16 operands; a float32 result or one
    of the operands' dtype; float32 accumulation) becomes a call of the
    runtime's `mlxrt_matmul`, which runs it with cuBLASLt on the program's
    stream. The call takes the dtype codes, flags (transposed A/B,
    accumulate), batch, m, n, k and, per operand, its address, leading
    dimension and batch stride, all read from static memref layouts; an
    operand stored transposed (unit stride along rows) sets the transpose
    flag. A zero linalg.fill of the result right before the product is
    dropped (beta = 0); otherwise the product accumulates into the result.

    Copies around the product go where cuBLASLt can do their work: an
    operand that a linalg.transpose filled is read from the transpose's
    source through a `memref.transpose` view (transpose flag); an operand
    that a linalg.generic broadcast over the batch is read from the matrix
    with batch stride 0; a float32 accumulator that a linalg.generic only
    rounds to the operands' half type becomes a half-precision result; one
    that a linalg.generic adds, rounded, to a half-precision residual into
    an output (a decoder layer's residual connection) becomes a call that
    accumulates (beta = 1) into that output, holding the residual: the
    residual's allocation becomes the output when the residual dies at the
    sum, the product does not read it, and nothing touches the output
    before (the sum is then rounded once, where MLX rounds the product
    first); a float32 accumulator whose every reader (an elementwise
    linalg.generic after the product, directly or through reshapes) only
    rounds it to the operands' half type (SwiGLU's two products) becomes a
    new half-precision result that those readers read without their
    `arith.truncf`; a result buffer that is only copied into an output
    argument (`bufferize.result`) is replaced by that argument. Each applies
    only when nothing else uses the buffer in between.

    A product whose layout cuBLASLt cannot express (dynamic shapes, strides
    or offsets, no unit-stride dimension, other dtypes, empty) is left
    alone and becomes a generated kernel.

    With `group-shared-operands`, single products (in one block) of the
    same input A, shapes, dtypes and flags, each into its own buffer (q, k
    and v's projections; SwiGLU's gate and up), become one call at the
    first of them with `MLXRT_MATMUL_POINTER_ARRAYS`: A, B and C are host
    arrays (`memref.alloca`) of the products' addresses, up to 16. A later
    product joins only when nothing between reads or writes its result or
    writes its inputs; its result's allocation moves up.

    The pointers come from `memref.extract_aligned_pointer_as_index` ops
    marked `mlx.device_access`, so that `mlx-memory-placement` counts them
    as device accesses.
  }];
  let options = [
    Option<"groupSharedOperands", "group-shared-operands", "bool",
           /*default=*/"false",
           "One pointer-array call for products of one input (the CUDA "
           "runtime's)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect"];
}

def MlxMemoryPlacement : Pass<"mlx-memory-placement", "::mlir::func::FuncOp"> {
  let summary = "Place buffers of a GPU graph, reuse them by liveness, "
                "insert prefetches";
  let description = [{
    Runs on bufferized graph functions of the CUDA target, after kernels are
    outlined (`gpu.launch_func`), before lowering to LLVM.

    - Placement: a buffer (memref.alloc) that only kernels touch lives in
      device memory; one that host code also reads or writes (a scalar read
      on the host, a host loop) lives in unified memory. Function arguments
      (inputs, outputs, weights) are unified: the runtime allocates them.
    - Reuse: the buffers of each placement share one static arena; a buffer
      takes the lowest offset not used by a buffer whose lifetime (first to
      last use in program order) overlaps its own. The device arena is a
      `gpu.alloc` (plain device memory), the unified arena a `memref.alloc`.
      The function gets `mlx.device_arena_bytes`, `mlx.unified_arena_bytes`
      and `mlx.unreused_bytes` (what the buffers would take without reuse).
    - Prefetch: every unified buffer is tracked as resident on the host or
      the device; a call to `mlxrt_prefetch(ptr, bytes, to_device)` moves it
      before the first kernel that uses it while it is on the host, and back
      before host code touches it, and outputs go back to the host at the
      end. The runtime turns them into cuMemPrefetchAsync on its stream (or
      copies, where the device has no concurrent managed access). An
      output's first move to the device discards its dead contents
      (placement 2) instead of migrating them.
    - Streaming (`stream-io`): an argument that one kernel alone touches,
      where that kernel has no loop (each thread makes a bounded number of
      accesses), is not migrated at all: placement 3 keeps it in host memory
      mapped for the GPU, so the kernel reads or writes it once over the
      interconnect (on an H200, 2 GiB in and out took 58 ms this way against
      204 ms migrating). The function gets `mlx.prefetches` and
      `mlx.streamed_buffers`.
    - Device calls: a `memref.extract_aligned_pointer_as_index` marked
      `mlx.device_access` (the operand of a runtime call that the GPU
      executes, such as `mlxrt_matmul`) counts as a kernel's use.
    - Graphs: when no buffer is touched by host code (every use is a kernel
      or a device call), the function gets `mlx.capturable`: the runtime may
      capture it into a CUDA graph and replay it.
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"256",
           "Byte alignment of every buffer in an arena">,
    Option<"prefetch", "prefetch", "bool", /*default=*/"true",
           "Insert prefetches (off only to measure what they save)">,
    Option<"streamIO", "stream-io", "bool", /*default=*/"true",
           "Keep arguments that one loop-free kernel alone touches in host "
           "memory, mapped for the device, instead of migrating them">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def MlxcHalfExp : Pass<"mlxc-half-exp"> {
  let summary = "exp through ex2.approx where the result is rounded to 16 bits";
  let description = [{
    Runs on the GPU kernels before their lowering to NVVM. An f32 `math.exp`
    whose every use is an `arith.truncf` to f16 or bf16 (an f16/bf16 exp,
    computed in f32) becomes `math.exp2(x * log2(e))`, which libdevice
    lowers to `ex2.approx.f32`: two instructions where `__nv_expf` takes
    nine. The approximation is within |x| * 2^-24 relative (2^-17 at the
    largest finite argument), far below a 16-bit ulp, so a rounded result
    changes only where it lies that close to a rounding boundary, by one
    ulp. Exps with an f32 use (a precise softmax) keep libdevice's. The CPU
    target is untouched.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def MlxcLowerAttention : Pass<"mlxc-lower-attention", "::mlir::ModuleOp"> {
  let summary = "kernel.attention on buffers to a flash-attention or a "
                "split-key (decode) kernel";
  let description = [{
    Runs on bufferized graphs of the CUDA target, before the kernels are
    outlined. Each `kernel.attention` becomes a `gpu.launch` of the
    FlashAttention-2 forward pass: blocks of four warps over 64 queries of
    one head, key and value tiles of 64 rows copied into shared memory
    asynchronously (16-byte chunks, swizzled; the values' copy in flight
    while the scores are computed, the next keys' while P.V is), fragments
    read with ldmatrix, scores and P.V as m16n8k16 tensor-core products
    (calls of the functions that `mlxc-warp-matrix-ops` defines per chip),
    the softmax online in registers in base 2, registers for three blocks a
    SM. The scores never reach memory; a causal kernel
    skips the key tiles past its last row. The grid is 1-D: sections of
    heads whose keys and values fit 16 MiB of L2, each walked query tile by
    query tile across its heads, a causal kernel's longest tiles first (the
    short ones fill the last wave). bf16 and f16, head dims 64 and
    128, any lengths beyond a decode step's (the shapes
    `mlx-raise-attention` admits): the last query tile of a length that is
    no multiple of 64 reads the last query again for its rows past the end
    and does not store them, the last key tile reads the last key again and
    gives those scores -inf. The layout copies around the op (MLX's
    [B, L, H, D] <-> [B, H, L, D] transposes), when only the op reads or
    writes their buffer, become strided views; an operand whose rows are
    not 16-byte aligned is copied first.

    Other shapes (a decode step: at most 16 queries and 64 query rows per
    key head; bf16, f16 or f32; a boolean or additive mask, or causal)
    become the split-key kernel (`SplitKeyAttention.cpp`): the keys split
    into chunks across blocks, each block scores its chunk into shared
    memory, takes its softmax and P.V, and the last block of each row group
    to finish (an atomic count in the global `mlxc_attention_counts`)
    rescales and adds the chunks into the output.

    A decode step's cache returned updated at new rows and not donated is
    copied whole into its output before attention reads it. When the
    split-key blocks stream their chunks in several steps, and only whole
    rows of a window (the new entries) were written into the output since
    the copy, the kernel makes the copy (`AttentionCacheCopy.h`): it reads
    the input's rows (the window's from the output) and stores them into
    the output, and the copy kernel goes. A donated call (one buffer for
    both) loads as without a copy.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"
  ];
}

def MlxcLowerQuantizedProducts : Pass<"mlxc-lower-quantized-products",
                                      "::mlir::ModuleOp"> {
  let summary = "kernel.quantized_matmul on buffers to a kernel that reads "
                "the packed weights once";
  let description = [{
    Runs on bufferized graphs of the CUDA target, before the kernels are
    outlined. Each `kernel.quantized_matmul` (at most a few rows of x)
    becomes a `gpu.launch` of blocks of eight warps, each warp over a few
    output columns (rows of the packed matrix). A lane takes 32 consecutive
    values of a weight row at a time (`bits` words, one 16-byte load at
    4 bits), their scale and bias, and the same 32 values of every row of
    x; it accumulates sum(x * q) per group and adds scale * that + bias *
    sum(x) in float32 (the dequantized weight is never formed, not even in
    registers). The lanes' sums meet in a warp butterfly; lane 0 rounds
    and stores. No weight-sized value reaches memory.
  }];
  let dependentDialects = ["::mlir::kernel::KernelDialect",
                           
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"
  ];
}

def MlxcWarpMatrixOps : Pass<"mlxc-warp-matrix-ops", "::mlir::ModuleOp"> {
  let summary = "Define the warp MMA functions per gpu.module chip";
  let description = [{
    Runs on lowered gpu.modules (LLVM dialect) after `mlxc-chip-variants`.
    Kernels declare `mlxc_mma_m16n8k16_bf16` / `_f16` (one lane's fragments
    of a 16x8x16 product), `mlxc_ldmatrix_x4` / `_x4_trans` (four 8x8
    16-bit matrices from shared memory) and `mlxc_cp_async_16` /
    `mlxc_cp_async_wait_all` (16 bytes from global into shared memory, and
    the wait for the thread's copies; `codegen/Cuda/WarpMatrix.h`). Each
    declaration gets a body for its module's chip: `nvvm.mma.sync` and
    `nvvm.cp.async.shared.global` from sm_80 on and `nvvm.ldmatrix` from
    sm_75 on; below, shuffles with float32 FMAs, shuffled row addresses
    with plain shared loads and a load and a store done at once, so that the
    sm_70 PTX that every GPU can run computes the same. The bodies are
    inlined (alwaysinline). A kernel that calls
    `mlxc_min_blocks_per_sm(N)` gets `nvvm.minctasm = N` (ptxas keeps its
    registers to N blocks a SM), and the calls go.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def MlxcClusterOps : Pass<"mlxc-cluster-ops", "::mlir::ModuleOp"> {
  let summary = "Define the thread-block cluster functions per gpu.module chip";
  let description = [{
    Runs on lowered gpu.modules (LLVM dialect) after `mlxc-chip-variants`.
    Kernels that spread rows over clusters (`mlxc-fuse-row-kernels`) declare
    `mlxc_cluster_rows`, `mlxc_cluster_sync` and `mlxc_cluster_load_<type>`
    (`codegen/Cuda/ClusterOps.h`). In a module for sm_90 or newer they get
    a cluster barrier and distributed shared-memory loads (`nvvm.mapa`), and
    each kernel that calls `mlxc_cluster_rows(N)` gets `nvvm.cluster_dim =
    [N, 1, 1]`. In older modules `mlxc_cluster_rows` is false, and the
    kernel runs its path without clusters. The bodies are inlined
    (alwaysinline).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def MlxcChipVariants : Pass<"mlxc-chip-variants", "::mlir::ModuleOp"> {
  let summary = "Clone each lowered gpu.module for the cubin's chip";
  let description = [{
    Runs on the lowered gpu.modules (LLVM dialect, sm_70 target), before
    `gpu-module-to-binary`. For `chip` (sm_75 or newer; nothing when empty)
    adds a clone `<module>_<chip>` of each module targeting that chip, so
    that NVPTX lowers the same kernels with that chip's instructions: from
    sm_80 on, a bf16 conversion is one `cvt.rn.bf16.f32` (six integer
    instructions in the sm_70 PTX), and bf16 arithmetic whose f32 result
    is rounded back becomes native (`sub.rn.bf16`, `mul.rn.bf16`).
    `mlxc-grid-dependent-launch` specializes an sm_90 clone;
    `mlxc-embed-cubin` builds the module's cubin from its clone's PTX and
    drops the clone. The sm_70 PTX stays what every other GPU runs.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "The cubin's chip (sm_75 or newer; no clone when empty)">,
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def MlxcGridDependentLaunch : Pass<"mlxc-grid-dependent-launch",
                                   "::mlir::ModuleOp"> {
  let summary = "Let each kernel start while the one before it ends (sm_90+)";
  let description = [{
    Runs on the lowered gpu.modules, before `gpu-module-to-binary`. Strips
    the `nvvm.griddepcontrol` ops that earlier passes placed from each
    module whose target is older than sm_90 (the sm_70 PTX cannot hold
    them). In a module targeting sm_90 or newer (the cubin's clone, see
    `mlxc-chip-variants`) each kernel whose launches all have constant
    sizes of at most two H200 waves of threads (540672) starts with
    `griddepcontrol.launch_dependents` and, where no wait was placed (after
    a split product's weight loads), a `griddepcontrol.wait`, and is named
    in the module's `mlxc_grid_dependent_kernels` list (runtime/mlxrt_abi.h;
    every module has one, empty in the others): the runtime launches it
    with programmatic stream serialization. Larger grids are left as they
    were: they gain nothing from an early start, and each of their blocks
    would pay for the two instructions. With `enable=false` every module is
    stripped.
  }];
  let options = [
    Option<"enable", "enable", "bool", /*default=*/"true",
           "Specialize sm_90+ modules (false: strip every module)">,
  ];
  let dependentDialects = ["::mlir::kernel::KernelDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def MlxcEmbedCubin : Pass<"mlxc-embed-cubin", "::mlir::ModuleOp"> {
  let summary = "Add a cubin for one GPU architecture beside the PTX";
  let description = [{
    Runs after `gpu-module-to-binary{format=isa}`: for each gpu.binary that
    holds PTX, runs `ptxas -arch=<arch>` on that PTX and replaces the object
    with mlxc's container of both images (see runtime/cuda_abi.c), so the
    executable still runs everywhere the PTX runs while the runtime loads
    the cubin on GPUs of that architecture. The host code then loads the
    module through `mgpuModuleLoad(data, size)`.

    `ptxas` is the path of the assembler; an error names it when it cannot
    be run or fails.
  }];
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"\"\"",
           "GPU architecture of the cubin (sm_75 or newer)">,
    Option<"ptxas", "ptxas", "std::string", /*default=*/"\"ptxas\"",
           "The ptxas to run">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

#endif // MLXC_CODEGEN_PASSES_TD
