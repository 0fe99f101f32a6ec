// The template exercise's stub as handed out: it throws NotImplemented naming its function.
#include "helpers.hpp"
#include "scale.hpp"

#include <string>

TEST_CASE("stubs/scale: not implemented") {
  std::string message;
  try {
    linattn::scale(extest::Matrix::Ones(2, 2), 2.0);
  } catch (const linattn::NotImplemented& e) {
    message = e.what();
  }
  CHECK(message.find("scale") != std::string::npos);
}
