// chunkwise: an independent correct form passes every check; each listed slip, written out here
// token by token on its own (not with the oracle's code), fails the checks meant for it and is
// named there.
#include "fake_runner.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using fake::contains;
using fake::expect_named;
using fake::json;
using fake::Matrix;
using fake::Vector;

namespace {

const std::string kFn = "causal_linear_attention_chunkwise";

// A form from the features: FQ, FK: (T, d_phi), V: (T, d_v) -> O: (T, d_v).
using Form = std::function<Matrix(const Matrix& FQ, const Matrix& FK, const Matrix& V,
                                  Eigen::Index chunk, double eps)>;

fake::Impl impl(Form f) {
  return [f](const json& a) {
    const linref::FeatureMap phi = fake::phi_of(a.at("phi"));
    return json{
        {"O", wire::from_matrix(f(phi(wire::to_matrix(a.at("Q"))), phi(wire::to_matrix(a.at("K"))),
                                  wire::to_matrix(a.at("V")), a.at("chunk").get<Eigen::Index>(),
                                  a.at("eps").get<double>()))}};
  };
}

struct Twist {
  bool fold_first = false;  // the chunk joins the state before its rows are read
  bool strict = false;      // inside a chunk, s < t only
  bool carry_S = true, carry_z = true;
};

// Token by token inside each chunk: what the state held before the chunk, plus the chunk's own
// keys s <= t (or s < t).
Form tokenwise(Twist tw) {
  return [tw](const Matrix& FQ, const Matrix& FK, const Matrix& V, Eigen::Index chunk, double eps) {
    const Eigen::Index T = FQ.rows();
    Matrix S = Matrix::Zero(FK.cols(), V.cols()), O(T, V.cols());
    Vector z = Vector::Zero(FK.cols());
    for (Eigen::Index start = 0; start < T; start += chunk) {
      const Eigen::Index end = std::min(T, start + chunk);
      Matrix S_chunk = Matrix::Zero(S.rows(), S.cols());
      Vector z_chunk = Vector::Zero(z.size());
      for (Eigen::Index s = start; s < end; ++s) {
        S_chunk += FK.row(s).transpose() * V.row(s);
        z_chunk += FK.row(s).transpose();
      }
      const Matrix S_read = tw.fold_first ? Matrix(S + S_chunk) : S;
      const Vector z_read = tw.fold_first ? Vector(z + z_chunk) : z;
      for (Eigen::Index t = start; t < end; ++t) {
        Vector num = S_read.transpose() * FQ.row(t).transpose();
        double den = z_read.dot(FQ.row(t)) + eps;
        for (Eigen::Index s = start; tw.strict ? s < t : s <= t; ++s) {
          const double k = FQ.row(t).dot(FK.row(s));
          num += k * V.row(s).transpose();
          den += k;
        }
        O.row(t) = num.transpose() / den;
      }
      if (tw.carry_S) S += S_chunk;
      if (tw.carry_z) z += z_chunk;
    }
    return O;
  };
}

const Form kCorrect = tokenwise({});

std::map<std::string, grader::Verdict> all(Form f) {
  return fake::judge_all("chunkwise", kFn, impl(std::move(f)));
}

}  // namespace

TEST_CASE("checks/chunkwise: an independent correct form passes every check") {
  for (const auto& [name, verdict] : all(kCorrect))
    CHECK_MESSAGE(verdict.passed, name << verdict.message);
}

TEST_CASE("checks/chunkwise: the state folded in before the chunk's own product is named") {
  Twist tw;
  tw.fold_first = true;
  const auto v = all(tokenwise(tw));
  expect_named(v, "chunkwise/hand-example",
               "the chunk was folded into the state before its own outputs");
  CHECK(contains(v.at("chunkwise/hand-example").message, "counted twice"));
  expect_named(v, "chunkwise/uneven-last-chunk", "the chunk was folded into the state");
}

TEST_CASE("checks/chunkwise: a strict mask inside the chunk is named") {
  Twist tw;
  tw.strict = true;
  const auto v = all(tokenwise(tw));
  expect_named(v, "chunkwise/hand-example", "the mask inside a chunk drops the diagonal");
  expect_named(v, "chunkwise/chunk-one", "the mask inside a chunk drops the diagonal");
}

TEST_CASE("checks/chunkwise: z, or S, not carried across chunks is named, and one chunk hides it") {
  Twist tw;
  tw.carry_z = false;
  const auto v = all(tokenwise(tw));
  expect_named(v, "chunkwise/hand-example", "z is not carried across chunks");
  expect_named(v, "chunkwise/constant-values", "z is not carried across chunks");
  CHECK(v.at("chunkwise/chunk-at-least-T").passed);  // a single chunk carries nothing
  tw = Twist{};
  tw.carry_S = false;
  expect_named(all(tokenwise(tw)), "chunkwise/many-chunk-sizes", "S is not carried across chunks");
  tw.carry_z = false;
  expect_named(all(tokenwise(tw)), "chunkwise/uneven-last-chunk", "neither S nor z is carried");
}

TEST_CASE(
    "checks/chunkwise: the last, shorter chunk dropped is named, also when its rows hold garbage") {
  // Only whole chunks: T / chunk of them, rows after them left at zero.
  const Form whole_only = [](const Matrix& FQ, const Matrix& FK, const Matrix& V,
                             Eigen::Index chunk, double eps) {
    const Eigen::Index T = FQ.rows(), kept = (T / chunk) * chunk;
    Matrix O = Matrix::Zero(T, V.cols());
    if (kept > 0)
      O.topRows(kept) = kCorrect(FQ.topRows(kept), FK.topRows(kept), V.topRows(kept), chunk, eps);
    return O;
  };
  const auto v = all(whole_only);
  expect_named(v, "chunkwise/uneven-last-chunk", "the last, shorter chunk");
  expect_named(v, "chunkwise/chunk-at-least-T", "nothing was computed");
  CHECK(v.at("chunkwise/chunk-one").passed);
  // Rows never written hold whatever memory held: the judge still says which chunk they are.
  const Form garbage = [whole_only](const Matrix& FQ, const Matrix& FK, const Matrix& V,
                                    Eigen::Index chunk, double eps) {
    Matrix O = whole_only(FQ, FK, V, chunk, eps);
    const Eigen::Index kept = (FQ.rows() / chunk) * chunk;
    O.bottomRows(FQ.rows() - kept).setConstant(4.2e7);
    return O;
  };
  expect_named(all(garbage), "chunkwise/uneven-last-chunk",
               "every row before the last chunk is right");
  // The output cut short by the missing chunk.
  const Form short_output = [whole_only](const Matrix& FQ, const Matrix& FK, const Matrix& V,
                                         Eigen::Index chunk, double eps) {
    const Eigen::Index kept = (FQ.rows() / chunk) * chunk;
    return Matrix(whole_only(FQ, FK, V, chunk, eps).topRows(kept));
  };
  expect_named(all(short_output), "chunkwise/uneven-last-chunk", "the output stops after");
}

TEST_CASE("checks/chunkwise: a last chunk of T mod chunk tokens fails chunk = 1 and chunk = T") {
  // The last chunk sized T % chunk: right when chunk does not divide T, empty when it does.
  const Form remainder = [](const Matrix& FQ, const Matrix& FK, const Matrix& V, Eigen::Index chunk,
                            double eps) {
    const Eigen::Index T = FQ.rows();
    const Eigen::Index n = (T + chunk - 1) / chunk;
    const Eigen::Index covered = (n - 1) * chunk + (T % chunk);  // rows actually computed
    Matrix O = Matrix::Constant(T, V.cols(), -3.0);
    if (covered > 0)
      O.topRows(covered) =
          kCorrect(FQ.topRows(covered), FK.topRows(covered), V.topRows(covered), chunk, eps);
    return O;
  };
  const auto v = all(remainder);
  CHECK(v.at("chunkwise/uneven-last-chunk").passed);
  expect_named(v, "chunkwise/chunk-one", "every row before the last chunk is right");
  CHECK(contains(v.at("chunkwise/chunk-one").message, "T mod chunk"));
  // Counts of one token are singular: "9 chunks of 1 token", "(the last chunk, 1 token)".
  CHECK(contains(v.at("chunkwise/chunk-one").message, "chunks of 1 token"));
  CHECK(contains(v.at("chunkwise/chunk-one").message, "(the last chunk, 1 token)"));
  CHECK_FALSE(contains(v.at("chunkwise/chunk-one").message, " 1 tokens"));
  REQUIRE_FALSE(v.at("chunkwise/chunk-at-least-T").passed);
  CHECK(contains(v.at("chunkwise/chunk-at-least-T").message, "a single chunk of 8 tokens"));
}

TEST_CASE(
    "checks/chunkwise: an unmasked block is named, and the memory rule has its budget and hint") {
  const Form no_mask = [](const Matrix& FQ, const Matrix& FK, const Matrix& V, Eigen::Index chunk,
                          double eps) {
    const Eigen::Index T = FQ.rows();
    Matrix S = Matrix::Zero(FK.cols(), V.cols()), O(T, V.cols());
    Vector z = Vector::Zero(FK.cols());
    for (Eigen::Index start = 0; start < T; start += chunk) {
      const Eigen::Index c = std::min(chunk, T - start);
      const Matrix A = FQ.middleRows(start, c) * FK.middleRows(start, c).transpose();
      const Matrix num = FQ.middleRows(start, c) * S + A * V.middleRows(start, c);
      const Vector den = FQ.middleRows(start, c) * z + A.rowwise().sum();
      O.middleRows(start, c) = num.array().colwise() / (den.array() + eps);
      S += FK.middleRows(start, c).transpose() * V.middleRows(start, c);
      z += FK.middleRows(start, c).colwise().sum().transpose();
    }
    return O;
  };
  expect_named(all(no_mask), "chunkwise/hand-example", "the chunk x chunk block is not masked");

  const grader::Check& mem = fake::check("chunkwise", "chunkwise/memory-budget");
  REQUIRE(mem.heap_budget_bytes);
  CHECK(*mem.heap_budget_bytes == 46661632);  // 2*8*(4*8192*64) + 2*8*132*4096 + 2*8*4*4096 + 4 MiB
  // A T x T matrix of doubles (512 MiB) and a state per token (256 MiB) are far over it.
  CHECK(*mem.heap_budget_bytes * 5 < (256ull << 20));
  const json call = mem.request(1).at("calls").at(0);
  CHECK(call.at("Q").at("rows") == 8192);
  CHECK(call.at("chunk") == 64);
  REQUIRE(mem.memory_hint);
  CHECK(contains(mem.memory_hint(mem.request(1), 512ull << 20),
                 "a state for every chunk, which is allowed"));
}

TEST_CASE("checks/chunkwise: the probes have what the exercise promises") {
  // T not a multiple of the chunk, d_phi != d_v, several chunk sizes on one sequence.
  const json uneven =
      fake::check("chunkwise", "chunkwise/uneven-last-chunk").request(1).at("calls");
  for (const json& c : uneven)
    CHECK(c.at("Q").at("rows").get<long>() % c.at("chunk").get<long>() != 0);
  const json sizes = fake::check("chunkwise", "chunkwise/many-chunk-sizes").request(1).at("calls");
  CHECK(sizes.size() == 5);
  for (const json& c : sizes) CHECK(c.at("Q") == sizes.at(0).at("Q"));
  const json hand = fake::check("chunkwise", "chunkwise/hand-example").request(1).at("calls");
  CHECK(hand.size() == 4);
}
