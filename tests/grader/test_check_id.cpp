// `--only EXERCISE/CHECK` takes a check as the report shows it under its exercise, and the rerun
// lines the reports print grade the same assignment (issue 34): check_id.hpp.
#include "folding_sample.hpp"
#include "src/report/check_id.hpp"
#include "src/report/report.hpp"
#include "src/report/report_prairielearn.hpp"

#include <doctest/doctest.h>

#include <string>

using grader_test::has;

TEST_CASE("--only: a check is named as the report shows it under its exercise") {
  // chunkwise's checks are named "chunkwise/...": `--only chunkwise/hand-example` (what the
  // report shows under the exercise) and the full `--only chunkwise/chunkwise/hand-example` (what
  // the hand-outs teach) both select the check.
  CHECK(grader::names_check("chunkwise", "hand-example", "chunkwise/hand-example"));
  CHECK(grader::names_check("chunkwise", "chunkwise/hand-example", "chunkwise/hand-example"));
  CHECK(grader::names_check("causal", "recurrent/hand-example", "recurrent/hand-example"));
  // A check of another group is not selected by its last part alone.
  CHECK_FALSE(grader::names_check("causal", "hand-example", "recurrent/hand-example"));
  CHECK_FALSE(grader::names_check("chunkwise", "hand", "chunkwise/hand-example"));
  // What the grader prints is the full form, which always selects the check it names.
  CHECK(grader::only_argument("chunkwise", "chunkwise/hand-example") ==
        "chunkwise/chunkwise/hand-example");
  for (const char* name : {"chunkwise/hand-example", "recurrent/eps"}) {
    const std::string typed = grader::only_argument("chunkwise", name);
    CHECK(grader::names_check("chunkwise", typed.substr(typed.find('/') + 1), name));
  }
}

TEST_CASE("--only: an unknown check lists whole --only arguments, each one pasteable") {
  const std::string message = grader::unknown_check_message(
      "chunkwise", "hand", {"chunkwise/hand-example", "chunkwise/large-eps"});
  CHECK(has(message, "no check 'chunkwise/hand'"));
  CHECK(has(message, "\n  chunkwise/chunkwise/hand-example\n  chunkwise/chunkwise/large-eps"));
  CHECK(has(grader::unknown_check_message("causal", "x", {"step/eps"}), "\n  causal/step/eps"));
}

TEST_CASE("rerun lines: the assignment graded, and --only in the full form") {
  CHECK(grader::rerun_line("sub", "advanced", "chunkwise", "chunkwise/hand-example", 7) ==
        "./kit grade sub --assignment advanced --only chunkwise/chunkwise/hand-example --seed 7");
  // The kit's default needs no option.
  CHECK(grader::rerun_line("sub", "", "causal", "recurrent/eps", 3) ==
        "./kit grade sub --only causal/recurrent/eps --seed 3");
  CHECK(grader::rerun_line("sub", "default", "causal", "recurrent/eps", 3) ==
        "./kit grade sub --only causal/recurrent/eps --seed 3");
  // An assignment given as a file, and a folder, as the shell needs them.
  CHECK(grader::rerun_line("my work", "week 1.json", "flops", "flops/x", 1) ==
        "./kit grade 'my work' --assignment 'week 1.json' --only flops/flops/x --seed 1");
}

TEST_CASE("rerun lines: the course's reports give the line for a student's own kit") {
  CHECK(grader::kit_rerun_line("chunkwise", "chunkwise/hand-example") ==
        "./kit grade --only chunkwise/chunkwise/hand-example");
  CHECK(grader::kit_rerun_line("causal", "step/eps") == "./kit grade --only causal/step/eps");
  // Gradescope's and PrairieLearn's outputs print it for a failing check, without the course's
  // assignment (the student's kit may not have its file).
  grader::Report r = grader_test::sample();  // chunkwise, hand-example failing
  r.assignment = "advanced";
  r.exercises[0].checks = {grader_test::check("chunkwise/hand-example", "f", "failed", 4)};
  const std::string line =
      "rerun in your kit: ./kit grade --only chunkwise/chunkwise/hand-example\n";
  CHECK(has(grader::to_gradescope_json(r)["tests"][0]["output"].get<std::string>() + "\n", line));
  CHECK(has(grader::to_prairielearn_json(r)["tests"][0]["output"].get<std::string>() + "\n", line));
}
