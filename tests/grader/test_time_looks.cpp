// More looks at a failed time check (grader/src/judge/time_looks.hpp), with made-up measurements: a
// judge that fails while the largest call's least time is above a bound, and runs whose times
// are written here.
#include <doctest/doctest.h>

#include "src/judge/time_looks.hpp"

#include <vector>

namespace {

using grader::json;
using grader::Verdict;

json reply(std::vector<double> seconds) {
  return json{{"results", json::array()}, {"cpu_seconds", seconds}};
}

// Fails while any call's time is above 0.1 s; counts its calls.
struct Judge {
  int calls = 0;
  Verdict operator()(const json& r) {
    ++calls;
    for (const auto& seconds : r.at("cpu_seconds"))
      if (seconds.get<double>() > 0.1) return Verdict::fail("grew too fast");
    return Verdict::pass();
  }
};

}  // namespace

TEST_CASE("time rule: a failed time check looks again, keeping each call's least time") {
  Judge judge;
  int runs = 0;
  // Load on every run, but never on both calls at once: the first call is quiet in the first
  // look, the second in the second. Each call keeping its least time, the check passes after
  // the second look; judged on the last run alone, it would fail every time.
  const std::vector<json> later = {json{0.05, 0.3}, json{0.3, 0.05}, json{0.3, 0.3},
                                   json{0.3, 0.3}};
  auto measure = [&]() -> std::optional<json> {
    return later.at(static_cast<std::size_t>(runs++));
  };
  const Verdict v = grader::look_again(reply({0.3, 0.3}), Verdict::fail("grew too fast"), measure,
                                       [&](const json& r) { return judge(r); });
  CHECK(v.passed);
  CHECK(runs == 2);  // it stops looking once the check passes
  // Up to kMoreLooks runs, and no more: a form that fails every time keeps its failure.
  runs = 0;
  auto always_slow = [&]() -> std::optional<json> {
    ++runs;
    return json{0.5, 0.5};
  };
  const Verdict slow = grader::look_again(reply({0.5, 0.5}), Verdict::fail("grew too fast"),
                                          always_slow, [&](const json& r) { return judge(r); });
  CHECK(!slow.passed);
  CHECK(runs == grader::kMoreLooks);
  CHECK(grader::kMoreLooks >= 4);  // two were not enough in a full ./kit test
}

TEST_CASE(
    "time rule: a failed time check is not looked at again after seconds of work or a bad run") {
  Judge judge;
  int runs = 0;
  auto measure = [&]() -> std::optional<json> {
    ++runs;
    return json{0.01, 0.05};
  };
  // A call of 1.5 s of CPU: no noise makes that, and every look would repeat it.
  CHECK(!grader::look_again(reply({0.01, 1.5}), Verdict::fail("grew too fast"), measure,
                            [&](const json& r) { return judge(r); })
             .passed);
  CHECK(runs == 0);
  // Just under the ceiling, it looks.
  CHECK(grader::look_again(reply({0.01, 0.9}), Verdict::fail("grew too fast"), measure,
                           [&](const json& r) { return judge(r); })
            .passed);
  CHECK(runs == 1);
  // A run that did not return normally ends the looking: the first verdict stands.
  runs = 0;
  auto crashed = [&]() -> std::optional<json> {
    ++runs;
    return std::nullopt;
  };
  CHECK(!grader::look_again(reply({0.01, 0.5}), Verdict::fail("grew too fast"), crashed,
                            [&](const json& r) { return judge(r); })
             .passed);
  CHECK(runs == 1);
  // A passed check is never measured again.
  runs = 0;
  CHECK(grader::look_again(reply({0.01, 0.5}), Verdict::pass(), measure, [&](const json& r) {
          return judge(r);
        }).passed);
  CHECK(runs == 0);
}
