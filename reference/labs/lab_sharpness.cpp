// Lab "sharpness" (the section's first figure): one query, 32 keys, one of them relevant.
// How much weight does each kernel put on the relevant key as the query is scaled up?
#include "labs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>

namespace linlab {

namespace {

constexpr Eigen::Index kKeys = 32, kDk = 16;

// Normalized weights of one query (row 0 of FQ) over the keys (rows of FK).
linref::Vector weights(const linref::Matrix& FQ, const linref::Matrix& FK) {
  linref::Vector k = FK * FQ.row(0).transpose();  // (n_keys)
  const double total = k.sum();
  if (!(total > 0.0) || !std::isfinite(total))
    return linref::Vector::Constant(k.size(), std::numeric_limits<double>::quiet_NaN());
  return k / total;
}

linref::Vector softmax_weights_one(const linref::Vector& scores) {
  const linref::Vector e = (scores.array() - scores.maxCoeff()).exp();
  return e / e.sum();
}

const std::vector<linref::Matrix>& omegas_for(const SharpnessProblem& p, Eigen::Index d_phi) {
  const auto at = std::find(p.rf_dphi.begin(), p.rf_dphi.end(), d_phi);
  if (at == p.rf_dphi.end())
    throw std::invalid_argument("no Omega drawn for d_phi = " + std::to_string(d_phi));
  return p.omegas[static_cast<std::size_t>(at - p.rf_dphi.begin())];
}

}  // namespace

SharpnessProblem sharpness_problem(std::uint64_t seed, const std::vector<Eigen::Index>& rf_dphi,
                                   int rf_draws) {
  SharpnessProblem p{{}, {}, rf_dphi, {}, linref::Rng(seed)};
  // Keys N(0, 1); key 0 is the relevant one and the query equals it. Every map sees queries
  // and keys divided by d_k^{1/4}, so that their dot product is the softmax score
  // q.k / sqrt(d_k); sharpness c multiplies the query.
  const double temp = std::pow(static_cast<double>(kDk), -0.25);
  p.K = temp * p.rng.normal_matrix(kKeys, kDk);  // (32, 16)
  p.q = p.K.row(0);                              // (1, 16)
  p.omegas.resize(rf_dphi.size());
  for (std::size_t i = 0; i < rf_dphi.size(); ++i)
    for (int dr = 0; dr < rf_draws; ++dr)
      p.omegas[i].push_back(linref::gaussian_omega(rf_dphi[i], kDk, p.rng));
  return p;
}

linref::Vector sharpness_weights(const SharpnessProblem& p, SharpnessMap map, double c,
                                 Eigen::Index d_phi) {
  const linref::Matrix qc = c * p.q;
  switch (map) {
    case SharpnessMap::Softmax: return softmax_weights_one(p.K * qc.transpose());
    case SharpnessMap::Elu: return weights(linref::elu_plus_one(qc), linref::elu_plus_one(p.K));
    case SharpnessMap::Relu: return weights(linref::relu(qc), linref::relu(p.K));
    case SharpnessMap::Taylor:
      return weights(linref::taylor_features(qc), linref::taylor_features(p.K));
    case SharpnessMap::RandomFeatures: break;
  }
  const auto& draws = omegas_for(p, d_phi);
  // The mean over the draws of Omega of each draw's weights (the lab's figure is its entry 0).
  linref::Vector sum = linref::Vector::Zero(p.K.rows());
  for (std::size_t dr = 0; dr < draws.size(); ++dr) sum += sharpness_weights_draw(p, c, d_phi, dr);
  return sum / static_cast<double>(draws.size());
}

linref::Vector sharpness_weights_draw(const SharpnessProblem& p, double c, Eigen::Index d_phi,
                                      std::size_t draw) {
  const auto& draws = omegas_for(p, d_phi);
  if (draw >= draws.size()) throw std::invalid_argument("no draw " + std::to_string(draw));
  const linref::Matrix qc = c * p.q;
  const linref::Matrix& Om = draws[draw];
  return weights(linref::positive_random_features(qc, Om),
                 linref::positive_random_features(p.K, Om));
}

double sharpness_kernel_error(const SharpnessProblem& p, double c, Eigen::Index d_phi,
                              std::size_t draw) {
  const auto& draws = omegas_for(p, d_phi);
  if (draw >= draws.size()) throw std::invalid_argument("no draw " + std::to_string(draw));
  const linref::Matrix qc = c * p.q;
  const linref::Matrix& Om = draws[draw];
  const linref::Vector est = linref::positive_random_features(p.K, Om) *
                             linref::positive_random_features(qc, Om).row(0).transpose();
  const linref::Vector exact = (p.K * qc.transpose()).array().exp();
  return ((est - exact).array().abs() / exact.array()).mean();
}

SharpnessResult compute_sharpness(std::uint64_t seed) {
  using linref::Matrix;
  using linref::Vector;
  SharpnessResult r;
  r.n_keys = kKeys;
  r.d_k = kDk;
  r.rf_dphi = {16, 64, 512};
  r.rf_draws = 10;
  SharpnessProblem p = sharpness_problem(seed, r.rf_dphi, r.rf_draws);
  const Matrix& K = p.K;
  const Matrix& q = p.q;
  linref::Rng& rng = p.rng;

  for (double c : {0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0}) {
    SharpnessRow row;
    row.sharpness = c;
    row.softmax = sharpness_weights(p, SharpnessMap::Softmax, c)(0);
    row.elu = sharpness_weights(p, SharpnessMap::Elu, c)(0);
    row.relu = sharpness_weights(p, SharpnessMap::Relu, c)(0);
    row.taylor = sharpness_weights(p, SharpnessMap::Taylor, c)(0);
    for (Eigen::Index d_phi : r.rf_dphi)
      row.rf.push_back(sharpness_weights(p, SharpnessMap::RandomFeatures, c, d_phi)(0));
    r.rows.push_back(row);
  }

  // elu+1's limit: phi(c q) / c -> relu(q), so the weights tend to relu(q)^T phi(k_s), normalized.
  r.elu_limit_predicted = weights(linref::relu(q), linref::elu_plus_one(K))(0);
  r.large_sharpness = 1e6;
  r.elu_at_large = weights(linref::elu_plus_one(r.large_sharpness * q), linref::elu_plus_one(K))(0);

  // Ten fresh draws of random features at sharpness 1 and d_phi = 512.
  const Vector exact = (K * q.transpose()).array().exp();  // exp(score), (32)
  const Vector p_sm = exact / exact.sum();
  for (int dr = 0; dr < 10; ++dr) {
    const Matrix Om = linref::gaussian_omega(512, kDk, rng);
    const Matrix FQ = linref::positive_random_features(q, Om);
    const Matrix FK = linref::positive_random_features(K, Om);
    const Vector est = FK * FQ.row(0).transpose();
    const Vector p_rf = est / est.sum();
    r.misplaced.push_back(0.5 * (p_rf - p_sm).cwiseAbs().sum());
    r.kernel_error.push_back(((est - exact).array().abs() / exact.array()).mean());
  }
  return r;
}

int run_sharpness(const Options& opt, std::ostream& os) {
  heading(os, "sharpness", "first figure",
          "Construction (ours, not the seed's widget): 32 keys with N(0, 1) entries, d_k = 16; "
          "the\nquery equals key 1, the relevant one. Every map sees q and k divided by "
          "d_k^{1/4}; the\nsharpness c multiplies the query. Random-feature columns: mean "
          "over 10 draws of Omega.\nEntries: the weight on the relevant key (uniform would "
          "be 1/32 = 0.031).");
  const SharpnessResult r = compute_sharpness();
  std::vector<std::string> head = {"sharpness", "softmax", "elu+1", "ReLU", "Taylor"};
  for (Eigen::Index d : r.rf_dphi) head.push_back("RF d_phi=" + std::to_string(d));
  Table t(head);
  for (const auto& row : r.rows) {
    std::vector<std::string> cells = {fmt(row.sharpness, 2), fmt(row.softmax, 4), fmt(row.elu, 4),
                                      fmt(row.relu, 4), fmt(row.taylor, 4)};
    for (double w : row.rf) cells.push_back(fmt(w, 4));
    t.row(cells);
  }
  t.print(os);
  seed_vs_measured(os, "ReLU as the query grows", "does not move (homogeneous map)",
                   "from " + fmt(r.rows.front().relu, 6) + " to " + fmt(r.rows.back().relu, 6));
  seed_vs_measured(os, "elu+1 as the query grows",
                   "creeps up, then stops at the limit relu(q)^T phi(k) (near uniform)",
                   "limit predicted " + fmt(r.elu_limit_predicted, 4) + ", at c = 1e6 " +
                       fmt(r.elu_at_large, 4));
  seed_vs_measured(os, "Taylor at large sharpness", "rises, then levels off far below softmax",
                   fmt(r.rows.back().taylor, 4) + " vs softmax " + fmt(r.rows.back().softmax, 4) +
                       " at c = " + fmt(r.rows.back().sharpness, 0));
  std::vector<double> m = r.misplaced, e = r.kernel_error;
  std::sort(m.begin(), m.end());
  std::sort(e.begin(), e.end());
  os << "\n  ten draws of random features, sharpness 1, d_phi = 512 (sorted):\n  misplaced: ";
  for (double x : m) os << fmt_pct(x, 0) << ' ';
  os << "\n  kernel err: ";
  for (double x : e) os << fmt_pct(x, 0) << ' ';
  os << "\n";
  seed_vs_measured(os, "weight misplaced (half the L1 distance to the softmax weights)",
                   "16% to 45%, about 22% in a typical draw (the seed's widget)",
                   fmt_pct(m.front(), 0) + " to " + fmt_pct(m.back(), 0) + ", median " +
                       fmt_pct(0.5 * (m[4] + m[5]), 0) + " (our construction)");
  seed_vs_measured(os, "mean relative kernel error over the 32 keys",
                   "37% to 87% (the seed's widget)",
                   fmt_pct(e.front(), 0) + " to " + fmt_pct(e.back(), 0) + ", median " +
                       fmt_pct(0.5 * (e[4] + e[5]), 0) + " (our construction)");
  os << "  The seed's widget uses its own query and keys, so only the order of magnitude is "
        "comparable.\n";

  Plot p;
  p.stem = "sharpness";
  p.title = "Weight on the relevant key (1 of 32), d_k = 16";
  p.xlabel = "sharpness (query scale)";
  p.ylabel = "weight";
  p.logx = true;
  Series sm{"softmax", {}, {}}, el{"elu+1", {}, {}}, re{"ReLU", {}, {}}, ta{"Taylor", {}, {}};
  std::vector<Series> rf;
  for (Eigen::Index d : r.rf_dphi)
    rf.push_back({"random features d_phi=" + std::to_string(d), {}, {}});
  for (const auto& row : r.rows) {
    const double x = row.sharpness;
    sm.x.push_back(x), sm.y.push_back(row.softmax);
    el.x.push_back(x), el.y.push_back(row.elu);
    re.x.push_back(x), re.y.push_back(row.relu);
    ta.x.push_back(x), ta.y.push_back(row.taylor);
    for (std::size_t i = 0; i < rf.size(); ++i) rf[i].x.push_back(x), rf[i].y.push_back(row.rf[i]);
  }
  p.series = {sm, el, re, ta};
  p.series.insert(p.series.end(), rf.begin(), rf.end());
  p.extra.push_back("set yrange [0:1.05]");
  write_plot(opt, p, os);
  return 0;
}

}  // namespace linlab
