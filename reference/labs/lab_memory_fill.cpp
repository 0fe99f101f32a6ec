// Lab "memory-fill" (the section's second figure): a d = 32 outer-product memory written one
// pair at a time, read back with every stored key after each write.
#include "labs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <ostream>

namespace linlab {

linref::Matrix memory_fill_keys(MemoryKeys kind, Eigen::Index n_max, Eigen::Index d, double a,
                                linref::Rng& rng) {
  if (kind == MemoryKeys::Orthonormal) {
    Eigen::HouseholderQR<linref::Matrix> qr(rng.normal_matrix(d, d));
    return qr.householderQ() * linref::Matrix::Identity(d, d);
  }
  linref::Matrix K = rng.unit_rows(n_max, d);
  if (kind == MemoryKeys::Random) return K;
  // Correlated: k = a u + sqrt(1 - a^2) r with one shared unit direction u and r a random unit
  // vector orthogonal to u, so every key has length 1 and k_s . k_j = a^2 + (1 - a^2) r_s . r_j.
  const linref::Vector u = rng.unit_rows(1, d).row(0).transpose();
  const double b = std::sqrt(1.0 - a * a);
  for (Eigen::Index s = 0; s < n_max; ++s) {
    linref::Vector r = K.row(s).transpose();
    r -= r.dot(u) * u;
    r.normalize();
    K.row(s) = (a * u + b * r).transpose();
  }
  return K;
}

std::vector<std::vector<double>> memory_fill_cosines(const linref::Matrix& K,
                                                     const linref::Matrix& V, Eigen::Index n_max) {
  std::vector<std::vector<double>> out;
  linref::Matrix S = linref::Matrix::Zero(K.cols(), V.cols());  // (d_k, d_v)
  for (Eigen::Index n = 1; n <= std::min(n_max, K.rows()); ++n) {
    S.noalias() += K.row(n - 1).transpose() * V.row(n - 1);  // write pair n
    std::vector<double> cos;
    for (Eigen::Index j = 0; j < n; ++j) {
      const linref::Vector got = linref::memory_read(S, K.row(j).transpose());
      cos.push_back(got.dot(V.row(j)) / (got.norm() * V.row(j).norm()));
    }
    out.push_back(std::move(cos));
  }
  return out;
}

namespace {

// Mean retrieval cosine after each of the writes 1..n_max (nan once the keys run out).
std::vector<double> fill(const linref::Matrix& K, const linref::Matrix& V, Eigen::Index n_max) {
  std::vector<double> cos(static_cast<std::size_t>(n_max),
                          std::numeric_limits<double>::quiet_NaN());
  const auto per_pair = memory_fill_cosines(K, V, n_max);
  for (std::size_t i = 0; i < per_pair.size(); ++i) {
    double sum = 0.0;
    for (double c : per_pair[i]) sum += c;
    cos[i] = sum / static_cast<double>(per_pair[i].size());
  }
  return cos;
}

}  // namespace

MemoryFillResult compute_memory_fill(std::uint64_t seed, int trials) {
  MemoryFillResult r;
  r.d = 32;
  r.n_max = 96;
  r.shared_weight = std::sqrt(0.5);
  r.trials = trials;
  const auto n = static_cast<std::size_t>(r.n_max);
  r.ortho.assign(n, 0.0);
  r.random.assign(n, 0.0);
  r.correlated.assign(n, 0.0);
  linref::Rng rng(seed);
  for (int t = 0; t < trials; ++t) {
    const linref::Matrix V = rng.normal_matrix(r.n_max, r.d);  // values, (n_max, d)
    const auto o =
        fill(memory_fill_keys(MemoryKeys::Orthonormal, r.n_max, r.d, 0.0, rng), V, r.n_max);
    const auto x = fill(memory_fill_keys(MemoryKeys::Random, r.n_max, r.d, 0.0, rng), V, r.n_max);
    const auto c = fill(
        memory_fill_keys(MemoryKeys::Correlated, r.n_max, r.d, r.shared_weight, rng), V, r.n_max);
    for (std::size_t i = 0; i < n; ++i) {
      r.ortho[i] += o[i] / trials;  // nan stays nan past d
      r.random[i] += x[i] / trials;
      r.correlated[i] += c[i] / trials;
    }
  }
  const double a2 = r.shared_weight * r.shared_weight, b2 = 1.0 - a2;
  for (std::size_t i = 0; i < n; ++i) {
    const double others = static_cast<double>(i);  // n - 1
    r.random_predicted.push_back(1.0 / std::sqrt(1.0 + others / static_cast<double>(r.d)));
    // E[(k_s . k_j)^2] = a^4 + b^4 / (d - 1) for the correlated keys.
    r.correlated_predicted.push_back(
        1.0 / std::sqrt(1.0 + others * (a2 * a2 + b2 * b2 / static_cast<double>(r.d - 1))));
  }
  return r;
}

int run_memory_fill(const Options& opt, std::ostream& os) {
  heading(os, "memory-fill", "second figure",
          "A 32 x 32 memory S += k v^T, one pair per write; after write n every stored key is "
          "read\nback and the cosine with its value averaged (20 trials). Correlated keys share "
          "one\ndirection: k = u/sqrt(2) + r/sqrt(2), r a random unit vector orthogonal to u "
          "(key cosines 0.5).");
  const MemoryFillResult r = compute_memory_fill();
  Table t({"n", "orthonormal", "random", "random formula", "correlated", "correlated formula"});
  for (Eigen::Index n : {1, 2, 4, 8, 16, 24, 32, 33, 48, 64, 96}) {
    const auto i = static_cast<std::size_t>(n - 1);
    t.row({std::to_string(n), fmt(r.ortho[i], 4), fmt(r.random[i], 4),
           fmt(r.random_predicted[i], 4), fmt(r.correlated[i], 4),
           fmt(r.correlated_predicted[i], 4)});
  }
  t.print(os);
  const auto at_d = static_cast<std::size_t>(r.d - 1);
  seed_vs_measured(os, "orthonormal keys", "exact until the d-th pair; no more such keys exist",
                   "cosine " + fmt(r.ortho[at_d], 12) + " at n = 32, nan after");
  seed_vs_measured(os, "random keys at n = d", "1/sqrt(1 + (n-1)/d), about 0.71",
                   fmt(r.random[at_d], 4));
  seed_vs_measured(os, "correlated keys at n = d",
                   "worse than random: the shared direction leaks into every read",
                   fmt(r.correlated[at_d], 4) + " (formula 1/sqrt(1 + (n-1)(a^4 + b^4/(d-1))) = " +
                       fmt(r.correlated_predicted[at_d], 4) + ")");
  Plot p;
  p.stem = "memory-fill";
  p.title = "Filling a d = 32 memory one pair at a time";
  p.xlabel = "pairs written n";
  p.ylabel = "mean retrieval cosine";
  // Measured curves solid with point shapes, the formulas dashed in their keys' colour.
  const std::string measured = "linespoints lw 2 dt 1 pointinterval 8";
  Series o{"orthonormal keys", {}, {}, measured}, x{"random keys", {}, {}, measured},
      xf{"random: 1/sqrt(1+(n-1)/d)", {}, {}, "lines dt 2 lc rgb '" + plot_colours()[1] + "'"},
      c{"correlated keys", {}, {}, measured},
      cf{"correlated: formula", {}, {}, "lines dt 2 lc rgb '" + plot_colours()[3] + "'"};
  for (std::size_t i = 0; i < r.random.size(); ++i) {
    const double n = static_cast<double>(i + 1);
    o.x.push_back(n), o.y.push_back(r.ortho[i]);
    x.x.push_back(n), x.y.push_back(r.random[i]);
    xf.x.push_back(n), xf.y.push_back(r.random_predicted[i]);
    c.x.push_back(n), c.y.push_back(r.correlated[i]);
    cf.x.push_back(n), cf.y.push_back(r.correlated_predicted[i]);
  }
  p.series = {o, x, xf, c, cf};
  p.extra.push_back("set yrange [0:1.05]");
  p.extra.push_back("set arrow from 32, graph 0 to 32, graph 1 nohead dashtype 3");
  write_plot(opt, p, os);
  return 0;
}

}  // namespace linlab
