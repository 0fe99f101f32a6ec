// The oracle of the template exercise `scale`: each check's calls and the expected values, by
// check name. Its reference is one line, so it is written here rather than in reference/.
#include "common/wire.hpp"
#include "judge/api_schemas.hpp"
#include "judge/check.hpp"
#include "judge/diagnosis.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace {
Eigen::MatrixXd scaled(const Eigen::MatrixXd& X, double factor) { return X * factor; }
}  // namespace

// The reference, called through the API description (the kit's tests fake a runner with it).
static const api::References scale_reference{api::reference("scale", &scaled)};

namespace grader {
namespace {

// The reference's answer, and the answer after the template's one named mistake (dropping the
// factor's sign), on the calls where the two differ.
json expect_scaled(const json& call) {
  json expected = api::call_reference("scale", call);
  const double factor = call.at("factor").get<double>();
  std::vector<Suspect> suspects;
  if (factor < 0)
    suspects.push_back({"the factor's sign is dropped: every entry times |factor|.",
                        scaled(wire::to_matrix(call.at("X")), std::fabs(factor))});
  expected["suspects"] = suspects_json(suspects);
  return expected;
}
json calls_by_two(std::uint64_t) {
  return json::array(
      {json{{"X", wire::from_matrix(Eigen::MatrixXd::Identity(3, 2))}, {"factor", 2.0}}});
}
json calls_negative(std::uint64_t) {
  return json::array(
      {json{{"X", wire::from_matrix(Eigen::MatrixXd::Constant(2, 4, 1.5))}, {"factor", -0.5}}});
}

// Inputs drawn from the seed (a hidden check's inputs must change with it).
json calls_random_hidden(std::uint64_t seed) {
  const double factor = 0.25 + static_cast<double>(seed % 97) / 8.0;
  Eigen::MatrixXd X(3, 3);
  for (Eigen::Index i = 0; i < X.size(); ++i)
    X(i) = static_cast<double>((seed * 31 + 7 * i) % 11) - 5.0;
  return json::array({json{{"X", wire::from_matrix(X)}, {"factor", factor}}});
}

OracleTable make_scale_oracles() {
  return {{"scale/by-two", {calls_by_two, expect_scaled}},
          {"scale/negative", {calls_negative, expect_scaled}},
          {"scale/random-hidden", {calls_random_hidden, expect_scaled}}};
}

}  // namespace
}  // namespace grader

static grader::OracleRegistration scale_oracles{"scale", grader::make_scale_oracles};
