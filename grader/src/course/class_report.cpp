// The class report's page: see class_report.hpp.
#include "class_report.hpp"

#include "../report/html_text.hpp"
#include "report_stem.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace grader {

namespace {

using html::escape;

std::string number(double x) {
  std::ostringstream o;
  o << std::round(x * 100) / 100;
  return o.str();
}

std::string percent(int part, int whole) {
  return whole > 0 ? std::to_string(static_cast<int>(std::lround(100.0 * part / whole))) + "%"
                   : "-";
}

std::string percent_of(double share) {
  return std::to_string(static_cast<int>(std::lround(100 * share))) + "%";
}

std::string link_to(const std::string& submission) {
  return "<a class=\"report\" href=\"" + report_link(submission) + "\">" + escape(submission) +
         "</a>";
}

// The bins' ranges in points, for their titles: "0-1", ..., "9-10", "10" for full marks.
std::string bin_label(const Histogram& h, std::size_t bin) {
  if (bin + 1 == h.counts.size()) return number(h.max);
  return number(h.max * static_cast<double>(bin) / 10) + "-" +
         number(h.max * static_cast<double>(bin + 1) / 10);
}

}  // namespace

int histogram_label_stride(double max, int slot) {
  // Every k-th of the eleven edges 0, max/10, ..., max, k one of 1, 2, 5, 10 (so that the
  // last edge, max, is always labelled), the smallest k whose labels are all narrower than
  // the room between two of them.
  for (const int k : {1, 2, 5}) {
    std::size_t widest = 0;
    for (int i = 0; i <= 10; i += k) widest = std::max(widest, number(max * i / 10).size());
    if (static_cast<double>(widest) * kHistogramCharWidth + 4 <= k * slot) return k;
  }
  return 10;
}

namespace {

// A bar chart of a histogram, each bar with its count above it; below, the bins' edges in
// points (as many as fit without touching), the full-marks bar last. The counts are in the
// markup too (data-count), for a screen reader's table and for the tests.
std::string histogram_svg(const Histogram& h, const std::string& caption, const std::string& id) {
  const int width = kHistogramWidth, height = 170, left = 10, bottom = 40, top = 18;
  const int n = static_cast<int>(h.counts.size());
  const int slot = (width - 2 * left) / n;
  const int most = std::max(1, *std::max_element(h.counts.begin(), h.counts.end()));
  std::ostringstream o;
  o << "<figure class=\"histogram\" id=\"" << id << "\">\n<svg width=\"" << width << "\" height=\""
    << height << "\" viewBox=\"0 0 " << width << ' ' << height
    << "\" role=\"img\" aria-labelledby=\"" << id << "-caption\">\n";
  o << "<line x1=\"" << left << "\" y1=\"" << height - bottom << "\" x2=\"" << width - left
    << "\" y2=\"" << height - bottom << "\" stroke=\"#999\"/>\n";
  for (int i = 0; i < n; ++i) {
    const int count = h.counts[static_cast<std::size_t>(i)];
    const int bar = (height - bottom - top) * count / most;
    const int x = left + i * slot + 2, y = height - bottom - bar;
    const std::string label = bin_label(h, static_cast<std::size_t>(i));
    const bool full = i + 1 == n;
    o << "<g class=\"bin\" data-bin=\"" << escape(label) << "\" data-count=\"" << count << "\">";
    o << "<title>" << escape(label) << " points: " << count << "</title>";
    // Full marks hatched as well as coloured: told apart without its colour.
    o << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << slot - 4 << "\" height=\"" << bar
      << "\" fill=\"" << (full ? html::kPassColour : html::kSeriesColour) << "\""
      << (full ? " stroke=\"#000\" stroke-dasharray=\"3 2\"" : "") << "/>";
    if (count > 0)
      o << "<text x=\"" << x + (slot - 4) / 2 << "\" y=\"" << y - 3 << "\" text-anchor=\"middle\">"
        << count << "</text>";
    o << "</g>\n";
  }
  // The edges between the bins, edge i at the left of bin i (edge 10, max, before full marks).
  const int stride = histogram_label_stride(h.max, slot);
  for (int i = 0; i <= 10; i += stride)
    o << "<text class=\"edge\" data-edge=\"" << i << "\" x=\"" << left + i * slot << "\" y=\""
      << height - bottom + 14 << "\" text-anchor=\"middle\">" << number(h.max * i / 10)
      << "</text>\n";
  o << "<text x=\"" << width / 2 << "\" y=\"" << height - 6
    << "\" text-anchor=\"middle\">points (last bar: full "
    << "marks)</text>\n</svg>\n<figcaption id=\"" << id << "-caption\">" << escape(caption)
    << "</figcaption>\n</figure>\n";
  return o.str();
}

// A pass rate as a bar: the part that passed solid, the rest a pale tint of the failing colour
// with a dark edge between them, so the two differ in lightness, not in hue alone (in grey,
// Okabe and Ito's green and vermillion are nearly one shade). It scales down in a narrow cell.
std::string rate_bar(int passed, int graded) {
  const int width = 120;
  const int green = graded > 0 ? width * passed / graded : 0;
  std::ostringstream o;
  o << "<svg class=\"rate\" width=\"" << width << "\" height=\"12\" viewBox=\"0 0 " << width
    << " 12\" preserveAspectRatio=\"none\" aria-hidden=\"true\"><rect width=\"" << green
    << "\" height=\"12\" fill=\"" << html::kPassColour << "\"/><rect x=\"" << green << "\" width=\""
    << width - green << "\" height=\"12\" fill=\"" << html::kFailColour
    << "\" fill-opacity=\"0.3\"/><line x1=\"" << green << "\" x2=\"" << green
    << "\" y2=\"12\" stroke=\"#000\" stroke-width=\"2\"/></svg>";
  return o.str();
}

std::string listed_section(const std::string& heading, const std::string& id,
                           const std::vector<Listed>& items, const std::string& none) {
  std::string out = "<section id=\"" + id + "\">\n<h2>" + escape(heading) +
                    " <span class=\"count\">" + std::to_string(items.size()) + "</span></h2>\n";
  if (items.empty()) return out + "<p class=\"muted\">" + escape(none) + "</p>\n</section>\n";
  out += "<ul>\n";
  for (const auto& item : items)
    out += "<li>" + link_to(item.submission) + ": " + escape(item.text) + "</li>\n";
  return out + "</ul>\n</section>\n";
}

// A histogram's text is 13 px, so that it stays 10 px or more when a phone scales the 440 px
// chart down to its width (358 px of a 390 px screen).
const char* const kStyle = R"css(
.histograms { display: flex; flex-wrap: wrap; gap: 1rem; }
figure.histogram { max-width: 100%; } figure.histogram svg { max-width: 100%; height: auto; }
figure.histogram svg text { font-size: 13px; }
details.exercise-checks { margin: 0.3rem 0; } details.exercise-checks > summary { padding: 0.2rem 0; }
figure { margin: 0; } figcaption { font-size: 0.9rem; color: #444; }
h2 .count { font-size: 0.9rem; color: #666; font-weight: normal; }
h2 .count::before { content: "("; } h2 .count::after { content: ")"; }
tr.mistake td.students { font-size: 0.9rem; }
svg.rate { width: 100%; max-width: 120px; min-width: 40px; height: 12px; display: block; }
)css";

// Scores: a histogram of the totals, then one per exercise.
std::string scores_section(const ClassSummary& s) {
  std::string body;
  body += "<section id=\"scores\">\n<h2>Scores</h2>\n<div class=\"histograms\">\n" +
          histogram_svg(s.total, "Totals, out of " + number(s.total.max), "hist-total");
  for (std::size_t i = 0; i < s.exercises.size(); ++i)
    body += histogram_svg(s.per_exercise[i],
                          s.exercises[i] + ", out of " + number(s.per_exercise[i].max),
                          "hist-" + html::url_segment(s.exercises[i]));
  body += "</div>\n</section>\n";
  return body;
}

// Checks, folded by exercise: each exercise's line says how its checks went as a whole and
// which passed least; its table opens on a click.
std::string checks_section(const ClassSummary& s) {
  std::string body;
  body +=
      "<section id=\"checks\">\n<h2>Pass rate of each check</h2>\n<p>One line per exercise; "
      "open it for its checks.</p>\n";
  for (std::size_t e = 0; e < s.checks.size();) {
    std::size_t end = e;
    int passed = 0, graded = 0;
    const CheckRate* lowest = nullptr;
    while (end < s.checks.size() && s.checks[end].exercise == s.checks[e].exercise) {
      const CheckRate& c = s.checks[end++];
      passed += c.passed;
      graded += c.graded;
      if (c.graded > 0 && (!lowest || c.passed * lowest->graded < lowest->passed * c.graded))
        lowest = &c;
    }
    const std::string& exercise = s.checks[e].exercise;
    body += "<details class=\"exercise-checks\" data-exercise=\"" + escape(exercise) +
            "\" data-checks=\"" + std::to_string(end - e) + "\"><summary><strong>" +
            escape(exercise) + "</strong>: " + std::to_string(end - e) + " check" +
            (end - e == 1 ? "" : "s") + ", " + std::to_string(passed) + "/" +
            std::to_string(graded) + " passed (" + percent(passed, graded) + ")";
    if (lowest)
      body += "; the lowest, " + escape(lowest->check) + ": " + std::to_string(lowest->passed) +
              "/" + std::to_string(lowest->graded) + " (" +
              percent(lowest->passed, lowest->graded) + ")";
    body +=
        "</summary>\n<div class=\"scroll\"><table>\n<tr><th>check</th><th>function</th><th "
        "class=\"num\">passed</th><th></th><th>the others</th></tr>\n";
    for (; e < end; ++e) {
      const CheckRate& c = s.checks[e];
      std::string others;
      for (const auto& [status, count] : c.not_passed)
        others += (others.empty() ? "" : ", ") + escape(status) + " " + std::to_string(count);
      body += "<tr class=\"check\" data-check=\"" + escape(c.exercise + "/" + c.check) +
              "\" data-passed=\"" + std::to_string(c.passed) + "\" data-graded=\"" +
              std::to_string(c.graded) + "\"><td>" + escape(c.check) + "</td><td><code>" +
              escape(c.function) + "</code></td><td class=\"num\">" + std::to_string(c.passed) +
              "/" + std::to_string(c.graded) + " (" + percent(c.passed, c.graded) + ")</td><td>" +
              rate_bar(c.passed, c.graded) + "</td><td>" + others + "</td></tr>\n";
    }
    body += "</table></div>\n</details>\n";
  }
  body += "</section>\n\n";
  return body;
}

// Likely mistakes, the most frequent first.
std::string mistakes_section(const ClassSummary& s) {
  std::string body;
  body +=
      "<section id=\"mistakes\">\n<h2>Likely mistakes, the most frequent first <span "
      "class=\"count\">" +
      std::to_string(s.mistakes.size()) + "</span></h2>\n";
  if (s.mistakes.empty()) {
    body += "<p class=\"muted\">No check named a likely mistake.</p>\n";
  } else {
    body +=
        "<p>As the checks named them (a student counts once per mistake, however many checks saw "
        "it).</p>\n"
        "<div class=\"scroll\"><table>\n<tr><th "
        "class=\"num\">students</th><th>exercise</th><th>likely mistake"
        "</th><th>seen by</th><th>who</th></tr>\n";
    for (const auto& m : s.mistakes) {
      std::string who;
      for (const auto& sub : m.submissions) who += (who.empty() ? "" : ", ") + link_to(sub);
      std::string checks;
      for (const auto& c : m.checks) checks += (checks.empty() ? "" : ", ") + escape(c);
      body += "<tr class=\"mistake\" data-students=\"" + std::to_string(m.submissions.size()) +
              "\"><td class=\"num\">" + std::to_string(m.submissions.size()) + "</td><td>" +
              escape(m.exercise) + "</td><td class=\"text\">" + escape(m.mistake) + "</td><td>" +
              checks + "</td><td class=\"students\">" + who + "</td></tr>\n";
    }
    body += "</table></div>\n";
  }
  // Said, so that an instructor does not wonder where a starter's message went.
  for (const auto& [exercise, who] : s.as_handed_out) {
    std::string names;
    for (const auto& sub : who) names += (names.empty() ? "" : ", ") + link_to(sub);
    body += "<p class=\"as-handed-out muted\">Not counted: " + std::to_string(who.size()) + " " +
            escape(exercise) + (who.size() == 1 ? " file" : " files") +
            " left as handed out (the stub token for token): " + names + ".</p>\n";
  }
  body += "</section>\n";
  return body;
}

// Files alike as token streams: for a person to look at, never a verdict.
std::string similar_section(const ClassSummary& s) {
  std::string body;
  body += "<section id=\"similar\">\n<h2>Similar files <span class=\"count\">" +
          std::to_string(s.similar.size()) + "</span></h2>\n";
  if (s.similar.empty()) {
    body += "<p class=\"muted\">No two files are alike beyond the stub.</p>\n";
  } else {
    body +=
        "<p>Compared as token streams (comments, spacing and names of variables aside; the "
        "stub's code not counted): the share of the two files' tokens in runs both hold. A lead "
        "to look at, not a verdict; <code>similarity.csv</code> has the same pairs.</p>\n"
        "<div class=\"scroll\"><table>\n<tr><th>exercise</th><th>submissions</th><th "
        "class=\"num\">share</th></tr>\n";
    for (const auto& p : s.similar)
      body += "<tr class=\"similar\" data-share=\"" + percent_of(p.pair.share) + "\"><td>" +
              escape(p.exercise) + "</td><td>" + link_to(p.pair.a) + " (" + escape(p.a.file) +
              "), " + link_to(p.pair.b) + " (" + escape(p.b.file) + ")</td><td class=\"num\">" +
              percent_of(p.pair.share) + "</td></tr>\n";
    body += "</table></div>\n";
  }
  body += "</section>\n";
  return body;
}

// Every submission: a row each, with its scores per exercise.
std::string students_section(const ClassSummary& s) {
  std::string body;
  body +=
      "<section id=\"students\">\n<h2>Every submission</h2>\n<div "
      "class=\"scroll\"><table>\n<tr><th>submission"
      "</th><th>id</th><th>name</th>";
  for (const auto& ex : s.exercises) body += "<th class=\"num\">" + escape(ex) + "</th>";
  body += "<th class=\"num\">total</th><th class=\"num\">after late</th><th>status</th></tr>\n";
  for (const auto& st : s.students) {
    body +=
        "<tr class=\"student\"><td>" +
        (st.submission.empty() ? "<span class=\"muted\">none</span>" : link_to(st.submission)) +
        (st.submission.empty() || st.counted ? "" : " <span class=\"muted\">(not counted)</span>") +
        "</td><td>" + escape(st.id) + "</td><td>" + escape(st.name) + "</td>";
    for (double score : st.scores) body += "<td class=\"num\">" + number(score) + "</td>";
    body += "<td class=\"num\">" + number(st.total) + "/" + number(st.max_score) +
            "</td><td class=\"num\">" + number(st.total_after_late) + (st.late ? " (late)" : "") +
            "</td><td>" + escape(st.status) + "</td></tr>\n";
  }
  body += "</table></div>\n</section>\n";
  return body;
}

}  // namespace

std::string report_link(const std::string& submission) {
  // The page's file is named by report_stem: a long or odd folder name is shortened there.
  return "reports/" + html::url_segment(report_stem(submission)) + ".html";
}

std::string class_report_html(const ClassSummary& s, const std::string& title) {
  std::string body = "<h1>Class report: " + escape(title) + "</h1>\n<p><span id=\"counted\">" +
                     std::to_string(s.counted) + "</span> submission(s) graded";
  if (!s.no_submission.empty())
    body += "; <span id=\"no-submission\">" + std::to_string(s.no_submission.size()) +
            "</span> roster entr" + (s.no_submission.size() == 1 ? "y" : "ies") + " without one";
  body +=
      ". Scores are before any late penalty. The files beside this page: "
      "<code>gradebook.csv</code> "
      "and the exports; each submission's own page is under <code>reports/</code>.</p>\n";
  body +=
      "<nav><a href=\"#scores\">scores</a> · <a href=\"#checks\">checks</a> · <a "
      "href=\"#mistakes\">likely "
      "mistakes</a> · <a href=\"#build-errors\">build errors</a> · <a href=\"#missing\">missing "
      "files</a> · "
      "<a href=\"#ambiguous\">competing files</a> · <a href=\"#late\">late</a> · <a "
      "href=\"#stopped\">crashes</a> · <a href=\"#similar\">similar files</a> · <a "
      "href=\"#students\">every "
      "submission</a></nav>\n";

  body += scores_section(s);
  body += checks_section(s);
  body += mistakes_section(s);
  body += listed_section("Does not build", "build-errors", s.build_errors,
                         "Every file that was found built.");
  body += listed_section("Missing files", "missing", s.missing, "No exercise is missing a file.");
  body += listed_section("Competing files (none graded)", "ambiguous", s.ambiguous,
                         "No exercise has competing files.");
  body += listed_section("Late", "late", s.late, "No submission is late.");
  body += listed_section("Crashes, time-outs and memory failures", "stopped", s.stopped,
                         "No check crashed, ran out of time or over the memory limit.");

  body += similar_section(s);
  if (!s.no_submission.empty()) {
    body += "<section id=\"no-submissions\">\n<h2>In the roster, no submission</h2>\n<ul>\n";
    for (const auto& who : s.no_submission) body += "<li>" + escape(who) + "</li>\n";
    body += "</ul>\n</section>\n";
  }
  body += students_section(s);
  return html::page("Class report: " + title, kStyle, body);
}

}  // namespace grader
