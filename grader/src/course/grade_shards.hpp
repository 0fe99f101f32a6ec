// Grading a class on several machines: `grade-all DIR --shard K/N --out OUT_K` grades the K-th
// of N parts of the class (a stable split by submission name), and `merge-grades OUT DIR...`
// joins the parts' reports into one gradebook and one set of exports, the same files an
// unsharded run writes (the reports' times aside). Both go through write_class_outputs, which
// makes every file from the reports alone: each report carries what the gradebook needs of its
// submission's folder (report["class"]: how recent it is, each exercise's file with the digest
// and fingerprint of its token stream for the similarity report, gradebook::class_source_json;
// report["canvas_late"]).
#pragma once

#include "report_stem.hpp"

#include "../engine/assignment.hpp"
#include "../engine/engine.hpp"
#include "../engine/options.hpp"
#include "gradebook.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace grader {

// "K/N" with 1 <= K <= N <= 10000; throws std::invalid_argument saying what is wrong.
Shard parse_shard(const std::string& text);
// Whether submission `name` is in shard K/N: the first 8 bytes of SHA-256(name), mod N, are
// K - 1. Stable: a name's shard depends on the name and N only.
bool in_shard(const std::string& name, const Shard& shard);

// What a report carries of its submission's folder for the gradebook (see above), from the
// files the finder took there (batch.cpp finds them once, for the stamps and the grading).
nlohmann::json class_facts(const FoundSources& found_files, const gradebook::Recency& recency,
                           const std::vector<std::string>& exercises);

struct ClassOutputs {
  std::filesystem::path out;
  std::vector<gradebook::Student> roster;
  bool has_roster = false;
  const Assignment* assignment = nullptr;
  bool bom = false;
  std::string lms_column;
  bool missing_as_zero = false;  // --missing-as-zero: no submission is 0 in the exports
};
// gradebook.csv, canvas.csv, moodle.csv, scores.csv (with a roster), similarity.csv,
// class-report.html and reports/<name>.html (one page per report) in out, from the reports
// (submission name -> native report with "class"), and the summary of what needs a person's eyes on
// stderr. Returns whether every file was written.
bool write_class_outputs(const ClassOutputs& to,
                         const std::map<std::string, nlohmann::json>& reports);

// `merge-grades OUT DIR...`: the reports of every DIR/reports/ (no name in two of them, every
// one made for the same assignment) copied to OUT/reports/, and the class's files written from
// them. Each report is checked first (check_shard_report); one that fails stops the merge with
// its file named. A DIR with a manifest, DIR/shard.done (grade-class.yml writes one), must hold
// as many reports as its "reports=N" line says, and with N = 0 it may lack reports/ altogether
// (an artifact store drops empty folders). Returns the exit status: 0, or 2 (bad usage, a
// conflict, a report it cannot read or believe).
int run_merge(const std::string& out, const std::vector<std::string>& dirs,
              const BatchOptions& batch, const Options& options);

// Why a shard's report cannot be merged, or "" when it can: its score must be a number from 0
// to its max_score, and equal to the sum of its exercises' scores; each exercise's score, from
// 0 to its own max_score, the sum of its checks' scores; each check's score from 0 to its
// max_score. (A report edited by hand, or by a student with access to a shard's files, would
// otherwise put any number in the exports.)
std::string check_shard_report(const nlohmann::json& report);
}  // namespace grader
