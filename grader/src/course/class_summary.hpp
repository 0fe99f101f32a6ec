// What the class report shows, counted from the gradebook (gradebook.hpp: the same join of the
// roster with the native reports that gradebook.csv is written from), so that the page and the
// CSV files never disagree. class_report.hpp draws it.
//
// Who counts: each graded submission once, and of a roster entry with several folders only the
// one the exports take (join puts it first); never Canvas's Test Student, and with a roster
// never a folder no entry names (the instructor's own solution, say): the page describes the
// class the exports grade (gradebook::counts_in_class). Every row still has its line. Scores are
// the raw ones (before a late penalty): the page is about what the class can do; the late section
// gives the penalised totals.
#pragma once

#include "gradebook.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace grader {

// Scores in bins of a tenth of `max` each (0-10%, ..., 90-100% of the points, full marks
// excluded), then one bin of its own for full marks: 11 counts.
struct Histogram {
  double max = 0;
  std::vector<int> counts = std::vector<int>(11, 0);
  void add(double score);
};

struct CheckRate {
  std::string exercise, check, function;
  int passed = 0, graded = 0;             // graded: every counted submission with this exercise
  std::map<std::string, int> not_passed;  // status word -> how many
};

// A likely mistake as the failing checks named it; a stub never counts towards one: neither a
// check whose status is not_implemented nor any check of a file left as handed out (a starter
// that runs, and fails with a message naming the starter's code).
struct MistakeCount {
  std::string exercise;
  std::string mistake;                   // the sentence after "Likely mistake: "
  std::vector<std::string> submissions;  // each once, in the gradebook's order
  std::vector<std::string> checks;       // the checks that named it, each once, in report order
};

// One line of a list: a submission, and what is said of it there.
struct Listed {
  std::string submission;
  std::string text;
};

struct StudentLine {
  std::string submission;  // empty: a roster entry with no submission
  std::string id, name;
  double total = 0, total_after_late = 0, max_score = 0;
  std::vector<double> scores;  // per exercise
  std::string status;
  bool late = false;
  bool counted = false;  // in the counts above (see the top of this file)
};

struct ClassSummary {
  std::vector<std::string> exercises;
  int counted = 0;  // submissions in the counts
  Histogram total;
  std::vector<Histogram> per_exercise;  // in the order of `exercises`
  std::vector<CheckRate> checks;        // in hand-out order
  std::vector<MistakeCount> mistakes;   // most students first; ties by exercise, then text
  std::vector<Listed> build_errors, missing, ambiguous, late;
  // Checks that crashed, ran out of time or over the memory limit: who, and which checks
  // ("flops/b crashed, flops/c timeout"), so that the instructor can look at those reports.
  std::vector<Listed> stopped;
  // exercise -> the counted submissions whose file is its stub token for token, in order
  std::map<std::string, std::vector<std::string>> as_handed_out;
  std::vector<std::string> no_submission;  // roster entries: "id name"
  std::vector<StudentLine> students;       // every row of the gradebook, in its order
  // Files alike as token streams (similarity.hpp), the most alike first: the pairs of
  // similarity.csv whose two submissions are counted.
  std::vector<gradebook::SimilarPair> similar;
};

// untouched: exercise -> the submissions whose file is the stub (gradebook::left_as_handed_out).
ClassSummary summarize_class(const gradebook::Book& book,
                             const std::vector<gradebook::SimilarPair>& similar = {},
                             const std::map<std::string, std::set<std::string>>& untouched = {});

}  // namespace grader
