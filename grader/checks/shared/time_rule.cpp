// The time rule's judge (see time_rule.hpp).
#include "time_rule.hpp"

#include "answer_gate.hpp"

#include "../../common/wire.hpp"
#include "../../src/judge/compare.hpp"

#include "../../src/judge/api_schemas.hpp"

#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace grader {

namespace {

std::string ms(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, seconds < 0.01 ? "%.3f ms" : "%.1f ms", seconds * 1e3);
  return buf;
}

// A seed of its own for problem k of a time check at `seed` (splitmix64's mixing step).
std::uint64_t problem_seed(std::uint64_t seed, int k) {
  std::uint64_t x = seed + 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(k + 1);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

bool is_matrix(const json& v) { return v.is_object() && v.contains("rows") && v.contains("data"); }

// The rows of a call's longest matrix argument: its tokens.
long longest_matrix(const json& call) {
  long longest = 0;
  for (const auto& [name, v] : call.items())
    if (is_matrix(v)) longest = std::max(longest, v.at("rows").get<long>());
  return longest;
}

// `a` with the tokens of `b` after its own: every argument along the tokens (a matrix with as
// many rows as a's longest, or a vector that long) gets b's rows appended; the rest is a's.
// Two causal problems one after the other are one causal problem.
json append_tokens(const json& a, const json& b) {
  const long n = longest_matrix(a);
  json out = a;
  for (auto& [name, v] : out.items()) {
    if (is_matrix(v) && v.at("rows").get<long>() == n) {
      const json& more = b.at(name);
      if (more.at("cols") != v.at("cols"))
        throw std::runtime_error("a time check's problems differ in width");
      for (const auto& x : more.at("data")) v["data"].push_back(x);
      v["rows"] = n + more.at("rows").get<long>();
    } else if (v.is_array() && static_cast<long>(v.size()) == n) {
      for (const auto& x : b.at(name)) v.push_back(x);
    }
  }
  return out;
}

// The least pace of the calls of each size: the judge's own linear pass, in a process of its own.
std::map<long, double> least_pace(const json& request, const json& expected, const Pace& pace) {
  std::map<long, double> least;
  const json& calls = request.at("calls");
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const long tokens = expected_of(request, expected, i).at("tokens").get<long>();
    const double seconds = pace(calls[i]);
    const auto [slot, fresh] = least.emplace(tokens, seconds);
    if (!fresh) slot->second = std::min(slot->second, seconds);
  }
  return least;
}

// Rule 3: the last step (t1 -> t2, `high`) against the pace's step over the same sizes.
Verdict against_the_pace(const json& request, const json& expected, const Pace& pace,
                         const std::string& measured, long t1, long t2, double high,
                         const std::string& likely_mistake) {
  const std::map<long, double> paced = least_pace(request, expected, pace);
  const double pace_step = std::max(0.0, paced.at(t2) - paced.at(t1));
  const double budget = kTimeRulePaceFactor * pace_step + kTimeRulePaceAllowance;
  if (high <= budget) return Verdict::pass();
  char against[512];
  std::snprintf(against, sizeof against,
                " From T = %ld to %ld it grew by %s. A plain linear pass over the same inputs, "
                "run by the grader just now in a process of its own as each call is, grew by %s: "
                "the call grew %.1f times as much.",
                t1, t2, ms(high).c_str(), ms(pace_step).c_str(), high / std::max(pace_step, 1e-6));
  char rule[512];
  std::snprintf(rule, sizeof rule,
                "However its time grows, a form linear in T adds no more than %.0f times what "
                "that pass adds, plus %s for noise (%s here); this check fails above. Work that "
                "grows like T^2 goes over it at this size, even when time spent on purpose at "
                "the smaller sizes makes its growth look linear.",
                kTimeRulePaceFactor, ms(kTimeRulePaceAllowance).c_str(), ms(budget).c_str());
  return failure(measured + against, rule, likely_mistake);
}

// One plain linear pass as a call's process makes it, from the bytes a runner is sent: take the
// inputs in, one recurrence over the tokens of the longest matrix with a d x d state (written
// as plainly as a student's form), and the output packed as a runner gives it back.
void one_linear_pass(const std::vector<std::uint8_t>& request) {
  const json call = wire::decode_packed(request);
  json longest;
  for (const auto& [name, v] : call.items())
    if (is_matrix(v) && (longest.is_null() || v.at("rows") > longest.at("rows"))) longest = v;
  const Eigen::MatrixXd X = wire::to_matrix(longest);  // (T, d)
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(X.cols(), X.cols());
  Eigen::MatrixXd Y(X.rows(), X.cols());
  for (Eigen::Index t = 0; t < X.rows(); ++t) {
    S.noalias() += X.row(t).transpose() * X.row(t);
    Y.row(t).noalias() = X.row(t) * S;
  }
  const std::vector<std::uint8_t> reply = wire::encode_packed(json{{"O", wire::from_matrix(Y)}});
  volatile std::size_t keep = reply.size();  // nothing above is optimised away
  (void)keep;
}

double seconds_of(const timeval& t) {
  return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
}

}  // namespace

// The pass runs in a child process of its own (fork) and is timed from outside, by the child's
// user + system CPU time once it has ended: as the supervisor times a call. A call's process
// starts with no pages of its own, and the kernel's work of giving it pages is half of its CPU
// (measured on the causal solution at 65536 tokens: about 170 ms user and 160 ms system). The
// same pass on the judge's own thread reused pages the judge already held, paid none of that,
// and set a budget a correct form went over in a loaded CI run (its last step 246 ms against 8 x
// 19 ms + 64 ms). A child writes only to pages that are new to it or copied on write, as a
// fresh process does, so a machine where pages are dear raises the pace with the call's time.
double linear_pace(const json& call) {
  bool any = false;
  for (const auto& [name, v] : call.items()) any = any || is_matrix(v);
  if (!any) return 0.0;
  // As a runner gets it: encode_packed's bytes, made without its copies (the child's work,
  // which is what is timed, is the same).
  const std::vector<std::uint8_t> request = wire::encode_packed_once(call);
  const pid_t child = ::fork();
  if (child < 0)
    throw std::runtime_error(std::string("the grader could not start a process to time a plain "
                                         "linear pass (fork: ") +
                             std::strerror(errno) + ")");
  if (child == 0) {
    // A hang guard (120 s of wall clock for about 0.3 s of CPU): a child forked from a judge
    // with threads could wait for ever on a lock another thread held at the fork. SIGALRM
    // ends it, and the judge reports its own fault.
    ::alarm(120);
    try {
      one_linear_pass(request);
    } catch (...) {
      ::_exit(1);
    }
    ::_exit(0);
  }
  int status = 0;
  rusage usage{};
  while (::wait4(child, &status, 0, &usage) < 0)
    if (errno != EINTR)
      throw std::runtime_error(std::string("the grader lost its linear pass's process (wait4: ") +
                               std::strerror(errno) + ")");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(
        "the grader's own linear pass, which times this machine's pace, "
        "did not end normally (short of memory?)");
  return seconds_of(usage.ru_utime) + seconds_of(usage.ru_stime);
}

json first_tokens(const json& call, long tokens) {
  const long longest = longest_matrix(call);
  if (tokens > longest) throw std::runtime_error("a time check's call has fewer tokens than asked");
  json out = call;
  for (auto& [name, v] : out.items()) {
    if (is_matrix(v) && v.at("rows").get<long>() == longest) {
      const long cols = v.at("cols").get<long>();
      json& data = v.at("data");
      data.erase(data.begin() + tokens * cols, data.end());
      v["rows"] = tokens;
    } else if (v.is_array() && static_cast<long>(v.size()) == longest) {
      v.erase(v.begin() + tokens, v.end());
    }
  }
  return out;
}

Verdict judge_linear_time(const json& request, const json& expected, const json& reply,
                          const std::string& likely_mistake, const Pace& pace) {
  const std::size_t n = request.at("calls").size();
  const json& cpu = reply.at("cpu_seconds");
  if (cpu.size() != n) throw std::runtime_error("a time check's reply has one CPU time per call");
  std::map<long, double> least;  // tokens -> the least CPU time of the calls of that size
  for (std::size_t i = 0; i < n; ++i) {
    const json& e = expected_of(request, expected, i);
    const long tokens = e.at("tokens").get<long>();
    // One slip costs once: any answer is timed, however wrong (answer_gate.hpp).
    if (auto none =
            not_an_answer(request.at("calls")[i], e.at("outputs"), result_of(request, reply, i)))
      return failure(call_label(i, n) + "at T = " + std::to_string(tokens) +
                         ", the result is no answer, and the time rule times answers only "
                         "(the value checks of this function say what to fix):",
                     *none, std::nullopt);
    const double seconds = cpu[i].get<double>();
    const auto [at, fresh] = least.emplace(tokens, seconds);
    if (!fresh) at->second = std::min(at->second, seconds);
  }
  if (least.size() != static_cast<std::size_t>(kTimeRuleSizes))
    throw std::runtime_error("a time check has calls at three sizes");
  auto it = least.begin();
  const auto [t0, m0] = *it++;
  const auto [t1, m1] = *it++;
  const auto [t2, m2] = *it;
  const double low = m1 - m0, high = m2 - m1;
  const double floor = std::max(kTimeRuleNoiseFloor, kTimeRuleJitterShare * m0);
  const double ratio = high / std::max(low, floor);
  char measured[256];
  std::snprintf(measured, sizeof measured,
                "CPU time of the call (each call in a process of its own, the least of %d inputs "
                "of each size): %s at T = %ld, %s at T = %ld, %s at T = %ld.",
                kTimeRuleRepeat, ms(m0).c_str(), t0, ms(m1).c_str(), t1, ms(m2).c_str(), t2);
  // The ratio as judged: the first step at least the noise floor (rule 2 needs it far above),
  // said when it is what counted.
  char counted[256] = "";
  if (low < floor)
    std::snprintf(counted, sizeof counted,
                  " (counted as %s, the least a step counts for: %s, or %.0f%% of the time at "
                  "T = %ld, whichever is more)",
                  ms(floor).c_str(), ms(kTimeRuleNoiseFloor).c_str(), 100 * kTimeRuleJitterShare,
                  t0);
  char steps[512];
  std::snprintf(steps, sizeof steps,
                " From T = %ld to %ld it grew by %s, from T = %ld to %ld by %s%s: %.1f times as "
                "much.",
                t1, t2, ms(high).c_str(), t0, t1, ms(low).c_str(), counted, ratio);
  char growth[256];
  std::snprintf(growth, sizeof growth,
                "The tokens grow %d times at each step. A cost that grows like T then adds about "
                "%d times what the step before added, a cost that grows like T^2 about %d times",
                kTimeRuleGrowth, kTimeRuleGrowth, kTimeRuleGrowth * kTimeRuleGrowth);
  // 1. Growth: quadratic work adds 16 times as much at the last step, linear work 4 times.
  if (ratio > kTimeRuleMaxStepRatio) {
    char rule[512];
    std::snprintf(rule, sizeof rule,
                  "%s; this check fails above %.1f times. A fixed cost per call cancels out of "
                  "these differences.",
                  growth, kTimeRuleMaxStepRatio);
    return failure(std::string(measured) + steps, rule, likely_mistake);
  }
  // 2. Growth from below: a first step well above noise (8 times the least a step counts for:
  // 64 ms, more under a large fixed cost) and a last one under twice it. Linear work cannot add
  // less for 4 times the tokens; time spent at the middle size on purpose, to flatten the
  // growth, does.
  const double judged_from = kTimeRuleMaxStepRatio * floor;
  if (low > judged_from && high < kTimeRuleMinStepRatio * low) {
    char rule[512];
    std::snprintf(rule, sizeof rule,
                  "%s; this check fails under %.1f times once the first step is over %s: "
                  "linear work never adds less for more tokens. The middle size cost more than "
                  "its work, as time spent on purpose to make the growth look linear does.",
                  growth, kTimeRuleMinStepRatio, ms(judged_from).c_str());
    return failure(std::string(measured) + steps, rule, likely_mistake);
  }
  // 3. The last step against the pace of the same step on this machine, now.
  return against_the_pace(request, expected, pace, measured, t1, t2, high, likely_mistake);
}

Check linear_time_check(const std::string& function, const std::string& name, double points,
                        Oracle oracle, std::string likely_mistake) {
  Judge judge = [likely_mistake](const json& request, const json& expected, const json& reply) {
    return judge_linear_time(request, expected, reply, likely_mistake);
  };
  Check c = make_check(function, name, points, Visibility::Visible, 1, std::move(judge));
  c.timed = true;
  c.timeout_hint = likely_mistake;
  attach_oracle(c, time_rule_oracle(std::move(oracle)));
  return c;
}

Oracle time_rule_oracle(Oracle oracle) {
  if (oracle.calls) {
    // Every size in each round, round after round: a burst of load on the machine touches
    // the sizes alike rather than every input of one size.
    oracle.calls = [pair = std::move(oracle.calls)](std::uint64_t seed) {
      json calls = json::array();
      for (int r = 0; r < kTimeRuleRepeat; ++r)
        for (int s = 0; s < kTimeRuleSizes; ++s) {
          // Problem k: the large call of seed k's pair, followed (for 2 N) by that of another
          // seed, cut to its size. Each problem's seeds are its own.
          const int k = r * kTimeRuleSizes + s;
          json joined = pair(problem_seed(seed, k)).back();
          const long n = longest_matrix(joined);
          long tokens = 2 * n;  // 2 N, and N/2, N/8 below it
          for (int below = s; below < kTimeRuleSizes - 1; ++below) tokens /= kTimeRuleGrowth;
          for (int more = 1; longest_matrix(joined) < tokens; ++more)
            joined = append_tokens(joined, pair(problem_seed(seed, k + 1000 * more)).back());
          calls.push_back(first_tokens(joined, tokens));
        }
      return calls;
    };
  }
  return oracle;
}

std::function<json(const json& call)> time_rule_expect(std::string function,
                                                       std::string tokens_from) {
  return [function, tokens_from](const json& call) {
    return json{{"tokens", call.at(tokens_from).at("rows")},
                {"outputs", api::call_reference(function, call)}};
  };
}

}  // namespace grader
