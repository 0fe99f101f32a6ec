#include "mistakes.hpp"

#include <functional>

namespace grader::causal {
namespace {

// Runs the recurrence with pluggable read rules. `t` counts from 1.
//   read(S_t, z_t, S_{t-1}, z_{t-1}, fq_t, t) -> o_t (d_v)
using ReadRule = std::function<Vector(const Matrix& S, const Vector& z, const Matrix& S_prev,
                                      const Vector& z_prev, const Vector& fq, Eigen::Index t)>;

Matrix run(const Matrix& FQ, const Matrix& FK, const Matrix& V, const ReadRule& read) {
  const Eigen::Index T = FQ.rows(), d_phi = FQ.cols(), d_v = V.cols();
  Matrix S = Matrix::Zero(d_phi, d_v);  // S: (d_phi, d_v)
  Vector z = Vector::Zero(d_phi);       // z: (d_phi)
  Matrix O(T, d_v);
  for (Eigen::Index t = 0; t < T; ++t) {
    const Matrix S_prev = S;
    const Vector z_prev = z;
    const Vector fk = FK.row(t).transpose(), fq = FQ.row(t).transpose();
    S += fk * V.row(t);
    z += fk;
    O.row(t) = read(S, z, S_prev, z_prev, fq, t + 1).transpose();
  }
  return O;
}

// Sums over s >= t instead of s <= t.
Matrix run_backwards(const Matrix& FQ, const Matrix& FK, const Matrix& V, double eps) {
  const Eigen::Index T = FQ.rows();
  Matrix O(T, V.cols());
  Matrix S = Matrix::Zero(FQ.cols(), V.cols());
  Vector z = Vector::Zero(FQ.cols());
  for (Eigen::Index t = T - 1; t >= 0; --t) {
    S += FK.row(t).transpose() * V.row(t);
    z += FK.row(t).transpose();
    const Vector fq = FQ.row(t).transpose();
    O.row(t) = (S.transpose() * fq / (z.dot(fq) + eps)).transpose();
  }
  return O;
}

// The slips of eps's place in the outputs (only when eps is not 0: with 0 they would give the
// right outputs), appended to `out` in the order they are tried.
void add_eps_suspects(const Matrix& FQ, const Matrix& FK, const Matrix& V, double eps,
                      std::vector<Suspect>& out) {
  const Eigen::Index d_v = V.cols();
  out.push_back(
      {"eps is not in the denominator. It must be added exactly as written, "
       "z_t^T phi(q_t) + eps; with a large eps the difference is plain to see.",
       run(FQ, FK, V,
           [](const Matrix& S, const Vector& z, const Matrix&, const Vector&, const Vector& fq,
              Eigen::Index) { return Vector(S.transpose() * fq / z.dot(fq)); })});
  out.push_back({"eps is added to the numerator as well; only the denominator gets it.",
                 run(FQ, FK, V,
                     [eps](const Matrix& S, const Vector& z, const Matrix&, const Vector&,
                           const Vector& fq, Eigen::Index) {
                       return Vector(((S.transpose() * fq).array() + eps) / (z.dot(fq) + eps));
                     })});
  out.push_back(
      {"eps is added to every kernel value phi(q_t)^T phi(k_s) instead of once to "
       "each row's sum.",
       [&] {
         // Numerator gains eps * sum_{s<=t} v_s, denominator t * eps.
         Vector vsum = Vector::Zero(d_v);
         return run(FQ, FK, V,
                    [eps, &V, vsum](const Matrix& S, const Vector& z, const Matrix&, const Vector&,
                                    const Vector& fq, Eigen::Index t) mutable {
                      vsum += V.row(t - 1).transpose();
                      return Vector((S.transpose() * fq + eps * vsum) /
                                    (z.dot(fq) + static_cast<double>(t) * eps));
                    });
       }()});
  out.push_back(
      {"eps is added to the output after the division instead of to the "
       "denominator.",
       run(FQ, FK, V,
           [eps](const Matrix& S, const Vector& z, const Matrix&, const Vector&, const Vector& fq,
                 Eigen::Index) {
             return Vector((S.transpose() * fq / z.dot(fq)).array() + eps);
           })});
}

}  // namespace

std::vector<Suspect> sequence_suspects(const Matrix& FQ, const Matrix& FK, const Matrix& V,
                                       double eps, Form form) {
  std::vector<Suspect> out;
  const Eigen::Index d_phi = FQ.cols(), d_v = V.cols();
  const bool parallel = form == Form::Parallel;
  out.push_back(
      {parallel ? "the mask drops the diagonal (keeps s < t instead of s <= t), so no token "
                  "is part of its own sum (with eps = 0 that makes o_1 = 0/0 = NaN). Zero "
                  "only the entries above the diagonal."
                : "the state is read before token t is added, so no token is part of its "
                  "own sum (with eps = 0 that makes o_1 = 0/0 = NaN). Add phi(k_t) v_t^T "
                  "and phi(k_t) first, then read.",
       run(FQ, FK, V,
           [eps](const Matrix&, const Vector&, const Matrix& Sp, const Vector& zp, const Vector& fq,
                 Eigen::Index) { return Vector(Sp.transpose() * fq / (zp.dot(fq) + eps)); })});
  if (d_phi == d_v && !parallel) {
    out.push_back(
        {"the state is used transposed: the read computes S_t phi(q_t) instead of "
         "S_t^T phi(q_t). With d_phi = d_v the shapes still fit, so only the values "
         "show it; with d_phi != d_v Eigen's shape check would stop the program.",
         run(FQ, FK, V,
             [eps](const Matrix& S, const Vector& z, const Matrix&, const Vector&, const Vector& fq,
                   Eigen::Index) { return Vector(S * fq / (z.dot(fq) + eps)); })});
  }
  out.push_back(
      {"each output is divided by the sum of its own entries (a sum over the value "
       "axis) instead of by z_t^T phi(q_t), the kernel summed over the keys s <= t.",
       run(FQ, FK, V,
           [eps](const Matrix& S, const Vector&, const Matrix&, const Vector&, const Vector& fq,
                 Eigen::Index) {
             const Vector num = S.transpose() * fq;
             return Vector(num / (num.sum() + eps));
           })});
  out.push_back(
      {"the denominator sums phi(q_t) over the feature axis instead of summing the "
       "kernel over the keys; it should be z_t^T phi(q_t) + eps.",
       run(FQ, FK, V,
           [eps](const Matrix& S, const Vector&, const Matrix&, const Vector&, const Vector& fq,
                 Eigen::Index) { return Vector(S.transpose() * fq / (fq.sum() + eps)); })});
  out.push_back(
      {"the denominator sums z_t over the feature axis and leaves phi(q_t) out; it "
       "should be the dot product z_t^T phi(q_t) + eps.",
       run(FQ, FK, V,
           [eps](const Matrix& S, const Vector& z, const Matrix&, const Vector&, const Vector& fq,
                 Eigen::Index) { return Vector(S.transpose() * fq / (z.sum() + eps)); })});
  out.push_back(
      {"the division by z_t^T phi(q_t) + eps is missing: the output is the bare "
       "numerator S_t^T phi(q_t).",
       run(FQ, FK, V,
           [](const Matrix& S, const Vector&, const Matrix&, const Vector&, const Vector& fq,
              Eigen::Index) { return Vector(S.transpose() * fq); })});
  if (eps != 0.0) add_eps_suspects(FQ, FK, V, eps, out);
  if (FQ.rows() > 1) {
    Matrix FK_sum = FK.colwise().sum();  // 1 x d_phi
    const Matrix S_all = FK.transpose() * V;
    const Vector z_all = FK_sum.transpose();
    Matrix O(FQ.rows(), d_v);
    for (Eigen::Index t = 0; t < FQ.rows(); ++t) {
      const Vector fq = FQ.row(t).transpose();
      O.row(t) = (S_all.transpose() * fq / (z_all.dot(fq) + eps)).transpose();
    }
    out.push_back(
        {"the causal mask is missing: every token attends to all T keys, future ones "
         "included.",
         O});
    out.push_back(
        {"the mask keeps the wrong triangle: token t attends to the keys s >= t "
         "instead of s <= t.",
         run_backwards(FQ, FK, V, eps)});
  }
  return out;
}

StepSuspects step_suspects(const Matrix& S_prev, const Vector& z_prev, const Vector& fq,
                           const Vector& fk, const Vector& k, const Vector& v, double eps) {
  StepSuspects out;
  const Matrix S = S_prev + fk * v.transpose();  // S: (d_phi, d_v)
  const Vector z = z_prev + fk;
  const Vector num = S.transpose() * fq;
  const double den = z.dot(fq);
  out.o.push_back(
      {"o was read from the state before this token was added (S_{t-1}, z_{t-1}); "
       "the token must be part of its own sum: update S and z first, then read.",
       Matrix(S_prev.transpose() * fq / (z_prev.dot(fq) + eps))});
  if (S.rows() == S.cols())
    out.o.push_back(
        {"the read uses the state transposed, S_t phi(q_t) instead of "
         "S_t^T phi(q_t); the shapes only fit because d_phi = d_v here.",
         Matrix(S * fq / (den + eps))});
  out.o.push_back(
      {"o is divided by the sum of its own entries instead of by "
       "z_t^T phi(q_t) + eps.",
       Matrix(num / (num.sum() + eps))});
  out.o.push_back(
      {"the denominator sums phi(q_t) over the features instead of taking "
       "z_t^T phi(q_t).",
       Matrix(num / (fq.sum() + eps))});
  out.o.push_back({"the division by z_t^T phi(q_t) + eps is missing.", Matrix(num)});
  if (eps != 0.0) {
    out.o.push_back(
        {"eps is not in the denominator; it must be added as written, "
         "z_t^T phi(q_t) + eps.",
         Matrix(num / den)});
    out.o.push_back({"eps is added to the numerator too; only the denominator gets it.",
                     Matrix((num.array() + eps) / (den + eps))});
    out.o.push_back({"eps is added to o after the division instead of to the denominator.",
                     Matrix((num / den).array() + eps)});
  }
  out.S.push_back(
      {"S is returned transposed, as (d_v, d_phi); the state is (d_phi, d_v) with "
       "rows indexing features.",
       S.transpose()});
  out.S.push_back(
      {"S is returned unchanged: the new token's phi(k_t) v_t^T was not added.", S_prev});
  out.S.push_back(
      {"only the new token's outer product phi(k_t) v_t^T is returned; it must be "
       "added to the previous state.",
       fk * v.transpose()});
  if (k.size() == fk.size())
    out.S.push_back({"the raw key k_t was written instead of its features phi(k_t).",
                     S_prev + k * v.transpose()});
  out.S.push_back(
      {"the outer product is the wrong way round, v_t phi(k_t)^T, added to the "
       "state.",
       S_prev.rows() == S_prev.cols() ? Matrix(S_prev + v * fk.transpose())
                                      : Matrix(v * fk.transpose())});
  out.z.push_back(
      {"z is returned unchanged: phi(k_t) was not added to the normalizer.", Matrix(z_prev)});
  out.z.push_back(
      {"only phi(k_t) is returned for z; it must be added to the previous z.", Matrix(fk)});
  if (k.size() == fk.size())
    out.z.push_back({"the raw key k_t was added to z instead of phi(k_t).", Matrix(z_prev + k)});
  return out;
}

}  // namespace grader::causal
