//===- MlxBase.td - mlx dialect, types and op classes ------*- tablegen -*-===//
//
// The mlx dialect mirrors MLX's primitives one op per primitive. This file
// holds the dialect, the dtype and tensor constraints, the enums, and the op
// family classes that MlxOps.td instantiates.
//
//===----------------------------------------------------------------------===//

#ifndef MLX_BASE_TD
#define MLX_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

def Mlx_Dialect : Dialect {
  let name = "mlx";
  let cppNamespace = "::mlir::mlx";
  let summary = "Array graphs with the semantics of Apple's MLX";
  let description = [{
    One op per MLX primitive, named after MLX's Python API in snake_case.
    Values are ranked tensors of MLX's dtypes: `i1` (bool), `ui8`..`ui64`,
    `i8`..`i64` (signless integers stand for MLX's signed ints), `f16`,
    `bf16`, `f32`, `f64`. Broadcasting is NumPy's and result dtypes follow
    MLX's promotion table; result types are inferred wherever MLX infers them.
  }];
  let hasConstantMaterializer = 1;
  let useDefaultAttributePrinterParser = 1;
  // The discardable attributes of dialects/Mlx/MlxAttributes.h.
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Mlx_Bool : TypeAlias<I1, "bool">;
def Mlx_SignedInt : AnyTypeOf<[I8, I16, I32, I64]>;
def Mlx_UnsignedInt : AnyTypeOf<[UI8, UI16, UI32, UI64]>;
def Mlx_Float : AnyTypeOf<[F16, BF16, F32, F64]>;
def Mlx_Dtype : AnyTypeOf<[I1, Mlx_SignedInt, Mlx_UnsignedInt, Mlx_Float],
                          "MLX dtype">;
def Mlx_IndexDtype : AnyTypeOf<[Mlx_SignedInt, Mlx_UnsignedInt],
                               "integer dtype">;

def Mlx_Tensor : RankedTensorOf<[Mlx_Dtype]>;
def Mlx_FloatTensor : RankedTensorOf<[Mlx_Float]>;
def Mlx_IndexTensor : RankedTensorOf<[Mlx_IndexDtype]>;
def Mlx_BoolTensor : RankedTensorOf<[I1]>;

def Mlx_DtypeAttr : TypeAttrBase<"::mlir::Type", "MLX dtype"> {
  let predicate = CPred<"::mlir::mlx::isMlxDtype("
                        "::llvm::cast<::mlir::TypeAttr>($_self).getValue())">;
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Mlx_QuantizationMode : I32EnumAttr<"QuantizationMode",
    "MLX quantization mode", [
      I32EnumAttrCase<"affine", 0>,
      I32EnumAttrCase<"mxfp4", 1>,
      I32EnumAttrCase<"mxfp8", 2>,
      I32EnumAttrCase<"nvfp4", 3>]> {
  let cppNamespace = "::mlir::mlx";
  let genSpecializedAttr = 0;
}
def Mlx_QuantizationModeAttr : EnumAttr<Mlx_Dialect, Mlx_QuantizationMode,
                                        "quantization_mode">;

//===----------------------------------------------------------------------===//
// Type inference
//===----------------------------------------------------------------------===//

/// Upstream's InferTypeOpAdaptor, except that the adaptor also sees inherent
/// attributes that are still in the attribute dictionary: the generated
/// parser infers result types right after `attr-dict`, before properties are
/// filled. A missing or ill-typed inherent attribute is a diagnostic.
def Mlx_InferTypeOpAdaptor : TraitList<[
    DeclareOpInterfaceMethods<InferTypeOpInterface>,
    NativeOpTrait<"InferTypeOpAdaptor", [], [{
      static ::llvm::LogicalResult
      inferReturnTypes(::mlir::MLIRContext *context,
                       std::optional<::mlir::Location> location,
                       Adaptor adaptor,
                       ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes);
    }], [{
      ::llvm::LogicalResult
      $cppClass::inferReturnTypes(::mlir::MLIRContext *context,
          std::optional<::mlir::Location> location,
          ::mlir::ValueRange operands, ::mlir::DictionaryAttr attributes,
          ::mlir::OpaqueProperties properties, ::mlir::RegionRange regions,
          ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
        auto emitError = [&]() {
          return ::mlir::emitError(
              location ? *location : ::mlir::UnknownLoc::get(context))
              << "'" << getOperationName() << "' op ";
        };
        // The helpers below assume MLX dtypes; the parser infers types
        // before ODS checks the operand constraints.
        for (auto [i, operand] : ::llvm::enumerate(operands)) {
          auto type = ::llvm::dyn_cast<::mlir::RankedTensorType>(
              operand.getType());
          if (!type || !::mlir::mlx::isMlxDtype(type.getElementType())) {
            if (location)
              emitError() << "operand #" << i
                          << " must be ranked tensor of MLX dtype values, "
                             "but got "
                          << operand.getType();
            return ::mlir::failure();
          }
        }
        Properties props;
        if (properties)
          props = *properties.as<Properties *>();
        // Inherent attributes still in the dictionary (the parser), then
        // the defaults of attributes left out.
        if (attributes &&
            ::mlir::failed(setPropertiesFromAttr(props, attributes, emitError)))
          return ::mlir::failure();
        populateDefaultProperties(
            ::mlir::OperationName(getOperationName(), context), props);
        $cppClass::Adaptor adaptor(operands, attributes,
                                   ::mlir::OpaqueProperties(&props), regions);
        // Required attributes may be missing in hand-written IR.
        if (::mlir::failed(adaptor.verify(
                location ? *location : ::mlir::UnknownLoc::get(context))))
          return ::mlir::failure();
        return $cppClass::inferReturnTypes(context, location, adaptor,
                                           inferredReturnTypes);
      }
    }]>
  ]>;

//===----------------------------------------------------------------------===//
// Op classes
//===----------------------------------------------------------------------===//

class Mlx_Op<string mnemonic, list<Trait> traits = []>
    : Op<Mlx_Dialect, mnemonic, traits> {
  /// The MLX primitive (its C++ class name, as an .mlxfn names it) that the
  /// importer maps to this op one to one: the node's inputs become the
  /// operands, its recorded types the results, and the primitive has no
  /// state. Empty: the importer builds the op its own way, if at all.
  /// (dialects/Mlx/gen_primitives.py makes the importer's table of them.)
  string mlxPrimitive = "";
}

/// Ops whose result types come from operands and attributes; each such op
/// defines `inferReturnTypes(context, loc, adaptor, types)` in C++ (in the file
/// of its family) unless its class below supplies it.
class Mlx_InferredOp<string mnemonic, list<Trait> traits = []>
    : Mlx_Op<mnemonic, !listconcat(traits, [Pure, Mlx_InferTypeOpAdaptor])>;

/// How an elementwise op derives its result dtype from its operands (see
/// TypePromotion.h).
class Mlx_ResultRule<string cpp> { string value = cpp; }
def Mlx_PromoteDtype : Mlx_ResultRule<"ResultRule::Promote">;
def Mlx_NumericDtype : Mlx_ResultRule<"ResultRule::Numeric">;
def Mlx_FloatDtype : Mlx_ResultRule<"ResultRule::Float">;
def Mlx_BoolDtype : Mlx_ResultRule<"ResultRule::Bool">;
def Mlx_IntegerDtype : Mlx_ResultRule<"ResultRule::Integer">;
def Mlx_ShiftDtype : Mlx_ResultRule<"ResultRule::Shift">;

class Mlx_UnaryOp<string mnemonic, Mlx_ResultRule rule, string mlxName,
                  list<Trait> traits = []>
    : Mlx_Op<mnemonic, !listconcat(traits, [Pure, Mlx_InferTypeOpAdaptor])> {
  let summary = "elementwise " # mnemonic # " (MLX: `mx." # mlxName # "`)";
  let description = [{
    Elementwise `}] # mnemonic # [{`, as MLX's `mx.}] # mlxName # [{`.

    ```mlir
    %y = mlx.}] # mnemonic # [{ %x : tensor<4xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::mlir::mlx::inferElementwiseResult(
          loc, getOperationName(), }] # rule.value # [{,
          ::mlir::ValueRange{adaptor.getX()}, types);
    }
  }];
}

class Mlx_BinaryOp<string mnemonic, Mlx_ResultRule rule, string mlxName,
                   list<Trait> traits = []>
    : Mlx_Op<mnemonic, !listconcat(traits, [Pure, Mlx_InferTypeOpAdaptor])> {
  let summary = "elementwise " # mnemonic # " with broadcasting (MLX: `mx."
                # mlxName # "`)";
  let description = [{
    Elementwise `}] # mnemonic # [{` of two tensors with NumPy broadcasting
    and MLX's type promotion, as MLX's `mx.}] # mlxName # [{`.

    ```mlir
    %z = mlx.}] # mnemonic # [{ %x, %y : tensor<2x3xf32>, tensor<3xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$lhs, Mlx_Tensor:$rhs);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::mlir::mlx::inferElementwiseResult(
          loc, getOperationName(), }] # rule.value # [{,
          ::mlir::ValueRange{adaptor.getLhs(), adaptor.getRhs()}, types);
    }
  }];
}

/// sum, prod, max, min, all, any, logsumexp: `axes` (all when absent).
class Mlx_ReduceOp<string mnemonic, string mlxName, string rule>
    : Mlx_InferredOp<mnemonic> {
  let summary = "reduction " # mnemonic # " over axes (MLX: `mx." # mlxName
                # "`)";
  let description = [{
    Reduces `x` over `axes` (every axis when `axes` is absent; negative axes
    count from the end). With `keepdims` the reduced axes stay with size 1.

    ```mlir
    %r = mlx.}] # mnemonic # [{ %x {axes = array<i64: -1>, keepdims = true} : tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, OptionalAttr<DenseI64ArrayAttr>:$axes,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdims);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::mlir::mlx::inferReduceResult(loc, getOperationName(),
          }] # rule # [{, adaptor.getX(), adaptor.getAxes(),
          adaptor.getKeepdims(), types);
    }
  }];
}

/// argmax, argmin: one axis, uint32 indices.
class Mlx_ArgReduceOp<string mnemonic> : Mlx_InferredOp<mnemonic> {
  let summary = "index of the " # !substr(mnemonic, 3) #
                " along an axis (MLX: `mx." # mnemonic # "`)";
  let description = [{
    Index (uint32) of the first }] # !substr(mnemonic, 3) # [{imum along
    `axis`; the axis is removed unless `keepdims`.

    ```mlir
    %i = mlx.}] # mnemonic # [{ %x {axis = 1 : i64} : tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, I64Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdims);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      int64_t axis = adaptor.getAxis();
      return ::mlir::mlx::inferReduceResult(loc, getOperationName(),
          ReduceRule::Index, adaptor.getX(), ::llvm::ArrayRef<int64_t>(axis),
          adaptor.getKeepdims(), types);
    }
  }];
}

/// cumsum, cumprod, cummax, cummin.
class Mlx_ScanOp<string mnemonic, string rule> : Mlx_InferredOp<mnemonic> {
  let summary = "inclusive/exclusive scan along an axis (MLX: `mx." #
                mnemonic # "`)";
  let description = [{
    Running `}] # !substr(mnemonic, 3) # [{` along `axis`, optionally
    `reverse`d; `inclusive = false` shifts the result by one (identity first).

    ```mlir
    %c = mlx.}] # mnemonic # [{ %x {axis = 0 : i64} : tensor<4xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$x, I64Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$reverse,
                       DefaultValuedAttr<BoolAttr, "true">:$inclusive);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::mlir::mlx::inferScanResult(loc, getOperationName(),
          }] # rule # [{, adaptor.getX(), adaptor.getAxis(), types);
    }
  }];
}

/// scatter, scatter_add, scatter_prod, scatter_max, scatter_min.
class Mlx_ScatterOpBase<string mnemonic>
    : Mlx_InferredOp<mnemonic> {
  let summary = mnemonic # " of slices into `src` (MLX: `mx." # mnemonic #
                "`)";
  let description = [{
    MLX's Scatter primitive: `updates` has shape
    `broadcast(indices) ++ slice shape`; index array `i` indexes axis
    `axes[i]` of `src`. The result has the type of `src`.

    ```mlir
    %r = mlx.}] # mnemonic # [{ %src[%idx], %upd {axes = array<i64: 0>}
        : tensor<8x4xf32>[tensor<3xi32>], tensor<3x1x4xf32>
    ```
  }];
  let arguments = (ins Mlx_Tensor:$src, Variadic<Mlx_IndexTensor>:$indices,
                       Mlx_Tensor:$updates, DenseI64ArrayAttr:$axes);
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = [{
    $src (`[` $indices^ `]`)? `,` $updates attr-dict `:` type($src)
    (`[` type($indices)^ `]`)? `,` type($updates)
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::mlir::mlx::inferScatterResult(loc, getOperationName(),
          adaptor.getSrc(), adaptor.getIndices(), adaptor.getUpdates(),
          adaptor.getAxes(), types);
    }
  }];
}

/// sort, argsort, partition, argpartition.
class Mlx_SortOpBase<string mnemonic, bit hasKth, bit isArg>
    : Mlx_InferredOp<mnemonic> {
  let summary = !if(isArg, "indices that would ", "") #
                !if(hasKth, "partition", "sort") #
                " along an axis (MLX: `mx." # mnemonic # "`)";
  let description = [{
    MLX's `}] # mnemonic # [{` along `axis` (default -1)}] #
    !if(hasKth, "; element `kth` lands in its sorted place", "") #
    !if(isArg, "; the result is uint32 indices", "") # [{.

    ```mlir
    %r = mlx.}] # mnemonic # [{ %x {axis = -1 : i64}}] #
    !if(hasKth, ", kth = 1 : i64", "") # [{} : tensor<4xf32>
    ```
  }];
  let arguments = !con((ins Mlx_Tensor:$x,
                            DefaultValuedAttr<I64Attr, "-1">:$axis),
                       !if(hasKth, (ins I64Attr:$kth), (ins)));
  let results = (outs Mlx_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::mlir::mlx::inferSortResult(loc, getOperationName(),
          adaptor.getX(), adaptor.getAxis(), }] #
          !if(hasKth, "std::optional<int64_t>(adaptor.getKth())",
              "std::nullopt") # [{, }] # !if(isArg, "true", "false") # [{,
          types);
    }
  }];
}

#endif // MLX_BASE_TD
