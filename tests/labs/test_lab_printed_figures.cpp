// What a reader of a lab sees: the figures as printed, beside the seed's, at the precision
// that makes them comparable. Each expected string is built here from the seed's formula or
// from the lab's compute function with printf, not with the lab's own formatting helpers.
// Plots are off; each lab here runs in well under a second (pitfalls about one).
#include "labs.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

using namespace linlab;

namespace {

std::string lab_output(const char* name) {
  Options opt;
  opt.plots = false;
  std::ostringstream os;
  REQUIRE(find_lab(name)->run(opt, os) == 0);
  return os.str();
}

std::string fixed(double x, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

std::string percent(double fraction) { return fixed(100.0 * fraction, 0) + "%"; }

// The rest of the line after `prefix`, which starts a line of `out` (after its indentation).
std::string line_after(const std::string& out, const std::string& prefix, std::size_t from = 0) {
  const auto at = out.find(prefix, from);
  if (at == std::string::npos) return "(no line starting " + prefix + ")";
  const auto start = at + prefix.size();
  return out.substr(start, out.find('\n', start) - start);
}

// The "measured:" line of the seed-vs-measured block titled `what`.
std::string measured(const std::string& out, const std::string& what) {
  const auto at = out.find("  " + what + "\n");
  if (at == std::string::npos) return "(no block " + what + ")";
  return line_after(out, "measured: ", at);
}

std::vector<std::string> words(const std::string& line) {
  std::istringstream s(line);
  std::vector<std::string> w;
  for (std::string x; s >> x;) w.push_back(x);
  return w;
}

}  // namespace

// The slope of log(estimate) against q.k is set beside the value it should have, 1/sqrt(d_k),
// both to three decimals: with d_k = 16 the reference reads 0.250.
TEST_CASE("pitfalls: the temperature slope is printed beside 1/sqrt(d_k) at the same precision") {
  const std::string out = lab_output("pitfalls");
  CAPTURE(out);
  REQUIRE(out.find("d_k = 16,") != std::string::npos);
  const std::string m = measured(out, "which kernel the features approximate");
  CAPTURE(m);
  const std::string reference = "(1/sqrt(d_k) = " + fixed(1.0 / std::sqrt(16.0), 3) + ")";
  REQUIRE(m.find(reference) != std::string::npos);
  // "slope 0.xyz (1/sqrt(d_k) = 0.250) with it": the slope has three decimals too.
  const std::vector<std::string> w = words(m);
  REQUIRE(w.size() >= 2);
  CHECK(w[0] == "slope");
  CHECK(w[1].size() == 5);
  CHECK(w[1][1] == '.');
}

// At n = d the crosstalk energy is measured beside (n-1)/d = 63/64 = 0.9844; the measured
// figure needs the same four decimals to be read against it.
TEST_CASE("retrieval: the crosstalk at n = d is printed to four decimals beside (n-1)/d") {
  const RetrievalResult r = compute_retrieval();
  REQUIRE(r.d == 64);
  const RetrievalRow* at_d = nullptr;
  for (const RetrievalRow& row : r.rows)
    if (row.n == r.d) at_d = &row;
  REQUIRE(at_d != nullptr);
  const std::string out = lab_output("retrieval");
  CAPTURE(out);
  const auto block = out.find("  random keys at n = d: crosstalk energy\n");
  REQUIRE(block != std::string::npos);
  CHECK(line_after(out, "seed:     ", block) == "(n-1)/d = " + fixed(63.0 / 64.0, 4));
  CHECK(measured(out, "random keys at n = d: crosstalk energy") ==
        fixed(at_d->random_crosstalk, 4));
}

// The row just past capacity, n = d + 1 = 33: orthonormal keys have run out (nan), and the
// random and correlated keys sit beside their formulas 1/sqrt(1 + (n-1)/d) and
// 1/sqrt(1 + (n-1)(a^4 + b^4/(d-1))), here with n - 1 = d = 32 and a^2 = b^2 = 1/2.
TEST_CASE("memory-fill: the table has the row n = d + 1, where orthonormal keys have run out") {
  const MemoryFillResult r = compute_memory_fill();
  REQUIRE(r.d == 32);
  REQUIRE(std::fabs(r.shared_weight * r.shared_weight - 0.5) < 1e-12);
  const std::string out = lab_output("memory-fill");
  CAPTURE(out);
  std::vector<std::string> row;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    const std::vector<std::string> w = words(line);
    if (!w.empty() && w[0] == "33") row = w;
  }
  CAPTURE(row.size());
  REQUIRE(row.size() == 6);
  CHECK(row[1] == "nan");
  CHECK(row[2] == fixed(r.random[32], 4));
  CHECK(row[3] == fixed(1.0 / std::sqrt(2.0), 4));  // 1 + 32/32
  CHECK(row[4] == fixed(r.correlated[32], 4));
  CHECK(row[5] == fixed(1.0 / std::sqrt(1.0 + 32.0 * (0.25 + 0.25 / 31.0)), 4));
}

// The ten draws are printed sorted, and the summary reads the range and the median from
// that order: smallest to largest, median the mean of the 5th and 6th.
TEST_CASE("sharpness: the ten draws print sorted, with their true range and median") {
  const SharpnessResult r = compute_sharpness();
  REQUIRE(r.kernel_error.size() == 10);
  REQUIRE(r.misplaced.size() == 10);
  const std::string out = lab_output("sharpness");
  CAPTURE(out);
  struct Summary {
    std::vector<double> draws;
    std::string list, title;
  };
  for (const Summary& s :
       {Summary{r.kernel_error, "kernel err: ", "mean relative kernel error over the 32 keys"},
        Summary{r.misplaced,
                "misplaced: ", "weight misplaced (half the L1 distance to the softmax weights)"}}) {
    CAPTURE(s.title);
    std::vector<double> v = s.draws;
    std::sort(v.begin(), v.end());
    std::string listed;
    for (double x : v) listed += percent(x) + " ";
    CHECK(line_after(out, s.list) == listed);
    CHECK(measured(out, s.title) == percent(v.front()) + " to " + percent(v.back()) + ", median " +
                                        percent(0.5 * (v[4] + v[5])) + " (our construction)");
  }
}

// The hand example's kernel matrix phi(Q) phi(K)^T as printed, row by row: the text's
// integers (3, 3, 2), (5, 4, 3), (4, 5, 3), each entry in its own place.
TEST_CASE("forms: the hand example's kernel matrix prints as the text's rows") {
  const std::string out = lab_output("forms");
  CAPTURE(out);
  CHECK(out.find("      (3, 3, 2)\n      (5, 4, 3)\n      (4, 5, 3)\n") != std::string::npos);
}

// The one-layer table: each row's measured figure, in the unit the seed gives it in (the
// seed's 2 MiB and 4 KiB per token, 256 and 512 tokens, 16,512 numbers, about 64 tokens).
TEST_CASE("state-vs-cache: the one-layer rows print the seed's figures in its units") {
  const std::string out = lab_output("state-vs-cache");
  CAPTURE(out);
  auto ends = [&out](const std::string& label, const std::string& measured) {
    const std::string line = line_after(out, "\n  " + label);  // a row, not a part of one
    CAPTURE(line);
    return line.size() >= measured.size() &&
           line.compare(line.size() - measured.size(), measured.size(), measured) == 0;
  };
  CHECK(ends("state, numbers", " 524,288"));
  CHECK(ends("cache per token, numbers", " 2,048"));
  CHECK(ends("break-even, counting numbers", " 256 tokens"));
  CHECK(ends("state, float32", " 2.0 MiB"));
  CHECK(ends("cache per token, bf16", " 4.0 KiB"));
  CHECK(ends("break-even, counting bytes", " 512 tokens"));
  CHECK(ends("one head: state with normalizer, numbers", " 16,512"));
  CHECK(ends("  = that head's cache after", " " + fixed(16512.0 / 256.0, 1) + " tokens"));
}
