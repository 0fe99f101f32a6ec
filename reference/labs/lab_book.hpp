// The lab book (`./kit lab --html DIR`): every lab's tables and plots on one static page, in
// the order of the section, with the section's two widgets beside the labs they belong to.
// Every number the widgets show is computed here, over their grid of settings, and embedded in
// the page as JSON; the page's script (book/labbook.js) only selects and draws.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace linlab {

// The widgets' grids of settings (the data below is computed over them).
struct FeatureMapGrid {
  std::vector<double> sharpness;         // 2^(k/2), k = -4..8
  std::vector<std::int64_t> d_phi;       // random features, ascending
  std::vector<std::int64_t> draw_order;  // the order Omega is drawn in (the lab's d_phi first)
  int draws;                             // draws of Omega per d_phi
  std::uint64_t seed;                    // the sharpness lab's
};
FeatureMapGrid feature_map_grid();
struct MemoryGrid {
  std::int64_t d, n_max;  // orthonormal keys stop at n = d
  double shared_weight;   // correlated keys
  std::uint64_t seed;     // the memory-fill lab's
  int trials;             // the lab's trials: the first is shown, all of them make the band
};
MemoryGrid memory_grid();

// The feature-map widget: the sharpness lab's 32 keys and query (same seed, so the lab's
// numbers are the mean of these draws at its settings), for every map, sharpness and (random
// features) d_phi of the grid: "sharpness", "d_phi" (the grids), "weights" {map:
// [sharpness][key]}, "entropy" (nats) and "misplaced" (half the L1 distance to softmax's
// weights) {map: [sharpness]}; for "random_features" each is per draw of Omega,
// [d_phi][sharpness][draw] (and [key]), never averaged. And the labels.
nlohmann::json feature_map_widget_data();
// The memory widget: the memory-fill lab's trials (same seed), the first one shown, for each
// kind of keys: "cosines" [n - 1][j], "mean_cosine" [n - 1], "crosstalk" [n - 1] (crosstalk
// energy of the first n keys), "band" {"low", "high"} [n - 1] (the lowest and highest mean
// cosine over the trials); "expected_crosstalk" [n - 1] = (n - 1)/d, and the two formulas,
// "random_formula" and "correlated_formula" [n - 1].
nlohmann::json memory_widget_data();

// Runs the labs (all, or those named in `only`, in the section's order), writes DIR/index.html
// and the plots in DIR/plots/, prints one line per lab to `progress`; returns 0 when every lab
// ran and came out as the seed says, 1 otherwise (the page is written either way).
int write_lab_book(const std::string& dir, std::ostream& progress,
                   const std::vector<std::string>& only = {});

}  // namespace linlab
