// What every lab shares: the options, the table of labs, a plain-text table printer and a
// gnuplot helper. Tables never depend on gnuplot; a missing gnuplot only skips the picture.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace linlab {

struct Options {
  std::string out_dir;  // where plots (and their data and scripts) go
  bool plots = true;    // --no-plot turns pictures off
};

// One entry of the lab table: `linattn-lab NAME` runs `run`, which prints and returns an exit
// status (0 when every reproduced figure came out as the seed says it should).
struct Lab {
  const char* name;
  const char* cell;     // where in the seed the experiment is
  const char* summary;  // one line for the listing
  int (*run)(const Options&, std::ostream&);
};
const std::vector<Lab>& all_labs();
const Lab* find_lab(const std::string& name);

// ---- printing ----
std::string fmt(double x, int digits = 4);       // fixed, or scientific when tiny/huge; "nan"
std::string fmt_sci(double x, int digits = 2);  // always scientific
std::string fmt_int(long long x);                // with thousands separators: 73,400,320
std::string fmt_pct(double fraction, int digits = 1);  // 0.223 -> "22.3%"

// Lines of "seed: ... | measured: ..." are printed by this, so they all look alike.
void seed_vs_measured(std::ostream& os, const std::string& what, const std::string& seed,
                      const std::string& measured);
void heading(std::ostream& os, const std::string& name, const std::string& cell,
             const std::string& what);

class Table {
 public:
  explicit Table(std::vector<std::string> headers);
  void row(std::vector<std::string> cells);
  void print(std::ostream& os) const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
};

// ---- plotting ----
struct Series {
  std::string title;
  std::vector<double> x, y;
  std::string style = "linespoints";  // a gnuplot "with" clause
};
struct Plot {
  std::string stem;  // file name without extension, e.g. "order"
  std::string title, xlabel, ylabel;
  bool logx = false, logy = false;
  std::vector<Series> series;
  std::vector<std::string> extra;  // extra gnuplot commands (arrows, ranges, ...)
};
// Writes <out>/<stem>.dat and <out>/<stem>.gp and, if gnuplot is on the PATH, runs it to make
// <out>/<stem>.svg. Prints one line saying where the picture is, or why there is none.
void write_plot(const Options& opt, const Plot& plot, std::ostream& os);

}  // namespace linlab
