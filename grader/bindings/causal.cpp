// Bindings of exercise 2 (causal). The student gets working copies of the inputs; the
// originals are compared with them afterwards, bit for bit, so a const_cast write shows.
#include "causal.hpp"

#include "runner/arguments.hpp"
#include "runner/binding.hpp"
#include "runner/feature_maps.hpp"

namespace {

using linattn::Matrix;
using linattn::Vector;
using runner::json;

using Form = Matrix (*)(const Matrix&, const Matrix&, const Matrix&, const linattn::FeatureMap&,
                        double);

// {"Q", "K", "V", "phi", "eps"} -> {"O"}
json call_form(Form form, const json& call, runner::CallRecord& record) {
  const Matrix Q = runner::matrix_arg(call, "Q");  // Q, K: (T, d_k)
  const Matrix K = runner::matrix_arg(call, "K");
  const Matrix V = runner::matrix_arg(call, "V");  // V: (T, d_v)
  const linattn::FeatureMap phi = runner::feature_map_from_spec(call.at("phi"));
  const double eps = runner::double_arg(call, "eps", 1e-6);
  Matrix Q_given = Q, K_given = K, V_given = V;
  Matrix O;  // (T, d_v)
  runner::metered([&] { O = form(Q_given, K_given, V_given, phi, eps); });
  record.watch("Q", Q, Q_given);
  record.watch("K", K, K_given);
  record.watch("V", V, V_given);
  return json{{"O", wire::from_matrix(O)}};
}

const runner::BindingRegistrar recurrent{
    "causal_linear_attention_recurrent", [](const json& call, runner::CallRecord& record) {
      return call_form(&linattn::causal_linear_attention_recurrent, call, record);
    }};

const runner::BindingRegistrar parallel{
    "causal_linear_attention_parallel", [](const json& call, runner::CallRecord& record) {
      return call_form(&linattn::causal_linear_attention_parallel, call, record);
    }};

// {"S", "z", "q", "k", "v", "phi", "eps"} -> {"o", "S", "z"}
const runner::BindingRegistrar step{
    "linear_attention_step", [](const json& call, runner::CallRecord& record) {
      const Matrix S = runner::matrix_arg(call, "S");  // (d_phi, d_v)
      const Vector z = runner::vector_arg(call, "z");  // (d_phi)
      const Vector q = runner::vector_arg(call, "q");  // (d_k)
      const Vector k = runner::vector_arg(call, "k");
      const Vector v = runner::vector_arg(call, "v");  // (d_v)
      const linattn::FeatureMap phi = runner::feature_map_from_spec(call.at("phi"));
      const double eps = runner::double_arg(call, "eps", 1e-6);
      Matrix S_given = S;
      Vector z_given = z, q_given = q, k_given = k, v_given = v;
      linattn::DecodeStep out;
      runner::metered([&] {
        out = linattn::linear_attention_step(S_given, z_given, q_given, k_given, v_given, phi, eps);
      });
      record.watch("S", S, S_given);
      record.watch("z", z, z_given);
      record.watch("q", q, q_given);
      record.watch("k", k, k_given);
      record.watch("v", v, v_given);
      return json{{"o", wire::from_vector(out.o)},
                  {"S", wire::from_matrix(out.S)},
                  {"z", wire::from_vector(out.z)}};
    }};

}  // namespace
