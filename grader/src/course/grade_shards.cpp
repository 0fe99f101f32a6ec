// Sharded grading and the class's files from reports: see grade_shards.hpp.
#include "grade_shards.hpp"

#include "../report/report.hpp"
#include "../report/report_html.hpp"
#include "../util/find_files.hpp"
#include "../util/sha256.hpp"
#include "../util/utf8.hpp"
#include "class_report.hpp"
#include "grader_config.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

namespace grader {

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

bool write_text(const fs::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  f.close();
  return static_cast<bool>(f);
}

std::string list(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v)
    out += (out.empty() ? "" : ", ") + printable_name(s);  // names students chose
  return out;
}

// The grade column of the LMS imports. A new column name is a new grade item in Canvas and
// Moodle, so each assignment gets its own by default: its name for Canvas, its title (when it
// has one) for Moodle, whose import lets the instructor map the column to any item.
struct LmsColumns {
  std::string canvas, moodle;
};
LmsColumns lms_columns(const std::string& chosen, const Assignment& assignment) {
  if (!chosen.empty()) return {chosen, chosen};
  std::string title;
  try {
    title = nlohmann::json::parse(assignment.text).value("title", "");
  } catch (const std::exception&) {
    title.clear();  // the assignment was read already; a title is only for people
  }
  return {assignment.name, title.empty() ? assignment.name : title};
}

// How many reports a shard's manifest says the shard wrote: the line "reports=N" of
// DIR/shard.done, which the Actions workflow writes (grade-class.yml); none without one. An
// artifact store keeps files, not folders, so a shard that graded nobody arrives without its
// empty reports/, and a file lost on the way would go unnoticed: the manifest tells both apart.
std::optional<long> manifest_reports(const fs::path& dir) {
  std::ifstream f(dir / "shard.done", std::ios::binary);
  for (std::string line; std::getline(f, line);) {
    if (line.rfind("reports=", 0) != 0) continue;
    try {
      std::size_t used = 0;
      const long n = std::stol(line.substr(8), &used);
      if (used == line.size() - 8 && n >= 0) return n;
    } catch (const std::exception&) {
    }
    return -1;  // a line no writer of ours makes
  }
  return std::nullopt;
}

// Points as a report would state them: "999", "12.5".
std::string format_points(double points) {
  std::ostringstream out;
  out << points;
  return out.str();
}

}  // namespace

std::string check_shard_report(const nlohmann::json& report) {
  // Sums of two-decimal points: equal within a thousandth of a point.
  constexpr double kSlack = 1e-3;
  auto number = [](const nlohmann::json& j, const char* key) -> std::optional<double> {
    const auto at = j.find(key);
    if (at == j.end() || !at->is_number()) return std::nullopt;
    return at->get<double>();
  };
  auto within = [&](double score, double max) { return score >= -kSlack && score <= max + kSlack; };
  // A report of a newer format may mean something else by its fields (one written before there
  // was a version is version 1).
  if (const auto v = report.find("version"); v != report.end())
    if (!v->is_number_integer() || v->get<std::int64_t>() < 1 ||
        v->get<std::int64_t>() > kReportVersion)
      return "its format is version " + v->dump() + "; this grader reads versions 1 to " +
             std::to_string(kReportVersion) + " (merge with the grader that wrote it)";
  const auto score = number(report, "score"), max = number(report, "max_score");
  if (!score || !max) return "it has no score or no max_score";
  if (!within(*score, *max))
    return "its score " + format_points(*score) + " is not between 0 and its max_score " +
           format_points(*max);
  const auto exercises = report.find("exercises");
  if (exercises == report.end() || !exercises->is_array()) return "it has no exercises";
  double total = 0;
  for (const auto& ex : *exercises) {
    const std::string name = ex.value("name", std::string("?"));
    const auto ex_score = number(ex, "score"), ex_max = number(ex, "max_score");
    if (!ex_score || !ex_max) return "its exercise " + name + " has no score or no max_score";
    if (!within(*ex_score, *ex_max))
      return "its exercise " + name + " scores " + format_points(*ex_score) +
             ", not between 0 and its max_score " + format_points(*ex_max);
    double checks = 0;
    for (const auto& c : ex.value("checks", nlohmann::json::array())) {
      const auto c_score = number(c, "score"), c_max = number(c, "max_score");
      if (!c_score || !c_max || !within(*c_score, *c_max))
        return "a check of its exercise " + name + " (" + c.value("name", std::string("?")) +
               ") has a score that is not between 0 and its max_score";
      checks += *c_score;
    }
    if (std::abs(checks - *ex_score) > kSlack)
      return "its exercise " + name + " scores " + format_points(*ex_score) +
             " but its checks add up to " + format_points(checks);
    total += *ex_score;
  }
  if (std::abs(total - *score) > kSlack)
    return "its score " + format_points(*score) + " is not the sum of its exercises' scores, " +
           format_points(total);
  return "";
}

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  auto whole = [&](const std::string& s) {
    if (s.empty() || s.size() > 5 || s.find_first_not_of("0123456789") != std::string::npos)
      throw std::invalid_argument("--shard needs K/N, two whole numbers (got '" + text + "')");
    return static_cast<unsigned>(std::stoul(s));
  };
  if (slash == std::string::npos)
    throw std::invalid_argument("--shard needs K/N, as in 2/8 (got '" + text + "')");
  Shard s{whole(text.substr(0, slash)), whole(text.substr(slash + 1))};
  if (s.count < 1 || s.count > 10000 || s.index < 1 || s.index > s.count)
    throw std::invalid_argument("--shard K/N needs 1 <= K <= N <= 10000 (got '" + text + "')");
  return s;
}

bool in_shard(const std::string& name, const Shard& shard) {
  Sha256 h;
  h.add(name);
  const std::string hex = h.hex();
  const unsigned long long first = std::stoull(hex.substr(0, 16), nullptr, 16);
  return first % shard.count == shard.index - 1;
}

nlohmann::json class_facts(const FoundSources& found_files, const gradebook::Recency& recency,
                           const std::vector<std::string>& exercises) {
  nlohmann::json sources = nlohmann::json::object();
  for (const auto& ex : exercises) {
    const auto at = found_files.find(ex);
    if (at == found_files.end()) continue;
    const FoundSource& found = at->second;
    if (found.kind != FoundSource::Kind::Found || !found.refused.empty()) continue;
    sources[ex] = gradebook::class_source_json(found.shown, found.text);
  }
  return {
      {"recency",
       {{"canvas_submission", recency.canvas_submission}, {"newest_file", recency.newest_file}}},
      {"sources", sources}};
}

namespace {

// Each submission's report page beside its JSON (report_html.hpp); a page whose report is gone
// goes too. False when a page could not be written.
bool write_student_pages(const fs::path& reports_dir,
                         const std::map<std::string, nlohmann::json>& reports) {
  std::error_code ec;
  std::set<std::string> stems;
  for (const auto& [name, j] : reports) stems.insert(report_stem(name));
  for (const auto& entry : fs::directory_iterator(reports_dir, ec))
    if (entry.path().extension() == ".html" && !stems.count(entry.path().stem().string()))
      fs::remove(entry.path(), ec);
  bool written = true;
  for (const auto& [name, j] : reports)
    written &= write_text(reports_dir / (report_stem(name) + ".html"), student_report_html(j));
  return written;
}

// The summary on stderr: what needs a person's eyes (missing files, build errors, competing
// files, roster mismatches, the assignment's warnings, files alike).
void say_what_needs_eyes(const ClassOutputs& to, const gradebook::Book& book,
                         const std::map<std::string, nlohmann::json>& reports,
                         const std::vector<gradebook::SimilarPair>& pairs) {
  std::vector<std::string> missing, build_errors;
  for (const auto& row : book.rows) {
    if (row.report.is_null()) continue;
    const auto f = gradebook::facts(book, row);
    if (!f.missing.empty()) missing.push_back(row.submission + " (" + list(f.missing) + ")");
    if (!f.build_errors.empty())
      build_errors.push_back(row.submission + " (" + list(f.build_errors) + ")");
  }
  for (const auto& [name, j] : reports)
    for (const auto& e : j["exercises"])
      if (e.value("source_status", "") == "ambiguous")
        std::cerr << "grade-all: " << printable_name(name) << ": several files could be "
                  << printable_name(e.value("name", "")) << ".cpp ("
                  << list(e.value("source_others", std::vector<std::string>{}))
                  << "); none was graded\n";
  if (!missing.empty()) std::cerr << "grade-all: missing files: " << list(missing) << "\n";
  if (!build_errors.empty()) std::cerr << "grade-all: do not build: " << list(build_errors) << "\n";
  if (to.has_roster) {
    if (!book.not_in_roster.empty())
      std::cerr << "grade-all: not in the roster (in the gradebook, not in the exports): "
                << list(book.not_in_roster) << "\n";
    if (!book.no_submission.empty())
      std::cerr << "grade-all: in the roster, no submission ("
                << (to.missing_as_zero ? "0" : "an empty cell")
                << " in the exports): " << list(book.no_submission) << "\n";
    for (const auto& several : book.several_folders)
      std::cerr << "grade-all: one roster entry, several folders: " << printable_name(several)
                << "\n";
  }
  for (const auto& w : to.assignment->warnings)
    std::cerr << "grade-all: warning: the assignment: " << w << "\n";
  for (const auto& p : pairs)
    std::cerr << "grade-all: alike " << p.exercise << ".cpp (" << std::lround(100 * p.pair.share)
              << "% of the tokens match): " << list({p.pair.a, p.pair.b}) << "\n";
}

}  // namespace

bool write_class_outputs(const ClassOutputs& to,
                         const std::map<std::string, nlohmann::json>& reports) {
  const Assignment& assignment = *to.assignment;
  const std::vector<std::string> exercises = assignment.exercise_names();
  // What each report says of its folder: how recent, which files, their fingerprints.
  std::map<std::string, gradebook::Recency> recency;
  std::map<std::string, std::map<std::string, gradebook::ClassSource>> sources;
  for (const auto& [name, j] : reports) {
    const nlohmann::json facts = j.value("class", nlohmann::json::object());
    const nlohmann::json r = facts.value("recency", nlohmann::json::object());
    recency[name] = {r.value("canvas_submission", ""), r.value("newest_file", 0.0)};
    for (const auto& ex : exercises) {
      const nlohmann::json s =
          facts.value("sources", nlohmann::json::object()).value(ex, nlohmann::json());
      if (s.is_object()) sources[ex][name] = gradebook::class_source(s);
    }
  }
  gradebook::Book book = gradebook::join(to.roster, reports, exercises, recency);
  book.late = assignment.late;
  bool written = write_text(to.out / "gradebook.csv", gradebook::gradebook_csv(book, to.bom));
  std::vector<std::string> files = {"gradebook.csv"};
  if (to.has_roster) {
    const LmsColumns column = lms_columns(to.lms_column, assignment);
    // Canvas fills an existing assignment when the column is named as its export names it
    // ("Title (id)"): the roster's own header, when it has the assignment's.
    const std::string canvas_column =
        gradebook::canvas_column(book, {column.canvas, column.moodle});
    written &= write_text(to.out / "canvas.csv",
                          gradebook::canvas_csv(book, canvas_column, to.bom, to.missing_as_zero));
    written &= write_text(to.out / "moodle.csv",
                          gradebook::moodle_csv(book, column.moodle, to.bom, to.missing_as_zero));
    written &=
        write_text(to.out / "scores.csv", gradebook::scores_csv(book, to.bom, to.missing_as_zero));
    files.insert(files.end(), {"canvas.csv", "moodle.csv", "scores.csv"});
  }

  // Files alike as token streams, per exercise (similarity.hpp): a report of its own, for a
  // person to look at; it never changes a score.
  std::map<std::string, std::string> stubs;
  for (const auto& ex : exercises)
    stubs[ex] = read_text(fs::path(LINATTN_SOURCE_DIR) / "exercises" / ex / (ex + ".cpp"));
  const auto pairs = gradebook::similar_pairs(sources, stubs);
  written &= write_text(to.out / "similarity.csv", gradebook::similarity_csv(pairs, book, to.bom));
  files.push_back("similarity.csv");

  // The pages: each submission's report beside its JSON, and the class report that links them
  // (class_report.hpp).
  written &= write_student_pages(to.out / "reports", reports);
  const std::string title = lms_columns("", assignment).moodle;  // its title, else its name
  written &= write_text(
      to.out / "class-report.html",
      class_report_html(summarize_class(book, pairs, gradebook::left_as_handed_out(sources, stubs)),
                        title));
  files.push_back("class-report.html");

  say_what_needs_eyes(to, book, reports, pairs);
  std::cerr << "grade-all: wrote " << list(files) << " in " << to.out.string() << " and "
            << reports.size() << " reports in " << (to.out / "reports").string() << "\n";
  return written;
}

namespace {

// One report of the shard in `dir`, added to `reports` (from: the shard each name came from);
// false, said on stderr, when it is not a report of this assignment's shards or its name is
// already in another shard.
bool merge_shard_report(const fs::path& file, const std::string& dir, const Assignment& assignment,
                        std::map<std::string, std::string>& from,
                        std::map<std::string, nlohmann::json>& reports) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_text(file));
  } catch (const std::exception& e) {
    std::cerr << "linattn-grade: merge-grades: " << file.string()
              << " is not a report: " << e.what() << "\n";
    return false;
  }
  // The submission's own name (a report's file name may be a shortened one).
  const nlohmann::json facts = j.value("class", nlohmann::json::object());
  const std::string name = facts.value("submission", file.stem().string());
  if (const std::string wrong = check_shard_report(j); !wrong.empty()) {
    std::cerr << "linattn-grade: merge-grades: " << printable_name(file.string())
              << " cannot be merged: " << wrong << " (was it edited? grade that shard again)\n";
    return false;
  }
  if (from.count(name)) {
    std::cerr << "linattn-grade: merge-grades: " << printable_name(name) << " is in " << from[name]
              << " and in " << dir << ": were the shards of different splits?\n";
    return false;
  }
  if (j.value("assignment", "") != assignment.name || !j.contains("class")) {
    std::cerr << "linattn-grade: merge-grades: " << file.string() << " was graded "
              << (j.contains("class") ? "for the assignment '" + j.value("assignment", "") +
                                            "', not '" + assignment.name + "' (give --assignment)"
                                      : std::string("by an older grader; grade that shard again"))
              << "\n";
    return false;
  }
  from[name] = dir;
  reports[name] = std::move(j);
  return true;
}

}  // namespace

int run_merge(const std::string& out, const std::vector<std::string>& dirs,
              const BatchOptions& batch, const Options& options) {
  ClassOutputs to;
  to.out = out;
  to.bom = batch.bom;
  to.lms_column = batch.lms_column;
  to.missing_as_zero = batch.missing_as_zero;
  Assignment assignment;
  try {
    assignment = load_assignment(LINATTN_SOURCE_DIR, options.assignment, exercise_checks());
    if (!batch.roster_path.empty()) {
      std::ifstream f(batch.roster_path, std::ios::binary);
      if (!f) throw std::runtime_error("cannot read the roster " + batch.roster_path);
      to.roster = gradebook::parse_roster(read_text(batch.roster_path));
      to.has_roster = true;
    }
  } catch (const std::exception& e) {
    std::cerr << "linattn-grade: merge-grades: " << e.what() << "\n";
    return 2;
  }
  to.assignment = &assignment;
  // Every shard's reports; a name in two shards, or a report for another assignment, stops it.
  std::map<std::string, nlohmann::json> reports;
  std::map<std::string, std::string> from;
  for (const auto& dir : dirs) {
    const fs::path folder = fs::path(dir) / "reports";
    const std::optional<long> promised = manifest_reports(dir);
    if (promised && *promised < 0) {
      std::cerr << "linattn-grade: merge-grades: " << dir
                << "/shard.done has a reports= line that is not a count\n";
      return 2;
    }
    if (!fs::is_directory(folder)) {
      if (promised && *promised == 0) continue;  // a shard with no students (see above)
      std::cerr << "linattn-grade: merge-grades: " << dir
                << " has no reports/ (is it a grade-all --out folder?)\n";
      return 2;
    }
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(folder))
      if (entry.path().extension() == ".json" && entry.is_regular_file())
        files.push_back(entry.path());
    if (promised && static_cast<std::size_t>(*promised) != files.size()) {
      std::cerr << "linattn-grade: merge-grades: " << dir << " holds " << files.size()
                << " reports, and its shard.done says " << *promised
                << ": was a file lost on the way? (fetch or grade that shard again)\n";
      return 2;
    }
    for (const auto& file : files)
      if (!merge_shard_report(file, dir, assignment, from, reports)) return 2;
  }
  const fs::path reports_dir = fs::path(out) / "reports";
  fs::remove_all(reports_dir);  // the merged class only
  fs::create_directories(reports_dir);
  bool written = true;
  for (const auto& [name, j] : reports)
    written &= write_text(reports_dir / (report_stem(name) + ".json"),
                          j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  std::cerr << "merge-grades: " << reports.size() << " reports from " << dirs.size()
            << " folder(s)\n";
  written &= write_class_outputs(to, reports);
  return written ? 0 : 2;
}

}  // namespace grader
