// corpus_case: grades one case of the corpus (tests/submissions/<case>/, or an exercise's
// .meta/corpus/<case>/) and checks the report.
//
// A case is a folder with case.json. The submission is the verified solutions (or, with
// "base": "exercises", the stubs) with the case's edits applied, so each case states its one
// mistake (or its one hostile act) as a small edit instead of a whole copied file:
//   { "about": "...", "base": "solutions",
//     "edits": [ {"file": "causal/causal.cpp", "find": "...", "replace": "..."},  // exactly once
//                {"file": "causal/causal.cpp", "prepend": "..."},
//                {"file": "memory/memory.cpp", "delete": true},
//                {"file": "causal/causal.hpp", "create": "..."},   // a new file; must not exist
//                {"file": "causal", "symlink": "@KIT_DIR@/solutions/causal"},  // whatever was
//                                    // there (a file, a folder) becomes a symbolic link to that
//                {"file": "causal/causal.cpp", "truncate_to": 2147483648} ],  // grown (sparse:
//                                    // no disk used) or cut to that many bytes
// In every text of an edit, @KIT_DIR@ stands for the kit's absolute path (for a case that
// reaches into the kit by absolute path, like an #include of the reference).
//     "assignment": "advanced",        // optional: graded with --assignment NAME (see below)
//     "graded": "edited",              // optional: only the exercise the edits touch (see below)
//     "loses": ["causal_linear_attention_recurrent"],   // functions that must lose points
//     "statuses": ["failed"],          // allowed statuses of their failing checks (default: any)
//     "message": "before writing",     // a failing check's message must contain this (any case)
//     "output_truncated": "causal_linear_attention_parallel",  // optional
//     "exit": 1,                       // the grader's expected exit status (default 1)
//     "score": 0,                      // optional: the exact total expected
//     "max_seconds": 60,               // accepted for old cases and ignored: no time is asserted
//     "seconds_at_least": {"recurrent/linear-time": 2.2},  // optional: a check's reported
//                                      // seconds are at least this (its calls slept that long:
//                                      // a floor no load can lower, so no speed claim)
//     "never_in_report": ["..."],      // optional: texts that must appear nowhere in the report
//     "never_in_html": ["<script"],    // optional: grade --html too; texts its page must not hold
//     "html_shows": ["&lt;script"],     // optional (with never_in_html): texts the page must hold
//     "absent_after": ["/tmp/x"],      // optional: paths that must not exist after grading
//     "known_gap": "..." }             // optional: why the case fails today (a grader bug),
//                                      // printed
// What is asserted, for every case: the grader exits as expected with a complete report (the
// exercises of the assignment graded, with its points: those that KIT/assignments/NAME.json
// lists, default.json without "assignment", and the sum of their points); every function named
// in "loses" has a check that did not pass,
// with an allowed status, and the expected words in some message; every other function keeps
// all its points; and nothing the grader started outlives it (corpus_case is a child
// subreaper, so orphaned descendants come back to it and are counted after the grader exits).
// With "graded": "edited", the grader grades the one exercise the edits touch (--only), and
// the report must hold exactly that exercise with its points. It is for the cases of one
// mistake in one exercise: the other exercises are the verified solutions, unchanged, and
// separate programs, so grading them again in every case would only repeat solutions-as-is;
// the hostile cases, which must not cost another exercise anything, are graded whole.
// No time is asserted: the one clock is a hang guard (kHangGuardSeconds, far above any correct
// run, below CTest's TIMEOUT of 300 s) that turns "the grader never returned" into a message.
//
// usage: corpus_case GRADER KIT_DIR CASE_DIR
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

int failures = 0;

// A hang guard, not a speed claim: a correct grade of one submission takes seconds; this only
// stops a run that would otherwise go on until CTest gives up.
constexpr int kHangGuardSeconds = 240;

void expect(bool ok, const std::string& what) {
  if (ok) return;
  ++failures;
  std::cout << "FAILED: " << what << "\n";
}

std::string read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void write_text(const fs::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary);
  f << text;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Replaces every @KIT_DIR@ in an edit's text by the kit's absolute path.
std::string with_kit(std::string text, const fs::path& kit) {
  const std::string mark = "@KIT_DIR@", dir = fs::absolute(kit).lexically_normal().string();
  for (auto at = text.find(mark); at != std::string::npos; at = text.find(mark, at + dir.size()))
    text.replace(at, mark.size(), dir);
  return text;
}

// Applies one edit; a "find" that does not occur exactly once, or a "create" of a file that
// is already there, is an error in the case itself.
void apply(const fs::path& root, const json& edit, const fs::path& kit) {
  const fs::path file = root / edit.at("file").get<std::string>();
  // An edit never writes through a link an earlier edit made (it would write into the kit).
  fs::path at = root;
  for (const auto& part : fs::path(edit.at("file").get<std::string>()).parent_path())
    if (fs::is_symlink(at /= part))
      throw std::runtime_error("edit of " + file.string() + " goes through a symbolic link");
  if (fs::is_symlink(file) && !edit.contains("symlink") && !edit.value("delete", false))
    throw std::runtime_error("edit of " + file.string() + " would write through a symbolic link");
  auto text_of = [&](const char* key) { return with_kit(edit.value(key, std::string()), kit); };
  if (edit.value("delete", false)) {
    fs::remove(file);
    return;
  }
  if (edit.contains("symlink")) {
    fs::remove_all(file);
    fs::create_symlink(text_of("symlink"), file);
    return;
  }
  if (edit.contains("truncate_to")) {
    fs::resize_file(file, edit.at("truncate_to").get<std::uintmax_t>());
    return;
  }
  if (edit.contains("create")) {
    if (fs::exists(file))
      throw std::runtime_error("edit creates " + file.string() + ", which exists");
    write_text(file, text_of("create"));
    return;
  }
  std::string text = read_text(file);
  if (edit.contains("prepend")) text = text_of("prepend") + text;
  if (edit.contains("append")) text += text_of("append");
  if (edit.contains("find")) {
    const std::string find = text_of("find"), replace = text_of("replace");
    const auto at = text.find(find);
    if (at == std::string::npos || text.find(find, at + 1) != std::string::npos)
      throw std::runtime_error("edit of " + file.string() +
                               ": the text to find must occur exactly once: " + find);
    text.replace(at, find.size(), replace);
  }
  write_text(file, text);
}

// The one exercise a case's edits touch (the first folder of every edited file); a case
// marked "graded": "edited" whose edits span several exercises, or none, is itself wrong.
std::string edited_exercise(const json& spec) {
  std::set<std::string> folders;
  for (const auto& edit : spec.value("edits", json::array())) {
    const std::string file = edit.at("file").get<std::string>();
    folders.insert(file.substr(0, file.find('/')));
  }
  if (folders.size() != 1)
    throw std::runtime_error("a case graded \"edited\" must edit exactly one exercise's files");
  return *folders.begin();
}

// Children of this process still alive (the grader's orphans, reparented here), after reaping
// those that have already exited.
std::vector<pid_t> live_children() {
  while (waitpid(-1, nullptr, WNOHANG) > 0) {
  }
  std::vector<pid_t> pids;
  for (const auto& task : fs::directory_iterator("/proc/self/task")) {
    std::ifstream in(task.path() / "children");
    for (long pid = 0; in >> pid;) pids.push_back(static_cast<pid_t>(pid));
  }
  return pids;
}

// "seconds_at_least": a check's seconds are all its calls' (a timed check runs each call in a
// process of its own, and one that crashes must not report only its own time).
void expect_seconds_floors(const json& spec, const json& report) {
  const json floors = spec.value("seconds_at_least", json::object());
  for (const auto& [name, floor] : floors.items()) {
    bool seen = false;
    for (const auto& ex : report["exercises"])
      for (const auto& c : ex["checks"])
        if (c["name"] == name) {
          seen = true;
          expect(c["seconds"].get<double>() >= floor.get<double>(),
                 name + " reports " + c["seconds"].dump() + " s, less than the " + floor.dump() +
                     " s its calls slept");
        }
    expect(seen, "no check is named " + name);
  }
}

// The case's submission at `out`: its base (the solutions, or the stubs) with its edits applied.
void make_submission(const fs::path& kit, const json& spec, const fs::path& out) {
  if (out.has_parent_path()) fs::create_directories(out.parent_path());
  fs::copy(kit / spec.value("base", std::string("solutions")), out, fs::copy_options::recursive);
  for (const auto& edit : spec.value("edits", json::array())) apply(out, edit, kit);
}

// What a complete report must show: the exercises of the case's assignment (default.json when
// it names none), or the one edited exercise, and the sum of their points.
struct Complete {
  std::set<std::string> exercises;
  double max_score = 0.0;
};
Complete complete_report(const fs::path& kit, const std::string& assignment,
                         const std::string& only) {
  const json a = json::parse(
      read_text(kit / "assignments" / ((assignment.empty() ? "default" : assignment) + ".json")));
  Complete want;
  for (const auto& ex : a.at("exercises")) {
    const std::string name = ex.at("name").get<std::string>();
    if (!only.empty() && name != only) continue;
    want.exercises.insert(name);
    want.max_score += ex.at("points").get<double>();
  }
  return want;
}

// Runs the grader under the hang guard and returns its exit status; expects that nothing it
// started outlived it (this process is their subreaper), and kills what did.
int run_grader(const std::string& cmd) {
  const int raw = std::system(cmd.c_str());
  const int code = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  expect(code != 124 && code != 137, "hang guard: the grader had not returned after " +
                                         std::to_string(kHangGuardSeconds) + " s");
  const std::vector<pid_t> left = live_children();
  std::string pids;
  for (pid_t pid : left) pids += " " + std::to_string(pid);
  expect(left.empty(),
         std::to_string(left.size()) + " process(es) the grader started outlived it:" + pids);
  for (pid_t pid : left) ::kill(pid, SIGKILL);
  for (std::size_t i = 0; i < left.size(); ++i) waitpid(-1, nullptr, 0);
  return code;
}

// "loses", "statuses", "message", "output_truncated": every function named in "loses" has a
// check that did not pass, with an allowed status and the expected words in some message;
// every other function keeps all its points.
void expect_losses(const json& spec, const json& report) {
  const auto loses = spec.value("loses", std::vector<std::string>{});
  const auto statuses = spec.value("statuses", std::vector<std::string>{});
  const std::string message = lower(spec.value("message", std::string()));
  const std::string truncated_in = spec.value("output_truncated", std::string());
  std::set<std::string> lost, truncated;
  bool message_seen = message.empty();
  for (const auto& ex : report["exercises"])
    for (const auto& c : ex["checks"]) {
      const std::string fn = c["function"], status = c["status"];
      const bool expected_to_lose = std::count(loses.begin(), loses.end(), fn) > 0;
      if (c["output"].get<std::string>().find("[output truncated") != std::string::npos)
        truncated.insert(fn);
      if (status == "passed") continue;
      if (!expected_to_lose) {
        expect(false, fn + " lost points in " + ex["name"].get<std::string>() + "/" +
                          c["name"].get<std::string>() + " (" + status +
                          "): " + c["message"].get<std::string>());
        continue;
      }
      lost.insert(fn);
      if (!statuses.empty())
        expect(std::count(statuses.begin(), statuses.end(), status) > 0,
               c["name"].get<std::string>() + " has status " + status);
      if (lower(c["message"].get<std::string>()).find(message) != std::string::npos)
        message_seen = true;
    }
  for (const auto& fn : loses) expect(lost.count(fn) > 0, fn + " kept all its points");
  expect(message_seen,
         "no failing check's message mentions '" + spec.value("message", std::string()) + "'");
  if (!truncated_in.empty())
    expect(truncated.count(truncated_in) > 0, "no truncated output shown for " + truncated_in);
}

// Hostile cases: what must never reach the report (a file's content the submission tried to
// read) or the student's page (report_html.hpp: what the submission wrote stays text there),
// and what must not be left on the machine afterwards.
void expect_no_traces(const json& spec, const fs::path& report_path, const fs::path& html_path) {
  const std::string report_text = read_text(report_path);
  for (const auto& secret : spec.value("never_in_report", std::vector<std::string>{}))
    expect(report_text.find(secret) == std::string::npos, "the report contains '" + secret + "'");
  if (spec.contains("never_in_html")) {
    const std::string page = read_text(html_path);
    expect(!page.empty(), "grade --html wrote no page");
    for (const auto& markup : spec.value("never_in_html", std::vector<std::string>{}))
      expect(page.find(markup) == std::string::npos, "the page holds '" + markup + "'");
    for (const auto& shown : spec.value("html_shows", std::vector<std::string>{}))
      expect(page.find(shown) != std::string::npos, "the page does not show '" + shown + "'");
  }
  for (const auto& path : spec.value("absent_after", std::vector<std::string>{})) {
    std::error_code ec;
    expect(!fs::exists(path, ec), path + " was left behind");
    fs::remove_all(path, ec);
  }
}

}  // namespace

int main(int argc, char** argv) {
  // --make-only KIT_DIR CASE_DIR OUT: only write the case's submission to OUT (for the batch
  // grading test, tests/kit), without grading it.
  if (argc == 5 && std::string(argv[1]) == "--make-only") {
    make_submission(argv[2], json::parse(read_text(fs::path(argv[3]) / "case.json")), argv[4]);
    return 0;
  }
  if (argc != 4) {
    std::cerr << "usage: corpus_case GRADER KIT_DIR CASE_DIR\n";
    return 2;
  }
  const std::string grader = argv[1];
  const fs::path kit = argv[2], case_dir = argv[3];
  const json spec = json::parse(read_text(case_dir / "case.json"));
  std::cout << "case " << case_dir.filename().string() << ": " << spec.value("about", "") << "\n";
  char pattern[] = "/tmp/linattn-corpus-XXXXXX";
  if (!mkdtemp(pattern)) return 2;
  const fs::path work = pattern;
  const fs::path submission = work / "submission";
  make_submission(kit, spec, submission);

  const fs::path report_path = work / "report.json", html_path = work / "report.html";
  // Orphans of the grader (a runner's escaped child, say) are reparented to this process.
  if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
    std::cout << "note: not a subreaper; orphans go uncounted\n";
  const std::string assignment = spec.value("assignment", std::string());
  const std::string only =
      spec.value("graded", std::string("all")) == "edited" ? edited_exercise(spec) : "";
  const Complete want = complete_report(kit, assignment, only);
  if (!only.empty() && want.exercises.empty()) {
    std::cout << "FAILED: the case edits " << only << ", which its assignment does not have\n";
    return 2;
  }
  std::string cmd = "timeout -k 10 " + std::to_string(kHangGuardSeconds) + " " + quote(grader) +
                    " " + quote(submission.string()) + " --quiet --json " +
                    quote(report_path.string());
  if (!assignment.empty()) cmd += " --assignment " + quote(assignment);
  if (!only.empty()) cmd += " --only " + quote(only);
  if (spec.contains("never_in_html")) cmd += " --html " + quote(html_path.string());
  const int code = run_grader(cmd);
  const int expected_exit = spec.value("exit", 1);
  expect(code == expected_exit,
         "exit status " + std::to_string(code) + ", expected " + std::to_string(expected_exit));
  if (!fs::exists(report_path)) {
    std::cout << "FAILED: no report was written\n";
    return 1;
  }
  const json report = json::parse(read_text(report_path));

  // Complete: every exercise, every point accounted for.
  std::set<std::string> exercises;
  for (const auto& ex : report["exercises"]) exercises.insert(ex["name"].get<std::string>());
  std::string listed;
  for (const auto& name : want.exercises) listed += " " + name;
  expect(exercises == want.exercises, "the report does not list exactly the exercises" + listed);
  expect(std::abs(report["max_score"].get<double>() - want.max_score) < 1e-9,
         "max_score is " + report["max_score"].dump() + ", not " + json(want.max_score).dump());
  expect_losses(spec, report);
  expect_seconds_floors(spec, report);
  if (spec.contains("score"))
    expect(std::abs(report["score"].get<double>() - spec["score"].get<double>()) < 1e-9,
           "score " + report["score"].dump() + ", expected " + spec["score"].dump());
  expect_no_traces(spec, report_path, html_path);
  std::cout << "score " << report["score"] << "\n";
  if (failures != 0 && spec.contains("known_gap"))
    std::cout << "known gap of the grader: " << spec["known_gap"].get<std::string>() << "\n";
  if (failures == 0) {
    fs::remove_all(work);
    std::cout << "ok\n";
  } else {
    std::cout << "kept the submission and report in " << work << "\n";
  }
  return failures == 0 ? 0 : 1;
}
