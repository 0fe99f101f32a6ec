// mlstm's named mistakes, each written out a second time here from its message: the output the
// oracle sends as a suspect must be the output that mistake gives. The diagnosis tables feed
// each suspect back and see it named, so they cannot see a slipped copy that slips differently
// from its message (a floor of 2 on n's entries instead of 1 would still be "named").
#include "fake_runner.hpp"

#include <cmath>
#include <functional>
#include <set>
#include <string>
#include <vector>

using fake::json;
using fake::Matrix;
using fake::Vector;

namespace {

// One mistake, by the first words of its message, as what it changes in the right recurrence:
// the cell and the normalizer each forget (f) what they hold, then add the new pair or key
// weighed by i; the output divides the cell's read-out by the normalizer's dot product with the
// query, floored at 1 after its absolute value is taken.
struct Slip {
  const char* starts;
  bool swap_gates = false, forget_after_write = false, read_before_write = false;
  bool no_input_gate_on_n = false, no_forget_gate_on_n = false;
  std::function<double(const Vector& n, const Vector& q)> den;
};

double right_den(const Vector& n, const Vector& q) { return std::max(std::abs(n.dot(q)), 1.0); }

std::vector<Slip> slips() {
  std::vector<Slip> s(10);
  s[0].starts = "the gates f and i are swapped";
  s[0].swap_gates = true;
  s[1].starts = "the forget gate was applied after the write";
  s[1].forget_after_write = true;
  s[2].starts = "the absolute value is missing";
  s[2].den = [](const Vector& n, const Vector& q) { return std::max(n.dot(q), 1.0); };
  s[3].starts = "the floor is missing";
  s[3].den = [](const Vector& n, const Vector& q) { return n.dot(q); };
  s[4].starts = "the floor of 1 is missing";
  s[4].den = [](const Vector& n, const Vector& q) { return std::abs(n.dot(q)); };
  s[5].starts = "1 was added to the denominator";
  s[5].den = [](const Vector& n, const Vector& q) { return std::abs(n.dot(q)) + 1.0; };
  s[6].starts = "max(., 1) was put on the entries of n_t";
  s[6].den = [](const Vector& n, const Vector& q) {
    double sum = 0.0;
    for (Eigen::Index j = 0; j < n.size(); ++j) sum += std::max(std::abs(n(j)), 1.0) * q(j);
    return sum;
  };
  s[7].starts = "the cell was read before token t was written";
  s[7].read_before_write = true;
  s[8].starts = "the input gate is missing from the normalizer";
  s[8].no_input_gate_on_n = true;
  s[9].starts = "the forget gate is missing from the normalizer";
  s[9].no_forget_gate_on_n = true;
  for (Slip& x : s)
    if (!x.den) x.den = right_den;
  return s;
}

Matrix slipped(const json& call, const Slip& s) {
  const Matrix Q = wire::to_matrix(call.at("Q")), K = wire::to_matrix(call.at("K")),
               V = wire::to_matrix(call.at("V"));
  Vector f = wire::to_vector(call.at("f")), in = wire::to_vector(call.at("i"));
  if (s.swap_gates) std::swap(f, in);
  Matrix C = Matrix::Zero(V.cols(), K.cols());  // (d_v, d_k)
  Vector n = Vector::Zero(K.cols());
  Matrix H(Q.rows(), V.cols());
  for (Eigen::Index t = 0; t < Q.rows(); ++t) {
    const Vector q = Q.row(t).transpose(), k = K.row(t).transpose(), v = V.row(t).transpose();
    const Matrix C_old = C;
    const Vector n_old = n;
    if (s.forget_after_write) {
      C = f(t) * (C + in(t)*v * k.transpose());
      n = f(t) * (n + in(t)*k);
    } else {
      C = f(t) * C + in(t)*v * k.transpose();
      n = (s.no_forget_gate_on_n ? 1.0 : f(t)) * n + (s.no_input_gate_on_n ? 1.0 : in(t)) * k;
    }
    const Matrix& Cr = s.read_before_write ? C_old : C;
    const Vector& nr = s.read_before_write ? n_old : n;
    H.row(t) = (Cr * q).transpose() / s.den(nr, q);
  }
  return H;
}

bool starts_with(const std::string& text, const char* start) { return text.rfind(start, 0) == 0; }

}  // namespace

TEST_CASE("modern/mlstm slips: each suspect is the output of the mistake its message names") {
  const std::vector<Slip> all = slips();
  std::set<std::string> seen;
  for (const grader::Check& c : fake::exercise("modern").checks) {
    if (c.function != "mlstm" || !c.request) continue;
    const json request = c.request(c.seed);
    const json expected = c.expect(request);
    for (std::size_t i = 0; i < request.at("calls").size(); ++i) {
      const json& e = expected.at("calls").at(i);
      if (!e.contains("suspects")) continue;
      for (const json& suspect : e.at("suspects")) {
        const std::string mistake = suspect.at("mistake").get<std::string>();
        INFO(c.name << ", call " << i + 1 << ": " << mistake);
        const Slip* slip = nullptr;
        for (const Slip& s : all)
          if (starts_with(mistake, s.starts)) slip = &s;
        REQUIRE_MESSAGE(slip != nullptr, "a mistake with no second writing here");
        if (!suspect.at("value").contains("data")) continue;  // a probe of a large call
        const Matrix sent = wire::to_matrix(suspect.at("value"));
        const Matrix mine = slipped(request.at("calls").at(i), *slip);
        REQUIRE(sent.rows() == mine.rows());
        REQUIRE(sent.cols() == mine.cols());
        CHECK((sent - mine).cwiseAbs().maxCoeff() <= 1e-12 * (1.0 + mine.cwiseAbs().maxCoeff()));
        seen.insert(slip->starts);
      }
    }
  }
  // Every mistake is compared on at least one call.
  CHECK(seen.size() == all.size());
}
