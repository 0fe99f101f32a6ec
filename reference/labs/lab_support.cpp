// Printing and plotting shared by the labs.
#include "lab_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>

namespace linlab {

std::string fmt(double x, int digits) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  std::ostringstream s;
  const double a = std::fabs(x);
  if (a != 0.0 && (a < 1e-3 || a >= 1e7)) {
    s << std::scientific << std::setprecision(digits - 1 > 0 ? digits - 1 : 1) << x;
  } else {
    s << std::fixed << std::setprecision(digits) << x;
  }
  return s.str();
}

std::string fmt_sci(double x, int digits) {
  if (std::isnan(x)) return "nan";
  std::ostringstream s;
  s << std::scientific << std::setprecision(digits) << x;
  return s.str();
}

std::string fmt_int(long long x) {
  std::string digits = std::to_string(x < 0 ? -x : x);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return x < 0 ? "-" + out : out;
}

std::string fmt_pct(double fraction, int digits) {
  if (std::isnan(fraction)) return "nan";
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << 100.0 * fraction << '%';
  return s.str();
}

void seed_vs_measured(std::ostream& os, const std::string& what, const std::string& seed,
                      const std::string& measured) {
  BookRecorder* book = BookRecorder::of(os);
  if (book) book->text_so_far();
  os << "  " << what << "\n      seed:     " << seed << "\n      measured: " << measured << '\n';
  if (book) {
    BookBlock b{BookBlock::Kind::SeedVsMeasured, what, {}, {}, seed, measured, {}, {}, {}, {}};
    book->add(std::move(b));
  }
}

void heading(std::ostream& os, const std::string& name, const std::string& cell,
             const std::string& what) {
  BookRecorder* book = BookRecorder::of(os);
  if (book) book->text_so_far();
  os << "== lab " << name << " (" << cell << ") ==\n" << what << "\n\n";
  if (book) book->add({BookBlock::Kind::Heading, what, name, cell, {}, {}, {}, {}, {}, {}});
}

Table::Table(std::vector<std::string> headers) : headers_(std::move(headers)) {}

void Table::row(std::vector<std::string> cells) {
  cells.resize(headers_.size());
  rows_.push_back(std::move(cells));
}

void Table::print(std::ostream& os) const {
  BookRecorder* book = BookRecorder::of(os);
  if (book) book->text_so_far();
  std::vector<std::size_t> width(headers_.size());
  for (std::size_t c = 0; c < headers_.size(); ++c) {
    width[c] = headers_[c].size();
    for (const auto& r : rows_) width[c] = std::max(width[c], r[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    os << ' ';
    // The first column (labels) is left-aligned, the others (numbers) right-aligned.
    for (std::size_t c = 0; c < cells.size(); ++c)
      os << ' ' << (c == 0 ? std::left : std::right) << std::setw(static_cast<int>(width[c]))
         << cells[c];
    os << std::right;
    os << '\n';
  };
  line(headers_);
  std::vector<std::string> rule;
  for (std::size_t w : width) rule.push_back(std::string(w, '-'));
  line(rule);
  for (const auto& r : rows_) line(r);
  os << '\n';
  if (book) book->add({BookBlock::Kind::Table, {}, {}, {}, {}, {}, headers_, rows_, {}, {}});
}

namespace {

bool have_gnuplot() {
  static const bool found = std::system("command -v gnuplot >/dev/null 2>&1") == 0;
  return found;
}

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

// gnuplot strings in double quotes: escape backslashes and quotes.
std::string gp_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

namespace {
void write_plot_files(const Options& opt, const Plot& plot, std::ostream& os);
}  // namespace

// The picture is recorded for the lab book when gnuplot made it (the line printed otherwise).
void write_plot(const Options& opt, const Plot& plot, std::ostream& os) {
  BookRecorder* book = BookRecorder::of(os);
  if (!book) return write_plot_files(opt, plot, os);
  book->text_so_far();
  std::ostringstream line;
  write_plot_files(opt, plot, line);
  os << line.str();
  const std::filesystem::path svg = std::filesystem::path(opt.out_dir) / (plot.stem + ".svg");
  const bool made = line.str().find("  plot: " + svg.string()) == 0;
  std::string note = line.str();
  while (!note.empty() && (note.back() == '\n' || note.back() == ' ')) note.pop_back();
  book->add(
      {BookBlock::Kind::Plot, plot.title, {}, {}, {}, {}, {}, {}, made ? svg.string() : "", note});
}

const std::vector<std::string>& plot_colours() {
  // Okabe and Ito's palette, which stays apart under the common colour-vision deficiencies;
  // black first (softmax, the reference every other series is read against).
  static const std::vector<std::string> colours = {"#000000", "#e69f00", "#56b4e9", "#009e73",
                                                   "#f0e442", "#0072b2", "#d55e00", "#cc79a7"};
  return colours;
}

static BookRecorder* current_book = nullptr;  // the innermost live recorder

BookRecorder::BookRecorder(std::ostringstream& os) : os_(os), previous_(current_book) {
  consumed_ = os_.str().size();
  current_book = this;
}

BookRecorder::~BookRecorder() { current_book = previous_; }

BookRecorder* BookRecorder::of(const std::ostream& os) {
  for (BookRecorder* r = current_book; r; r = r->previous_)
    if (&r->os_ == &os) return r;
  return nullptr;
}

void BookRecorder::text_so_far() {
  const std::string all = os_.str();
  std::string text = all.substr(std::min(consumed_, all.size()));
  consumed_ = all.size();
  // Blank lines around a block are the terminal's spacing, not text.
  const auto first = text.find_first_not_of(" \n");
  if (first == std::string::npos) return;
  const auto line_start = text.rfind('\n', first);
  text = text.substr(line_start == std::string::npos ? 0 : line_start + 1);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  blocks_.push_back({BookBlock::Kind::Text, text, {}, {}, {}, {}, {}, {}, {}, {}});
}

void BookRecorder::add(BookBlock b) {
  consumed_ = os_.str().size();
  blocks_.push_back(std::move(b));
}

std::vector<BookBlock> BookRecorder::blocks() {
  text_so_far();
  return blocks_;
}

namespace {

void write_plot_files(const Options& opt, const Plot& plot, std::ostream& os) {
  if (!opt.plots) {
    os << "  plot: skipped (--no-plot)\n";
    return;
  }
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(opt.out_dir, ec);
  if (ec) {
    os << "  plot: skipped, cannot create " << opt.out_dir << " (" << ec.message() << ")\n";
    return;
  }
  const fs::path dir(opt.out_dir);
  const fs::path dat = dir / (plot.stem + ".dat");
  const fs::path gp = dir / (plot.stem + ".gp");
  const fs::path svg = dir / (plot.stem + ".svg");
  {
    std::ofstream d(dat);
    d << std::setprecision(std::numeric_limits<double>::max_digits10);
    for (const Series& s : plot.series) {
      d << "# " << s.title << '\n';
      for (std::size_t i = 0; i < s.x.size(); ++i) {
        // gnuplot skips points whose value is "NaN"; keep them as gaps.
        if (std::isfinite(s.y[i])) d << s.x[i] << ' ' << s.y[i] << '\n';
        else d << s.x[i] << " NaN\n";
      }
      d << "\n\n";
    }
  }
  {
    std::ofstream g(gp);
    // noenhanced: labels such as d_phi are printed as written, not as sub- and superscripts.
    g << "set terminal svg size 900,600 dynamic noenhanced background rgb 'white'\n"
      << "set output " << gp_string(svg.string()) << '\n'
      << "set title " << gp_string(plot.title) << '\n'
      << "set xlabel " << gp_string(plot.xlabel) << '\n'
      << "set ylabel " << gp_string(plot.ylabel) << '\n'
      << "set grid\nset key below\n"
      << "set datafile missing 'NaN'\n";
    // Each series its own colour, dash pattern and point shape: none is told by colour alone.
    for (std::size_t i = 0; i < plot_colours().size(); ++i)
      g << "set linetype " << i + 1 << " linecolor rgb '" << plot_colours()[i] << "' dashtype "
        << i % 5 + 1 << " pointtype " << i + 4 << '\n';
    if (plot.logx) g << "set logscale x 2\n";
    if (plot.logy) g << "set logscale y\nset format y '%g'\n";
    for (const auto& e : plot.extra) g << e << '\n';
    g << "plot ";
    for (std::size_t i = 0; i < plot.series.size(); ++i) {
      if (i) g << ", \\\n     ";
      g << gp_string(dat.string()) << " index " << i << " using 1:2 with " << plot.series[i].style
        << " title " << gp_string(plot.series[i].title);
    }
    g << '\n';
  }
  if (!have_gnuplot()) {
    os << "  plot: gnuplot not found; data and script written to " << dat.string() << " and "
       << gp.string() << '\n';
    return;
  }
  const std::string cmd = "gnuplot " + quoted(gp.string()) + " >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    os << "  plot: gnuplot failed on " << gp.string() << " (the table above does not need it)\n";
    return;
  }
  os << "  plot: " << svg.string() << '\n';
}

}  // namespace

}  // namespace linlab
