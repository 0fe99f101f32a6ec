#include "mistakes.hpp"

#include <algorithm>
#include <cmath>

namespace grader::modern {
namespace {

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

}  // namespace

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

std::vector<Suspect> mlstm_suspects(const MlstmCase& c, const Matrix& expected,
                                    const SlipNames<MlstmSlip>& names) {
  std::vector<Suspect> out;
  for (const auto& [slip, sentence] : names) {
    Matrix value = mlstm_slipped(c.Q, c.K, c.V, c.f, c.i, slip);
    if (!same_values(value, expected, kTight)) out.push_back({sentence, std::move(value)});
  }
  return out;
}

std::vector<Suspect> decayed_suspects(const DecayedCase& c, const Matrix& expected,
                                      const SlipNames<DecayedSlip>& names) {
  std::vector<Suspect> out;
  for (const auto& [slip, sentence] : names) {
    Matrix value = decayed_slipped(c, slip);
    if (!same_values(value, expected, kTight)) out.push_back({sentence, std::move(value)});
  }
  return out;
}

}  // namespace grader::modern
