// The browser tests' own source of the widgets' numbers, computed here for one setting at a
// time straight from the reference library (not from the widget's grid data, nor the labs'
// per-setting functions): only the constructions are shared (the same keys, query, draws of
// Omega, values). Reads one request a line on stdin, answers one JSON line each:
//   grid                    {"sharpness": [...], "d_phi": [...], "draws": 10, "d": 32,
//                           "n_max": 96, "trials": 20, "shared_weight": a}
//   fm MAP C D_PHI [DRAW]   {"weights": [32 numbers], "entropy": H, "softmax": [32 numbers],
//                           "misplaced": half the L1 distance to softmax's weights}
//                           (MAP: softmax, elu, relu, taylor, random_features; D_PHI and
//                           DRAW, default 0, ignored but for the last: one draw of Omega)
//   mem KIND N              {"cosines": [N numbers], "mean": m, "crosstalk": x,
//                           "low": l, "high": h (the lowest and highest mean over the trials)}
//                           (KIND: orthonormal, random, correlated)
#include "lab_book.hpp"
#include "labs.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
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

nlohmann::json feature_map(const std::string& map, double c, std::int64_t d_phi, std::size_t draw) {
  const linlab::FeatureMapGrid g = linlab::feature_map_grid();
  const std::vector<Eigen::Index> order(g.draw_order.begin(), g.draw_order.end());
  const linlab::SharpnessProblem p = linlab::sharpness_problem(g.seed, order, g.draws);
  const Matrix qc = c * p.q;
  const Vector scores = p.K * qc.transpose();
  const Vector soft = normalized((scores.array() - scores.maxCoeff()).exp().matrix());
  Vector w;
  if (map == "softmax") {
    w = soft;
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
    if (draw >= p.omegas[at].size()) throw std::invalid_argument("no such draw");
    const Matrix& Om = p.omegas[at][draw];
    w = weights_once(linref::positive_random_features(qc, Om),
                     linref::positive_random_features(p.K, Om));
  } else {
    throw std::invalid_argument("unknown map " + map);
  }
  double h = 0.0;
  for (Eigen::Index i = 0; i < w.size(); ++i)
    if (w(i) > 0) h -= w(i) * std::log(w(i));
  double off = 0.0;
  for (Eigen::Index i = 0; i < w.size(); ++i) off += std::fabs(w(i) - soft(i));
  return {{"weights", std::vector<double>(w.data(), w.data() + w.size())},
          {"entropy", h},
          {"softmax", std::vector<double>(soft.data(), soft.data() + soft.size())},
          {"misplaced", off / 2}};
}

// The first trial's keys of KIND, and the retrieval cosines after writing the first n pairs.
std::vector<double> cosines(const Matrix& K, const Matrix& V, Eigen::Index n) {
  // The whole memory at once (linref's write), not pair by pair as the widget's data is made.
  const Matrix S = linref::memory_write(K.topRows(n), V.topRows(n));
  std::vector<double> cos;
  for (Eigen::Index j = 0; j < n; ++j) {
    const Vector got = linref::memory_read(S, K.row(j).transpose());
    cos.push_back(got.dot(V.row(j)) / (got.norm() * V.row(j).norm()));
  }
  return cos;
}

double mean_of(const std::vector<double>& v) {
  double sum = 0.0;
  for (double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

nlohmann::json memory(const std::string& kind, Eigen::Index n) {
  const linlab::MemoryGrid g = linlab::memory_grid();
  linref::Rng rng(g.seed);
  nlohmann::json out;
  double low = 0.0, high = 0.0;
  bool known = false;
  for (int trial = 0; trial < g.trials; ++trial) {
    const Matrix V = rng.normal_matrix(g.n_max, g.d);
    for (const char* k : {"orthonormal", "random", "correlated"}) {
      const auto which = std::string(k) == "orthonormal" ? linlab::MemoryKeys::Orthonormal
                         : std::string(k) == "random"    ? linlab::MemoryKeys::Random
                                                         : linlab::MemoryKeys::Correlated;
      const Matrix K = linlab::memory_fill_keys(which, g.n_max, g.d, g.shared_weight, rng);
      if (kind != k) continue;
      known = true;
      if (n < 1 || n > K.rows()) throw std::invalid_argument("n out of range");
      const std::vector<double> cos = cosines(K, V, n);
      const double mean = mean_of(cos);
      if (trial == 0) {
        out = {{"cosines", cos},
               {"mean", mean},
               {"crosstalk", linref::crosstalk_energy(K.topRows(n))}};
        low = high = mean;
      }
      low = std::min(low, mean);
      high = std::max(high, mean);
    }
  }
  if (!known) throw std::invalid_argument("unknown keys " + kind);
  out["low"] = low;
  out["high"] = high;
  return out;
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
                                    {"draws", f.draws},
                                    {"d", m.d},
                                    {"n_max", m.n_max},
                                    {"trials", m.trials},
                                    {"shared_weight", m.shared_weight}}
                         .dump()
                  << std::endl;
      } else if (what == "fm") {
        std::string map;
        double c = 0;
        std::int64_t d_phi = 0;
        std::size_t draw = 0;
        in >> map >> c >> d_phi;
        if (!(in >> draw)) draw = 0;
        std::cout << feature_map(map, c, d_phi, draw).dump() << std::endl;
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
