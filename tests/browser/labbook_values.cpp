// The browser tests' own source of the widgets' numbers, computed here for one setting at a
// time straight from the reference library (not from the widget's grid data, nor the labs'
// per-setting functions): only the constructions are shared (the same keys, query, draws of
// Omega, values). Reads one request a line on stdin, answers one JSON line each:
//   grid                    {"sharpness": [...], "d_phi": [...], "d": 32, "n_max": 96}
//   fm MAP C D_PHI          {"weights": [32 numbers], "entropy": H}   (MAP: softmax, elu,
//                           relu, taylor, random_features; D_PHI ignored but for the last)
//   mem KIND N              {"cosines": [N numbers], "mean": m, "crosstalk": x}
//                           (KIND: orthonormal, random, correlated)
#include "lab_book.hpp"
#include "labs.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace {

using linref::Matrix;
using linref::Vector;

// Weights from kernel values: each over their sum.
Vector normalized(const Vector& k) { return k / k.sum(); }

Vector weights_once(const Matrix& FQ, const Matrix& FK) {
  return normalized(FK * FQ.row(0).transpose());
}

nlohmann::json feature_map(const std::string& map, double c, std::int64_t d_phi) {
  const linlab::FeatureMapGrid g = linlab::feature_map_grid();
  const std::vector<Eigen::Index> order(g.draw_order.begin(), g.draw_order.end());
  const linlab::SharpnessProblem p = linlab::sharpness_problem(g.seed, order, g.draws);
  const Matrix qc = c * p.q;
  Vector w;
  if (map == "softmax") {
    const Vector scores = p.K * qc.transpose();
    w = normalized((scores.array() - scores.maxCoeff()).exp().matrix());
  } else if (map == "elu") {
    w = weights_once(linref::elu_plus_one(qc), linref::elu_plus_one(p.K));
  } else if (map == "relu") {
    w = weights_once(linref::relu(qc), linref::relu(p.K));
  } else if (map == "taylor") {
    w = weights_once(linref::taylor_features(qc), linref::taylor_features(p.K));
  } else if (map == "random_features") {
    std::size_t at = order.size();
    for (std::size_t i = 0; i < order.size(); ++i)
      if (order[i] == d_phi) at = i;
    if (at == order.size()) throw std::invalid_argument("d_phi not in the grid");
    w = Vector::Zero(p.K.rows());
    for (const Matrix& Om : p.omegas[at])
      w += weights_once(linref::positive_random_features(qc, Om),
                        linref::positive_random_features(p.K, Om));
    w /= static_cast<double>(p.omegas[at].size());
  } else {
    throw std::invalid_argument("unknown map " + map);
  }
  double h = 0.0;
  for (Eigen::Index i = 0; i < w.size(); ++i)
    if (w(i) > 0) h -= w(i) * std::log(w(i));
  return {{"weights", std::vector<double>(w.data(), w.data() + w.size())}, {"entropy", h}};
}

nlohmann::json memory(const std::string& kind, Eigen::Index n) {
  const linlab::MemoryGrid g = linlab::memory_grid();
  linref::Rng rng(g.seed);
  const Matrix V = rng.normal_matrix(g.n_max, g.d);
  Matrix K;
  for (const char* k : {"orthonormal", "random", "correlated"}) {
    const auto which = std::string(k) == "orthonormal" ? linlab::MemoryKeys::Orthonormal
                       : std::string(k) == "random"    ? linlab::MemoryKeys::Random
                                                       : linlab::MemoryKeys::Correlated;
    Matrix keys = linlab::memory_fill_keys(which, g.n_max, g.d, g.shared_weight, rng);
    if (kind == k) K = keys;
  }
  if (K.rows() == 0) throw std::invalid_argument("unknown keys " + kind);
  if (n < 1 || n > K.rows()) throw std::invalid_argument("n out of range");
  // The whole memory at once (linref's write), not pair by pair as the widget's data is made.
  const Matrix S = linref::memory_write(K.topRows(n), V.topRows(n));
  std::vector<double> cos;
  double sum = 0.0;
  for (Eigen::Index j = 0; j < n; ++j) {
    const Vector got = linref::memory_read(S, K.row(j).transpose());
    cos.push_back(got.dot(V.row(j)) / (got.norm() * V.row(j).norm()));
    sum += cos.back();
  }
  return {{"cosines", cos},
          {"mean", sum / static_cast<double>(n)},
          {"crosstalk", linref::crosstalk_energy(K.topRows(n))}};
}

}  // namespace

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string what;
    in >> what;
    try {
      if (what == "grid") {
        const auto f = linlab::feature_map_grid();
        const auto m = linlab::memory_grid();
        std::cout << nlohmann::json{{"sharpness", f.sharpness},
                                    {"d_phi", f.d_phi},
                                    {"d", m.d},
                                    {"n_max", m.n_max}}
                         .dump()
                  << std::endl;
      } else if (what == "fm") {
        std::string map;
        double c = 0;
        std::int64_t d_phi = 0;
        in >> map >> c >> d_phi;
        std::cout << feature_map(map, c, d_phi).dump() << std::endl;
      } else if (what == "mem") {
        std::string kind;
        Eigen::Index n = 0;
        in >> kind >> n;
        std::cout << memory(kind, n).dump() << std::endl;
      } else {
        throw std::invalid_argument("unknown request '" + what + "'");
      }
    } catch (const std::exception& e) {
      std::cerr << "labbook-values: " << e.what() << '\n';
      return 2;
    }
  }
  return 0;
}
