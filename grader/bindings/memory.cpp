// Bindings of exercise 5 (memory).
#include "memory.hpp"

#include "runner/arguments.hpp"
#include "runner/binding.hpp"

namespace {

using linattn::Matrix;
using linattn::Vector;
using runner::json;

// {"K", "V"} -> {"S"}
const runner::BindingRegistrar write_binding{
    "write", [](const json& call, runner::CallRecord& record) {
      const Matrix K = runner::matrix_arg(call, "K");  // (n, d_k)
      const Matrix V = runner::matrix_arg(call, "V");  // (n, d_v)
      Matrix K_given = K, V_given = V;
      Matrix S;  // (d_k, d_v)
      runner::metered([&] { S = linattn::write(K_given, V_given); });
      record.watch("K", K, K_given);
      record.watch("V", V, V_given);
      return json{{"S", wire::from_matrix(S)}};
    }};

// {"S", "q"} -> {"value": vector}
const runner::BindingRegistrar read_binding{
    "read", [](const json& call, runner::CallRecord& record) {
      const Matrix S = runner::matrix_arg(call, "S");  // (d_k, d_v)
      const Vector q = runner::vector_arg(call, "q");  // (d_k)
      Matrix S_given = S;
      Vector q_given = q;
      Vector value;  // (d_v)
      runner::metered([&] { value = linattn::read(S_given, q_given); });
      record.watch("S", S, S_given);
      record.watch("q", q, q_given);
      return json{{"value", wire::from_vector(value)}};
    }};

// {"K"} -> {"value"}
const runner::BindingRegistrar crosstalk{
    "crosstalk_energy", [](const json& call, runner::CallRecord& record) {
      const Matrix K = runner::matrix_arg(call, "K");  // (n, d_k)
      Matrix K_given = K;
      double value = 0.0;
      runner::metered([&] { value = linattn::crosstalk_energy(K_given); });
      record.watch("K", K, K_given);
      return json{{"value", value}};
    }};

}  // namespace
