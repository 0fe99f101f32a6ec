// What every lab shares: the options, the table of labs, a plain-text table printer and a
// gnuplot helper. Tables never depend on gnuplot; a missing gnuplot only skips the picture.
#pragma once

#include <iosfwd>
#include <sstream>
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
std::string fmt(double x, int digits = 4);             // fixed, or scientific when tiny/huge; "nan"
std::string fmt_sci(double x, int digits = 2);         // always scientific
std::string fmt_int(long long x);                      // with thousands separators: 73,400,320
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
// The plots' line colours, series 1, 2, ... (gnuplot's own defaults, set explicitly in every
// script so that the lab book's widgets can draw with the same ones).
const std::vector<std::string>& plot_colours();

// ---- the lab book (./kit lab --html DIR) ----
// While a BookRecorder is alive, heading, Table::print, seed_vs_measured and write_plot also
// record what they print to the recorder's stream as blocks; whatever a lab prints between
// them itself becomes a text block. The terminal text is unchanged.
struct BookBlock {
  enum class Kind { Heading, Text, Table, SeedVsMeasured, Plot };
  Kind kind;
  std::string text;                  // heading: what the lab does; text; seed-vs-measured:
                                     // what is compared; plot: its title
  std::string name, cell;            // heading
  std::string seed, measured;        // seed-vs-measured
  std::vector<std::string> headers;  // table
  std::vector<std::vector<std::string>> rows;
  std::string svg;   // plot: the picture written, empty when none
  std::string note;  // plot: the line printed (why there is no picture)
};
class BookRecorder {
 public:
  explicit BookRecorder(std::ostringstream& os);
  ~BookRecorder();
  BookRecorder(const BookRecorder&) = delete;
  BookRecorder& operator=(const BookRecorder&) = delete;
  // The recorder whose stream `os` is, or nullptr.
  static BookRecorder* of(const std::ostream& os);
  void text_so_far();               // the text printed since the last block becomes a text block
  void add(BookBlock b);            // a block; what was printed up to here belongs to it
  std::vector<BookBlock> blocks();  // every block, the trailing text included

 private:
  std::ostringstream& os_;
  std::size_t consumed_ = 0;
  std::vector<BookBlock> blocks_;
  BookRecorder* previous_;
};

}  // namespace linlab
