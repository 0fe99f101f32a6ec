// The lab book (./kit lab --html): the widgets' data is the labs' own numbers at the labs'
// settings, and the recorder turns a lab's printing into blocks in order. The page in a
// browser is tested in tests/browser/.
#include "lab_book.hpp"
#include "labs.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

using namespace linlab;

namespace {

std::size_t index_of(const nlohmann::json& grid, double value) {
  for (std::size_t i = 0; i < grid.size(); ++i)
    if (std::fabs(grid[i].get<double>() - value) < 1e-12) return i;
  FAIL("value not in the grid: " << value);
  return 0;
}

}  // namespace

TEST_CASE("lab book: the feature-map widget holds the sharpness lab's numbers at its settings") {
  const nlohmann::json fm = feature_map_widget_data();
  const SharpnessResult lab = compute_sharpness();
  const auto& w = fm["weights"];
  for (const SharpnessRow& row : lab.rows) {
    CAPTURE(row.sharpness);
    const std::size_t s = index_of(fm["sharpness"], row.sharpness);
    CHECK(w["softmax"][s][0].get<double>() == doctest::Approx(row.softmax).epsilon(1e-8));
    CHECK(w["elu"][s][0].get<double>() == doctest::Approx(row.elu).epsilon(1e-8));
    CHECK(w["relu"][s][0].get<double>() == doctest::Approx(row.relu).epsilon(1e-8));
    CHECK(w["taylor"][s][0].get<double>() == doctest::Approx(row.taylor).epsilon(1e-8));
    for (std::size_t i = 0; i < lab.rf_dphi.size(); ++i) {
      const std::size_t p = index_of(fm["d_phi"], static_cast<double>(lab.rf_dphi[i]));
      // The lab shows the mean over its draws; the widget keeps every draw apart.
      const auto& draws = w["random_features"][p][s];
      REQUIRE(draws.size() == static_cast<std::size_t>(lab.rf_draws));
      double mean = 0.0;
      for (const auto& draw : draws) mean += draw[0].get<double>();
      CHECK(mean / static_cast<double>(draws.size()) == doctest::Approx(row.rf[i]).epsilon(1e-8));
    }
  }
}

TEST_CASE("lab book: every widget weight vector is a distribution, its entropy within [0, log n]") {
  const nlohmann::json fm = feature_map_widget_data();
  const double log_n = std::log(32.0);
  auto check_one = [&](const nlohmann::json& weights, double entropy, double misplaced,
                       const nlohmann::json& softmax) {
    REQUIRE(weights.size() == 32);
    double sum = 0.0, h = 0.0;
    for (const auto& x : weights) {
      const double v = x.get<double>();
      CHECK(v >= 0.0);
      sum += v;
      if (v > 0) h -= v * std::log(v);
    }
    CHECK(sum == doctest::Approx(1.0).epsilon(1e-7));
    CHECK(entropy == doctest::Approx(h).epsilon(1e-6));
    CHECK(entropy <= log_n + 1e-9);
    double off = 0.0;
    for (std::size_t i = 0; i < weights.size(); ++i)
      off += std::fabs(weights[i].get<double>() - softmax[i].get<double>());
    CHECK(misplaced == doctest::Approx(off / 2).epsilon(1e-7));
    CHECK(misplaced >= 0.0);
    CHECK(misplaced <= 1.0);
  };
  for (const auto& m : fm["maps"]) {
    const std::string id = m["id"];
    const auto& w = fm["weights"][id];
    const auto& h = fm["entropy"][id];
    const auto& x = fm["misplaced"][id];
    const auto& soft = fm["weights"]["softmax"];
    if (id == "random_features") {
      REQUIRE(w.size() == fm["d_phi"].size());
      for (std::size_t p = 0; p < w.size(); ++p)
        for (std::size_t s = 0; s < w[p].size(); ++s) {
          REQUIRE(w[p][s].size() == fm["draws"].get<std::size_t>());
          for (std::size_t dr = 0; dr < w[p][s].size(); ++dr)
            check_one(w[p][s][dr], h[p][s][dr].get<double>(), x[p][s][dr].get<double>(), soft[s]);
        }
    } else {
      REQUIRE(w.size() == fm["sharpness"].size());
      for (std::size_t s = 0; s < w.size(); ++s)
        check_one(w[s], h[s].get<double>(), x[s].get<double>(), soft[s]);
    }
  }
  // The point of the widget: at the largest sharpness softmax is far sharper than elu+1.
  const std::size_t last = fm["sharpness"].size() - 1;
  CHECK(fm["entropy"]["softmax"][last].get<double>() < 0.5);
  CHECK(fm["entropy"]["elu"][last].get<double>() > 2.5);
}

TEST_CASE("lab book: the memory widget is the memory-fill lab's first trial, banded by all") {
  const nlohmann::json mem = memory_widget_data();
  const MemoryFillResult lab = compute_memory_fill(9, 1);  // one trial: the first
  const std::vector<double>* lab_curves[] = {&lab.ortho, &lab.random, &lab.correlated};
  const char* ids[] = {"orthonormal", "random", "correlated"};
  for (int k = 0; k < 3; ++k) {
    CAPTURE(ids[k]);
    const auto& mean = mem["mean_cosine"][ids[k]];
    for (std::size_t i = 0; i < mean.size(); ++i)
      CHECK(mean[i].get<double>() == doctest::Approx((*lab_curves[k])[i]).epsilon(1e-8));
    // Entry n - 1 holds n pairs' cosines.
    const auto& cos = mem["cosines"][ids[k]];
    for (std::size_t i = 0; i < cos.size(); ++i) CHECK(cos[i].size() == i + 1);
  }
  CHECK(mem["mean_cosine"]["orthonormal"].size() == 32);
  CHECK(mem["mean_cosine"]["random"].size() == 96);
  for (const auto& row : mem["cosines"]["orthonormal"])
    for (const auto& c : row) CHECK(std::fabs(c.get<double>() - 1.0) < 1e-9);
  for (const auto& x : mem["crosstalk"]["orthonormal"]) CHECK(std::fabs(x.get<double>()) < 1e-9);
  for (std::size_t i = 0; i < 96; ++i)
    CHECK(mem["expected_crosstalk"][i].get<double>() == doctest::Approx(i / 32.0));
  // The formulas are the lab's, and the band over the trials holds the trial shown.
  const MemoryFillResult all = compute_memory_fill(9, mem["trials"].get<int>());
  for (std::size_t i = 0; i < 96; ++i) {
    CHECK(mem["random_formula"][i].get<double>() ==
          doctest::Approx(all.random_predicted[i]).epsilon(1e-8));
    CHECK(mem["correlated_formula"][i].get<double>() ==
          doctest::Approx(all.correlated_predicted[i]).epsilon(1e-8));
  }
  for (int k = 0; k < 3; ++k) {
    CAPTURE(ids[k]);
    const auto& mean = mem["mean_cosine"][ids[k]];
    const auto& band = mem["band"][ids[k]];
    REQUIRE(band["low"].size() == mean.size());
    REQUIRE(band["high"].size() == mean.size());
    const std::vector<double>& lab_mean = *std::vector<const std::vector<double>*>{
        &all.ortho, &all.random, &all.correlated}[static_cast<std::size_t>(k)];
    for (std::size_t i = 0; i < mean.size(); ++i) {
      CHECK(band["low"][i].get<double>() <= mean[i].get<double>() + 1e-9);
      CHECK(band["high"][i].get<double>() >= mean[i].get<double>() - 1e-9);
      // The mean over the trials (the lab's curve) lies inside the band too.
      CHECK(band["low"][i].get<double>() <= lab_mean[i] + 1e-9);
      CHECK(band["high"][i].get<double>() >= lab_mean[i] - 1e-9);
    }
  }
  // Past n = d random keys' trials differ: the band has a width there.
  CHECK(mem["band"]["random"]["high"][60].get<double>() >
        mem["band"]["random"]["low"][60].get<double>() + 1e-3);
}

TEST_CASE("lab book: the recorder turns a lab's printing into blocks, in order") {
  std::ostringstream os;
  std::vector<BookBlock> blocks;
  Options opt;
  opt.plots = false;
  {
    BookRecorder book(os);
    heading(os, "demo", "cell 0", "What it does.");
    Table t({"n", "value"});
    t.row({"1", "0.5"});
    t.print(os);
    os << "\n  a free line\n";
    seed_vs_measured(os, "the answer", "42", "41.9");
    Plot p;
    p.stem = "demo";
    p.title = "Demo plot";
    write_plot(opt, p, os);
    os << "  closing words\n";
    blocks = book.blocks();
  }
  REQUIRE(blocks.size() == 6);
  CHECK(blocks[0].kind == BookBlock::Kind::Heading);
  CHECK(blocks[0].name == "demo");
  CHECK(blocks[0].text == "What it does.");
  CHECK(blocks[1].kind == BookBlock::Kind::Table);
  CHECK(blocks[1].rows.at(0).at(1) == "0.5");
  CHECK(blocks[2].kind == BookBlock::Kind::Text);
  CHECK(blocks[2].text == "  a free line");
  CHECK(blocks[3].kind == BookBlock::Kind::SeedVsMeasured);
  CHECK(blocks[3].seed == "42");
  CHECK(blocks[3].measured == "41.9");
  CHECK(blocks[4].kind == BookBlock::Kind::Plot);
  CHECK(blocks[4].svg.empty());  // --no-plot: no picture, and the line says why
  CHECK(blocks[4].note.find("skipped") != std::string::npos);
  CHECK(blocks[5].text == "  closing words");
  // The terminal text is what it was without a recorder.
  CHECK(os.str().find("== lab demo (cell 0) ==") == 0);
  // No recorder after the block: printing records nothing.
  CHECK(BookRecorder::of(os) == nullptr);
}

TEST_CASE("lab book: the page of one lab holds its tables, its data and nothing remote") {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("linattn-labbook-" + std::to_string(::getpid()));
  std::ostringstream progress;
  CHECK(write_lab_book(dir.string(), progress, {"forms"}) == 0);
  std::ifstream in(dir / "index.html");
  std::stringstream html;
  html << in.rdbuf();
  const std::string page = html.str();
  CHECK(page.find("id=\"lab-forms\"") != std::string::npos);
  CHECK(page.find("id=\"lab-order\"") == std::string::npos);
  CHECK(page.find("<table class=\"seed\">") != std::string::npos);
  CHECK(page.find("id=\"labbook-data\"") != std::string::npos);
  for (const char* remote : {"src=\"http", "href=\"http", "src=\"//", "href=\"//", "@import"})
    CHECK_MESSAGE(page.find(remote) == std::string::npos, remote);
  // The embedded JSON never closes its <script> early.
  const auto data = page.find("id=\"labbook-data\">");
  const auto end = page.find("</script>", data);
  CHECK(nlohmann::json::parse(page.substr(data + 18, end - data - 18))["memory"]["d"] == 32);
  fs::remove_all(dir);
}
