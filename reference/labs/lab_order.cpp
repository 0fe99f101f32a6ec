// Lab "order" (cell 1): (Q K^T) V against Q (K^T V) for a head of width d, timed.
#include "labs.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ostream>

namespace linlab {

namespace {

volatile double g_sink = 0.0;  // keeps the timed products from being optimised away

// Best of `repeats` samples; each sample repeats the call until at least 2 ms have passed and
// reports the time per call, so that microsecond products are not lost in clock noise.
template <class F>
double best_time(F&& f, int repeats) {
  using clock = std::chrono::steady_clock;
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    int calls = 0;
    const auto start = clock::now();
    double elapsed = 0.0;
    do {
      g_sink = g_sink + f();
      ++calls;
      elapsed = std::chrono::duration<double>(clock::now() - start).count();
    } while (elapsed < 2e-3);
    best = std::min(best, elapsed / calls);
  }
  return best;
}

double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

Eigen::Index measured_crossover(const std::vector<OrderRow>& rows) {
  // Walks down from the largest T while the right order is faster; a size where it is not
  // ends the walk, so a faster right order at some small size alone is no crossover.
  Eigen::Index from = -1;
  for (std::size_t i = rows.size(); i-- > 0;) {
    if (rows[i].right_seconds < rows[i].left_seconds) from = rows[i].T;
    else break;
  }
  return from;
}

OrderResult compute_order(Eigen::Index d, Eigen::Index T_max, int repeats) {
  using linref::Matrix;
  OrderResult res;
  res.d = d;
  res.predicted_crossover = linref::crossover_T(d, d);
  linref::Rng rng(1);
  for (Eigen::Index T = 8; T <= T_max; T *= 2) {
    // Features and values, (T, d). The products are the whole cost in both orders.
    const Matrix Q = rng.normal_matrix(T, d), K = rng.normal_matrix(T, d),
                 V = rng.normal_matrix(T, d);
    const double left = best_time(
        [&] {
          Matrix A = Q * K.transpose();  // (T, T)
          Matrix O = A * V;              // (T, d)
          return O(0, 0);
        },
        repeats);
    const double right = best_time(
        [&] {
          Matrix S = K.transpose() * V;  // (d, d)
          Matrix O = Q * S;              // (T, d)
          return O(0, 0);
        },
        repeats);
    res.rows.push_back({T, left, right});
  }
  res.measured_crossover = measured_crossover(res.rows);
  // Growth per doubling from T = 256 on, where fixed overheads no longer dominate.
  std::vector<double> lg, rg;
  for (std::size_t i = 1; i < res.rows.size(); ++i) {
    if (res.rows[i].T < 256) continue;
    lg.push_back(res.rows[i].left_seconds / res.rows[i - 1].left_seconds);
    rg.push_back(res.rows[i].right_seconds / res.rows[i - 1].right_seconds);
  }
  res.left_growth = median(lg);
  res.right_growth = median(rg);
  // The library's two orders compute the same attention (elu+1 features, T = 64).
  const Matrix Q = rng.normal_matrix(64, d), K = rng.normal_matrix(64, d),
               V = rng.normal_matrix(64, d);
  const Matrix L = linref::kernel_attention_left(Q, K, V, linref::elu_plus_one);
  const Matrix R = linref::kernel_attention_right(Q, K, V, linref::elu_plus_one);
  res.max_order_difference = (L - R).cwiseAbs().maxCoeff();
  return res;
}

int run_order(const Options& opt, std::ostream& os) {
  heading(os, "order", "cell 1",
          "Times (phi(Q) phi(K)^T) V and phi(Q) (phi(K)^T V) for a head of width 32 (plain "
          "Eigen\nproducts of random (T, 32) matrices, double precision, one thread), best "
          "of five.");
  const OrderResult r = compute_order();
  Table t({"T", "left ms", "right ms", "left x/doubling", "right x/doubling", "left/right",
           "FLOP ratio T/d"});
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const auto& row = r.rows[i];
    const std::string lg = i ? fmt(row.left_seconds / r.rows[i - 1].left_seconds, 2) : "";
    const std::string rg = i ? fmt(row.right_seconds / r.rows[i - 1].right_seconds, 2) : "";
    t.row({std::to_string(row.T), fmt(row.left_seconds * 1e3, 4), fmt(row.right_seconds * 1e3, 4),
           lg, rg, fmt(row.left_seconds / row.right_seconds, 2),
           fmt(static_cast<double>(row.T) / static_cast<double>(r.d), 2)});
  }
  t.print(os);
  seed_vs_measured(os, "left-order time per doubling of T (median, T >= 256)",
                   "about 4x or more (T^2, plus cache misses at the largest sizes)",
                   fmt(r.left_growth, 2) + "x");
  seed_vs_measured(os, "right-order time per doubling of T (median, T >= 256)",
                   "about 2x (linear in T), far below a millisecond",
                   fmt(r.right_growth, 2) + "x, " + fmt(r.rows.back().right_seconds * 1e3, 3) +
                       " ms at T = " + std::to_string(r.rows.back().T));
  seed_vs_measured(os, "crossover (right order cheaper from here on)",
                   "T* = 2 d_phi d_v / (d_phi + d_v) = 32 for d = 32 (FLOPs; right cheaper "
                   "for T > 32, linref::crossover_T = " +
                       std::to_string(r.predicted_crossover) + ")",
                   r.measured_crossover > 0
                       ? "right order faster from T = " + std::to_string(r.measured_crossover) +
                             " on (in time, on this machine)"
                       : "right order never faster at every larger T");
  os << "  linref::kernel_attention_left vs _right (elu+1, T = 64): max |difference| = "
     << fmt_sci(r.max_order_difference) << "\n";
  os << "  Times depend on the machine and on what else runs; no test asserts them.\n";

  Plot p;
  p.stem = "order";
  p.title = "Left vs right order, head width 32 (best of five)";
  p.xlabel = "T (tokens)";
  p.ylabel = "seconds";
  p.logx = p.logy = true;
  Series left{"left (phi(Q) phi(K)^T) V", {}, {}}, right{"right phi(Q) (phi(K)^T V)", {}, {}};
  for (const auto& row : r.rows) {
    left.x.push_back(static_cast<double>(row.T));
    left.y.push_back(row.left_seconds);
    right.x.push_back(static_cast<double>(row.T));
    right.y.push_back(row.right_seconds);
  }
  p.series = {left, right};
  p.extra.push_back("set arrow from 32, graph 0 to 32, graph 1 nohead dashtype 2");
  p.extra.push_back("set label 'T* = 32' at 34, graph 0.92");
  write_plot(opt, p, os);
  return r.max_order_difference < 1e-10 ? 0 : 1;
}

}  // namespace linlab
