#include "crash_text.hpp"

#include <csignal>

namespace grader {

namespace {

bool has(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

// Eigen's assertion in Block.h: a block, middleRows, segment, row or col that reaches past
// the last row or column of its matrix.
bool block_past_the_end(const std::string& output) {
  return has(output, "Block.h") && (has(output, "startRow") || has(output, "(i>=0)"));
}

// Eigen's assertion in DenseCoeffsBase.h: m(i, j) or v(i) with an index out of range.
bool index_out_of_range(const std::string& output) {
  return has(output, "DenseCoeffsBase.h") &&
         (has(output, "row < rows()") || has(output, "index < size()"));
}

}  // namespace

std::string crash_explanation(int signal, const std::string& output,
                              const std::string& crash_hint) {
  std::string text;
  if (signal == SIGABRT && block_past_the_end(output)) {
    text =
        " Eigen stopped a block access past the end of a matrix: a block, middleRows, "
        "topRows, segment, row or col asked for rows or columns the matrix does not have "
        "(start + count beyond its size).";
  } else if (signal == SIGABRT && index_out_of_range(output)) {
    text =
        " Eigen stopped an index out of range: m(i, j) or v(i) with i or j past the last "
        "row, column or entry.";
  } else if (signal == SIGABRT) {
    text =
        " An abort usually comes from a failed assertion; Eigen's assertions name a "
        "shape mismatch (see what your code printed).";
  }
  if (signal == SIGABRT && !crash_hint.empty()) text += "\nLikely mistake: " + crash_hint;
  if (signal == SIGSEGV)
    text +=
        " A segmentation fault is an access outside memory you own: an index out of "
        "range, or a dangling reference.";
  return text;
}

}  // namespace grader
