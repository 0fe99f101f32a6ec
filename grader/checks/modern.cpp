// Checks of exercise 8, `modern` (35 points): mlstm (17.5) and decayed_normalized_attention
// (17.5). The expected outputs, and the outputs of the usual slips, come from the reference and
// from slipped copies of the recurrences, in the oracle regions.
//
// Both layers divide by something that hides mistakes. mlstm's max(|n_t^T q_t|, 1) cancels any
// common scale of C_t and n_t while the floor is idle, and RMSNorm cancels any scale of y_t
// except through eps. So each probe is built to make its slips visible: mlstm's probes have
// tokens with n_t^T q_t below -1 and with |n_t^T q_t| below 1, and the decayed form's probes
// use an eps as large as mean(y_t^2) wherever a slip would otherwise hide behind the norm.
//
// The file has three parts: the API description (compiled into the runner harness as well,
// see grader/common/api.hpp), the judge (not in the runner), and the oracle regions marked
// `#ifdef LINATTN_ORACLE` (they call the reference; the student kit's judge is built without
// them, in every build, so nothing outside them may use the reference).
#include "../common/api.hpp"
#include "modern.hpp"

// ==== API =====================================================================================

// Q, K: (T, d_k); V: (T, d_v); f, i: (T); gain: (d_v) -> H, O: (T, d_v).
static const api::Exercise modern_api{"modern", {
    api::function(LINATTN_SIGNATURE(mlstm), {"Q", "K", "V", "f", "i"}, {"H"}),
    api::function(LINATTN_SIGNATURE(decayed_normalized_attention),
                  {"Q", "K", "V", "gamma", "gain", {"eps", 1e-6}}, {"O"}),
}};

#ifndef LINATTN_RUNNER
// ==== the judge ===============================================================================

#include "../common/wire.hpp"
#include "../src/check.hpp"
#include "../src/compare.hpp"
#include "shared/memory_hints.hpp"
#include "shared/time_rule.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#ifdef LINATTN_ORACLE
#include "../oracle/makers.hpp"
#include "../src/api_registry.hpp"

#include <stdexcept>
#endif

#ifdef LINATTN_ORACLE
// The reference's functions, called through the API description above.
static const api::References modern_reference{
    api::reference("mlstm", &linref::mlstm),
    api::reference("decayed_normalized_attention", &linref::decayed_normalized_attention),
};
#endif

namespace grader {
namespace {

const char* kMlstm = "mlstm";
const char* kDecayed = "decayed_normalized_attention";

#ifdef LINATTN_ORACLE
// ==== oracle: calls, and what the reference says of each ====================================

// ---- mlstm ---------------------------------------------------------------------------------

struct MlstmCase {
  Matrix Q, K, V;  // Q, K: (T, d_k); V: (T, d_v)
  Vector f, i;     // (T)
};

json mlstm_calls(const std::vector<MlstmCase>& cases) {
  json calls = json::array();
  for (const MlstmCase& c : cases)
    calls.push_back(json{{"Q", wire::from_matrix(c.Q)}, {"K", wire::from_matrix(c.K)},
                         {"V", wire::from_matrix(c.V)}, {"f", wire::from_vector(c.f)},
                         {"i", wire::from_vector(c.i)}});
  return calls;
}

// The slips a student is likely to make in mlstm, one at a time.
enum class MlstmSlip {
  ForgetAfterWrite, SwappedGates, NoAbsolute, NoFloor, AbsoluteNoFloor, PlusOne, FloorOnEntries,
  ReadBeforeWrite, NoInputGateOnN, NoForgetGateOnN
};

// mlstm with one slip, written as plainly as possible (it only has to be right for the slip).
Matrix mlstm_slipped(const Matrix& Q, const Matrix& K, const Matrix& V, const Vector& f,
                     const Vector& i, MlstmSlip slip) {
  const Vector& forget = slip == MlstmSlip::SwappedGates ? i : f;
  const Vector& input = slip == MlstmSlip::SwappedGates ? f : i;
  Matrix C = Matrix::Zero(V.cols(), K.cols());  // (d_v, d_k)
  Vector n = Vector::Zero(K.cols());            // (d_k)
  Matrix H(Q.rows(), V.cols());
  for (Eigen::Index t = 0; t < Q.rows(); ++t) {
    const Vector q = Q.row(t).transpose(), k = K.row(t).transpose(), v = V.row(t).transpose();
    const Matrix C_before = C;
    const Vector n_before = n;
    if (slip == MlstmSlip::ForgetAfterWrite) {
      C = forget(t) * (C + input(t) * v * k.transpose());
      n = forget(t) * (n + input(t) * k);
    } else {
      C = forget(t) * C + input(t) * v * k.transpose();
      n = (slip == MlstmSlip::NoForgetGateOnN ? 1.0 : forget(t)) * n +
          (slip == MlstmSlip::NoInputGateOnN ? 1.0 : input(t)) * k;
    }
    const Matrix& Cr = slip == MlstmSlip::ReadBeforeWrite ? C_before : C;
    const Vector& nr = slip == MlstmSlip::ReadBeforeWrite ? n_before : n;
    const double dot = nr.dot(q);
    double den = std::max(std::abs(dot), 1.0);
    if (slip == MlstmSlip::NoAbsolute) den = std::max(dot, 1.0);
    if (slip == MlstmSlip::NoFloor) den = dot;
    if (slip == MlstmSlip::AbsoluteNoFloor) den = std::abs(dot);
    if (slip == MlstmSlip::PlusOne) den = std::abs(dot) + 1.0;
    if (slip == MlstmSlip::FloorOnEntries) den = nr.cwiseAbs().cwiseMax(1.0).dot(q);
    H.row(t) = (Cr * q).transpose() / den;
  }
  return H;
}

std::vector<Suspect> mlstm_suspects(const MlstmCase& c, const Matrix& expected) {
  const std::vector<std::pair<MlstmSlip, std::string>> slips{
      {MlstmSlip::SwappedGates,
       "the gates f and i are swapped: f_t scales what the cell already holds (C_{t-1} and "
       "n_{t-1}), i_t weighs the new pair v_t k_t^T and the new key k_t."},
      {MlstmSlip::ForgetAfterWrite,
       "the forget gate was applied after the write, C_t = f_t (C_{t-1} + i_t v_t k_t^T), so it "
       "shrinks token t's own pair too. Scale the old cell first, then add i_t v_t k_t^T (and "
       "the same for n_t)."},
      {MlstmSlip::NoAbsolute,
       "the absolute value is missing: max(n_t^T q_t, 1) turns every negative n_t^T q_t into 1. "
       "The denominator is max(|n_t^T q_t|, 1)."},
      {MlstmSlip::NoFloor,
       "the floor is missing: dividing by n_t^T q_t alone is plain causal linear attention's "
       "normalizer, which can be near zero or negative. Divide by max(|n_t^T q_t|, 1)."},
      {MlstmSlip::AbsoluteNoFloor,
       "the floor of 1 is missing: |n_t^T q_t| alone blows the output up wherever it is small. "
       "Divide by max(|n_t^T q_t|, 1)."},
      {MlstmSlip::PlusOne,
       "1 was added to the denominator instead of used as a floor: the denominator is "
       "max(|n_t^T q_t|, 1), not |n_t^T q_t| + 1."},
      {MlstmSlip::FloorOnEntries,
       "max(., 1) was put on the entries of n_t rather than on the one number |n_t^T q_t|: the "
       "floor bounds the dot product, after it is taken."},
      {MlstmSlip::ReadBeforeWrite,
       "the cell was read before token t was written (h_t from C_{t-1} and n_{t-1}), so h_1 is "
       "0. Update C_t and n_t first, then read with q_t."},
      {MlstmSlip::NoInputGateOnN,
       "the input gate is missing from the normalizer: n_t = f_t n_{t-1} + i_t k_t, with the "
       "same gates as the cell."},
      {MlstmSlip::NoForgetGateOnN,
       "the forget gate is missing from the normalizer: n_t = f_t n_{t-1} + i_t k_t, with the "
       "same gates as the cell."},
  };
  std::vector<Suspect> out;
  for (const auto& [slip, sentence] : slips) {
    Matrix value = mlstm_slipped(c.Q, c.K, c.V, c.f, c.i, slip);
    // A slip that leaves this probe's output unchanged would only mislead.
    if (!same_values(value, expected, kTight)) out.push_back({sentence, std::move(value)});
  }
  return out;
}

// n_t^T q_t for every token, for the judge's account of the worst row.
Vector mlstm_dots(const MlstmCase& c) {
  Vector n = Vector::Zero(c.K.cols()), dots(c.Q.rows());
  for (Eigen::Index t = 0; t < c.Q.rows(); ++t) {
    n = c.f(t) * n + c.i(t) * c.K.row(t).transpose();
    dots(t) = n.dot(c.Q.row(t).transpose());
  }
  return dots;
}

// Large calls (the memory rule) carry only the outputs: slips are told apart on small probes.
constexpr Eigen::Index kDetailUpTo = 1000;

json expect_mlstm(const json& a) {
  const MlstmCase c{wire::to_matrix(a.at("Q")), wire::to_matrix(a.at("K")),
                    wire::to_matrix(a.at("V")), wire::to_vector(a.at("f")),
                    wire::to_vector(a.at("i"))};
  const Matrix H = linref::mlstm(c.Q, c.K, c.V, c.f, c.i);
  json e{{"H", wire::from_matrix(H)}};
  if (c.Q.rows() <= kDetailUpTo) {
    e["dots"] = wire::from_vector(mlstm_dots(c));
    e["suspects"] = suspects_json(mlstm_suspects(c, H));
  }
  return e;
}

// The seed's remark, as a check: f = i = 1 makes mlstm causal linear attention with identity
// features, apart from the floor; on inputs where the floor is idle, the two must agree, so
// the expected output here is the causal reference's.
json expect_linear_attention_limit(const json& a) {
  const MlstmCase c{wire::to_matrix(a.at("Q")), wire::to_matrix(a.at("K")),
                    wire::to_matrix(a.at("V")), wire::to_vector(a.at("f")),
                    wire::to_vector(a.at("i"))};
  const Vector dots = mlstm_dots(c);
  if ((c.f.array() != 1.0).any() || (c.i.array() != 1.0).any() || dots.cwiseAbs().minCoeff() < 1.0)
    throw std::logic_error(
        "modern: the linear-attention-limit probe needs f = i = 1 and |n_t^T q_t| >= 1");
  const Matrix H = linref::causal_linear_attention_recurrent(c.Q, c.K, c.V, linref::identity, 0.0);
  return json{{"H", wire::from_matrix(H)},
              {"dots", wire::from_vector(dots)},
              {"suspects", suspects_json(mlstm_suspects(c, H))}};
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

json calls_mlstm_by_hand(std::uint64_t) { return mlstm_calls({mlstm_hand_example()}); }

json calls_linear_attention_limit(std::uint64_t seed) {
  // Positive entries of at least 0.6 in d_k = 4: every n_t^T q_t >= k_1^T q_t >= 1.44.
  linref::Rng rng(seed);
  const Eigen::Index T = 12, d_k = 4, d_v = 3;
  MlstmCase c{random_positive_matrix(rng, T, d_k, 0.6), random_positive_matrix(rng, T, d_k, 0.6),
              random_matrix(rng, T, d_v), Vector::Ones(T), Vector::Ones(T)};
  return mlstm_calls({c});
}

// Counts of tokens with n_t^T q_t < -1, |n_t^T q_t| < 1 and n_t^T q_t > 1.
bool covers_every_regime(const MlstmCase& c, int at_least) {
  const Vector d = mlstm_dots(c);
  return (d.array() < -1.0).count() >= at_least && (d.array().abs() < 1.0).count() >= at_least &&
         (d.array() > 1.0).count() >= at_least;
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
  return mlstm_calls({random_mlstm(rng, 25, 5, 3, 1.2, 0.05, 0.99),
                      random_mlstm(rng, 18, 3, 7, 0.7, 0.5, 0.999)});
}

// ---- decayed_normalized_attention ----------------------------------------------------------

struct DecayedCase {
  Matrix Q, K, V;  // Q, K: (T, d_k); V: (T, d_v)
  double gamma;
  Vector gain;     // (d_v)
  double eps;
};

json decayed_calls(const std::vector<DecayedCase>& cases) {
  json calls = json::array();
  for (const DecayedCase& c : cases)
    calls.push_back(json{{"Q", wire::from_matrix(c.Q)}, {"K", wire::from_matrix(c.K)},
                         {"V", wire::from_matrix(c.V)}, {"gamma", c.gamma},
                         {"gain", wire::from_vector(c.gain)}, {"eps", c.eps}});
  return calls;
}

enum class DecayedSlip {
  DecayAfterWrite, Sigmoid, NoSiluOnV, NoDecay, ReadBeforeWrite, RmsOverTokens, RmsOverAll,
  NoEps, EpsOutsideRoot, SumNotMean, NoGain
};

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

Matrix decayed_slipped(const DecayedCase& c, DecayedSlip slip) {
  auto feature = [slip](double x) {
    return slip == DecayedSlip::Sigmoid ? sigmoid(x) : x * sigmoid(x);
  };
  const Matrix FQ = c.Q.unaryExpr(feature), FK = c.K.unaryExpr(feature);
  const Matrix FV = slip == DecayedSlip::NoSiluOnV ? c.V : Matrix(c.V.unaryExpr(feature));
  const Eigen::Index T = c.Q.rows();
  const double d_v = static_cast<double>(c.V.cols());
  Matrix S = Matrix::Zero(c.K.cols(), c.V.cols());  // (d_k, d_v)
  Matrix Y(T, c.V.cols());                          // (T, d_v), before the norm
  for (Eigen::Index t = 0; t < T; ++t) {
    const Matrix write = FK.row(t).transpose() * FV.row(t);
    const Matrix S_before = S;
    if (slip == DecayedSlip::DecayAfterWrite) S = c.gamma * (S + write);
    else if (slip == DecayedSlip::NoDecay) S = S + write;
    else S = c.gamma * S + write;
    Y.row(t) = FQ.row(t) * (slip == DecayedSlip::ReadBeforeWrite ? S_before : S);
  }
  Matrix O(T, c.V.cols());
  const double all_mean = Y.squaredNorm() / static_cast<double>(Y.size());
  for (Eigen::Index t = 0; t < T; ++t) {
    const double mean = Y.row(t).squaredNorm() / d_v;
    for (Eigen::Index j = 0; j < Y.cols(); ++j) {
      double rms = std::sqrt(mean + c.eps);
      if (slip == DecayedSlip::RmsOverTokens)
        rms = std::sqrt(Y.col(j).squaredNorm() / static_cast<double>(T) + c.eps);
      if (slip == DecayedSlip::RmsOverAll) rms = std::sqrt(all_mean + c.eps);
      if (slip == DecayedSlip::NoEps) rms = std::sqrt(mean);
      if (slip == DecayedSlip::EpsOutsideRoot) rms = std::sqrt(mean) + c.eps;
      if (slip == DecayedSlip::SumNotMean) rms = std::sqrt(mean * d_v + c.eps);
      O(t, j) = (slip == DecayedSlip::NoGain ? 1.0 : c.gain(j)) * Y(t, j) / rms;
    }
  }
  return O;
}

std::vector<Suspect> decayed_suspects(const DecayedCase& c, const Matrix& expected) {
  const std::vector<std::pair<DecayedSlip, std::string>> slips{
      {DecayedSlip::Sigmoid,
       "the logistic sigmoid was used as the feature map. SiLU is x sigma(x) = x / (1 + e^-x); "
       "sigma(x) = 1 / (1 + e^-x) alone is another function."},
      {DecayedSlip::NoSiluOnV,
       "SiLU was applied to Q and K only; this recipe applies it to V as well: the state adds "
       "silu(k_t) silu(v_t)^T."},
      {DecayedSlip::DecayAfterWrite,
       "the decay was applied after the write, S_t = gamma (S_{t-1} + silu(k_t) silu(v_t)^T). "
       "That makes every y_t gamma times too small, which RMSNorm hides except through eps. "
       "Decay the old state first, then add the new pair at full weight."},
      {DecayedSlip::NoDecay,
       "the decay is missing: S_t = gamma S_{t-1} + silu(k_t) silu(v_t)^T, with gamma on the "
       "old state (gamma on the new pair alone is a common scale that RMSNorm removes)."},
      {DecayedSlip::ReadBeforeWrite,
       "y_t was read from S_{t-1}, before token t was added, so the first output is 0. Add the "
       "token's pair first, then read with silu(q_t)."},
      {DecayedSlip::RmsOverTokens,
       "the root mean square was taken over the wrong axis, down each column over the T tokens. "
       "Each token's output is divided by the RMS of its own d_v entries (one row)."},
      {DecayedSlip::RmsOverAll,
       "the root mean square was taken over the whole T x d_v output at once. Each token's "
       "output is divided by the RMS of its own d_v entries (one row)."},
      {DecayedSlip::NoEps,
       "eps is missing from the RMS: divide by sqrt(mean(y_t^2) + eps)."},
      {DecayedSlip::EpsOutsideRoot,
       "eps was added outside the square root: divide by sqrt(mean(y_t^2) + eps), not by "
       "sqrt(mean(y_t^2)) + eps."},
      {DecayedSlip::SumNotMean,
       "the sum of squares was used where their mean belongs: the RMS is "
       "sqrt((y_t1^2 + ... + y_td_v^2) / d_v + eps)."},
      {DecayedSlip::NoGain,
       "the gains are missing: multiply the normalized y_t entry by entry by gain."},
  };
  std::vector<Suspect> out;
  for (const auto& [slip, sentence] : slips) {
    Matrix value = decayed_slipped(c, slip);
    if (!same_values(value, expected, kTight)) out.push_back({sentence, std::move(value)});
  }
  return out;
}

// mean(y_t^2) for every token, for the judge's account of the worst row.
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

json expect_decayed(const json& a) {
  const DecayedCase c{wire::to_matrix(a.at("Q")),    wire::to_matrix(a.at("K")),
                      wire::to_matrix(a.at("V")),    a.at("gamma").get<double>(),
                      wire::to_vector(a.at("gain")), a.at("eps").get<double>()};
  const Matrix O = linref::decayed_normalized_attention(c.Q, c.K, c.V, c.gamma, c.gain, c.eps);
  json e{{"O", wire::from_matrix(O)}};
  if (c.Q.rows() <= kDetailUpTo) {
    e["mean_squares"] = wire::from_vector(decayed_mean_squares(c));
    e["suspects"] = suspects_json(decayed_suspects(c, O));
  }
  return e;
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
  return decayed_calls({random_decayed(rng, 50, 4, 3, 0.99, 1e-6),
                        random_decayed(rng, 30, 2, 6, 0.9, 0.25)});
}

json calls_no_decay(std::uint64_t seed) {
  linref::Rng rng(seed);
  return decayed_calls({random_decayed(rng, 12, 3, 4, 1.0, 1e-6)});
}

json calls_rms_and_eps(std::uint64_t seed) {
  // Small inputs keep mean(y_t^2) below 1, so eps = 0.2 weighs on every row; d_v = 6 > d_k.
  linref::Rng rng(seed);
  return decayed_calls({random_decayed(rng, 9, 2, 6, 0.7, 0.2, 0.6),
                        random_decayed(rng, 7, 5, 2, 0.5, 1e-6)});
}

json calls_decayed_hidden(std::uint64_t seed) {
  linref::Rng rng(seed);
  return decayed_calls({random_decayed(rng, 33, 4, 5, 0.8, 0.1),
                        random_decayed(rng, 20, 6, 3, 0.97, 1e-6)});
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
#endif  // LINATTN_ORACLE

// ---- the judge -----------------------------------------------------------------------------

// True when got's rows 1..T-1 equal expected's rows 0..T-2 (outputs written one token late).
bool shifted_by_one(const Matrix& expected, const Matrix& got) {
  const Eigen::Index T = expected.rows();
  if (T < 2 || got.rows() != T || got.cols() != expected.cols()) return false;
  return same_values(expected.topRows(T - 1), got.bottomRows(T - 1), kTight);
}

std::string range_of(const Vector& x) {
  if (x.size() == 0) return "empty";
  if (x.minCoeff() == x.maxCoeff()) return "all " + fmt(x(0));
  return "in [" + fmt(x.minCoeff()) + ", " + fmt(x.maxCoeff()) + "]";
}

// What is said about the worst row besides the comparison: the denominator there, which is
// where the two layers' slips show.
std::string worst_row_account(const std::string& function, const json& e, Eigen::Index row,
                              const json& call) {
  if (row < 0) return "";
  if (function == kMlstm && e.contains("dots")) {
    const Vector dots = wire::to_vector(e.at("dots"));
    if (row >= dots.size()) return "";
    const double d = dots(row);
    return "\n  At token t = " + std::to_string(row + 1) + " (row " + std::to_string(row) +
           "): n_t^T q_t = " + fmt(d) +
           ", so the denominator is max(|n_t^T q_t|, 1) = " + fmt(std::max(std::abs(d), 1.0)) +
           (std::abs(d) < 1.0 ? " (the floor acts here)"
            : d < 0           ? " (the absolute value matters here)"
                              : "") +
           ".";
  }
  if (function == kDecayed && e.contains("mean_squares")) {
    const Vector m = wire::to_vector(e.at("mean_squares"));
    if (row >= m.size()) return "";
    const double eps = call.at("eps").get<double>();
    return "\n  At token t = " + std::to_string(row + 1) + " (row " + std::to_string(row) +
           "): mean(y_t^2) = " + fmt(m(row)) + " over its d_v entries, so y_t is divided by sqrt(" +
           fmt(m(row)) + " + " + fmt(eps) + ") = " + fmt(std::sqrt(m(row) + eps)) + ".";
  }
  return "";
}

std::string describe_call(const std::string& function, const json& a) {
  const Matrix Q = wire::to_matrix(a.at("Q")), V = wire::to_matrix(a.at("V"));
  std::string s = function + "(Q, K: " + shape_of(Q) + ", V: " + shape_of(V);
  if (function == kMlstm)
    return s + ", f " + range_of(wire::to_vector(a.at("f"))) + ", i " +
           range_of(wire::to_vector(a.at("i"))) + ")";
  return s + ", gamma = " + fmt(a.at("gamma").get<double>()) + ", gain " +
         range_of(wire::to_vector(a.at("gain"))) + ", eps = " + fmt(a.at("eps").get<double>()) +
         ")";
}

// expected per call: {"H" or "O": (T, d_v), and on small probes "dots" (mlstm) or
// "mean_squares" (decayed) per token, and "suspects"}
Verdict judge_sequence(const std::string& function, const std::string& note, const json& request,
                       const json& expected, const json& reply) {
  const std::string out = function == kMlstm ? "H" : "O";
  return each_call(
      request, expected, reply,
      [&](std::size_t, const json& a, const json& e, const json& r) -> std::optional<Verdict> {
        const Matrix want = wire::to_matrix(e.at(out));
        const Matrix got = wire::to_matrix(r.at(out));
        const Comparison cmp = compare_matrices(want, got, kTight, out, "T x d_v");
        if (cmp.ok) return std::nullopt;
        std::string tried = describe_call(function, a);
        if (!note.empty()) tried += "\n" + note;
        std::optional<std::string> mistake;
        if (e.contains("suspects")) mistake = diagnose(got, e.at("suspects"), kTight);
        if (!mistake && shifted_by_one(want, got))
          mistake =
              "the outputs are one token late: row t holds what row t-1 should. Write token t "
              "into the state, then read it, in the same step.";
        if (!mistake && !cmp.shape_ok && got.rows() == want.cols() && got.cols() == want.rows())
          mistake = "the output is transposed; it has one row per token, (T, d_v).";
        return failure(
            tried,
            cmp.report + (cmp.shape_ok ? worst_row_account(function, e, cmp.worst_row, a) : ""),
            mistake);
      });
}

// With d_k != d_v, a state of the wrong shape stops on Eigen's shape check instead of giving
// wrong numbers; the crash then says so.
const char* const kMlstmShapeHint =
    "a shape mismatch, most often the cell built the other way round: C is (d_v, d_k), made of "
    "v_t k_t^T, and read as C_t q_t; n is (d_k). The probes with d_k != d_v stop here.";
const char* const kDecayedShapeHint =
    "a shape mismatch, most often the state built the other way round: S is (d_k, d_v), made of "
    "silu(k_t) silu(v_t)^T, and read as S_t^T silu(q_t); gain has d_v entries.";

Check sequence_check(const char* function, const std::string& name, double points, Visibility vis,
                     std::uint64_t seed, std::string note, Oracle oracle) {
  Check c = make_check(
      function, name, points, vis, seed,
      [function = std::string(function), note](const json& rq, const json& ex, const json& rp) {
        return judge_sequence(function, note, rq, ex, rp);
      });
  c.crash_hint = std::string(function) == kMlstm ? kMlstmShapeHint : kDecayedShapeHint;
  return with_oracle(std::move(c), std::move(oracle));
}

// The memory rule, as for causal's recurrent form: T = 8192, d_k = d_v = 64.
constexpr std::uint64_t kMemT = 8192, kMemD = 64;

std::uint64_t memory_budget() {
  const std::uint64_t T = kMemT, d_k = kMemD, d_v = kMemD;
  return 2 * 8 * (2 * T * d_k + 2 * T * d_v) + 4 * 8 * d_k * d_v + (4ull << 20);
}

Check memory_check(const char* function, const std::string& name, std::string note, Oracle oracle) {
  Check c = sequence_check(function, name, 2.5, Visibility::Visible, 1, std::move(note),
                           std::move(oracle));
  c.heap_budget_bytes = memory_budget();
  c.heap_budget_rule =
      "8 bytes x 2 copies x (2 T d_k + 2 T d_v), room for the features of Q, K and V and the "
      "output twice over, + 4 states of d_k x d_v doubles + 4 MiB of slack = " +
      std::to_string(memory_budget()) + " bytes at T = 8192, d_k = d_v = 64; a T x T matrix of "
      "doubles (512 MiB, about 14 times that) or the T states of a cumulative sum (256 MiB, "
      "about 7 times) cannot pass";
  // As for causal's memory check: the runner holds about 100 MiB before the call, so 240 MiB
  // of address space leaves room for the budget, and none for T x T or T stored states.
  c.limits.address_space_bytes = 240ull << 20;
  c.memory_hint = token_axis_memory_hint;
  return c;
}

std::vector<Check> make_modern_checks() {
  std::vector<Check> checks;
  // mlstm: 17.5.
  checks.push_back(sequence_check(
      kMlstm, "mlstm/by-hand", 3.0, Visibility::Visible, 1,
      "The hand-out's four tokens (f = 1/2, i = (1, 2, 1, 1)); the outputs are (1, 0), "
      "(0.2, 1.6), (-0.5, -1.5) and (0.625, 0.5). Token 3 has n_t^T q_t = -8, token 4 has "
      "n_t^T q_t = 0.625, where the floor acts.",
      LINATTN_ORACLE_OF(calls_mlstm_by_hand, expect_mlstm)));
  checks.push_back(sequence_check(
      kMlstm, "mlstm/linear-attention-limit", 2.5, Visibility::Visible, 1,
      "f = i = 1 and positive queries and keys, so every |n_t^T q_t| >= 1 and the floor never "
      "acts: the output must be causal linear attention's with identity features and eps = 0 "
      "(d_k = 4, d_v = 3).",
      LINATTN_ORACLE_OF(calls_linear_attention_limit, expect_linear_attention_limit)));
  checks.push_back(sequence_check(
      kMlstm, "mlstm/floor-and-sign", 3.5, Visibility::Visible, 1,
      "Gates in (0.3, 0.95), d_k = 4, d_v = 3, 16 tokens: at least three have n_t^T q_t < -1, "
      "three have |n_t^T q_t| < 1 (the floor acts) and three have n_t^T q_t > 1.",
      LINATTN_ORACLE_OF(calls_floor_and_sign, expect_mlstm)));
  checks.push_back(sequence_check(
      kMlstm, "mlstm/random-gates", 3.0, Visibility::Visible, 1,
      "Three calls with seeded gates: over most of (0, 1) with d_k = 3, d_v = 5; close to 1 "
      "(slow forgetting) over 40 tokens with d_k = 6, d_v = 2; and small (fast forgetting) with "
      "d_k = 2, d_v = 4.",
      LINATTN_ORACLE_OF(calls_random_gates, expect_mlstm)));
  checks.push_back(memory_check(
      kMlstm, "mlstm/memory-budget",
      "T = 8192 tokens, d_k = d_v = 64: mlstm must keep one cell and one normalizer.",
      LINATTN_ORACLE_OF(calls_mlstm_memory, expect_mlstm)));
  // The time rule: the same problem at T and 8 T must cost about 8 times as much, not 64.
  checks.push_back(
      linear_time_check(kMlstm, "mlstm/linear-time", 2.0,
                        LINATTN_ORACLE_OF(calls_mlstm_time, time_rule_expect(kMlstm, "Q"))));
  checks.push_back(sequence_check(kMlstm, "mlstm/random-hidden", 1.0, Visibility::Hidden, 23, "",
                                  LINATTN_ORACLE_OF(calls_mlstm_hidden, expect_mlstm)));
  // decayed_normalized_attention: 17.5.
  checks.push_back(sequence_check(
      kDecayed, "decayed/by-hand", 2.5, Visibility::Visible, 1,
      "The hand-out's three tokens (d_k = 1, gamma = 1/2, gain = (1, 2), eps = 0); the outputs "
      "are (1.4142135624, 0), (1.3525673113, -0.8259822479) and (-0.1482013470, -2.8128536121).",
      LINATTN_ORACLE_OF(calls_decayed_by_hand, expect_decayed)));
  checks.push_back(sequence_check(
      kDecayed, "decayed/single-token", 1.0, Visibility::Visible, 1,
      "One token: S_1 = silu(k_1) silu(v_1)^T, whatever gamma is.",
      LINATTN_ORACLE_OF(calls_decayed_single_token, expect_decayed)));
  checks.push_back(sequence_check(
      kDecayed, "decayed/small-gamma", 2.5, Visibility::Visible, 1,
      "gamma = 0.1 (fast forgetting), d_k = 3, d_v = 5, eps = 0.5: with eps this large, a "
      "scale that RMSNorm would otherwise cancel shows in the output.",
      LINATTN_ORACLE_OF(calls_small_gamma, expect_decayed)));
  checks.push_back(sequence_check(
      kDecayed, "decayed/large-gamma", 2.5, Visibility::Visible, 1,
      "Slow forgetting: gamma = 0.99 over 50 tokens (d_k = 4, d_v = 3, eps = 1e-6), then "
      "gamma = 0.9 over 30 tokens (d_k = 2, d_v = 6, eps = 0.25).",
      LINATTN_ORACLE_OF(calls_large_gamma, expect_decayed)));
  checks.push_back(sequence_check(
      kDecayed, "decayed/no-decay", 1.5, Visibility::Visible, 1,
      "gamma = 1: no forgetting, TransNormer's causal form with SiLU features and gains.",
      LINATTN_ORACLE_OF(calls_no_decay, expect_decayed)));
  checks.push_back(sequence_check(
      kDecayed, "decayed/rms-and-eps", 2.5, Visibility::Visible, 1,
      "Call 1: small inputs, d_k = 2, d_v = 6, eps = 0.2, so eps weighs on every row; call 2: "
      "d_k = 5, d_v = 2. Each row is divided by the RMS of its own d_v entries.",
      LINATTN_ORACLE_OF(calls_rms_and_eps, expect_decayed)));
  checks.push_back(memory_check(
      kDecayed, "decayed/memory-budget",
      "T = 8192 tokens, d_k = d_v = 64: the decayed form must keep one state.",
      LINATTN_ORACLE_OF(calls_decayed_memory, expect_decayed)));
  checks.push_back(
      linear_time_check(kDecayed, "decayed/linear-time", 2.0,
                        LINATTN_ORACLE_OF(calls_decayed_time, time_rule_expect(kDecayed, "Q"))));
  checks.push_back(sequence_check(kDecayed, "decayed/random-hidden", 0.5, Visibility::Hidden, 29,
                                  "", LINATTN_ORACLE_OF(calls_decayed_hidden, expect_decayed)));
  return checks;
}

}  // namespace
}  // namespace grader

static grader::Registrar modern_registrar{"modern", grader::make_modern_checks};

#endif  // LINATTN_RUNNER
