// exercise_checks() as a whole (every exercise with its checks): points, names, functions,
// visibility, determinism, the memory rule, and the reference passing every check at its own
// seed and at other seeds.
#include "../exercise_list.hpp"
#include "fake_runner.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

using fake::json;
namespace fs = std::filesystem;

extern const char* const kKitSourceDir;  // this kit's folder (tests/checks/CMakeLists.txt)

namespace {
// The kit's own data, read here as the grader reads it: the list of exercises and the
// assignments with their points. The list and the points are not written here a second time, so
// an exercise added in its documented places is tested without editing it.
const fs::path kKit = kKitSourceDir;

std::vector<std::string> listed_exercises() { return kit_exercises::in_order(kKit.string()); }

// assignments/<name>.json: exercise -> points.
std::map<std::string, double> assignment_points(const fs::path& file) {
  std::map<std::string, double> points;
  const json assignment = json::parse(std::ifstream(file));
  for (const json& e : assignment.at("exercises"))
    points[e.at("name").get<std::string>()] = e.at("points").get<double>();
  return points;
}

double checks_points(const grader::ExerciseChecks& ex) {
  double points = 0;
  for (const auto& c : ex.checks) points += c.points;
  return points;
}

// The default hand-out's exercises.
std::set<std::string> default_exercises() {
  std::set<std::string> names;
  for (const auto& [name, points] : assignment_points(kKit / "assignments" / "default.json"))
    names.insert(name);
  return names;
}
const std::set<std::string> kDefault = default_exercises();
}  // namespace

TEST_CASE(
    "checks/registry: one checks table per exercise of the kit (its manifest), each check worth "
    "points") {
  std::vector<std::string> registered;
  for (const auto& ex : grader::exercise_checks()) {
    registered.push_back(ex.exercise);
    INFO(ex.exercise);
    CHECK(checks_points(ex) > 0);
    for (const auto& c : ex.checks) CHECK(c.points > 0);
  }
  std::vector<std::string> listed = listed_exercises();
  CHECK(!listed.empty());
  std::sort(listed.begin(), listed.end());
  std::sort(registered.begin(), registered.end());
  CHECK(registered == listed);
}

TEST_CASE(
    "checks/registry: every assignment of the kit gives each exercise its checks' points, the "
    "default 100 in all") {
  int files = 0;
  for (const auto& entry : fs::directory_iterator(kKit / "assignments")) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    double total = 0;
    for (const auto& [name, points] : assignment_points(entry.path())) {
      INFO(entry.path().filename().string() << ": " << name);
      const auto& all = grader::exercise_checks();
      const auto ex =
          std::find_if(all.begin(), all.end(), [&](const auto& e) { return e.exercise == name; });
      REQUIRE(ex != all.end());
      CHECK(std::fabs(checks_points(*ex) - points) < 1e-9);
      total += points;
    }
    if (entry.path().filename() == "default.json") CHECK(std::fabs(total - 100.0) < 1e-9);
  }
  CHECK(files >= 1);
  CHECK(!kDefault.empty());
}

TEST_CASE("checks/registry: names unique, every check names one function of its exercise") {
  for (const grader::ExerciseChecks& ex : fake::exercises_under_test()) {
    std::set<std::string> names;
    std::set<std::string> graded;
    for (const auto& c : ex.checks) {
      INFO(ex.exercise << "/" << c.name);
      CHECK(names.insert(c.name).second);
      CHECK(c.name.find('/') != std::string::npos);
      CHECK(std::find(ex.functions.begin(), ex.functions.end(), c.function) != ex.functions.end());
      REQUIRE(c.request);  // the oracle half, joined by name
      REQUIRE(c.expect);
      REQUIRE(c.judge);
      const json rq = c.request(c.seed);
      CHECK(rq.at("function") == c.function);  // calls only the function it names
      CHECK(rq.at("calls").is_array());
      CHECK(!rq.at("calls").empty());
      graded.insert(c.function);
    }
    // Every function of the exercise has at least one check.
    CHECK(graded.size() == ex.functions.size());
  }
}

TEST_CASE("checks/registry: function lists follow the headers") {
  CHECK(fake::exercise("flops").functions ==
        std::vector<std::string>{"attention_flops", "crossover_T"});
  CHECK(fake::exercise("causal").functions ==
        std::vector<std::string>{"causal_linear_attention_recurrent",
                                 "causal_linear_attention_parallel", "linear_attention_step"});
  CHECK(fake::exercise("random_features").functions ==
        std::vector<std::string>{"positive_random_features", "softmax_kernel_estimate"});
  CHECK(fake::exercise("taylor").functions ==
        std::vector<std::string>{"taylor_features", "taylor_state_bytes", "kv_cache_tokens"});
  CHECK(fake::exercise("memory").functions ==
        std::vector<std::string>{"write", "read", "crosstalk_energy"});
  CHECK(fake::exercise("chunkwise").functions ==
        std::vector<std::string>{"causal_linear_attention_chunkwise"});
  CHECK(fake::exercise("backward").functions ==
        std::vector<std::string>{"causal_linear_attention_backward"});
  CHECK(fake::exercise("modern").functions ==
        std::vector<std::string>{"mlstm", "decayed_normalized_attention"});
}

TEST_CASE("checks/registry: requests are deterministic in the seed") {
  for (const grader::ExerciseChecks& ex : fake::exercises_under_test())
    for (const auto& c : ex.checks) {
      INFO(ex.exercise << "/" << c.name);
      for (std::uint64_t seed : {c.seed, std::uint64_t{2}, std::uint64_t{12345}})
        CHECK(c.request(seed) == c.request(seed));
    }
  // A check made from random inputs does change with the seed.
  const auto& c = fake::check("causal", "recurrent/random-taylor");
  CHECK(c.request(1) != c.request(2));
}

// The lookup-table attack (tests/corpus/lookup_table.cpp) on the hidden checks: course grading
// draws each check's seed from the course's key, so a hidden check whose inputs were the same
// at every seed could be answered from a table of what any grader once asked.
TEST_CASE("checks/registry: lookup tables: every hidden check's inputs change with the seed") {
  for (const grader::ExerciseChecks& ex : fake::exercises_under_test())
    for (const auto& c : ex.checks) {
      if (c.visibility == grader::Visibility::Visible) continue;
      INFO(ex.exercise << "/" << c.name << " has the same inputs at seeds 1, 2 and 3");
      CHECK(c.request(1) != c.request(2));
      CHECK(c.request(2) != c.request(3));
    }
}

TEST_CASE("checks/registry: most checks visible, some hidden, hidden ones on their own seeds") {
  for (const grader::ExerciseChecks& ex : fake::exercises_under_test()) {
    int visible = 0, hidden = 0;
    for (const auto& c : ex.checks) {
      if (c.visibility == grader::Visibility::Visible) ++visible;
      if (c.visibility == grader::Visibility::Hidden) ++hidden;
    }
    INFO(ex.exercise);
    CHECK(hidden >= 1);
    CHECK(visible > hidden);
  }
}

TEST_CASE("checks/registry: the recurrent form's memory rule") {
  const auto& c = fake::check("causal", "recurrent/memory-budget");
  CHECK(c.function == "causal_linear_attention_recurrent");
  REQUIRE(c.heap_budget_bytes.has_value());
  const json call = c.request(c.seed).at("calls").at(0);
  const double T = call.at("Q").at("rows").get<double>();
  const double d_k = call.at("Q").at("cols").get<double>();
  const double d_v = call.at("V").at("cols").get<double>();
  const double d_phi = d_k;  // elu+1
  CHECK(call.at("phi").at("name") == "elu_plus_one");
  const double budget = static_cast<double>(*c.heap_budget_bytes);
  // Linear in T: holds phi(Q), phi(K), the output and a state at least twice over.
  CHECK(budget >= 2 * 8 * (2 * T * d_phi + T * d_v) + 8 * d_phi * d_v);
  // A T x T matrix of doubles, or every state of the cumulative-sum form, is 5 times over it.
  CHECK(T * T * 8 >= 5 * budget);
  CHECK(T * d_phi * d_v * 8 >= 5 * budget);
  // The kernel's limit backs the meter: neither a T x T matrix nor the stored states fit in it.
  CHECK(c.limits.address_space_bytes <= (1ull << 30));
  CHECK(T * T * 8 > c.limits.address_space_bytes);
  CHECK(T * d_phi * d_v * 8 > c.limits.address_space_bytes);
  CHECK(c.limits.wall_seconds >= 10.0);
  CHECK(fake::contains(c.heap_budget_rule, std::to_string(*c.heap_budget_bytes)));
  CHECK(fake::contains(c.heap_budget_rule, "T x T"));
  // No other check of the first five has a memory rule (those of chunkwise, backward and modern
  // are tested with their checks).
  for (const auto& ex : grader::exercise_checks())
    for (const auto& other : ex.checks)
      if (&other != &c && kDefault.count(ex.exercise)) CHECK(!other.heap_budget_bytes.has_value());
}

TEST_CASE("checks/registry: the reference passes every check, at its seed and at others") {
  for (const grader::ExerciseChecks& ex : fake::exercises_under_test())
    for (const auto& c : ex.checks)
      for (std::uint64_t seed : {c.seed, std::uint64_t{2}, std::uint64_t{777}}) {
        const grader::Verdict v = fake::judge_with(c, fake::reference(c.function), seed);
        INFO(ex.exercise << "/" << c.name << " seed " << seed << ": " << v.message);
        CHECK(v.passed);
      }
}

TEST_CASE("checks/registry: a reply with too few results is a failure, not an exception") {
  const auto& c = fake::check("memory", "write/three-pairs");
  const json request = c.request(c.seed);
  json reply = fake::reply_from(request, fake::reference("write"));
  reply["results"].erase(reply["results"].begin());
  const grader::Verdict v = c.judge(request, c.expect(request), reply);
  CHECK_FALSE(v.passed);
  CHECK(fake::contains(v.message, "could not be read"));
}
