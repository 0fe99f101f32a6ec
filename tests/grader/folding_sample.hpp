// The sample run both reports for people are tested on (test_terminal_folding.cpp,
// test_report_html.cpp): one exercise whose checks show every kind of folding, so that the
// terminal's and the page's tests look at the very same run.
#pragma once

#include "src/report/report.hpp"
#include "status_words.hpp"

#include <string>

namespace grader_test {

inline bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

inline std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

inline grader::CheckResult check(const std::string& name, const std::string& function,
                                 const std::string& status, double max,
                                 const std::string& message = "") {
  grader::CheckResult c;
  c.name = name;
  c.function = function;
  c.status = status_called(status);
  c.max_score = max;
  c.score = status == "passed" ? max : 0;
  c.seed = 1;
  c.visibility = "visible";
  c.message = message;
  if (status != "passed") c.rerun = "./kit grade sub --only chunkwise/" + name + " --seed 1";
  return c;
}

// One exercise: a passed check, three checks that share the strict-mask slip, one with a
// mistake of its own, and a function not written yet (three checks).
inline grader::Report sample() {
  const std::string mask = "Likely mistake: the mask drops the diagonal.";
  grader::ExerciseResult ex;
  ex.name = "chunkwise";
  ex.build_ok = true;
  ex.checks = {
      check("chunk-one", "f", "passed", 3),
      check("hand-example", "f", "failed", 4, "details of hand-example\n" + mask),
      check("uneven-last-chunk", "f", "failed", 5, "details of uneven-last-chunk\n" + mask),
      check("large-eps", "f", "failed", 2,
            "details of large-eps\nLikely mistake: eps added twice."),
      check("many-chunk-sizes", "f", "crashed", 4, "details of many-chunk-sizes\n" + mask),
      check("g/one", "g", "not_implemented", 1),
      check("g/two", "g", "not_implemented", 1.5),
      check("g/three", "g", "not_implemented", 2)};
  for (const auto& c : ex.checks) ex.max_score += c.max_score;
  ex.score = 3;
  grader::Report r;
  r.submission = "sub";
  r.exercises = {ex};
  r.score = ex.score;
  r.max_score = ex.max_score;
  return r;
}

}  // namespace grader_test
