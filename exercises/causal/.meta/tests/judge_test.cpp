// causal: each mistake of the textbook's list, written out here on its own, must fail the
// check meant for it and be named there.
#include "fake_runner.hpp"

#include <doctest/doctest.h>

using fake::contains;
using fake::expect_named;
using fake::json;
using fake::Matrix;
using fake::Vector;

namespace {

const std::string kRec = "causal_linear_attention_recurrent";
const std::string kPar = "causal_linear_attention_parallel";
const std::string kStep = "linear_attention_step";

// A whole-sequence form written from the features: FQ, FK: (T, d_phi), V: (T, d_v).
using Form = std::function<Matrix(const Matrix& FQ, const Matrix& FK, const Matrix& V, double eps)>;

fake::Impl form_impl(Form f) {
  return [f](const json& a) {
    const linref::FeatureMap phi = fake::phi_of(a.at("phi"));
    const Matrix O = f(phi(wire::to_matrix(a.at("Q"))), phi(wire::to_matrix(a.at("K"))),
                       wire::to_matrix(a.at("V")), a.at("eps").get<double>());
    return json{{"O", wire::from_matrix(O)}};
  };
}

// The loop with a chosen read: read(S_t, z_t, S_{t-1}, z_{t-1}, fq, eps).
using Read = std::function<Vector(const Matrix&, const Vector&, const Matrix&, const Vector&,
                                  const Vector&, double)>;
Form loop(Read read) {
  return [read](const Matrix& FQ, const Matrix& FK, const Matrix& V, double eps) {
    Matrix S = Matrix::Zero(FK.cols(), V.cols()), O(FQ.rows(), V.cols());
    Vector z = Vector::Zero(FK.cols());
    for (Eigen::Index t = 0; t < FQ.rows(); ++t) {
      const Matrix S_old = S;
      const Vector z_old = z;
      S += FK.row(t).transpose() * V.row(t);
      z += FK.row(t).transpose();
      O.row(t) = read(S, z, S_old, z_old, FQ.row(t).transpose(), eps).transpose();
    }
    return O;
  };
}

const Form kCorrect =
    loop([](const Matrix& S, const Vector& z, const Matrix&, const Vector&, const Vector& fq,
            double eps) -> Vector { return S.transpose() * fq / (z.dot(fq) + eps); });

std::map<std::string, grader::Verdict> both(const std::string& fn, Form f) {
  return fake::judge_all("causal", fn, form_impl(std::move(f)));
}

}  // namespace

TEST_CASE("checks/causal: an independent correct loop passes every check of both forms") {
  for (const std::string& fn : {kRec, kPar})
    for (const auto& [name, verdict] : both(fn, kCorrect))
      CHECK_MESSAGE(verdict.passed, name << verdict.message);
}

TEST_CASE("checks/causal: reading before writing is named (o_1 = 0/0)") {
  const Form rbw =
      loop([](const Matrix&, const Vector&, const Matrix& Sp, const Vector& zp, const Vector& fq,
              double eps) -> Vector { return Sp.transpose() * fq / (zp.dot(fq) + eps); });
  const auto v = both(kRec, rbw);
  expect_named(v, "recurrent/hand-example", "the state is read before token t is added");
  CHECK(contains(v.at("recurrent/hand-example").message, "NaN"));
  CHECK(contains(v.at("recurrent/hand-example").message, "(5/9, 4/9)"));
  expect_named(v, "recurrent/single-token", "the state is read before");
  // The parallel form's version is a strictly lower-triangular mask, and is named as such.
  expect_named(both(kPar, rbw), "parallel/hand-example", "the mask drops the diagonal");
}

TEST_CASE("checks/causal: outputs written one token late are named") {
  const Form late = [](const Matrix& FQ, const Matrix& FK, const Matrix& V, double eps) {
    const Matrix O = kCorrect(FQ, FK, V, eps);
    Matrix shifted = Matrix::Zero(O.rows(), O.cols());
    shifted.bottomRows(O.rows() - 1) = O.topRows(O.rows() - 1);
    return shifted;
  };
  expect_named(both(kRec, late), "recurrent/hand-example", "the outputs are one token late");
}

TEST_CASE("checks/causal: outputs never written are named by their rows") {
  // The loop stops after the first token; the rest of O is as allocated (a subnormal leftover).
  const Form stops = [](const Matrix& FQ, const Matrix& FK, const Matrix& V, double eps) {
    Matrix O = kCorrect(FQ, FK, V, eps);
    O.bottomRows(O.rows() - 1).setConstant(4.68e-310);
    return O;
  };
  const auto v = both(kRec, stops);
  expect_named(v, "recurrent/hand-example", "rows 1..2 of O were never written");
  CHECK(contains(v.at("recurrent/hand-example").message,
                 "leftovers of memory as allocated, such as 4.68e-310"));
}

TEST_CASE("checks/causal: a transposed state is named where d_phi = d_v") {
  const Form transposed = loop([](const Matrix& S, const Vector& z, const Matrix&, const Vector&,
                                  const Vector& fq, double eps) -> Vector {
    return S * fq / (z.dot(fq) + eps);  // only defined for square S
  });
  const auto& c = fake::check("causal", "recurrent/hand-example");
  const grader::Verdict v = fake::judge_with(c, form_impl(transposed), c.seed);
  REQUIRE_FALSE(v.passed);
  CHECK(contains(v.message, "Likely mistake: the state is used transposed"));
  // The random-Taylor probe has d_phi = 7 != d_v = 3, where such code cannot even run.
  const json call = fake::check("causal", "recurrent/random-taylor").request(1).at("calls").at(0);
  CHECK(call.at("Q").at("cols") == 2);
  CHECK(call.at("V").at("cols") == 3);
}

TEST_CASE("checks/causal: normalizing over the feature axis breaks constant values") {
  const Form feature_sum =
      loop([](const Matrix& S, const Vector&, const Matrix&, const Vector&, const Vector& fq,
              double eps) -> Vector { return S.transpose() * fq / (fq.sum() + eps); });
  for (const auto& [fn, prefix] : {std::pair{kRec, "recurrent"}, std::pair{kPar, "parallel"}})
    expect_named(both(fn, feature_sum), std::string(prefix) + "/constant-values",
                 "the denominator sums phi(q_t) over the feature axis");
  const Form value_axis = loop([](const Matrix& S, const Vector&, const Matrix&, const Vector&,
                                  const Vector& fq, double eps) -> Vector {
    const Vector num = S.transpose() * fq;
    return num / (num.sum() + eps);
  });
  expect_named(both(kRec, value_axis), "recurrent/constant-values",
               "each output is divided by the sum of its own entries");
}

TEST_CASE("checks/causal: a missing eps fails the large-eps checks only, and is named") {
  const Form no_eps =
      loop([](const Matrix& S, const Vector& z, const Matrix&, const Vector&, const Vector& fq,
              double) -> Vector { return S.transpose() * fq / z.dot(fq); });
  for (const auto& [fn, prefix] : {std::pair{kRec, "recurrent"}, std::pair{kPar, "parallel"}}) {
    const auto v = both(fn, no_eps);
    for (const auto& [name, verdict] : v)
      if (name != std::string(prefix) + "/large-eps") CHECK_MESSAGE(verdict.passed, name);
    expect_named(v, std::string(prefix) + "/large-eps", "eps is not in the denominator");
  }
}

TEST_CASE("checks/causal: eps in the numerator, or on every kernel value, is named") {
  const Form num_eps = loop([](const Matrix& S, const Vector& z, const Matrix&, const Vector&,
                               const Vector& fq, double eps) -> Vector {
    return ((S.transpose() * fq).array() + eps).matrix() / (z.dot(fq) + eps);
  });
  expect_named(both(kRec, num_eps), "recurrent/large-eps", "eps is added to the numerator as well");
  // Parallel form with eps added inside the mask: W_ts + eps for s <= t.
  const Form masked_eps = [](const Matrix& FQ, const Matrix& FK, const Matrix& V, double eps) {
    Matrix W = FQ * FK.transpose();
    for (Eigen::Index t = 0; t < W.rows(); ++t)
      for (Eigen::Index s = 0; s < W.cols(); ++s) W(t, s) = s <= t ? W(t, s) + eps : 0.0;
    const Vector rows = W.rowwise().sum();
    return Matrix(rows.asDiagonal().inverse() * (W * V));
  };
  expect_named(both(kPar, masked_eps), "parallel/large-eps", "eps is added to every kernel value");
}

TEST_CASE("checks/causal: a missing or flipped mask is named") {
  const Form no_mask = [](const Matrix& FQ, const Matrix& FK, const Matrix& V, double eps) {
    const Matrix W = FQ * FK.transpose();
    const Vector rows = (W.rowwise().sum().array() + eps).matrix();
    return Matrix(rows.asDiagonal().inverse() * (W * V));
  };
  expect_named(both(kPar, no_mask), "parallel/hand-example", "the causal mask is missing");
  const Form upper = [](const Matrix& FQ, const Matrix& FK, const Matrix& V, double eps) {
    Matrix W = (FQ * FK.transpose()).triangularView<Eigen::Upper>();
    const Vector rows = (W.rowwise().sum().array() + eps).matrix();
    return Matrix(rows.asDiagonal().inverse() * (W * V));
  };
  expect_named(both(kPar, upper), "parallel/hand-example", "the mask keeps the wrong triangle");
}

// ---- the decode step ---------------------------------------------------------------------

namespace {

struct StepOut {
  Vector o;
  Matrix S;
  Vector z;
};
using StepFn = std::function<StepOut(const Matrix& S, const Vector& z, const Vector& fq,
                                     const Vector& fk, const Vector& v, double eps)>;

fake::Impl step_impl(StepFn f) {
  return [f](const json& a) {
    const linref::FeatureMap phi = fake::phi_of(a.at("phi"));
    auto feat = [&](const char* key) {
      const Vector x = wire::to_vector(a.at(key));
      return Vector(phi(x.transpose()).row(0).transpose());
    };
    const StepOut r = f(wire::to_matrix(a.at("S")), wire::to_vector(a.at("z")), feat("q"),
                        feat("k"), wire::to_vector(a.at("v")), a.at("eps").get<double>());
    return json{{"o", wire::from_vector(r.o)},
                {"S", wire::from_matrix(r.S)},
                {"z", wire::from_vector(r.z)}};
  };
}

StepOut good_step(const Matrix& S0, const Vector& z0, const Vector& fq, const Vector& fk,
                  const Vector& v, double eps) {
  const Matrix S = S0 + fk * v.transpose();
  const Vector z = z0 + fk;
  return {S.transpose() * fq / (z.dot(fq) + eps), S, z};
}

}  // namespace

TEST_CASE(
    "checks/causal: an independent correct step passes, and T steps reproduce the recurrence") {
  for (const auto& [name, verdict] : fake::judge_all("causal", kStep, step_impl(good_step)))
    CHECK_MESSAGE(verdict.passed, name << verdict.message);
  // The reproduces-recurrent request feeds the right states: its o's stack into the
  // recurrent form's output on the same tokens.
  const json calls = fake::check("causal", "step/reproduces-recurrent").request(1).at("calls");
  Matrix Q(calls.size(), 2), K(calls.size(), 2), V(calls.size(), 3), O(calls.size(), 3);
  for (std::size_t t = 0; t < calls.size(); ++t) {
    const auto i = static_cast<Eigen::Index>(t);
    Q.row(i) = wire::to_vector(calls[t].at("q")).transpose();
    K.row(i) = wire::to_vector(calls[t].at("k")).transpose();
    V.row(i) = wire::to_vector(calls[t].at("v")).transpose();
    O.row(i) = wire::to_vector(fake::reference_result(kStep, calls[t]).at("o")).transpose();
  }
  const Matrix R = linref::causal_linear_attention_recurrent(Q, K, V, linref::taylor_features, 0.0);
  CHECK((R - O).cwiseAbs().maxCoeff() < 1e-12);
}

TEST_CASE("checks/causal: the step's mistakes are named") {
  const auto rbw =
      fake::judge_all("causal", kStep,
                      step_impl([](const Matrix& S0, const Vector& z0, const Vector& fq,
                                   const Vector& fk, const Vector& v, double eps) {
                        StepOut r = good_step(S0, z0, fq, fk, v, eps);
                        r.o = S0.transpose() * fq / (z0.dot(fq) + eps);
                        return r;
                      }));
  expect_named(rbw, "step/from-zero", "o was read from the state before this token was added");
  expect_named(rbw, "step/reproduces-recurrent", "o was read from the state before");

  const auto transposed =
      fake::judge_all("causal", kStep,
                      step_impl([](const Matrix& S0, const Vector& z0, const Vector& fq,
                                   const Vector& fk, const Vector& v, double eps) {
                        StepOut r = good_step(S0, z0, fq, fk, v, eps);
                        r.S.transposeInPlace();
                        return r;
                      }));
  expect_named(transposed, "step/unequal-sizes", "S is returned transposed");
  CHECK(contains(transposed.at("step/unequal-sizes").message,
                 "expected 9 x 4 (d_phi x d_v), got 4 x 9"));

  const auto stale_z =
      fake::judge_all("causal", kStep,
                      step_impl([](const Matrix& S0, const Vector& z0, const Vector& fq,
                                   const Vector& fk, const Vector& v, double eps) {
                        StepOut r = good_step(S0, z0, fq, fk, v, eps);
                        r.z = z0;
                        return r;
                      }));
  expect_named(stale_z, "step/from-zero", "z is returned unchanged");

  const auto num_eps =
      fake::judge_all("causal", kStep,
                      step_impl([](const Matrix& S0, const Vector& z0, const Vector& fq,
                                   const Vector& fk, const Vector& v, double eps) {
                        StepOut r = good_step(S0, z0, fq, fk, v, eps);
                        r.o = ((r.S.transpose() * fq).array() + eps).matrix() / (r.z.dot(fq) + eps);
                        return r;
                      }));
  for (const auto& [name, verdict] : num_eps)
    if (name != "step/large-eps") CHECK_MESSAGE(verdict.passed, name);
  expect_named(num_eps, "step/large-eps", "eps is added to the numerator too");
}
