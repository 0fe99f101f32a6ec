// linattn-sandbox-supervisor: the supervisor S of one sandboxed run as a program of its own
// (supervisor_args.hpp says why). The judge starts it with the program's output pipe on
// descriptor 3, the status pipe on 4, the descriptors to pass on from 10, and the plan on its
// command line; it reads the plan and becomes S. Not for people to run.
#include "supervisor_args.hpp"

#include <cerrno>
#include <string>
#include <vector>

#include <unistd.h>

int main(int argc, char** argv) {
  using namespace grader::sandbox;
  Plan plan;
  std::string error;
  if (!read_plan_arguments(std::vector<std::string>(argv + (argc > 0 ? 1 : 0), argv + argc), plan,
                           error)) {
    // Nothing starts: the judge reads this as a launch failure.
    StatusRecord r;
    r.kind = StatusRecord::SupervisorFailed;
    r.exec_errno = EINVAL;
    write_all(kSupervisorStatusFd, &r, sizeof r);
    const std::string text = "linattn-sandbox-supervisor: " + error + "\n";
    write_all(2, text.data(), text.size());
    return 1;
  }
  supervise(plan, kSupervisorOutFd, kSupervisorStatusFd);
}
