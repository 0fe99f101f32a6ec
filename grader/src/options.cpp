#include "options.hpp"

#include <cstdlib>
#include <vector>

namespace grader {

const char* const kUsage =
    "usage: ./kit grade [DIR] [--only EXERCISE[/CHECK]] [--seed N] [--json FILE]\n"
    "                   [--gradescope FILE] [--junit FILE] [--jobs N] [--visible-only] [--quiet] [--strict] [--course]\n"
    "                   [--github-classroom FILE] [--replay FILE]\n"
    "       linattn-grade --record-oracle FILE [--visible-only]\n";

namespace {

bool parse_u64(const std::string& s, std::uint64_t& out) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 19)
    return false;
  out = std::strtoull(s.c_str(), nullptr, 10);
  return true;
}

}  // namespace

std::optional<Options> parse_options(int argc, char** argv, const std::string& default_submission,
                                     std::string& error) {
  Options o;
  std::vector<std::string> args(argv, argv + argc);
  auto value = [&](std::size_t& i, const std::string& flag) -> std::optional<std::string> {
    if (i + 1 >= args.size()) {
      error = flag + " needs a value";
      return std::nullopt;
    }
    return args[++i];
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--only") {
      auto v = value(i, a);
      if (!v) return std::nullopt;
      auto slash = v->find('/');
      o.only_exercise = v->substr(0, slash);
      if (slash != std::string::npos) o.only_check = v->substr(slash + 1);
      if (o.only_exercise.empty() || (slash != std::string::npos && o.only_check.empty())) {
        error = "--only needs EXERCISE or EXERCISE/CHECK, got '" + *v + "'";
        return std::nullopt;
      }
    } else if (a == "--seed") {
      auto v = value(i, a);
      std::uint64_t s = 0;
      if (!v || !parse_u64(*v, s)) {
        if (error.empty()) error = "--seed needs a non-negative whole number";
        return std::nullopt;
      }
      o.seed = s;
    } else if (a == "--json" || a == "--gradescope" || a == "--junit") {
      auto v = value(i, a);
      if (!v) return std::nullopt;
      (a == "--json" ? o.json_path : a == "--junit" ? o.junit_path : o.gradescope_path) = *v;
    } else if (a == "--github-classroom") {
      auto v = value(i, a);
      if (!v) return std::nullopt;
      o.classroom_path = *v;
    } else if (a == "--replay") {
      auto v = value(i, a);
      if (!v) return std::nullopt;
      o.replay_path = *v;
    } else if (a == "--jobs") {
      auto v = value(i, a);
      std::uint64_t n = 0;
      if (!v || !parse_u64(*v, n) || n == 0 || n > 256) {
        if (error.empty()) error = "--jobs needs a number from 1 to 256";
        return std::nullopt;
      }
      o.jobs = static_cast<int>(n);
    } else if (a == "--visible-only") {
      o.visible_only = true;
    } else if (a == "--quiet") {
      o.quiet = true;
    } else if (a == "--strict") {
      o.strict = true;
    } else if (a == "--course") {
      o.course = true;
      o.strict = true;
    } else if (!a.empty() && a[0] == '-') {
      error = "unknown option " + a;
      return std::nullopt;
    } else if (o.submission.empty()) {
      o.submission = a;
    } else {
      error = "only one submission folder at a time (got " + o.submission + " and " + a + ")";
      return std::nullopt;
    }
  }
  if (o.submission.empty()) o.submission = default_submission;
  return o;
}

}  // namespace grader
