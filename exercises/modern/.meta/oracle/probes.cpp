#include "probes.hpp"

#include "common/wire.hpp"

#include <stdexcept>

namespace grader::modern {
namespace {

// ---- mlstm ---------------------------------------------------------------------------------

json mlstm_calls(const std::vector<MlstmCase>& cases) {
  json calls = json::array();
  for (const MlstmCase& c : cases)
    calls.push_back(json{{"Q", wire::from_matrix(c.Q)},
                         {"K", wire::from_matrix(c.K)},
                         {"V", wire::from_matrix(c.V)},
                         {"f", wire::from_vector(c.f)},
                         {"i", wire::from_vector(c.i)}});
  return calls;
}

// Gates uniform in (lo, hi), as a sigmoid would give them.
Vector gates(linref::Rng& rng, Eigen::Index T, double lo, double hi) {
  Vector g(T);
  for (Eigen::Index t = 0; t < T; ++t) g(t) = lo + (hi - lo) * rng.uniform();
  return g;
}

MlstmCase random_mlstm(linref::Rng& rng, Eigen::Index T, Eigen::Index d_k, Eigen::Index d_v,
                       double scale, double lo, double hi) {
  MlstmCase c;
  c.Q = random_matrix(rng, T, d_k, scale);
  c.K = random_matrix(rng, T, d_k, scale);
  c.V = random_matrix(rng, T, d_v);
  c.f = gates(rng, T, lo, hi);
  c.i = gates(rng, T, lo, hi);
  return c;
}

// The hand-out's four tokens: f = 1/2 throughout, i = (1, 2, 1, 1), d_k = d_v = 2.
MlstmCase mlstm_hand_example() {
  MlstmCase c{Matrix(4, 2), Matrix(4, 2), Matrix(4, 2), Vector(4), Vector(4)};
  c.Q << 2, 0, 1, 1, 0, -4, 1, 0;
  c.K << 1, 0, 0, 1, 1, 1, 0, -1;
  c.V << 1, 0, 0, 2, 1, 1, 2, 0;
  c.f << 0.5, 0.5, 0.5, 0.5;
  c.i << 1, 2, 1, 1;
  return c;
}

// Counts of tokens with n_t^T q_t < -1, |n_t^T q_t| < 1 and n_t^T q_t > 1.
bool covers_every_regime(const MlstmCase& c, int at_least) {
  const Vector d = mlstm_dots(c);
  return (d.array() < -1.0).count() >= at_least && (d.array().abs() < 1.0).count() >= at_least &&
         (d.array() > 1.0).count() >= at_least;
}

// ---- decayed_normalized_attention ----------------------------------------------------------

json decayed_calls(const std::vector<DecayedCase>& cases) {
  json calls = json::array();
  for (const DecayedCase& c : cases)
    calls.push_back(json{{"Q", wire::from_matrix(c.Q)},
                         {"K", wire::from_matrix(c.K)},
                         {"V", wire::from_matrix(c.V)},
                         {"gamma", c.gamma},
                         {"gain", wire::from_vector(c.gain)},
                         {"eps", c.eps}});
  return calls;
}

Vector positive_gains(linref::Rng& rng, Eigen::Index d_v) {
  Vector g(d_v);
  for (Eigen::Index j = 0; j < d_v; ++j) g(j) = 0.5 + 1.5 * rng.uniform();
  return g;
}

DecayedCase random_decayed(linref::Rng& rng, Eigen::Index T, Eigen::Index d_k, Eigen::Index d_v,
                           double gamma, double eps, double scale = 1.0) {
  DecayedCase c;
  c.Q = random_matrix(rng, T, d_k, scale);
  c.K = random_matrix(rng, T, d_k, scale);
  c.V = random_matrix(rng, T, d_v, scale);
  c.gamma = gamma;
  c.gain = positive_gains(rng, d_v);
  c.eps = eps;
  return c;
}

// The hand-out's three tokens: d_k = 1, d_v = 2, gamma = 1/2, gain = (1, 2), eps = 0.
DecayedCase decayed_hand_example() {
  DecayedCase c{Matrix(3, 1), Matrix(3, 1), Matrix(3, 2), 0.5, Vector(2), 0.0};
  c.Q << 1, 1, -2;
  c.K << 2, -1, 1;
  c.V << 1, 0, 0, 1, -1, 2;
  c.gain << 1, 2;
  return c;
}

}  // namespace

MlstmCase mlstm_case_of(const json& a) {
  return MlstmCase{wire::to_matrix(a.at("Q")), wire::to_matrix(a.at("K")),
                   wire::to_matrix(a.at("V")), wire::to_vector(a.at("f")),
                   wire::to_vector(a.at("i"))};
}

DecayedCase decayed_case_of(const json& a) {
  return DecayedCase{wire::to_matrix(a.at("Q")),    wire::to_matrix(a.at("K")),
                     wire::to_matrix(a.at("V")),    a.at("gamma").get<double>(),
                     wire::to_vector(a.at("gain")), a.at("eps").get<double>()};
}

Vector mlstm_dots(const MlstmCase& c) {
  Vector n = Vector::Zero(c.K.cols()), dots(c.Q.rows());
  for (Eigen::Index t = 0; t < c.Q.rows(); ++t) {
    n = c.f(t) * n + c.i(t) * c.K.row(t).transpose();
    dots(t) = n.dot(c.Q.row(t).transpose());
  }
  return dots;
}

Vector decayed_mean_squares(const DecayedCase& c) {
  const Matrix FQ = linref::silu(c.Q), FK = linref::silu(c.K), FV = linref::silu(c.V);
  Matrix S = Matrix::Zero(c.K.cols(), c.V.cols());
  Vector m(c.Q.rows());
  for (Eigen::Index t = 0; t < c.Q.rows(); ++t) {
    S = c.gamma * S + FK.row(t).transpose() * FV.row(t);
    m(t) = (FQ.row(t) * S).squaredNorm() / static_cast<double>(c.V.cols());
  }
  return m;
}

// ---- each check's calls --------------------------------------------------------------------

json calls_mlstm_by_hand(std::uint64_t) { return mlstm_calls({mlstm_hand_example()}); }

json calls_linear_attention_limit(std::uint64_t seed) {
  // Positive entries of at least 0.6 in d_k = 4: every n_t^T q_t >= k_1^T q_t >= 1.44.
  linref::Rng rng(seed);
  const Eigen::Index T = 12, d_k = 4, d_v = 3;
  MlstmCase c{random_positive_matrix(rng, T, d_k, 0.6), random_positive_matrix(rng, T, d_k, 0.6),
              random_matrix(rng, T, d_v), Vector::Ones(T), Vector::Ones(T)};
  return mlstm_calls({c});
}

json calls_floor_and_sign(std::uint64_t seed) {
  linref::Rng rng(seed);
  // Draw until the probe shows every regime of the denominator; deterministic in the seed.
  for (int attempt = 0; attempt < 1000; ++attempt) {
    MlstmCase c = random_mlstm(rng, 16, 4, 3, 1.0, 0.3, 0.95);
    if (covers_every_regime(c, 3)) return mlstm_calls({c});
  }
  throw std::logic_error("modern: no floor-and-sign probe found for this seed");
}

json calls_random_gates(std::uint64_t seed) {
  linref::Rng rng(seed);
  // Gates over most of (0, 1); gates near 1 over a longer sequence (slow forgetting); small
  // forget gates (fast forgetting). d_k != d_v in each, in both directions.
  return mlstm_calls({random_mlstm(rng, 12, 3, 5, 1.0, 0.05, 0.95),
                      random_mlstm(rng, 40, 6, 2, 0.8, 0.9, 0.999),
                      random_mlstm(rng, 10, 2, 4, 1.5, 0.02, 0.3)});
}

json calls_mlstm_hidden(std::uint64_t seed) {
  linref::Rng rng(seed);
  return mlstm_calls(
      {random_mlstm(rng, 25, 5, 3, 1.2, 0.05, 0.99), random_mlstm(rng, 18, 3, 7, 0.7, 0.5, 0.999)});
}

json calls_decayed_by_hand(std::uint64_t) { return decayed_calls({decayed_hand_example()}); }

json calls_decayed_single_token(std::uint64_t seed) {
  linref::Rng rng(seed);
  return decayed_calls({random_decayed(rng, 1, 3, 4, 0.5, 1e-6)});
}

json calls_small_gamma(std::uint64_t seed) {
  // eps = 0.5, near mean(y_t^2) at this scale, so that a scale RMSNorm would cancel shows.
  linref::Rng rng(seed);
  return decayed_calls({random_decayed(rng, 10, 3, 5, 0.1, 0.5)});
}

json calls_large_gamma(std::uint64_t seed) {
  linref::Rng rng(seed);
  return decayed_calls(
      {random_decayed(rng, 50, 4, 3, 0.99, 1e-6), random_decayed(rng, 30, 2, 6, 0.9, 0.25)});
}

json calls_no_decay(std::uint64_t seed) {
  linref::Rng rng(seed);
  return decayed_calls({random_decayed(rng, 12, 3, 4, 1.0, 1e-6)});
}

json calls_rms_and_eps(std::uint64_t seed) {
  // Small inputs keep mean(y_t^2) below 1, so eps = 0.2 weighs on every row; d_v = 6 > d_k.
  linref::Rng rng(seed);
  return decayed_calls(
      {random_decayed(rng, 9, 2, 6, 0.7, 0.2, 0.6), random_decayed(rng, 7, 5, 2, 0.5, 1e-6)});
}

json calls_decayed_hidden(std::uint64_t seed) {
  linref::Rng rng(seed);
  return decayed_calls(
      {random_decayed(rng, 33, 4, 5, 0.8, 0.1), random_decayed(rng, 20, 6, 3, 0.97, 1e-6)});
}

// ---- the memory rule: T = 8192, d_k = d_v = 64 -------------------------------------------

json calls_mlstm_memory(std::uint64_t seed) {
  linref::Rng rng(seed);
  return mlstm_calls({random_mlstm(rng, 8192, 64, 64, 0.3, 0.5, 0.999)});
}
json calls_decayed_memory(std::uint64_t seed) {
  linref::Rng rng(seed);
  return decayed_calls({random_decayed(rng, 8192, 64, 64, 0.99, 1e-6, 0.3)});
}

// ---- the time rule: the same widths at T = 512 and 8 T = 4096 ----------------------------
// d_k = d_v = 16 keeps a form that redoes every prefix (about T^2 d_k d_v) within the limits,
// so that it fails on its growth rather than on the clock.

json calls_mlstm_time(std::uint64_t seed) {
  linref::Rng rng(seed);
  return mlstm_calls({random_mlstm(rng, 512, 16, 16, 0.5, 0.5, 0.999),
                      random_mlstm(rng, 4096, 16, 16, 0.5, 0.5, 0.999)});
}
json calls_decayed_time(std::uint64_t seed) {
  linref::Rng rng(seed);
  return decayed_calls({random_decayed(rng, 512, 16, 16, 0.99, 1e-6, 0.5),
                        random_decayed(rng, 4096, 16, 16, 0.99, 1e-6, 0.5)});
}

}  // namespace grader::modern
