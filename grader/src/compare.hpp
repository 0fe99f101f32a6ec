// What the judge halves of the checks share: numeric comparison that explains itself, the
// "this looks like mistake X" machinery, and reading a request, its expected values and a
// reply. Nothing here calls the reference; what the oracle halves share is in
// grader/oracle/makers.hpp.
//
// A comparison is written for a student: when it fails it says the shapes (expected against
// got, rows x cols), the largest absolute and relative error, the worst entry with its index,
// the tolerance used, the first few entries that differ, and whether anything was NaN or Inf.
#pragma once

#include "check.hpp"

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace grader {

using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;

// ---- tolerances and comparison ---------------------------------------------------------

// An entry passes when |got - expected| <= abs + rel * |expected|.
struct Tolerance {
  double abs = 1e-9;
  double rel = 1e-9;
  std::string describe() const;  // "|got - expected| <= 1e-09 + 1e-09 * |expected|"
};
inline constexpr Tolerance kTight{1e-9, 1e-9};  // well-conditioned double arithmetic
inline constexpr Tolerance kExact{0.0, 0.0};    // integers and exact rationals in binary

bool within(double expected, double got, const Tolerance& tol);  // Inf must match Inf exactly

struct Comparison {
  bool ok = false;
  bool shape_ok = false;
  Eigen::Index mismatches = 0;     // entries outside the tolerance
  Eigen::Index non_finite = 0;     // NaN or Inf in `got` where a finite number was expected
  double max_abs_error = 0.0;      // over finite entries
  double max_rel_error = 0.0;
  Eigen::Index worst_row = -1, worst_col = -1;
  double worst_expected = 0.0, worst_got = 0.0;
  std::string report;              // several lines; empty when ok
};

// `name` is how the output is called in messages ("O", "S"); `dims` says what its shape means
// ("T x d_v"), so a shape mismatch can be said plainly.
Comparison compare_matrices(const Matrix& expected, const Matrix& got, const Tolerance& tol,
                            const std::string& name, const std::string& dims = "");
Comparison compare_vectors(const Vector& expected, const Vector& got, const Tolerance& tol,
                           const std::string& name, const std::string& dims = "");
Comparison compare_scalars(double expected, double got, const Tolerance& tol,
                           const std::string& name);

// Same shape and every entry within tol, NaN matching NaN: for recognising mistaken variants.
bool same_values(const Matrix& a, const Matrix& b, const Tolerance& tol);

// ---- mistakes ----------------------------------------------------------------------------

// A mistaken variant: what the output would be after a named mistake.
struct Suspect {
  std::string mistake;  // a full sentence, said after "Likely mistake: "
  Matrix value;
};
// The first suspect whose value the student's output matches (same shape, within tol).
std::optional<std::string> diagnose(const Matrix& got, const std::vector<Suspect>& suspects,
                                    const Tolerance& tol = kTight);

struct ScalarSuspect {
  std::string mistake;
  double value;
};
std::optional<std::string> diagnose_scalar(double got, const std::vector<ScalarSuspect>& suspects,
                                           const Tolerance& tol = kTight);

// Suspects travel from the oracle half to the judge as JSON: [{"mistake": ..., "value": ...}].
// A matrix suspect with more than kProbeEntries entries is sent as its shape and a probe of
// evenly spaced entries ({"rows", "cols", "probe": [[index, value], ...]}, row-major
// indices), and is recognised when the output has that shape and matches at those entries.
inline constexpr Eigen::Index kProbeEntries = 4096;
json suspects_json(const std::vector<Suspect>& suspects);
json scalar_suspects_json(const std::vector<ScalarSuspect>& suspects);
std::optional<std::string> diagnose(const Matrix& got, const json& suspects,
                                    const Tolerance& tol = kTight);
std::optional<std::string> diagnose_scalar(double got, const json& suspects,
                                           const Tolerance& tol = kTight);

// For integer answers: the first rule with lo <= got <= hi names the mistake (a single
// value has lo = hi). JSON: [{"mistake": ..., "lo": ..., "hi": ...}].
struct IntRule {
  std::string mistake;
  std::int64_t lo, hi;
};
json int_rules_json(const std::vector<IntRule>& rules);
std::optional<std::string> diagnose_int(std::int64_t got, const json& rules);

// A failed verdict: what was tried, then the comparison's report, then the likely mistake.
Verdict failure(const std::string& tried, const std::string& report,
                const std::optional<std::string>& mistake = std::nullopt);

// ---- formatting --------------------------------------------------------------------------

std::string fmt(double x);                 // shortest form that reads well, "nan", "inf"
std::string shape_of(const Matrix& m);     // "3 x 2"
std::string shape_of(Eigen::Index rows, Eigen::Index cols);

// ---- reading a reply ---------------------------------------------------------------------

// The judge's signature (see Check::judge).
using Judge = std::function<Verdict(const json& request, const json& expected, const json& reply)>;

// reply["results"][i], checking that there is one result per call.
const json& result_of(const json& request, const json& reply, std::size_t i);
// expected["calls"][i], checking that there is one entry per call.
const json& expected_of(const json& request, const json& expected, std::size_t i);
// Wraps a judge so that a malformed reply becomes a failed verdict instead of an exception.
Judge guarded(Judge judge);

// "Call 2 of 5: " when a request has several calls, "" for one.
std::string call_label(std::size_t i, std::size_t n);

// Judges call by call: `one(i, arguments, expected, result)` returns a failure or nothing;
// the first failure is the verdict, prefixed with call_label.
using OneCall = std::function<std::optional<Verdict>(std::size_t i, const json& call,
                                                     const json& expected, const json& result)>;
Verdict each_call(const json& request, const json& expected, const json& reply, const OneCall& one);

// A check of `function` whose judge is guarded. Its request and expect come from its oracle
// (with_oracle in check.hpp).
Check make_check(const std::string& function, const std::string& name, double points,
                 Visibility visibility, std::uint64_t seed, Judge judge);

}  // namespace grader
