// The parts of a report that every format shares: the statuses' words and the full-marks rule.
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
  }
  return "error";
}

bool is_wrong_answer(Status status) { return status == Status::Failed || status == Status::NotImplemented; }

bool Report::full_marks() const { return !grader_fault && std::abs(score - max_score) < 1e-9; }

}  // namespace grader
