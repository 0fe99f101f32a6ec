// linref-bench: how fast do the recurrent and chunkwise forms of causal linear attention run,
// measured against what Eigen's matrix product reaches on the same machine in the same run?
//
// Throughput counts 4 T d_phi d_v FLOPs for both forms (the cost of the linear order), so the
// figures compare time for the same answer. The chunkwise form really does more arithmetic
// (its masked products inside each chunk), which the last column shows.
//
// The machine may be shared, so every contestant is timed once per round, round after round,
// and keeps its best time: a burst of outside load then hurts all of them alike instead of
// whichever happened to be running.
#include "linref/attention.hpp"
#include "linref/feature_maps.hpp"
#include "linref/random.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace {

using linref::Matrix;

struct Contestant {
  std::string name;
  double flops;                 // credited FLOPs per call
  double real_flops;            // arithmetic actually done per call
  std::function<void()> work;
  double best = std::numeric_limits<double>::infinity();  // seconds
  double gflops() const { return flops / best / 1e9; }
};

double seconds_of(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  return elapsed.count();
}

// Keeps the optimiser from discarding a result nobody reads.
volatile double sink = 0.0;

}  // namespace

int main() {
  Eigen::setNbThreads(1);
  const Eigen::Index T = 16384;
  const Eigen::Index d_phi = 64;
  const Eigen::Index d_v = 64;
  const int rounds = 9;
  const double counted = 4.0 * T * d_phi * d_v;  // FLOPs credited to either causal form

  linref::Rng rng(2024);
  // Positive features, as a real feature map would give, so the denominators stay away from 0.
  const Matrix FQ = linref::elu_plus_one(rng.normal_matrix(T, d_phi));  // (T, d_phi)
  const Matrix FK = linref::elu_plus_one(rng.normal_matrix(T, d_phi));  // (T, d_phi)
  const Matrix V = rng.normal_matrix(T, d_v);                           // (T, d_v)
  const Matrix A = rng.normal_matrix(256, 256), B = rng.normal_matrix(256, 256);
  Matrix state(d_phi, d_v), square(256, 256);  // GEMM results

  std::vector<Contestant> gemms;
  // The chunkwise form's state update has this shape: (64 x T) times (T x 64).
  gemms.push_back({"(64 x 16384) * (16384 x 64)", 2.0 * d_phi * T * d_v, 2.0 * d_phi * T * d_v,
                   [&] { state.noalias() = FK.transpose() * V; sink = state(0, 0); }});
  // The usual yardstick: a square product that fits in cache.
  gemms.push_back({"(256 x 256) * (256 x 256)", 2.0 * 256 * 256 * 256, 2.0 * 256 * 256 * 256,
                   [&] { square.noalias() = A * B; sink = square(0, 0); }});

  Matrix O_recurrent;
  std::vector<Matrix> O_chunk;
  const std::vector<Eigen::Index> chunks = {16, 32, 64, 128, 256};
  std::vector<Contestant> forms;
  forms.push_back({"recurrent", counted, counted,
                   [&] { O_recurrent = linref::causal_recurrent_from_features(FQ, FK, V); }});
  O_chunk.resize(chunks.size());
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const Eigen::Index chunk = chunks[i];
    // Real work: the linear part plus the lower triangles of the two in-chunk products.
    const double real = counted + 1.0 * T * chunk * (d_phi + d_v);
    forms.push_back({"chunkwise, chunk " + std::to_string(chunk), counted, real, [&, i, chunk] {
                       O_chunk[i] = linref::causal_chunkwise_from_features(FQ, FK, V, chunk);
                     }});
  }

  for (int round = 0; round < rounds; ++round) {
    for (auto* group : {&gemms, &forms})
      for (Contestant& c : *group) c.best = std::min(c.best, seconds_of(c.work));
  }

  std::printf("linref-bench: causal linear attention, T = %td, d_phi = %td, d_v = %td, "
              "1 thread, best of %d interleaved rounds\n", T, d_phi, d_v, rounds);
  std::printf("Eigen vector instructions: %s\n", Eigen::SimdInstructionSetsInUse());
  std::printf("causal forms are credited 4 T d_phi d_v = %.3g FLOPs per call\n\n", counted);

  std::printf("%-28s %9s %10s\n", "Eigen GEMM", "ms", "GFLOP/s");
  double gemm_best = 0.0;
  for (const Contestant& c : gemms) {
    std::printf("%-28s %9.3f %10.2f\n", c.name.c_str(), c.best * 1e3, c.gflops());
    gemm_best = std::max(gemm_best, c.gflops());
  }

  std::printf("\n%-28s %9s %10s %9s %12s\n", "causal form", "ms", "GFLOP/s", "vs GEMM", "real FLOPs");
  for (const Contestant& c : forms)
    std::printf("%-28s %9.3f %10.2f %8.0f%% %12.3g\n", c.name.c_str(), c.best * 1e3, c.gflops(),
                100.0 * c.gflops() / gemm_best, c.real_flops);

  std::size_t best = 1;
  for (std::size_t i = 1; i < forms.size(); ++i)
    if (forms[i].best < forms[best].best) best = i;
  std::printf("\nbest: %s, %.2fx the recurrence's speed, %.0f%% of the best Eigen GEMM figure\n",
              forms[best].name.c_str(), forms[0].best / forms[best].best,
              100.0 * forms[best].gflops() / gemm_best);
  double worst_difference = 0.0;
  for (const Matrix& O : O_chunk)
    worst_difference = std::max(worst_difference, (O - O_recurrent).cwiseAbs().maxCoeff());
  std::printf("sanity: max |recurrent - chunkwise| over all chunk sizes = %.3g (outputs up to %.2g)\n",
              worst_difference, O_recurrent.cwiseAbs().maxCoeff());
  return 0;
}
