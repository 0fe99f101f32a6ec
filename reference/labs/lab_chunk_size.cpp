// Lab "chunk-size" (the text on training and prefill): how long the chunkwise form takes as its
// chunk size changes, next to the recurrent and parallel forms and next to plain Eigen matrix
// products of exactly the shapes the chunkwise form multiplies.
#include "labs.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <functional>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>

namespace linlab {

namespace {

using linref::Matrix;
using linref::Vector;

volatile double g_sink = 0.0;  // keeps timed results from being optimised away

// One timed contestant. The machine is shared, so contestants are timed one after another,
// round after round, and each keeps its best time: a burst of outside load then costs every
// contestant a round instead of spoiling one contestant's only measurement.
struct Contestant {
  std::function<void()> work;
  double best = std::numeric_limits<double>::infinity();
};

// This thread's CPU time, not the wall clock: on a machine shared with other jobs, the time
// the thread spends waiting for a core is not the form's cost.
double thread_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double seconds_of(const std::function<void()>& work) {
  const double start = thread_seconds();
  work();
  return thread_seconds() - start;
}

// The chunkwise form's products without its mask and without its division: per chunk of c
// tokens, (c x d_phi)(d_phi x c), (c x c)(c x d_v), (c x d_phi)(d_phi x d_v) and
// (d_phi x c)(c x d_v), all as ordinary dense GEMMs. What the chunkwise form costs beyond
// this is what the triangular mask, the denominators and the bookkeeping cost.
void gemm_skeleton(const Matrix& FQ, const Matrix& FK, const Matrix& V, Eigen::Index chunk,
                   Matrix& O, Matrix& S, Matrix& A) {
  const Eigen::Index T = FQ.rows();
  S.setZero();
  for (Eigen::Index start = 0; start < T; start += chunk) {
    const Eigen::Index c = std::min(chunk, T - start);
    const auto Qc = FQ.middleRows(start, c);
    const auto Kc = FK.middleRows(start, c);
    const auto Vc = V.middleRows(start, c);
    auto Oc = O.middleRows(start, c);
    auto Ac = A.topLeftCorner(c, c);
    Ac.noalias() = Qc * Kc.transpose();
    Oc.noalias() = Qc * S;
    Oc.noalias() += Ac * Vc;
    S.noalias() += Kc.transpose() * Vc;
  }
}

// FLOPs of the products above (an (m x k)(k x n) product counted as 2 m k n).
double skeleton_flops(Eigen::Index T, Eigen::Index d_phi, Eigen::Index d_v, Eigen::Index chunk) {
  double flops = 0.0;
  for (Eigen::Index start = 0; start < T; start += chunk) {
    const double c = static_cast<double>(std::min(chunk, T - start));
    flops +=
        2.0 * c * c * static_cast<double>(d_phi + d_v) + 4.0 * c * static_cast<double>(d_phi * d_v);
  }
  return flops;
}

}  // namespace

std::vector<Eigen::Index> default_chunk_sizes() { return {8, 16, 32, 64, 128, 256, 512, 1024}; }

ChunkSizeResult compute_chunk_size(Eigen::Index T, Eigen::Index d_phi, Eigen::Index d_v,
                                   std::vector<Eigen::Index> chunks, int rounds,
                                   std::uint64_t seed) {
  if (T < 1 || chunks.empty() || rounds < 1)
    throw std::invalid_argument("compute_chunk_size: needs T >= 1, a chunk size and a round");
  ChunkSizeResult r{};  // every field starts at zero: none is left to chance
  r.T = T;
  r.d_phi = d_phi;
  r.d_v = d_v;
  r.rounds = rounds;
  linref::Rng rng(seed);
  // elu+1 features, computed once: the feature map is not what is timed.
  const Matrix FQ = linref::elu_plus_one(rng.normal_matrix(T, d_phi));  // (T, d_phi)
  const Matrix FK = linref::elu_plus_one(rng.normal_matrix(T, d_phi));  // (T, d_phi)
  const Matrix V = rng.normal_matrix(T, d_v);                           // (T, d_v)

  Matrix O_recurrent, O_parallel;
  std::vector<Matrix> O_chunk(chunks.size());
  // Scratch for the GEMM skeletons, allocated once so that they time products only.
  const Eigen::Index widest = *std::max_element(chunks.begin(), chunks.end());
  Matrix O_gemm(T, d_v), S_gemm(d_phi, d_v), A_gemm(std::min(widest, T), std::min(widest, T));
  Matrix big_gemm(d_phi, d_v);

  Contestant recurrent{[&] { O_recurrent = linref::causal_recurrent_from_features(FQ, FK, V); }};
  Contestant parallel{[&] { O_parallel = linref::causal_parallel_from_features(FQ, FK, V); }};
  // A yardstick: one long, well-shaped product, (d_phi x T)(T x d_v), what the state update over
  // the whole sequence would be without chunks.
  Contestant yardstick{[&] {
    big_gemm.noalias() = FK.transpose() * V;
    g_sink = big_gemm(0, 0);
  }};
  std::vector<Contestant> chunkwise, skeleton;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const Eigen::Index c = chunks[i];
    chunkwise.push_back(
        {[&, i, c] { O_chunk[i] = linref::causal_chunkwise_from_features(FQ, FK, V, c); }});
    skeleton.push_back({[&, c] {
      gemm_skeleton(FQ, FK, V, std::min(c, T), O_gemm, S_gemm, A_gemm);
      g_sink = O_gemm(0, 0);
    }});
  }

  for (int round = 0; round < rounds; ++round) {
    for (Contestant* c : {&recurrent, &yardstick}) c->best = std::min(c->best, seconds_of(c->work));
    // The parallel form is quadratic and by far the slowest; two rounds place it well enough.
    if (round < 2) parallel.best = std::min(parallel.best, seconds_of(parallel.work));
    for (std::size_t i = 0; i < chunks.size(); ++i) {
      chunkwise[i].best = std::min(chunkwise[i].best, seconds_of(chunkwise[i].work));
      skeleton[i].best = std::min(skeleton[i].best, seconds_of(skeleton[i].work));
    }
  }

  r.recurrent_seconds = recurrent.best;
  r.parallel_seconds = parallel.best;
  r.yardstick_seconds = yardstick.best;
  r.yardstick_flops =
      2.0 * static_cast<double>(d_phi) * static_cast<double>(T) * static_cast<double>(d_v);
  r.output_scale = O_recurrent.cwiseAbs().maxCoeff();
  r.max_diff_parallel = (O_parallel - O_recurrent).cwiseAbs().maxCoeff();
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    ChunkSizeRow row;
    row.chunk = chunks[i];
    row.chunkwise_seconds = chunkwise[i].best;
    row.gemm_seconds = skeleton[i].best;
    row.gemm_flops = skeleton_flops(T, d_phi, d_v, std::min(chunks[i], T));
    row.max_diff_recurrent = (O_chunk[i] - O_recurrent).cwiseAbs().maxCoeff();
    r.rows.push_back(row);
  }
  r.fastest_chunk = fastest_chunk(r);
  return r;
}

Eigen::Index fastest_chunk(const ChunkSizeResult& r) {
  Eigen::Index best = -1;
  double best_seconds = std::numeric_limits<double>::infinity();
  for (const ChunkSizeRow& row : r.rows)
    if (row.chunkwise_seconds < best_seconds) {
      best_seconds = row.chunkwise_seconds;
      best = row.chunk;
    }
  return best;
}

std::string chunk_size_conclusion(const ChunkSizeResult& r) {
  if (r.rows.empty()) return "no chunk size was timed";
  const auto best = std::min_element(r.rows.begin(), r.rows.end(),
                                     [](const ChunkSizeRow& a, const ChunkSizeRow& b) {
                                       return a.chunkwise_seconds < b.chunkwise_seconds;
                                     });
  // Chunk sizes within 10% of the fastest count as "as good", since a shared machine's times
  // wobble by about that much.
  std::string close;
  for (const ChunkSizeRow& row : r.rows)
    if (row.chunkwise_seconds <= 1.1 * best->chunkwise_seconds)
      close += (close.empty() ? "" : ", ") + std::to_string(row.chunk);
  const bool inside = best->chunk >= 64 && best->chunk <= 256;
  std::string s = "fastest chunk " + std::to_string(best->chunk) + " (" +
                  fmt(best->chunkwise_seconds * 1e3, 2) + " ms), " +
                  (inside ? "inside" : "outside") +
                  " the seed's 64..256; within 10% of it: " + close;
  if (r.recurrent_seconds > 0.0 && std::isfinite(r.recurrent_seconds))
    s += "; " + fmt(r.recurrent_seconds / best->chunkwise_seconds, 1) +
         "x the recurrent form's speed";
  if (r.parallel_seconds > 0.0 && std::isfinite(r.parallel_seconds))
    s += ", " + fmt(r.parallel_seconds / best->chunkwise_seconds, 1) + "x the parallel form's";
  return s;
}

int run_chunk_size(const Options& opt, std::ostream& os) {
  heading(os, "chunk-size", "chunkwise text",
          "Time of linref's chunkwise causal linear attention against its chunk size, beside "
          "the\nrecurrent form, the parallel (masked T x T) form, and plain Eigen GEMMs of the "
          "very shapes\nthe chunkwise form multiplies (no mask, no division). elu+1 features "
          "computed beforehand;\ndouble precision, one thread; times are the thread's CPU "
          "time, best of interleaved rounds.");
  bool agree = true;
  Plot p;
  p.stem = "chunk_size";
  p.title = "Chunkwise causal linear attention against chunk size";
  p.xlabel = "chunk size (tokens)";
  p.ylabel = "milliseconds";
  p.logx = p.logy = true;
  for (Eigen::Index d : {64, 128}) {
    const ChunkSizeResult r = compute_chunk_size(4096, d, d, default_chunk_sizes(), 9);
    os << "  T = " << r.T << ", d_phi = d_v = " << r.d_phi << ", " << r.rounds << " rounds\n";
    Table t({"chunk", "chunkwise ms", "same GEMMs ms", "chunkwise/GEMMs", "GEMM GFLOP/s",
             "speed vs recurrent", "max |chunkwise - recurrent|"});
    Series series{"chunkwise, d = " + std::to_string(d), {}, {}};
    Series gemms{"same GEMMs only, d = " + std::to_string(d), {}, {}};
    for (const ChunkSizeRow& row : r.rows) {
      t.row({std::to_string(row.chunk), fmt(row.chunkwise_seconds * 1e3, 3),
             fmt(row.gemm_seconds * 1e3, 3), fmt(row.chunkwise_seconds / row.gemm_seconds, 2),
             fmt(row.gemm_flops / row.gemm_seconds / 1e9, 2),
             fmt(r.recurrent_seconds / row.chunkwise_seconds, 2) + "x",
             fmt_sci(row.max_diff_recurrent)});
      series.x.push_back(static_cast<double>(row.chunk));
      series.y.push_back(row.chunkwise_seconds * 1e3);
      gemms.x.push_back(static_cast<double>(row.chunk));
      gemms.y.push_back(row.gemm_seconds * 1e3);
      agree = agree && row.max_diff_recurrent < 1e-10 * std::max(1.0, r.output_scale);
    }
    t.print(os);
    os << "  recurrent form:         " << fmt(r.recurrent_seconds * 1e3, 3) << " ms\n"
       << "  parallel form (T x T):  " << fmt(r.parallel_seconds * 1e3, 3)
       << " ms, max |parallel - recurrent| = " << fmt_sci(r.max_diff_parallel) << '\n'
       << "  yardstick GEMM (" << d << " x " << r.T << ")(" << r.T << " x " << d
       << "): " << fmt(r.yardstick_flops / r.yardstick_seconds / 1e9, 2) << " GFLOP/s\n"
       << "  (parallel form: best of 2 rounds; chunkwise/GEMMs below 1 means the triangular "
          "mask saved\n  more than the denominators cost: it skips half of each in-chunk "
          "product)\n";
    agree = agree && r.max_diff_parallel < 1e-10 * std::max(1.0, r.output_scale);
    seed_vs_measured(os, "chunk size that works best (d = " + std::to_string(d) + ")",
                     "typically 64 to 256 tokens", chunk_size_conclusion(r));
    os << '\n';
    p.series.push_back(series);
    p.series.push_back(gemms);
  }
  os << "  Times depend on the machine and its load; no test asserts them. The seed's range "
        "is for\n  GPU kernels, where a chunk must fill the matrix units; here one CPU core "
        "decides.\n";
  write_plot(opt, p, os);
  seed_vs_measured(os, "chunkwise outputs at every chunk size", "the recurrent form's numbers",
                   agree ? "yes, within 1e-10 (relative to the largest output) everywhere"
                         : "NO: a chunk size disagrees");
  return agree ? 0 : 1;
}

}  // namespace linlab
