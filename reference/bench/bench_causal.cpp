// linref-bench: how fast do the recurrent and chunkwise forms of causal linear attention, and
// the two-pass gradients, run, measured against what Eigen's matrix product reaches on the
// same machine in the same run?
//
// Credited FLOPs (the arithmetic of the linear-order algorithm, so that the figures compare
// time for the same answer):
//  - a causal form, 4 T d_phi d_v: per token, the state update b v^T and the read-out S^T a;
//  - the two-pass gradients, 12 T d_phi d_v: per token, the forward pass's state update,
//    read-out S^T a and S u, and the backward pass's update of R, R v and R^T b.
// The chunkwise form really does more arithmetic (its masked products inside each chunk),
// which the "real FLOPs" column shows; the chunkwise gradients likewise. Beside the GEMMs that
// set the yardstick, the bench times the chunk-shaped products a chunkwise form is made of,
// and prints the most such a form could reach at their speed.
//
// The machine may be shared, so every contestant is timed once per round, round after round,
// and keeps its best time: a burst of outside load then hurts all of them alike instead of
// whichever happened to be running. Times are the thread's CPU time, which leaves out the
// moments the scheduler gives the core to another program (all of this runs in one thread).
#include "linref/attention.hpp"
#include "linref/feature_maps.hpp"
#include "linref/gradients.hpp"
#include "linref/random.hpp"

#include <Eigen/Core>

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace {

using linref::Matrix;

struct Contestant {
  std::string name;
  double flops;       // credited FLOPs per call
  double real_flops;  // arithmetic actually done per call
  std::function<void()> work;
  double best = std::numeric_limits<double>::infinity();  // seconds
  double gflops() const { return flops / best / 1e9; }
};

double thread_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

double seconds_of(const std::function<void()>& work) {
  const double start = thread_seconds();
  work();
  return thread_seconds() - start;
}

// Keeps the optimiser from discarding a result nobody reads.
volatile double sink = 0.0;

void print_row(const Contestant& c, double gemm_best) {
  std::printf("%-36s %9.3f %10.2f %8.0f%% %12.3g\n", c.name.c_str(), c.best * 1e3, c.gflops(),
              100.0 * c.gflops() / gemm_best, c.real_flops);
}

void print_target(const char* what, double share, double target) {
  std::printf("target: %s at least %.0f%% of the best GEMM figure: %s (%.0f%%)\n", what,
              100.0 * target, share >= target ? "met" : "not met", 100.0 * share);
}

double max_relative_difference(const Matrix& got, const Matrix& want) {
  return (got - want).cwiseAbs().maxCoeff() / want.cwiseAbs().maxCoeff();
}

// The products a chunkwise form is made of, chunk by chunk over all T tokens: a chunk's
// queries times the state, (C x d_phi) * (d_phi x d_v). No chunkwise form built on Eigen's
// products runs faster than these, and it also does the in-chunk work on top. Not part of
// the yardstick: that is the GEMMs.
std::vector<Contestant> chunk_shaped_products(const Matrix& FQ, const Matrix& state,
                                              const std::vector<Eigen::Index>& chunks) {
  const Eigen::Index T = FQ.rows(), d_phi = FQ.cols(), d_v = state.cols();
  const double flops = 2.0 * T * d_phi * d_v;
  std::vector<Contestant> products;
  for (const Eigen::Index chunk : chunks) {
    const std::string shape = "(" + std::to_string(chunk) + " x " + std::to_string(d_phi) +
                              ") * (" + std::to_string(d_phi) + " x " + std::to_string(d_v) + ")";
    products.push_back({shape + ", T/" + std::to_string(chunk) + " calls", flops, flops,
                        [&FQ, &state, chunk, T, Q_chunk = Matrix(), O_rows = Matrix()]() mutable {
                          // Each chunk copied compact, as the forms copy it.
                          for (Eigen::Index start = 0; start < T; start += chunk) {
                            Q_chunk = FQ.middleRows(start, chunk);
                            O_rows.noalias() = Q_chunk * state;
                            sink = O_rows(0, 0);
                          }
                        }});
  }
  return products;
}

// The sizes and credited FLOPs of one run, as the report prints them.
struct Run {
  Eigen::Index T, d_phi, d_v;
  int rounds;
  double counted, counted_backward;
  std::vector<Eigen::Index> product_chunks;
};

// The tables (GEMMs, chunk-shaped products, forward forms, gradients), the targets, and the
// ceiling a chunkwise form built on the chunk-shaped products could reach.
void print_report(const Run& run, const std::vector<Contestant>& gemms,
                  const std::vector<Contestant>& chunk_products,
                  const std::vector<Contestant>& forms, const Contestant& backward) {
  const Eigen::Index T = run.T, d_phi = run.d_phi, d_v = run.d_v;
  const int rounds = run.rounds;
  const double counted = run.counted, counted_backward = run.counted_backward;
  const std::vector<Eigen::Index>& product_chunks = run.product_chunks;
  std::printf(
      "linref-bench: causal linear attention, T = %td, d_phi = %td, d_v = %td, "
      "1 thread, best CPU time of %d interleaved rounds\n",
      T, d_phi, d_v, rounds);
  std::printf("Eigen vector instructions: %s\n", Eigen::SimdInstructionSetsInUse());
  std::printf(
      "credited FLOPs per call: causal forms 4 T d_phi d_v = %.3g, gradients "
      "12 T d_phi d_v = %.3g\n\n",
      counted, counted_backward);

  double gemm_best = 0.0;
  for (const Contestant& c : gemms) gemm_best = std::max(gemm_best, c.gflops());
  const char* header = "%-36s %9s %10s %9s %12s\n";
  std::printf(header, "Eigen GEMM", "ms", "GFLOP/s", "vs GEMM", "real FLOPs");
  for (const Contestant& c : gemms) print_row(c, gemm_best);
  std::printf("\n");
  std::printf(header, "chunk-shaped products", "ms", "GFLOP/s", "vs GEMM", "real FLOPs");
  for (const Contestant& c : chunk_products) print_row(c, gemm_best);
  std::printf("\n");
  std::printf(header, "forward", "ms", "GFLOP/s", "vs GEMM", "real FLOPs");
  for (const Contestant& c : forms) print_row(c, gemm_best);
  std::printf("\n");
  std::printf(header, "backward", "ms", "GFLOP/s", "vs GEMM", "real FLOPs");
  print_row(backward, gemm_best);

  std::size_t best = 1;
  for (std::size_t i = 1; i < forms.size(); ++i)
    if (forms[i].best < forms[best].best) best = i;
  std::printf("\nbest forward: %s, %.2fx the recurrence's speed\n", forms[best].name.c_str(),
              forms[0].best / forms[best].best);
  print_target("the best chunkwise form", forms[best].gflops() / gemm_best, 0.6);
  print_target("the two-pass gradients", backward.gflops() / gemm_best, 1.0 / 3.0);
  // A chunkwise form of chunk C does 1 + C (d_phi + d_v) / (4 d_phi d_v) times the credited
  // arithmetic; were all of it done at the speed of its chunk-shaped products above (the
  // triangular in-chunk products are slower still), this is the most it could show.
  std::printf("ceiling of a chunkwise form built on those products, share of the best GEMM:");
  for (std::size_t i = 0; i < product_chunks.size(); ++i) {
    const double extra = 1.0 + product_chunks[i] * (d_phi + d_v) / (4.0 * d_phi * d_v);
    const double ceiling = chunk_products[i].gflops() / gemm_best / extra;
    std::printf("%s chunk %td: %.0f%%", i == 0 ? "" : ",", product_chunks[i], 100.0 * ceiling);
  }
  std::printf("\n");
}

// The forms checked against each other: chunkwise against the recurrence at every chunk size,
// and the two-pass gradients against the quadratic form's on the first tokens.
void print_sanity(const std::vector<Matrix>& O_chunk, const Matrix& O_recurrent, const Matrix& FQ,
                  const Matrix& FK, const Matrix& V, const Matrix& G) {
  double worst_difference = 0.0;
  for (const Matrix& O : O_chunk)
    worst_difference = std::max(worst_difference, (O - O_recurrent).cwiseAbs().maxCoeff());
  std::printf(
      "\nsanity: max |recurrent - chunkwise| over all chunk sizes = %.3g (outputs up to %.2g)\n",
      worst_difference, O_recurrent.cwiseAbs().maxCoeff());
  // The quadratic-form gradients need (T, T) matrices: compared on the first tokens only.
  const Eigen::Index n = 512;
  const auto head = [n](const Matrix& M) { return Matrix(M.topRows(n)); };
  const linref::LinearAttentionGrads short_run =
      linref::causal_grad_running_features(head(FQ), head(FK), head(V), head(G));
  const linref::LinearAttentionGrads quadratic =
      linref::causal_grad_quadratic_features(head(FQ), head(FK), head(V), head(G));
  std::printf(
      "sanity: two-pass vs quadratic-form gradients on the first %td tokens, max relative "
      "difference dFQ %.2g, dFK %.2g, dFV %.2g\n",
      n, max_relative_difference(short_run.dQ, quadratic.dQ),
      max_relative_difference(short_run.dK, quadratic.dK),
      max_relative_difference(short_run.dV, quadratic.dV));
}

}  // namespace

int main() {
  Eigen::setNbThreads(1);
  const Eigen::Index T = 16384;
  const Eigen::Index d_phi = 64;
  const Eigen::Index d_v = 64;
  const int rounds = 11;
  const double linear = 1.0 * T * d_phi * d_v;
  const double counted = 4.0 * linear;            // FLOPs credited to either causal form
  const double counted_backward = 12.0 * linear;  // FLOPs credited to the gradients

  linref::Rng rng(2024);
  // Positive features, as a real feature map would give, so the denominators stay away from 0.
  const Matrix FQ = linref::elu_plus_one(rng.normal_matrix(T, d_phi));  // (T, d_phi)
  const Matrix FK = linref::elu_plus_one(rng.normal_matrix(T, d_phi));  // (T, d_phi)
  const Matrix V = rng.normal_matrix(T, d_v);                           // (T, d_v)
  const Matrix G = rng.normal_matrix(T, d_v);                           // dL/dO, (T, d_v)
  const Matrix A = rng.normal_matrix(256, 256), B = rng.normal_matrix(256, 256);
  Matrix state = Matrix::Zero(d_phi, d_v), square(256, 256);  // GEMM results

  std::vector<Contestant> gemms;
  // The chunkwise form's state update has this shape: (64 x T) times (T x 64).
  gemms.push_back({"(64 x 16384) * (16384 x 64)", 2.0 * linear, 2.0 * linear, [&] {
                     state.noalias() = FK.transpose() * V;
                     sink = state(0, 0);
                   }});
  // The usual yardstick: a square product that fits in cache.
  gemms.push_back({"(256 x 256) * (256 x 256)", 2.0 * 256 * 256 * 256, 2.0 * 256 * 256 * 256, [&] {
                     square.noalias() = A * B;
                     sink = square(0, 0);
                   }});
  const std::vector<Eigen::Index> product_chunks = {16, 32, 64};
  std::vector<Contestant> chunk_products = chunk_shaped_products(FQ, state, product_chunks);

  Matrix O_recurrent;
  std::vector<Matrix> O_chunk;
  const std::vector<Eigen::Index> chunks = {16, 32, 48, 64, 128, 256};
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

  linref::LinearAttentionGrads grads;
  // Real work: the linear part plus six in-chunk lower triangles (chunks of 64 tokens).
  const double real_backward = counted_backward + 6.0 * T * 64 * (d_phi + d_v) / 2;
  Contestant backward{"two-pass gradients", counted_backward, real_backward,
                      [&] { grads = linref::causal_grad_running_features(FQ, FK, V, G); }};

  for (int round = 0; round < rounds; ++round) {
    for (auto* group : {&gemms, &chunk_products, &forms})
      for (Contestant& c : *group) c.best = std::min(c.best, seconds_of(c.work));
    backward.best = std::min(backward.best, seconds_of(backward.work));
  }

  print_report({T, d_phi, d_v, rounds, counted, counted_backward, product_chunks}, gemms,
               chunk_products, forms, backward);
  print_sanity(O_chunk, O_recurrent, FQ, FK, V, G);
  return 0;
}
