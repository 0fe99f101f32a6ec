#include "assignment.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

namespace grader {

namespace fs = std::filesystem;

namespace {

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string number(double x) {
  std::ostringstream o;
  o << x;
  return o.str();
}

bool matches(const std::string& glob, const std::string& name) {
  return fnmatch(glob.c_str(), name.c_str(), 0) == 0;
}

// Throws unless `j` is an object whose keys are all among `allowed`.
void only_keys(const json& j, const std::vector<std::string>& allowed, const std::string& where) {
  if (!j.is_object()) throw AssignmentError(where + " must be a JSON object");
  for (const auto& [key, value] : j.items())
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      throw AssignmentError(where + " has an unknown field \"" + key +
                            "\" (known: " + listed(allowed) + ")");
}

Visibility table_default(Visibility v) {
  return v == Visibility::Hidden ? Visibility::AfterDueDate : v;
}

AssignedExercise parse_exercise(const json& j, const std::vector<ExerciseChecks>& kit,
                                std::size_t index) {
  const std::string where = "exercise " + std::to_string(index + 1);
  only_keys(j, {"name", "points", "visibility", "check_points"}, where);
  if (!j.contains("name") || !j["name"].is_string())
    throw AssignmentError(where + " needs a \"name\"");
  AssignedExercise ex;
  ex.name = j["name"].get<std::string>();
  auto known = std::find_if(kit.begin(), kit.end(),
                            [&](const ExerciseChecks& e) { return e.exercise == ex.name; });
  if (known == kit.end()) {
    std::vector<std::string> names;
    for (const auto& e : kit) names.push_back(e.exercise);
    throw AssignmentError("no exercise named '" + ex.name +
                          "' in this kit; its exercises are: " + listed(names));
  }
  if (!j.contains("points") || !j["points"].is_number())
    throw AssignmentError("exercise '" + ex.name + "' needs its \"points\" (a number)");
  ex.points = j["points"].get<double>();
  if (ex.points < 0 || std::abs(ex.points * 100 - std::round(ex.points * 100)) > 1e-6)
    throw AssignmentError("exercise '" + ex.name +
                          "': points must be 0 or more, in hundredths (got " + number(ex.points) +
                          ")");
  if (j.contains("check_points")) {
    if (!j["check_points"].is_array())
      throw AssignmentError("the \"check_points\" of exercise '" + ex.name +
                            "' must be a list of rules");
    for (const json& r : j["check_points"]) {
      const std::string rule_where = "a check_points rule of exercise '" + ex.name + "'";
      only_keys(r, {"checks", "points"}, rule_where);
      if (!r.contains("checks") || !r["checks"].is_string() || !r.contains("points") ||
          !r["points"].is_number() || r["points"].get<double>() < 0)
        throw AssignmentError(rule_where +
                              " needs \"checks\" (a name or a glob) and \"points\" (0 or more)");
      PointsRule rule{r["checks"].get<std::string>(), r["points"].get<double>()};
      const bool any = std::any_of(known->checks.begin(), known->checks.end(),
                                   [&](const Check& c) { return matches(rule.checks, c.name); });
      if (!any)
        throw AssignmentError(rule_where + ": \"" + rule.checks + "\" names none of its checks");
      ex.point_rules.push_back(std::move(rule));
    }
  }
  std::vector<double> weights;
  for (const auto& c : known->checks) {
    double w = c.points;
    for (const auto& rule : ex.point_rules)
      if (matches(rule.checks, c.name)) w = rule.points;
    weights.push_back(w);
  }
  std::vector<double> shares;
  try {
    shares = shares_of(weights, ex.points);
  } catch (const AssignmentError& e) {
    throw AssignmentError("exercise '" + ex.name + "': " + e.what());
  }
  for (std::size_t i = 0; i < known->checks.size(); ++i)
    ex.check_points[known->checks[i].name] = shares[i];
  if (!j.contains("visibility")) return ex;
  if (!j["visibility"].is_array())
    throw AssignmentError("the \"visibility\" of exercise '" + ex.name +
                          "' must be a list of rules");
  for (const json& r : j["visibility"]) {
    const std::string rule_where = "a visibility rule of exercise '" + ex.name + "'";
    only_keys(r, {"checks", "visibility"}, rule_where);
    if (!r.contains("checks") || !r["checks"].is_string() || !r.contains("visibility") ||
        !r["visibility"].is_string())
      throw AssignmentError(rule_where + " needs \"checks\" (a name or a glob) and \"visibility\"");
    VisibilityRule rule{r["checks"].get<std::string>(),
                        parse_visibility(r["visibility"].get<std::string>())};
    const bool any = std::any_of(known->checks.begin(), known->checks.end(),
                                 [&](const Check& c) { return matches(rule.checks, c.name); });
    if (!any)
      throw AssignmentError(rule_where + ": \"" + rule.checks + "\" names none of its checks");
    ex.rules.push_back(std::move(rule));
  }
  return ex;
}

// Gradescope shows students the total unless a test waits for the due date or for
// publishing, and counts `hidden` tests in it (its autograder specification, "Controlling
// Test Case Visibility"). A hidden check with points is only kept out of sight when another
// check holds the total back.
void check_total_stays_hidden(Assignment& a, const std::vector<ExerciseChecks>& kit) {
  std::vector<std::string> hidden_with_points;
  bool total_held_back = false, published = false;
  for (const auto& ex : kit) {
    if (!a.find(ex.exercise)) continue;
    for (const auto& c : ex.checks) {
      const Visibility v = a.visibility_of(ex.exercise, c);
      total_held_back |= v == Visibility::AfterDueDate || v == Visibility::AfterPublished;
      if (v == Visibility::Hidden && a.points_of(ex.exercise, c) > 0)
        hidden_with_points.push_back(ex.exercise + "/" + c.name);
      published |= v == Visibility::AfterPublished;
    }
  }
  if (!hidden_with_points.empty() && !total_held_back)
    throw AssignmentError(
        "checks with points are hidden (" + listed(hidden_with_points) +
        "), and no check is after_due_date or after_published: Gradescope would show "
        "students a total that includes them. Make one of them after_due_date, or "
        "after_published.");
  // Once grades are published, Gradescope shows the after_published checks and the total, and
  // still hides the hidden ones: their points are then the total minus what students see.
  if (!hidden_with_points.empty() && published)
    a.warnings.push_back(
        "hidden checks carry points (" + listed(hidden_with_points) +
        ") while others are after_published: once grades are published, students "
        "see the total and can work out the hidden checks' result as the total minus "
        "the checks they see. Give the hidden checks 0 points (check_points), or make "
        "them after_due_date or after_published.");
}

}  // namespace

Visibility parse_visibility(const std::string& word) {
  for (Visibility v : {Visibility::Visible, Visibility::Hidden, Visibility::AfterDueDate,
                       Visibility::AfterPublished})
    if (word == visibility_name(v)) return v;
  throw AssignmentError("unknown visibility '" + word +
                        "' (Gradescope's are visible, hidden, after_due_date, after_published)");
}

std::vector<double> shares_of(const std::vector<double>& weights, double total) {
  double sum = 0;
  for (double w : weights) sum += w;
  // The table's own points, when they already add up: nothing to share out.
  if (std::abs(sum - total) <= 1e-9) return weights;
  if (sum <= 0)
    throw AssignmentError("its checks all have 0 points, so they cannot share " + number(total));
  const long long cents = std::llround(total * 100);
  std::vector<long long> whole(weights.size());
  std::vector<double> remainder(weights.size());
  long long given = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const double exact = weights[i] / sum * static_cast<double>(cents);
    whole[i] = static_cast<long long>(std::floor(exact + 1e-9));
    remainder[i] = exact - static_cast<double>(whole[i]);
    given += whole[i];
  }
  std::vector<std::size_t> order(weights.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return remainder[x] > remainder[y]; });
  for (std::size_t k = 0; given < cents && k < order.size(); ++k, ++given) ++whole[order[k]];
  std::vector<double> out;
  for (long long w : whole) out.push_back(static_cast<double>(w) / 100);
  return out;
}

double Assignment::points_of(const std::string& exercise, const Check& check) const {
  if (const AssignedExercise* ex = find(exercise))
    if (const auto p = ex->check_points.find(check.name); p != ex->check_points.end())
      return p->second;
  return check.points;
}

const AssignedExercise* Assignment::find(const std::string& exercise) const {
  for (const auto& e : exercises)
    if (e.name == exercise) return &e;
  return nullptr;
}

std::vector<std::string> Assignment::exercise_names() const {
  std::vector<std::string> names;
  for (const auto& e : exercises) names.push_back(e.name);
  return names;
}

Visibility Assignment::visibility_of(const std::string& exercise, const Check& check) const {
  Visibility v = table_default(check.visibility);
  if (const AssignedExercise* ex = find(exercise))
    for (const auto& rule : ex->rules)
      if (matches(rule.checks, check.name)) v = rule.visibility;
  return v;
}

Assignment parse_assignment(const std::string& name, const std::string& text,
                            const std::vector<ExerciseChecks>& kit) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    throw AssignmentError(std::string("not valid JSON: ") + e.what());
  }
  only_keys(j, {"title", "exercises", "due", "late", "late_policy", "seeds"}, "the assignment");
  if (j.contains("late") && j.contains("late_policy"))
    throw AssignmentError(
        "the assignment has both \"late\" and \"late_policy\"; they are the same field: keep one");
  if (!j.contains("exercises") || !j["exercises"].is_array() || j["exercises"].empty())
    throw AssignmentError("the assignment needs \"exercises\", a list of {\"name\", \"points\"}");
  Assignment a;
  a.name = name;
  a.text = text;
  try {
    a.late =
        parse_late_policy(j.value("due", json()), j.value("late", j.value("late_policy", json())));
  } catch (const LatePolicyError& e) {
    throw AssignmentError(e.what());
  }
  if (j.contains("seeds")) {
    const json& seeds = j["seeds"];
    if (seeds == "per-student") a.seeds = Seeds::PerStudent;
    else if (seeds != "course")
      throw AssignmentError(
          "\"seeds\" must be \"course\" (one set of seeds for the class, the default) or "
          "\"per-student\" (each student's own, from the course key and their id)");
  }
  std::set<std::string> seen;
  for (std::size_t i = 0; i < j["exercises"].size(); ++i) {
    a.exercises.push_back(parse_exercise(j["exercises"][i], kit, i));
    if (!seen.insert(a.exercises.back().name).second)
      throw AssignmentError("exercise '" + a.exercises.back().name + "' is listed twice");
  }
  check_total_stays_hidden(a, kit);
  return a;
}

fs::path assignment_path(const fs::path& kit, const std::string& name_or_path) {
  const fs::path folder = kit / "assignments";
  if (name_or_path.find('/') != std::string::npos || fs::path(name_or_path).extension() == ".json")
    return name_or_path;
  if (!name_or_path.empty()) return folder / (name_or_path + ".json");
  if (fs::exists(folder / "default.json")) return folder / "default.json";
  std::vector<fs::path> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec))
    if (entry.path().extension() == ".json") found.push_back(entry.path());
  if (found.size() == 1) return found.front();
  throw AssignmentError("no default assignment in " + folder.string() +
                        " (default.json, or a single file): " + "name one with --assignment NAME");
}

Assignment load_assignment(const fs::path& kit, const std::string& name_or_path,
                           const std::vector<ExerciseChecks>& exercises) {
  const fs::path path = assignment_path(kit, name_or_path);
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(kit / "assignments", ec))
      if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
    std::sort(names.begin(), names.end());
    throw AssignmentError(
        "no assignment file " + path.string() +
        (names.empty() ? std::string() : "; the kit's assignments are: " + listed(names)));
  }
  std::stringstream text;
  text << f.rdbuf();
  try {
    Assignment a = parse_assignment(path.stem().string(), text.str(), exercises);
    a.path = path.string();
    // Once per process: grade-all reads the assignment twice (its columns, then its checks).
    static std::set<std::string> said;
    for (const auto& w : a.warnings)
      if (said.insert(w).second)
        std::cerr << "linattn-grade: warning: the assignment " << a.path << ": " << w << "\n";
    return a;
  } catch (const AssignmentError& e) {
    throw AssignmentError("the assignment " + path.string() + ": " + e.what());
  }
}

std::string describe(const Assignment& a, const std::vector<ExerciseChecks>& kit) {
  std::ostringstream out;
  double total = 0;
  for (const auto& ex : a.exercises) total += ex.points;
  out << "assignment " << a.name << " (" << a.path << "): " << a.exercises.size() << " exercises, "
      << total << " points\n";
  if (a.late.due || a.late.penalises) out << "late work: " << describe_late_policy(a.late) << "\n";
  if (a.seeds == Seeds::PerStudent)
    out << "seeds: per-student (course grading: from the course key and each student's id)\n";
  for (const auto& w : a.warnings) out << "warning: " << w << "\n";
  for (const auto& assigned : a.exercises)
    for (const auto& ex : kit) {
      if (ex.exercise != assigned.name) continue;
      out << "\n" << ex.exercise << "  " << assigned.points << " points\n";
      for (const auto& c : ex.checks) {
        std::string name = "  " + c.name;
        name.resize(std::max<std::size_t>(name.size() + 2, 40), ' ');
        std::string points = number(a.points_of(ex.exercise, c));
        points.resize(std::max<std::size_t>(points.size() + 2, 6), ' ');
        out << name << points << visibility_name(a.visibility_of(ex.exercise, c)) << "\n";
      }
    }
  return out.str();
}

}  // namespace grader
