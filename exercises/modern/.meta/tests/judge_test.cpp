// modern: each slip the issue lists, written out here on its own as a masked quadratic form
// (not the oracle's recurrences), must fail the checks meant for it and be named there; an
// independent correct form passes every check; the memory rule is set for both functions.
#include "fake_runner.hpp"

#include "checks/shared/time_rule.hpp"

#include <doctest/doctest.h>

#include <cmath>

using fake::contains;
using fake::expect_named;
using fake::json;
using fake::Matrix;
using fake::Vector;

namespace {

const std::string kMlstm = "mlstm";
const std::string kDecayed = "decayed_normalized_attention";

// ---- mlstm as one T x T product ----------------------------------------------------------

struct MlstmForm {
  bool forget_own_token = false;  // weight of key s also scaled by f_s: decay after the write
  bool swap_gates = false;
  // How the row sum r_t = n_t^T q_t becomes the denominator.
  std::function<double(double)> denominator = [](double r) { return std::max(std::abs(r), 1.0); };
};

// W_ts = i_s f_{s+1} ... f_t (q_t . k_s) for s <= t; H = W V, row t divided by den(row sum).
Matrix mlstm_masked(const MlstmForm& form, const Matrix& Q, const Matrix& K, const Matrix& V,
                    Vector f, Vector i) {
  if (form.swap_gates) std::swap(f, i);
  const Eigen::Index T = Q.rows();
  Matrix W = Matrix::Zero(T, T);
  for (Eigen::Index t = 0; t < T; ++t)
    for (Eigen::Index s = 0; s <= t; ++s) {
      double g = i(s);
      for (Eigen::Index r = form.forget_own_token ? s : s + 1; r <= t; ++r) g *= f(r);
      W(t, s) = g * Q.row(t).dot(K.row(s));
    }
  Matrix H = W * V;
  for (Eigen::Index t = 0; t < T; ++t) H.row(t) /= form.denominator(W.row(t).sum());
  return H;
}

fake::Impl mlstm_impl(MlstmForm form) {
  return [form](const json& a) {
    return json{{"H", wire::from_matrix(
                          mlstm_masked(form, wire::to_matrix(a.at("Q")), wire::to_matrix(a.at("K")),
                                       wire::to_matrix(a.at("V")), wire::to_vector(a.at("f")),
                                       wire::to_vector(a.at("i"))))}};
  };
}

// ---- decayed_normalized_attention as one T x T product -----------------------------------

struct DecayedForm {
  bool decay_own_token = false;  // G_ts = gamma^(t-s+1): decay after the write
  bool sigmoid_features = false;
  enum class Axis { Row, Column } axis = Axis::Row;  // which entries the mean square runs over
  bool use_eps = true;
};

Matrix decayed_masked(const DecayedForm& form, const Matrix& Q, const Matrix& K, const Matrix& V,
                      double gamma, const Vector& gain, double eps) {
  auto feature = [&form](double x) {
    const double sig = 1.0 / (1.0 + std::exp(-x));
    return form.sigmoid_features ? sig : x * sig;
  };
  const Eigen::Index T = Q.rows();
  Matrix G = Matrix::Zero(T, T);
  for (Eigen::Index t = 0; t < T; ++t)
    for (Eigen::Index s = 0; s <= t; ++s)
      G(t, s) = std::pow(gamma, static_cast<double>(t - s + (form.decay_own_token ? 1 : 0)));
  const Matrix Y = (Q.unaryExpr(feature) * K.unaryExpr(feature).transpose()).cwiseProduct(G) *
                   V.unaryExpr(feature);  // (T, d_v)
  const double e = form.use_eps ? eps : 0.0;
  Matrix O(T, V.cols());
  for (Eigen::Index t = 0; t < T; ++t)
    for (Eigen::Index j = 0; j < V.cols(); ++j) {
      const double ms = form.axis == DecayedForm::Axis::Row
                            ? Y.row(t).squaredNorm() / static_cast<double>(V.cols())
                            : Y.col(j).squaredNorm() / static_cast<double>(T);
      O(t, j) = gain(j) * Y(t, j) / std::sqrt(ms + e);
    }
  return O;
}

fake::Impl decayed_impl(DecayedForm form) {
  return [form](const json& a) {
    return json{{"O", wire::from_matrix(decayed_masked(
                          form, wire::to_matrix(a.at("Q")), wire::to_matrix(a.at("K")),
                          wire::to_matrix(a.at("V")), a.at("gamma").get<double>(),
                          wire::to_vector(a.at("gain")), a.at("eps").get<double>()))}};
  };
}

// The checks of `function` on small probes, judged with impl. The T x T forms here are slow
// at thousands of tokens, and the memory and time checks are not where these slips are told.
std::map<std::string, grader::Verdict> judge_small(const std::string& function,
                                                   const fake::Impl& impl) {
  std::map<std::string, grader::Verdict> out;
  for (const auto& c : fake::exercise("modern").checks)
    if (c.function == function && !c.heap_budget_bytes && !c.timed)
      out[c.name] = fake::judge_with(c, impl, c.seed);
  return out;
}
std::map<std::string, grader::Verdict> judge_decayed(DecayedForm form) {
  return judge_small(kDecayed, decayed_impl(std::move(form)));
}
std::map<std::string, grader::Verdict> small_mlstm(MlstmForm form) {
  return judge_small(kMlstm, mlstm_impl(std::move(form)));
}

}  // namespace

TEST_CASE("checks/modern: independent masked forms pass every check") {
  for (const auto& [name, v] : small_mlstm({})) CHECK_MESSAGE(v.passed, name << ": " << v.message);
  for (const auto& [name, v] : judge_decayed({}))
    CHECK_MESSAGE(v.passed, name << ": " << v.message);
}

TEST_CASE("checks/modern: the reference passes both memory checks, which carry the rule") {
  for (const char* name : {"mlstm/memory-budget", "decayed/memory-budget"}) {
    CAPTURE(name);
    const auto& c = fake::check("modern", name);
    REQUIRE(c.heap_budget_bytes.has_value());
    // T = 8192, d = 64: the features of Q, K, V and the output fit, T x T doubles and the T
    // states of a cumulative sum are each more than 5 times the budget.
    const double T = 8192, d = 64, budget = static_cast<double>(*c.heap_budget_bytes);
    CHECK(budget >= 8 * 4 * T * d);
    CHECK(T * T * 8 >= 5 * budget);
    CHECK(T * d * d * 8 >= 5 * budget);
    CHECK(c.memory_hint);
    const json rq = c.request(c.seed);
    CHECK(rq.at("calls").at(0).at("Q").at("rows") == 8192);
    CHECK(fake::judge_with(c, fake::reference(c.function), c.seed).passed);
  }
}

// The budget holds the arrays of the sequence twice over (a copy made on the way in or out must
// fit), and the rule's text states the ratios of T x T doubles and of the stored states to it.
TEST_CASE(
    "checks/modern: the memory budget is the sequence's arrays twice over, as its text says") {
  for (const char* name : {"mlstm/memory-budget", "decayed/memory-budget"}) {
    CAPTURE(name);
    const auto& c = fake::check("modern", name);
    REQUIRE(c.heap_budget_bytes.has_value());
    const json call = c.request(c.seed).at("calls").at(0);
    const std::uint64_t T = call.at("Q").at("rows"), d_k = call.at("Q").at("cols"),
                        d_v = call.at("V").at("cols");
    const std::uint64_t twice_over = 2 * 8 * (2 * T * d_k + 2 * T * d_v);
    CHECK(*c.heap_budget_bytes >= twice_over);
    // Only states and slack on top: 4 states of d_k x d_v doubles and 4 MiB.
    CHECK(*c.heap_budget_bytes <= twice_over + 4 * 8 * d_k * d_v + (4u << 20));
    const double budget = static_cast<double>(*c.heap_budget_bytes);
    const long tt = std::lround(8.0 * T * T / budget),
               states = std::lround(8.0 * T * d_k * d_v / budget);
    CHECK(contains(c.heap_budget_rule, "about " + std::to_string(tt) + " times that"));
    CHECK(contains(c.heap_budget_rule, "about " + std::to_string(states) + " times)"));
  }
}

TEST_CASE("checks/modern: one time-rule check per function, at T = 512, 2048 and 8192") {
  for (const char* name : {"mlstm/linear-time", "decayed/linear-time"}) {
    CAPTURE(name);
    const auto& c = fake::check("modern", name);
    CHECK(c.timed);
    const json calls = c.request(c.seed).at("calls");
    REQUIRE(calls.size() == grader::kTimeRuleRepeat * grader::kTimeRuleSizes);
    const Matrix Q0 = wire::to_matrix(calls[0].at("Q")), Q2 = wire::to_matrix(calls[2].at("Q"));
    CHECK(Q0.rows() == 512);
    CHECK(Q2.rows() == 8192);
    CHECK(Q2.cols() == Q0.cols());
  }
}

TEST_CASE("checks/modern: the seed's remark, f = i = 1 gives causal linear attention") {
  // An implementation that is causal linear attention with identity features and eps = 0
  // (no floor at all) passes the limit check: the floor never acts there...
  MlstmForm causal;
  causal.denominator = [](double r) { return r; };
  const auto v = small_mlstm(causal);
  CHECK(v.at("mlstm/linear-attention-limit").passed);
  // ...and fails where the floor or the sign matters, named.
  expect_named(v, "mlstm/by-hand", "the floor is missing");
  expect_named(v, "mlstm/floor-and-sign", "the floor is missing");
  // The request is what the seed describes: unit gates and |n_t^T q_t| >= 1 at every token.
  const json call =
      fake::check("modern", "mlstm/linear-attention-limit").request(1).at("calls").at(0);
  const Matrix Q = wire::to_matrix(call.at("Q")), K = wire::to_matrix(call.at("K"));
  CHECK(wire::to_vector(call.at("f")) == Vector::Ones(Q.rows()));
  CHECK(wire::to_vector(call.at("i")) == Vector::Ones(Q.rows()));
  for (Eigen::Index t = 0; t < Q.rows(); ++t)
    CHECK(std::abs(K.topRows(t + 1).colwise().sum().dot(Q.row(t))) >= 1.0);
}

TEST_CASE("checks/modern: mlstm's forget gate applied after the write is named") {
  MlstmForm form;
  form.forget_own_token = true;
  const auto v = small_mlstm(form);
  expect_named(v, "mlstm/by-hand", "the forget gate was applied after the write");
  expect_named(v, "mlstm/random-gates", "the forget gate was applied after the write");
}

TEST_CASE("checks/modern: mlstm's gates swapped are named") {
  MlstmForm form;
  form.swap_gates = true;
  const auto v = small_mlstm(form);
  expect_named(v, "mlstm/by-hand", "the gates f and i are swapped");
  expect_named(v, "mlstm/random-gates", "the gates f and i are swapped");
  expect_named(v, "mlstm/floor-and-sign", "the gates f and i are swapped");
  CHECK(v.at("mlstm/linear-attention-limit").passed);  // f = i there: nothing to swap
}

TEST_CASE("checks/modern: mlstm's floor without the absolute value is named") {
  MlstmForm form;
  form.denominator = [](double r) { return std::max(r, 1.0); };
  const auto v = small_mlstm(form);
  expect_named(v, "mlstm/by-hand", "the absolute value is missing");
  expect_named(v, "mlstm/floor-and-sign", "the absolute value is missing");
  // Token 3 of the hand example: n_t^T q_t = -8.
  CHECK(contains(v.at("mlstm/by-hand").message, "n_t^T q_t = -8"));
  CHECK(v.at("mlstm/linear-attention-limit").passed);  // every n_t^T q_t >= 1.44 there
}

TEST_CASE("checks/modern: max(., 1) on the wrong quantity is named") {
  MlstmForm plus_one;  // the floor written as an addition
  plus_one.denominator = [](double r) { return std::abs(r) + 1.0; };
  const auto v = small_mlstm(plus_one);
  expect_named(v, "mlstm/by-hand", "1 was added to the denominator");
  expect_named(v, "mlstm/floor-and-sign", "1 was added to the denominator");
  expect_named(v, "mlstm/linear-attention-limit", "1 was added to the denominator");

  // The floor on the entries of n_t, before the dot product: written here from the gates.
  auto floor_on_entries = [](const json& a) {
    const Matrix Q = wire::to_matrix(a.at("Q")), K = wire::to_matrix(a.at("K")),
                 V = wire::to_matrix(a.at("V"));
    const Vector f = wire::to_vector(a.at("f")), i = wire::to_vector(a.at("i"));
    Matrix H = mlstm_masked(MlstmForm{false, false, [](double) { return 1.0; }}, Q, K, V, f, i);
    for (Eigen::Index t = 0; t < Q.rows(); ++t) {
      Vector n = Vector::Zero(K.cols());  // n_t as a sum: i_s f_{s+1} ... f_t k_s
      for (Eigen::Index s = 0; s <= t; ++s) {
        double g = i(s);
        for (Eigen::Index r = s + 1; r <= t; ++r) g *= f(r);
        n += g * K.row(s).transpose();
      }
      H.row(t) /= n.cwiseAbs().cwiseMax(1.0).dot(Q.row(t));
    }
    return json{{"H", wire::from_matrix(H)}};
  };
  const auto e = judge_small(kMlstm, floor_on_entries);
  expect_named(e, "mlstm/by-hand", "max(., 1) was put on the entries of n_t");
  expect_named(e, "mlstm/floor-and-sign", "max(., 1) was put on the entries of n_t");

  MlstmForm no_floor;  // |n_t^T q_t| alone
  no_floor.denominator = [](double r) { return std::abs(r); };
  const auto w = small_mlstm(no_floor);
  expect_named(w, "mlstm/by-hand", "the floor of 1 is missing");
  CHECK(contains(w.at("mlstm/by-hand").message, "n_t^T q_t = 0.625"));
  CHECK(contains(w.at("mlstm/by-hand").message, "the floor acts here"));
}

TEST_CASE(
    "checks/modern: decayed's decay after the write is named, and RMSNorm hides it at eps = 0") {
  DecayedForm form;
  form.decay_own_token = true;
  const auto v = judge_decayed(form);
  // Every y_t is gamma times too small; with eps = 0 the norm cancels that exactly.
  CHECK(v.at("decayed/by-hand").passed);
  expect_named(v, "decayed/small-gamma", "the decay was applied after the write");
  expect_named(v, "decayed/large-gamma", "the decay was applied after the write");
}

TEST_CASE("checks/modern: SiLU confused with the sigmoid is named") {
  DecayedForm form;
  form.sigmoid_features = true;
  const auto v = judge_decayed(form);
  for (const char* name : {"decayed/by-hand", "decayed/single-token", "decayed/small-gamma",
                           "decayed/large-gamma", "decayed/no-decay", "decayed/rms-and-eps"})
    expect_named(v, name, "the logistic sigmoid was used");
}

TEST_CASE("checks/modern: the RMS over the wrong axis is named") {
  DecayedForm form;
  form.axis = DecayedForm::Axis::Column;
  const auto v = judge_decayed(form);
  expect_named(v, "decayed/by-hand", "the root mean square was taken over the wrong axis");
  expect_named(v, "decayed/rms-and-eps", "the root mean square was taken over the wrong axis");
  CHECK(v.at("decayed/single-token").passed == false);  // one token: a column's RMS is |y_tj|
}

TEST_CASE("checks/modern: the RMS without eps is named") {
  DecayedForm form;
  form.use_eps = false;
  const auto v = judge_decayed(form);
  CHECK(v.at("decayed/by-hand").passed);  // eps = 0 there
  expect_named(v, "decayed/rms-and-eps", "eps is missing from the RMS");
  expect_named(v, "decayed/small-gamma", "eps is missing from the RMS");
  CHECK(contains(v.at("decayed/rms-and-eps").message, "mean(y_t^2) = "));
}

TEST_CASE(
    "checks/modern: a stored state of the wrong shape stops with a hint, not a wrong number") {
  CHECK(contains(fake::check("modern", "mlstm/random-gates").crash_hint, "C is (d_v, d_k)"));
  CHECK(contains(fake::check("modern", "decayed/rms-and-eps").crash_hint, "S is (d_k, d_v)"));
}
