// Lab "gradients" (the PyTorch block): three forward forms of causal linear attention, and
// hand-derived gradients computed with running sums, checked two ways.
#include "labs.hpp"

#include <linref/gradients.hpp>

#include <algorithm>
#include <cmath>
#include <ostream>

namespace linlab {

namespace {

double max_abs(const linref::LinearAttentionGrads& g) {
  return std::max(
      {g.dQ.cwiseAbs().maxCoeff(), g.dK.cwiseAbs().maxCoeff(), g.dV.cwiseAbs().maxCoeff()});
}

double max_diff(const linref::LinearAttentionGrads& a, const linref::LinearAttentionGrads& b) {
  return std::max({(a.dQ - b.dQ).cwiseAbs().maxCoeff(), (a.dK - b.dK).cwiseAbs().maxCoeff(),
                   (a.dV - b.dV).cwiseAbs().maxCoeff()});
}

// Central differences of L = sum(O .* G) with respect to every entry of Q, K and V.
linref::LinearAttentionGrads finite_differences(const linref::Matrix& Q, const linref::Matrix& K,
                                                const linref::Matrix& V, const linref::Matrix& G,
                                                double h) {
  linref::LinearAttentionGrads g{linref::Matrix(Q.rows(), Q.cols()),
                                 linref::Matrix(K.rows(), K.cols()),
                                 linref::Matrix(V.rows(), V.cols())};
  linref::Matrix q = Q, k = K, v = V;
  auto sweep = [&](linref::Matrix& X, linref::Matrix& out) {
    for (Eigen::Index i = 0; i < X.rows(); ++i)
      for (Eigen::Index j = 0; j < X.cols(); ++j) {
        const double x0 = X(i, j);
        X(i, j) = x0 + h;
        const double up = linref::causal_elu_loss(q, k, v, G);
        X(i, j) = x0 - h;
        const double down = linref::causal_elu_loss(q, k, v, G);
        X(i, j) = x0;
        out(i, j) = (up - down) / (2.0 * h);
      }
  };
  sweep(q, g.dQ);
  sweep(k, g.dK);
  sweep(v, g.dV);
  return g;
}

}  // namespace

GradientsResult compute_gradients(std::uint64_t seed) {
  using linref::Matrix;
  GradientsResult r;
  linref::Rng rng(seed);
  // Forms and the two analytic gradients: d_k != d_v so a transposed state would show.
  r.T = 256;
  r.d_k = 16;
  r.d_v = 8;
  const Matrix Q = rng.normal_matrix(r.T, r.d_k), K = rng.normal_matrix(r.T, r.d_k),
               V = rng.normal_matrix(r.T, r.d_v), G = rng.normal_matrix(r.T, r.d_v);
  const Matrix FQ = linref::elu_plus_one(Q), FK = linref::elu_plus_one(K);
  const Matrix rec = linref::causal_recurrent_from_features(FQ, FK, V);
  const Matrix quad = linref::causal_linear_attention_parallel(Q, K, V, linref::elu_plus_one);
  const Matrix cum = linref::causal_cumsum_from_features(FQ, FK, V);
  r.forms_quadratic_vs_recurrent = (quad - rec).cwiseAbs().maxCoeff();
  r.forms_cumsum_vs_recurrent = (cum - rec).cwiseAbs().maxCoeff();

  const auto run = linref::causal_elu_grad_running(Q, K, V, G);
  const auto quadg = linref::causal_elu_grad_quadratic(Q, K, V, G);
  r.grad_running_vs_quadratic = max_diff(run, quadg) / max_abs(quadg);

  // Finite differences on a small problem (every entry costs two forward passes).
  r.fd_T = 12;
  r.fd_d_k = 4;
  r.fd_d_v = 3;
  r.fd_step = 1e-5;
  const Matrix q = rng.normal_matrix(r.fd_T, r.fd_d_k), k = rng.normal_matrix(r.fd_T, r.fd_d_k),
               v = rng.normal_matrix(r.fd_T, r.fd_d_v), g = rng.normal_matrix(r.fd_T, r.fd_d_v);
  const auto an = linref::causal_elu_grad_running(q, k, v, g);
  const auto fd = finite_differences(q, k, v, g, r.fd_step);
  r.grad_running_vs_fd = max_diff(an, fd) / max_abs(an);

  r.cumsum_bytes_seed = linref::stored_states_bytes(8192, 128, 128, 4);
  r.cumsum_bytes_here = linref::stored_states_bytes(r.T, r.d_k, r.d_v, 8);
  return r;
}

int run_gradients(const Options&, std::ostream& os) {
  heading(os, "gradients", "PyTorch block",
          "Causal linear attention with phi = elu + 1, eps = 1e-6. Loss L = sum(O .* G) for a "
          "random G.\nGradients are taken with respect to Q, K and V themselves, through elu+1 "
          "and its\nderivative (1 for x > 0, e^x otherwise). The two-pass version keeps "
          "running sums only:\nforward in time (S_t, z_t) for dQ, backward in time "
          "(sum_{t>=s} phi(q_t) u_t^T and\nsum_{t>=s} w_t phi(q_t)) for dK and dV; no "
          "state is stored. See linref/gradients.hpp.");
  const GradientsResult r = compute_gradients();
  os << "  forward forms, T = " << r.T << ", d_k = " << r.d_k << ", d_v = " << r.d_v << '\n';
  Table f({"form", "max |form - recurrent|"});
  f.row({"masked quadratic (linref parallel)", fmt_sci(r.forms_quadratic_vs_recurrent)});
  f.row({"cumulative sum (stores all T states)", fmt_sci(r.forms_cumsum_vs_recurrent)});
  f.print(os);
  Table g({"gradient check", "max |difference| / max |gradient|", "tolerance"});
  g.row({"two-pass running sums vs quadratic form (T = 256)", fmt_sci(r.grad_running_vs_quadratic),
         "1e-12"});
  g.row({"two-pass vs central differences (T = 12, d_k = 4, d_v = 3, h = 1e-5)",
         fmt_sci(r.grad_running_vs_fd), "1e-7"});
  g.print(os);
  const double MiB = 1024.0 * 1024.0;
  seed_vs_measured(os, "memory of the cumulative-sum form, T = 8192, d_phi = d_v = 128, float32",
                   "512 MiB, one head in one layer",
                   fmt(r.cumsum_bytes_seed / MiB, 0) + " MiB (" + fmt_int(r.cumsum_bytes_seed) +
                       " bytes); the two-pass gradients need O(T d_v + d_phi d_v) instead");
  os << "  (this lab's own cumulative-sum run held " << fmt_int(r.cumsum_bytes_here)
     << " bytes of states in double precision)\n";
  const bool ok = r.forms_quadratic_vs_recurrent < 1e-12 && r.forms_cumsum_vs_recurrent < 1e-12 &&
                  r.grad_running_vs_quadratic < 1e-12 && r.grad_running_vs_fd < 1e-7 &&
                  r.cumsum_bytes_seed == 512LL * 1024 * 1024;
  seed_vs_measured(os, "forms and gradients agree", "autograd gives the same gradients",
                   ok ? "yes, within the tolerances above" : "NO: see the tables");
  return ok ? 0 : 1;
}

}  // namespace linlab
