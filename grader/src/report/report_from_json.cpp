// A native report read back: see report_from_json.hpp.
#include "report_from_json.hpp"

namespace grader {

using nlohmann::json;

std::string json_text(const json& j, const char* key) {
  const auto at = j.find(key);
  return at != j.end() && at->is_string() ? at->get<std::string>() : "";
}

double json_number(const json& j, const char* key) {
  const auto at = j.find(key);
  return at != j.end() && at->is_number() ? at->get<double>() : 0.0;
}

namespace {

std::uint64_t count_of(const json& j, const char* key) {
  const auto at = j.find(key);
  return at != j.end() && at->is_number_unsigned() ? at->get<std::uint64_t>() : 0;
}

std::vector<std::string> texts_of(const json& j, const char* key) {
  std::vector<std::string> out;
  const auto at = j.find(key);
  if (at == j.end() || !at->is_array()) return out;
  for (const auto& item : *at)
    if (item.is_string()) out.push_back(item.get<std::string>());
  return out;
}

const json& array_of(const json& j, const char* key) {
  static const json empty = json::array();
  const auto at = j.find(key);
  return at != j.end() && at->is_array() ? *at : empty;
}

// The inverse of status_name, over every Status there is.
Status status_from(const std::string& word) {
  for (Status s : {Status::Passed, Status::Failed, Status::NotImplemented, Status::Error,
                   Status::Crashed, Status::Timeout, Status::OverMemory, Status::BuildError,
                   Status::Ambiguous, Status::GraderFault})
    if (word == status_name(s)) return s;
  return Status::Error;
}

CheckResult check_from(const json& j) {
  CheckResult c;
  c.name = json_text(j, "name");
  c.function = json_text(j, "function");
  c.status = status_from(json_text(j, "status"));
  c.score = json_number(j, "score");
  c.max_score = json_number(j, "max_score");
  c.seed = count_of(j, "seed");
  c.message = json_text(j, "message");
  c.output = json_text(j, "output");
  c.seconds = json_number(j, "seconds");
  c.visibility = json_text(j, "visibility");
  c.rerun = json_text(j, "rerun");
  c.peak_heap_bytes = count_of(j, "peak_heap_bytes");
  c.reason = json_text(j, "reason");
  c.grader_fault = c.status == Status::GraderFault;
  return c;
}

ExerciseResult exercise_from(const json& j) {
  ExerciseResult ex;
  ex.name = json_text(j, "name");
  ex.score = json_number(j, "score");
  ex.max_score = json_number(j, "max_score");
  const auto build = j.find("build");
  if (build != j.end() && build->is_object()) {
    const auto ok = build->find("ok");
    ex.build_ok = ok != build->end() && ok->is_boolean() && ok->get<bool>();
    ex.build_log = json_text(*build, "log");
    ex.build_seconds = json_number(*build, "seconds");
  }
  for (const auto& c : array_of(j, "checks"))
    if (c.is_object()) ex.checks.push_back(check_from(c));
  for (const auto& c : array_of(j, "course_only"))
    if (c.is_object())
      ex.course_only.emplace_back(json_text(c, "name"), json_number(c, "max_score"));
  ex.source = json_text(j, "source");
  ex.source_status = json_text(j, "source_status");
  ex.source_others = texts_of(j, "source_others");
  return ex;
}

}  // namespace

Report report_from_native_json(const json& j) {
  Report r;
  if (!j.is_object()) return r;
  r.submission = json_text(j, "submission");
  r.score = json_number(j, "score");
  r.max_score = json_number(j, "max_score");
  r.seconds = json_number(j, "seconds");
  r.isolation = json_text(j, "isolation");
  r.assignment = json_text(j, "assignment");
  r.notices = texts_of(j, "notices");
  r.seeds = json_text(j, "seeds");
  r.student = json_text(j, "student");
  for (const auto& ex : array_of(j, "exercises"))
    if (ex.is_object()) r.exercises.push_back(exercise_from(ex));
  r.grader_fault = false;
  for (const auto& ex : r.exercises)
    for (const auto& c : ex.checks) r.grader_fault |= c.grader_fault;
  return r;
}

}  // namespace grader
