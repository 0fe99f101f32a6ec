// backward: independent correct gradients pass every check; each listed slip, written out here
// on its own as explicit sums over token pairs (not with the oracle's two passes), fails the
// checks meant for it and is named there.
#include "fake_runner.hpp"

#include <doctest/doctest.h>

#include <cmath>

using fake::contains;
using fake::expect_named;
using fake::json;
using fake::Matrix;
using fake::Vector;

namespace {

const std::string kFn = "causal_linear_attention_backward";

struct Out {
  Matrix dFQ, dFK, dV;
};
using Grad = std::function<Out(const Matrix& FQ, const Matrix& FK, const Matrix& V,
                               const Matrix& dO, double eps)>;

fake::Impl impl(Grad f) {
  return [f](const json& a) {
    const Out g =
        f(wire::to_matrix(a.at("FQ")), wire::to_matrix(a.at("FK")), wire::to_matrix(a.at("V")),
          wire::to_matrix(a.at("dO")), a.at("eps").get<double>());
    return json{{"dFQ", wire::from_matrix(g.dFQ)},
                {"dFK", wire::from_matrix(g.dFK)},
                {"dV", wire::from_matrix(g.dV)}};
  };
}

struct Twist {
  bool no_normalizer = false;       // the denominator's derivative left out
  bool no_normalizer_keys = false;  // ... of dFK only
  bool strict_keys = false;         // dFK_s, dV_s summed over t > s
  bool keys_reversed = false;       // dFK_s, dV_s summed over t <= s
  bool eps_dropped = false;         // D_t without eps
};

// The gradients entry by entry from the chain rule over token pairs: o_t = sum_{s<=t} k_ts v_s /
// D_t, k_ts = a_t . b_s, D_t = sum_{s<=t} k_ts + eps. dL/dk_ts = (g_t . v_s - g_t . o_t) / D_t for
// s <= t. O(T^2), which is fine for the small probes; the key sums' range can be twisted.
Grad pairwise(Twist tw) {
  return [tw](const Matrix& FQ, const Matrix& FK, const Matrix& V, const Matrix& dO, double eps) {
    const Eigen::Index T = FQ.rows();
    const double e = tw.eps_dropped ? 0.0 : eps;
    Vector D = Vector::Constant(T, e);
    Matrix O = Matrix::Zero(T, V.cols());
    for (Eigen::Index t = 0; t < T; ++t) {
      for (Eigen::Index s = 0; s <= t; ++s) {
        const double k = FQ.row(t).dot(FK.row(s));
        D(t) += k;
        O.row(t) += k * V.row(s);
      }
      O.row(t) /= D(t);
    }
    Out g{Matrix::Zero(T, FQ.cols()), Matrix::Zero(T, FK.cols()), Matrix::Zero(T, V.cols())};
    for (Eigen::Index t = 0; t < T; ++t) {
      for (Eigen::Index s = 0; s < T; ++s) {
        const double k = FQ.row(t).dot(FK.row(s));
        const double via_num = dO.row(t).dot(V.row(s)) / D(t);
        const double via_den = tw.no_normalizer ? 0.0 : -dO.row(t).dot(O.row(t)) / D(t);
        const double dk = via_num + via_den;         // dL/dk_ts
        if (s <= t) g.dFQ.row(t) += dk * FK.row(s);  // queries: always the true range
        const bool key_range = tw.keys_reversed ? s >= t : (tw.strict_keys ? s < t : s <= t);
        if (key_range) {
          g.dFK.row(s) += (tw.no_normalizer_keys ? via_num : dk) * FQ.row(t);
          g.dV.row(s) += (k / D(t)) * dO.row(t);
        }
      }
    }
    return g;
  };
}

const Grad kCorrect = pairwise({});

// Every check but the two at thousands of tokens (memory-budget, linear-time), where sums over
// token pairs would take minutes; the reference is judged on those two below.
std::map<std::string, grader::Verdict> all(Grad f) {
  std::map<std::string, grader::Verdict> out;
  const fake::Impl run = impl(std::move(f));
  for (const auto& c : fake::exercise("backward").checks)
    if (c.name != "backward/memory-budget" && c.name != "backward/linear-time")
      out[c.name] = fake::judge_with(c, run, c.seed);
  return out;
}

}  // namespace

TEST_CASE("checks/backward: independent gradients over token pairs pass every check of small T") {
  const auto v = all(kCorrect);
  CHECK(v.size() == fake::exercise("backward").checks.size() - 2);
  for (const auto& [name, verdict] : v) CHECK_MESSAGE(verdict.passed, name << verdict.message);
}

TEST_CASE("checks/backward: the seed's hand numbers are what the hand-example check expects") {
  const grader::Check& c = fake::check("backward", "backward/hand-example");
  const json rq = c.request(1);
  const json e = c.expect(rq).at("calls").at(0);
  Matrix dFQ(3, 2), dFK(3, 2), dV(3, 2);
  dFQ << 0, 0, 1.0 / 27, -2.0 / 27, 1.0 / 18, -1.0 / 36;
  dFK << 173.0 / 1296, 154.0 / 1296, -223.0 / 1296, -206.0 / 1296, 5.0 / 144, 10.0 / 144;
  dV << 17.0 / 9, 0, 31.0 / 36, 0, 1.0 / 4, 0;
  CHECK((wire::to_matrix(e.at("dFQ")) - dFQ).cwiseAbs().maxCoeff() < 1e-15);
  CHECK((wire::to_matrix(e.at("dFK")) - dFK).cwiseAbs().maxCoeff() < 1e-15);
  CHECK((wire::to_matrix(e.at("dV")) - dV).cwiseAbs().maxCoeff() < 1e-15);
}

TEST_CASE("checks/backward: the normalizer's derivative left out is named") {
  Twist tw;
  tw.no_normalizer = true;
  const auto v = all(pairwise(tw));
  expect_named(v, "backward/hand-example", "the normalizer's derivative is left out");
  expect_named(v, "backward/constant-values", "the normalizer's derivative is left out");
  expect_named(v, "backward/central-differences", "the normalizer's derivative is left out");
  CHECK(contains(v.at("backward/central-differences").message, "central differences"));
  // Both parts wrong: each says its own term.
  CHECK(contains(v.at("backward/hand-example").message, "adds w_t z_t to dFQ_t"));
  CHECK(contains(v.at("backward/hand-example").message, "over t >= s to dFK_s"));
}

TEST_CASE("checks/backward: when only dFK lacks the normalizer's term, dFQ is not sent for a fix") {
  Twist tw;
  tw.no_normalizer_keys = true;
  const auto v = all(pairwise(tw));
  expect_named(v, "backward/hand-example", "the normalizer's derivative is left out of dFK");
  const std::string& m = v.at("backward/hand-example").message;
  CHECK(contains(m, "over t >= s to dFK_s"));
  CHECK_FALSE(contains(m, "dFQ_t"));
}

TEST_CASE("checks/backward: sums the wrong way in time, and a strict t > s, are named") {
  Twist tw;
  tw.keys_reversed = true;
  expect_named(all(pairwise(tw)), "backward/random",
               "the sums for dFK and dV run the wrong way in time");
  tw = Twist{};
  tw.strict_keys = true;
  const auto v = all(pairwise(tw));
  expect_named(v, "backward/hand-example", "a strict inequality where t >= s is meant");
  expect_named(v, "backward/single-token", "a strict inequality where t >= s is meant");
  // The query side the wrong way: dFQ from the sums over s >= t (via the true pairs' dk).
  const Grad queries_reversed = [](const Matrix& FQ, const Matrix& FK, const Matrix& V,
                                   const Matrix& dO, double eps) {
    Out g = kCorrect(FQ, FK, V, dO, eps);
    const Eigen::Index T = FQ.rows();
    for (Eigen::Index t = 0; t < T; ++t) {
      // dFQ_t = S'_t u_t + w_t z'_t with S', z' summed over s >= t.
      double D = eps, num_dot = 0;
      Vector o = Vector::Zero(V.cols());
      for (Eigen::Index s = 0; s <= t; ++s) {
        D += FQ.row(t).dot(FK.row(s));
        o += FQ.row(t).dot(FK.row(s)) * V.row(s).transpose();
      }
      o /= D;
      num_dot = dO.row(t).dot(o);
      Vector row = Vector::Zero(FQ.cols());
      for (Eigen::Index s = t; s < T; ++s)
        row += (dO.row(t).dot(V.row(s)) - num_dot) / D * FK.row(s).transpose();
      g.dFQ.row(t) = row.transpose();
    }
    return g;
  };
  expect_named(all(queries_reversed), "backward/random",
               "the sums for dFQ run the wrong way in time");
}

TEST_CASE("checks/backward: dFQ and dFK swapped, or dFK transposed, are named") {
  const Grad swapped = [](const Matrix& FQ, const Matrix& FK, const Matrix& V, const Matrix& dO,
                          double eps) {
    const Out g = kCorrect(FQ, FK, V, dO, eps);
    return Out{g.dFK, g.dFQ, g.dV};
  };
  expect_named(all(swapped), "backward/random", "dFQ and dFK are swapped");
  const Grad transposed = [](const Matrix& FQ, const Matrix& FK, const Matrix& V, const Matrix& dO,
                             double eps) {
    const Out g = kCorrect(FQ, FK, V, dO, eps);
    return Out{g.dFQ, g.dFK.transpose(), g.dV};
  };
  const auto v = all(transposed);
  expect_named(v, "backward/random", "dFK is transposed");
  CHECK(contains(v.at("backward/random").message, "That is the expected shape transposed"));
}

TEST_CASE("checks/backward: eps left out fails large-eps and central-differences, and is named") {
  Twist tw;
  tw.eps_dropped = true;
  const auto v = all(pairwise(tw));
  expect_named(v, "backward/large-eps", "eps is left out of the denominator");
  REQUIRE_FALSE(v.at("backward/central-differences").passed);  // eps = 0.5 there
  CHECK(v.at("backward/hand-example").passed);                 // eps = 0
}

TEST_CASE("checks/backward: the memory rule's budget and hint") {
  const grader::Check& mem = fake::check("backward", "backward/memory-budget");
  REQUIRE(mem.heap_budget_bytes);
  CHECK(*mem.heap_budget_bytes == 46399488);  // 2*8*5*8192*64 + 2*8*4*4096 + 4 MiB
  CHECK(*mem.heap_budget_bytes * 5 < (256ull << 20));
  const json rq = mem.request(1);
  CHECK(rq.at("calls").at(0).at("FQ").at("rows") == 8192);
  REQUIRE(mem.memory_hint);
  CHECK(contains(mem.memory_hint(rq, 512ull << 20), "a state for every token"));
  // The reference's two passes pass it (values; the heap is measured by the real runner only),
  // and the time check (no time is measured here, only the values at T = 512, 2048 and 8192).
  CHECK(fake::judge_with(mem, fake::reference(kFn), mem.seed).passed);
  const grader::Check& time = fake::check("backward", "backward/linear-time");
  CHECK(time.request(1).at("calls").at(2).at("FQ").at("rows") == 8192);
  CHECK(fake::judge_with(time, fake::reference(kFn), time.seed).passed);
}

TEST_CASE(
    "checks/backward: central differences are judged at 1e-6, and a near miss of that fails") {
  // Central differences with h = 1e-5 are themselves off by about 1e-9, so this check allows
  // 1e-6 (absolute and relative): 0.4 of that on every entry passes, 2 times it on one fails.
  const grader::Check& c = fake::check("backward", "backward/central-differences");
  const auto shifted = [](double fraction, bool every) {
    return [fraction, every](const json& call) {
      json r = fake::reference_result(kFn, call);
      for (const char* part : {"dFQ", "dFK", "dV"})
        for (auto& x : r.at(part).at("data")) {
          const double v = x.get<double>();
          x = v + fraction * (1e-6 + 1e-6 * std::fabs(v));
          if (!every) return r;
        }
      return r;
    };
  };
  CHECK(fake::judge_with(c, shifted(0.4, true), c.seed).passed);
  const grader::Verdict v = fake::judge_with(c, shifted(2.0, false), c.seed);
  CHECK_FALSE(v.passed);
  CHECK(contains(v.message, "tolerance: |got - expected| <= 1e-06 + 1e-06 * |expected|"));
}
