// Bindings of exercise 3 (random_features).
#include "random_features.hpp"

#include "runner/arguments.hpp"
#include "runner/binding.hpp"

namespace {

using linattn::Matrix;
using linattn::Vector;
using runner::json;

// {"X", "Omega"} -> {"features"}
const runner::BindingRegistrar features{
    "positive_random_features", [](const json& call, runner::CallRecord& record) {
      const Matrix X = runner::matrix_arg(call, "X");          // (n, d_k)
      const Matrix Omega = runner::matrix_arg(call, "Omega");  // (d_phi, d_k)
      Matrix X_given = X, Omega_given = Omega;
      Matrix F;  // (n, d_phi)
      runner::metered([&] { F = linattn::positive_random_features(X_given, Omega_given); });
      record.watch("X", X, X_given);
      record.watch("Omega", Omega, Omega_given);
      return json{{"features", wire::from_matrix(F)}};
    }};

// {"q", "k", "Omega"} -> {"value"}
const runner::BindingRegistrar estimate{
    "softmax_kernel_estimate", [](const json& call, runner::CallRecord& record) {
      const Vector q = runner::vector_arg(call, "q");  // (d_k)
      const Vector k = runner::vector_arg(call, "k");
      const Matrix Omega = runner::matrix_arg(call, "Omega");
      Vector q_given = q, k_given = k;
      Matrix Omega_given = Omega;
      double value = 0.0;
      runner::metered([&] { value = linattn::softmax_kernel_estimate(q_given, k_given, Omega_given); });
      record.watch("q", q, q_given);
      record.watch("k", k, k_given);
      record.watch("Omega", Omega, Omega_given);
      return json{{"value", value}};
    }};

}  // namespace
