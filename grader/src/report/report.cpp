// The parts of a report that every format shares: the statuses' words, the full-marks rule and
// the likely mistake a message names.
#include "report.hpp"

#include <cmath>

namespace grader {

const char* status_name(Status status) {
  switch (status) {
    case Status::Passed: return "passed";
    case Status::Failed: return "failed";
    case Status::NotImplemented: return "not_implemented";
    case Status::Error: return "error";
    case Status::Crashed: return "crashed";
    case Status::Timeout: return "timeout";
    case Status::OverMemory: return "over_memory";
    case Status::BuildError: return "build_error";
    case Status::Ambiguous: return "ambiguous";
    case Status::GraderFault: return "grader_fault";
  }
  return "error";
}

bool is_wrong_answer(Status status) {
  return status == Status::Failed || status == Status::NotImplemented;
}

std::string likely_mistake(const std::string& message) {
  const std::string label = "Likely mistake: ";
  std::size_t at = message.rfind("\n" + label);
  at = at == std::string::npos ? (message.rfind(label, 0) == 0 ? 0 : std::string::npos) : at + 1;
  if (at == std::string::npos) return "";
  const std::size_t from = at + label.size();
  return message.substr(from, message.find('\n', from) - from);
}

bool Report::full_marks() const { return !grader_fault && std::abs(score - max_score) < 1e-9; }

}  // namespace grader
