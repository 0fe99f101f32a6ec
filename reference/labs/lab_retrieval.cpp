// Lab "retrieval" (cell 4): an outer-product memory of width d, read back with its own keys.
#include "labs.hpp"

#include <cmath>
#include <limits>
#include <ostream>

namespace linlab {

namespace {

// d orthonormal rows: the Q factor of a Gaussian matrix, (d, d).
linref::Matrix orthonormal_rows(Eigen::Index d, linref::Rng& rng) {
  const linref::Matrix A = rng.normal_matrix(d, d);
  Eigen::HouseholderQR<linref::Matrix> qr(A);
  return qr.householderQ() * linref::Matrix::Identity(d, d);
}

}  // namespace

RetrievalResult compute_retrieval(Eigen::Index d, std::uint64_t seed, int trials) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  RetrievalResult r;
  r.d = d;
  r.trials = trials;
  linref::Rng rng(seed);
  for (Eigen::Index n : {1, 2, 4, 8, 16, 32, 48, 64, 96, 128, 256, 512}) {
    if (n > 8 * d) break;
    RetrievalRow row{n, nan, nan, 0.0, 0.0, 0.0, 0.0};
    // Orthonormal keys exist only up to n = d; past it the column is nan.
    if (n <= d) {
      const linref::Matrix K = orthonormal_rows(d, rng).topRows(n);
      const linref::Matrix V = rng.normal_matrix(n, d);
      row.ortho_cosine = linref::retrieval_cosine(K, V);
      row.ortho_crosstalk = linref::crosstalk_energy(K);
    }
    for (int tr = 0; tr < trials; ++tr) {
      const linref::Matrix K = rng.unit_rows(n, d);
      const linref::Matrix V = rng.normal_matrix(n, d);
      row.random_cosine += linref::retrieval_cosine(K, V) / trials;
      row.random_crosstalk += linref::crosstalk_energy(K) / trials;
    }
    const double load = static_cast<double>(n - 1) / static_cast<double>(d);
    row.predicted_cosine = 1.0 / std::sqrt(1.0 + load);
    row.predicted_crosstalk = load;
    r.rows.push_back(row);
  }
  return r;
}

int run_retrieval(const Options& opt, std::ostream& os) {
  heading(os, "retrieval", "cell 4",
          "Write n pairs into S = sum_s k_s v_s^T (unit keys, d = 64, values N(0, I_64)), read "
          "each\nback with its key. Random keys: 20 trials averaged. Orthonormal keys: rows of "
          "a random\northogonal matrix, which run out at n = d.");
  const RetrievalResult r = compute_retrieval();
  Table t({"n", "ortho cos", "ortho crosstalk", "random cos", "1/sqrt(1+(n-1)/d)",
           "random crosstalk", "(n-1)/d"});
  const RetrievalRow* at_d = nullptr;
  for (const auto& row : r.rows) {
    t.row({std::to_string(row.n), fmt(row.ortho_cosine, 4), fmt(row.ortho_crosstalk, 4),
           fmt(row.random_cosine, 4), fmt(row.predicted_cosine, 4), fmt(row.random_crosstalk, 4),
           fmt(row.predicted_crosstalk, 4)});
    if (row.n == r.d) at_d = &row;
  }
  t.print(os);
  if (at_d) {
    seed_vs_measured(
        os, "random keys at n = d: retrieval cosine", "about 0.71 = 1/sqrt(1 + (d-1)/d)",
        fmt(at_d->random_cosine, 4) + " (formula " + fmt(at_d->predicted_cosine, 4) + ")");
    seed_vs_measured(os, "random keys at n = d: crosstalk energy",
                     "(n-1)/d = " + fmt(at_d->predicted_crosstalk, 4),
                     fmt(at_d->random_crosstalk, 4));
    seed_vs_measured(os, "orthonormal keys", "exact up to n = d, nan beyond",
                     "cosine " + fmt(at_d->ortho_cosine, 12) + " at n = d; nan past it");
  }
  Plot p;
  p.stem = "retrieval";
  p.title = "Outer-product memory, d = 64: retrieval cosine";
  p.xlabel = "pairs stored n";
  p.ylabel = "mean cosine(read, stored value)";
  p.logx = true;
  Series o{"orthonormal keys", {}, {}}, m{"random keys, measured", {}, {}},
      f{"1/sqrt(1 + (n-1)/d)", {}, {}, "lines dt 2"};
  for (const auto& row : r.rows) {
    const double x = static_cast<double>(row.n);
    o.x.push_back(x), o.y.push_back(row.ortho_cosine);
    m.x.push_back(x), m.y.push_back(row.random_cosine);
    f.x.push_back(x), f.y.push_back(row.predicted_cosine);
  }
  p.series = {o, m, f};
  p.extra.push_back("set yrange [0:1.05]");
  write_plot(opt, p, os);
  return 0;
}

}  // namespace linlab
