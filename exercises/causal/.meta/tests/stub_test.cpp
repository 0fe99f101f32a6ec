// The causal stub as handed out: its three functions throw linattn::NotImplemented naming
// themselves.
#include "causal.hpp"
#include "helpers.hpp"

using extest::Matrix;
using extest::Vector;

TEST_CASE("stubs/causal: all three functions are not implemented") {
  const Matrix X = Matrix::Ones(3, 2);
  const Vector x = Vector::Ones(2);
  EX_CHECK_NOT_IMPLEMENTED(
      linattn::causal_linear_attention_recurrent(X, X, X, extest::elu_plus_one),
      "causal_linear_attention_recurrent");
  EX_CHECK_NOT_IMPLEMENTED(linattn::causal_linear_attention_parallel(X, X, X, extest::elu_plus_one),
                           "causal_linear_attention_parallel");
  EX_CHECK_NOT_IMPLEMENTED(linattn::linear_attention_step(Matrix::Zero(2, 2), Vector::Zero(2), x, x,
                                                          x, extest::elu_plus_one),
                           "linear_attention_step");
}
