// linref-bench: how fast do the recurrent and chunkwise forms of causal linear attention run,
// measured against what Eigen's matrix product reaches on the same machine in the same run?
//
// Throughput counts 4 T d_phi d_v FLOPs for both forms (the cost of the linear order), so the
// figures compare time for the same answer. The chunkwise form really does more arithmetic
// (its masked products inside each chunk), which the last column shows.
#include "linref/attention.hpp"
#include "linref/feature_maps.hpp"
#include "linref/random.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <limits>
#include <vector>

namespace {

using linref::Matrix;

// Best wall time of `runs` calls, in seconds. The minimum is the run least disturbed by the
// rest of the machine, which is the figure that says most about the code itself.
double best_seconds(const std::function<void()>& work, int runs) {
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    work();
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    best = std::min(best, elapsed.count());
  }
  return best;
}

double gflops(double flops, double seconds) { return flops / seconds / 1e9; }

// Keeps the optimiser from discarding a result nobody reads.
volatile double sink = 0.0;

}  // namespace

int main() {
  Eigen::setNbThreads(1);
  const Eigen::Index T = 16384;
  const Eigen::Index d_phi = 64;
  const Eigen::Index d_v = 64;
  const int runs = 7;
  const double counted = 4.0 * T * d_phi * d_v;  // FLOPs credited to either form

  linref::Rng rng(2024);
  // Positive features, as a real feature map would give, so the denominators stay away from 0.
  const Matrix FQ = linref::elu_plus_one(rng.normal_matrix(T, d_phi));  // (T, d_phi)
  const Matrix FK = linref::elu_plus_one(rng.normal_matrix(T, d_phi));  // (T, d_phi)
  const Matrix V = rng.normal_matrix(T, d_v);                           // (T, d_v)

  std::printf("linref-bench: causal linear attention, T = %td, d_phi = %td, d_v = %td, "
              "1 thread, best of %d runs\n", T, d_phi, d_v, runs);
  std::printf("throughput counts 4 T d_phi d_v = %.3g FLOPs per call\n\n", counted);

  // Eigen's own matrix product, two shapes: the chunkwise form's state update has the first
  // shape (64 x T times T x 64); a square 256^3 product is the usual yardstick.
  Matrix state(d_phi, d_v);
  const double t_tall = best_seconds([&] { state.noalias() = FK.transpose() * V; sink = state(0, 0); }, runs);
  const double gemm_tall = gflops(2.0 * d_phi * T * d_v, t_tall);
  const Matrix A = rng.normal_matrix(256, 256), B = rng.normal_matrix(256, 256);
  Matrix C(256, 256);
  const double t_square = best_seconds([&] { C.noalias() = A * B; sink = C(0, 0); }, runs);
  const double gemm_square = gflops(2.0 * 256 * 256 * 256, t_square);
  std::printf("%-28s %9s %10s\n", "Eigen GEMM", "ms", "GFLOP/s");
  std::printf("%-28s %9.3f %10.2f\n", "(64 x 16384) * (16384 x 64)", t_tall * 1e3, gemm_tall);
  std::printf("%-28s %9.3f %10.2f\n\n", "(256 x 256) * (256 x 256)", t_square * 1e3, gemm_square);
  const double gemm_best = std::max(gemm_tall, gemm_square);

  std::printf("%-22s %9s %10s %12s %14s\n", "causal form", "ms", "GFLOP/s", "vs GEMM", "real FLOPs");
  Matrix O_rec;
  const double t_rec = best_seconds([&] { O_rec = linref::causal_recurrent_from_features(FQ, FK, V); }, runs);
  std::printf("%-22s %9.3f %10.2f %11.0f%% %14.3g\n", "recurrent", t_rec * 1e3, gflops(counted, t_rec),
              100.0 * gflops(counted, t_rec) / gemm_best, counted);

  double best_time = std::numeric_limits<double>::infinity();
  Eigen::Index best_chunk = 0;
  Matrix O_best;
  for (Eigen::Index chunk : {16, 32, 64, 128, 256}) {
    Matrix O;
    const double t = best_seconds([&] { O = linref::causal_chunkwise_from_features(FQ, FK, V, chunk); }, runs);
    // Real work: the linear part plus the lower triangles of the two in-chunk products.
    const double real = counted + 1.0 * T * chunk * (d_phi + d_v);
    char label[32];
    std::snprintf(label, sizeof label, "chunkwise, chunk %td", chunk);
    std::printf("%-22s %9.3f %10.2f %11.0f%% %14.3g\n", label, t * 1e3, gflops(counted, t),
                100.0 * gflops(counted, t) / gemm_best, real);
    if (t < best_time) {
      best_time = t;
      best_chunk = chunk;
      O_best = O;
    }
  }

  std::printf("\nbest chunk %td: %.2fx the recurrence, %.0f%% of the best Eigen GEMM figure\n",
              best_chunk, t_rec / best_time, 100.0 * gflops(counted, best_time) / gemm_best);
  std::printf("sanity: max |recurrent - chunkwise(%td)| = %.3g (outputs of size ~%.2g)\n", best_chunk,
              (O_rec - O_best).cwiseAbs().maxCoeff(), O_rec.cwiseAbs().maxCoeff());
  return 0;
}
