// The lab book's page: the labs run with a BookRecorder on their output, each recorded block
// written as HTML, the widgets' skeletons (controls, empty pictures) after their labs, their
// data as JSON, and the kit's own script and style inlined (book/labbook.js, book/labbook.css,
// compiled in by CMake), so that the one file opens from disk with no server and no network.
#include "lab_book.hpp"
#include "labs.hpp"

#include <cmath>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace linlab {

extern const char* const kBookCss;  // book_assets.cpp, generated from book/
extern const char* const kBookJs;

namespace {

namespace fs = std::filesystem;

std::string esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// The terminal's hard line breaks inside a paragraph become spaces.
std::string paragraph(const std::string& s) {
  std::string out;
  for (char c : s) out += (c == '\n') ? ' ' : c;
  return esc(out);
}

// JSON inside <script>: "</" would end the element.
std::string script_json(const nlohmann::json& j) {
  std::string s = j.dump();
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<' && i + 1 < s.size() && s[i + 1] == '/') out += "<\\";
    else out += s[i];
  }
  return out;
}

void write_table(std::ostream& h, const BookBlock& b) {
  h << "<div class=\"scroll\"><table>\n<thead><tr>";
  for (std::size_t c = 0; c < b.headers.size(); ++c)
    h << "<th scope=\"col\"" << (c ? "" : " class=\"label\"") << ">" << esc(b.headers[c])
      << "</th>";
  h << "</tr></thead>\n<tbody>\n";
  for (const auto& row : b.rows) {
    h << "<tr>";
    for (std::size_t c = 0; c < row.size(); ++c)
      h << (c ? "<td>" : "<th scope=\"row\" class=\"label\">") << esc(row[c])
        << (c ? "</td>" : "</th>");
    h << "</tr>\n";
  }
  h << "</tbody></table></div>\n";
}

void write_seed_table(std::ostream& h, const std::vector<const BookBlock*>& rows) {
  h << "<div class=\"scroll\"><table class=\"seed\">\n<thead><tr><th scope=\"col\" "
       "class=\"label\">compared</th><th scope=\"col\">the seed says</th><th scope=\"col\">"
       "measured here</th></tr></thead>\n<tbody>\n";
  for (const BookBlock* b : rows)
    h << "<tr><th scope=\"row\" class=\"label\">" << esc(b->text) << "</th><td>" << esc(b->seed)
      << "</td><td>" << esc(b->measured) << "</td></tr>\n";
  h << "</tbody></table></div>\n";
}

void write_blocks(std::ostream& h, const std::vector<BookBlock>& blocks, const fs::path& dir) {
  std::vector<const BookBlock*> seed_rows;
  auto flush_seed = [&] {
    if (!seed_rows.empty()) write_seed_table(h, seed_rows);
    seed_rows.clear();
  };
  for (const BookBlock& b : blocks) {
    if (b.kind != BookBlock::Kind::SeedVsMeasured) flush_seed();
    switch (b.kind) {
      case BookBlock::Kind::Heading:
        h << "<p class=\"what\">" << paragraph(b.text) << "</p>\n";
        break;
      case BookBlock::Kind::Text: h << "<pre>" << esc(b.text) << "</pre>\n"; break;
      case BookBlock::Kind::Table: write_table(h, b); break;
      case BookBlock::Kind::SeedVsMeasured: seed_rows.push_back(&b); break;
      case BookBlock::Kind::Plot:
        if (b.svg.empty()) {
          h << "<p class=\"note\">" << esc(b.note) << "</p>\n";
        } else {
          const std::string rel = fs::relative(fs::path(b.svg), dir).generic_string();
          h << "<figure><img src=\"" << esc(rel) << "\" alt=\"" << esc(b.text) << "\"><figcaption>"
            << esc(b.text) << " (<a href=\"" << esc(rel) << "\">SVG</a>)</figcaption></figure>\n";
        }
        break;
    }
  }
  flush_seed();
}

// Numbers of the grid as the page prints them: three significant digits (1.41, not
// 1.41421356).
std::string grid_number(double x) {
  std::ostringstream s;
  if (x == std::floor(x) && std::fabs(x) < 1e9)
    s << static_cast<long long>(x);  // 1024, not 1.02e+03
  else s << std::setprecision(3) << x;
  return s.str();
}

std::string grid_list(const nlohmann::json& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + grid_number(values[i].get<double>());
  return out;
}

void write_feature_map_widget(std::ostream& h, const nlohmann::json& fm) {
  const auto& s = fm["sharpness"];
  const auto& dphi = fm["d_phi"];
  std::size_t s_one = 0;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i].get<double>() == 1.0) s_one = i;
  std::size_t d64 = 0;
  for (std::size_t i = 0; i < dphi.size(); ++i)
    if (dphi[i].get<int>() == 64) d64 = i;
  const int draws = fm["draws"].get<int>();
  h << "<section class=\"widget\" id=\"feature-maps\" aria-labelledby=\"feature-maps-title\">\n"
       "<h3 id=\"feature-maps-title\">Widget: feature maps against softmax</h3>\n"
       "<p>One query, "
    << fm["n_keys"] << " keys, head width d_k = " << fm["d_k"]
    << "; the query equals key 1, the relevant one (the construction of the sharpness lab "
       "above). Pick a map and scale the query up: softmax piles its weight onto key 1, the "
       "linear maps stay flat. Random features are one draw of Omega at a time (Redraw for the "
       "next of "
    << draws
    << "); the whiskers show how far the draws spread. The weight misplaced is the share of "
       "the total weight that sits where softmax does not put it (half the L1 distance between "
       "the two sets of weights). The kernel values of random features are off by the mean over "
       "the keys of |estimate - exp(score)| / exp(score): as the query grows, that error climbs "
       "towards 100% for every d_phi, one feature comes to outweigh all the others, and the "
       "weights land wherever that one feature points, somewhere else in every draw.</p>\n"
       "<div class=\"controls\">\n<div role=\"group\" aria-label=\"Feature map\" "
       "class=\"buttons\">\n";
  for (const auto& m : fm["maps"])
    h << "<button type=\"button\" data-map=\"" << esc(m["id"].get<std::string>())
      << "\" aria-pressed=\"false\" style=\"--swatch: " << esc(m["colour"].get<std::string>())
      << "\">" << esc(m["label"].get<std::string>()) << "</button>\n";
  h << "</div>\n<div class=\"slider\"><label for=\"fm-sharpness\">Sharpness (query scale): "
       "<output id=\"fm-sharpness-value\" for=\"fm-sharpness\"></output></label>\n"
       "<input type=\"range\" id=\"fm-sharpness\" min=\"0\" max=\""
    << s.size() - 1 << "\" step=\"1\" value=\"" << s_one << "\"></div>\n"
    << "<div class=\"slider\"><label for=\"fm-dphi\">Random features d_phi: <output "
       "id=\"fm-dphi-value\" for=\"fm-dphi\"></output></label>\n"
       "<input type=\"range\" id=\"fm-dphi\" min=\"0\" max=\""
    << dphi.size() - 1 << "\" step=\"1\" value=\"" << d64 << "\"></div>\n"
    << "<div class=\"redraw\"><button type=\"button\" id=\"fm-redraw\">Redraw the random "
       "features</button> <span class=\"muted\">draw <output id=\"fm-draw-value\" "
       "for=\"fm-redraw\"></output></span></div>\n</div>\n"
    << "<p class=\"state\" id=\"fm-state\" aria-live=\"polite\"></p>\n"
    << "<svg id=\"fm-bars\" class=\"chart\" viewBox=\"0 0 720 280\" role=\"img\" "
       "aria-labelledby=\"fm-bars-title\"><title id=\"fm-bars-title\">Attention weights of the "
       "query over the keys</title></svg>\n"
       "<ul class=\"legend\" id=\"fm-bars-legend\"></ul>\n"
       "<dl class=\"readout\">\n<dt>weight on key 1 (the relevant one)</dt><dd id=\"fm-relevant\">"
       "</dd>\n<dt>softmax's weight on key 1</dt><dd id=\"fm-relevant-softmax\"></dd>\n"
       "<dt>weight misplaced</dt><dd id=\"fm-misplaced-value\"></dd>\n"
       "<dt>random features' kernel values off by</dt><dd id=\"fm-kernel-error\"></dd>\n"
       "<dt>entropy of the weights</dt><dd id=\"fm-entropy\"></dd>\n<dt>uniform weights</dt><dd>"
       "weight "
    << grid_number(fm["uniform_weight"].get<double>()) << ", entropy "
    << grid_number(fm["uniform_entropy"].get<double>())
    << " nats</dd>\n</dl>\n"
       "<div class=\"scroll\"><table id=\"fm-misplaced-table\">\n<caption>Weight misplaced "
       "by each map at this sharpness</caption>\n<tbody>\n";
  for (const auto& m : fm["maps"])
    if (m["id"] != "softmax")
      h << "<tr data-map=\"" << esc(m["id"].get<std::string>())
        << "\"><th scope=\"row\" class=\"label\">" << esc(m["label"].get<std::string>())
        << "</th><td></td></tr>\n";
  h << "</tbody></table></div>\n"
       "<svg id=\"fm-misplaced\" class=\"chart\" viewBox=\"0 0 720 260\" role=\"img\" "
       "aria-labelledby=\"fm-misplaced-title\"><title id=\"fm-misplaced-title\">Weight "
       "misplaced against sharpness, for each map</title></svg>\n"
       "<ul class=\"legend\" id=\"fm-misplaced-legend\"></ul>\n"
       "<p class=\"grid\">Grid of the data behind this widget (computed by the kit's reference "
       "library, seed "
    << fm["seed"] << "): sharpness c in {" << grid_list(s) << "} (2^(k/2)); d_phi in {"
    << grid_list(dphi) << "}; random features: " << draws
    << " draws of Omega, each shown on its own (at d_phi = 16, 64, 512 the sharpness lab's "
       "draws, whose mean is its table). Entropy in nats.</p>\n</section>\n";
}

void write_memory_widget(std::ostream& h, const nlohmann::json& mem) {
  h << "<section class=\"widget\" id=\"memory\" aria-labelledby=\"memory-title\">\n"
       "<h3 id=\"memory-title\">Widget: an outer-product memory filling up</h3>\n"
       "<p>A memory S of width d = "
    << mem["d"]
    << " written one pair at a time (S += k v^T, unit keys) and read back with every stored "
       "key. Bars: the cosine between what each stored pair reads back and its value. Curves: "
       "the mean of those cosines as pairs are written, for each kind of key, in the band of "
    << mem["trials"]
    << " trials, with the formulas for random and correlated keys dashed.</p>\n"
       "<div class=\"controls\">\n<div role=\"group\" aria-label=\"Keys\" class=\"buttons\">\n";
  for (const auto& k : mem["kinds"])
    h << "<button type=\"button\" data-keys=\"" << esc(k["id"].get<std::string>())
      << "\" aria-pressed=\"false\" style=\"--swatch: " << esc(k["colour"].get<std::string>())
      << "\">" << esc(k["label"].get<std::string>()) << "</button>\n";
  h << "</div>\n<div class=\"slider\"><label for=\"mem-n\">Pairs written n: <output "
       "id=\"mem-n-value\" for=\"mem-n\"></output></label>\n"
       "<input type=\"range\" id=\"mem-n\" min=\"1\" max=\""
    << mem["n_max"] << "\" step=\"1\" value=\"8\"></div>\n"
    << "<button type=\"button\" id=\"mem-write\">Write one more pair</button>\n</div>\n"
    << "<p class=\"state\" id=\"mem-state\" aria-live=\"polite\"></p>\n"
       "<svg id=\"mem-bars\" class=\"chart\" viewBox=\"0 0 720 240\" role=\"img\" "
       "aria-labelledby=\"mem-bars-title\"><title id=\"mem-bars-title\">Retrieval cosine of "
       "each stored pair</title></svg>\n"
       "<dl class=\"readout\">\n<dt>pairs written n</dt><dd id=\"mem-n-out\"></dd>\n"
       "<dt>mean retrieval cosine</dt><dd id=\"mem-mean\"></dd>\n"
       "<dt>over the "
    << mem["trials"]
    << " trials</dt><dd id=\"mem-band\"></dd>\n"
       "<dt>mean crosstalk (sum over the other keys of (k_s . k_j)^2)</dt><dd "
       "id=\"mem-crosstalk\"></dd>\n<dt>(n - 1)/d, its expectation for random keys</dt>"
       "<dd id=\"mem-expected\"></dd>\n</dl>\n<p id=\"mem-note\" class=\"note\" "
       "aria-live=\"polite\"></p>\n"
       "<svg id=\"mem-curve\" class=\"chart\" viewBox=\"0 0 720 280\" role=\"img\" "
       "aria-labelledby=\"mem-curve-title\"><title id=\"mem-curve-title\">Mean retrieval "
       "cosine against the number of pairs written</title></svg>\n"
       "<ul class=\"legend\" id=\"mem-curve-legend\"></ul>\n"
       "<p class=\"grid\">Grid of the data behind this widget (computed by the kit's reference "
       "library, seed "
    << mem["seed"] << ", the memory-fill lab's " << mem["trials"]
    << " trials; the first is the one drawn): n = 1 to " << mem["n_max"]
    << " for random and correlated keys, 1 to " << mem["d"]
    << " for orthonormal keys (no more exist in d = " << mem["d"]
    << " dimensions); values N(0, 1); correlated keys k = a u + b r with a = b = "
    << grid_number(mem["shared_weight"].get<double>()) << ".</p>\n</section>\n";
}

std::string lab_id(const std::string& name) { return "lab-" + name; }

}  // namespace

int write_lab_book(const std::string& dir_name, std::ostream& progress,
                   const std::vector<std::string>& only) {
  const fs::path dir = fs::absolute(dir_name);
  fs::create_directories(dir / "plots");
  Options opt;
  opt.out_dir = (dir / "plots").string();

  std::vector<const Lab*> labs;
  for (const Lab& lab : all_labs()) {
    bool wanted = only.empty();
    for (const std::string& n : only) wanted = wanted || n == lab.name;
    if (wanted) labs.push_back(&lab);
  }
  for (const std::string& n : only)
    if (!find_lab(n)) throw std::invalid_argument("no lab named '" + n + "'");

  const nlohmann::json data = {{"feature_maps", feature_map_widget_data()},
                               {"memory", memory_widget_data()}};

  std::ostringstream body;
  int status = 0;
  for (const Lab* lab : labs) {
    progress << "lab " << lab->name << " ... " << std::flush;
    std::ostringstream os;
    std::vector<BookBlock> blocks;
    int lab_status = 1;
    std::string failure;
    {
      BookRecorder book(os);
      try {
        lab_status = lab->run(opt, os);
      } catch (const std::exception& e) {
        failure = e.what();
      }
      blocks = book.blocks();
    }
    if (lab_status != 0) status = 1;
    progress << (failure.empty() ? (lab_status == 0 ? "done" : "done, not as the seed says")
                                 : "failed: " + failure)
             << '\n';
    body << "<section class=\"lab\" id=\"" << lab_id(lab->name) << "\">\n<h2>" << esc(lab->name)
         << " <span class=\"cell\">(" << esc(lab->cell) << ")</span></h2>\n";
    if (!failure.empty())
      body << "<p class=\"failed\">This lab failed: " << esc(failure) << "</p>\n";
    write_blocks(body, blocks, dir);
    body << "</section>\n";
    if (std::string(lab->name) == "sharpness") write_feature_map_widget(body, data["feature_maps"]);
    if (std::string(lab->name) == "memory-fill") write_memory_widget(body, data["memory"]);
  }

  std::ofstream h(dir / "index.html");
  h << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
       "<title>Linear attention: the lab book</title>\n<style>\n"
    << kBookCss << "</style>\n</head>\n<body>\n<header>\n<h1>Linear attention: the lab book</h1>\n"
    << "<p>Every lab of the kit (<code>./kit lab NAME</code>), in the order of the section: its "
       "tables, what the section says beside what was measured, and its plots, with the "
       "section's two figures as widgets. Written by <code>./kit lab --html</code>; the plots "
       "and their data are in <code>plots/</code>.</p>\n<nav aria-label=\"Labs\"><ol>\n";
  for (const Lab* lab : labs)
    h << "<li><a href=\"#" << lab_id(lab->name) << "\">" << esc(lab->name) << "</a> ("
      << esc(lab->cell) << "): " << esc(lab->summary) << "</li>\n";
  h << "</ol></nav>\n</header>\n<main>\n"
    << body.str() << "</main>\n<script type=\"application/json\" id=\"labbook-data\">"
    << script_json(data) << "</script>\n<script>\n"
    << kBookJs << "</script>\n</body>\n</html>\n";
  h.close();
  if (!h) throw std::runtime_error("cannot write " + (dir / "index.html").string());
  progress << "lab book: " << (dir / "index.html").string() << '\n';
  return status;
}

}  // namespace linlab
