// Exercise 2 (interview): causal linear attention, recurrent and parallel, and one decode
// step. The hand-out is README.md next to this file. Replace each `throw` with your code;
// causal.hpp belongs to the kit and stays as it is.
// Parameter names are commented out only so that the unfinished file compiles without
// warnings: restore a name when you use it.
#include "causal.hpp"

namespace linattn {

Matrix causal_linear_attention_recurrent(const Matrix& /*Q*/, const Matrix& /*K*/,
                                         const Matrix& /*V*/, const FeatureMap& /*phi*/,
                                         double /*eps*/) {
  throw NotImplemented("causal_linear_attention_recurrent");
}

Matrix causal_linear_attention_parallel(const Matrix& /*Q*/, const Matrix& /*K*/,
                                        const Matrix& /*V*/, const FeatureMap& /*phi*/,
                                        double /*eps*/) {
  throw NotImplemented("causal_linear_attention_parallel");
}

DecodeStep linear_attention_step(const Matrix& /*S*/, const Vector& /*z*/, const Vector& /*q*/,
                                 const Vector& /*k*/, const Vector& /*v*/,
                                 const FeatureMap& /*phi*/, double /*eps*/) {
  throw NotImplemented("linear_attention_step");
}

}  // namespace linattn
