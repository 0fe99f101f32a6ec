// Lab "forms" (cell 2): the three-token example by hand, then recurrent, parallel and
// chunkwise causal linear attention on random data.
#include "labs.hpp"

#include <cmath>
#include <ostream>

namespace linlab {

FormsResult compute_forms(std::uint64_t seed) {
  using linref::Matrix;
  FormsResult r;
  // The hand example: d_k = d_v = 2, elu+1, rows are tokens 1..3.
  Matrix Q(3, 2), K(3, 2), V(3, 2);
  Q << 0, 0, 1, 0, 0, 1;
  K << 1, 0, 0, 1, 0, 0;
  V << 1, 0, 0, 1, 1, 1;
  r.hand_kernel = linref::elu_plus_one(Q) * linref::elu_plus_one(K).transpose();
  // eps = 0 so that the outputs are the exact fractions.
  r.hand_recurrent = linref::causal_linear_attention_recurrent(Q, K, V, linref::elu_plus_one, 0.0);
  r.hand_parallel = linref::causal_linear_attention_parallel(Q, K, V, linref::elu_plus_one, 0.0);
  r.hand_chunkwise =
      linref::causal_linear_attention_chunkwise(Q, K, V, linref::elu_plus_one, 2, 0.0);
  r.hand_expected.resize(3, 2);
  r.hand_expected << 1.0, 0.0, 5.0 / 9.0, 4.0 / 9.0, 7.0 / 12.0, 2.0 / 3.0;
  // Softmax without the temperature for query 2 over keys 1, 2: scores 1 and 0.
  r.softmax_weight_q2k1 = std::exp(1.0) / (std::exp(1.0) + 1.0);

  // Random data with d_k != d_v (catches a transposed state) and T not a multiple of the chunk.
  r.T = 200;
  r.d_k = 16;
  r.d_v = 8;
  r.chunk = 32;
  linref::Rng rng(seed);
  const Matrix Qr = rng.normal_matrix(r.T, r.d_k), Kr = rng.normal_matrix(r.T, r.d_k),
               Vr = rng.normal_matrix(r.T, r.d_v);
  const Matrix rec = linref::causal_linear_attention_recurrent(Qr, Kr, Vr, linref::elu_plus_one);
  const Matrix par = linref::causal_linear_attention_parallel(Qr, Kr, Vr, linref::elu_plus_one);
  const Matrix chk =
      linref::causal_linear_attention_chunkwise(Qr, Kr, Vr, linref::elu_plus_one, r.chunk);
  const Matrix chk_odd =
      linref::causal_linear_attention_chunkwise(Qr, Kr, Vr, linref::elu_plus_one, 48);
  r.max_diff_parallel = (par - rec).cwiseAbs().maxCoeff();
  r.max_diff_chunkwise = (chk - rec).cwiseAbs().maxCoeff();
  r.max_diff_chunkwise_odd = (chk_odd - rec).cwiseAbs().maxCoeff();
  return r;
}

int run_forms(const Options&, std::ostream& os) {
  heading(os, "forms", "cell 2",
          "Causal linear attention with phi = elu + 1: the three-token example of the text, "
          "then\nthe recurrent, parallel (masked T x T) and chunkwise forms on random data.");
  const FormsResult r = compute_forms();
  os << "  kernel matrix phi(Q) phi(K)^T (the mask keeps the entries on and below the "
        "diagonal):\n";
  for (int i = 0; i < 3; ++i)
    os << "      (" << r.hand_kernel(i, 0) << ", " << r.hand_kernel(i, 1) << ", "
       << r.hand_kernel(i, 2) << ")\n";
  os << '\n';
  Table t({"t", "seed o_t", "recurrent", "parallel", "chunkwise (chunk 2)"});
  const char* seed_rows[] = {"(1, 0)", "(5/9, 4/9)", "(7/12, 2/3)"};
  double worst = 0.0;
  for (int i = 0; i < 3; ++i) {
    auto pair = [&](const linref::Matrix& M) {
      return "(" + fmt(M(i, 0), 6) + ", " + fmt(M(i, 1), 6) + ")";
    };
    t.row({std::to_string(i + 1), seed_rows[i], pair(r.hand_recurrent), pair(r.hand_parallel),
           pair(r.hand_chunkwise)});
    for (const linref::Matrix* M : {&r.hand_recurrent, &r.hand_parallel, &r.hand_chunkwise})
      worst = std::max(worst, (M->row(i) - r.hand_expected.row(i)).cwiseAbs().maxCoeff());
  }
  t.print(os);
  seed_vs_measured(os, "hand example, all three forms (eps = 0)",
                   "o = (1, 0), (5/9, 4/9), (7/12, 2/3); row sums 3, 9, 12",
                   "max |form - exact fraction| = " + fmt_sci(worst) + "; row sums " +
                       fmt(r.hand_kernel(0, 0), 0) + ", " +
                       fmt(r.hand_kernel(1, 0) + r.hand_kernel(1, 1), 0) + ", " +
                       fmt(r.hand_kernel.row(2).sum(), 0));
  seed_vs_measured(os, "query 2's weight on key 1, softmax (no temperature) vs elu+1",
                   "0.73 vs 5/9 = 0.56",
                   fmt(r.softmax_weight_q2k1, 4) + " vs " +
                       fmt(r.hand_kernel(1, 0) / (r.hand_kernel(1, 0) + r.hand_kernel(1, 1)), 4));
  os << "\n  random data: T = " << r.T << ", d_k = " << r.d_k << ", d_v = " << r.d_v
     << ", N(0, 1) entries, eps = 1e-6\n";
  Table f({"form", "max |form - recurrent|"});
  f.row({"parallel (masked T x T)", fmt_sci(r.max_diff_parallel)});
  f.row({"chunkwise, chunk " + std::to_string(r.chunk), fmt_sci(r.max_diff_chunkwise)});
  f.row({"chunkwise, chunk 48 (T not a multiple)", fmt_sci(r.max_diff_chunkwise_odd)});
  f.print(os);
  const double tol = 1e-12;
  const bool ok = worst < 1e-15 && r.max_diff_parallel < tol && r.max_diff_chunkwise < tol &&
                  r.max_diff_chunkwise_odd < tol;
  seed_vs_measured(os, "forms agree on random data", "the same numbers up to rounding",
                   ok ? "yes (all differences below 1e-12)" : "NO: a form disagrees");
  return ok ? 0 : 1;
}

}  // namespace linlab
