#include "command_line.hpp"

#include "../course/grade_shards.hpp"
#include "../report/submission_metadata.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <memory>
#include <vector>

namespace grader {

namespace {

namespace fs = std::filesystem;

const char* const kFooter =
    "Exit status of grade: 0 full marks, 1 graded but not full marks (a submission that does not\n"
    "build is a grade), 2 could not grade (bad usage, no sandbox where one is required, a fault\n"
    "of the grader). grade-all: 0 when every submission was graded, 2 otherwise.";

// Digits only: no sign, no 0x, no leading '+' (strtoull would take them all).
const CLI::Validator kWholeNumber(
    [](std::string& s) {
      if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos)
        return std::string("needs a non-negative whole number, got '" + s + "'");
      return std::string();
    },
    "", "whole number");

const CLI::Validator kExerciseOrCheck(
    [](std::string& s) {
      const auto slash = s.find('/');
      if (s.empty() || slash == 0 || slash + 1 == s.size())
        return std::string("needs EXERCISE or EXERCISE/CHECK, got '" + s + "'");
      return std::string();
    },
    "", "exercise or check");

// What the subcommands fill in, kept beside the App (CLI11 writes through pointers).
struct Targets {
  Command command;
  std::string kit;
  std::string only;
  std::uint64_t seed = 0;
  CLI::App* grade = nullptr;
  CLI::App* batch = nullptr;
  CLI::App* merge = nullptr;
  std::string shard;
  CLI::App* try_ = nullptr;
  CLI::App* show = nullptr;
  CLI::App* record = nullptr;
  CLI::App* course_key = nullptr;
  CLI::App* describe = nullptr;
  CLI::Option* seed_option = nullptr;
  CLI::Option* batch_seed_option = nullptr;
};

// The options that grade and grade-all share: how the checks are chosen and run.
CLI::Option* add_check_options(CLI::App* app, Options& o, std::uint64_t& seed) {
  CLI::Option* s = app->add_option("--seed", seed, "run every check with seed N instead of its own")
                       ->check(kWholeNumber)
                       ->type_name("N");
  app->add_option("--jobs", o.jobs,
                  "run N builds and checks at a time (default: as many as the CPUs and memory this "
                  "process may use allow: affinity, cgroup quota and limit, Slurm)")
      ->check(CLI::Range(1, 256).description(""))
      ->type_name("N");
  app->add_flag("--visible-only", o.visible_only,
                "grade only the checks students see now (visible)");
  app->add_option("--assignment", o.assignment,
                  "grade the exercises of assignments/NAME.json (or of FILE.json), with its points "
                  "and visibility (default: default)")
      ->type_name("NAME");
  app->add_flag("--strict", o.strict, "refuse to grade without a sandbox (course grading)");
  return s;
}

// grade: one submission, its reports, and what it is graded against.
void add_grade_command(CLI::App& app, Targets& t) {
  Options& o = t.command.options;
  t.grade = app.add_subcommand("grade",
                               "grade one submission (the default command): build, check, report");
  t.grade->allow_extras();
  t.grade->add_option("DIR", o.submission, "the submission folder (default: exercises/)")
      ->type_name("");
  t.grade->add_option("--only", t.only, "grade one exercise, or one check of it")
      ->check(kExerciseOrCheck)
      ->type_name("EXERCISE[/CHECK]");
  t.seed_option = add_check_options(t.grade, o, t.seed);
  t.grade->add_option("--json", o.json_path, "write the native report (JSON)")->type_name("FILE");
  t.grade->add_option("--gradescope", o.gradescope_path, "write Gradescope's results.json")
      ->type_name("FILE");
  t.grade
      ->add_option("--prairielearn", t.command.prairielearn_path,
                   "write PrairieLearn's external-grading results.json")
      ->type_name("FILE");
  t.grade->add_option("--junit", o.junit_path, "write a JUnit XML report")->type_name("FILE");
  t.grade->add_flag("--github-summary", o.github_summary,
                    "in a GitHub Actions step: the report as Markdown in the job's summary "
                    "($GITHUB_STEP_SUMMARY), each failing check as an annotation on its file");
  t.grade
      ->add_option("--html", o.html_path, "write the report as one static page (opens from disk)")
      ->type_name("FILE");
  t.grade->add_flag("--quiet", o.quiet, "no report on the terminal");
  t.grade->add_flag("--verbose", o.verbose,
                    "every check's details in full (repeats are folded otherwise)");
  t.grade->add_flag("--course", o.course, "grade with the course's own seeds (implies --strict)");
  t.grade
      ->add_option(
          "--submitted-at", o.submitted_at,
          "when it was handed in (ISO 8601 with its zone): late against the assignment's due time")
      ->type_name("TIME");
  t.grade
      ->add_option(
          "--submission-metadata", t.command.submission_metadata_path,
          "Gradescope's submission_metadata.json: late by its created_at against its due_date")
      ->type_name("FILE");
  t.grade
      ->add_option("--student", o.student,
                   "whose seeds, for an assignment with per-student seeds (implies --course)")
      ->type_name("ID");
  t.grade->add_option("--replay", o.replay_path, "expected values recorded by record-oracle")
      ->type_name("FILE");
}

// grade-all: a class folder; merge-grades: the folders of its shards, joined.
void add_class_commands(CLI::App& app, Targets& t) {
  Options& o = t.command.options;
  BatchOptions& b = t.command.batch;
  t.batch = app.add_subcommand(
      "grade-all",
      "grade every sub-folder of DIR as a submission, in parallel, in the sandbox, with "
      "the course's seeds; unchanged submissions are skipped");
  t.batch->allow_extras();
  t.batch->add_option("DIR", b.dir, "the folder of submissions")->required()->type_name("");
  t.batch
      ->add_option(
          "--out", b.out,
          "write OUT/gradebook.csv, OUT/class-report.html and OUT/reports/<name>.json and .html "
          "(default: DIR-grades)")
      ->type_name("OUT");
  t.batch
      ->add_option("--roster", b.roster_path,
                   "join a roster (CSV: folder,id,name,email): ids and statuses in the gradebook; "
                   "canvas.csv, moodle.csv, scores.csv for LMS imports")
      ->type_name("FILE");
  t.batch->add_flag("--bom", b.bom, "start every CSV with a UTF-8 byte-order mark (spreadsheets)");
  t.batch
      ->add_option(
          "--lms-column", b.lms_column,
          "the grade column's name in the LMS imports (default: the assignment's name; its "
          "title in Moodle's; in Canvas's, the roster's own column for it when it has one)")
      ->type_name("NAME");
  t.batch->add_flag("--missing-as-zero", b.missing_as_zero,
                    "write 0 in the LMS imports for a student with no submission (default: an "
                    "empty cell, which leaves the LMS's grade as it is)");
  t.batch_seed_option = add_check_options(t.batch, o, t.seed);
  t.batch
      ->add_option(
          "--shard", t.shard,
          "grade only the K-th of N parts of the class (a stable split by submission name); "
          "join the parts' --out folders with merge-grades")
      ->type_name("K/N");

  t.merge = app.add_subcommand(
      "merge-grades",
      "join the --out folders of grade-all --shard runs into one gradebook and one set "
      "of exports in OUT");
  t.merge->add_option("OUT", b.out, "the folder to write")->required()->type_name("");
  t.merge->add_option("DIR", b.merge_dirs, "the shards' --out folders")->required()->type_name("");
  t.merge->add_option("--roster", b.roster_path, "the roster, as given to grade-all")
      ->type_name("FILE");
  t.merge->add_flag("--bom", b.bom, "start every CSV with a UTF-8 byte-order mark (spreadsheets)");
  t.merge->add_option("--lms-column", b.lms_column, "the grade column's name in the LMS imports")
      ->type_name("NAME");
  t.merge->add_flag("--missing-as-zero", b.missing_as_zero,
                    "write 0 in the LMS imports for a student with no submission");
  t.merge
      ->add_option("--assignment", o.assignment,
                   "the assignment the shards graded (default: default)")
      ->type_name("NAME");
}

// try, assignment, describe-api, and the release tools' own commands.
void add_tool_commands(CLI::App& app, Targets& t) {
  Options& o = t.command.options;
  t.try_ = app.add_subcommand(
      "try", "build EXERCISE.cpp with the exercise's scratch program (try.cpp) and run it");
  t.try_->add_option("EXERCISE", t.command.try_exercise, "the exercise")->required()->type_name("");
  t.try_
      ->add_option("DIR", t.command.try_dir,
                   "the folder that holds EXERCISE/ (default: exercises/)")
      ->type_name("");

  t.show = app.add_subcommand(
      "assignment",
      "read an assignment and print its exercises, points, and when students see each check");
  t.show->add_option("NAME", o.assignment, "assignments/NAME.json, or FILE.json (default: default)")
      ->type_name("");

  t.describe =
      app.add_subcommand("describe-api",
                         "print every API function's arguments and results as a request and a "
                         "reply carry them (from the exercises' API descriptions)");

  // The release tools' own commands, left out of the usage text.
  t.record = app.add_subcommand("record-oracle",
                                "record the expected values of the checks (the student release)");
  t.record->group("");
  t.record->add_option("FILE", t.command.record_path, "the file to write")
      ->required()
      ->type_name("");
  t.record->add_flag("--visible-only", o.visible_only, "only the checks students see now");
  t.record->add_option("--assignment", o.assignment, "the assignment whose checks to record")
      ->type_name("NAME");
  t.course_key = app.add_subcommand(
      "make-course-key", "make the course key if there is none (the Gradescope release)");
  t.course_key->group("");
}

std::unique_ptr<CLI::App> make_app(Targets& t) {
  auto app = std::make_unique<CLI::App>(
      "linattn-grade: the judge of the linear-attention kit. It builds each exercise of a "
      "submission in a sandbox, runs its checks there, and reports.",
      "linattn-grade");
  app->footer(kFooter);
  app->require_subcommand(0, 1);
  app->get_formatter()->column_width(34);
  app->add_option("--kit", t.kit,
                  "the kit's folder (./kit passes it): grade's DIR defaults to KIT/exercises")
      ->type_name("DIR");
  add_grade_command(*app, t);
  add_class_commands(*app, t);
  add_tool_commands(*app, t);
  return app;
}

// The default command is grade: when the first word after --kit DIR names no command, the
// arguments are grade's. The older spellings of the commands are read as the new.
std::vector<std::string> with_command(const CLI::App& app, std::vector<std::string> args) {
  std::size_t i = 0;
  while (i < args.size() && (args[i] == "--kit" || args[i].rfind("--kit=", 0) == 0))
    i += args[i] == "--kit" ? 2 : 1;
  if (i >= args.size()) {
    args.push_back("grade");
    return args;
  }
  const std::pair<const char*, const char*> older[] = {{"--batch", "grade-all"},
                                                       {"--try", "try"},
                                                       {"--record-oracle", "record-oracle"},
                                                       {"--make-course-key", "make-course-key"}};
  for (const auto& [old_name, name] : older)
    if (args[i] == old_name) args[i] = name;
  if (args[i] == "-h" || args[i] == "--help") return args;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->check_name(args[i])) return args;
  args.insert(args.begin() + static_cast<std::ptrdiff_t>(i), "grade");
  return args;
}

// Arguments no option took: a second folder, or an option grade (or grade-all) does not have.
std::string leftover_error(const CLI::App& sub, const std::string& first_positional) {
  const std::vector<std::string> rest = sub.remaining();
  if (rest.empty()) return "";
  const std::string& a = rest.front();
  if (!a.empty() && a[0] == '-') return "unknown option " + a + " for " + sub.get_name();
  if (sub.get_name() == "grade")
    return "only one submission folder at a time (got " + first_positional + " and " + a + ")";
  return "unexpected argument " + a + " for " + sub.get_name();
}

void finish(Targets& t, const CLI::App& app) {
  Command& c = t.command;
  Options& o = c.options;
  if (t.batch->parsed()) c.mode = Command::Mode::Batch;
  else if (t.merge->parsed()) c.mode = Command::Mode::Merge;
  else if (t.try_->parsed()) c.mode = Command::Mode::Try;
  else if (t.show->parsed()) c.mode = Command::Mode::ShowAssignment;
  else if (t.describe->parsed()) c.mode = Command::Mode::DescribeApi;
  else if (t.record->parsed()) c.mode = Command::Mode::RecordOracle;
  else if (t.course_key->parsed()) c.mode = Command::Mode::MakeCourseKey;
  if (t.seed_option->count() > 0 || t.batch_seed_option->count() > 0) o.seed = t.seed;
  if (!t.only.empty()) {
    const auto slash = t.only.find('/');
    o.only_exercise = t.only.substr(0, slash);
    if (slash != std::string::npos) o.only_check = t.only.substr(slash + 1);
  }
  if (!o.student.empty()) o.course = true;  // a student's seeds are the course's
  if (o.course) o.strict = true;
  // grade's DIR defaults to the kit's exercises/, written relative to where the user stands
  // when that is shorter; so does try's.
  std::string exercises = "exercises";
  if (!t.kit.empty()) {
    std::error_code ec;
    const fs::path rel = fs::relative(fs::path(t.kit) / "exercises", fs::current_path(), ec);
    exercises = ec ? (fs::path(t.kit) / "exercises").string() : rel.string();
  }
  if (o.submission.empty()) o.submission = exercises;
  if (c.try_dir.empty()) c.try_dir = exercises;
  if (c.mode == Command::Mode::Batch) {
    o.submission = c.batch.dir;
    o.strict = o.course = true;  // grading a class is course grading: a sandbox, the course's seeds
  }
  (void)app;
}

}  // namespace

std::variant<Command, int> parse_command_line(int argc, char** argv) {
  Targets t;
  auto app = make_app(t);
  std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  args = with_command(*app, std::move(args));
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 reads it from the back
  try {
    app->parse(reversed);
  } catch (const CLI::CallForHelp&) {
    std::cout << (app->get_subcommands().empty() ? usage_text() : app->help());
    return 0;
  } catch (const CLI::ParseError& e) {
    const auto selected = app->get_subcommands();
    const std::string where = selected.empty() ? "" : selected.front()->get_name() + ": ";
    std::cerr << "linattn-grade: " << where << e.what()
              << "\nlinattn-grade --help (or ./kit --help) lists the options.\n";
    return 2;
  }
  for (const CLI::App* sub : {t.grade, t.batch}) {
    const std::string error =
        sub->parsed() ? leftover_error(*sub, t.command.options.submission) : "";
    if (!error.empty()) {
      std::cerr << "linattn-grade: " << error
                << "\nlinattn-grade --help (or ./kit --help) lists the options.\n";
      return 2;
    }
  }
  if (!t.shard.empty()) try {
      t.command.batch.shard = parse_shard(t.shard);
    } catch (const std::invalid_argument& e) {
      std::cerr << "linattn-grade: grade-all: " << e.what() << "\n";
      return 2;
    }
  finish(t, *app);
  // The platform's file is read here, so that the engine gets its contents, and a file it
  // cannot read is a usage error before anything is built.
  if (!t.command.submission_metadata_path.empty()) try {
      t.command.options.submission_metadata =
          read_submission_metadata(t.command.submission_metadata_path);
    } catch (const SubmissionMetadataError& e) {
      std::cerr << "linattn-grade: " << e.what() << "\n";
      return 2;
    }
  return t.command;
}

std::string usage_text() {
  Targets t;
  auto app = make_app(t);
  return app->help("", CLI::AppFormatMode::All);
}

}  // namespace grader
