#include "engine.hpp"

#include "../builder/build_log.hpp"
#include "../builder/builder.hpp"
#include "../judge/check.hpp"
#include "../report/check_id.hpp"
#include "../report/submission_metadata.hpp"
#include "../sandbox/isolation.hpp"
#include "../util/find_files.hpp"
#include "../util/job_count.hpp"
#include "../util/utf8.hpp"
#include "assignment.hpp"
#include "course_seeds.hpp"
#include "engine_plan.hpp"
#include "grader_config.hpp"
#include "oracle_cache.hpp"
#include "oracle_source.hpp"
#include "run_check.hpp"

#include "../../common/wire.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include <malloc.h>
#include <unistd.h>

namespace grader {

namespace {

namespace fs = std::filesystem;

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Runs job(i, w) for i in [0, n) on up to `workers` threads; w is the thread's number.
template <class Job>
void parallel_for_worker(std::size_t n, int workers, Job job) {
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> threads;
  const int count = std::max(1, std::min<int>(workers, static_cast<int>(n)));
  for (int w = 0; w < count; ++w)
    threads.emplace_back([&, w] {
      for (std::size_t i; (i = next++) < n;) job(i, w);
    });
  for (auto& t : threads) t.join();
}

// One call of grade_many, in its steps: the oracle cases and the builds (one pool), the
// reports with a slot per check, the checks (another pool), the totals.
class Grading {
 public:
  Grading(const std::vector<std::string>& submissions, const Options& o, const Progress& progress,
          const std::vector<const FoundSources*>& found, const OracleSource& oracle,
          const GradingPlan& plan, const std::vector<std::string>& students)
      : submissions_(submissions),
        o_(o),
        progress_(progress),
        found_(found),
        oracle_(oracle),
        plan_(plan),
        key_(course_key_for(o, oracle, plan.assignment)),
        per_student_(o.course && !o.seed && plan.assignment.seeds == Seeds::PerStudent),
        n_ex_(plan.exercises.size()),
        jobs_(choose_job_count(o.jobs, read_capacity())) {
    if (per_student_) student_of_ = students_of(submissions, o, students, plan.assignment);
    // Submissions of one student share their cases: group g's seeds are student_ids_[g]'s.
    group_of_.assign(submissions.size(), 0);
    for (std::size_t s = 0; s < student_of_.size(); ++s) {
      auto at = std::find(student_ids_.begin(), student_ids_.end(), student_of_[s]);
      group_of_[s] = static_cast<std::size_t>(at - student_ids_.begin());
      if (at == student_ids_.end()) student_ids_.push_back(student_of_[s]);
    }
  }

  std::vector<Report> run(Layer layer, const std::optional<Lateness>& late,
                          Clock::time_point start) {
    plan_cases();
    build_and_fetch();
    // Making the oracle cases freed far more memory than they keep (the time checks' problems
    // are built, joined and cut as JSON). Hand the free pages back: every runner start forks
    // the judge, and a fork copies the page tables of all that is mapped, free or not
    // (grading backward: 346 MB resident before, 150 MB after).
    ::malloc_trim(0);
    open_reports();
    run_checks();
    total_up(layer, late, start);
    return std::move(reports_);
  }

 private:
  // The oracle case of one selected check: the same for every submission.
  struct CaseSlot {
    std::size_t exercise;
    const Check* check;
    std::uint64_t seed;
    OracleCase value;
    std::string error;
  };
  // A check of a submission whose exercise built: where its result goes.
  struct Job {
    std::size_t submission, exercise, slot;
    const Check* check;
  };

  std::uint64_t seed_of(std::size_t group, const std::string& exercise, const Check& c) const {
    const Options& o = o_;
    if (o.seed) return *o.seed;
    if (key_.empty()) return c.seed;
    return per_student_ ? student_seed(key_, student_ids_[group], exercise, c.name, c.seed)
                        : course_seed(key_, exercise, c.name, c.seed);
  }

  // The oracle cases, one per selected check (per student, under per-student seeds).
  void plan_cases() {
    const std::size_t n_groups = per_student_ ? student_ids_.size() : 1;
    for (std::size_t g = 0; g < n_groups; ++g)
      for (std::size_t e = 0; e < n_ex_; ++e)
        for (const Check* c : plan_.checks[e]) {
          case_of_[{g, c}] = cases_.size();
          cases_.push_back({e, c, seed_of(g, plan_.exercises[e]->exercise, *c), {}, {}});
        }
  }

  // Build every exercise of every submission, and work out every oracle case, in one pool;
  // cached builds cost nothing.
  void build_and_fetch() {
    builds_.resize(submissions_.size() * n_ex_);
    // Which file each build took (find_files.hpp): the caller's answer (shared, not copied: it
    // holds the file's bytes), else one found here and kept in `own_found_`.
    own_found_.resize(builds_.size());
    sources_.resize(builds_.size());
    for (std::size_t b = 0; b < builds_.size(); ++b)
      sources_[b] = &own_found_[b];  // "missing" until found
    std::atomic<std::size_t> built{0};
    parallel_for_worker(builds_.size() + cases_.size(), jobs_.jobs, [&](std::size_t b, int worker) {
      if (b >= builds_.size()) {
        fetch_case(cases_[b - builds_.size()]);
        return;
      }
      build_one(b, worker);
      if (progress_) progress_("building", ++built, builds_.size());
    });
    // A compiler the kernel killed from outside (the machine ran short of memory) gets one more
    // try, alone; killed again, its exercise is the grader's fault (open_exercise).
    for (std::size_t b = 0; b < builds_.size(); ++b)
      if (builds_[b].status == BuildResult::Status::KilledFromOutside) build_one(b, 0);
  }

  void fetch_case(CaseSlot& slot) const {
    try {
      const std::string& exercise = plan_.exercises[slot.exercise]->exercise;
      // The live oracle's cases at the checks' own seeds are kept between runs
      // (oracle_cache.hpp): a regrade reads them. (Course and per-student seeds are not kept:
      // one student's cases would be of no use to the next.)
      const bool live = !oracle_.replaying() && slot.seed == slot.check->seed;
      if (live)
        if (auto kept = cached_oracle_case(exercise, *slot.check, slot.seed)) {
          slot.value = std::move(*kept);
          return;
        }
      slot.value = oracle_.fetch(exercise, *slot.check, slot.seed);
      // A time check's calls and expected outputs hold millions of numbers: kept packed
      // (grader/common/wire.hpp), half the memory, which every runner's fork of the judge
      // copies the page tables of. Its judge reads them through wire::to_matrix, which takes
      // either form. (Shrunk replays are completed as arrays: left as they are.)
      if (slot.check->timed && !slot.value.shrunk) {
        slot.value.request = wire::pack(slot.value.request);
        slot.value.expected = wire::pack(slot.value.expected);
      }
      if (live) keep_oracle_case(exercise, *slot.check, slot.seed, slot.value);
    } catch (const std::exception& e) {
      slot.error = e.what();
    }
  }

  void build_one(std::size_t b, int worker) {
    const std::string& exercise = plan_.exercises[b % n_ex_]->exercise;
    const std::vector<const FoundSources*>& found = found_;
    try {
      // The file and its copy, read once through the finder's door (grade-all found them
      // already, for its stamps); the builder stages the copy, never the student's file.
      const std::size_t s = b / n_ex_;
      if (s < found.size() && found[s] && found[s]->count(exercise)) {
        sources_[b] = &found[s]->at(exercise);
      } else {
        own_found_[b] = find_exercise_source(submissions_[s], exercise);
      }
      const FoundSource& source = *sources_[b];
      if (source.kind == FoundSource::Kind::Found && source.refused.empty()) {
        builds_[b] = build_runner_from_source(exercise, source.text, static_cast<unsigned>(worker));
      } else if (source.kind == FoundSource::Kind::Found) {
        builds_[b].log =
            source.refused + "\n";  // a link or a size refused: the student's build error
      } else {
        builds_[b].status = BuildResult::Status::Missing;
        builds_[b].log = source.problem(exercise) + "\n";
      }
    } catch (const std::exception& e) {
      builds_[b].status = BuildResult::Status::Fault;
      builds_[b].log = std::string("the grader could not build this exercise: ") + e.what();
    }
  }

  // A report per submission, with an exercise per selected exercise and a slot per check: a
  // check whose exercise did not build is decided here, the others go in the queue.
  void open_reports() {
    reports_.resize(submissions_.size());
    for (std::size_t s = 0; s < submissions_.size(); ++s) {
      Report& report = reports_[s];
      report.submission = submissions_[s];
      for (std::size_t e = 0; e < n_ex_; ++e) report.exercises.push_back(open_exercise(s, e));
    }
    for (std::size_t b = 0; b < builds_.size(); ++b)
      if (builds_[b].status == BuildResult::Status::Fault ||
          builds_[b].status == BuildResult::Status::KilledFromOutside)
        reports_[b / n_ex_].grader_fault = true;  // not the student's doing: exit 2
  }

  ExerciseResult open_exercise(std::size_t s, std::size_t e) {
    const Options& o = o_;
    const GradingPlan& plan = plan_;
    const BuildResult& build = builds_[s * n_ex_ + e];
    const std::string& exercise = plan.exercises[e]->exercise;
    ExerciseResult ex;
    ex.name = exercise;
    ex.build_ok = build.ok();
    ex.build_cached = build.cached;
    ex.build_seconds = build.seconds;
    const FoundSource& found = *sources_[s * n_ex_ + e];
    // The builder names the file by the kit's layout, <ex>/<ex>.cpp (its cache serves every
    // upload of the same text, whatever its name); the student knows it by the upload's name.
    std::string build_log = build.log;
    if (found.kind == FoundSource::Kind::Found && !found.shown.empty())
      replace_all(build_log, exercise + "/" + exercise + ".cpp", found.shown);
    ex.build_log = build_log;
    ex.source = found.shown;
    ex.source_status = found.kind_name();
    ex.source_others =
        found.kind == FoundSource::Kind::Ambiguous ? found.candidates : found.ignored;
    if (o.only_check.empty())
      for (const Check* c : plan.course_only[e])
        ex.course_only.push_back({c->name, plan.assignment.points_of(exercise, *c)});
    for (const Check* c : plan.checks[e]) {
      CheckResult r;
      r.name = c->name;
      r.function = c->function;
      r.max_score = plan.assignment.points_of(exercise, *c);  // scaled to the exercise's points
      r.seed = seed_of(group_of_[s], exercise, *c);
      r.visibility = visibility_name(plan.assignment.visibility_of(exercise, *c));
      r.rerun = rerun_line(submissions_[s], o.assignment, exercise, c->name, r.seed);
      if (build.status == BuildResult::Status::KilledFromOutside) {
        r.status = Status::GraderFault;
        r.grader_fault = true;
        r.message = machine_short_message(
            "the compiler or linker was killed from outside its limits twice, the second time "
            "building alone; " +
            first_line(build.log));
        r.rerun.clear();
      } else if (!build.ok()) {
        const bool missing = build.status == BuildResult::Status::Missing;
        r.status =
            found.kind == FoundSource::Kind::Ambiguous ? Status::Ambiguous : Status::BuildError;
        if (missing)
          r.reason = found.kind == FoundSource::Kind::Ambiguous ? "ambiguous" : "missing_files";
        r.grader_fault =
            build.status == BuildResult::Status::Fault;  // the grader's set-up, not the submission
        if (r.grader_fault) r.status = Status::GraderFault;
        r.message =
            !found.refused.empty() ? "The exercise does not build: " + found.refused + "."
            : missing ? (found.problem(exercise).empty() ? build.log : found.problem(exercise))
            : r.grader_fault ? "The grader could not build the exercise (its own fault, not the "
                               "submission's):\n" +
                                   first_errors(build_log)
                             : "The exercise does not build:\n" + first_errors(build_log);
        r.rerun.clear();
      } else {
        queue_.push_back({s, e, ex.checks.size(), c});
      }
      ex.checks.push_back(std::move(r));
    }
    return ex;
  }

  // Every check of every exercise that built, as one pool of independent jobs; then, alone,
  // each check that failed for the machine's sake: a runner the kernel killed from outside (the
  // machine ran short of memory), or one that did not start (under parallel grading the
  // kernel refused once to start a runner copy as still open for writing, ETXTBSY).
  void run_checks() {
    std::mutex retry_mutex;
    std::map<std::size_t, CheckResult> retry;  // queue index -> the slot as it was before
    std::atomic<std::size_t> checked{0};
    parallel_for_worker(queue_.size(), jobs_.jobs, [&](std::size_t q, int worker) {
      CheckResult before = slot_of(q);
      check_one(q, worker);
      if (slot_of(q).run_again != CheckResult::RunAgain::No) {
        std::lock_guard<std::mutex> lock(retry_mutex);
        retry.emplace(q, std::move(before));
      }
      if (progress_) progress_("checking", ++checked, queue_.size());
    });
    for (auto& [q, before] : retry) {
      slot_of(q) = std::move(before);
      check_one(q, 0);
      failed_when_alone(slot_of(q));
    }
    for (const Job& job : queue_)
      if (reports_[job.submission].exercises[job.exercise].checks[job.slot].grader_fault)
        reports_[job.submission].grader_fault = true;
  }

  CheckResult& slot_of(std::size_t q) {
    const Job& job = queue_[q];
    return reports_[job.submission].exercises[job.exercise].checks[job.slot];
  }

  void check_one(std::size_t q, int worker) {
    const Job& job = queue_[q];
    const CaseSlot& oc = cases_[case_of_.at({group_of_[job.submission], job.check})];
    const std::size_t b = job.submission * n_ex_ + job.exercise;
    CheckRun run{job.check, plan_.exercises[job.exercise]->exercise, builds_[b].runner,
                 oc.error.empty() ? &oc.value : nullptr, oc.error};
    // Each worker's programs run under a user id of their own (isolation.hpp: worker_uid).
    run.worker = static_cast<unsigned>(worker);
    run.source = &sources_[b]->text;
    slot_of(q) = run_check(run, std::move(slot_of(q)));
  }

  // Add up the scores; make every text valid UTF-8 for the JSON and XML reports.
  void total_up(Layer layer, const std::optional<Lateness>& late, Clock::time_point start) {
    if (per_student_)
      for (std::size_t s = 0; s < reports_.size(); ++s)
        reports_[s].student = valid_utf8(student_of_[s]);
    for (auto& report : reports_) {
      report.submission = valid_utf8(report.submission);
      for (auto& ex : report.exercises) {
        ex.build_log = valid_utf8(ex.build_log);
        ex.source = valid_utf8(ex.source);
        for (auto& other : ex.source_others) other = valid_utf8(other);
        for (auto& c : ex.checks) {
          c.output = valid_utf8(c.output);
          c.message = valid_utf8(c.message);
          ex.score += c.score;
          ex.max_score += c.max_score;
        }
        report.score += ex.score;
        report.max_score += ex.max_score;
      }
      report.seconds = since(start);
      report.isolation = layer_name(layer);
      report.jobs = jobs_.jobs;
      report.jobs_why = jobs_.why;
      report.assignment = plan_.assignment.name;
      report.late = late;
      report.late_policy = describe_late_policy(plan_.assignment.late);
      report.seeds = o_.seed        ? "given"
                     : key_.empty() ? "own"
                     : per_student_ ? "per-student"
                                    : "course";
      for (const auto& header : edited_headers())
        report.notices.push_back(header +
                                 " differs from the kit's: your changes to it are ignored, "
                                 "and every submission is compiled against the kit's own copy.");
    }
  }

  const std::vector<std::string>& submissions_;
  const Options& o_;
  const Progress& progress_;
  const std::vector<const FoundSources*>& found_;
  const OracleSource& oracle_;
  const GradingPlan& plan_;
  const std::string key_;
  const bool per_student_;
  std::vector<std::string> student_of_;   // per submission, under per-student seeds
  std::vector<std::string> student_ids_;  // each student once
  std::vector<std::size_t> group_of_;     // per submission: its student's index in student_ids_
  const std::size_t n_ex_;
  const JobCount jobs_;
  std::vector<CaseSlot> cases_;
  std::map<std::pair<std::size_t, const Check*>, std::size_t> case_of_;  // (group, check) -> case
  std::vector<BuildResult> builds_;
  std::vector<FoundSource> own_found_;
  std::vector<const FoundSource*> sources_;
  std::vector<Report> reports_;
  std::vector<Job> queue_;
};

}  // namespace

std::vector<Report> grade_many(const std::vector<std::string>& submissions, const Options& o,
                               const Progress& progress,
                               const std::vector<const FoundSources*>& found,
                               const std::vector<std::string>& students) {
  const auto start = Clock::now();
  for (const auto& s : submissions)
    if (!fs::is_directory(s)) throw UsageError("no such folder: " + s);
  const Layer layer = required_isolation(o);
  const OracleSource oracle = open_oracle(o);
  const GradingPlan plan = make_plan(o, oracle);
  // How late it was handed in, when asked (late_policy.hpp), read before any
  // grading so that a bad time costs nothing; the raw score stays.
  std::optional<Lateness> late;
  try {
    late = lateness_from(plan.assignment.late, o.submitted_at, o.submission_metadata);
  } catch (const LatePolicyError& e) {
    throw UsageError(e.what());
  }
  return Grading(submissions, o, progress, found, oracle, plan, students).run(layer, late, start);
}

}  // namespace grader
