#include "diagnosis.hpp"

#include "../../common/wire.hpp"

#include <utility>

namespace grader {

std::optional<std::string> diagnose(const Matrix& got, const std::vector<Suspect>& suspects,
                                    const Tolerance& tol) {
  for (const Suspect& s : suspects)
    if (same_values(s.value, got, tol)) return s.mistake;
  return std::nullopt;
}

std::optional<std::string> diagnose_scalar(double got, const std::vector<ScalarSuspect>& suspects,
                                           const Tolerance& tol) {
  for (const ScalarSuspect& s : suspects)
    if (within(s.value, got, tol)) return s.mistake;
  return std::nullopt;
}

json suspects_json(const std::vector<Suspect>& suspects) {
  json out = json::array();
  for (const Suspect& s : suspects) {
    json value;
    if (s.value.size() <= kProbeEntries) {
      value = wire::from_matrix(s.value);
    } else {
      // Evenly spaced entries, the first and the last included.
      json probe = json::array();
      const Eigen::Index n = s.value.size(), cols = s.value.cols();
      for (Eigen::Index k = 0; k < kProbeEntries; ++k) {
        const Eigen::Index i = k * (n - 1) / (kProbeEntries - 1);
        probe.push_back(json::array({i, s.value(i / cols, i % cols)}));
      }
      value = json{{"rows", s.value.rows()}, {"cols", cols}, {"probe", std::move(probe)}};
    }
    out.push_back(json{{"mistake", s.mistake}, {"value", std::move(value)}});
  }
  return out;
}

json scalar_suspects_json(const std::vector<ScalarSuspect>& suspects) {
  json out = json::array();
  for (const ScalarSuspect& s : suspects)
    out.push_back(json{{"mistake", s.mistake}, {"value", s.value}});
  return out;
}

namespace {

bool matches_probe(const Matrix& got, const json& value, const Tolerance& tol) {
  if (got.rows() != value.at("rows").get<Eigen::Index>() ||
      got.cols() != value.at("cols").get<Eigen::Index>())
    return false;
  for (const json& entry : value.at("probe")) {
    const Eigen::Index i = entry.at(0).get<Eigen::Index>();
    if (!within(entry.at(1).get<double>(), got(i / got.cols(), i % got.cols()), tol)) return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> diagnose(const Matrix& got, const json& suspects, const Tolerance& tol) {
  for (const json& s : suspects) {
    const json& value = s.at("value");
    const bool match = value.contains("probe") ? matches_probe(got, value, tol)
                                               : same_values(wire::to_matrix(value), got, tol);
    if (match) return s.at("mistake").get<std::string>();
  }
  return std::nullopt;
}

std::optional<std::string> diagnose_scalar(double got, const json& suspects, const Tolerance& tol) {
  for (const json& s : suspects)
    if (within(s.at("value").get<double>(), got, tol)) return s.at("mistake").get<std::string>();
  return std::nullopt;
}

json int_rules_json(const std::vector<IntRule>& rules) {
  json out = json::array();
  for (const IntRule& r : rules)
    out.push_back(json{{"mistake", r.mistake}, {"lo", r.lo}, {"hi", r.hi}});
  return out;
}

std::optional<std::string> diagnose_int(std::int64_t got, const json& rules) {
  for (const json& r : rules)
    if (r.at("lo").get<std::int64_t>() <= got && got <= r.at("hi").get<std::int64_t>())
      return r.at("mistake").get<std::string>();
  return std::nullopt;
}

}  // namespace grader
