#include "batch.hpp"

#include "engine.hpp"
#include "progress.hpp"
#include "grader_config.hpp"
#include "sha256.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace grader {

namespace {

namespace fs = std::filesystem;

const char* const kBatchUsage = "usage: ./kit grade-all DIR [--out OUT] [--jobs N] [--seed N] [--visible-only]\n";

std::string read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// What decides a submission's grade: its five files, the kit's programs, the options.
std::string stamp_of(const fs::path& submission, const std::string& kit_hash, const Options& o) {
  Sha256 h;
  h.add(kit_hash);
  h.add(o.seed ? std::to_string(*o.seed) : "own seeds");
  h.add(o.visible_only ? "visible" : "all");
  for (const std::string ex : {LINATTN_EXERCISE_LIST}) {
    h.add(ex);
    add_file(h, submission / ex / (ex + ".cpp"));
  }
  return h.hex();
}

std::string kit_hash() {
  Sha256 h;
  add_file(h, "/proc/self/exe");  // the judge and every check are in this program
  add_file(h, fs::path(LINATTN_SOURCE_DIR) / "course-key");  // the course's seeds
  for (const std::string ex : {LINATTN_EXERCISE_LIST})
    add_file(h, fs::path(LINATTN_HARNESS_DIR) / ("liblinattn_harness_" + ex + ".a"));
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(LINATTN_SOURCE_DIR) / "exercises"))
    if (entry.path().extension() == ".hpp") {
      h.add(entry.path().string());
      add_file(h, entry.path());
    }
  return h.hex();
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string number(double x) {
  std::ostringstream o;
  o << x;
  return o.str();
}

}  // namespace

int run_batch(int argc, char** argv) {
  std::string dir, out;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--out" && i + 1 < argc) {
      out = argv[++i];
    } else if (a.rfind("--", 0) != 0 && dir.empty()) {
      dir = a;
    } else {
      rest.push_back(argv[i]);
    }
  }
  if (dir.empty() || !fs::is_directory(dir)) {
    std::cerr << "linattn-grade: grade-all needs a folder of submissions\n" << kBatchUsage;
    return 2;
  }
  std::string error;
  auto options = parse_options(static_cast<int>(rest.size()), rest.data(), dir, error);
  // Grading a class is course grading: never without a sandbox.
  if (options) options->strict = true;
  if (options) options->course = true;  // and with the course's own seeds
  if (!options || options->submission != dir || !options->only_exercise.empty() ||
      !options->json_path.empty() || !options->junit_path.empty() || !options->gradescope_path.empty()) {
    std::cerr << "linattn-grade: " << (error.empty() ? "that option does not apply to grade-all" : error)
              << "\n" << kBatchUsage;
    return 2;
  }
  // "submissions/" and "submissions" alike give "submissions-grades", beside the folder.
  fs::path folder = fs::path(dir).lexically_normal();
  if (folder.filename().empty()) folder = folder.parent_path();
  if (out.empty()) out = folder.string() + "-grades";
  const fs::path reports_dir = fs::path(out) / "reports";
  fs::create_directories(reports_dir);

  // The submissions, and which of them changed since their report.
  const std::string kit = kit_hash();
  std::vector<std::string> names, to_grade;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory() && name[0] != '.') names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  std::vector<std::string> stamps;
  for (const auto& name : names) {
    const std::string stamp = stamp_of(fs::path(dir) / name, kit, *options);
    const fs::path report = reports_dir / (name + ".json");
    bool fresh = false;
    if (fs::exists(report)) {
      try {
        fresh = nlohmann::json::parse(read_text(report)).value("stamp", "") == stamp;
      } catch (const std::exception&) {
        fresh = false;  // an unreadable report is graded again
      }
    }
    if (!fresh) {
      to_grade.push_back((fs::path(dir) / name).string());
      stamps.push_back(stamp);
    }
  }
  std::cerr << "grade-all: " << names.size() << " submissions, " << to_grade.size()
            << " to grade, " << names.size() - to_grade.size() << " unchanged since their report\n";

  const Progress progress = stderr_progress(/*lines_in_logs=*/true);

  bool fault = false;
  if (!to_grade.empty()) {
    const auto reports = grade_many(to_grade, *options, progress);
    clear_progress_line();
    for (std::size_t i = 0; i < reports.size(); ++i) {
      nlohmann::json j = to_native_json(reports[i]);
      j["stamp"] = stamps[i];
      fault |= reports[i].grader_fault;
      const std::string name = fs::path(to_grade[i]).filename().string();
      std::ofstream file(reports_dir / (name + ".json"));
      file << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
      if (!file) throw std::runtime_error("cannot write the report of " + name);
    }
  }

  // The gradebook, from every report on disk (fresh or kept).
  const std::vector<std::string> exercises = {LINATTN_EXERCISE_LIST};
  std::ofstream csv(fs::path(out) / "gradebook.csv");
  csv << "submission";
  for (const auto& ex : exercises) csv << "," << ex;
  csv << ",total,max_score\n";
  for (const auto& name : names) {
    const auto j = nlohmann::json::parse(read_text(reports_dir / (name + ".json")));
    csv << csv_field(name);
    for (const auto& ex : exercises) {
      double score = 0;
      for (const auto& e : j["exercises"])
        if (e["name"] == ex) score = e["score"].get<double>();
      csv << "," << number(score);
    }
    csv << "," << number(j["score"].get<double>()) << "," << number(j["max_score"].get<double>()) << "\n";
  }
  csv.close();
  std::cerr << "grade-all: wrote " << (fs::path(out) / "gradebook.csv").string() << " and "
            << names.size() << " reports in " << reports_dir.string() << "\n";
  return (fault || !csv) ? 2 : 0;
}

}  // namespace grader
