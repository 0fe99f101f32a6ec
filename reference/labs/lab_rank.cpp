// Lab "rank" (cell 6): the softmax kernel matrix is full rank, a feature-map kernel matrix has
// rank at most d_phi, and so do its blocks below the diagonal.
#include "labs.hpp"

#include <cmath>
#include <limits>
#include <ostream>
#include <sstream>

namespace linlab {

Eigen::Index numerical_rank(const linref::Matrix& A, double* tol, linref::Vector* sv) {
  Eigen::BDCSVD<linref::Matrix> svd(A);  // singular values only, descending
  const linref::Vector s = svd.singularValues();
  // NumPy's matrix_rank default: sigma_max * max(m, n) * machine epsilon.
  const double t = (s.size() ? s(0) : 0.0) * static_cast<double>(std::max(A.rows(), A.cols())) *
                   std::numeric_limits<double>::epsilon();
  Eigen::Index rank = 0;
  for (Eigen::Index i = 0; i < s.size(); ++i)
    if (s(i) > t) ++rank;
  if (tol) *tol = t;
  if (sv) *sv = s;
  return rank;
}

namespace {

// exp(Q K^T / sqrt(d_k)) entry by entry, (T, T).
linref::Matrix softmax_kernel_matrix(const linref::Matrix& Q, const linref::Matrix& K) {
  return (Q * K.transpose() / std::sqrt(static_cast<double>(Q.cols()))).array().exp();
}

}  // namespace

RankResult compute_rank(std::uint64_t seed) {
  using linref::Matrix;
  RankResult r;
  r.T = 256;
  r.d_k = 16;
  r.scale = 1.0;
  const Eigen::Index h = r.T / 2;
  linref::Rng rng(seed);
  const Matrix Q0 = rng.normal_matrix(r.T, r.d_k), K0 = rng.normal_matrix(r.T, r.d_k);
  const Matrix Q = r.scale * Q0, K = r.scale * K0;

  const Matrix E = softmax_kernel_matrix(Q, K);
  r.softmax_rank = numerical_rank(E, &r.softmax_tol, &r.softmax_sv);
  // Lower-left block: the later half of the queries against the earlier half of the keys.
  r.softmax_block_rank = numerical_rank(E.bottomLeftCorner(h, h));

  const Matrix A = linref::elu_plus_one(Q) * linref::elu_plus_one(K).transpose();
  r.elu_rank = numerical_rank(A, &r.elu_tol, &r.elu_sv);
  r.elu_block_rank = numerical_rank(A.bottomLeftCorner(h, h));
  Matrix M = A;
  M.triangularView<Eigen::StrictlyUpper>().setZero();
  r.elu_masked_rank = numerical_rank(M);

  // How the softmax matrix's rank depends on the size of the scores.
  for (double s : {0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 2.0, 3.0, 4.0})
    r.softmax_rank_by_scale.push_back({s, numerical_rank(softmax_kernel_matrix(s * Q0, s * K0))});
  return r;
}

int run_rank(const Options& opt, std::ostream& os) {
  heading(os, "rank", "cell 6",
          "Construction: T = 256 queries and keys, d_k = 16, entries N(0, 1), so the scores "
          "q.k/sqrt(d_k)\nhave unit variance. Softmax kernel matrix exp(Q K^T / sqrt(d_k)); "
          "elu+1 matrix\nphi(Q) phi(K)^T. Lower-left block: queries 129..256 against keys "
          "1..128. Numerical rank:\nsingular values above sigma_max * max(m, n) * 2^-52 "
          "(NumPy's matrix_rank default).");
  const RankResult r = compute_rank();
  Table t({"matrix", "seed rank", "measured rank", "sigma_max", "threshold", "next sigma"});
  auto next = [](const linref::Vector& s, Eigen::Index rank) {
    return rank < s.size() ? fmt_sci(s(rank)) : std::string("(none)");
  };
  t.row({"softmax, 256 x 256", "256", std::to_string(r.softmax_rank), fmt_sci(r.softmax_sv(0)),
         fmt_sci(r.softmax_tol), next(r.softmax_sv, r.softmax_rank)});
  t.row({"softmax, lower-left 128 x 128", "128", std::to_string(r.softmax_block_rank), "", "", ""});
  t.row({"elu+1, 256 x 256", "16", std::to_string(r.elu_rank), fmt_sci(r.elu_sv(0)),
         fmt_sci(r.elu_tol), next(r.elu_sv, r.elu_rank)});
  t.row({"elu+1, lower-left 128 x 128", "16", std::to_string(r.elu_block_rank), "", "", ""});
  t.row({"elu+1 with the causal mask", "(raised)", std::to_string(r.elu_masked_rank), "", "", ""});
  t.print(os);
  os << "  smallest softmax singular value: " << fmt_sci(r.softmax_sv(r.softmax_sv.size() - 1))
     << "; elu+1 sigma_16 = " << fmt_sci(r.elu_sv(15)) << ", sigma_17 = " << fmt_sci(r.elu_sv(16))
     << "\n\n";
  Table s({"entries of Q, K: N(0, c^2), c =", "score std c^2", "softmax rank (of 256)"});
  for (const auto& [c, rank] : r.softmax_rank_by_scale) {
    std::ostringstream cs, vs;
    cs << c;
    vs << c * c;
    s.row({cs.str(), vs.str(), std::to_string(rank)});
  }
  s.print(os);
  os << "  Tiny scores make exp(s) almost a low-degree polynomial in s, of rank at most 1, "
        "17, 153, ...\n  for degree 0, 1, 2 (d_k = 16); very large scores let one key "
        "dominate each row, and the\n  spread of the entries outruns double precision. "
        "Scores of order one (our construction:\n  c = 1) give a numerically full-rank "
        "matrix.\n";
  seed_vs_measured(os, "ranks (softmax, its block; elu+1, its block)", "256, 128; 16, 16",
                   std::to_string(r.softmax_rank) + ", " + std::to_string(r.softmax_block_rank) +
                       "; " + std::to_string(r.elu_rank) + ", " + std::to_string(r.elu_block_rank));
  Plot p;
  p.stem = "rank";
  p.title = "Singular values, T = 256, d_k = 16";
  p.xlabel = "index";
  p.ylabel = "singular value / largest";
  p.logy = true;
  Series a{"softmax exp(QK^T/sqrt(d_k))", {}, {}, "lines"},
      b{"elu+1 phi(Q)phi(K)^T", {}, {}, "lines"},
      th{"threshold (256 * 2^-52)", {}, {}, "lines dt 2"};
  for (Eigen::Index i = 0; i < r.softmax_sv.size(); ++i) {
    a.x.push_back(static_cast<double>(i + 1));
    a.y.push_back(r.softmax_sv(i) / r.softmax_sv(0));
    b.x.push_back(static_cast<double>(i + 1));
    b.y.push_back(std::max(r.elu_sv(i) / r.elu_sv(0), 1e-300));
    th.x.push_back(static_cast<double>(i + 1));
    th.y.push_back(256 * std::numeric_limits<double>::epsilon());
  }
  p.series = {a, b, th};
  p.extra.push_back("set yrange [1e-20:2]");
  p.extra.push_back("set xrange [1:256]");
  write_plot(opt, p, os);
  const bool ok = r.softmax_rank == r.T && r.softmax_block_rank == r.T / 2 && r.elu_rank == r.d_k &&
                  r.elu_block_rank == r.d_k;
  return ok ? 0 : 1;
}

}  // namespace linlab
