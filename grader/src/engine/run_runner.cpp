// Running a check's runner program in the sandbox: see run_runner.hpp.
#include "run_runner.hpp"

#include "../../common/wire.hpp"
#include "../judge/api_schemas.hpp"
#include "../sandbox/ipc_sweep.hpp"
#include "../sandbox/isolation.hpp"
#include "../sandbox/outside_kill.hpp"
#include "../util/memory_file.hpp"
#include "../util/unique_fd.hpp"
#include "cbor_shape.hpp"
#include "scratch_watch.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>

namespace grader {

namespace {

// How deep a reply may nest arrays and maps before the judge decodes it (cbor_shape.hpp).
constexpr std::size_t kMaxReplyNesting = 64;

// The numbers a reply's results may hold, per number of the request and the expected values
// together (plus a small floor): a wrong answer may be larger than the right one (a T x T
// matrix for a T x d one), but nothing the check could legitimately get back is much larger
// than its inputs and the reference's values. A reply that passes the shape check decodes to
// about 16 bytes per number, so this also bounds the judge's memory per check.
constexpr std::uint64_t kReplyNumbersPerGiven = 8;
constexpr std::uint64_t kReplyNumbersFloor = 1 << 16;

// What the runner may send back for this check's request (cbor_shape.hpp); `expected_numbers`
// is numbers_in(the expected values), counted once per check (a time check's expected values
// hold millions of numbers, and it starts nine runners).
ReplyShape reply_shape(const Check& check, const json& request, std::uint64_t expected_numbers) {
  const api::Schema& schema = api::schema_of(check.function);
  ReplyShape shape;
  shape.result_names = schema.results;
  shape.result_kinds = schema.result_kinds;
  shape.calls = request.contains("calls") ? request["calls"].size() : 0;
  shape.watched = schema.watched.size();
  const std::uint64_t given = numbers_in(request) + expected_numbers;
  shape.max_numbers = kReplyNumbersFloor + kReplyNumbersPerGiven * given;
  return shape;
}

std::string short_value(const json& v) {
  if (v.is_object() && v.contains("name")) return v["name"].get<std::string>();  // a phi spec
  if (v.is_object() && v.contains("rows") && v.contains("cols"))
    return std::to_string(v["rows"].get<long>()) + "x" + std::to_string(v["cols"].get<long>());
  if (v.is_array()) return "(" + std::to_string(v.size()) + ")";
  if (v.is_number_float()) {
    std::ostringstream o;
    o << v.get<double>();
    return o.str();
  }
  return v.dump();
}

}  // namespace

std::uint64_t numbers_in(const json& j) {
  if (j.is_number()) return 1;
  if (j.is_binary()) return j.get_binary().size() / sizeof(double);  // a packed matrix (wire.hpp)
  std::uint64_t n = 0;
  if (j.is_array() || j.is_object())
    for (const auto& item : j) n += numbers_in(item);
  return n;
}

std::string start_refused(const RunOutcome& outcome, bool started) {
  if (started || outcome.ending != RunOutcome::Ending::Exited ||
      outcome.output.rfind("bwrap: ", 0) != 0)
    return "";
  return outcome.output.substr(0, outcome.output.find('\n'));
}

bool refused_for_now(const std::string& why) {
  for (const int e : {ETXTBSY, EAGAIN, ENOMEM, EPERM})
    if (why.find(std::strerror(e)) != std::string::npos) return true;
  return false;
}

// The runner's private folder (see make_jail_folder), removed with everything the runner
// wrote there, whatever happens.
struct JailFolder {
  std::filesystem::path path;
  ~JailFolder() {
    if (!path.empty()) remove_jail_folder(path);
  }
};

RunnerRun run_runner(const CheckRun& run, const json& request, double wall_seconds,
                     std::uint64_t expected_numbers) {
  const Check& check = *run.check;
  RunnerRun done;
  RunOutcome& outcome = done.outcome;
  Jail jail;
  jail.purpose = FilterPurpose::Runner;
  jail.worker = run.worker;
  jail.scratch_bytes = kScratchQuota;
  jail.read_only = {{run.runner, "/runner"}};  // the chroot layer copies it in here
  JailFolder folder{make_jail_folder(jail)};
  jail.work = folder.path;
  const std::filesystem::path runner = readable_copy(jail, run.runner);
  jail.read_only = {{runner, "/runner"}};
  // The request, in a sealed in-memory file handed to the runner as its descriptor 3: nothing
  // on disk, nothing the runner could swap for another file. Written from the request's own
  // bytes, piece by piece: a time check's request is about 90 MB, and every new buffer that
  // size costs the kernel tens of thousands of page faults.
  const wire::SplitMessage message = wire::split_message(request);
  MemoryFile request_writer("linattn-request");
  request_writer.write(message.head.data(), message.head.size());
  wire::write_block(message,
                    [&](const std::uint8_t* p, std::size_t n) { request_writer.write(p, n); });
  const UniqueFd request_file = std::move(request_writer).sealed();
  Limits limits = check.limits;
  limits.wall_seconds = wall_seconds;
  if (check.timed) {
    limits.cpu_seconds = check.limits.wall_seconds;
    limits.wall_seconds = timed_call_wall_guard(check);
  }
  limits.reply_pipe = true;
  limits.pass_fds.emplace_back(request_file.get(), 3);
  const UniqueFd started_file(::memfd_create("linattn-runner-started", MFD_CLOEXEC));
  if (!started_file) throw std::runtime_error("memfd_create: " + std::string(std::strerror(errno)));
  limits.pass_fds.emplace_back(started_file.get(), kStartedFd);
  const Confinement confined = confine(jail, {inside(jail, runner), "--fds"}, limits);
  {
    // The chroot layer's scratch folder, watched during the run where no tmpfs caps it.
    const bool chroot = isolation().layer == Layer::Chroot;
    ScratchWatch watch(chroot ? folder.path / "tmp" : std::filesystem::path(), kScratchQuota,
                       chroot ? worker_uid(run.worker) : 0, limits.file_size_bytes);
    const std::uint64_t oom_kills_before = oom_kills_so_far();
    outcome = run_sandboxed(confined.argv, confined.cwd, limits);
    done.oom_kills = oom_kills_so_far() - oom_kills_before;
    done.scratch_stopped = watch.tripped();
  }
  char mark[8];
  done.started = ::pread(started_file.get(), mark, sizeof mark, 0) > 0;
  done.start_refused = start_refused(outcome, done.started);
  // Outside bubblewrap no IPC namespace ends with the run: System V objects the runner's id
  // made would stay on the host (ipc_sweep.hpp; seccomp refuses the calls in the first place).
  if (isolation().layer != Layer::Namespaces) remove_ipc_objects_of(worker_uid(run.worker));
  unwrap_signal(outcome);
  // The runner's own files: the chroot's /tmp, or its folder without a chroot.
  if (isolation().layer == Layer::Chroot) done.scratch_used = bytes_under(folder.path / "tmp");
  if (isolation().layer == Layer::None) done.scratch_used = bytes_under(folder.path);
  // Nested too deep for the decoder's recursion: as good as garbled. (A real reply is a map
  // of arrays of numbers, a few levels deep.) Then the reply is walked against the
  // function's results before anything is built, and decoded only if it fits them.
  if (!outcome.reply.empty()) {
    const ReplyShape shape = reply_shape(check, request, expected_numbers);
    done.reply_problem = cbor_nesting_within(outcome.reply, kMaxReplyNesting)
                             ? reply_shape_problem(outcome.reply, shape)
                             : "nested too deep";
    if (done.reply_problem.empty()) {
      const std::vector<std::uint8_t> bytes(outcome.reply.begin(), outcome.reply.end());
      try {
        // A time check's results stay packed, as its calls are (engine.cpp): its judge reads
        // them through wire::to_matrix. The walk above let byte strings through only as a
        // matrix's data, rows x cols doubles long.
        done.reply = check.timed ? wire::decode_packed(bytes) : wire::decode(bytes);
        done.have_reply = done.reply.is_object() && done.reply.contains("outcome");
      } catch (const std::exception& e) {
        done.reply_problem = e.what();  // a garbled reply counts as no reply
      }
    }
  }
  return done;
}

// The time rule's way (Check::timed): every call in a runner process of its own, one after the
// other, each under the check's wall limit (a hang guard: on a loaded machine nine processes in
// one check's 10 s would time out code that is fine; the verdict is on CPU time). A call's CPU time
// is the supervisor's figure for its process, so the student's code can neither skew the clock nor
// see a later call's inputs; and no state, memo or file outlives its call. The replies are merged
// into one, as a single runner would give it, with "cpu_seconds" from outside. The first call that
// does not return normally (a crash, a time-out, an exception) is the check's outcome.
RunnerRun run_each_call(const CheckRun& run, const json& request) {
  const Check& check = *run.check;
  const json& calls = request.at("calls");
  RunnerRun merged;
  merged.have_reply = true;
  merged.started = true;  // each call's runner did, or its own run is returned instead
  merged.reply = json{{"outcome", "returned"},
                      {"results", json::array()},
                      {"cpu_seconds", json::array()},
                      {"peak_heap_bytes", 0},
                      {"inputs_changed", json::array()}};
  double seconds = 0;
  std::string output;
  std::uint64_t output_bytes = 0;
  const std::uint64_t expected_numbers = numbers_in(run.oracle_case->expected);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    // Packed straight from the request (wire.hpp): a call of 8192 tokens is not copied first.
    const json one_call{{"function", request.at("function")},
                        {"calls", json::array({wire::pack(calls[i])})}};
    RunnerRun one = run_runner(run, one_call, check.limits.wall_seconds, expected_numbers);
    seconds += one.outcome.seconds;
    output += one.outcome.output;
    output_bytes += one.outcome.output_bytes;
    if (output.size() > check.limits.output_bytes_kept)
      output.resize(check.limits.output_bytes_kept);
    one.outcome.seconds = seconds;
    one.outcome.output = output;
    one.outcome.output_bytes = output_bytes;
    const bool returned = one.outcome.ending == RunOutcome::Ending::Exited && one.have_reply &&
                          !one.outcome.reply_over_cap && !one.scratch_stopped &&
                          one.scratch_used + (1u << 20) <= kScratchQuota &&
                          one.reply.value("outcome", "") == "returned" &&
                          one.reply.contains("results") && one.reply["results"].is_array() &&
                          one.reply["results"].size() == 1;
    if (!returned) {
      if (one.have_reply && one.reply.contains("call")) one.reply["call"] = i;
      return one;
    }
    json& m = merged.reply;
    m["results"].push_back(std::move(one.reply["results"][0]));
    m["cpu_seconds"].push_back(one.outcome.cpu_seconds);
    m["peak_heap_bytes"] = std::max(m["peak_heap_bytes"].get<std::uint64_t>(),
                                    one.reply.value("peak_heap_bytes", std::uint64_t{0}));
    m["resident_growth_bytes"] =
        std::max(m.value("resident_growth_bytes", std::uint64_t{0}),
                 one.reply.value("resident_growth_bytes", std::uint64_t{0}));
    for (const auto& name : one.reply.value("inputs_changed", json::array()))
      if (std::find(m["inputs_changed"].begin(), m["inputs_changed"].end(), name) ==
          m["inputs_changed"].end())
        m["inputs_changed"].push_back(name);
    merged.outcome = std::move(one.outcome);
  }
  return merged;
}

std::string describe_call(const json& request) {
  if (!request.contains("calls") || request["calls"].empty()) return "";
  std::string text;
  for (const auto& [name, v] : request["calls"][0].items()) {
    if (!text.empty()) text += ", ";
    text += name + " " + short_value(v);
  }
  return text;
}

}  // namespace grader
