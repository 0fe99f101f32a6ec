// Reading a call's arguments in the bindings. A missing or malformed argument throws outside
// metered(), so the runner reports it as the harness's fault, never the student's.
#pragma once

#include "../common/wire.hpp"

#include <cstdint>
#include <string>

namespace runner {

inline Eigen::MatrixXd matrix_arg(const nlohmann::json& call, const char* name) {
  return wire::to_matrix(call.at(name));
}

inline Eigen::VectorXd vector_arg(const nlohmann::json& call, const char* name) {
  return wire::to_vector(call.at(name));
}

inline std::int64_t int_arg(const nlohmann::json& call, const char* name) {
  return call.at(name).get<std::int64_t>();
}

// Arguments with a default in the API take the same default when a call leaves them out.
inline std::int64_t int_arg(const nlohmann::json& call, const char* name, std::int64_t fallback) {
  return call.contains(name) ? call.at(name).get<std::int64_t>() : fallback;
}

inline double double_arg(const nlohmann::json& call, const char* name, double fallback) {
  return call.contains(name) ? call.at(name).get<double>() : fallback;
}

}  // namespace runner
