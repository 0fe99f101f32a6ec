// linattn-grade: the judge's command line (`./kit grade` calls it).
// Exit status: 0 full marks, 1 graded but not full marks, 2 could not grade.
#include "../course/archive_staging.hpp"
#include "../course/batch.hpp"
#include "../course/grade_shards.hpp"
#include "../engine/assignment.hpp"
#include "../engine/course_seeds.hpp"
#include "../engine/engine.hpp"
#include "../engine/oracle_source.hpp"
#include "../engine/progress.hpp"
#include "../judge/api_schemas.hpp"
#include "../report/report.hpp"
#include "../report/report_github_summary.hpp"
#include "../report/report_html.hpp"
#include "../report/report_prairielearn.hpp"
#include "command_line.hpp"
#include "grader_config.hpp"
#include "try_run.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <variant>
#include <unistd.h>

namespace {

// `append`: the job summary is shared by the steps of a job, each adding its text to it.
bool write_file(const std::string& path, const std::string& text, bool append = false) {
  std::ofstream f(path, std::ios::binary | (append ? std::ios::app : std::ios::trunc));
  f << text;
  f.close();
  if (!f) {
    std::cerr << "linattn-grade: cannot write " << path << "\n";
    return false;
  }
  return true;
}

std::string github_summary_path() {
  const char* path = std::getenv("GITHUB_STEP_SUMMARY");
  return path ? path : "";
}

// 32 hex digits from the system's entropy: what ::stop-commands:: needs.
std::string command_pause_token() {
  std::random_device entropy;
  std::string token;
  for (int i = 0; i < 4; ++i) {
    char part[9];
    std::snprintf(part, sizeof part, "%08x", static_cast<unsigned>(entropy()));
    token += part;
  }
  return token;
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

// record-oracle FILE [--visible-only] [--assignment NAME]: the release step's recording of the
// assignment's checks (requests and expected values), for a kit without the reference to replay.
int record(const grader::Command& c) {
#ifdef LINATTN_NO_REFERENCE
  (void)c;
  std::cerr << "linattn-grade: record-oracle needs the reference, and this kit has none\n";
  return 2;
#else
  grader::Assignment assignment;
  try {
    assignment = grader::load_assignment(LINATTN_SOURCE_DIR, c.options.assignment,
                                         grader::exercise_checks());
  } catch (const grader::AssignmentError& e) {
    std::cerr << "linattn-grade: " << e.what() << "\n";
    return 2;
  }
  try {
    if (!grader::write_oracle_file(c.record_path,
                                   grader::record_oracle(assignment, c.options.visible_only))) {
      std::cerr << "linattn-grade: cannot write " << c.record_path << "\n";
      return 2;
    }
  } catch (const std::exception& e) {
    std::cerr << "linattn-grade: recording the expected values failed: " << e.what() << "\n";
    return 2;
  }
  return 0;
#endif
}

// A folder of the grader's, removed when grading is done.
struct StagingFolder {
  std::filesystem::path path;
  ~StagingFolder() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};

// prairielearn_path: where PrairieLearn's results.json goes (empty: not written); kept out of
// Options, which the engine reads, since only this writer needs it.
int grade(const grader::Options& given, const std::string& prairielearn_path) {
  try {
    if (given.github_summary && github_summary_path().empty())
      throw grader::UsageError(
          "--github-summary writes to the file $GITHUB_STEP_SUMMARY names, and it is not set "
          "(it is, in a GitHub Actions step)");
    // Archives at the top of the folder (a student's causal.zip, an upload to Gradescope):
    // unpacked by grade-all's own code (archive_staging.hpp) into a folder of the grader's and
    // graded with the loose files; the report keeps the folder's own name and says what was
    // unpacked or refused.
    grader::Options options = given;
    StagingFolder staging;
    std::vector<std::string> intake;
    if (std::filesystem::is_directory(given.submission))
      if (const auto archives = grader::archives_in(given.submission); !archives.empty()) {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "linattn-grade-XXXXXX").string();
        if (!::mkdtemp(pattern.data()))
          throw std::runtime_error("cannot make a folder to unpack archives in");
        staging.path = pattern;
        std::vector<std::string> exercises;
        for (const auto& ex : grader::exercise_checks()) exercises.push_back(ex.exercise);
        const auto staged = grader::stage_archives(given.submission, archives,
                                                   staging.path / "submission", exercises);
        options.submission = staged.folder.string();
        intake = staged.notes;
      }
    // A cold build takes seconds: show where it is, on a terminal only.
    grader::Report report =
        grader::grade_many({options.submission}, options,
                           options.quiet ? grader::Progress{} : grader::stderr_progress(false))
            .front();
    if (!staging.path.empty()) {
      report.submission = given.submission;
      report.notices.insert(report.notices.begin(), intake.begin(), intake.end());
      for (auto& ex : report.exercises)
        for (auto& c : ex.checks)
          if (const auto at = c.rerun.find(options.submission); at != std::string::npos)
            c.rerun.replace(at, options.submission.size(), given.submission);
    }
    grader::clear_progress_line();
    if (!options.quiet) {
      // In a workflow, a line of student output such as "::error::..." or "::add-mask::..."
      // would be read by the runner as a command: the terminal report goes out with commands
      // off (a token no one can guess), and only the grader's own annotations come after it.
      const std::string token = options.github_summary ? command_pause_token() : "";
      if (!token.empty()) std::cout << "::stop-commands::" << token << "\n";
      grader::print_terminal(report, std::cout, colour_wanted(), options.verbose);
      if (!token.empty()) std::cout << "::" << token << "::\n";
    }
    if (options.github_summary) std::cout << grader::github_annotations(report) << std::flush;
    bool written = true;
    if (!options.json_path.empty())
      written &= write_file(options.json_path, json_text(grader::to_native_json(report)));
    if (!options.gradescope_path.empty())
      written &= write_file(options.gradescope_path, json_text(grader::to_gradescope_json(report)));
    if (!prairielearn_path.empty())
      written &= write_file(prairielearn_path, json_text(grader::to_prairielearn_json(report)));
    if (!options.junit_path.empty())
      written &= write_file(options.junit_path, grader::to_junit_xml(report));
    if (options.github_summary)
      written &= write_file(github_summary_path(), grader::to_github_summary(report), true);
    if (!options.html_path.empty())
      written &= write_file(
          options.html_path,
          grader::student_report_html(grader::to_native_json(report),
                                      grader::kit_url_from(options.html_path, LINATTN_SOURCE_DIR)));
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

}  // namespace

int main(int argc, char** argv) {
  const auto parsed = grader::parse_command_line(argc, argv);
  if (const int* status = std::get_if<int>(&parsed)) return *status;
  const grader::Command& c = std::get<grader::Command>(parsed);
  try {
    switch (c.mode) {
      case grader::Command::Mode::Grade: return grade(c.options, c.prairielearn_path);
      case grader::Command::Mode::Batch: return grader::run_batch(c.batch, c.options);
      case grader::Command::Mode::Merge:
        return grader::run_merge(c.batch.out, c.batch.merge_dirs, c.batch, c.options);
      case grader::Command::Mode::Try: return grader::run_try(c.try_exercise, c.try_dir);
      case grader::Command::Mode::ShowAssignment:
        std::cout << grader::describe(
            grader::load_assignment(LINATTN_SOURCE_DIR, c.options.assignment,
                                    grader::exercise_checks()),
            grader::exercise_checks());
        return 0;
      case grader::Command::Mode::DescribeApi: api::describe(std::cout); return 0;
      case grader::Command::Mode::RecordOracle: return record(c);
      case grader::Command::Mode::MakeCourseKey: grader::course_key(LINATTN_SOURCE_DIR); return 0;
    }
  } catch (const std::exception& e) {  // UsageError, AssignmentError, a fault
    std::cerr << "linattn-grade: " << e.what() << "\n";
  }
  return 2;
}
