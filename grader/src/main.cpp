// linattn-grade: the judge's command line (`./kit grade` calls it).
// Exit status: 0 full marks, 1 graded but not full marks, 2 could not grade.
#include "batch.hpp"
#include "course_seeds.hpp"
#include "grader_config.hpp"
#include "engine.hpp"
#include "progress.hpp"
#include "options.hpp"
#include "oracle_source.hpp"
#include "report.hpp"
#include "try_run.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.close();
  if (!f) {
    std::cerr << "linattn-grade: cannot write " << path << "\n";
    return false;
  }
  return true;
}

// Texts are made valid UTF-8 when a report is assembled; replacing here too means no stray
// byte can ever stop a report from being written.
std::string json_text(const nlohmann::json& j) {
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

bool colour_wanted() {
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour && *no_colour) return false;
  return isatty(STDOUT_FILENO);
}

// --record-oracle FILE [--visible-only]: the release step's recording of every check's
// request and expected values, for a kit without the reference to replay.
int record(int argc, char** argv) {
  std::string path;
  bool visible_only = false;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--visible-only") visible_only = true;
    else if (path.empty() && !a.empty() && a[0] != '-') path = a;
    else {
      std::cerr << "linattn-grade: --record-oracle FILE [--visible-only]; unexpected " << a << "\n";
      return 2;
    }
  }
  if (path.empty()) {
    std::cerr << "linattn-grade: --record-oracle needs a file to write\n";
    return 2;
  }
#ifdef LINATTN_NO_REFERENCE
  (void)visible_only;
  std::cerr << "linattn-grade: --record-oracle needs the reference, and this kit has none\n";
  return 2;
#else
  try {
    if (!grader::write_oracle_file(path, grader::record_oracle(visible_only))) {
      std::cerr << "linattn-grade: cannot write " << path << "\n";
      return 2;
    }
  } catch (const std::exception& e) {
    std::cerr << "linattn-grade: recording the expected values failed: " << e.what() << "\n";
    return 2;
  }
  return 0;
#endif
}

}  // namespace

int main(int argc, char** argv) {
  // `--kit DIR` comes first when the kit script calls us: the default submission is
  // DIR/exercises, written relative to where the user stands when that is shorter.
  std::string default_submission = "exercises";
  int first = 1;
  if (argc > 2 && std::string(argv[1]) == "--kit") {
    std::error_code ec;
    const fs::path rel = fs::relative(fs::path(argv[2]) / "exercises", fs::current_path(), ec);
    default_submission = ec ? (fs::path(argv[2]) / "exercises").string() : rel.string();
    first = 3;
  }
  if (argc > first && std::string(argv[first]) == "--try") {
    if (argc - first < 2 || argc - first > 3) {
      std::cerr << "usage: ./kit try EXERCISE [DIR]   (DIR defaults to exercises/)\n";
      return 2;
    }
    try {
      return grader::run_try(argv[first + 1], argc - first == 3 ? argv[first + 2] : default_submission);
    } catch (const std::exception& e) {
      std::cerr << "linattn-grade: " << e.what() << "\n";
      return 2;
    }
  }
  if (argc > first && std::string(argv[first]) == "--make-course-key")
    try {
      grader::course_key(LINATTN_SOURCE_DIR);
      return 0;
    } catch (const std::exception& e) {
      std::cerr << "linattn-grade: " << e.what() << "\n";
      return 2;
    }
  if (argc > first && std::string(argv[first]) == "--record-oracle")
    return record(argc - first - 1, argv + first + 1);
  if (argc > first && std::string(argv[first]) == "--batch")
    try {
      return grader::run_batch(argc - first - 1, argv + first + 1);
    } catch (const std::exception& e) {
      std::cerr << "linattn-grade: batch grading failed: " << e.what() << "\n";
      return 2;
    }
  for (int i = first; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::cout << grader::kUsage;
      return 0;
    }
  std::string error;
  auto options = grader::parse_options(argc - first, argv + first, default_submission, error);
  if (!options) {
    std::cerr << "linattn-grade: " << error << "\n" << grader::kUsage;
    return 2;
  }
  try {
    // A cold build takes seconds: show where it is, on a terminal only.
    const grader::Report report =
        grader::grade_many({options->submission}, *options,
                           options->quiet ? grader::Progress{} : grader::stderr_progress(false))
            .front();
    grader::clear_progress_line();
    if (!options->quiet) grader::print_terminal(report, std::cout, colour_wanted());
    bool written = true;
    if (!options->json_path.empty())
      written &= write_file(options->json_path, json_text(grader::to_native_json(report)));
    if (!options->gradescope_path.empty())
      written &= write_file(options->gradescope_path, json_text(grader::to_gradescope_json(report)));
    if (!options->junit_path.empty()) written &= write_file(options->junit_path, grader::to_junit_xml(report));
    if (!options->classroom_path.empty())
      written &= write_file(options->classroom_path, json_text(grader::to_github_classroom_json(report)));
    if (!written || report.grader_fault) return 2;
    return report.full_marks() ? 0 : 1;
  } catch (const grader::UsageError& e) {
    std::cerr << "linattn-grade: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "linattn-grade: the grader failed: " << e.what() << "\n";
    return 2;
  }
}
