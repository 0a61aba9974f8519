//===- InputLimits.h - limits on textual input the tools accept ---*- C++ -*-===//
//
// MLIR's parser recurses once per nesting level of brackets, so a hostile
// file with tens of thousands of `[` overflows the stack. The tools check the
// depth before parsing and report the first bracket past the limit.
//
//===----------------------------------------------------------------------===//

#ifndef MLXC_TOOLS_INPUTLIMITS_H
#define MLXC_TOOLS_INPUTLIMITS_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/SourceMgr.h"

namespace mlxc {

/// Far above any real graph (a rank-8 dense literal nests 9 deep) and far
/// below what the parser's stack holds.
constexpr unsigned kMaxNestingDepth = 256;

/// Fails with an error at the first bracket ((, [, {, <) that opens level
/// kMaxNestingDepth + 1 of `buffer`; string literals and `//` comments are
/// skipped, and `->` closes nothing.
inline mlir::LogicalResult checkNestingDepth(const llvm::SourceMgr &sourceMgr,
                                             unsigned bufferId) {
  llvm::StringRef text =
      sourceMgr.getMemoryBuffer(bufferId)->getBuffer();
  unsigned depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (c == '"') {
      for (++i; i < e && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '/' && i + 1 < e && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == llvm::StringRef::npos)
        break;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > kMaxNestingDepth) {
        // No source line: it may be megabytes long.
        auto [line, column] = sourceMgr.getLineAndColumn(
            llvm::SMLoc::getFromPointer(text.data() + i), bufferId);
        llvm::errs() << sourceMgr.getMemoryBuffer(bufferId)
                            ->getBufferIdentifier()
                     << ":" << line << ":" << column
                     << ": error: brackets nest deeper than "
                     << kMaxNestingDepth
                     << " levels; this is not a graph the tools can read\n";
        return mlir::failure();
      }
    } else if ((c == ')' || c == ']' || c == '}' ||
                (c == '>' && (i == 0 || text[i - 1] != '-'))) &&
               depth > 0) {
      --depth;
    }
  }
  return mlir::success();
}

/// checkNestingDepth on the main buffer.
inline mlir::LogicalResult checkNestingDepth(const llvm::SourceMgr &sourceMgr) {
  return checkNestingDepth(sourceMgr, sourceMgr.getMainFileID());
}

} // namespace mlxc

#endif // MLXC_TOOLS_INPUTLIMITS_H
