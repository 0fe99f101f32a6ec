// The table of labs, the printing of each lab (plots off), and the order lab's non-timing
// results. No timing is asserted anywhere.
#include "labs.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <string>

using namespace linlab;

TEST_CASE("lab table: the nine labs of the brief in the seed's order, then issue 11's three") {
  const char* names[] = {"order",          "forms",      "random-features", "retrieval",
                         "state-vs-cache", "rank",       "gradients",       "sharpness",
                         "memory-fill",    "chunk-size", "pitfalls",        "backward-memory"};
  REQUIRE(all_labs().size() == 12);
  for (std::size_t i = 0; i < 12; ++i) {
    CHECK(std::string(all_labs()[i].name) == names[i]);
    CHECK(find_lab(names[i]) == &all_labs()[i]);
  }
  CHECK(find_lab("no-such-lab") == nullptr);
}

TEST_CASE("lab printing: every lab but the timed ones prints its seed lines and returns 0") {
  Options opt;
  opt.plots = false;
  for (const Lab& lab : all_labs()) {
    // Timed, and seconds long at their full sizes; their computes are tested at small sizes
    // (order below, chunk-size in test_exact_labs.cpp).
    if (std::string(lab.name) == "order" || std::string(lab.name) == "chunk-size") continue;
    CAPTURE(lab.name);
    std::ostringstream os;
    CHECK(lab.run(opt, os) == 0);
    const std::string out = os.str();
    CHECK(out.find("seed:") != std::string::npos);
    CHECK(out.find("measured:") != std::string::npos);
  }
}

TEST_CASE("order: the two orders agree and the predicted crossover is T* = 32") {
  const OrderResult r = compute_order(32, 256, 1);
  CHECK(r.predicted_crossover == 33);  // right strictly cheaper from T = 33, i.e. T > 32
  CHECK(r.rows.size() == 6);           // T = 8 .. 256
  CHECK(r.max_order_difference < 1e-12);
}

// The measured crossover is where the right order stays faster, from there to the largest T:
// a size where it happens to win early (timer noise, a cache effect) is not a crossover.
TEST_CASE("order: the measured crossover is the start of the right order's last winning run") {
  const std::vector<OrderRow> rows = {{8, 1.0, 2.0},  {16, 2.0, 1.0},  {32, 3.0, 4.0},
                                      {64, 5.0, 6.0}, {128, 9.0, 7.0}, {256, 30.0, 8.0}};
  CHECK(measured_crossover(rows) == 128);
  // Faster only at a small size and slower at the largest: no crossover.
  const std::vector<OrderRow> early = {{8, 2.0, 1.0}, {16, 2.0, 3.0}, {32, 3.0, 4.0}};
  CHECK(measured_crossover(early) == -1);
  // Faster everywhere: from the smallest size.
  const std::vector<OrderRow> always = {{8, 2.0, 1.0}, {16, 3.0, 1.0}};
  CHECK(measured_crossover(always) == 8);
}

// The figures the lab prints beside the seed's (280 MiB of state; 40 GiB and 320 GiB of cache
// at 2^20 tokens), in the units the seed gives: linref's and the lab's own, each once.
TEST_CASE("state-vs-cache: the printed figures are the seed's, in its units") {
  Options opt;
  opt.plots = false;
  std::ostringstream os;
  REQUIRE(find_lab("state-vs-cache")->run(opt, os) == 0);
  const std::string out = os.str();
  auto count = [&out](const std::string& part) {
    int n = 0;
    for (std::size_t at = out.find(part); at != std::string::npos; at = out.find(part, at + 1)) ++n;
    return n;
  };
  CAPTURE(out);
  CHECK(count(" 280.0 MiB") == 2);
  CHECK(count(" 40.0 GiB") == 2);
  CHECK(count(" 320.0 GiB") == 2);
  CHECK(count(" 2.0 MiB") == 1);
}

// A table's layout: a space, then each cell after a space, the first column (labels) padded on
// the right, the others (numbers) on the left so that their last digits line up; a rule of
// dashes under the headers, and a blank line after the table.
TEST_CASE("lab table: labels left-aligned, numbers right-aligned, a rule under the headers") {
  Table t({"name", "value"});
  t.row({"a", "1.5"});
  t.row({"longer", "10"});
  std::ostringstream os;
  t.print(os);
  CHECK(os.str() ==
        "  name   value\n"
        "  ------ -----\n"
        "  a        1.5\n"
        "  longer    10\n"
        "\n");
}
