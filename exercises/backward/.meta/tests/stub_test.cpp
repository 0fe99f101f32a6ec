// The backward stub as handed out: it throws linattn::NotImplemented naming its function.
#include "backward.hpp"
#include "helpers.hpp"

#include <string>

TEST_CASE("stubs/backward: the function is not implemented") {
  const extest::Matrix X = extest::Matrix::Ones(3, 2);
  std::string message;
  try {
    linattn::causal_linear_attention_backward(X, X, X, X);
  } catch (const linattn::NotImplemented& e) {
    message = e.what();
  }
  CHECK(message.find("causal_linear_attention_backward") != std::string::npos);
}
