// The numbers behind the lab book's two widgets, computed with the labs' own constructions
// over each widget's grid of settings.
#include "lab_book.hpp"
#include "labs.hpp"

#include <cmath>
#include <cstdio>
#include <string>

namespace linlab {

namespace {

// 9 significant digits: plenty for a picture, and the page stays small.
nlohmann::json rounded(double x) {
  if (!std::isfinite(x)) return nullptr;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", x);
  return std::stod(buf);
}

nlohmann::json rounded(const linref::Vector& v) {
  nlohmann::json out = nlohmann::json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) out.push_back(rounded(v(i)));
  return out;
}

nlohmann::json rounded(const std::vector<double>& v) {
  nlohmann::json out = nlohmann::json::array();
  for (double x : v) out.push_back(rounded(x));
  return out;
}

// Entropy of a weight vector in nats (0 log 0 = 0).
double entropy(const linref::Vector& w) {
  double h = 0.0;
  for (Eigen::Index i = 0; i < w.size(); ++i)
    if (w(i) > 0.0) h -= w(i) * std::log(w(i));
  return h;
}

struct MapInfo {
  const char* id;
  const char* label;
  SharpnessMap map;
  int colour;  // the series of the sharpness lab's plot with this map
};
// In the order of the sharpness plot's series; random features take the d_phi = 64 series.
const MapInfo kMaps[] = {
    {"softmax", "softmax", SharpnessMap::Softmax, 0},
    {"elu", "elu+1", SharpnessMap::Elu, 1},
    {"relu", "ReLU", SharpnessMap::Relu, 2},
    {"taylor", "Taylor", SharpnessMap::Taylor, 3},
    {"random_features", "positive random features", SharpnessMap::RandomFeatures, 5}};

}  // namespace

FeatureMapGrid feature_map_grid() {
  FeatureMapGrid g;
  for (int k = -4; k <= 8; ++k) g.sharpness.push_back(std::pow(2.0, k / 2.0));
  g.d_phi = {4, 8, 16, 32, 64, 128, 256, 512, 1024};
  // The lab's d_phi first, in its order, so that their draws of Omega are the lab's.
  g.draw_order = {16, 64, 512, 4, 8, 32, 128, 256, 1024};
  g.draws = 10;
  g.seed = 8;
  return g;
}

MemoryGrid memory_grid() { return {32, 96, std::sqrt(0.5), 9}; }

nlohmann::json feature_map_widget_data() {
  const FeatureMapGrid grid = feature_map_grid();
  const std::vector<Eigen::Index> draw_order(grid.draw_order.begin(), grid.draw_order.end());
  const std::vector<Eigen::Index> d_phi(grid.d_phi.begin(), grid.d_phi.end());
  const std::vector<double>& sharpness = grid.sharpness;
  const int draws = grid.draws;
  const std::uint64_t seed = grid.seed;
  const SharpnessProblem p = sharpness_problem(seed, draw_order, draws);

  nlohmann::json out;
  out["n_keys"] = p.K.rows();
  out["d_k"] = p.K.cols();
  out["relevant"] = 0;
  out["draws"] = draws;
  out["seed"] = seed;
  out["sharpness"] = rounded(sharpness);
  out["d_phi"] = d_phi;
  out["uniform_entropy"] = rounded(std::log(static_cast<double>(p.K.rows())));
  out["uniform_weight"] = rounded(1.0 / static_cast<double>(p.K.rows()));
  out["maps"] = nlohmann::json::array();
  for (const MapInfo& m : kMaps) {
    out["maps"].push_back({{"id", m.id},
                           {"label", m.label},
                           {"colour", plot_colours()[static_cast<std::size_t>(m.colour)]}});
    nlohmann::json w = nlohmann::json::array(), h = nlohmann::json::array();
    if (m.map == SharpnessMap::RandomFeatures) {
      for (Eigen::Index d : d_phi) {
        nlohmann::json wd = nlohmann::json::array(), hd = nlohmann::json::array();
        for (double c : sharpness) {
          const linref::Vector v = sharpness_weights(p, m.map, c, d);
          wd.push_back(rounded(v));
          hd.push_back(rounded(entropy(v)));
        }
        w.push_back(wd);
        h.push_back(hd);
      }
    } else {
      for (double c : sharpness) {
        const linref::Vector v = sharpness_weights(p, m.map, c);
        w.push_back(rounded(v));
        h.push_back(rounded(entropy(v)));
      }
    }
    out["weights"][m.id] = w;
    out["entropy"][m.id] = h;
  }
  return out;
}

nlohmann::json memory_widget_data() {
  const MemoryGrid grid = memory_grid();
  const Eigen::Index d = grid.d, n_max = grid.n_max;
  const double a = grid.shared_weight;
  const std::uint64_t seed = grid.seed;
  // The memory-fill lab's first trial: the same generator, the same draws in the same order.
  linref::Rng rng(seed);
  const linref::Matrix V = rng.normal_matrix(n_max, d);
  struct Kind {
    const char* id;
    const char* label;
    MemoryKeys keys;
    int colour;  // the series of the memory-fill lab's plot
  };
  const Kind kinds[] = {
      {"orthonormal", "orthonormal", MemoryKeys::Orthonormal, 0},
      {"random", "random", MemoryKeys::Random, 1},
      {"correlated", "correlated (one shared direction)", MemoryKeys::Correlated, 3}};
  nlohmann::json out;
  out["d"] = d;
  out["n_max"] = n_max;
  out["seed"] = seed;
  out["shared_weight"] = rounded(a);
  out["kinds"] = nlohmann::json::array();
  for (const Kind& k : kinds) {
    const linref::Matrix K = memory_fill_keys(k.keys, n_max, d, a, rng);
    const auto cos = memory_fill_cosines(K, V, n_max);
    nlohmann::json c = nlohmann::json::array();
    std::vector<double> mean, crosstalk;
    for (std::size_t i = 0; i < cos.size(); ++i) {
      double sum = 0.0;
      for (double x : cos[i]) sum += x;
      mean.push_back(sum / static_cast<double>(cos[i].size()));
      crosstalk.push_back(linref::crosstalk_energy(K.topRows(static_cast<Eigen::Index>(i) + 1)));
      c.push_back(rounded(cos[i]));
    }
    out["kinds"].push_back({{"id", k.id},
                            {"label", k.label},
                            {"colour", plot_colours()[static_cast<std::size_t>(k.colour)]},
                            {"n_max", cos.size()}});
    out["cosines"][k.id] = c;
    out["mean_cosine"][k.id] = rounded(mean);
    out["crosstalk"][k.id] = rounded(crosstalk);
  }
  std::vector<double> expected, formula;
  for (Eigen::Index n = 1; n <= n_max; ++n) {
    const double others = static_cast<double>(n - 1) / static_cast<double>(d);
    expected.push_back(others);
    formula.push_back(1.0 / std::sqrt(1.0 + others));
  }
  out["expected_crosstalk"] = rounded(expected);
  out["random_formula"] = rounded(formula);
  out["random_formula_colour"] = plot_colours()[2];
  return out;
}

}  // namespace linlab
