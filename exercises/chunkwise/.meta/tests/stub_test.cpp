// The chunkwise stub as handed out: it throws linattn::NotImplemented naming its function.
#include "chunkwise.hpp"
#include "helpers.hpp"

#include <string>

TEST_CASE("stubs/chunkwise: the function is not implemented") {
  const extest::Matrix X = extest::Matrix::Ones(3, 2);
  std::string message;
  try {
    linattn::causal_linear_attention_chunkwise(X, X, X, extest::elu_plus_one, 2);
  } catch (const linattn::NotImplemented& e) {
    message = e.what();
  }
  CHECK(message.find("causal_linear_attention_chunkwise") != std::string::npos);
}
