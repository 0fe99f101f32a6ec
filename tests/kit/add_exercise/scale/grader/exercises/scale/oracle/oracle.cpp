// The oracle of the template exercise `scale`: each check's calls and the expected values, by
// check name. X * factor is worked out here (no reference function is needed).
#include "../../../common/wire.hpp"
#include "../../../src/check.hpp"

namespace grader {
namespace {

json expect_scaled(const json& call) {
  return json{{"scaled", wire::from_matrix(wire::to_matrix(call.at("X")) * call.at("factor").get<double>())}};
}
json calls_by_two(std::uint64_t) {
  return json::array({json{{"X", wire::from_matrix(Eigen::MatrixXd::Identity(3, 2))}, {"factor", 2.0}}});
}
json calls_negative(std::uint64_t) {
  return json::array({json{{"X", wire::from_matrix(Eigen::MatrixXd::Constant(2, 4, 1.5))}, {"factor", -0.5}}});
}

OracleTable make_scale_oracles() {
  return {{"scale/by-two", {calls_by_two, expect_scaled}},
          {"scale/negative", {calls_negative, expect_scaled}}};
}

}  // namespace
}  // namespace grader

static grader::OracleRegistrar scale_oracles{"scale", grader::make_scale_oracles};
