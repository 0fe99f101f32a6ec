// The time rule's judge on made-up replies: the CPU times are written here, so each case says
// exactly which growth it stands for. Sizes 512, 2048 and 8192, three inputs of each; a cost
// a + b T gives steps in the ratio 4, a + c T^2 in the ratio 16.
#include "fake_runner.hpp"

#include "checks/shared/time_rule.hpp"

#include <cmath>
#include <functional>
#include <set>

namespace {

using fake::json;

constexpr long kSizes[] = {512, 2048, 8192};

// Nine calls of a made-up function with one matrix result, round by round as the check orders
// them; the expected outputs are these. Each call says its size, for the made-up pace below.
json request() {
  json calls = json::array();
  for (int i = 0; i < 9; ++i) calls.push_back(json{{"T", kSizes[i % 3]}});
  return json{{"function", "f"}, {"calls", calls}};
}
json output(double x) { return json{{"O", wire::from_matrix(fake::Matrix::Constant(2, 2, x))}}; }
json expected() {
  json calls = json::array();
  for (int i = 0; i < 9; ++i)
    calls.push_back(json{{"tokens", kSizes[i % 3]}, {"outputs", output(1.0 + i)}});
  return json{{"calls", calls}};
}
// cpu(T, round) is the CPU time of the call at T in that round; `off` is added to every output.
json reply(const std::function<double(long, int)>& cpu, double off = 0.0) {
  json results = json::array(), seconds = json::array();
  for (int i = 0; i < 9; ++i) {
    results.push_back(output(1.0 + i + off));
    seconds.push_back(cpu(kSizes[i % 3], i / 3));
  }
  return json{{"outcome", "returned"}, {"results", results}, {"cpu_seconds", seconds}};
}
// a + b T + c T^2 seconds, T in units of 512 tokens (1, 4, 16), the same in every round.
std::function<double(long, int)> cost(double a, double b, double c) {
  return [=](long tokens, int) {
    const double t = static_cast<double>(tokens) / 512.0;
    return a + b * t + c * t * t;
  };
}
// The pace the judge measures, made up: `per_token` seconds of CPU per token, so the pace grows
// by 6144 x per_token from 2048 to 8192 tokens. The default, 2 us, puts the largest step's budget
// at 3 x 12.3 + 64 = 100.9 ms.
grader::Pace pace_of(double per_token) {
  return [per_token](const json& call) { return per_token * call.at("T").get<double>(); };
}
grader::Verdict judge(const json& r, const grader::Pace& pace = pace_of(2e-6)) {
  return grader::judge_linear_time(request(), expected(), r, grader::kQuadraticRecurrence, pace);
}
// Times at the three sizes, the same in every round.
std::function<double(long, int)> at(double small, double middle, double large) {
  return [=](long tokens, int) { return tokens == 512 ? small : tokens == 2048 ? middle : large; };
}

}  // namespace

TEST_CASE("time rule: linear growth passes, whatever the fixed cost") {
  CHECK(judge(reply(cost(0.010, 0.005, 0))).passed);
  CHECK(judge(reply(cost(0.500, 0.005, 0))).passed);
  // Linear with a little curvature (caches): steps of 13.5 and 72 ms, a ratio of 5.3.
  CHECK(judge(reply(cost(0.010, 0.004, 0.0001))).passed);
  // Measured on a quiet machine, linear forms in steps of 2 (the rule's first form, which
  // failed above 2.8): chunkwise 30, 46, 86 ms, 2.84. In steps of 4, chunkwise's worst seen
  // (least of three) was 15.2, 24.9, 94.7 ms: 7.2, under 8.
  CHECK(judge(reply([](long tokens, int) {
          return tokens == 512 ? 0.0152 : tokens == 2048 ? 0.0249 : 0.0947;
        })).passed);
  // A call too fast to be timed at all still yields a verdict, not a division by 0.
  CHECK(judge(reply(cost(0, 0, 0))).passed);
}

TEST_CASE("time rule: quadratic growth fails and says what was measured") {
  const grader::Verdict v = judge(reply(cost(0.010, 0.0, 0.001)));  // steps 15 and 240 ms
  REQUIRE(!v.passed);
  CHECK(fake::contains(v.message, "T = 512"));
  CHECK(fake::contains(v.message, "T = 8192"));
  CHECK(fake::contains(v.message, "grew by 240.0 ms"));
  CHECK(fake::contains(v.message, "by 15.0 ms: 16.0 times as much"));
  CHECK(fake::contains(v.message, "the least of 3 inputs of each size"));
  CHECK(fake::contains(v.message, "The tokens grow 4 times at each step"));
  CHECK(fake::contains(v.message, "fails above 8.0 times"));
  // A light quadratic form, as the corpus's memo form measured: 11.4, 18.7 and 91.6 ms (9.1).
  CHECK(!judge(reply([](long tokens, int) {
           return tokens == 512 ? 0.0114 : tokens == 2048 ? 0.0187 : 0.0916;
         })).passed);
}

TEST_CASE("time rule: a fixed cost per call (padding) cancels out and does not hide T^2") {
  // The padding: 80 ms of CPU spent on purpose in every call. The old rule's figure,
  // the largest call against the smallest, is (80 + 256) / (80 + 1) = 4.1 here for 16 times
  // the tokens: less than linear.
  CHECK(!judge(reply(cost(0.080, 0.0, 0.001))).passed);
  CHECK(!judge(reply(cost(5.0, 0.0, 0.001))).passed);
}

TEST_CASE("time rule: the least time of each size is kept, so load on one call does not fail it") {
  // Linear, but one call at the largest size (round 0) and one at the smallest (round 2) ran on
  // a busy machine. Keeping the last or the first of each size instead of the least fails.
  auto loaded = [](long tokens, int round) {
    const double t = cost(0.010, 0.005, 0)(tokens, round);
    if (tokens == 8192 && round == 0) return t + 0.050;
    if (tokens == 8192 && round == 2) return t + 0.050;
    if (tokens == 2048 && round == 1) return t + 0.020;
    return t;
  };
  CHECK(judge(reply(loaded)).passed);
}

TEST_CASE("time rule: the first step is never taken as less than the noise floor") {
  // A fast linear form: its steps (0.1 ms, 1.2 ms) are start-up jitter, and the ratio of such
  // steps means nothing (here 12). The floor, 8 ms, keeps it from failing.
  auto jitter = [](long tokens, int) {
    return tokens == 512 ? 0.0100 : tokens == 2048 ? 0.0101 : 0.0113;
  };
  CHECK(judge(reply(jitter)).passed);
  // The linear mlstm as measured on a quiet machine: 15.9, 18.5 and 54.5 ms, the smallest
  // size's every call slowed by a few ms (14 by themselves), 36 / 8 = 4.5 with the floor. A
  // floor of 1 ms would fail it.
  auto slowed = [](long tokens, int) {
    return tokens == 512 ? 0.0159 : tokens == 2048 ? 0.0185 : 0.0545;
  };
  CHECK(judge(reply(slowed)).passed);
  // A step down (the middle size measured high) is no reason to fail either.
  auto dip = [](long tokens, int) {
    return tokens == 512 ? 0.010 : tokens == 2048 ? 0.013 : 0.0125;
  };
  CHECK(judge(reply(dip)).passed);
  // But the floor is a floor, not a pass: a cheap quadratic form with steps of 4.5 and 72 ms
  // is told (72 / 8 = 9); with a floor of 10 ms it would pass.
  CHECK(!judge(reply(cost(0.010, 0.0, 0.0003))).passed);
}

TEST_CASE("time rule: a step under a tenth of a large fixed cost is noise") {
  // Measured under load on a submission whose every call maps and fills 60 MiB: 881.2, 898.5
  // and 1071.9 ms, steps of 17.3 and 173.4 ms (10.0 times), where a quiet machine passes it.
  // The first step counts as 88.1 ms (a tenth of 881.2), 2.0 times; the pace's budget holds.
  const grader::Verdict v = judge(reply(at(0.8812, 0.8985, 1.0719)), pace_of(2e-5));
  CHECK(v.passed);
  // What counted is said when it fails: the same first step, a high step of 800 ms.
  const grader::Verdict q = judge(reply(at(0.8812, 0.8985, 1.6985)), pace_of(2e-4));
  REQUIRE_FALSE(q.passed);
  CHECK(fake::contains(q.message,
                       "by 17.3 ms (counted as 88.1 ms, the least a step counts for: "
                       "8.000 ms, or 10% of the time at T = 512, whichever is more): "
                       "9.1 times as much."));
  // A small fixed cost (40 ms) keeps the 8 ms floor: steps of 4 and 66 ms fail growth (8.25).
  CHECK_FALSE(judge(reply(at(0.040, 0.044, 0.110)), pace_of(2e-4)).passed);
}

TEST_CASE("time rule: a middle size slowed by a tenth of a large fixed cost is not padding") {
  // The same submission in a fresh-clone run: 1214.6, 1439.0 and 1226.5 ms. Its first step
  // (224.4 ms) is under 8 times the least a step counts for (121.5 ms), so growth from below
  // does not judge it; the last step (-212.5 ms) is within the pace's budget.
  CHECK(judge(reply(at(1.2146, 1.4390, 1.2265)), pace_of(2e-5)).passed);
  // Flattened growth above that threshold still fails: steps of 1000 and 300 ms.
  const grader::Verdict v = judge(reply(at(1.2146, 2.2146, 2.5146)), pace_of(2e-4));
  REQUIRE_FALSE(v.passed);
  CHECK(fake::contains(v.message, "fails under 2.0 times once the first step is over 971.7 ms"));
}

TEST_CASE("time rule: a failed check names the likely mistake its exercise gave it") {
  grader::Oracle oracle{[](std::uint64_t) {
                          return json::array({json::object(), json::object()});
                        },
                        [](const json&) { return json::object(); }};
  const grader::Check own = grader::linear_time_check("f", "f/linear-time", 1.0, oracle,
                                                      "it rebuilds the state for every chunk");
  const grader::Verdict v = own.judge(request(), expected(), reply(cost(0.01, 0, 0.01)));
  REQUIRE(!v.passed);
  CHECK(fake::contains(v.message, "it rebuilds the state for every chunk"));
  CHECK(!fake::contains(v.message, "sums over all earlier tokens"));
  // The same words when the check runs into its wall limit (run_check adds them).
  CHECK(own.timeout_hint == "it rebuilds the state for every chunk");
  // Without one, the recurrence's wording.
  const grader::Check plain = grader::linear_time_check("f", "f/linear-time", 1.0, oracle);
  CHECK(fake::contains(plain.judge(request(), expected(), reply(cost(0.01, 0, 0.01))).message,
                       "sums over all earlier tokens again for each new one"));
  CHECK(plain.timeout_hint == grader::kQuadraticRecurrence);
  CHECK(plain.judge(request(), expected(), reply(cost(0.01, 0.005, 0))).passed);
}

TEST_CASE("time rule: any answer is timed however wrong, and no answer at all earns nothing") {
  // One slip costs once (answer_gate.hpp): values far off are the value checks' business, so
  // linear growth passes and quadratic growth still fails with them.
  for (double off : {3e-8, 0.5, 1e6}) {
    CAPTURE(off);
    CHECK(judge(reply(cost(0.01, 0.005, 0), off)).passed);
    const grader::Verdict quadratic = judge(reply(cost(0.01, 0, 0.005), off));
    CHECK(!quadratic.passed);
    CHECK(fake::contains(quadratic.message, "times as much"));
  }
  // Results that are no answer, on otherwise linear growth: the gate's words, and no points.
  auto every_result = [](const json& result) {
    json r = reply(cost(0.01, 0.005, 0));
    for (json& one : r["results"]) one = result;
    return r;
  };
  const struct {
    const char* what;
    json result;
    const char* says;
  } none[] = {
      {"zeros", output(0.0), "every entry of O is 0"},
      {"no O", json::object(), "has no \"O\""},
      {"another shape", json{{"O", wire::from_matrix(fake::Matrix::Constant(3, 2, 1.0))}},
       "O is 3 x 2 where it should be 2 x 2"},
      {"all NaN", output(std::nan("")), "no entry of O is a finite number"},
  };
  for (const auto& c : none) {
    CAPTURE(c.what);
    const grader::Verdict v = judge(every_result(c.result));
    REQUIRE(!v.passed);
    CHECK(fake::contains(v.message, "no answer"));
    CHECK(fake::contains(v.message, c.says));
    CHECK(fake::contains(v.message, "value checks"));
  }
}

TEST_CASE("time rule: each call of a time check is a problem of its own, at N/8, N/2 and 2 N") {
  // An oracle whose pair is (8 tokens, N = 64 tokens), each filled from its seed, with a vector
  // argument along the tokens and a matrix that is not (2 x 3).
  auto pair = [](std::uint64_t seed) {
    json calls = json::array();
    for (long t : {8L, 64L}) {
      fake::Matrix Q(t, 2), W(2, 3);
      Q.setConstant(static_cast<double>(seed % 1000003));
      W.setConstant(1.0);
      calls.push_back(json{{"Q", wire::from_matrix(Q)},
                           {"W", wire::from_matrix(W)},
                           {"g", std::vector<double>(static_cast<std::size_t>(t), 0.5)},
                           {"eps", 0.0}});
    }
    return calls;
  };
  grader::Oracle oracle{pair, [](const json&) { return json::object(); }};
  const grader::Check c = grader::linear_time_check("f", "f/linear-time", 1.0, oracle);
  CHECK(c.timed);
  const json request = c.request(7);
  CHECK(!request.contains("repeat"));
  const json& calls = request.at("calls");
  REQUIRE(calls.size() == 9);
  std::set<double> fills;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const long tokens = 8L << (2 * (i % 3));  // 8, 32, 128
    CHECK(calls[i].at("Q").at("rows") == tokens);
    CHECK(calls[i].at("g").size() == static_cast<std::size_t>(tokens));
    CHECK(calls[i].at("W").at("rows") == 2);  // not along the tokens: untouched
    const fake::Matrix Q = wire::to_matrix(calls[i].at("Q"));
    fills.insert(Q(0, 0));
    // 2 N tokens: two problems one after the other, each from a seed of its own.
    if (tokens == 128) CHECK(Q(64, 0) != Q(0, 0));
  }
  // Nine seeds, nine different problems: no call repeats another's inputs (a memo is useless).
  CHECK(fills.size() == 9);
  // ... and the seed decides them (a course seed changes every input).
  CHECK(c.request(8).at("calls")[0] != calls[0]);
}

TEST_CASE("time rule: time spent at the middle size to flatten the growth fails") {
  // The padded form (light quadratic work, 0.6 s of CPU burnt at every size but the
  // smallest), as measured at 4096, 16384 and 65536 tokens: steps of 601 and 321 ms, 0.5.
  const grader::Verdict v = judge(reply(at(0.0183, 0.6197, 0.9409)));
  REQUIRE(!v.passed);
  CHECK(fake::contains(v.message, "0.5 times as much"));
  CHECK(fake::contains(v.message, "fails under 2.0 times once the first step is over 64.0 ms"));
  // Under twice the first step but with a first step of noise (under 64 ms): not judged so.
  CHECK(judge(reply(at(0.010, 0.060, 0.070))).passed);
  // Twice the first step exactly is enough (linear adds 4 times); the pace here is one where
  // a last step of 140 ms is in its budget (rule 3 is not what this is about).
  CHECK(judge(reply(at(0.010, 0.080, 0.220)), pace_of(2e-5)).passed);
  CHECK(!judge(reply(at(0.010, 0.080, 0.210)), pace_of(2e-5)).passed);
}

TEST_CASE("time rule: the largest step is judged against the judge's own linear pass") {
  // Quadratic work padded so that it grows like T: 62.5, 250 and 1000 ms, steps in the ratio 4.
  // Growth alone passes it; its last step (750 ms) is over 3 times the pace's (12.3 ms) + 64 ms.
  const auto padded = reply(at(0.0625, 0.250, 1.000));
  const grader::Verdict v = judge(padded);
  REQUIRE(!v.passed);
  CHECK(fake::contains(v.message, "grew by 750.0 ms"));
  CHECK(fake::contains(v.message, "in a process of its own as each call is, grew by 12.3 ms"));
  CHECK(fake::contains(v.message, "61.0 times as much"));
  CHECK(fake::contains(v.message, "no more than 3 times what that pass adds, plus 64.0 ms"));
  CHECK(fake::contains(v.message, "(100.9 ms here)"));
  // On a machine (or a form) where plain linear work is 25 times slower, the same figures are
  // linear work: the budget is 3 x 307.2 + 64 = 985.6 ms.
  CHECK(judge(padded, pace_of(5e-5)).passed);
  // The budget's edge: 100.8 ms passes, 101 ms fails.
  CHECK(judge(reply(at(0.010, 0.050, 0.050 + 0.1008))).passed);
  CHECK(!judge(reply(at(0.010, 0.050, 0.050 + 0.1010))).passed);
}

TEST_CASE("time rule: a pace step under 10 us still divides the last step as measured") {
  // A pass of 1.25 ns a token grows by 7.68 us from 2048 to 8192 tokens; the call's 120 ms
  // step is 15625 times that. (A floor under the divisor guards only against a pace of 0.)
  const grader::Verdict v = judge(reply(at(0.010, 0.040, 0.160)), pace_of(1.25e-9));
  REQUIRE(!v.passed);
  CHECK(fake::contains(v.message, "grew by 120.0 ms"));
  CHECK(fake::contains(v.message, "the call grew 15625.0 times as much"));
}

TEST_CASE("time rule: the pace of each size is the least of its calls") {
  // Two measurements of the pace at 2048 tokens, the first and the last, were slowed (load on
  // the machine): were either kept, the pace's step would be negative and the budget 64 ms; the
  // least gives 100.9 ms.
  int calls_at_2048 = 0;
  const grader::Pace slowed_once = [&](const json& call) {
    const double t = call.at("T").get<double>();
    if (t == 2048 && calls_at_2048++ != 1) return 1.0;
    return 2e-6 * t;
  };
  CHECK(judge(reply(at(0.010, 0.050, 0.150)), slowed_once).passed);
  CHECK(calls_at_2048 == 3);
}

TEST_CASE("time rule: the pace is a real pass over the call's longest matrix") {
  CHECK(grader::linear_pace(json{{"eps", 0.5}}) == 0.0);  // nothing to pass over
  const json call{{"Q", wire::from_matrix(fake::Matrix::Constant(4096, 8, 0.5))},
                  {"W", wire::from_matrix(fake::Matrix::Constant(2, 2, 1.0))}};
  CHECK(grader::linear_pace(call) > 0.0);
}

TEST_CASE("time rule: the pace's pass runs in a process of its own, as a call does") {
  // A call's pages are new to its process and the kernel's work on them is CPU the call pays;
  // the pass pays it only in a fresh process. A pass that fails there ends that process (exit
  // 1), which the judge reports as its own fault, not as the wire's error in its own thread.
  json broken{{"Q", wire::from_matrix(fake::Matrix::Constant(64, 8, 0.5))}};
  broken["Q"]["rows"] = 65;  // rows x cols no longer the data's size
  try {
    grader::linear_pace(broken);
    FAIL("a broken pass was timed");
  } catch (const std::runtime_error& e) {
    CHECK(fake::contains(e.what(), "did not end normally"));
  }
}
