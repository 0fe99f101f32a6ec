#include "oracle_compact.hpp"

#include "../judge/numeric_comparison.hpp"

#include "../../common/wire.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace grader {

namespace {

// The marks of the two shrunk forms: a call's pool, and a matrix's kept rows.
constexpr const char* kPoolKey = "$pool";
constexpr const char* kKeptEveryKey = "kept_every";

// A row that misses its checksums by more than this (summed over its entries, like the
// judge's kTight but ten times looser, for the sums' own rounding) does not match.
constexpr Tolerance kChecksumTolerance{1e-8, 1e-8};

// Sebastiano Vigna's splitmix64 finaliser: a well-mixed 64-bit value from any 64-bit value.
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::size_t count_numbers(const json& j) {
  if (j.is_number()) return 1;
  std::size_t n = 0;
  if (j.is_array() || j.is_object())
    for (const auto& v : j) n += count_numbers(v);
  return n;
}

bool is_matrix(const json& j) {
  return j.is_object() && j.contains("rows") && j.contains("cols") && j.contains("data") &&
         j["rows"].is_number_integer() && j["cols"].is_number_integer() &&
         j["rows"].get<long long>() >= 0 && j["cols"].get<long long>() >= 0 &&
         j["data"].is_array() &&
         j["data"].size() == j["rows"].get<std::size_t>() * j["cols"].get<std::size_t>();
}

bool is_number_array(const json& j) {
  return j.is_array() && !j.empty() &&
         std::all_of(j.begin(), j.end(), [](const json& x) { return x.is_number(); });
}

// Which pool token stands at token t of the rebuilt call.
std::size_t pool_token(std::uint64_t seed, std::size_t t, std::size_t pool) {
  return t < pool ? t : static_cast<std::size_t>(splitmix64(seed + t) % pool);
}

json shrink_call(const json& call, std::uint64_t seed) {
  if (!call.is_object() || count_numbers(call) < kLargeCallNumbers) return call;
  // Feature tables hold the rows of Q and K: a pool would have to rebuild them too.
  if (call.contains("phi") && call["phi"].is_object() && call["phi"].contains("rows")) return call;
  std::size_t tokens = 0;
  for (const auto& [name, v] : call.items()) {
    if (is_matrix(v)) tokens = std::max(tokens, v["rows"].get<std::size_t>());
    else if (is_number_array(v)) tokens = std::max(tokens, v.size());
  }
  if (tokens <= kPoolTokens) return call;
  json out = call;
  json args = json::array();
  for (const auto& [name, v] : call.items()) {
    if (is_matrix(v) && v["rows"].get<std::size_t>() == tokens) {
      const std::size_t cols = v["cols"].get<std::size_t>();
      const auto first = v["data"].begin();
      out[name] =
          json{{"rows", kPoolTokens},
               {"cols", cols},
               {"data", json(std::vector<json>(
                            first, first + static_cast<std::ptrdiff_t>(kPoolTokens * cols)))}};
      args.push_back(name);
    } else if (is_number_array(v) && v.size() == tokens) {
      out[name] =
          json(std::vector<json>(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(kPoolTokens)));
      args.push_back(name);
    }
  }
  out[kPoolKey] = json{{"tokens", tokens}, {"seed", seed}, {"args", std::move(args)}};
  return out;
}

json expand_call(const json& call) {
  if (!call.is_object() || !call.contains(kPoolKey)) return call;
  const json& pool = call.at(kPoolKey);
  const std::size_t tokens = pool.at("tokens").get<std::size_t>();
  const std::uint64_t seed = pool.at("seed").get<std::uint64_t>();
  json out = call;
  out.erase(kPoolKey);
  for (const auto& name_json : pool.at("args")) {
    const std::string name = name_json.get<std::string>();
    const json& v = call.at(name);
    if (is_matrix(v)) {
      const std::size_t rows = v["rows"].get<std::size_t>(), cols = v["cols"].get<std::size_t>();
      const json& data = v["data"];
      json full = json::array();
      for (std::size_t t = 0; t < tokens; ++t) {
        const std::size_t r = pool_token(seed, t, rows);
        for (std::size_t c = 0; c < cols; ++c) full.push_back(data[r * cols + c]);
      }
      out[name] = json{{"rows", tokens}, {"cols", cols}, {"data", std::move(full)}};
    } else {
      json full = json::array();
      for (std::size_t t = 0; t < tokens; ++t) full.push_back(v[pool_token(seed, t, v.size())]);
      out[name] = std::move(full);
    }
  }
  return out;
}

bool kept_row(std::size_t r, std::size_t rows) { return r % kKeptRowEvery == 0 || r + 1 == rows; }

double column_weight(std::size_t c) { return 1.0 + static_cast<double>(c % 7) / 7.0; }

json shrink_matrix(const json& m) {
  const std::size_t rows = m["rows"].get<std::size_t>(), cols = m["cols"].get<std::size_t>();
  const json& data = m["data"];
  json kept = json::array(), sums = json::array(), weighted = json::array(),
       magnitudes = json::array();
  for (std::size_t r = 0; r < rows; ++r) {
    double s = 0, w = 0, a = 0;
    for (std::size_t c = 0; c < cols; ++c) {
      const double x = data[r * cols + c].get<double>();
      s += x;
      w += column_weight(c) * x;
      a += std::fabs(x);
      if (kept_row(r, rows)) kept.push_back(x);
    }
    sums.push_back(s);
    weighted.push_back(w);
    magnitudes.push_back(a);
  }
  return json{{"rows", rows},
              {"cols", cols},
              {kKeptEveryKey, kKeptRowEvery},
              {"kept", std::move(kept)},
              {"row_sums", std::move(sums)},
              {"row_weighted_sums", std::move(weighted)},
              {"row_abs_sums", std::move(magnitudes)}};
}

bool is_shrunk_matrix(const json& j) { return j.is_object() && j.contains(kKeptEveryKey); }

// Large matrices reached through object keys alone (a call's "O", its "outputs"' "dV"): those
// are named like the reply's fields. Lists (the suspects) are left as they are.
void shrink_values(json& node) {
  if (!node.is_object()) return;
  for (auto& [name, v] : node.items()) {
    if (is_matrix(v) && v["data"].size() >= kLargeMatrixNumbers) v = shrink_matrix(v);
    else shrink_values(v);
  }
}

bool contains_shrunk(const json& node) {
  if (is_shrunk_matrix(node)) return true;
  if (!node.is_object() && !node.is_array()) return false;
  for (const auto& v : node)
    if (contains_shrunk(v)) return true;
  return false;
}

// `scale` is the expected row's sum of magnitudes: the slack comes from the expected values,
// never from the reply's (a reply of +1e300 and -1e300 in two columns of the same weight has
// both sums right to the last bit and would otherwise widen its own tolerance past any error).
bool row_matches(const std::vector<double>& got, double sum, double weighted, double scale) {
  double s = 0, w = 0, slack = 0, weighted_slack = 0;
  for (std::size_t c = 0; c < got.size(); ++c) {
    if (!std::isfinite(got[c])) return false;
    s += got[c];
    w += column_weight(c) * got[c];
    slack += kChecksumTolerance.abs;
    weighted_slack += column_weight(c) * kChecksumTolerance.abs;
  }
  slack += kChecksumTolerance.rel * scale;
  weighted_slack += column_weight(6) * kChecksumTolerance.rel * scale;  // the largest weight
  return std::fabs(s - sum) <= slack && std::fabs(w - weighted) <= weighted_slack;
}

// Rebuilds one shrunk matrix from the kept rows and the student's `got` (a matrix of the same
// shape, or anything else); says in `mismatches` which rows miss their checksums.
json complete_matrix(const json& shrunk, const json* got, const std::string& where,
                     std::vector<std::string>& mismatches) {
  const std::size_t rows = shrunk.at("rows").get<std::size_t>(),
                    cols = shrunk.at("cols").get<std::size_t>();
  const json& kept = shrunk.at("kept");
  const json& sums = shrunk.at("row_sums");
  const json& weighted = shrunk.at("row_weighted_sums");
  // A recording from before row_abs_sums: the kept rows' largest entry stands for every entry.
  double largest_kept = 0;
  for (const auto& x : kept) largest_kept = std::max(largest_kept, std::fabs(x.get<double>()));
  const json fallback_scale = json::array();
  const json& magnitudes =
      shrunk.contains("row_abs_sums") ? shrunk.at("row_abs_sums") : fallback_scale;
  const bool same_shape = got && is_matrix(*got) && (*got)["rows"].get<std::size_t>() == rows &&
                          (*got)["cols"].get<std::size_t>() == cols;
  json data = json::array();
  std::size_t next_kept = 0, missed = 0, first_missed = 0;
  double first_sum = 0, first_got = 0;
  std::vector<double> row(cols);
  for (std::size_t r = 0; r < rows; ++r) {
    if (kept_row(r, rows)) {
      for (std::size_t c = 0; c < cols; ++c) data.push_back(kept.at(next_kept * cols + c));
      ++next_kept;
      continue;
    }
    if (!same_shape) {
      // The judge reports the shape (or the missing output); these rows are never read.
      for (std::size_t c = 0; c < cols; ++c)
        data.push_back(std::numeric_limits<double>::quiet_NaN());
      continue;
    }
    const json& g = (*got)["data"];
    for (std::size_t c = 0; c < cols; ++c) {
      const json& x = g[r * cols + c];
      row[c] = x.is_number() ? x.get<double>() : std::numeric_limits<double>::quiet_NaN();
    }
    const double scale = r < magnitudes.size() ? magnitudes.at(r).get<double>()
                                               : largest_kept * static_cast<double>(cols);
    if (!row_matches(row, sums.at(r).get<double>(), weighted.at(r).get<double>(), scale)) {
      if (missed++ == 0) {
        first_missed = r;
        first_sum = sums.at(r).get<double>();
        first_got = 0;
        for (double x : row) first_got += x;
      }
    }
    // Equal to the student's row either way: the judge compares the kept rows, and the
    // checksums speak for the others.
    for (double x : row) data.push_back(x);
  }
  if (missed > 0)
    mismatches.push_back(where + ": " + std::to_string(missed) + " of its " + std::to_string(rows) +
                         " rows differ from the expected rows' checksums; the first is row " +
                         std::to_string(first_missed) + ", whose entries should add up to " +
                         fmt(first_sum) + " and add up to " + fmt(first_got) + ".");
  return json{{"rows", rows}, {"cols", cols}, {"data", std::move(data)}};
}

void complete_values(json& node, const json* result, const std::string& where,
                     std::vector<std::string>& mismatches) {
  if (!node.is_object()) return;
  for (auto& [name, v] : node.items()) {
    const json* got =
        result && result->is_object() && result->contains(name) ? &(*result)[name] : nullptr;
    if (is_shrunk_matrix(v)) v = complete_matrix(v, got, where + name, mismatches);
    else complete_values(v, result, where, mismatches);
  }
}

}  // namespace

json shrink_request(const json& request, std::uint64_t salt) {
  if (!request.is_object() || !request.contains("calls")) return request;
  json out = request;
  json& calls = out["calls"];
  for (std::size_t i = 0; i < calls.size(); ++i)
    calls[i] = shrink_call(calls[i], splitmix64(salt + i));
  return out;
}

json expand_request(const json& request) {
  if (!request.is_object() || !request.contains("calls")) return request;
  json out = request;
  for (json& call : out["calls"]) call = expand_call(call);
  return out;
}

json shrink_expected(const json& expected) {
  json out = expected;
  if (out.is_object() && out.contains("calls"))
    for (json& call : out["calls"]) shrink_values(call);
  return out;
}

bool has_shrunk_values(const json& expected) { return contains_shrunk(expected); }

CompletedExpected complete_expected(const json& expected, const json& reply) {
  CompletedExpected done{expected, {}};
  if (!done.expected.is_object() || !done.expected.contains("calls")) return done;
  json& calls = done.expected["calls"];
  const json* results =
      reply.is_object() && reply.contains("results") && reply["results"].is_array()
          ? &reply["results"]
          : nullptr;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const json* result = results && i < results->size() ? &(*results)[i] : nullptr;
    const std::string where = calls.size() > 1 ? "call " + std::to_string(i + 1) + ", " : "";
    complete_values(calls[i], result, where, done.mismatches);
  }
  return done;
}

std::string shrunk_values_note() {
  return "(This student kit keeps the expected values of every " + std::to_string(kKeptRowEvery) +
         "th row of a large output, and the last row, entry by entry; it checks the other rows by "
         "two sums each. The course's grader compares every entry.)";
}

Verdict judge_shrunk(const Check& check, const json& request, const json& shrunk_expected,
                     const json& packed_reply) {
  // A time check's results arrive packed (wire.hpp: byte strings of doubles, already checked
  // against the reply's shape); the completion reads a row's entries from arrays.
  json reply = packed_reply;
  wire::unpack(reply);
  const CompletedExpected done = complete_expected(shrunk_expected, reply);
  Verdict v = check.judge(request, done.expected, reply);
  if (!v.passed) {
    v.message += "\n" + shrunk_values_note();
    return v;
  }
  if (done.mismatches.empty()) return v;
  std::string why =
      check.function + ": the rows that this kit compares entry by entry are right, but";
  for (const std::string& m : done.mismatches) why += "\n" + m;
  return Verdict::fail(why + "\n" + shrunk_values_note());
}

}  // namespace grader
