//===- KernelGraph.cpp - the kernel graph as Graphviz
//----------------------===//
//
// `mlxc --emit=dot`: the graph as the user sees it after kernel formation.
// Each kernel region is a cluster (its number, strategy and ops), each
// tensor between kernels an edge with its shape, bytes and placement.
//
//===----------------------------------------------------------------------===//

#include "codegen/Kernels/KernelGraph.h"

#include "Kernel/KernelOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace {

/// Escapes `text` for a double-quoted Graphviz label.
std::string escape(StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

std::string formatBytes(int64_t bytes) {
  if (bytes >= (int64_t(1) << 30) && bytes % (int64_t(1) << 20) == 0)
    return llvm::formatv("{0:F1} GiB", bytes / double(int64_t(1) << 30)).str();
  if (bytes >= (1 << 20))
    return llvm::formatv("{0:F1} MiB", bytes / double(1 << 20)).str();
  if (bytes >= (1 << 10))
    return llvm::formatv("{0:F1} KiB", bytes / double(1 << 10)).str();
  return std::to_string(bytes) + " B";
}

/// "16384x4096 f32, 256.0 MiB" (bool is stored as one byte).
std::string describe(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (!shaped) {
    os << type;
    return text;
  }
  os << (shaped.getRank()
             ? llvm::join(
                   llvm::map_range(shaped.getShape(),
                                   [](int64_t d) { return std::to_string(d); }),
                   "x")
             : std::string("scalar"))
     << " " << shaped.getElementType();
  if (shaped.hasStaticShape() && shaped.getElementType().isIntOrFloat()) {
    int64_t bits =
        std::max<int64_t>(8, shaped.getElementType().getIntOrFloatBitWidth());
    os << ", " << formatBytes(shaped.getNumElements() * bits / 8);
  }
  return text;
}

/// One line per op of a region: the op's name and, for a generic, its
/// loop kinds and the arithmetic of its body.
std::string summarize(Operation &op) {
  std::string text = op.getName().getStringRef().str();
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic)
    return text;
  int64_t reductions = generic.getNumReductionLoops();
  text += reductions ? " (reduce " + std::to_string(reductions) + " of " +
                           std::to_string(generic.getNumLoops()) + " loops)"
                     : " (map)";
  SmallVector<std::string> body;
  for (Operation &inner : generic.getBody()->without_terminator()) {
    if (body.size() == 4) {
      body.push_back("...");
      break;
    }
    body.push_back(inner.getName().getStringRef().str());
  }
  if (!body.empty())
    text += ": " + llvm::join(body, " ");
  return text;
}

/// The value `value` stands for once views are looked through.
Value throughViews(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
      break;
    value = def->getOperand(0);
  }
  return value;
}

} // namespace

void mlx::printKernelGraph(func::FuncOp func, const KernelGraphOptions &options,
                           raw_ostream &os) {
  os << "digraph \"" << escape(func.getSymName()) << "\" {\n"
     << "  rankdir=TB;\n  node [shape=box, fontname=\"Helvetica\", "
        "fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n";
  std::string title =
      (options.title.empty() ? func.getSymName().str() : options.title) + " (" +
      (options.cuda ? "cuda" : "cpu") + ")";
  if (options.deviceArenaBytes || options.unifiedArenaBytes)
    title +=
        "\ndevice arena " + formatBytes(options.deviceArenaBytes.value_or(0)) +
        ", unified arena " + formatBytes(options.unifiedArenaBytes.value_or(0));
  os << "  label=\"" << escape(title) << "\";\n  labelloc=t;\n";

  Block &block = func.getBody().front();
  DenseMap<Value, std::string> nodeOf; // value -> producing node
  DenseMap<Operation *, std::string> opNode;
  auto returned = [&](Value value) {
    return llvm::any_of(value.getUsers(), [](Operation *user) {
      return isa<func::ReturnOp>(user);
    });
  };
  auto placement = [&](Value value, bool isInput) -> std::string {
    if (!options.cuda)
      return "host";
    if (isInput || returned(value))
      return options.streamIO ? "streamed" : "unified";
    // Host code reads it (a loop, a host read): unified memory.
    bool host = llvm::any_of(value.getUsers(), [&](Operation *user) {
      Operation *top = block.findAncestorOpInBlock(*user);
      return top && !isa<kernel::RegionOp, func::ReturnOp,
                         tensor::ExpandShapeOp, tensor::CollapseShapeOp>(top);
    });
    return host ? "unified" : "device";
  };

  for (BlockArgument arg : func.getArguments()) {
    std::string node = "in" + std::to_string(arg.getArgNumber());
    unsigned i = arg.getArgNumber();
    std::string name =
        i < options.inputNames.size() ? options.inputNames[i] : node;
    os << "  " << node << " [shape=ellipse, label=\""
       << escape(name + "\n" + describe(arg.getType()) + "\n" +
                 placement(arg, true))
       << "\"];\n";
    nodeOf[arg] = node;
  }

  // Kernels (and host ops that are no kernel) in program order.
  int64_t kernelNumber = 0, hostNumber = 0;
  for (Operation &op : block) {
    if (auto region = dyn_cast<kernel::RegionOp>(op)) {
      std::string node = "k" + std::to_string(kernelNumber);
      os << "  subgraph cluster_" << kernelNumber << " {\n    label=\""
         << escape("kernel " + std::to_string(kernelNumber) + ": " +
                   kernel::stringifyStrategy(region.getStrategy()).str())
         << "\";\n    style=rounded;\n    " << node
         << " [shape=plaintext, label=\"";
      SmallVector<std::string> lines;
      for (Operation &inner : region.getBody().front().without_terminator())
        if (isa<linalg::LinalgOp, tensor::InsertSliceOp, tensor::PadOp,
                tensor::ConcatOp>(inner))
          lines.push_back(summarize(inner));
      os << escape(llvm::join(lines, "\n")) << "\"];\n  }\n";
      opNode[&op] = node;
      for (Value result : region.getResults())
        nodeOf[result] = node;
      ++kernelNumber;
      continue;
    }
    if (isa<func::ReturnOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp,
            tensor::EmptyOp>(op) ||
        op.hasTrait<OpTrait::ConstantLike>() || op.getNumResults() == 0)
      continue;
    std::string node = "h" + std::to_string(hostNumber++);
    os << "  " << node << " [style=dashed, label=\""
       << escape("host: " + op.getName().getStringRef().str()) << "\"];\n";
    opNode[&op] = node;
    for (Value result : op.getResults())
      nodeOf[result] = node;
  }

  // Edges: every tensor a kernel or host op reads from another node.
  auto edgesInto = [&](Operation &op, const std::string &target) {
    llvm::SetVector<Value> sources;
    for (Value operand : op.getOperands())
      sources.insert(throughViews(operand));
    for (Value source : sources) {
      auto it = nodeOf.find(source);
      if (it == nodeOf.end() || it->second == target)
        continue;
      bool isInput = isa<BlockArgument>(source);
      os << "  " << it->second << " -> " << target << " [label=\""
         << escape(describe(source.getType()) + "\n" +
                   placement(source, isInput))
         << "\"];\n";
    }
  };
  for (Operation &op : block)
    if (auto it = opNode.find(&op); it != opNode.end())
      edgesInto(op, it->second);
  auto ret = cast<func::ReturnOp>(block.getTerminator());
  for (auto [index, value] : llvm::enumerate(ret.getOperands())) {
    std::string node = "out" + std::to_string(index);
    std::string name =
        index < options.outputNames.size() ? options.outputNames[index] : node;
    os << "  " << node << " [shape=ellipse, label=\""
       << escape(name + "\n" + describe(value.getType())) << "\"];\n";
    auto it = nodeOf.find(throughViews(value));
    if (it != nodeOf.end())
      os << "  " << it->second << " -> " << node << " [label=\""
         << escape(placement(value, false)) << "\"];\n";
  }
  os << "}\n";
}
