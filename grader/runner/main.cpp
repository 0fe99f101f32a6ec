// The runner's main: read one request, call the student's function once per call through
// its binding, write one reply. The reply holds outputs and observations only; whether they
// are right is decided by the judge, in another process, against the reference.
//
//   runner REQUEST_FILE REPLY_FILE     (by hand, and in the kit's own tests)
//   runner --fds                       (as the judge runs it: the request is read from
//                                       descriptor 3, the reply written to descriptor 4, a pipe
//                                       the judge owns; no file of the reply ever exists; the
//                                       mark that the harness started goes to descriptor 5
//                                       before main, see started_mark.cpp)
//
// Exit status 0 when a reply was written (whatever the student's code did, short of ending the
// process), 2 when even that failed. The reply is written to a temporary name and renamed, so
// the judge sees a complete reply or none (a student calling exit() mid-call leaves none).
#include "abort_frames.hpp"
#include "binding_table.hpp"
#include "heap_meter.hpp"
#include "linattn.hpp"

#include "../common/wire.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iterator>
#include <new>
#include <string>

namespace {

using runner::json;

bool read_bytes(const char* path, std::vector<std::uint8_t>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

bool write_reply(const std::string& path, const json& reply) {
  const std::vector<std::uint8_t> bytes = wire::encode(reply);
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) return false;
  }
  return std::rename(tmp.c_str(), path.c_str()) == 0;
}

// A fault of the request or the harness, not of the student: the judge reports it as the
// grader's own error.
json harness_error(const std::string& what) {
  return json{{"outcome", "harness_error"},
              {"what", what},
              {"results", json::array()},
              {"peak_heap_bytes", 0},
              {"inputs_changed", json::array()}};
}

// Where the judge puts the request and expects the reply (see grader/src/sandbox/sandbox.hpp).
constexpr int kRequestFd = 3;
constexpr int kReplyFd = 4;

json run(const json& request) {
  const runner::BindingTable& table = runner::binding_table();
  if (!table.registered_twice.empty())
    return harness_error("the runner's binding for " + table.registered_twice.front() +
                         " was registered twice (a submission may not define runner:: symbols)");
  const std::string function = request.at("function").get<std::string>();
  const auto binding = table.bindings.find(function);
  if (binding == table.bindings.end())
    return harness_error("this runner has no binding for the function \"" + function + "\"");

  json reply{
      {"outcome", "returned"}, {"results", json::array()}, {"inputs_changed", json::array()}};
  const json& calls = request.at("calls");
  std::vector<std::string> changed;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    runner::CallRecord record;
    runner::clear_exception_origin();
    // Whose exception it was decides the outcome: one thrown inside metered() is the
    // student's; anything else (a missing argument, a bad matrix) is the harness's.
    auto failed = [&](const char* outcome, const std::string& what) {
      if (!runner::exception_came_from_student()) {
        reply = harness_error("call " + std::to_string(i) + ": " + what);
        return;
      }
      reply["outcome"] = outcome;
      reply["what"] = what;
      reply["call"] = i;
    };
    try {
      // Each call once: no time is taken here. The time rule's clock is the supervisor's, outside
      // this process (grader/checks/shared/time_rule.hpp), which runs each timed call in a
      // runner of its own.
      reply["results"].push_back(binding->second(calls[i], record));
    } catch (const linattn::NotImplemented& e) {
      failed("not_implemented", e.what());
    } catch (const std::bad_alloc& e) {
      failed("bad_alloc", e.what());
      reply["failed_allocation_bytes"] = runner::largest_failed_allocation();
    } catch (const std::exception& e) {
      failed("exception", e.what());
    } catch (...) {
      failed("exception", "an exception that is not a std::exception");
    }
    for (const auto& name : record.inputs_changed)
      if (std::find(changed.begin(), changed.end(), name) == changed.end()) changed.push_back(name);
    if (reply.at("outcome") != "returned") break;
  }
  reply["peak_heap_bytes"] = runner::peak_heap_bytes();
  reply["resident_growth_bytes"] = runner::peak_resident_growth_bytes();
  if (reply.at("outcome") != "harness_error") reply["inputs_changed"] = changed;
  return reply;
}

bool read_fd(int fd, std::vector<std::uint8_t>& out) {
  struct stat st {};
  // The request is a file of known size (a sealed memfd): one allocation, not a doubling chain.
  if (::fstat(fd, &st) == 0 && st.st_size > 0) out.reserve(static_cast<std::size_t>(st.st_size));
  std::uint8_t buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) return true;
    out.insert(out.end(), buf, buf + n);
  }
}

bool write_fd(int fd, const json& reply) {
  const std::vector<std::uint8_t> bytes = wire::encode_packed(reply);
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return ::close(fd) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  runner::print_frames_on_abort();
  const bool fds = argc == 2 && std::string(argv[1]) == "--fds";
  if (argc != 3 && !fds) {
    std::fprintf(stderr, "usage: %s REQUEST_FILE REPLY_FILE | --fds\n",
                 argc > 0 ? argv[0] : "runner");
    return 2;
  }
  json reply;
  std::vector<std::uint8_t> bytes;
  const bool read = fds ? read_fd(kRequestFd, bytes) : read_bytes(argv[1], bytes);
  // Nothing of the request stays open while the student's code runs: each call sees only the
  // arguments it is given (no reading ahead to later calls through descriptor 3).
  if (fds) ::close(kRequestFd);
  if (!read) {
    reply = harness_error(fds ? std::string("cannot read the request")
                              : std::string("cannot read the request ") + argv[1]);
  } else {
    try {
      reply = run(wire::decode_split(bytes));  // the judge sends it split (wire.hpp)
    } catch (const std::exception& e) {
      reply = harness_error(std::string("malformed request: ") + e.what());
    }
  }
  if (!(fds ? write_fd(kReplyFd, reply) : write_reply(argv[2], reply))) {
    std::fprintf(stderr, "runner: cannot write the reply\n");
    return 2;
  }
  return 0;
}
