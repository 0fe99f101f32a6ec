// The numbers behind the lab book's two widgets, computed with the labs' own constructions
// over each widget's grid of settings.
#include "lab_book.hpp"
#include "labs.hpp"

#include <algorithm>
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

// The weight misplaced: the share of the total weight that sits on other keys than softmax
// puts it, half the L1 distance between the two weight vectors (0: the same, 1: disjoint).
double misplaced(const linref::Vector& w, const linref::Vector& softmax) {
  return 0.5 * (w - softmax).cwiseAbs().sum();
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

MemoryGrid memory_grid() { return {32, 96, std::sqrt(0.5), 9, 20}; }

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
  nlohmann::json kernel_error = nlohmann::json::array();
  for (const MapInfo& m : kMaps) {
    out["maps"].push_back({{"id", m.id},
                           {"label", m.label},
                           {"colour", plot_colours()[static_cast<std::size_t>(m.colour)]}});
    nlohmann::json w = nlohmann::json::array(), h = nlohmann::json::array(),
                   x = nlohmann::json::array();
    if (m.map == SharpnessMap::RandomFeatures) {
      // Every draw of Omega on its own: the page shows one draw at a time and the spread of
      // the draws, never their mean (which hides how far a single draw can land).
      for (Eigen::Index d : d_phi) {
        nlohmann::json wd = nlohmann::json::array(), hd = nlohmann::json::array(),
                       xd = nlohmann::json::array(), ed = nlohmann::json::array();
        for (double c : sharpness) {
          const linref::Vector soft = sharpness_weights(p, SharpnessMap::Softmax, c);
          nlohmann::json ws = nlohmann::json::array(), hs = nlohmann::json::array(),
                         xs = nlohmann::json::array(), es = nlohmann::json::array();
          for (std::size_t dr = 0; dr < static_cast<std::size_t>(draws); ++dr) {
            const linref::Vector v = sharpness_weights_draw(p, c, d, dr);
            ws.push_back(rounded(v));
            hs.push_back(rounded(entropy(v)));
            xs.push_back(rounded(misplaced(v, soft)));
            es.push_back(rounded(sharpness_kernel_error(p, c, d, dr)));
          }
          ed.push_back(es);
          wd.push_back(ws);
          hd.push_back(hs);
          xd.push_back(xs);
        }
        w.push_back(wd);
        h.push_back(hd);
        x.push_back(xd);
        kernel_error.push_back(ed);
      }
    } else {
      for (double c : sharpness) {
        const linref::Vector v = sharpness_weights(p, m.map, c);
        w.push_back(rounded(v));
        h.push_back(rounded(entropy(v)));
        x.push_back(rounded(misplaced(v, sharpness_weights(p, SharpnessMap::Softmax, c))));
      }
    }
    out["weights"][m.id] = w;
    out["entropy"][m.id] = h;
    out["misplaced"][m.id] = x;
  }
  out["kernel_error"] = kernel_error;  // random features: [d_phi][sharpness][draw]
  return out;
}

namespace {

// The formulas of the memory-fill lab, for n = 1..n_max pairs: random keys 1/sqrt(1 + (n-1)/d);
// correlated keys (k = a u + b r) 1/sqrt(1 + (n-1)(a^4 + b^4/(d-1))), from E[(k_s . k_j)^2].
void add_memory_formulas(nlohmann::json& out, Eigen::Index d, Eigen::Index n_max, double a) {
  const double a2 = a * a, b2 = 1.0 - a2;
  const double correlated_share = a2 * a2 + b2 * b2 / static_cast<double>(d - 1);
  std::vector<double> expected, formula, correlated;
  for (Eigen::Index n = 1; n <= n_max; ++n) {
    const double others = static_cast<double>(n - 1) / static_cast<double>(d);
    expected.push_back(others);
    formula.push_back(1.0 / std::sqrt(1.0 + others));
    correlated.push_back(1.0 / std::sqrt(1.0 + static_cast<double>(n - 1) * correlated_share));
  }
  out["expected_crosstalk"] = rounded(expected);
  out["random_formula"] = rounded(formula);
  out["correlated_formula"] = rounded(correlated);
}

}  // namespace

nlohmann::json memory_widget_data() {
  const MemoryGrid grid = memory_grid();
  const Eigen::Index d = grid.d, n_max = grid.n_max;
  const double a = grid.shared_weight;
  const std::uint64_t seed = grid.seed;
  // The memory-fill lab's trials: the same generator, the same draws in the same order. The
  // first trial is the one the bars and curves show; every trial makes the band.
  linref::Rng rng(seed);
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
  out["trials"] = grid.trials;
  out["shared_weight"] = rounded(a);
  out["kinds"] = nlohmann::json::array();
  std::vector<std::vector<double>> low(3), high(3);
  for (int trial = 0; trial < grid.trials; ++trial) {
    const linref::Matrix V = rng.normal_matrix(n_max, d);
    for (std::size_t ki = 0; ki < 3; ++ki) {
      const Kind& k = kinds[ki];
      const linref::Matrix K = memory_fill_keys(k.keys, n_max, d, a, rng);
      const auto cos = memory_fill_cosines(K, V, n_max);
      std::vector<double> mean;
      for (const auto& per_pair : cos) {
        double sum = 0.0;
        for (double x : per_pair) sum += x;
        mean.push_back(sum / static_cast<double>(per_pair.size()));
      }
      if (trial == 0) {
        nlohmann::json c = nlohmann::json::array();
        std::vector<double> crosstalk;
        for (std::size_t i = 0; i < cos.size(); ++i) {
          crosstalk.push_back(
              linref::crosstalk_energy(K.topRows(static_cast<Eigen::Index>(i) + 1)));
          c.push_back(rounded(cos[i]));
        }
        out["kinds"].push_back({{"id", k.id},
                                {"label", k.label},
                                {"colour", plot_colours()[static_cast<std::size_t>(k.colour)]},
                                {"n_max", cos.size()}});
        out["cosines"][k.id] = c;
        out["mean_cosine"][k.id] = rounded(mean);
        out["crosstalk"][k.id] = rounded(crosstalk);
        low[ki] = high[ki] = mean;
      }
      for (std::size_t i = 0; i < mean.size(); ++i) {
        low[ki][i] = std::min(low[ki][i], mean[i]);
        high[ki][i] = std::max(high[ki][i], mean[i]);
      }
    }
  }
  for (std::size_t ki = 0; ki < 3; ++ki)
    out["band"][kinds[ki].id] = {{"low", rounded(low[ki])}, {"high", rounded(high[ki])}};
  add_memory_formulas(out, d, n_max, a);
  // Each formula dashed in its keys' colour, as in the memory-fill lab's plot.
  out["random_formula_colour"] = plot_colours()[1];
  out["correlated_formula_colour"] = plot_colours()[3];
  return out;
}

}  // namespace linlab
