// Lab "pitfalls" (the box of implementation pitfalls): the three that no other lab shows.
//   (a) feature maps with negative entries (identity, SiLU) under the denominator, against elu+1;
//   (b) the state accumulated in bf16 against float32, with double as the truth;
//   (c) the 1/sqrt(d_k) temperature dropped before positive random features.
#include "labs.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <ostream>
#include <stdexcept>

namespace linlab {

namespace {

using linref::Matrix;
using linref::Vector;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---- (a) ----

DenominatorRow denominator_row(const std::string& name, const linref::FeatureMap& phi,
                               const Matrix& Q, const Matrix& K, const Matrix& V) {
  const Matrix FQ = phi(Q), FK = phi(K);
  // The masked kernel matrix: row t holds phi(q_t)^T phi(k_s) for s <= t.
  Matrix W = FQ * FK.transpose();
  W.triangularView<Eigen::StrictlyUpper>().setZero();
  const Vector den = W.rowwise().sum();                   // z_t^T phi(q_t), no eps
  const Vector magnitude = W.cwiseAbs().rowwise().sum();  // what den would be without cancelling
  DenominatorRow row;
  row.map = name;
  row.min_denominator = den.minCoeff();
  row.nonpositive = (den.array() <= 0.0).count();
  // |o_t| can reach max|v| * magnitude_t / |den_t|: a small ratio is an amplification.
  const Vector ratio = den.cwiseQuotient(magnitude);
  row.min_abs_ratio = ratio.cwiseAbs().minCoeff();
  row.cancelled = (ratio.array().abs() < 0.01).count();
  const Matrix O = linref::causal_linear_attention_recurrent(Q, K, V, phi);  // eps = 1e-6
  row.max_output_ratio = O.cwiseAbs().maxCoeff() / V.cwiseAbs().maxCoeff();
  return row;
}

// ---- (b) ----

// A state kept in float (float32 arithmetic, optionally stored as bf16 after every update).
struct LowPrecisionState {
  Eigen::MatrixXf S;  // (d_phi, d_v)
  Eigen::VectorXf z;  // (d_phi)
  bool bf16;
  long long updates = 0, lost = 0;  // element updates with a nonzero increment; those that vanished

  void add(float& entry, float increment) {
    const float before = entry;
    float after = before + increment;  // one float32 addition
    if (bf16) after = round_to_bf16(after);
    if (increment != 0.0f) {
      ++updates;
      if (after == before) ++lost;
    }
    entry = after;
  }
  void write(const Vector& a, const Vector& v) {
    for (Eigen::Index j = 0; j < S.cols(); ++j)
      for (Eigen::Index i = 0; i < S.rows(); ++i)
        add(S(i, j), static_cast<float>(a(i)) * static_cast<float>(v(j)));
    for (Eigen::Index i = 0; i < z.size(); ++i) add(z(i), static_cast<float>(a(i)));
  }
  // The read is done in double from the stored numbers, so only the storage is compared.
  Vector read(const Vector& q, double eps) const {
    const Matrix Sd = S.cast<double>();
    return Sd.transpose() * q / (z.cast<double>().dot(q) + eps);
  }
};

double relative_error(const Matrix& approx, const Matrix& truth) {
  return (approx - truth).norm() / truth.norm();
}

// ---- (c) ----

// Least-squares slope of y against x (with an intercept).
double slope(const Vector& x, const Vector& y) {
  const double mx = x.mean(), my = y.mean();
  return ((x.array() - mx) * (y.array() - my)).sum() / (x.array() - mx).square().sum();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Rows of a positive (n_q, n_k) kernel matrix turned into weights.
Matrix row_weights(const Matrix& kernel) {
  return kernel.array().colwise() / kernel.rowwise().sum().array();
}

// Mean over queries of half the L1 distance between two weight rows: the weight misplaced.
double misplaced(const Matrix& P, const Matrix& R) {
  return 0.5 * (P - R).cwiseAbs().rowwise().sum().mean();
}

}  // namespace

float round_to_bf16(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  if ((bits & 0x7f800000u) == 0x7f800000u) return x;  // inf and nan pass through
  // bf16 keeps the top 16 bits of a float32 (sign, 8 exponent bits, 7 stored mantissa bits).
  // Adding 0x7fff plus the lowest kept bit, then cutting, rounds to nearest with ties to even.
  bits += 0x7fffu + ((bits >> 16) & 1u);
  bits &= 0xffff0000u;
  float out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

std::vector<DenominatorRow> compute_pitfall_denominators(std::uint64_t seed, Eigen::Index T,
                                                         Eigen::Index d) {
  linref::Rng rng(seed);
  const Matrix Q = rng.normal_matrix(T, d), K = rng.normal_matrix(T, d),
               V = rng.normal_matrix(T, d);
  std::vector<DenominatorRow> rows = {
      denominator_row("identity", linref::identity, Q, K, V),
      denominator_row("SiLU", linref::silu, Q, K, V),
      denominator_row("elu+1", linref::elu_plus_one, Q, K, V),
  };
  // The other way out: no denominator, the output normalized instead (TransNormer).
  DenominatorRow fix;
  fix.map = "identity, no denominator, RMS-normalized output";
  fix.min_denominator = fix.min_abs_ratio = kNaN;
  fix.nonpositive = fix.cancelled = 0;
  const Matrix O = linref::normalized_linear_attention(Q, K, V, linref::identity, true);
  fix.max_output_ratio = O.cwiseAbs().maxCoeff() / V.cwiseAbs().maxCoeff();
  rows.push_back(fix);
  return rows;
}

Bf16Result compute_pitfall_bf16(std::uint64_t seed, Eigen::Index T_max, Eigen::Index d) {
  if (T_max < 256) throw std::invalid_argument("compute_pitfall_bf16: T_max must be >= 256");
  Bf16Result r;
  r.d = d;
  linref::Rng rng(seed);
  const Matrix FQ = linref::elu_plus_one(rng.normal_matrix(T_max, d));  // (T, d_phi)
  const Matrix FK = linref::elu_plus_one(rng.normal_matrix(T_max, d));  // (T, d_phi)
  const Matrix V = rng.normal_matrix(T_max, d);                         // (T, d_v)
  const double eps = 1e-6;
  // The truth: linref's recurrence in double.
  const Matrix O_true = linref::causal_recurrent_from_features(FQ, FK, V, eps);

  Matrix S = Matrix::Zero(d, d);  // double state, to measure the state's own error
  Vector z = Vector::Zero(d);
  LowPrecisionState f32{Eigen::MatrixXf::Zero(d, d), Eigen::VectorXf::Zero(d), false};
  LowPrecisionState b16{Eigen::MatrixXf::Zero(d, d), Eigen::VectorXf::Zero(d), true};
  r.double_vs_linref = 0.0;

  Bf16Row row{};
  double out_err_f32 = 0.0, out_err_b16 = 0.0;
  long long window_start = 0;
  Eigen::Index next_checkpoint = 256;
  for (Eigen::Index t = 0; t < T_max; ++t) {
    const Vector a = FK.row(t).transpose(), v = V.row(t).transpose(), q = FQ.row(t).transpose();
    S.noalias() += a * v.transpose();
    z += a;
    f32.write(a, v);
    b16.write(a, v);
    const Vector truth = O_true.row(t).transpose();
    const Vector o64 = S.transpose() * q / (z.dot(q) + eps);
    r.double_vs_linref = std::max(r.double_vs_linref, (o64 - truth).cwiseAbs().maxCoeff());
    out_err_f32 += (f32.read(q, eps) - truth).norm() / truth.norm();
    out_err_b16 += (b16.read(q, eps) - truth).norm() / truth.norm();
    if (t + 1 == next_checkpoint) {
      const double tokens = static_cast<double>(t + 1 - window_start);
      row.T = t + 1;
      row.state_error_f32 = relative_error(f32.S.cast<double>(), S);
      row.state_error_bf16 = relative_error(b16.S.cast<double>(), S);
      row.z_error_f32 = relative_error(f32.z.cast<double>(), z);
      row.z_error_bf16 = relative_error(b16.z.cast<double>(), z);
      row.output_error_f32 = out_err_f32 / tokens;
      row.output_error_bf16 = out_err_b16 / tokens;
      row.lost_f32 = static_cast<double>(f32.lost) / static_cast<double>(f32.updates);
      row.lost_bf16 = static_cast<double>(b16.lost) / static_cast<double>(b16.updates);
      r.rows.push_back(row);
      // The next window starts afresh, so each row describes its own stretch of tokens.
      out_err_f32 = out_err_b16 = 0.0;
      f32.lost = f32.updates = b16.lost = b16.updates = 0;
      window_start = t + 1;
      next_checkpoint *= 4;
    }
  }
  return r;
}

TemperatureResult compute_pitfall_temperature(std::uint64_t seed, Eigen::Index d_phi) {
  TemperatureResult r;
  r.n_q = 16;
  r.n_k = 32;
  r.d_k = 16;
  r.d_phi = d_phi;
  r.entry_std = 0.5;  // vectors at half length, so that even the untempered estimate is usable
  linref::Rng rng(seed);
  const Matrix Q = r.entry_std * rng.normal_matrix(r.n_q, r.d_k);  // (16, 16)
  const Matrix K = r.entry_std * rng.normal_matrix(r.n_k, r.d_k);  // (32, 16)
  const Matrix Omega = linref::orthogonal_omega(d_phi, r.d_k, rng);
  const Matrix scores = Q * K.transpose();  // q^T k, (16, 32)
  const double root_dk = std::sqrt(static_cast<double>(r.d_k));
  const Matrix tempered = (scores / root_dk).array().exp();  // exp(q^T k / sqrt(d_k))
  const Matrix untempered = scores.array().exp();            // exp(q^T k)
  const Matrix P_tempered = row_weights(tempered), P_untempered = row_weights(untempered);
  r.softmax_gap = misplaced(P_tempered, P_untempered);

  const Vector x = Eigen::Map<const Vector>(scores.data(), scores.size());
  for (bool temperature : {true, false}) {
    // With the temperature each vector is divided by d_k^{1/4}, so their dot product is
    // q^T k / sqrt(d_k); without it they go in as they are.
    const double f = temperature ? std::pow(static_cast<double>(r.d_k), -0.25) : 1.0;
    const Matrix estimate = linref::positive_random_features(f * Q, Omega) *
                            linref::positive_random_features(f * K, Omega).transpose();
    TemperatureRow row;
    row.temperature = temperature;
    const Vector log_est = Eigen::Map<const Vector>(estimate.data(), estimate.size()).array().log();
    row.slope = slope(x, log_est);
    std::vector<double> vs_t, vs_u;
    for (Eigen::Index i = 0; i < estimate.size(); ++i) {
      vs_t.push_back(std::fabs(estimate(i) / tempered(i) - 1.0));
      vs_u.push_back(std::fabs(estimate(i) / untempered(i) - 1.0));
    }
    row.error_vs_tempered = median(vs_t);
    row.error_vs_untempered = median(vs_u);
    const Matrix P = row_weights(estimate);
    row.misplaced_vs_tempered = misplaced(P, P_tempered);
    row.misplaced_vs_untempered = misplaced(P, P_untempered);
    r.rows.push_back(row);
  }
  return r;
}

namespace {

// (a) A feature map with negative entries under the denominator; true when the identity map
// meets a denominator at or below zero and elu+1 none.
bool print_denominators(std::ostream& os) {
  const Eigen::Index T_a = 1024, d_a = 16;
  const auto den = compute_pitfall_denominators(11, T_a, d_a);
  os << "  (a) feature maps with negative entries under the denominator. Q, K, V: N(0, 1), T = "
     << T_a << ", d = " << d_a
     << ".\n      den_t = z_t^T phi(q_t); ratio_t = den_t / "
        "sum_{s<=t} |phi(q_t)^T phi(k_s)| (1 when no\n      term cancels; 1/|ratio_t| bounds "
        "how much |o_t| can exceed max |v|).\n";
  Table ta(
      {"phi", "min den_t", "den_t <= 0", "|ratio_t| < 0.01", "min |ratio_t|", "max |o| / max |v|"});
  for (const DenominatorRow& row : den) {
    const bool fix = std::isnan(row.min_denominator);
    ta.row({row.map, fix ? "-" : fmt(row.min_denominator, 3),
            fix ? "-" : std::to_string(row.nonpositive) + " of " + std::to_string(T_a),
            fix ? "-" : std::to_string(row.cancelled), fix ? "-" : fmt_sci(row.min_abs_ratio),
            fmt(row.max_output_ratio, 3)});
  }
  ta.print(os);
  const DenominatorRow& id = den[0];
  const DenominatorRow& elu = den[2];
  seed_vs_measured(os, "denominator with a feature map that has negative entries",
                   "divides by numbers near zero or below it; a positive phi cannot",
                   "identity: " + std::to_string(id.nonpositive) +
                       " tokens with den <= 0, outputs up to " + fmt(id.max_output_ratio, 1) +
                       "x max |v|; elu+1: none, min den " + fmt(elu.min_denominator, 2) +
                       ", outputs within max |v|");
  return id.nonpositive > 0 && elu.nonpositive == 0 && elu.max_output_ratio <= 1.0;
}

// (b) The state accumulated in bf16; true when bf16's output error grows along the sequence
// and ends far above float32's.
bool print_bf16(std::ostream& os) {
  const Bf16Result b = compute_pitfall_bf16(12, 65536, 16);
  os << "\n  (b) the state accumulated in bf16 (float32 sums rounded to bf16 after every update, "
        "ties to\n      even) and in float32, against double. elu+1 features, d_phi = d_v = "
     << b.d
     << ", N(0, 1) values.\n      Errors: relative (Frobenius) for S_T and z_T; outputs: "
        "mean relative error over the\n      tokens since the previous row; lost: share of "
        "those tokens' nonzero updates that left\n      the stored entry unchanged.\n";
  Table tb({"T", "S err bf16", "S err f32", "z err bf16", "z err f32", "out err bf16",
            "out err f32", "lost bf16", "lost f32"});
  for (const Bf16Row& row : b.rows)
    tb.row({fmt_int(row.T), fmt_sci(row.state_error_bf16), fmt_sci(row.state_error_f32),
            fmt_sci(row.z_error_bf16), fmt_sci(row.z_error_f32), fmt_sci(row.output_error_bf16),
            fmt_sci(row.output_error_f32), fmt_pct(row.lost_bf16), fmt_pct(row.lost_f32, 3)});
  tb.print(os);
  const Bf16Row& first = b.rows.front();
  const Bf16Row& last = b.rows.back();
  seed_vs_measured(os, "bf16 state over a long sequence",
                   "small updates are lost once the state is large; float32 keeps them",
                   "bf16 output error " + fmt_sci(first.output_error_bf16) +
                       " at T = " + fmt_int(first.T) + ", " + fmt_sci(last.output_error_bf16) +
                       " at T = " + fmt_int(last.T) + " (" + fmt_pct(last.lost_bf16) +
                       " of updates lost); float32 " + fmt_sci(last.output_error_f32));
  os << "  (the lab's double accumulation matches linref's recurrence to "
     << fmt_sci(b.double_vs_linref) << ")\n";
  return last.output_error_bf16 > 10.0 * last.output_error_f32 &&
         last.output_error_bf16 > first.output_error_bf16;
}

// (c) Positive random features with and without the temperature; true when each is closer to
// the kernel it approximates.
bool print_temperature(std::ostream& os) {
  const TemperatureResult c = compute_pitfall_temperature(13, 65536);
  os << "\n  (c) positive random features with and without the temperature. " << c.n_q
     << " queries, " << c.n_k << " keys, d_k = " << c.d_k << ",\n      entries N(0, "
     << fmt(c.entry_std * c.entry_std, 2) << "), d_phi = " << fmt_int(c.d_phi)
     << " orthogonal features.\n      slope: least squares of log(estimate) on q^T k; "
        "errors: median |estimate / kernel - 1|\n      over the pairs; misplaced: weight "
        "moved against the softmax weights of that kernel\n      (mean over queries).\n";
  Table tc({"inputs", "slope", "err vs exp(q.k/sqrt d_k)", "err vs exp(q.k)",
            "misplaced vs tempered", "misplaced vs untempered"});
  for (const TemperatureRow& row : c.rows)
    tc.row({row.temperature ? "q, k scaled by d_k^-1/4" : "q, k as they are (no temperature)",
            fmt(row.slope, 3), fmt_pct(row.error_vs_tempered), fmt_pct(row.error_vs_untempered),
            fmt_pct(row.misplaced_vs_tempered), fmt_pct(row.misplaced_vs_untempered)});
  tc.print(os);
  os << "  (the two softmax kernels themselves place " << fmt_pct(c.softmax_gap)
     << " of the weight differently)\n";
  const TemperatureRow& with = c.rows[0];
  const TemperatureRow& without = c.rows[1];
  seed_vs_measured(os, "which kernel the features approximate",
                   "with the d_k^-1/4 scaling exp(q.k/sqrt(d_k)); without it a different kernel",
                   "slope " + fmt(with.slope, 3) + " (1/sqrt(d_k) = " +
                       fmt(1.0 / std::sqrt(static_cast<double>(c.d_k)), 3) + ") with it, " +
                       fmt(without.slope, 3) + " without: exp(q.k) is approximated instead");
  return with.error_vs_tempered < with.error_vs_untempered &&
         without.error_vs_untempered < without.error_vs_tempered;
}

}  // namespace

int run_pitfalls(const Options&, std::ostream& os) {
  heading(os, "pitfalls", "pitfalls box",
          "Three of the box's pitfalls that the other labs do not show, each measured.");
  // Each part prints whatever the others find.
  const bool a = print_denominators(os);
  const bool b = print_bf16(os);
  const bool c = print_temperature(os);
  return a && b && c ? 0 : 1;
}

}  // namespace linlab
