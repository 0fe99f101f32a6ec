// The GitHub Actions summary and annotations (--github-summary) on hand-made reports: the
// score table and the Start here block, one annotation per check that did not pass, and
// hostile text from a check (Markdown, HTML, a forged workflow command) kept inert in both.
#include "src/report/report_github_summary.hpp"
#include "status_words.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <string>

namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

int count_lines_starting(const std::string& text, const std::string& start) {
  std::istringstream lines(text);
  int n = 0;
  for (std::string line; std::getline(lines, line);) n += line.rfind(start, 0) == 0;
  return n;
}

// What a hostile submission can make a check say: a script tag, a Markdown link and image, a
// table row breaker, a heading, and a workflow command on a line of its own.
const std::string kHostile =
    "<script>alert(1)</script> [click](https://evil.example) ![x](https://evil.example/x.png) "
    "| forged | row |\n# Heading\n::error file=x.cpp::forged\r\n::add-mask::secret 100% done, a:b";

grader::CheckResult check(const std::string& name, const std::string& function,
                          const std::string& status, double score, double max_score) {
  grader::CheckResult c;
  c.name = name;
  c.function = function;
  c.status = grader_test::status_called(status);
  c.score = score;
  c.max_score = max_score;
  c.message = status == "passed" ? "" : "expected 1, got 2. Likely mistake: the wrong order";
  c.rerun = "./kit grade --only causal/" + name;
  return c;
}

grader::Report report() {
  grader::Report r;
  r.submission = "exercises";
  r.assignment = "default";
  r.isolation = "namespaces";
  grader::ExerciseResult causal;
  causal.name = "causal";
  causal.build_ok = true;
  causal.source = "causal/causal.cpp";
  causal.checks = {
      check("recurrent/hand-example", "causal_linear_attention_recurrent", "passed", 3, 3),
      check("recurrent/random", "causal_linear_attention_recurrent", "failed", 0, 2),
      check("parallel/a", "causal_linear_attention_parallel", "not_implemented", 0, 2),
      check("parallel/b", "causal_linear_attention_parallel", "not_implemented", 0, 2),
      check("step/crash", "linear_attention_step", "crashed", 0, 1)};
  causal.checks[4].output = kHostile;
  causal.checks[4].message = kHostile;
  causal.score = 3;
  causal.max_score = 10;
  grader::ExerciseResult flops;
  flops.name = "flops";
  flops.build_ok = true;
  flops.checks = {check("left/small", "attention_flops", "passed", 10, 10)};
  flops.score = 10;
  flops.max_score = 10;
  r.exercises = {flops, causal};
  r.score = 13;
  r.max_score = 20;
  return r;
}

}  // namespace

TEST_CASE("github summary: the score, a row per exercise, and the terminal's Start here") {
  const std::string md = grader::to_github_summary(report());
  CHECK(has(md, "## Linear attention: 13 / 20 points"));
  CHECK(has(md, "| flops | 10 / 10 | 1 / 1 |"));
  CHECK(has(md, "| causal | 3 / 10 | 1 / 5 |"));
  CHECK(has(md, "### Start here"));
  // The terminal's block: the first check that did not pass, its likely mistake, its rerun.
  CHECK(has(md, "Start here\\: causal\\, recurrent\\/random \\(FAIL\\)"));
  CHECK(has(md, "Likely mistake\\: the wrong order"));
  CHECK(has(md, "rerun\\: \\.\\/kit grade \\-\\-only causal\\/recurrent\\/random"));
  // A function not written yet is one line, however many of its checks there are.
  CHECK(count_lines_starting(md, "- **causal**: causal\\_linear\\_attention\\_parallel is not") ==
        1);
}

TEST_CASE("github summary: at full marks, no Start here") {
  grader::Report r = report();
  r.exercises.pop_back();
  r.score = r.max_score = 10;
  const std::string md = grader::to_github_summary(r);
  CHECK(has(md, "Every check passed."));
  CHECK_FALSE(has(md, "Start here"));
}

TEST_CASE("github summary: a check's hostile output and message stay inert text") {
  const std::string md = grader::to_github_summary(report());
  // The message is Markdown text: no link, image, heading or table row of the student's
  // survives unescaped, and it is all there as literal text.
  CHECK(has(md, "\\<script\\>alert\\(1\\)\\<\\/script\\>"));
  CHECK(has(md, "\\[click\\]\\(https\\:\\/\\/evil\\.example\\)"));
  CHECK(has(md, "\\!\\[x\\]"));
  CHECK(has(md, "\\| forged \\| row \\|<br>\\# Heading<br>"));
  CHECK_FALSE(has(md, "\n# Heading"));
  // The output sits in a <pre> inside raw HTML, where Markdown's escapes mean nothing: it is
  // escaped as HTML instead, its line breaks as references, so no raw blank line can end the
  // HTML block and hand the rest back to Markdown.
  const std::string pre_open = "<details><summary>what it printed</summary><pre>";
  const std::size_t from = md.find(pre_open);
  REQUIRE(from != std::string::npos);
  const std::size_t to = md.find("</pre></details>\n", from);
  REQUIRE(to != std::string::npos);
  const std::string pre = md.substr(from + pre_open.size(), to - from - pre_open.size());
  CHECK(pre ==
        "&lt;script&gt;alert(1)&lt;/script&gt; [click](https://evil.example) "
        "![x](https://evil.example/x.png) | forged | row |&#10;# Heading&#10;"
        "::error file=x.cpp::forged\\x0d&#10;::add-mask::secret 100% done, a:b");
  CHECK(pre.find('\n') == std::string::npos);
  // The only HTML in the summary is the summary's own: every other < is escaped, by a
  // backslash in Markdown text or as &lt; in the <pre>.
  std::string tags;
  for (std::size_t at = md.find('<'); at != std::string::npos; at = md.find('<', at + 1))
    if (at == 0 || md[at - 1] != '\\') tags += md.substr(at, md.find('>', at) - at + 1);
  for (const char* own :
       {"<br>", "<details>", "</details>", "<summary>", "</summary>", "<pre>", "</pre>"})
    for (std::size_t at = tags.find(own); at != std::string::npos; at = tags.find(own))
      tags.erase(at, std::string(own).size());
  CHECK(tags == "");
}

TEST_CASE("github summary: a class of worst-case checks stays under GitHub's 1 MiB") {
  // 300 failing checks, each printing 4,000 quotes (six bytes each once escaped) and a
  // message of control characters (four bytes each once escaped): uncapped, several MiB.
  grader::Report r = report();
  grader::ExerciseResult& causal = r.exercises[1];
  causal.checks.clear();
  for (int i = 0; i < 300; ++i) {
    grader::CheckResult c =
        check("random/" + std::to_string(i), "causal_linear_attention_recurrent", "failed", 0, 1);
    c.output = std::string(5000, '\'');
    c.message = std::string(3000, '\x01');
    causal.checks.push_back(c);
  }
  const std::string md = grader::to_github_summary(r);
  CHECK(md.size() < 1024 * 1024);
  CHECK(md.size() > 512 * 1024);  // the room is used, not thrown away
  CHECK(has(md, " more in the job's log."));
  CHECK(has(md, "&#39;&#39;&#39;"));
}

TEST_CASE("github summary: a long output is cut on a character, or at the cap if not UTF-8") {
  const auto pre_of = [](const std::string& output) {
    grader::Report r = report();
    r.exercises[1].checks[1].output = output;  // the failed recurrent/random
    r.exercises[1].checks[4].output.clear();
    const std::string md = grader::to_github_summary(r);
    const std::string open = "<pre>";
    const std::size_t from = md.find(open);
    REQUIRE(from != std::string::npos);
    return md.substr(from + open.size(), md.find("</pre>", from) - from - open.size());
  };
  const std::string cut = "&#10;[... cut: the job&#39;s log has all of it]";
  // 'x' and 2,500 two-byte letters: byte 4,000 is the second half of one, which is left out.
  std::string letters = "x";
  for (int i = 0; i < 2500; ++i) letters += "\xC3\xA9";
  CHECK(pre_of(letters) == letters.substr(0, 3999) + cut);
  // 5,000 stray continuation bytes: 4,000 of them shown (escaped), not none.
  std::string shown;
  for (int i = 0; i < 4000; ++i) shown += "\\x80";
  CHECK(pre_of(std::string(5000, '\x80')) == shown + cut);
}

TEST_CASE("github annotations: one error per failing check, on the student's file") {
  const std::string lines = grader::github_annotations(report());
  // recurrent/random, the parallel form (its two not written checks as one), step/crash.
  CHECK(count_lines_starting(lines, "::error ") == 3);
  CHECK(has(lines,
            "::error file=exercises/causal/causal.cpp,title=causal%3A recurrent/random::"
            "failed%3A expected 1, got 2. Likely mistake%3A the wrong order\n") == false);
  CHECK(has(lines,
            "::error file=exercises/causal/causal.cpp,title=causal%3A recurrent/random::"
            "failed: expected 1, got 2. Likely mistake: the wrong order\n"));
  CHECK(has(lines,
            "title=causal%3A causal_linear_attention_parallel::"
            "causal_linear_attention_parallel is not written yet"));
  CHECK_FALSE(has(lines, "flops"));
}

TEST_CASE("github annotations: a hostile message cannot end its command or start another") {
  const std::string lines = grader::github_annotations(report());
  // Every line is one of ours: the forged commands stay inside the message, encoded.
  CHECK(count_lines_starting(lines, "::") == 3);
  CHECK_FALSE(has(lines, "\n::add-mask"));
  // (A carriage return is made visible first, as in every report; a bare one would be %0D.)
  CHECK(has(lines, "%0A::error file=x.cpp::forged\\x0d%0A::add-mask::secret 100%25 done, a:b\n"));
  CHECK_FALSE(has(lines, "\r"));
}

TEST_CASE("workflow command escapes: as GitHub documents them") {
  CHECK(grader::workflow_message("100%\r\nnext") == "100%25%0D%0Anext");
  CHECK(grader::workflow_message("a:b,c") == "a:b,c");
  CHECK(grader::workflow_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A");
  CHECK(grader::markdown_literal("*x* `y` <b>") == "\\*x\\* \\`y\\` \\<b\\>");
  CHECK(grader::markdown_literal("plain text, héllo") == "plain text\\, héllo");
}
