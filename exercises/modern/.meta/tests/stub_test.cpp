// The modern stub as handed out: both functions throw linattn::NotImplemented naming themselves.
#include "helpers.hpp"
#include "modern.hpp"

#include <string>

using extest::Matrix;
using extest::Vector;

namespace {

// The message of the NotImplemented that f throws, or "" if it throws none.
template <class F>
std::string not_implemented_message(F f) {
  try {
    f();
  } catch (const linattn::NotImplemented& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("stubs/modern: both functions are not implemented") {
  const Matrix X = Matrix::Ones(3, 2);
  const Vector g = Vector::Constant(3, 0.5);
  const std::string m = not_implemented_message([&] { return linattn::mlstm(X, X, X, g, g); });
  CHECK(m.find("mlstm") != std::string::npos);
  const std::string d = not_implemented_message(
      [&] { return linattn::decayed_normalized_attention(X, X, X, 0.5, Vector::Ones(2)); });
  CHECK(d.find("decayed_normalized_attention") != std::string::npos);
}
